// Exercises as data (exercises/declared.hpp): the arithmetic of "expr", and exercises 1 and 2,
// now declared as requests in their files, giving what the engine gives for the same requests.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

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

// The ninth exercise of the fixtures (answers declared as requests), renumbered, with a range:
// ring's time accepted from D / beta alone (alpha and the ring's share left out) to the ring's.
json ranged_doc() {
  std::ifstream in(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json");
  std::stringstream s;
  s << in.rdbuf();
  json doc = json::parse(s.str());
  doc["id"] = 42;
  doc["compute"]["ranges"] = {{"ring", {{"lo", "$message_time_s"}, {"hi", "$ring_time_s"}}}};
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
// The message of the error loading `doc` gives (its code invalid_exercise), or "loaded".
std::string refusal(const json& doc) {
  const json out = load(doc);
  if (!out.contains("error")) return "loaded";
  EXPECT_EQ(out.at("error").at("code"), "invalid_exercise") << out.dump();
  return out.at("error").at("message");
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
  doc["compute"]["values"].push_back({{"id", "first_model_layers"}, {"request", {{"op", "presets"}}}, {"field", "models.0.layers"}});
  ASSERT_FALSE(load(doc).contains("error")) << load(doc).dump();
  const json s = solve();
  EXPECT_EQ(s.at("values").at("kv_layers"), 40);
  const json presets = commlab::evaluate(json{{"op", "presets"}});
  EXPECT_EQ(s.at("values").at("first_model_layers"), presets.at("models").at(0).at("layers"));
  struct Bad {
    int value;
    std::string field, what;
  };
  for (const Bad& b : {Bad{8, "model.layrs", "the response has no field 'model.layrs' (no \"layrs\" in \"model\")"},
                       Bad{9, "models.99.layers", "the response has no field 'models.99.layers' (no \"99\" in \"models\")"},
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
