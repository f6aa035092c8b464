#include "parallel/overlap.hpp"

#include <algorithm>

#include "parallel/parallel.hpp"

namespace commlab {

Timeline pipelined_timeline(int n, double c1, double a1, double serial_s, bool record) {
  Timeline t;
  t.serial_s = serial_s;
  double link_free = 0;
  for (int i = 0; i < n; ++i) {
    const double c_start = i * c1, c_end = (i + 1) * c1;
    const double a_start = std::max(c_end, link_free), a_end = a_start + a1;
    link_free = a_end;
    if (record) {
      t.intervals.push_back({"compute", i, c_start, c_end});
      t.intervals.push_back({"comm", i, a_start, a_end});
    }
  }
  t.compute_end_s = n * c1;
  t.total_s = std::max(link_free, t.compute_end_s);
  t.exposed_comm_s = t.total_s - t.compute_end_s;
  return t;
}

Timeline chunked_overlap(double c, double a, int n, double alpha) {
  return pipelined_timeline(n, c / n, a / n + alpha, c + a + alpha);
}

TpPrefillOverlap tp_prefill_overlap(const ModelPreset& m, const GpuPreset& g, int tp, double tokens,
                                    const Link& link, int n, AllreduceAlgorithm algorithm, double mfu) {
  TpPrefillOverlap r;
  r.layer_compute_s = prefill_layer_time_s(m, tokens, tp, effective_flops(g, mfu));
  const double D = tokens * m.hidden * m.activation_bytes;
  r.layer_comm_s = 2 * allreduce_cost(algorithm, tp, D, link).time_s;
  r.chunk_allreduce_bytes = D / n;
  r.chunk_comm_s = 2 * allreduce_cost(algorithm, tp, D / n, link).time_s;
  r.layer_serial_s = r.layer_compute_s + r.layer_comm_s;
  r.layer = pipelined_timeline(n, r.layer_compute_s / n, r.chunk_comm_s, r.layer_serial_s);
  r.layer_overlapped_s = r.layer.total_s;
  r.model_serial_s = m.layers * r.layer_serial_s;
  r.model_overlapped_s = m.layers * r.layer_overlapped_s;
  r.saved_s = r.model_serial_s - r.model_overlapped_s;
  return r;
}

KvTransfer kv_transfer(const ModelPreset& m, double tokens, int nics, const Link& nic,
                       double layer_compute_s, bool record) {
  KvTransfer r;
  r.kv_bytes = tokens * kv_bytes_per_token(m);
  r.one_nic_s = transfer_time_s(nic, r.kv_bytes);
  r.all_nics_s = transfer_time_s(nic, r.kv_bytes / nics);  // each NIC carries 1/nics at once
  r.layer_compute_s = layer_compute_s;
  r.layer_transfer_s = transfer_time_s(nic, r.kv_bytes / m.layers / nics);
  r.prefill_s = m.layers * layer_compute_s;
  // P5 §7.3: layer l's KV leaves as soon as layer l is computed, during layer l+1.
  r.timeline = pipelined_timeline(m.layers, layer_compute_s, r.layer_transfer_s,
                                  r.prefill_s + r.all_nics_s, record);
  r.layerwise_exposed_s = r.timeline.exposed_comm_s;
  return r;
}

Timeline two_batch_overlap(double c, double a) {
  // Two halves pipelined on two streams, no extra alpha per half (P5 §7.4).
  return pipelined_timeline(2, c / 2, a / 2, c + a);
}

}  // namespace commlab
