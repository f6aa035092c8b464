// All-reduce kernels for small messages (P5 §5.7): NCCL's ring under LL and vLLM's custom
// all-reduce in one or two shots, beside the lecture's ring, on TP8 decode of Llama-3-70B.
#include <gtest/gtest.h>

#include "base/units.hpp"
#include "model/presets.hpp"
#include "model/small_allreduce.hpp"
#include "parallel/parallel.hpp"

using namespace commlab;
using namespace commlab::units;

namespace {
const double kDecodeBytes = 8192 * 2;  // B x hidden x 2 bytes, B = 1 (P5 §5.7)

TpCost decode_step(const AllreduceKernel& kernel, int tp = 8, const char* link = "nvlink4", double tokens = 1) {
  return tp_cost(*find_model("llama3_70b"), *find_gpu("h100"), tp, tokens, Phase::decode, catalogue_link(link), kernel);
}
}  // namespace

TEST(SmallAllreduce, OneShotReadsEveryPeerInOneStep) {
  const Link nv = catalogue_link("nvlink4");
  const KernelCost c = allreduce_kernel_cost(AllreduceKernel::vllm(CustomShot::one_shot), 8, kDecodeBytes, nv);
  EXPECT_TRUE(c.applies);
  EXPECT_EQ(c.cost.steps, 1);
  EXPECT_DOUBLE_EQ(c.cost.bytes_sent_per_device, 7 * kDecodeBytes);
  EXPECT_DOUBLE_EQ(c.cost.time_s, 2 * us + 7 * kDecodeBytes / (360 * GB));
  EXPECT_TRUE(c.vllm_picks);  // 16 KB on 8 GPUs: below vLLM's 256 KiB
}

TEST(SmallAllreduce, TwoShotsMeetTheLowerBoundInTwoSteps) {
  const Link nv = catalogue_link("nvlink4");
  const KernelCost c = allreduce_kernel_cost(AllreduceKernel::vllm(CustomShot::two_shot), 8, 1 * MB, nv);
  EXPECT_EQ(c.cost.steps, 2);
  EXPECT_DOUBLE_EQ(c.cost.bytes_sent_per_device, allreduce_lower_bound_bytes(8, 1 * MB));
  EXPECT_DOUBLE_EQ(c.cost.alpha_time_s, 4 * us);
  EXPECT_TRUE(c.applies);
  EXPECT_TRUE(c.vllm_picks);  // 1 MB on 8 GPUs: above 256 KiB
}

TEST(SmallAllreduce, VllmsShotFollowsItsThresholds) {
  EXPECT_EQ(vllm_shot(2, 4 * MB), CustomShot::one_shot);
  EXPECT_EQ(vllm_shot(4, 512.0 * 1024 - 1), CustomShot::one_shot);
  EXPECT_EQ(vllm_shot(4, 512.0 * 1024), CustomShot::two_shot);
  EXPECT_EQ(vllm_shot(8, 256.0 * 1024 - 1), CustomShot::one_shot);
  EXPECT_EQ(vllm_shot(8, 256.0 * 1024), CustomShot::two_shot);
  EXPECT_EQ(vllm_shot(6, 300 * kB), CustomShot::two_shot);
}

TEST(SmallAllreduce, CustomKernelSaysWhereItCannotRun) {
  const auto one = AllreduceKernel::vllm(CustomShot::one_shot);
  EXPECT_EQ(allreduce_kernel_cost(one, 8, kDecodeBytes, catalogue_link("ib_ndr")).limit, "link");
  EXPECT_EQ(allreduce_kernel_cost(one, 8, kDecodeBytes, catalogue_link("pcie5")).limit, "link");
  EXPECT_EQ(allreduce_kernel_cost(one, 16, kDecodeBytes, catalogue_link("nvlink4")).limit, "devices");
  EXPECT_EQ(allreduce_kernel_cost(one, 3, kDecodeBytes, catalogue_link("nvlink5")).limit, "devices");
  const KernelCost big = allreduce_kernel_cost(one, 8, kCustomAllreduceMaxBytes + 1, catalogue_link("nvlink4"));
  EXPECT_EQ(big.limit, "bytes");
  EXPECT_FALSE(big.applies);
  EXPECT_FALSE(big.vllm_picks);
  EXPECT_GT(big.cost.time_s, 0);  // the model's cost stays, said not to apply
  EXPECT_TRUE(allreduce_kernel_cost(one, 8, kCustomAllreduceMaxBytes, catalogue_link("nvlink4")).applies);
  const KernelCost single = allreduce_kernel_cost(one, 1, kDecodeBytes, catalogue_link("ib_ndr"));
  EXPECT_TRUE(single.applies);
  EXPECT_EQ(single.cost.time_s, 0);
}

TEST(SmallAllreduce, NcclRingLlIsNcclsEstimate) {
  const Link nv = catalogue_link("nvlink4");
  const KernelCost c = allreduce_kernel_cost(AllreduceKernel::nccl(NcclProtocol::LL), 8, kDecodeBytes, nv);
  const NcclEstimate e = nccl_allreduce_estimate(NcclAlgorithm::ring, NcclProtocol::LL, 8, kDecodeBytes, nv, NcclTransport::nvlink);
  EXPECT_EQ(c.cost.algorithm, "ring/LL");
  EXPECT_DOUBLE_EQ(c.cost.time_s, e.time_s);
  EXPECT_DOUBLE_EQ(c.cost.alpha_time_s, e.latency_s);
  EXPECT_EQ(c.cost.steps, 14);
}

// P5 §5.7: the generic ring's 160 all-reduces take 4.5 ms against about 6.6 ms of weight read;
// the kernels written for small messages take a fraction of that.
TEST(SmallAllreduce, DecodeStepOnTp8) {
  const TpCost ring = decode_step(AllreduceAlgorithm::ring);
  EXPECT_NEAR(ring.comm_time_s, 4.5 * ms, 0.05 * ms);
  const TpCost ll = decode_step(AllreduceKernel::nccl(NcclProtocol::LL));
  const TpCost one = decode_step(AllreduceKernel::vllm(CustomShot::one_shot));
  const TpCost two = decode_step(AllreduceKernel::vllm(CustomShot::two_shot));
  EXPECT_EQ(one.allreduces, 160);
  EXPECT_DOUBLE_EQ(one.comm_time_s, 160 * (2 * us + 7 * kDecodeBytes / (360 * GB)));
  EXPECT_LT(one.comm_time_s, two.comm_time_s);
  EXPECT_LT(two.comm_time_s, ll.comm_time_s);
  EXPECT_LT(ll.comm_time_s, ring.comm_time_s);
  EXPECT_TRUE(one.call.vllm_picks);
  EXPECT_FALSE(two.call.vllm_picks);
  // A 4,096-token prefill sends 67 MB a call: over vLLM's limit.
  const TpCost prefill = tp_cost(*find_model("llama3_70b"), *find_gpu("h100"), 8, 4096, Phase::prefill,
                                 catalogue_link("nvlink4"), AllreduceKernel::vllm(CustomShot::two_shot));
  EXPECT_FALSE(prefill.call.applies);
  EXPECT_EQ(prefill.call.limit, "bytes");
}
