// Ring attention (P5 §6.5, code 04 demo 2, exercise 7).
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "parallel/parallel.hpp"
#include "parallel/ring_attention.hpp"

using namespace commlab;

TEST(RingAttention, BlockwiseOnlineSoftmaxEqualsOneDevice) {
  for (bool causal : {false, true})
    for (SequenceLayout l : {SequenceLayout::contiguous, SequenceLayout::zigzag}) {
      const RingAttentionCheck c = check_ring_attention(4, 16, 16, causal, l);
      EXPECT_LT(c.max_abs_error, 1e-12) << causal;
      EXPECT_GT(c.max_abs_output, 0.01);
    }
  EXPECT_LT(check_ring_attention(8, 6, 8, true, SequenceLayout::contiguous, 9).max_abs_error, 1e-12);
  EXPECT_LT(check_ring_attention(1, 10, 4, true, SequenceLayout::contiguous).max_abs_error, 1e-12);
}

TEST(RingAttention, ThresholdsSection65) {
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  const RingAttentionCost nv = ring_attention_cost(m, F, catalogue_link("nvlink4"), 1000);
  const RingAttentionCost ib = ring_attention_cost(m, F, catalogue_link("ib_ndr"), 1000);
  EXPECT_DOUBLE_EQ(nv.flops_per_token2, 32768);
  EXPECT_DOUBLE_EQ(nv.kv_bytes_per_token, 4096);
  EXPECT_NEAR(nv.threshold_tokens, 240.4, 0.05);   // "about 240"
  EXPECT_NEAR(ib.threshold_tokens, 2163.4, 0.05);  // "2,163"
  // With alpha the crossover moves up; at it compute equals alpha + transfer.
  EXPECT_GT(ib.threshold_with_alpha_tokens, ib.threshold_tokens);
  const RingAttentionCost at = ring_attention_cost(m, F, catalogue_link("ib_ndr"), ib.threshold_with_alpha_tokens);
  EXPECT_NEAR(at.compute_time_s, at.transfer_time_s, 1e-12);
}

TEST(RingAttention, TheCaseAViewConcludesCountsAlpha) {
  // 2,400 tokens on 8 GPUs over NVLink 4: 300 a device clears the lecture's bandwidth-only 240,
  // but alpha keeps the transfer (about 5.41 us) longer than the step's attention (about 4.26 us).
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  const RingAttentionCost c = ring_attention_cost(m, F, catalogue_link("nvlink4"), 300);
  EXPECT_TRUE(c.hidden);
  EXPECT_FALSE(c.hidden_with_alpha);
  EXPECT_GT(c.transfer_time_s, c.compute_time_s);
  EXPECT_STREQ(c.hiding_case, "alpha_exposes");
  EXPECT_NEAR(c.threshold_with_alpha_tokens, 358, 1);
  EXPECT_STREQ(ring_attention_cost(m, F, catalogue_link("nvlink4"), 400).hiding_case, "hidden");
  EXPECT_STREQ(ring_attention_cost(m, F, catalogue_link("nvlink4"), 200).hiding_case, "exposed");
}

TEST(RingAttention, Exercise7) {
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  EXPECT_TRUE(ring_attention_cost(m, F, catalogue_link("ib_ndr"), 131072 / 8).hidden);
  EXPECT_FALSE(ring_attention_cost(m, F, catalogue_link("ib_ndr"), 8192 / 8).hidden);
}

TEST(RingAttention, CausalImbalanceAndZigzag) {
  const CausalBalance c = causal_balance(8, 1024, SequenceLayout::contiguous);
  const CausalBalance z = causal_balance(8, 1024, SequenceLayout::zigzag);
  EXPECT_NEAR(c.imbalance, (2 * 8 - 1) / 8.0, 0.01);  // the last device: (k - 1/2) blocks, mean k/2
  EXPECT_NEAR(z.imbalance, 1.0, 1e-3);
  EXPECT_NEAR(z.ring_pairs / z.ring_pairs_ideal, 1.0, 1e-3);
  EXPECT_GT(c.ring_pairs / z.ring_pairs, 1.8);
  // Total work is the causal triangle either way.
  double sc = 0, sz = 0;
  for (double w : c.work_pairs) sc += w;
  for (double w : z.work_pairs) sz += w;
  const double N = 8 * 1024.0;
  EXPECT_DOUBLE_EQ(sc, N * (N + 1) / 2);
  EXPECT_DOUBLE_EQ(sz, N * (N + 1) / 2);
}

TEST(RingAttention, Ops) {
  auto ex7 = evaluate(nlohmann::json{{"op", "ring_attention"}, {"link", "ib_ndr"}, {"prompt_tokens", 131072},
                                     {"devices", 8}});
  ASSERT_FALSE(ex7.contains("error")) << ex7.dump();
  EXPECT_NEAR(ex7["threshold_tokens"].get<double>(), 2163.4, 0.05);
  EXPECT_TRUE(ex7["hidden"].get<bool>());
  EXPECT_NEAR(ex7["causal"]["zigzag"]["imbalance"].get<double>(), 1.0, 1e-3);
  auto check = evaluate(nlohmann::json{{"op", "ring_attention_check"}, {"causal", true}, {"layout", "zigzag"}});
  ASSERT_FALSE(check.contains("error")) << check.dump();
  EXPECT_LT(check["max_abs_error"].get<double>(), 1e-12);
  auto odd = evaluate(nlohmann::json{{"op", "ring_attention_check"}, {"layout", "zigzag"}, {"tokens_per_device", 7}});
  EXPECT_TRUE(odd.contains("error"));
  auto bad = evaluate(nlohmann::json{{"op", "ring_attention"}, {"link", "warp"}});
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("warp"), std::string::npos);
}
