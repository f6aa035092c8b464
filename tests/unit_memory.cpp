// Why several GPUs (P5 §1) and data-parallel replicas (P5 §6.1): the memory op's figures.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "parallel/memory.hpp"
#include "parallel/parallel.hpp"
#include "model/links.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;
using json = nlohmann::json;

namespace {
const ModelPreset& llama() { return *find_model("llama3_70b"); }
const GpuPreset& h100() { return *find_gpu("h100"); }
nlohmann::json ask(const std::string& text) { return nlohmann::json::parse(evaluate(text)); }
}  // namespace

TEST(Memory, SeventyBDoesNotFitOneH100ButFitsTwo) {
  // §1 (1): 141 GB of BF16 weights > 80 GB.
  const MemoryPlan one = memory_plan(llama(), h100(), 1, 0, 1, 1, kDefaultEfficiency);
  EXPECT_DOUBLE_EQ(one.weight_bytes, 141 * GB);
  EXPECT_FALSE(one.weights_fit);
  EXPECT_FALSE(one.fits);
  EXPECT_DOUBLE_EQ(one.kv_room_bytes_per_gpu, (80 - 141) * GB);
  EXPECT_EQ(one.max_context_tokens, 0);
  EXPECT_EQ(one.min_gpus, 2);
  const MemoryPlan two = memory_plan(llama(), h100(), 2, 0, 1, 1, kDefaultEfficiency);
  EXPECT_TRUE(two.fits);
  // "little is left for KV": 9.5 GB a GPU, 29,000 tokens of 327,680 B at batch 1.
  EXPECT_DOUBLE_EQ(two.kv_room_bytes_per_gpu, 9.5 * GB);
  EXPECT_EQ(two.max_context_tokens, std::floor(19 * GB / 327680));
}

TEST(Memory, KvDecidesFitAtLongContext) {
  // On two H100 the weights fit; a batch of 8 at 8,192 tokens needs 21.5 GB of KV: does not.
  const MemoryPlan p = memory_plan(llama(), h100(), 2, 8192, 8, 1, kDefaultEfficiency);
  EXPECT_TRUE(p.weights_fit);
  EXPECT_DOUBLE_EQ(p.kv_bytes, 8192.0 * 8 * 327680);
  EXPECT_FALSE(p.fits);
  EXPECT_EQ(p.min_gpus_with_kv, 3);
  EXPECT_LT(p.max_context_tokens, 8192);
  // The longest context that fits does fit, one more does not.
  EXPECT_TRUE(memory_plan(llama(), h100(), 2, p.max_context_tokens, 8, 1, kDefaultEfficiency).fits);
  EXPECT_FALSE(memory_plan(llama(), h100(), 2, p.max_context_tokens + 1, 8, 1, kDefaultEfficiency).fits);
}

TEST(Memory, DeepSeekV3FitsEightH200) {
  // §1 (1): 671 GB of FP8 weights need 8 x 141 GB H200 (5 at the least for the weights alone).
  const MemoryPlan p = memory_plan(*find_model("deepseek_v3"), *find_gpu("h200"), 8, 0, 1, 1, kDefaultEfficiency);
  EXPECT_DOUBLE_EQ(p.weight_bytes, 671 * GB);
  EXPECT_DOUBLE_EQ(p.hbm_bytes, 141 * GB);
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.min_gpus, 5);
  // One tensor-parallel group over a power of two (§6.2): the lecture's 8.
  EXPECT_EQ(p.min_gpus_power_of_two, 8);
  EXPECT_EQ(memory_plan(llama(), h100(), 2, 8192, 8, 1, kDefaultEfficiency).min_gpus_power_of_two, 4);  // 3 with its KV
  EXPECT_EQ(memory_plan(llama(), h100(), 1, 0, 1, 1, kDefaultEfficiency).min_gpus_power_of_two, 2);
  EXPECT_FALSE(memory_plan(*find_model("deepseek_v3"), *find_gpu("h100"), 8, 0, 1, 1, kDefaultEfficiency).fits);
}

TEST(Memory, DecodeLowerBoundOnEightH100) {
  // §1 (2): about 5 ms on 8 GPUs at the nominal 3.35 TB/s; §5.7's 80% figure is about 6.6 ms.
  const MemoryPlan p = memory_plan(llama(), h100(), 8, 0, 1, 1, kDefaultEfficiency);
  EXPECT_NEAR(p.decode_time_s / ms, 5.26, 0.005);
  EXPECT_NEAR(p.decode_time_effective_s / ms, 6.58, 0.005);
  EXPECT_DOUBLE_EQ(p.speedup, 8);
  EXPECT_FALSE(p.one_gpu_fits);
  EXPECT_NEAR(p.one_gpu_decode_time_s / ms, 42.09, 0.005);
  // The effective figure is tp's weight read (P5 §5.7).
  EXPECT_DOUBLE_EQ(p.decode_time_effective_s, weight_read_time_s(llama(), h100(), 8));
}

TEST(Memory, ReplicasMultiplyThroughputWithoutTraffic) {
  // §6.1: r replicas of 8 GPUs: r x the tokens a second, r x 8 GPUs, no bytes between them.
  const MemoryPlan one = memory_plan(llama(), h100(), 8, 0, 1, 1, kDefaultEfficiency);
  const MemoryPlan four = memory_plan(llama(), h100(), 8, 0, 1, 4, kDefaultEfficiency);
  EXPECT_EQ(four.total_gpus, 32);
  EXPECT_DOUBLE_EQ(four.tokens_per_s, 4 * one.tokens_per_s);
  EXPECT_DOUBLE_EQ(one.tokens_per_s, 1 / one.decode_time_s);
  EXPECT_EQ(four.traffic_bytes_between_replicas, 0);
  EXPECT_DOUBLE_EQ(four.weight_bytes_per_gpu, one.weight_bytes_per_gpu);  // each holds all weights
}

TEST(Memory, OpAnswersAndRefusesByField) {
  const nlohmann::json a = ask(R"({"op":"memory","model":"llama3_70b","gpu":"h100","gpus":2,"context_tokens":1000,"batch":2,"replicas":3})");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["fits"], true);
  EXPECT_EQ(a["min_gpus"], 2);
  EXPECT_DOUBLE_EQ(a["kv_bytes"].get<double>(), 1000.0 * 2 * 327680);
  EXPECT_EQ(a["total_gpus"], 6);
  EXPECT_EQ(a["traffic_bytes_between_replicas"], 0);
  const nlohmann::json o = ask(R"({"op":"memory","model":{"id":"llama3_70b","weight_bytes":"60 GB"}})");
  EXPECT_EQ(o["fits"], true) << o.dump();
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"op":"memory","gpus":0})", "'gpus': value 0"},
           {R"({"op":"memory","batch":0})", "'batch': value 0"},
           {R"({"op":"memory","replicas":1.5})", "'replicas': value 1.5"},
           {R"({"op":"memory","context_tokens":-1})", "'context_tokens': value -1"},
           {R"({"op":"memory","gpu":"a100"})", "'gpu'"},
           {R"({"op":"memory","model":"gpt5"})", "'model'"},
           {R"({"op":"memory","gpus":2,"tp":8})", "'tp'"}}) {
    const nlohmann::json e = ask(text);
    ASSERT_TRUE(e.contains("error")) << text;
    EXPECT_NE(e["error"]["message"].get<std::string>().find(field), std::string::npos) << e.dump();
  }
}
