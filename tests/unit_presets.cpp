// Model presets against their published configs: each derived figure (KV cache bytes a token,
// all-to-alls a step) checked against a hand computation written here (P5 §1, §6.4, §6.5).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "api/api.hpp"
#include "model/presets.hpp"
#include "parallel/parallel.hpp"

using namespace commlab;

TEST(Presets, KvCacheBytesPerTokenByHand) {
  // K and V x layers x KV heads x head_dim x 2 B (BF16), or MLA's cached latent and RoPE key.
  const std::map<std::string, double> by_hand = {
      {"llama3_70b", 2.0 * 80 * 8 * 128 * 2},    // 327,680 B (P5 §11 ex. 8)
      {"llama3_8b", 2.0 * 32 * 8 * 128 * 2},     // 131,072 B
      {"llama3_405b", 2.0 * 126 * 8 * 128 * 2},  // 516,096 B
      {"llama2_13b", 2.0 * 40 * 40 * 128 * 2},   // 819,200 B: no grouped-query attention
      {"mixtral_8x7b", 2.0 * 32 * 8 * 128 * 2},  // 131,072 B
      {"deepseek_v3", (512.0 + 64) * 61 * 2},    // 70,272 B: kv_lora_rank + qk_rope_head_dim
  };
  ASSERT_EQ(model_presets().size(), by_hand.size()) << "a new preset needs its hand computation here";
  for (const ModelPreset& m : model_presets()) {
    ASSERT_TRUE(by_hand.count(m.id)) << m.id;
    EXPECT_DOUBLE_EQ(kv_bytes_per_token(m), by_hand.at(m.id)) << m.id;
  }
}

TEST(Presets, AllToAllsPerStepByHand) {
  // A dispatch and a combine in every layer with routed experts: Mixtral's 32 layers all route;
  // DeepSeek-V3's first 3 of 61 are dense (first_k_dense_replace 3), so 2 x 58.
  EXPECT_EQ(moe_layers(*find_model("mixtral_8x7b")), 32);
  EXPECT_EQ(moe_layers(*find_model("deepseek_v3")), 58);
  EXPECT_EQ(moe_layers(*find_model("llama3_70b")), 0);
  const nlohmann::json out =
      nlohmann::json::parse(evaluate(std::string(R"({"op":"moe","model":"deepseek_v3","ep":32,"batch_tokens":256})")));
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("alltoalls_per_step"), 116);
  EXPECT_EQ(out.at("model").at("moe_layers"), 58);
  EXPECT_DOUBLE_EQ(out.at("model").at("kv_bytes_per_token").get<double>(), 70272.0);
  const EpCost c = ep_cost(*find_model("deepseek_v3"), 32, 256, 1, catalogue_link("nvlink5"));
  EXPECT_DOUBLE_EQ(c.step_time_s, 116 * c.alltoall_time_s);
  EXPECT_DOUBLE_EQ(c.bytes_per_gpu_step, 116 * c.dispatch_bytes_per_gpu_layer);
}
