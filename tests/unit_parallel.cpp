// Tensor, sequence and expert parallelism (P5 §2.5, §5.7, §6.2, §6.4; exercise 5).
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "api/api.hpp"
#include "base/dense.hpp"
#include "demos/demo_table.hpp"
#include "parallel/parallel.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;

namespace {
// The engine's figure rounds to the lecture's (or lies within `rel` of an "about").
void expect_lecture(double engine, const std::string& lecture, double rel = 0) {
  EXPECT_NE(compare_to_lecture(engine, lecture, rel), "differs") << engine << " vs lecture " << lecture;
}
const ModelPreset& llama() { return *find_model("llama3_70b"); }
const GpuPreset& h100() { return *find_gpu("h100"); }
}  // namespace

TEST(Compute, LlamaLayerParamsAndPrefillTime) {
  EXPECT_NEAR(active_params_per_layer(llama()), 855.6e6, 0.1e6);
  const double F = effective_flops(h100());
  EXPECT_DOUBLE_EQ(F, 989e12 * 0.7);
  expect_lecture(prefill_layer_time_s(llama(), 4096, 8, F) / ms, "1.32");          // §7.2
  expect_lecture(80 * prefill_layer_time_s(llama(), 4096, 8, F) / ms, "105");      // §2.5
  expect_lecture(prefill_layer_time_s(llama(), 32768, 8, F) / ms, "about 13", 0.03);  // §7.3
}

TEST(TensorParallel, DecodeActivationsSection25) {
  // §2.5: TP decode activations of tens of KB (batch 1: 16 KB) up to 1 MB (batch 64).
  const Link nv = catalogue_link("nvlink4");
  EXPECT_NEAR(tp_cost(llama(), h100(), 8, 1, Phase::decode, nv, AllreduceAlgorithm::ring).allreduce_bytes / kB,
              16.384, 1e-9);
  EXPECT_NEAR(tp_cost(llama(), h100(), 8, 64, Phase::decode, nv, AllreduceAlgorithm::ring).allreduce_bytes / MB,
              1.048576, 1e-12);
}

TEST(TensorParallel, SmallMessagesSection57) {
  const Link nv = catalogue_link("nvlink4");
  const TpCost c = tp_cost(llama(), h100(), 8, 1, Phase::decode, nv, AllreduceAlgorithm::ring);
  EXPECT_EQ(c.allreduces, 160);
  EXPECT_EQ(c.call.cost.steps, 14);
  expect_lecture(c.comm_time_s / ms, "4.5");
  expect_lecture(c.weight_read_time_s / ms, "6.6");
  expect_lecture(c.comm_time_s / c.weight_read_time_s, "about 0.67", 0.05);  // "two thirds"
}

TEST(TensorParallel, Demo043DecodeNvlinkVsInfiniBand) {
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  auto step = [&](const Link& l, AllreduceAlgorithm a) {
    return tp_cost(llama(), h100(), 8, 64, Phase::decode, l, a).comm_time_s / ms;
  };
  // §6.2: "2-5 ms" on NVLink, "15-19 ms" on InfiniBand, reading the weights about 6.6 ms.
  EXPECT_NEAR(step(nv, AllreduceAlgorithm::recursive_doubling), 2.358, 0.001);
  EXPECT_NEAR(step(nv, AllreduceAlgorithm::ring), 5.296, 0.001);
  EXPECT_NEAR(step(ib, AllreduceAlgorithm::recursive_doubling), 14.98, 0.01);
  EXPECT_NEAR(step(ib, AllreduceAlgorithm::ring), 18.54, 0.01);
  expect_lecture(step(nv, AllreduceAlgorithm::recursive_doubling), "2");
  expect_lecture(step(nv, AllreduceAlgorithm::ring), "5");
  expect_lecture(step(ib, AllreduceAlgorithm::recursive_doubling), "15");
  expect_lecture(step(ib, AllreduceAlgorithm::ring), "19");
  EXPECT_GT(step(ib, AllreduceAlgorithm::recursive_doubling), 2 * weight_read_time_s(llama(), h100(), 8) / ms);
}

TEST(TensorParallel, Exercise5PrefillTraffic) {
  const TpCost c = tp_cost(llama(), h100(), 8, 4096, Phase::prefill, catalogue_link("nvlink4"),
                           AllreduceAlgorithm::ring);
  EXPECT_NEAR(c.allreduce_bytes / MB, 67.108864, 1e-9);                        // "about 67 MB"
  expect_lecture(c.call.cost.bytes_sent_per_device / MB, "117");                // 2 x 7/8 x 67
  expect_lecture(2 * c.call.cost.bytes_sent_per_device / MB, "235");            // a layer
  expect_lecture(c.bytes_sent_per_gpu / GB, "18.8");
  expect_lecture(c.comm_time_s / ms, "57");
  expect_lecture(2 * c.call.cost.time_s / ms, "0.71");                          // §7.2
  // Sequence parallelism: the same bytes, activations divided by k.
  EXPECT_DOUBLE_EQ(c.sp_bytes_sent_per_gpu, c.bytes_sent_per_gpu);
  EXPECT_DOUBLE_EQ(c.sp_activation_bytes_per_gpu * 8, c.tp_activation_bytes_per_gpu);
}

TEST(Sharding, MegatronMlpSplitIsExact) {
  const MlpSplitCheck c = check_mlp_split(16, 32, 112, 4);
  EXPECT_LT(c.max_abs_error, 1e-12);
  EXPECT_LT(c.sp_max_abs_error, 1e-12);
  EXPECT_LT(c.wrong_max_abs_error, 1e-12);  // the wrong split is also exact, only costlier
  EXPECT_DOUBLE_EQ(c.bytes_ratio, 7.0);     // §6.2: 7x the bytes
  const MlpSplitCheck eight = check_mlp_split(8, 16, 56, 8, 42);
  EXPECT_LT(eight.max_abs_error, 1e-12);
  EXPECT_DOUBLE_EQ(2.0 * llama().ffn / llama().hidden, 7.0);
}

TEST(Sharding, AttentionHeadSplitIsExact) {
  EXPECT_LT(check_attention_split(16, 16, 4, 8, 4).max_abs_error, 1e-12);
  EXPECT_LT(check_attention_split(12, 8, 8, 4, 8).max_abs_error, 1e-12);  // MHA, one head a shard
  EXPECT_LT(check_attention_split(10, 8, 2, 4, 1).max_abs_error, 1e-15);
}

// The checks' errors are sums of a few ulps: matmul, which takes four rows of b a pass, must add
// exactly as the plain row loop does (c(i, j) + a(i, k) b(k, j), k ascending), bit for bit.
TEST(Sharding, MatmulAddsInTheRowLoopsOrder) {
  dense::Rng rng(7);
  for (const auto& [r, m, n] : std::vector<std::tuple<int, int, int>>{{1, 1, 1}, {3, 4, 5}, {5, 7, 3}, {16, 33, 9},
                                                                      {8, 128, 32}, {2, 130, 1}}) {
    const dense::Mat a = dense::random(r, m, rng, 1.0), b = dense::random(m, n, rng, 0.1);
    dense::Mat plain(r, n);
    for (int i = 0; i < r; ++i)
      for (int k = 0; k < m; ++k)
        for (int j = 0; j < n; ++j) plain(i, j) += a(i, k) * b(k, j);
    const dense::Mat c = dense::matmul(a, b);
    for (size_t x = 0; x < c.v.size(); ++x) ASSERT_EQ(c.v[x], plain.v[x]) << r << "x" << m << "x" << n << " at " << x;
  }
}

TEST(Sharding, RejectsIndivisibleShapes) {
  EXPECT_THROW(check_mlp_split(16, 32, 110, 4), std::exception);
  EXPECT_THROW(check_attention_split(8, 16, 4, 8, 3), std::exception);
}

TEST(ExpertParallel, MixtralEp8DecodeAbout7MB) {
  const EpCost c = ep_cost(*find_model("mixtral_8x7b"), 8, 64, 1, catalogue_link("nvlink4"));
  EXPECT_DOUBLE_EQ(c.tokens_per_gpu, 8);
  EXPECT_DOUBLE_EQ(c.dispatch_bytes_per_gpu_layer, 8 * 2 * 7.0 / 8 * 4096 * 2);
  EXPECT_NEAR(c.bytes_per_gpu_step / MB, 7.34, 0.005);
  expect_lecture(c.bytes_per_gpu_step / MB, "about 7", 0.05);
  EXPECT_GT(c.alltoall_alpha_time_s, 0.5 * c.alltoall_time_s);  // §6.4: time mostly alpha
  EXPECT_DOUBLE_EQ(c.skew, 1.0);
}

TEST(ExpertParallel, HotExpertSkew) {
  // §4.3: one expert 4x hot, top-2 of 8: its GPU receives about 2.5x the average.
  EXPECT_NEAR(hot_expert_probability(8, 2, 4), 1 - (7.0 / 11) * (6.0 / 10), 1e-15);
  EXPECT_NEAR(hot_expert_probability(8, 2, 1), 0.25, 1e-15);
  const EpCost hot = ep_cost(*find_model("mixtral_8x7b"), 8, 64, 4, catalogue_link("nvlink4"));
  expect_lecture(hot.skew, "2.5");
  // DeepSeek-V3: 256 experts on 32 GPUs, uniform routing gives no skew.
  const EpCost ds = ep_cost(*find_model("deepseek_v3"), 32, 256, 1, catalogue_link("nvlink5"));
  EXPECT_NEAR(ds.skew, 1.0, 1e-12);
  EXPECT_THROW(ep_cost(llama(), 8, 64, 1, catalogue_link("nvlink4")), std::exception);
}

TEST(ExpertParallel, ReceiveBytesPerGpu) {
  // One entry a GPU; the hot GPU first and the busiest; the entries average to the mean.
  const EpCost hot = ep_cost(*find_model("mixtral_8x7b"), 8, 64, 4, catalogue_link("nvlink4"));
  ASSERT_EQ(hot.recv_bytes_per_gpu_layer.size(), 8u);
  EXPECT_DOUBLE_EQ(hot.recv_bytes_per_gpu_layer[0], hot.busiest_recv_bytes_layer);
  double sum = 0;
  for (double b : hot.recv_bytes_per_gpu_layer) sum += b;
  EXPECT_NEAR(sum / 8, hot.mean_recv_bytes_layer, 1e-9 * hot.mean_recv_bytes_layer);
  EXPECT_LT(hot.recv_bytes_per_gpu_layer[1], hot.mean_recv_bytes_layer);
  EXPECT_NEAR(hot.recv_bytes_per_gpu_layer[0] / hot.mean_recv_bytes_layer, hot.skew, 1e-12);
  // Uniform routing: every GPU the same; ep = 1 receives nothing.
  const EpCost flat = ep_cost(*find_model("deepseek_v3"), 32, 256, 1, catalogue_link("nvlink5"));
  for (double b : flat.recv_bytes_per_gpu_layer) EXPECT_NEAR(b, flat.mean_recv_bytes_layer, 1e-9 * b);
  // A cold expert (hot < 1): another GPU is the busiest, and it paces the all-to-all.
  const Link nv4 = catalogue_link("nvlink4");
  const EpCost cold = ep_cost(*find_model("mixtral_8x7b"), 8, 64, 0.25, nv4);
  EXPECT_LT(cold.recv_bytes_per_gpu_layer[0], cold.mean_recv_bytes_layer);
  EXPECT_DOUBLE_EQ(cold.busiest_recv_bytes_layer, cold.recv_bytes_per_gpu_layer[1]);
  EXPECT_GT(cold.busiest_recv_bytes_layer, cold.mean_recv_bytes_layer);
  EXPECT_DOUBLE_EQ(cold.alltoall_time_s, 7 * nv4.alpha_s + cold.busiest_recv_bytes_layer / nv4.beta_Bps);
  const EpCost one = ep_cost(*find_model("mixtral_8x7b"), 1, 64, 4, catalogue_link("nvlink4"));
  ASSERT_EQ(one.recv_bytes_per_gpu_layer.size(), 1u);
  EXPECT_DOUBLE_EQ(one.recv_bytes_per_gpu_layer[0], 0);
}

TEST(Ops, TpMoeShardingAndPresets) {
  auto tp = evaluate(nlohmann::json{{"op", "tp"}, {"phase", "prefill"}, {"tokens", 4096}});
  ASSERT_FALSE(tp.contains("error")) << tp.dump();
  EXPECT_NEAR(tp["bytes_sent_per_gpu"].get<double>() / GB, 18.79, 0.01);
  auto over = evaluate(nlohmann::json{{"op", "tp"}, {"model", {{"id", "llama3_70b"}, {"layers", 40}}},
                                      {"phase", "prefill"}, {"tokens", 4096}});
  EXPECT_NEAR(over["bytes_sent_per_gpu"].get<double>() * 2, tp["bytes_sent_per_gpu"].get<double>(), 1);
  auto moe = evaluate(nlohmann::json{{"op", "moe"}});
  EXPECT_NEAR(moe["bytes_per_gpu_step"].get<double>() / MB, 7.34, 0.005) << moe.dump();
  auto sh = evaluate(nlohmann::json{{"op", "sharding_check"}});
  EXPECT_LT(sh["mlp"]["max_abs_error"].get<double>(), 1e-12) << sh.dump();
  EXPECT_LT(sh["attention"]["max_abs_error"].get<double>(), 1e-12);
  auto presets = evaluate(nlohmann::json{{"op", "presets"}});
  EXPECT_EQ(presets["models"].size(), 6u);
  EXPECT_EQ(presets["gpus"].size(), 3u);
  EXPECT_EQ(presets["nodes"].size(), 2u);
}

TEST(Ops, ErrorsNameFieldValueAndAllowed) {
  auto bad_model = evaluate(nlohmann::json{{"op", "tp"}, {"model", "llama4"}});
  ASSERT_TRUE(bad_model.contains("error"));
  const std::string msg = bad_model["error"]["message"];
  EXPECT_NE(msg.find("model"), std::string::npos);
  EXPECT_NE(msg.find("llama4"), std::string::npos);
  EXPECT_NE(msg.find("llama3_70b"), std::string::npos);
  auto bad_override = evaluate(nlohmann::json{{"op", "tp"}, {"model", {{"layerz", 3}}}});
  ASSERT_TRUE(bad_override.contains("error"));
  EXPECT_NE(bad_override["error"]["message"].get<std::string>().find("model.layerz"), std::string::npos);
  auto unknown = evaluate(nlohmann::json{{"op", "moe"}, {"ep", 8}, {"typo", 1}});
  EXPECT_EQ(unknown["error"]["code"], "unknown_field");
  auto dense_moe = evaluate(nlohmann::json{{"op", "moe"}, {"model", "llama3_70b"}});
  EXPECT_TRUE(dense_moe.contains("error"));
  auto bad_ep = evaluate(nlohmann::json{{"op", "moe"}, {"ep", 3}});
  EXPECT_TRUE(bad_ep.contains("error"));
  auto big = evaluate(nlohmann::json{{"op", "sharding_check"}, {"tokens", 256}, {"hidden", 1024}, {"ffn", 4096}});
  EXPECT_EQ(big["error"]["code"], "out_of_range");
  auto indivisible = evaluate(nlohmann::json{{"op", "sharding_check"}, {"shards", 3}});
  EXPECT_TRUE(indivisible.contains("error"));
  auto bad_phase = evaluate(nlohmann::json{{"op", "tp"}, {"phase", "train"}});
  EXPECT_EQ(bad_phase["error"]["code"], "unknown_value");
}

namespace {
const double kNaN = std::nan("");
// Each op of parallelism and overlap, each field spoiled: an error naming field and value.
struct Spoil {
  nlohmann::json base;
  const char* field;
  std::vector<nlohmann::json> bad;
};
}  // namespace

TEST(Ops, EveryFieldOfTheParallelOpsRejectsBadValues) {
  using nlohmann::json;
  const std::vector<json> bad_count = {0, -3, 2.5, kNaN, 1e12, "8", nullptr, json::array()};
  const std::vector<json> bad_time = {-1, kNaN, "1 ms", nullptr, 1e300};
  const std::vector<json> bad_link = {"warp", 7, json::object({{"alpha_s", -1}, {"beta_Bps", 1e9}})};
  const std::vector<json> bad_preset = {"nonsense", 3, json::object({{"id", "nonsense"}}),
                                        json::object({{"layers", 0}}), json::object({{"bogus", 1}})};
  const json tp = {{"op", "tp"}, {"phase", "prefill"}, {"tokens", 4096}, {"tp", 8}, {"link", "nvlink4"},
                   {"model", "llama3_70b"}, {"gpu", "h100"}, {"algorithm", "ring"}, {"mfu", 0.7}};
  const json moe = {{"op", "moe"}, {"model", "mixtral_8x7b"}, {"ep", 8}, {"batch_tokens", 64},
                    {"hot_factor", 4}, {"link", "nvlink4"}};
  const json pp = {{"op", "pipeline"}, {"stages", 4}, {"microbatches", 4}, {"stage_time_s", 0.002},
                   {"transfer_time_s", 3e-5}, {"tokens", 100}};
  const json ra = {{"op", "ring_attention"}, {"link", "ib_ndr"}, {"devices", 8}, {"tokens_per_device", 4096},
                   {"model", "llama3_70b"}, {"gpu", "h100"}};
  const json rc = {{"op", "ring_attention_check"}, {"devices", 4}, {"tokens_per_device", 16}, {"head_dim", 8},
                   {"causal", true}, {"layout", "zigzag"}};
  const json ov = {{"op", "overlap"}, {"kind", "chunked"}, {"compute_s", 1e-3}, {"comm_s", 1e-3},
                   {"chunks", 8}, {"alpha_per_chunk_s", 1e-5}};
  const json kv = {{"op", "kv_transfer"}, {"tokens", 4096}, {"nics", 8}, {"link", "ib_ndr"}, {"tp", 8},
                   {"node", "dgx_h100"}, {"model", "llama3_70b"}};
  const json sc = {{"op", "sharding_check"}, {"tokens", 16}, {"shards", 4}, {"hidden", 32}, {"ffn", 112}};
  const std::vector<Spoil> cases = {
      {tp, "tokens", bad_count}, {tp, "tp", bad_count}, {tp, "link", bad_link}, {tp, "model", bad_preset},
      {tp, "gpu", {"a100", json::object({{"flops", -1}})}}, {tp, "algorithm", {"fast", 1}},
      {tp, "phase", {"train", 2}}, {tp, "mfu", {0, 1.5, "0.7"}},
      {moe, "ep", bad_count}, {moe, "batch_tokens", bad_count}, {moe, "hot_factor", {0, -1, "hot"}},
      {moe, "link", bad_link}, {moe, "model", bad_preset},
      {pp, "stages", bad_count}, {pp, "microbatches", bad_count}, {pp, "stage_time_s", bad_time},
      {pp, "transfer_time_s", bad_time}, {pp, "tokens", bad_count},
      {ra, "devices", bad_count}, {ra, "tokens_per_device", bad_count}, {ra, "link", bad_link},
      {ra, "model", bad_preset},
      {rc, "devices", bad_count}, {rc, "tokens_per_device", {0, 7, 1000, "16"}}, {rc, "head_dim", bad_count},
      {rc, "causal", {1, "yes"}}, {rc, "layout", {"spiral", 0}},
      {ov, "compute_s", bad_time}, {ov, "comm_s", bad_time}, {ov, "chunks", bad_count},
      {ov, "alpha_per_chunk_s", bad_time}, {ov, "kind", {"chunky", 1}},
      {kv, "tokens", bad_count}, {kv, "nics", bad_count}, {kv, "link", bad_link}, {kv, "tp", bad_count},
      {kv, "node", {"dgx_a100", json::object({{"nics", 0}})}}, {kv, "model", bad_preset},
      {sc, "tokens", {0, 15, 1000}}, {sc, "shards", {0, 3, 100}}, {sc, "ffn", {0, 110}}, {sc, "hidden", {0, 30}},
  };
  for (const Spoil& c : cases) {
    ASSERT_FALSE(evaluate(c.base).contains("error")) << c.base.dump() << " -> " << evaluate(c.base).dump();
    for (const json& v : c.bad) {
      json req = c.base;
      req[c.field] = v;
      const json out = evaluate(req);
      ASSERT_TRUE(out.contains("error")) << c.field << " = " << v.dump() << " -> " << out.dump();
      const std::string msg = out["error"]["message"];
      EXPECT_NE(msg.find(c.field), std::string::npos) << msg;
      EXPECT_TRUE(msg.find("allowed") != std::string::npos || msg.find("valid links") != std::string::npos) << msg;
    }
    json extra = c.base;
    extra["bogus_field"] = 1;
    EXPECT_EQ(evaluate(extra)["error"]["code"], "unknown_field");
  }
}

// exercises/README.md "Variants": a statement names a model only when the params are its shape. model.match
// answers as link.match does, from the presets' published configs.
TEST(Ops, ModelMatchNamesAPresetOnlyFromItsShape) {
  auto match = [](nlohmann::json fields) {
    fields["op"] = "model.match";
    return evaluate(fields);
  };
  const nlohmann::json hit = match({{"layers", 80}, {"hidden", 8192}, {"bytes_per_value", 2}});
  EXPECT_EQ(hit.at("matched"), true) << hit.dump();
  EXPECT_EQ(hit.at("id"), "llama3_70b");
  EXPECT_EQ(hit.at("label"), "Llama-3-70B");
  EXPECT_EQ(hit.at("precision"), "BF16");
  for (const auto& [layers, hidden, id] : std::vector<std::tuple<int, int, std::string>>{
           {32, 4096, "llama3_8b"}, {126, 16384, "llama3_405b"}, {40, 5120, "llama2_13b"}}) {
    const nlohmann::json m = match({{"layers", layers}, {"hidden", hidden}, {"bytes_per_value", 1}});
    EXPECT_EQ(m.at("id"), id) << m.dump();
    EXPECT_EQ(m.at("label"), find_model(id)->label);
    EXPECT_EQ(m.at("precision"), "FP8");
  }
  // Mixtral-8x7B has Llama-3-8B's layers and hidden size: the experts tell them apart.
  EXPECT_EQ(match({{"layers", 32}, {"hidden", 4096}, {"experts", 8}}).at("id"), "mixtral_8x7b");
  EXPECT_EQ(match({{"layers", 61}, {"hidden", 7168}}).at("matched"), false);
  EXPECT_EQ(match({{"layers", 61}, {"hidden", 7168}, {"experts", 256}}).at("id"), "deepseek_v3");
  EXPECT_EQ(match({{"layers", 80}, {"hidden", 8192}, {"bytes_per_value", 4}}).at("precision"), "FP32");
  // No match, or a size with no name: said by "matched" and empty names, never null.
  const nlohmann::json miss = match({{"layers", 81}, {"hidden", 8192}, {"bytes_per_value", 3}});
  EXPECT_EQ(miss.at("matched"), false);
  EXPECT_EQ(miss.at("id"), "");
  EXPECT_EQ(miss.at("label"), "");
  EXPECT_EQ(miss.at("precision"), "");
  EXPECT_EQ(match({{"layers", 80}, {"hidden", 8192}}).at("precision"), "");
  // Bad input names the field, the value and what is allowed.
  const nlohmann::json bad = match({{"layers", 80.5}, {"hidden", 8192}});
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad.at("error").at("code"), "not_integer");
  EXPECT_NE(bad.at("error").at("message").get<std::string>().find("'layers'"), std::string::npos);
  EXPECT_EQ(match({{"hidden", 8192}}).at("error").at("code"), "missing_field");
  EXPECT_EQ(match({{"layers", 80}, {"hidden", 8192}, {"heads", 64}}).at("error").at("code"), "unknown_field");
}
