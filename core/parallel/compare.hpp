// The comparison table of P5 §6.6: each parallelism's traffic a step, its pattern, its time on a
// node's NVLink and on its NIC, the compute it runs beside, and where it belongs (§6.1-§6.5).
#pragma once
#include <string>
#include <vector>

#include "model/links.hpp"
#include "model/presets.hpp"
#include "parallel/parallel.hpp"

namespace commlab {

/// Traffic on a step's critical path whose time on the NIC is more than this share of the step's
/// compute stays inside the NVLink domain; less may cross nodes (P5 §6.2: TP over InfiniBand is
/// slower than the weight read; §6.3: a pipeline's few activations may cross).
constexpr double kCrossShare = 0.1;

struct ParallelismRow {
  std::string id;       // dp, tp, sp, pp, ep, cp
  std::string pattern;  // none, allreduce, reduce_scatter_allgather, send_recv, alltoall, ring_send_recv
  double bytes_per_gpu_step = 0;
  long long messages_per_step = 0;
  double intra_time_s = 0;  // all the step's messages on the node's NVLink
  double nic_time_s = 0;    // the same on its NIC
  double compute_time_s = -1;  // the compute it runs beside; < 0 when there is none
  double message_bytes = 0;           // one message (one hop, one ring step, one call)
  double intra_message_time_s = 0;
  double nic_message_time_s = 0;
  bool hidden_on_nic = false;  // ring attention: a ring step's compute covers the NIC's transfer, alpha included (§6.5)
  /// anywhere (no traffic at inference), none (degree 1), no_experts, nvlink_domain, across_nodes
  std::string belongs_on;
};

struct ParallelismDegrees {
  int tp = 8, pp = 2, ep = 8, cp = 8;
};

std::vector<ParallelismRow> compare_parallelisms(const ModelPreset& m, const GpuPreset& g, const Link& intra,
                                                 const Link& nic, double tokens, Phase phase,
                                                 const ParallelismDegrees& d, double mfu = kDefaultMfu);

}  // namespace commlab
