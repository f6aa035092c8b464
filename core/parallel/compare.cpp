#include "parallel/compare.hpp"

#include "parallel/ring_attention.hpp"

namespace commlab {

namespace {
ParallelismRow nothing(const std::string& id, const std::string& belongs) {
  ParallelismRow r;
  r.id = id;
  r.pattern = "none";
  r.belongs_on = belongs;
  return r;
}
// On the critical path: inside the NVLink domain when the NIC's time is over kCrossShare of the compute.
std::string place(double nic_time_s, double compute_time_s) {
  return nic_time_s > kCrossShare * compute_time_s ? "nvlink_domain" : "across_nodes";
}
}  // namespace

std::vector<ParallelismRow> compare_parallelisms(const ModelPreset& m, const GpuPreset& g, const Link& intra,
                                                 const Link& nic, double tokens, Phase phase,
                                                 const ParallelismDegrees& d, double mfu) {
  std::vector<ParallelismRow> rows;
  // §6.1: replicas serve their own requests and send nothing at inference.
  rows.push_back(nothing("dp", "anywhere"));

  // §6.2: two all-reduces a layer; sequence parallelism the same bytes as reduce-scatter + all-gather.
  const TpCost a = tp_cost(m, g, d.tp, tokens, phase, intra, AllreduceAlgorithm::ring, mfu);
  const TpCost b = tp_cost(m, g, d.tp, tokens, phase, nic, AllreduceAlgorithm::ring, mfu);
  for (const char* id : {"tp", "sp"}) {
    const bool sp = std::string(id) == "sp";
    const double bytes = sp ? a.sp_bytes_sent_per_gpu : a.bytes_sent_per_gpu;
    if (bytes == 0) {
      rows.push_back(nothing(id, "none"));
      continue;
    }
    ParallelismRow r;
    r.id = id;
    r.pattern = sp ? "reduce_scatter_allgather" : "allreduce";
    r.bytes_per_gpu_step = bytes;
    r.messages_per_step = a.allreduces;
    r.intra_time_s = a.comm_time_s;
    r.nic_time_s = b.comm_time_s;
    r.compute_time_s = a.compute_time_s;
    r.message_bytes = a.allreduce_bytes;
    r.intra_message_time_s = a.call.cost.time_s;
    r.nic_message_time_s = b.call.cost.time_s;
    r.belongs_on = place(r.nic_time_s, r.compute_time_s);
    rows.push_back(r);
  }

  // §6.3: each of the pp - 1 stage boundaries sends the step's activation once, one after another,
  // beside the whole model's compute (the stages run in turn).
  if (d.pp <= 1) {
    rows.push_back(nothing("pp", "none"));
  } else {
    const TpCost whole = tp_cost(m, g, 1, tokens, phase, intra, AllreduceAlgorithm::ring, mfu);
    ParallelismRow r;
    r.id = "pp";
    r.pattern = "send_recv";
    r.message_bytes = whole.allreduce_bytes;  // tokens x hidden x bytes a value
    r.messages_per_step = d.pp - 1;
    r.bytes_per_gpu_step = r.message_bytes;  // a stage sends its activation once
    r.intra_message_time_s = transfer_time_s(intra, r.message_bytes);
    r.nic_message_time_s = transfer_time_s(nic, r.message_bytes);
    r.intra_time_s = r.messages_per_step * r.intra_message_time_s;
    r.nic_time_s = r.messages_per_step * r.nic_message_time_s;
    r.compute_time_s = whole.compute_time_s;
    r.belongs_on = place(r.nic_time_s, r.compute_time_s);
    rows.push_back(r);
  }

  // §6.4: dispatch and combine all-to-alls every layer, beside a GPU's 1/ep share of the compute.
  if (m.experts == 0) {
    rows.push_back(nothing("ep", "no_experts"));
  } else {
    const EpCost ea = ep_cost(m, d.ep, tokens, 1, intra);
    const EpCost eb = ep_cost(m, d.ep, tokens, 1, nic);
    if (ea.bytes_per_gpu_step == 0) {
      rows.push_back(nothing("ep", "none"));
    } else {
      ParallelismRow r;
      r.id = "ep";
      r.pattern = "alltoall";
      r.bytes_per_gpu_step = ea.bytes_per_gpu_step;
      r.messages_per_step = 2LL * moe_layers(m);
      r.intra_time_s = ea.step_time_s;
      r.nic_time_s = eb.step_time_s;
      r.message_bytes = ea.dispatch_bytes_per_gpu_layer;
      r.intra_message_time_s = ea.alltoall_time_s;
      r.nic_message_time_s = eb.alltoall_time_s;
      r.compute_time_s = tp_cost(m, g, d.ep, tokens, phase, intra, AllreduceAlgorithm::ring, mfu).compute_time_s;
      r.belongs_on = place(r.nic_time_s, r.compute_time_s);
      rows.push_back(r);
    }
  }

  // §6.5: a layer's KV blocks go once round the ring (cp - 1 sends a layer) beside cp blocks of
  // attention; it may cross nodes when a ring step's compute covers the NIC's transfer, alpha
  // included (the ring view's hiding_case): the bandwidth-only threshold would place it across
  // nodes while each step's transfer outlasts its compute.
  if (d.cp <= 1) {
    rows.push_back(nothing("cp", "none"));
  } else {
    const double n = tokens / d.cp;
    const RingAttentionCost ca = ring_attention_cost(m, effective_flops(g, mfu), intra, n);
    const RingAttentionCost cb = ring_attention_cost(m, effective_flops(g, mfu), nic, n);
    ParallelismRow r;
    r.id = "cp";
    r.pattern = "ring_send_recv";
    r.messages_per_step = static_cast<long long>(m.layers) * (d.cp - 1);
    r.message_bytes = n * ca.kv_bytes_per_token;
    r.bytes_per_gpu_step = r.messages_per_step * r.message_bytes;
    r.intra_message_time_s = ca.transfer_time_s;
    r.nic_message_time_s = cb.transfer_time_s;
    r.intra_time_s = r.messages_per_step * ca.transfer_time_s;
    r.nic_time_s = r.messages_per_step * cb.transfer_time_s;
    r.compute_time_s = static_cast<double>(m.layers) * d.cp * ca.compute_time_s;
    r.hidden_on_nic = cb.hidden_with_alpha;
    r.belongs_on = cb.hidden_with_alpha ? "across_nodes" : "nvlink_domain";
    rows.push_back(r);
  }
  return rows;
}

}  // namespace commlab
