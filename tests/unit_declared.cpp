// Exercises as data (exercises/declared.hpp): the arithmetic of "expr", and exercises 1 and 2,
// now declared as requests in their files, giving what the engine gives for the same requests.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "api/api.hpp"
#include "exercises/declared.hpp"

using nlohmann::json;

TEST(Declared, ArithmeticFollowsPrecedence) {
  const json scope = {{"devices", 8}, {"bytes", 1e6}, {"flag", true}};
  EXPECT_DOUBLE_EQ(commlab::eval_expression("2 * ($devices - 1) / $devices", scope), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(commlab::eval_expression("1 + 2 * 3 ^ 2", scope), 19);
  EXPECT_DOUBLE_EQ(commlab::eval_expression("-2 ^ 2", scope), -4);
  EXPECT_DOUBLE_EQ(commlab::eval_expression("ceil(log2($devices + 1)) + max(1, 4, 2) - min(3, $flag)", scope), 4 + 4 - 1);
  EXPECT_DOUBLE_EQ(commlab::eval_expression("$bytes / 1e6", scope), 1);
}

TEST(Declared, ExpressionErrorsSayWhat) {
  const json scope = {{"devices", 8}};
  auto message = [&](const std::string& text) {
    try {
      commlab::eval_expression(text, scope);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("$gpus + 1").find("$gpus is not bound"), std::string::npos);
  EXPECT_NE(message("(1 + 2").find("not closed"), std::string::npos);
  EXPECT_NE(message("1 + ").find("ends too early"), std::string::npos);
  EXPECT_NE(message("exp(1)").find("unknown function exp"), std::string::npos);
  EXPECT_NE(message("1 ; 2").find("unexpected ';'"), std::string::npos);
}

TEST(Declared, ConvertedExercisesAnswerAsTheEngine) {
  const json s1 = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 1}});
  const json t = commlab::evaluate(json{{"op", "transfer"}, {"link", {{"alpha_s", 2e-6}, {"beta_Bps", 360e9}}}, {"bytes", 64000}});
  ASSERT_FALSE(s1.contains("error")) << s1.dump();
  EXPECT_EQ(s1.at("params").at("alpha_s"), 2e-6);
  EXPECT_EQ(s1.at("answers").at("n_half"), t.at("n_half_bytes"));
  const json s2 = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 2}});
  const json r = commlab::evaluate(json{{"op", "allreduce"}, {"algorithm", "ring"}, {"devices", 4}, {"bytes", 1e8},
                                        {"link", {{"alpha_s", 2e-6}, {"beta_Bps", 360e9}}}});
  EXPECT_EQ(s2.at("answers").at("time"), r.at("time_s"));
  EXPECT_EQ(s2.at("answers").at("steps"), r.at("steps"));
  EXPECT_EQ(s2.at("values").at("k_minus_1"), 3);
}

namespace {

// The ninth exercise of the fixtures (answers declared as requests), renumbered, with `values`
// declared after its own.
json fixture_with(const json& values) {
  std::ifstream in(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json");
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str());
  doc["id"] = 42;
  for (const json& v : values) doc["compute"]["values"].push_back(v);
  return doc;
}

json load(const json& doc) { return commlab::evaluate(json{{"op", "exercise.load"}, {"text", doc.dump()}}); }
json solve(int id, const json& params = json::object()) {
  return commlab::evaluate(json{{"op", "exercise.solve"}, {"id", id}, {"params", params}});
}
bool refused_naming(const json& answer, const std::vector<std::string>& words) {
  if (!answer.contains("error") || answer["error"]["code"] != "invalid_exercise") return false;
  const std::string m = answer["error"]["message"];
  for (const std::string& w : words)
    if (m.find(w) == std::string::npos) return false;
  return true;
}

}  // namespace

// "field" is a path: into nested objects by name, through arrays by an element's id or index.
TEST(Declared, FieldPathsReachIntoObjectsAndArrays) {
  const json tp = {{"op", "tp"}, {"phase", "prefill"}, {"tokens", "$devices"}};
  const json doc = fixture_with({{{"id", "call_time_s"}, {"request", tp}, {"field", "per_allreduce.time_s"}},
                                 {{"id", "call_steps"}, {"request", tp}, {"field", "per_allreduce.steps"}},
                                 {{"id", "sp_bytes"}, {"request", tp}, {"field", "sequence_parallel.bytes_sent_per_gpu"}},
                                 {{"id", "h100_flops"}, {"request", {{"op", "presets"}}}, {"field", "gpus.h100.flops"}},
                                 {{"id", "second_gpu_flops"}, {"request", {{"op", "presets"}}}, {"field", "gpus.1.flops"}}});
  const json loaded = load(doc);
  ASSERT_FALSE(loaded.contains("error")) << loaded.dump().substr(0, 400);
  const json s = solve(42, {{"devices", 16}});
  ASSERT_FALSE(s.contains("error")) << s.dump().substr(0, 400);
  const json direct = commlab::evaluate(json{{"op", "tp"}, {"phase", "prefill"}, {"tokens", 16}});
  EXPECT_EQ(s["values"]["call_time_s"], direct["per_allreduce"]["time_s"]);
  EXPECT_EQ(s["values"]["call_steps"], direct["per_allreduce"]["steps"]);
  EXPECT_EQ(s["values"]["sp_bytes"], direct["sequence_parallel"]["bytes_sent_per_gpu"]);
  const json presets = commlab::evaluate(json{{"op", "presets"}});
  EXPECT_EQ(s["values"]["h100_flops"], presets["gpus"][0]["flops"]);
  EXPECT_EQ(presets["gpus"][0]["id"], "h100");
  EXPECT_EQ(s["values"]["second_gpu_flops"], presets["gpus"][1]["flops"]);

  // A missing part is named, with what the response held there.
  auto with_field = [](const json& request, const std::string& field) {
    return fixture_with({{{"id", "x"}, {"request", request}, {"field", field}}});
  };
  EXPECT_TRUE(refused_naming(load(with_field({{"op", "presets"}}, "gpus.h300.flops")),
                             {"compute.values[8].field", "\"gpus\"", "\"h300\"", "an array of 3"}))
      << load(with_field({{"op", "presets"}}, "gpus.h300.flops")).dump();
  EXPECT_TRUE(refused_naming(load(with_field({{"op", "presets"}}, "gpus.3.flops")), {"\"3\"", "an array of 3"}));
  EXPECT_TRUE(refused_naming(load(with_field(tp, "per_allreduce.time_s.x")), {"\"per_allreduce.time_s\"", "a single value"}));
  EXPECT_TRUE(refused_naming(load(with_field(tp, "per_allreduce.tiem_s")), {"\"tiem_s\""}));
  EXPECT_TRUE(refused_naming(load(with_field(tp, "per_allreduce")), {"an array, an object or a long text"}));
}

// A request asked again (the next figure of the same request) is answered once; a different one
// is asked anew, never answered from the one before.
TEST(Declared, ConsecutiveRequestsAreNotConfused) {
  const json ring = {{"op", "allreduce"}, {"algorithm", "ring"}, {"devices", "$devices"}, {"bytes", "$bytes"},
                     {"link", {{"alpha_s", "$alpha_s"}, {"beta_Bps", "$beta_Bps"}}}};
  json twice = ring;
  twice["bytes"] = "$double_bytes";
  const json doc = fixture_with({{{"id", "double_bytes"}, {"expr", "2 * $bytes"}},
                                 {{"id", "t1_s"}, {"request", ring}, {"field", "time_s"}},
                                 {{"id", "steps1"}, {"request", ring}, {"field", "steps"}},
                                 {{"id", "t2_s"}, {"request", twice}, {"field", "time_s"}},
                                 {{"id", "t3_s"}, {"request", ring}, {"field", "time_s"}}});
  ASSERT_FALSE(load(doc).contains("error"));
  const json s = solve(42, {{"devices", 8}, {"bytes", 1e6}});
  ASSERT_FALSE(s.contains("error")) << s.dump().substr(0, 400);
  json direct = commlab::evaluate(json{{"op", "allreduce"}, {"algorithm", "ring"}, {"devices", 8}, {"bytes", 1e6},
                                       {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 4e10}}}});
  EXPECT_EQ(s["values"]["t1_s"], direct["time_s"]);
  EXPECT_EQ(s["values"]["t3_s"], direct["time_s"]);
  EXPECT_EQ(s["values"]["steps1"], direct["steps"]);
  direct = commlab::evaluate(json{{"op", "allreduce"}, {"algorithm", "ring"}, {"devices", 8}, {"bytes", 2e6},
                                  {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 4e10}}}});
  EXPECT_EQ(s["values"]["t2_s"], direct["time_s"]);
  EXPECT_NE(s["values"]["t2_s"], s["values"]["t1_s"]);
}

// "keep_params": params a template or a page view reads among the values, as they are.
TEST(Declared, KeptParamsAreValuesToo) {
  json doc = fixture_with({});
  doc["compute"]["keep_params"] = {"devices", "bytes"};
  ASSERT_FALSE(load(doc).contains("error"));
  const json s = solve(42, {{"devices", 16}, {"bytes", 2e6}});
  EXPECT_EQ(s["values"]["devices"], 16);
  EXPECT_EQ(s["values"]["bytes"], 2e6);
  for (const json& bad : {json{"gpus"}, json{5}, json{"devices", "devices"}, json("devices")}) {
    doc["compute"]["keep_params"] = bad;
    const json r = load(doc);
    EXPECT_TRUE(refused_naming(r, {"compute.keep_params"})) << bad.dump() << ": " << r.dump();
  }
  doc["compute"]["keep_params"] = {"gpus"};
  const json lint = commlab::evaluate(json{{"op", "exercise.lint"}, {"text", doc.dump()}});
  ASSERT_EQ(lint["ok"], false) << lint.dump();
  EXPECT_NE(lint["problems"].dump().find("compute.keep_params[0]: \\\"gpus\\\" is not a param"), std::string::npos)
      << lint.dump();
}

// Exercise 5, declared in its file: the statement's layers and hidden size with Llama-3-70B's
// proportions (read from its preset), its answers exactly the tp request's.
TEST(Declared, Exercise5IsTheTpRequestOfTheStatementsModel) {
  for (const auto& [layers, hidden, heads, kv_heads, ffn] :
       std::vector<std::tuple<int, int, int, int, int>>{{80, 8192, 64, 8, 28672}, {40, 5120, 40, 5, 17920},
                                                        {12, 64, 1, 1, 224}, {7, 1000, 7, 1, 3500}}) {
    const json params = {{"layers", layers}, {"hidden", hidden}, {"tokens", 2048}, {"tp", 4}, {"link", "ib_ndr"},
                         {"bytes_per_value", 1}};
    const json s = solve(5, params);
    ASSERT_FALSE(s.contains("error")) << s.dump().substr(0, 400);
    EXPECT_EQ(s["values"]["q_heads"], heads) << hidden;
    EXPECT_EQ(s["values"]["kv_heads"], kv_heads) << hidden;
    EXPECT_EQ(s["values"]["ffn"], ffn) << hidden;
    EXPECT_EQ(s["values"]["head_dim"], 128);
    EXPECT_EQ(s["values"]["layers"], layers);
    EXPECT_EQ(s["values"]["tp"], 4);
    const json tp = commlab::evaluate(json{{"op", "tp"}, {"phase", "prefill"}, {"tokens", 2048}, {"tp", 4},
                                           {"link", "ib_ndr"}, {"algorithm", "ring"},
                                           {"model", {{"id", "llama3_70b"}, {"layers", layers}, {"hidden", hidden},
                                                      {"q_heads", heads}, {"kv_heads", kv_heads}, {"head_dim", 128},
                                                      {"ffn", ffn}, {"activation_bytes", 1}}}});
    EXPECT_EQ(s["answers"]["bytes_per_gpu"], tp["bytes_sent_per_gpu"]);
    EXPECT_EQ(s["answers"]["time"], tp["comm_time_s"]);
    EXPECT_EQ(s["values"]["compute_time_s"], tp["compute_time_s"]);
    EXPECT_EQ(s["values"]["allreduce_steps"], tp["per_allreduce"]["steps"]);
    const std::string note = s["values"]["model_note"]["en"];
    EXPECT_EQ(note, layers == 40 ? " (the shape of Llama-2-13B in FP8)" : layers == 80 ? " (the shape of Llama-3-70B in FP8)" : "");
  }
  const json zh = solve(5, {{"layers", 32}, {"hidden", 4096}, {"bytes_per_value", 2}});
  EXPECT_EQ(zh["values"]["model_note"]["zh"], "（即 BF16 的 Llama-3-8B 的形状）");
  // The H100's effective rate, from its preset and the lecture's MFU.
  EXPECT_DOUBLE_EQ(zh["values"]["flops_eff_tflops"].get<double>(), 989 * 0.7);
}
