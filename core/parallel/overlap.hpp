// Overlapping computation and communication (P5 §7, code 05): chunked pipelining, TP prefill in
// chunks, layer-by-layer KV transfer, two-batch overlap; each as a timeline of intervals on a
// compute stream and a communication stream, for the page to draw.
#pragma once
#include <string>
#include <vector>

#include "model/collectives.hpp"
#include "model/links.hpp"
#include "model/presets.hpp"

namespace commlab {

struct StreamInterval {
  std::string stream;  // "compute" or "comm"
  int index;           // chunk, layer or half-batch
  double start_s, end_s;
};

struct Timeline {
  double total_s = 0;        // last interval's end
  double serial_s = 0;       // compute then communication, nothing overlapped
  double compute_end_s = 0;  // when the compute stream finishes
  double exposed_comm_s = 0; // total_s - compute_end_s: communication left sticking out
  std::vector<StreamInterval> intervals;
};

/// n pieces, each computing `chunk_compute_s` then communicating `chunk_comm_s`; piece i's
/// communication starts when its compute is done and the link is free, and compute never waits
/// for communication (the next piece does not need this one's result, P5 §7.1):
/// T = c1 + a1 + (n-1) max(c1, a1).
Timeline pipelined_timeline(int pieces, double chunk_compute_s, double chunk_comm_s,
                            double serial_s, bool record = true);

/// P5 §7.1, code 05 demo 1: compute c and communication a cut into n chunks, each paying an
/// extra `alpha_per_chunk_s`: c1 = c/n, a1 = a/n + alpha (1 / 1 ms, 10 us: 2.01, 1.20, 3.56 ms
/// for 1, 8, 256 chunks). The serial reference is c + a + alpha (one chunk).
Timeline chunked_overlap(double compute_s, double comm_s, int chunks, double alpha_per_chunk_s);

/// P5 §7.2, code 05 demo 2: one TP prefill layer cut by token into n chunks; each chunk computes
/// 1/n of the layer and then runs its two all-reduces of D/n (each paying all its alphas).
/// Layers run one after another: the next layer needs this one's output.
struct TpPrefillOverlap {
  double layer_compute_s = 0;
  double layer_comm_s = 0;        // two all-reduces of the whole D
  double chunk_allreduce_bytes = 0;
  double chunk_comm_s = 0;        // two all-reduces of D/n
  double layer_serial_s = 0;
  double layer_overlapped_s = 0;
  double model_serial_s = 0;      // x layers
  double model_overlapped_s = 0;
  double saved_s = 0;             // over all layers
  Timeline layer;                 // one layer's timeline
};
TpPrefillOverlap tp_prefill_overlap(const ModelPreset& m, const GpuPreset& g, int tp, double tokens,
                                    const Link& link, int chunks, AllreduceAlgorithm algorithm,
                                    double mfu = kDefaultMfu);

/// P5 §2.5, §7.3, exercise 8: moving a prompt's KV from prefill to decode machines.
struct KvTransfer {
  double kv_bytes = 0;
  double one_nic_s = 0;          // after prefill, one NIC
  double all_nics_s = 0;         // after prefill, `nics` NICs in parallel (bytes / nics each)
  double layer_compute_s = 0;    // prefill time of one layer
  double layer_transfer_s = 0;   // one layer's KV on all NICs
  double prefill_s = 0;          // all layers
  double layerwise_exposed_s = 0;// transfer sticking out after the last layer
  Timeline timeline;             // layer-by-layer: compute layers, transfers on the NICs
};
KvTransfer kv_transfer(const ModelPreset& m, double tokens, int nics, const Link& nic,
                       double layer_compute_s, bool record = true);

/// P5 §7.4, code 05 demo 4: two-batch overlap of a MoE layer with compute c and all-to-all a.
/// Serial: c + a. TBO splits the batch in two halves of c/2 and a/2; half B computes while half
/// A communicates: T = c/2 + max(c, a)/2 + a/2, so the speed-up 2(c+a)/(c+a+max(c,a)) peaks at
/// a = c with 4/3, tends to 1 when a << c (nothing to hide) and when a >> c (only c/2 hides).
Timeline two_batch_overlap(double compute_s, double comm_s);

}  // namespace commlab
