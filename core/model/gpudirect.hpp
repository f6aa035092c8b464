// A message from a GPU to a GPU in another node, by the three paths of P5 §2.4 (code 01 demo 4):
// through host memory one stage after another, through host memory in pipelined chunks, and
// GPUDirect RDMA (the NIC reads and writes GPU memory).
#pragma once
#include <string>
#include <vector>

#include "model/links.hpp"

namespace commlab {

/// One stage of a path on one link: from the first chunk's start to the last chunk's end, and
/// the time the link is busy (chunks x chunk time).
struct PathStage {
  std::string stage;  // "gpu_to_host", "network", "host_to_gpu"
  std::string link;   // the link's id
  double start_s;
  double end_s;
  double busy_s;
  double chunk_time_s;  // one chunk on this link (the whole message when not chunked)
};

struct TransferPath {
  std::string id;  // "host_staged", "host_pipelined", "gpudirect"
  int chunks;
  double time_s;
  int host_copies;          // buffers the message lands in on the way (one on each host)
  double host_memory_bytes;  // CPU memory traffic: each host writes the message and reads it back
  std::vector<PathStage> stages;
  std::string paced_by;  // pipelined: the stage that sets the pace (the slowest link's); else ""
};

struct GpuDirectPaths {
  double bytes;
  std::vector<TransferPath> paths;  // staged, pipelined, GPUDirect
  std::string fastest;              // a path id
  /// The path NCCL takes: GPUDirect RDMA when GPU and NIC share a PCIe switch, else the
  /// pipelined copy through host memory (P5 §2.4).
  std::string nccl_path;
  double staged_over_gpudirect;     // time ratios
  double pipelined_over_gpudirect;
  // What chunking did (§2.4): "single_chunk" (nothing to overlap: the staged path), "overlaps"
  // (faster than staged), "worse" (each chunk's alphas cost more than the overlap saves).
  std::string pipelined_case;
};

/// `host_link` is the PCIe link between GPU and host memory on each end, `net` the NIC's.
GpuDirectPaths gpudirect_paths(double bytes, int chunks, const Link& host_link, const Link& net,
                               bool same_pcie_switch);

}  // namespace commlab
