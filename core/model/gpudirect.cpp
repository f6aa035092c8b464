#include "model/gpudirect.hpp"

#include <algorithm>

namespace commlab {

namespace {
const char* const kStages[3] = {"gpu_to_host", "network", "host_to_gpu"};
}

GpuDirectPaths gpudirect_paths(double bytes, int chunks, const Link& host_link, const Link& net,
                               bool same_pcie_switch) {
  GpuDirectPaths out;
  out.bytes = bytes;
  const Link* links[3] = {&host_link, &net, &host_link};

  // Through host memory, not pipelined: GPU -> host, network, host -> GPU, each waiting for the
  // one before (P5 §2.4: 64 ms for 1 GB).
  TransferPath staged{"host_staged", 1, 0, 2, 4 * bytes, {}, ""};
  double t = 0;
  for (int i = 0; i < 3; ++i) {
    const double d = transfer_time_s(*links[i], bytes);
    staged.stages.push_back({kStages[i], links[i]->id, t, t + d, d, d});
    t += d;
  }
  staged.time_s = t;

  // Pipelined in chunks: chunk c enters stage i when stage i is free and chunk c has left stage
  // i - 1; in the steady state the slowest stage sets the pace, and each chunk pays its alphas.
  TransferPath piped{"host_pipelined", chunks, 0, 2, 4 * bytes, {}, ""};
  double chunk_s[3], done[3] = {0, 0, 0}, first[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) chunk_s[i] = transfer_time_s(*links[i], bytes / chunks);
  for (int c = 0; c < chunks; ++c) {
    double ready = 0;
    for (int i = 0; i < 3; ++i) {
      const double start = std::max(ready, done[i]);
      if (c == 0) first[i] = start;
      done[i] = start + chunk_s[i];
      ready = done[i];
    }
  }
  int slowest = 0;
  for (int i = 0; i < 3; ++i) {
    piped.stages.push_back({kStages[i], links[i]->id, first[i], done[i], chunks * chunk_s[i], chunk_s[i]});
    if (chunk_s[i] > chunk_s[slowest]) slowest = i;
  }
  piped.time_s = done[2];
  piped.paced_by = kStages[slowest];

  // GPUDirect RDMA: the NIC reads the sender's GPU memory and writes the receiver's; only the
  // network stage is left, and host memory is not touched.
  const double net_s = transfer_time_s(net, bytes);
  TransferPath direct{"gpudirect", 1, net_s, 0, 0, {{"network", net.id, 0, net_s, net_s, net_s}}, "network"};

  out.staged_over_gpudirect = staged.time_s / direct.time_s;
  out.pipelined_over_gpudirect = piped.time_s / direct.time_s;
  out.pipelined_case = chunks == 1 ? "single_chunk" : piped.time_s > staged.time_s ? "worse" : "overlaps";
  out.paths = {staged, piped, direct};
  const TransferPath* best = &out.paths[0];
  for (const TransferPath& p : out.paths)
    if (p.time_s < best->time_s) best = &p;
  out.fastest = best->id;
  out.nccl_path = same_pcie_switch ? "gpudirect" : "host_pipelined";
  return out;
}

}  // namespace commlab
