#include "model/small_allreduce.hpp"

namespace commlab {

std::string custom_shot_name(CustomShot s) { return s == CustomShot::one_shot ? "one_shot" : "two_shot"; }

AllreduceKernel AllreduceKernel::nccl(NcclProtocol p) {
  AllreduceKernel k;
  k.kind = Kind::nccl_ring;
  k.protocol = p;
  return k;
}

AllreduceKernel AllreduceKernel::vllm(CustomShot s) {
  AllreduceKernel k;
  k.kind = Kind::custom;
  k.shot = s;
  return k;
}

CustomShot vllm_shot(int k, double D) {
  // custom_all_reduce.cuh, REDUCE_CASE: 1stage for 2 GPUs, else below 512 KiB on <= 4 GPUs and
  // 256 KiB on <= 8, 2stage above.
  if (k <= 2) return CustomShot::one_shot;
  if ((k <= 4 && D < 512.0 * 1024) || (k <= 8 && D < 256.0 * 1024)) return CustomShot::one_shot;
  return CustomShot::two_shot;
}

namespace {

// Reads the peers' memory needs every pair on NVLink: an NVLink domain of the catalogue (§2.2).
bool nvlink_domain(const Link& link) {
  const LinkSpec* spec = find_link(link.id);
  return spec && link_level(*spec) == "nvlink_domain";
}

KernelCost custom_cost(CustomShot shot, int k, double D, const Link& link) {
  KernelCost out;
  CollectiveCost& c = out.cost;
  c.algorithm = custom_shot_name(shot);
  if (k > 1) {
    // Each shot is one α (a barrier and the direct loads); the bytes are the ones each GPU reads
    // over its NVLink port (P5 §5.7: "一两步完成").
    c.steps = shot == CustomShot::one_shot ? 1 : 2;
    c.bytes_sent_per_device = shot == CustomShot::one_shot ? (k - 1.0) * D : allreduce_lower_bound_bytes(k, D);
    c.alpha_time_s = c.steps * link.alpha_s;
    c.time_s = c.alpha_time_s + c.bytes_sent_per_device / link.beta_Bps;
  }
  // One GPU sends nothing: no kernel runs and no limit is broken.
  if (k > 1 && !nvlink_domain(link))
    out.limit = "link";
  else if (k > 1 && !(k == 2 || k == 4 || k == 6 || k == 8))
    out.limit = "devices";
  else if (k > 1 && D > kCustomAllreduceMaxBytes)
    out.limit = "bytes";
  out.applies = out.limit.empty();
  out.vllm_picks = k > 1 && out.applies && vllm_shot(k, D) == shot;
  return out;
}

}  // namespace

KernelCost allreduce_kernel_cost(const AllreduceKernel& kernel, int k, double D, const Link& link) {
  switch (kernel.kind) {
    case AllreduceKernel::Kind::flat: {
      KernelCost out{allreduce_cost(kernel.algorithm, k, D, link), true, "", false};
      // §5.4: in-switch reduction needs a switch that reduces (NVSwitch, InfiniBand SHARP); a
      // catalogue link without one (PCIe, RoCE, Ethernet) keeps the model's cost, said not to apply.
      if (kernel.algorithm == AllreduceAlgorithm::in_switch && k > 1 && find_link(link.id) &&
          std::string(reducing_switch(link)) == "none") {
        out.applies = false;
        out.limit = "switch";
      }
      return out;
    }
    case AllreduceKernel::Kind::nccl_ring: {
      // NCCL's own latencies (tuning.cc) and the protocol's payload share (§5.6).
      const NcclEstimate e = nccl_allreduce_estimate(NcclAlgorithm::ring, kernel.protocol, k, D, link, transport_of(link));
      KernelCost out;
      out.cost.algorithm = nccl_pair_name(NcclAlgorithm::ring, kernel.protocol);
      if (k > 1) {
        out.cost.steps = 2 * (k - 1);
        out.cost.bytes_sent_per_device = allreduce_lower_bound_bytes(k, D);
        out.cost.alpha_time_s = e.latency_s;
        out.cost.time_s = e.time_s;
      }
      return out;
    }
    case AllreduceKernel::Kind::custom: return custom_cost(kernel.shot, k, D, link);
  }
  return {};
}

}  // namespace commlab
