// Exercises as data (exercises/declared.hpp): the arithmetic of "expr", cases, ranges, field
// paths, and the exercises declared in their files giving what the engine gives for the same
// requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "api/api.hpp"
#include "exercises/declared.hpp"
#include "model/collectives.hpp"
#include "model/links.hpp"

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

json fixture_doc() {
  std::ifstream in(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json");
  std::stringstream s;
  s << in.rdbuf();
  json doc = json::parse(s.str());
  doc["id"] = 42;
  return doc;
}

// The ninth exercise of the fixtures (answers declared as requests), renumbered, with a range:
// ring's time accepted from D / beta alone (alpha and the ring's share left out) to the ring's.
json ranged_doc() {
  json doc = fixture_doc();
  doc["compute"]["ranges"] = {{"ring", {{"lo", "$message_time_s"}, {"hi", "$ring_time_s"}}}};
  return doc;
}

// The ninth exercise of the fixtures, renumbered, with `values` appended to its compute section.
json fixture_with(const json& values) {
  json doc = fixture_doc();
  for (const json& v : values) doc["compute"]["values"].push_back(v);
  return doc;
}

json load(const json& doc) { return commlab::evaluate(json{{"op", "exercise.load"}, {"text", doc.dump()}}); }
json solve(const json& params = json::object()) {
  return commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 42}, {"params", params}});
}
std::string verdict(const std::string& typed, const json& params = json::object()) {
  const json out = commlab::evaluate(
      json{{"op", "exercise.check"}, {"id", 42}, {"params", params}, {"answers", {{"ring", typed}}}});
  return out.at("verdicts").at("ring").at("verdict");
}

json ring_link_request(const char* algorithm, int devices, double bytes) {
  return {{"op", "allreduce"}, {"algorithm", algorithm}, {"devices", devices}, {"bytes", bytes},
          {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 40e9}}}};
}

json cond(const std::string& left, const std::string& op, const json& right) {
  return {{"left", left}, {"op", op}, {"right", right}};
}

// The message of the error loading `doc` gives (its code invalid_exercise), or "loaded".
std::string refusal(const json& doc) {
  const json out = load(doc);
  if (!out.contains("error")) return "loaded";
  EXPECT_EQ(out.at("error").at("code"), "invalid_exercise") << out.dump();
  return out.at("error").at("message");
}

json solve_id(int id, const json& params = json::object()) {
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

TEST(DeclaredRanges, ARangeIsItsFiguresAndJudgedCorrect) {
  ASSERT_FALSE(load(ranged_doc()).contains("error")) << load(ranged_doc()).dump();
  const json s = solve();
  ASSERT_FALSE(s.contains("error")) << s.dump();
  const double lo = s.at("values").at("message_time_s"), hi = s.at("values").at("ring_time_s");
  EXPECT_EQ(s.at("ranges"), json({{"ring", {lo, hi}}}));
  ASSERT_LT(lo * 1.1, hi * 0.9);
  // Halfway between: outside 1% of the exact value, inside the range.
  const std::string mid = std::to_string((lo + hi) / 2 * 1e6) + " us";
  EXPECT_EQ(verdict(mid), "correct");
  EXPECT_EQ(verdict(std::to_string(lo * 0.9 * 1e6) + " us"), "incorrect");  // below lo by more than 1%
  // Without the range the same answer is wrong: the range is what accepts it.
  json plain = ranged_doc();
  plain["compute"].erase("ranges");
  ASSERT_FALSE(load(plain).contains("error"));
  EXPECT_EQ(solve().at("ranges"), json::object());
  EXPECT_EQ(verdict(mid), "incorrect");
}

TEST(DeclaredRanges, WhenChoosesThePointsItAppliesAt) {
  json doc = ranged_doc();
  doc["compute"]["ranges"]["ring"]["when"] = {{"left", "params.devices"}, {"op", ">="}, {"right", 16}};
  ASSERT_FALSE(load(doc).contains("error")) << load(doc).dump();
  EXPECT_EQ(solve().at("ranges"), json::object());  // 8 devices: no range
  const json at16 = solve({{"devices", 16}});
  EXPECT_EQ(at16.at("ranges").at("ring").at(1), at16.at("answers").at("ring"));
  // An array of conditions: all must hold.
  doc["compute"]["ranges"]["ring"]["when"] = json::array(
      {{{"left", "params.devices"}, {"op", ">="}, {"right", 16}}, {{"left", "answers.best"}, {"op", "=="}, {"right", "ring"}}});
  ASSERT_FALSE(load(doc).contains("error"));
  EXPECT_EQ(solve({{"devices", 16}}).at("ranges").contains("ring"), solve({{"devices", 16}}).at("answers").at("best") == "ring");
}

TEST(DeclaredRanges, MistakesAreRefusedNamingThePath) {
  auto with = [](const json& ranges) {
    json doc = ranged_doc();
    doc["compute"]["ranges"] = ranges;
    return doc;
  };
  const std::string lo = "$message_time_s", hi = "$ring_time_s";
  EXPECT_NE(refusal(with(5)).find("compute.ranges: must be an object"), std::string::npos);
  EXPECT_NE(refusal(with({{"rnig", {{"lo", lo}, {"hi", hi}}}})).find("compute.ranges.rnig"), std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", lo}, {"hgi", hi}}}})).find("compute.ranges.ring.hgi: unknown field; did you mean \"hi\"?"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", lo}}}})).find("compute.ranges.ring.hi: is missing"), std::string::npos);
  EXPECT_NE(refusal(with({{"ring", 7}})).find("compute.ranges.ring: must be an object"), std::string::npos);
  EXPECT_NE(refusal(with({{"best", {{"lo", lo}, {"hi", hi}}}})).find("compute.ranges.best: answer 'best' is a choice"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", "$no_such"}, {"hi", hi}}}})).find("compute.ranges.ring.lo: expression \"$no_such\": $no_such is not bound"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", {{"argmin", {"ring_time_s"}}}}, {"hi", hi}}}})).find("compute.ranges.ring.lo.argmin: unknown field"),
            std::string::npos);
  const json flag = {{"request", {{"op", "transfer"}, {"link", "nvlink4"}, {"bytes", 1}}}, {"field", "latency_bound"}};
  EXPECT_NE(refusal(with({{"ring", {{"lo", flag}, {"hi", hi}}}})).find("compute.ranges.ring.lo: gives true; allowed: a number"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", hi}, {"hi", lo}}}})).find("compute.ranges.ring: lo ("), std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", hi}, {"hi", lo}}}})).find("is above hi"), std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", "1 / 0"}, {"hi", hi}}}})).find("compute.ranges.ring.lo: is infinite"), std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", lo}, {"hi", hi}, {"when", {{"left", "values.nope"}, {"op", "<"}, {"right", 1}}}}}}))
                .find("compute.ranges.ring.when.left: \"values.nope\" names no figure"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", lo}, {"hi", hi}, {"when", {{"left", 1}, {"op", "=<"}, {"right", 1}}}}}}))
                .find("compute.ranges.ring.when.op: must be one of"),
            std::string::npos);
  EXPECT_NE(refusal(with({{"ring", {{"lo", lo}, {"hi", hi}, {"when", json::array()}}}})).find("compute.ranges.ring.when: must be a condition"),
            std::string::npos);
  EXPECT_EQ(refusal(with({{"ring", {{"lo", lo}, {"hi", hi}}}})), "loaded");
}

// "field" may be a path into the response: names of objects and indices of arrays.
TEST(Declared, AFieldMayBeAPathIntoTheResponse) {
  json doc = ranged_doc();
  doc["compute"].erase("ranges");
  doc["compute"]["values"].push_back({{"id", "kv_layers"},
                                      {"request", {{"op", "kv_transfer"}, {"model", {{"id", "llama3_70b"}, {"layers", 40}}}}},
                                      {"field", "model.layers"}});
  doc["compute"]["values"].push_back({{"id", "first_model_layers"}, {"request", {{"op", "presets"}}}, {"field", "models[0].layers"}});
  ASSERT_FALSE(load(doc).contains("error")) << load(doc).dump();
  const json s = solve();
  EXPECT_EQ(s.at("values").at("kv_layers"), 40);
  const json presets = commlab::evaluate(json{{"op", "presets"}});
  EXPECT_EQ(s.at("values").at("first_model_layers"), presets.at("models").at(0).at("layers"));
  struct Bad {
    int value;
    std::string field, what;
  };
  for (const Bad& b : {Bad{8, "model.layrs", "the response has no field 'model.layrs'; did you mean \"layers\"?"},
                       Bad{9, "models[99].layers", "has " + std::to_string(presets.at("models").size()) + " entries"},
                       Bad{8, "model", "is an array, an object or a long text"}}) {
    json wrong = doc;
    wrong["compute"]["values"][b.value]["field"] = b.field;
    const json out = load(wrong);
    ASSERT_TRUE(out.contains("error")) << b.field;
    const std::string m = out.at("error").at("message");
    EXPECT_NE(m.find("compute.values[" + std::to_string(b.value) + "].field: "), std::string::npos) << m;
    EXPECT_NE(m.find(b.what), std::string::npos) << m;
  }
}

// Consecutive figures taken from one request (after binding) evaluate it once: exercise 2's five
// figures of one ring all-reduce are one evaluation, and its answers do not change.
TEST(Declared, ConsecutiveEqualRequestsAreEvaluatedOnce) {
  const json before = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 2}});
  int calls = 0;
  commlab::set_request_evaluator([&](const json& r) {
    ++calls;
    return commlab::evaluate(r);
  });
  const json after = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 2}});
  commlab::set_request_evaluator([](const json& r) { return commlab::evaluate(r); });
  EXPECT_EQ(after, before);
  EXPECT_EQ(calls, 2);  // link.match, then the ring all-reduce once for five figures
}

// A declared request the engine refuses at some params as out of range keeps the code (the params
// ask for too much); at the defaults the same refusal is the document's (invalid_exercise).
TEST(Declared, ARefusalAtParamsKeepsItsCode) {
  json doc = ranged_doc();
  doc["compute"].erase("ranges");
  doc["params"][0]["max"] = 100000;
  doc["compute"]["values"].push_back(
      {{"id", "sim_s"},
       {"request", {{"op", "pipeline"}, {"stages", "$devices"}, {"microbatches", "$devices"}, {"tokens", 1}, {"timeline_tokens", 0}}},
       {"field", "makespan_s"}});
  ASSERT_FALSE(load(doc).contains("error")) << load(doc).dump();
  const json big = solve({{"devices", 2000}});
  ASSERT_TRUE(big.contains("error")) << big.dump().substr(0, 300);
  EXPECT_EQ(big.at("error").at("code"), "out_of_range");
  EXPECT_NE(big.at("error").at("message").get<std::string>().find("exercise 42, compute.values[8].request: the engine refused it"),
            std::string::npos) << big.dump();
  doc["params"][0]["default"] = 2000;
  EXPECT_NE(refusal(doc).find("compute.values[8].request: the engine refused it"), std::string::npos);
}

// "field" is a path into nested objects, and into arrays by index or by an element's id (a
// preset's figure wherever the list puts it).
TEST(Declared, FieldPathsReachIntoObjectsAndArraysByIdOrIndex) {
  const json tp = {{"op", "tp"}, {"phase", "prefill"}, {"tokens", "$devices"}};
  const json doc = fixture_with({{{"id", "call_time_s"}, {"request", tp}, {"field", "per_allreduce.time_s"}},
                                 {{"id", "call_steps"}, {"request", tp}, {"field", "per_allreduce.steps"}},
                                 {{"id", "sp_bytes"}, {"request", tp}, {"field", "sequence_parallel.bytes_sent_per_gpu"}},
                                 {{"id", "h100_flops"}, {"request", {{"op", "presets"}}}, {"field", "gpus[h100].flops"}},
                                 {{"id", "b200_flops"}, {"request", {{"op", "presets"}}}, {"field", "gpus[b200].flops"}},
                                 {{"id", "second_gpu_flops"}, {"request", {{"op", "presets"}}}, {"field", "gpus[1].flops"}},
                                 {{"id", "llama_kv_heads"}, {"request", {{"op", "presets"}}}, {"field", "models[llama3_70b].kv_heads"}}});
  const json loaded = load(doc);
  ASSERT_FALSE(loaded.contains("error")) << loaded.dump().substr(0, 400);
  const json s = solve_id(42, {{"devices", 16}});
  ASSERT_FALSE(s.contains("error")) << s.dump().substr(0, 400);
  const json direct = commlab::evaluate(json{{"op", "tp"}, {"phase", "prefill"}, {"tokens", 16}});
  EXPECT_EQ(s["values"]["call_time_s"], direct["per_allreduce"]["time_s"]);
  EXPECT_EQ(s["values"]["call_steps"], direct["per_allreduce"]["steps"]);
  EXPECT_EQ(s["values"]["sp_bytes"], direct["sequence_parallel"]["bytes_sent_per_gpu"]);
  const json presets = commlab::evaluate(json{{"op", "presets"}});
  for (const json& g : presets["gpus"]) {
    if (g["id"] == "h100") {
      EXPECT_EQ(s["values"]["h100_flops"], g["flops"]);
    }
    if (g["id"] == "b200") {
      EXPECT_EQ(s["values"]["b200_flops"], g["flops"]);
    }
  }
  EXPECT_NE(s["values"]["h100_flops"], s["values"]["b200_flops"]);
  EXPECT_EQ(s["values"]["second_gpu_flops"], presets["gpus"][1]["flops"]);
  EXPECT_EQ(s["values"]["llama_kv_heads"], 8);

  // A missing part is named, with what the response held there.
  auto refused = [](const json& request, const std::string& field) {
    return load(fixture_with({{{"id", "x"}, {"request", request}, {"field", field}}}));
  };
  const json presets_request = {{"op", "presets"}};
  EXPECT_TRUE(refused_naming(refused(presets_request, "gpus[h300].flops"),
                             {"compute.values[8].field: the response's \"gpus\" has no entry of id \"h300\"", "\"h100\""}))
      << refused(presets_request, "gpus[h300].flops").dump();
  EXPECT_TRUE(refused_naming(refused(presets_request, "gpus[3].flops"), {"\"gpus\" has 3 entries"}));
  EXPECT_TRUE(refused_naming(refused(presets_request, "mfu[h100]"), {"\"mfu\" is not an array"}));
  EXPECT_TRUE(refused_naming(refused(tp, "per_allreduce.time_s.x"), {"no field 'per_allreduce.time_s.x'"}));
  EXPECT_TRUE(refused_naming(refused(tp, "per_allreduce.tiem_s"), {"\"time_s\""}));
  EXPECT_TRUE(refused_naming(refused(tp, "per_allreduce"), {"an array, an object or a long text"}));
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
  const json s = solve_id(42, {{"devices", 8}, {"bytes", 1e6}});
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
  const json s = solve_id(42, {{"devices", 16}, {"bytes", 2e6}});
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
    const json s = solve_id(5, params);
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
  const json zh = solve_id(5, {{"layers", 32}, {"hidden", 4096}, {"bytes_per_value", 2}});
  EXPECT_EQ(zh["values"]["model_note"]["zh"], "（即 BF16 的 Llama-3-8B 的形状）");
  // The H100's effective rate, from its preset and the lecture's MFU.
  EXPECT_DOUBLE_EQ(zh["values"]["flops_eff_tflops"].get<double>(), 989 * 0.7);
}

TEST(Declared, NthSmallestOrdersItsFigures) {
  const json scope = {{"a", 3.0}, {"b", 1.0}, {"c", 2.0}};
  EXPECT_EQ(commlab::eval_expression("nth_smallest(1, $a, $b, $c)", scope), 1);
  EXPECT_EQ(commlab::eval_expression("nth_smallest(2, $a, $b, $c)", scope), 2);
  EXPECT_EQ(commlab::eval_expression("nth_smallest(3, $a, $b, $c)", scope), 3);
  // A tie counts twice, as a sorted list does: the runner-up of 1, 1, 5 is 1.
  EXPECT_EQ(commlab::eval_expression("nth_smallest(2, 1, 5, 1)", scope), 1);
  EXPECT_TRUE(std::isnan(commlab::eval_expression("nth_smallest(1, 2, sqrt(-1))", scope)));
  auto message = [&](const std::string& text) {
    try {
      commlab::eval_expression(text, scope);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("nth_smallest(4, $a, $b, $c)").find("n is 4; allowed: a whole number from 1 to 3"), std::string::npos);
  EXPECT_NE(message("nth_smallest(1.5, $a, $b)").find("n is 1.5"), std::string::npos);
  EXPECT_NE(message("nth_smallest(0, $a)").find("n is 0"), std::string::npos);
  EXPECT_NE(message("nth_smallest(1)").find("at least one figure"), std::string::npos);
}

// A cases figure: the first case whose "when" holds (all of an array's conditions), else the
// last; over params, values above it and answers before it; a literal or an expression.
TEST(Declared, CasesTakeTheFirstCaseThatHolds) {
  const json values = json::array({
      {{"id", "size_class"},
       {"cases", {{{"when", cond("params.bytes", "<", 1e5)}, {"value", "small"}},
                  {{"when", {cond("params.bytes", ">=", 1e5), cond("params.devices", ">", 8)}}, {"value", "large_many"}},
                  {{"value", "large"}}}}},
      {{"id", "first_wins"},
       {"cases", {{{"when", cond("params.devices", ">=", 4)}, {"value", 1}},
                  {{"when", cond("params.devices", ">=", 2)}, {"value", 2}},
                  {{"value", 3}}}}},
      {{"id", "ring_wins"},
       {"cases", {{{"when", cond("values.ring_time_s", "<=", "values.rd_time_s")}, {"value", true}}, {{"value", false}}}}},
      {{"id", "winner_time_s"},
       {"cases", {{{"when", cond("values.ring_wins", "==", true)}, {"expr", "$ring_time_s"}}, {{"expr", "$rd_time_s"}}}}},
  });
  json doc = fixture_with(values);
  doc["compute"]["answers"]["best"] = {
      {"cases", {{{"when", cond("answers.ring", "<=", "answers.recursive_doubling")}, {"value", "ring"}},
                 {{"value", "recursive_doubling"}}}}};
  ASSERT_EQ(refusal(doc), "loaded");
  struct Point {
    int devices;
    double bytes;
    const char* size_class;
    int first_wins;
  };
  bool saw_ring = false, saw_rd = false;
  for (const Point& p : {Point{16, 64000, "small", 1}, Point{16, 8e6, "large_many", 1}, Point{4, 8e6, "large", 1},
                         Point{2, 8e6, "large", 2}, Point{64, 16000, "small", 1}, Point{64, 16e6, "large_many", 1}}) {
    const json s = solve({{"devices", p.devices}, {"bytes", p.bytes}});
    ASSERT_FALSE(s.contains("error")) << s.dump();
    const json& v = s.at("values");
    EXPECT_EQ(v.at("size_class"), p.size_class) << p.devices << " " << p.bytes;
    EXPECT_EQ(v.at("first_wins"), p.first_wins) << p.devices;
    // The truth from the engine's own answers for the same requests.
    const double ring = commlab::evaluate(ring_link_request("ring", p.devices, p.bytes)).at("time_s");
    const double rd = commlab::evaluate(ring_link_request("recursive_doubling", p.devices, p.bytes)).at("time_s");
    ASSERT_TRUE(v.at("ring_wins").is_boolean());
    EXPECT_EQ(v.at("ring_wins"), ring <= rd);
    EXPECT_EQ(v.at("winner_time_s"), std::min(ring, rd));
    EXPECT_EQ(s.at("answers").at("best"), ring <= rd ? "ring" : "recursive_doubling");
    (ring <= rd ? saw_ring : saw_rd) = true;
  }
  EXPECT_TRUE(saw_ring && saw_rd) << "the points must take both cases";
}

// Every case is checked at every solve, the problem named by its path, not only the case the
// lecture's params take.
TEST(Declared, CasesAreCheckedWhenLoaded) {
  const json ring_le_rd = cond("values.ring_time_s", "<=", "values.rd_time_s");
  auto with = [&](const json& cases) { return fixture_with({{{"id", "x"}, {"cases", cases}}}); };
  EXPECT_NE(refusal(with({{{"value", 1}}, {{"when", ring_le_rd}, {"value", 2}}})).find("compute.values[8].cases[0].when: is missing"),
            std::string::npos);
  EXPECT_NE(refusal(with({{{"when", ring_le_rd}, {"value", 1}}, {{"when", ring_le_rd}, {"value", 2}}}))
                .find("compute.values[8].cases[1].when: the last case is the otherwise case"),
            std::string::npos);
  EXPECT_NE(refusal(with(json::array())).find("compute.values[8].cases: must be a non-empty array"), std::string::npos);
  // A figure computed after it (the answers come after every value), or none at all.
  for (const char* later : {"answers.ring", "values.x", "values.rign_time_s"})
    EXPECT_NE(refusal(with({{{"when", cond(later, ">", 0)}, {"value", 1}}, {{"value", 2}}}))
                  .find("compute.values[8].cases[0].when.left: \"" + std::string(later) + "\" names no figure computed before it"),
              std::string::npos)
        << later;
  // In a case the defaults do not take (the first holds at every param): still checked.
  EXPECT_NE(refusal(with({{{"when", cond("params.devices", ">", 0)}, {"value", 1}}, {{"expr", "$rign_time_s"}}}))
                .find("compute.values[8].cases[1].expr: expression \"$rign_time_s\": $rign_time_s is not bound"),
            std::string::npos);
  EXPECT_NE(refusal(with({{{"when", ring_le_rd}, {"value", true}}, {{"value", "no"}}}))
                .find("compute.values[8].cases[1]: gives a text, cases[0] a true/false"),
            std::string::npos);
  EXPECT_NE(refusal(with({{{"when", ring_le_rd}, {"value", 1}, {"expr", "2"}}, {{"value", 2}}}))
                .find("compute.values[8].cases[0]: needs either \"value\""),
            std::string::npos);
  EXPECT_NE(refusal(with({{{"when", ring_le_rd}, {"value", json::array()}}, {{"value", 2}}}))
                .find("compute.values[8].cases[0].value: is []; allowed: a number, a text or true/false"),
            std::string::npos);
  EXPECT_NE(refusal(with({{{"when", cond("values.link_label", "<", 1)}, {"value", 1}}, {{"value", 2}}}))
                .find("compute.values[8].cases[0].when.op: < compares numbers"),
            std::string::npos);
  // A choice answer's every case gives one of its choices; a number answer's a number.
  json doc = fixture_with(json::array());
  doc["compute"]["answers"]["best"] = {{"cases", {{{"when", cond("answers.ring", "<", 1)}, {"value", "ring"}}, {{"value", "tree"}}}}};
  EXPECT_NE(refusal(doc).find("compute.answers.best.cases[1].value: \"tree\" is not one of the answer's choices"), std::string::npos);
  doc = fixture_with(json::array());
  doc["compute"]["answers"]["ring"] = {{"cases", {{{"value", "fast"}}}}};
  EXPECT_NE(refusal(doc).find("compute.answers.ring.cases[0].value: is \"fast\"; allowed: a number"), std::string::npos);
  doc = fixture_with({{{"id", "x"}, {"expr", "1"}, {"cases", {{{"value", 1}}}}}});
  EXPECT_NE(refusal(doc).find("compute.values[8]: holds both \"expr\" and \"cases\""), std::string::npos);
}

// A field path reaches into a response's arrays and objects: the hierarchical all-reduce's phases.
TEST(Declared, AFieldPathTakesAPhaseOfTheHierarchicalAllreduce) {
  const json request = {{"op", "allreduce"},
                        {"algorithm", "hierarchical"},
                        {"nodes", 4},
                        {"gpus_per_node", "$devices"},
                        {"bytes", "$bytes"},
                        {"intra_link", "nvlink4"},
                        {"inter_link", {{"alpha_s", "$alpha_s"}, {"beta_Bps", "$beta_Bps"}}}};
  const json values = json::array({{{"id", "inter_time_s"}, {"request", request}, {"field", "phases[1].time_s"}},
                                   {{"id", "inter_bytes"}, {"request", request}, {"field", "phases[1].bytes_sent_per_device"}},
                                   {{"id", "rs_steps"}, {"request", request}, {"field", "phases[0].steps"}},
                                   {{"id", "total_time_s"}, {"request", request}, {"field", "time_s"}}});
  ASSERT_EQ(refusal(fixture_with(values)), "loaded");
  const json s = solve({{"devices", 8}, {"bytes", 1e9}});
  ASSERT_FALSE(s.contains("error")) << s.dump();
  const json h = commlab::evaluate(json{{"op", "allreduce"}, {"algorithm", "hierarchical"}, {"nodes", 4}, {"gpus_per_node", 8},
                                        {"bytes", 1e9}, {"intra_link", "nvlink4"},
                                        {"inter_link", {{"alpha_s", 5e-6}, {"beta_Bps", 40e9}}}});
  EXPECT_EQ(s.at("values").at("inter_time_s"), h.at("phases").at(1).at("time_s"));
  EXPECT_EQ(s.at("values").at("inter_bytes"), h.at("phases").at(1).at("bytes_sent_per_device"));
  EXPECT_EQ(s.at("values").at("rs_steps"), 7);
  EXPECT_EQ(s.at("values").at("total_time_s"), h.at("time_s"));
  auto field = [&](const std::string& f) {
    return refusal(fixture_with({{{"id", "x"}, {"request", request}, {"field", f}}}));
  };
  EXPECT_NE(field("phases[3].time_s").find("compute.values[8].field: the response's \"phases\" has 3 entries; allowed: an index from 0 to 2"),
            std::string::npos);
  EXPECT_NE(field("phases[1].tim_s").find("the response has no field 'phases[1].tim_s'; did you mean \"time_s\"?"), std::string::npos);
  EXPECT_NE(field("time_s[0]").find("\"time_s\" is not an array"), std::string::npos);
  // Brackets hold an index or an id: the phases have no id.
  EXPECT_NE(field("phases[x]").find("the response's \"phases\" has no entry of id \"x\"; allowed: [index] (its entries have no id)"),
            std::string::npos);
  EXPECT_NE(field("phases[x-y]").find("is not a field path"), std::string::npos);
  EXPECT_NE(field("phases.").find("is not a field path"), std::string::npos);
  EXPECT_NE(field("phases[1]").find("is an array, an object or a long text"), std::string::npos);
}

// Exercises 3 and 4 are data: their figures are the engine's (model/collectives.hpp) for the
// same params, computed here the way the C++ solvers they replace computed them.
TEST(Declared, Exercise3WeighsTheFourAlgorithmsAsTheEngine) {
  using commlab::AllreduceAlgorithm;
  const json doc = commlab::evaluate(json{{"op", "exercise.get"}, {"id", 3}});
  ASSERT_TRUE(doc.contains("compute")) << "exercise 3 declares its answers";
  const std::vector<std::pair<std::string, AllreduceAlgorithm>> algos = {
      {"ring", AllreduceAlgorithm::ring},
      {"rd", AllreduceAlgorithm::recursive_doubling},
      {"rab", AllreduceAlgorithm::rabenseifner},
      {"tree", AllreduceAlgorithm::binary_tree}};
  const char* answer_ids[] = {"ring", "recursive_doubling", "rabenseifner", "binary_tree"};
  int well_posed = 0, ill_posed = 0;
  std::set<std::string> winners;
  for (int k : {2, 3, 4, 5, 8, 16, 33, 64, 1000})
    for (double bytes : {1.0, 16e3, 256e3, 8e6, 1e12})
      for (const auto& [alpha, beta] : {std::pair{5e-6, 40e9}, std::pair{2e-6, 360e9}, std::pair{2e-5, 2.5e9}}) {
        const json params = {{"devices", k}, {"bytes", bytes}, {"alpha_s", alpha}, {"beta_Bps", beta}};
        const json s = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 3}, {"params", params}});
        ASSERT_FALSE(s.contains("error")) << s.dump();
        const json& v = s.at("values");
        const commlab::Link link{alpha, beta, "custom"};
        std::vector<double> t, a, b;
        size_t best = 0;
        for (size_t i = 0; i < algos.size(); ++i) {
          const commlab::CollectiveCost c = commlab::allreduce_cost(algos[i].second, k, bytes, link);
          t.push_back(c.time_s);
          a.push_back(c.alpha_time_s);
          b.push_back(c.time_s - c.alpha_time_s);
          if (c.time_s < t[best]) best = i;
          EXPECT_EQ(s.at("answers").at(answer_ids[i]), c.time_s);
          EXPECT_EQ(v.at(algos[i].first + "_steps"), c.steps);
          EXPECT_EQ(v.at(algos[i].first + "_alpha_time_s"), c.alpha_time_s);
          EXPECT_EQ(v.at(algos[i].first + "_beta_time_s"), c.time_s - c.alpha_time_s);
        }
        const std::string where = params.dump();
        EXPECT_EQ(s.at("answers").at("best"), answer_ids[best]) << where;
        winners.insert(answer_ids[best]);
        EXPECT_EQ(v.at("best_alpha_time_s"), a[best]) << where;
        EXPECT_EQ(v.at("best_beta_time_s"), b[best]) << where;
        const double min_a = *std::min_element(a.begin(), a.end()), min_b = *std::min_element(b.begin(), b.end());
        EXPECT_EQ(v.at("min_alpha_time_s"), min_a) << where;
        EXPECT_EQ(v.at("min_beta_time_s"), min_b) << where;
        EXPECT_EQ(v.at("best_sends_extra_bytes"), b[best] > 1.001 * min_b) << where;
        EXPECT_EQ(v.at("best_pays_extra_alpha"), a[best] > 1.001 * min_a) << where;
        std::vector<double> sorted = t;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(v.at("runner_up_ratio"), sorted[1] / sorted[0]) << where;
        EXPECT_EQ(v.at("well_posed"), sorted[1] / sorted[0] > 1.03) << where;
        (sorted[1] / sorted[0] > 1.03 ? well_posed : ill_posed)++;
        EXPECT_EQ(v.at("message_time_s"), bytes / beta);
        EXPECT_EQ(v.at("share"), 2.0 * (k - 1) / k);
      }
  // The grid reaches both sides of every rule it checks.
  EXPECT_GT(well_posed, 0);
  EXPECT_GT(ill_posed, 0);
  EXPECT_GE(winners.size(), 3u);
}

TEST(Declared, Exercise4AddsUpTheHierarchyAsTheEngine) {
  const json doc = commlab::evaluate(json{{"op", "exercise.get"}, {"id", 4}});
  ASSERT_TRUE(doc.contains("compute")) << "exercise 4 declares its answers";
  for (const char* intra_id : {"nvlink4", "nvlink5", "pcie5", "pcie4"})
    for (const char* inter_id : {"ib_ndr", "roce400", "ethernet"})
      for (const auto& [n, g] : {std::pair{2, 2}, std::pair{4, 8}, std::pair{3, 5}, std::pair{16, 64}})
        for (double bytes : {1.0, 1e9}) {
          const json params = {{"nodes", n}, {"gpus_per_node", g}, {"bytes", bytes}, {"intra_link", intra_id}, {"inter_link", inter_id}};
          const json s = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 4}, {"params", params}});
          ASSERT_FALSE(s.contains("error")) << s.dump();
          const std::string where = params.dump();
          const json& v = s.at("values");
          const json& ans = s.at("answers");
          const commlab::Link intra = commlab::catalogue_link(intra_id, "intra_link");
          const commlab::Link inter = commlab::catalogue_link(inter_id, "inter_link");
          const commlab::HierarchicalCost h = commlab::hierarchical_allreduce_cost(n, g, bytes, intra, inter);
          const commlab::CollectiveCost flat = commlab::allreduce_cost(commlab::AllreduceAlgorithm::ring, n * g, bytes, inter);
          const commlab::HierarchicalCost h2 = commlab::hierarchical_allreduce_cost(n, 2 * g, bytes, intra, inter);
          const commlab::CollectiveCost flat2 = commlab::allreduce_cost(commlab::AllreduceAlgorithm::ring, 2 * n * g, bytes, inter);
          EXPECT_EQ(ans.at("hierarchical"), h.total.time_s) << where;
          EXPECT_EQ(ans.at("flat"), flat.time_s) << where;
          EXPECT_EQ(ans.at("speedup"), flat.time_s / h.total.time_s) << where;
          EXPECT_EQ(ans.at("speedup_doubled"), flat2.time_s / h2.total.time_s) << where;
          EXPECT_EQ(v.at("speedup_doubled"), ans.at("speedup_doubled")) << where;
          EXPECT_EQ(v.at("intra_alpha_s"), intra.alpha_s);
          EXPECT_EQ(v.at("intra_beta_Bps"), intra.beta_Bps);
          EXPECT_EQ(v.at("inter_alpha_s"), inter.alpha_s);
          EXPECT_EQ(v.at("inter_beta_Bps"), inter.beta_Bps);
          EXPECT_EQ(v.at("devices"), n * g);
          EXPECT_EQ(v.at("flat_steps"), flat.steps);
          EXPECT_EQ(v.at("flat_alpha_time_s"), flat.alpha_time_s);
          EXPECT_EQ(v.at("flat_bytes"), flat.bytes_sent_per_device);
          EXPECT_EQ(v.at("hier_steps"), h.total.steps);
          EXPECT_EQ(v.at("rs_time_s"), h.intra_reduce_scatter.time_s);
          EXPECT_EQ(v.at("inter_time_s"), h.inter_allreduce.time_s);
          EXPECT_EQ(v.at("inter_bytes"), h.inter_allreduce.bytes_sent_per_device);
          EXPECT_EQ(v.at("ag_time_s"), h.intra_allgather.time_s);
          EXPECT_EQ(v.at("intra_time_s"), h.intra_reduce_scatter.time_s + h.intra_allgather.time_s);
          EXPECT_EQ(v.at("shard_bytes"), bytes / g);
          EXPECT_EQ(v.at("main_term_ratio"), 1.0 / (1.0 / g + inter.beta_Bps / intra.beta_Bps));
          EXPECT_EQ(v.at("gpus_doubled"), 2 * g);
          EXPECT_EQ(v.at("intra_time_doubled_s"), h2.intra_reduce_scatter.time_s + h2.intra_allgather.time_s);
          EXPECT_EQ(v.at("inter_time_doubled_s"), h2.inter_allreduce.time_s);
        }
}

// Exercise 7, declared in its file: the ring_attention request of Llama-3-70B on H100s for each
// prompt, "hidden" the engine's own criterion (n at least the bandwidth-only threshold).
TEST(Declared, Exercise7IsTheRingAttentionRequestForEachPrompt) {
  bool saw[2][2] = {{false, false}, {false, false}};
  for (const char* link : {"ib_ndr", "nvlink4", "pcie5"})
    for (int devices : {2, 8, 32})
      for (int prompt : {8192, 65536, 524288}) {
        const int short_prompt = prompt / 4;
        const json s = solve_id(7, {{"prompt_tokens", prompt}, {"short_prompt_tokens", short_prompt},
                                    {"devices", devices}, {"link", link}});
        ASSERT_FALSE(s.contains("error")) << s.dump().substr(0, 400);
        const json base = {{"op", "ring_attention"}, {"model", "llama3_70b"}, {"gpu", "h100"}, {"link", link},
                           {"devices", devices}};
        json long_request = base, short_request = base;
        long_request["prompt_tokens"] = prompt;
        short_request["prompt_tokens"] = short_prompt;
        const json r = commlab::evaluate(long_request), q = commlab::evaluate(short_request);
        EXPECT_EQ(s["answers"]["threshold"], r["threshold_tokens"]);
        EXPECT_EQ(s["answers"]["tokens_per_device"], r["tokens_per_device"]);
        EXPECT_EQ(s["answers"]["hidden"], r["hidden"].get<bool>() ? "yes" : "no");
        EXPECT_EQ(s["answers"]["short_hidden"], q["hidden"].get<bool>() ? "yes" : "no");
        EXPECT_EQ(s["values"]["step_compute_s"], r["compute_time_s"]);
        EXPECT_EQ(s["values"]["step_transfer_s"], r["transfer_time_s"]);
        EXPECT_DOUBLE_EQ(s["values"]["short_tokens_per_device"].get<double>(), double(short_prompt) / devices);
        EXPECT_DOUBLE_EQ(s["values"]["short_prompt_limit_tokens"].get<double>(),
                         r["threshold_tokens"].get<double>() * devices);
        saw[r["hidden"].get<bool>()][q["hidden"].get<bool>()] = true;
      }
  EXPECT_TRUE(saw[1][1] && saw[1][0] && saw[0][0]) << "the points must take every case";
  // The statement's figures: Llama-3-70B's heads from its preset, F = 70% of the H100's 989 TFLOP/s.
  const json d = solve_id(7);
  EXPECT_EQ(d["values"]["q_heads"], 64);
  EXPECT_EQ(d["values"]["kv_heads"], 8);
  EXPECT_EQ(d["values"]["head_dim"], 128);
  EXPECT_EQ(d["values"]["bytes_per_value"], 2);
  EXPECT_DOUBLE_EQ(d["values"]["flops_eff"].get<double>(), 989e12 * 0.7);
  EXPECT_DOUBLE_EQ(d["values"]["flops_peak_tflops"].get<double>(), 989);
  EXPECT_DOUBLE_EQ(d["values"]["mfu_fraction"].get<double>(), 0.7);
  EXPECT_EQ(d["values"]["link_beta_Bps"], 40e9);
}
