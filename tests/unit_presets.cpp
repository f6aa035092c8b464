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

// Every preset names where its figures come from, and the source states the figures the preset
// holds (so a changed field and a stale source disagree here).
TEST(Presets, EachNamesItsSourceWithItsFigures) {
  const auto has = [](const char* source, const std::string& figure) { return std::string(source).find(figure) != std::string::npos; };
  for (const ModelPreset& m : model_presets()) {
    EXPECT_TRUE(has(m.source, std::to_string(m.layers) + " layers")) << m.id << ": " << m.source;
    EXPECT_TRUE(has(m.source, "hidden " + std::to_string(m.hidden))) << m.id;
    EXPECT_TRUE(has(m.source, std::to_string(m.q_heads) + " heads")) << m.id;
    if (m.kv_latent == 0 && m.kv_heads != m.q_heads) EXPECT_TRUE(has(m.source, std::to_string(m.kv_heads) + " KV heads")) << m.id;
    if (m.experts > 0) EXPECT_TRUE(has(m.source, std::to_string(m.experts) + " ")) << m.id;
    if (m.top_k > 0) EXPECT_TRUE(has(m.source, "top-" + std::to_string(m.top_k))) << m.id;
  }
  EXPECT_TRUE(has(find_model("deepseek_v3")->source, "kv_lora_rank 512 + qk_rope_head_dim 64"));
  EXPECT_TRUE(has(find_model("deepseek_v3")->source, "first 3 dense"));
  for (const GpuPreset& g : gpu_presets()) {
    EXPECT_TRUE(has(g.source, std::to_string(static_cast<int>(g.hbm_bytes / 1e9)) + " GB")) << g.id << ": " << g.source;
    EXPECT_FALSE(std::string(g.source).empty()) << g.id;
  }
  for (const NodePreset& n : node_presets()) EXPECT_TRUE(has(n.source, std::to_string(n.gpus) + " ")) << n.id << ": " << n.source;
  const nlohmann::json out = nlohmann::json::parse(evaluate(std::string(R"({"op":"presets"})")));
  for (const char* id : {"llama3_70b", "deepseek_v3", "h200", "dgx_h100"})
    EXPECT_FALSE(out.at("sources").at(id).get<std::string>().empty()) << id;
}
