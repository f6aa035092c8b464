// All-reduce kernels for small messages (P5 §5.7): beside the lecture's flat algorithms, NCCL's
// ring under one of its protocols (§5.6) and vLLM's custom all-reduce, which reads the peers'
// buffers directly over an all-to-all NVLink domain in one or two shots.
#pragma once
#include <string>

#include "model/collectives.hpp"
#include "model/links.hpp"
#include "model/nccl.hpp"

namespace commlab {

/// vLLM's custom all-reduce (csrc/custom_all_reduce.cuh): one shot, each GPU reads every peer's
/// D bytes and sums them (1 step, (k-1) D read); two shots, each GPU sums its 1/k of every
/// peer's buffer, then reads the others' sums (2 steps, 2(k-1)/k D: the §4.2 bound).
enum class CustomShot { one_shot, two_shot };
std::string custom_shot_name(CustomShot s);

/// vLLM's limits: 8 MiB a call, 2, 4, 6 or 8 GPUs, every pair joined by NVLink.
constexpr double kCustomAllreduceMaxBytes = 8.0 * 1024 * 1024;

/// One way to run an all-reduce: a flat algorithm (§5.1-§5.4), NCCL's ring under one protocol
/// (§5.6), or vLLM's custom kernel (§5.7).
struct AllreduceKernel {
  enum class Kind { flat, nccl_ring, custom };
  Kind kind = Kind::flat;
  AllreduceAlgorithm algorithm = AllreduceAlgorithm::ring;  // flat
  NcclProtocol protocol = NcclProtocol::Simple;              // nccl_ring
  CustomShot shot = CustomShot::one_shot;                    // custom
  AllreduceKernel() = default;
  AllreduceKernel(AllreduceAlgorithm a) : algorithm(a) {}  // NOLINT: a flat algorithm is a kernel
  static AllreduceKernel nccl(NcclProtocol p);
  static AllreduceKernel vllm(CustomShot s);
};

/// The kernel's cost for one call, and whether it can run there at all. A custom kernel that
/// cannot (`applies` false) still carries its model cost; `limit` names the first rule broken:
/// "link" (not an NVLink domain), "devices" (not 2, 4, 6 or 8) or "bytes" (over 8 MiB); the
/// in-switch all-reduce "switch" on a catalogue link whose switches do not reduce (§5.4).
struct KernelCost {
  CollectiveCost cost;
  bool applies = true;
  std::string limit;
  bool vllm_picks = false;  // custom: the shot vLLM launches for this size and GPU count
};
KernelCost allreduce_kernel_cost(const AllreduceKernel& kernel, int devices, double bytes, const Link& link);

/// The shot vLLM launches: one for 2 GPUs, and on 4 (8) or fewer below 512 KiB (256 KiB).
CustomShot vllm_shot(int devices, double bytes);

}  // namespace commlab
