// Exercises 5-8 with the lecture's answers (P5 §11), each declared in its file (exercises/05.json
// .. 08.json) and solved through the request API.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/api.hpp"
#include "base/error.hpp"
#include "exercises/solution.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;
using nlohmann::json;

namespace {

// exercise.solve of a declared exercise as an ExerciseSolution (answers, values, ranges); an
// error comes back as a RequestError with its code and message.
ExerciseSolution solve_declared_exercise(int id, const json& params) {
  const json out = evaluate(json{{"op", "exercise.solve"}, {"id", id}, {"params", params}});
  if (out.contains("error"))
    throw RequestError(out.at("error").at("code"), out.at("error").at("message"));
  ExerciseSolution s;
  s.answers = out.at("answers");
  s.values = out.at("values");
  s.ranges = out.at("ranges");
  return s;
}

json solve(int id, const json& params) {
  return commlab::evaluate(json{{"op", "exercise.solve"}, {"id", id}, {"params", params}});
}

}  // namespace

TEST(Solvers, Exercise5) {
  const json s = solve(5, {{"tokens", 4096}, {"tp", 8}, {"layers", 80}, {"hidden", 8192}, {"bytes_per_value", 2},
                           {"link", "nvlink4"}});
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_NEAR(s.at("answers").at("bytes_per_gpu").get<double>() / GB, 18.79, 0.005);  // "about 18.8 GB"
  EXPECT_NEAR(s.at("answers").at("time").get<double>() / ms, 56.68, 0.01);             // "about 57 ms"
  EXPECT_NEAR(s.at("values").at("allreduce_bytes").get<double>() / MB, 67.1, 0.05);
  EXPECT_NEAR(s.at("values").at("bytes_sent_per_allreduce").get<double>() / MB, 117.4, 0.05);
}

TEST(Solvers, Exercise6) {
  const ExerciseSolution s = solve_declared_exercise(
      6, {{"stages", 8}, {"stage_time_s", 0.001}, {"transfer_time_s", 0.0001}, {"tokens", 100}});
  EXPECT_EQ(s.answers.at("microbatches").get<int>(), 8);
  EXPECT_NEAR(s.answers.at("token_interval").get<double>(), 8.7e-3, 1e-15);
  EXPECT_EQ(s.values.at("microbatches_to_fill").get<int>(), 9);
  EXPECT_NEAR(s.values.at("simulated_token_interval_s").get<double>(), 8.77e-3, 1e-12);
  EXPECT_NEAR(s.values.at("utilisation").get<double>(), 0.912, 0.001);
  EXPECT_EQ(s.ranges.at("microbatches"), json({8, 9}));  // "at least 8 ... one or two more fill it"
}

// The params' far corner (64 stages, 1,000 tokens: 4.1 M stage visits, past the pipeline op's
// own 1e6) still solves: the exercise's request accepts up to 5e6 (max_stage_visits).
TEST(Solvers, Exercise6AtItsLargestSimulation) {
  const ExerciseSolution s = solve_declared_exercise(6, {{"stages", 64}, {"tokens", 1000}});
  EXPECT_EQ(s.answers.at("microbatches").get<int>(), 64);
  EXPECT_NEAR(s.answers.at("token_interval").get<double>(), 64 * 1e-3 + 63 * 1e-4, 1e-15);
  EXPECT_EQ(s.values.at("microbatches_to_fill").get<int>(), 71);  // ceil(70.3 / 1)
  // m = p <= trip / s: every micro-batch's tokens one trip apart, the last starting (p - 1) s late.
  EXPECT_NEAR(s.values.at("simulated_makespan_s").get<double>(), 63 * 1e-3 + 1000 * 70.3e-3, 1e-9);
}

// A simulation too large for the exercise (its params widened past 5e6 stage visits) is the
// params' out_of_range, naming the request's fields and the limit, not a broken document.
TEST(Solvers, Exercise6TooLargeASimulationIsOutOfRange) {
  std::ifstream in(COMMLAB_SOURCE_DIR "/exercises/06.json");
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str());
  doc["id"] = 46;
  doc["params"][3]["max"] = 2000;
  const json loaded = evaluate(json{{"op", "exercise.load"}, {"text", doc.dump()}});
  ASSERT_FALSE(loaded.contains("error")) << loaded.dump().substr(0, 400);
  try {
    solve_declared_exercise(46, {{"stages", 64}, {"tokens", 2000}});
    FAIL() << "no error";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.code(), "out_of_range");
    const std::string m = e.what();
    EXPECT_NE(m.find("exercise 46, compute.values[0].request"), std::string::npos) << m;
    EXPECT_NE(m.find("64 x 64 x 2000 stage visits"), std::string::npos) << m;
    EXPECT_NE(m.find("at most max_stage_visits (5e+06), so at most 1220 tokens here"), std::string::npos) << m;
  }
  EXPECT_NO_THROW(solve_declared_exercise(46, {{"stages", 64}, {"tokens", 1220}}));
}

// Exercise 7 is declared in its file (exercises/07.json) too.
TEST(Solvers, Exercise7) {
  const json s = solve(7, {{"prompt_tokens", 131072}, {"devices", 8}, {"link", "ib_ndr"}});
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_NEAR(s.at("answers").at("threshold").get<double>(), 2163.4, 0.05);
  EXPECT_DOUBLE_EQ(s.at("answers").at("tokens_per_device").get<double>(), 16384);
  EXPECT_EQ(s.at("answers").at("hidden"), "yes");
  EXPECT_EQ(s.at("answers").at("short_hidden"), "no");  // the lecture's 8K prompt: 1,024 a device
  const json short_prompt = solve(7, {{"prompt_tokens", 8192}, {"short_prompt_tokens", 4096}, {"devices", 8}, {"link", "ib_ndr"}});
  EXPECT_EQ(short_prompt.at("answers").at("hidden"), "no");
  const json nv = solve(7, {{"prompt_tokens", 8192}, {"short_prompt_tokens", 4096}, {"devices", 8}, {"link", "nvlink4"}});
  EXPECT_NEAR(nv.at("answers").at("threshold").get<double>(), 240.4, 0.05);
  EXPECT_EQ(nv.at("answers").at("hidden"), "yes");
  EXPECT_EQ(nv.at("answers").at("short_hidden"), "yes");  // 512 a device, above 240
}

TEST(Solvers, Exercise8) {
  const ExerciseSolution s = solve_declared_exercise(8, {{"prompt_tokens", 32768}, {"nics", 8}});
  EXPECT_NEAR(s.answers.at("kv_bytes").get<double>(), 32768.0 * 327680, 1);      // "10.7 GB"
  EXPECT_NEAR(s.answers.at("one_nic").get<double>() / ms, 268.4, 0.05);          // "268 ms"
  EXPECT_NEAR(s.answers.at("eight_nics").get<double>() / ms, 33.56, 0.01);       // "33.6 ms"
  EXPECT_NEAR(s.answers.at("layerwise").get<double>() / ms, 0.4244, 0.0001);     // "0.42 ms"
  // The lecture's arithmetic without alpha passes too: 134.2 MB / (8 x 40 GB/s) = 0.419 ms.
  EXPECT_NEAR(s.ranges.at("layerwise").at(0).get<double>() / ms, 0.4194, 0.0001);
  EXPECT_EQ(s.ranges.at("layerwise").at(1), s.answers.at("layerwise"));
  EXPECT_NEAR(s.ranges.at("one_nic").at(0).get<double>() / ms, 268.4, 0.05);
  EXPECT_NEAR(s.ranges.at("eight_nics").at(0).get<double>() / ms, 33.55, 0.01);
  const ExerciseSolution four = solve_declared_exercise(8, {{"prompt_tokens", 4096}, {"nics", 8}});
  EXPECT_NEAR(four.answers.at("layerwise").get<double>() / us, 57.4, 0.1);
}

TEST(Solvers, BadParamsThrowNamedErrors) {
  const json bad = solve(5, {{"tokens", -1}, {"tp", 8}, {"layers", 80}, {"hidden", 8192}, {"bytes_per_value", 2},
                             {"link", "nvlink4"}});
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_NE(bad.at("error").at("message").get<std::string>().find("params.tokens"), std::string::npos) << bad.dump();
  EXPECT_THROW(solve_declared_exercise(6, {{"stages", 8.5}}), std::exception);
  const json warp = solve(7, {{"prompt_tokens", 8192}, {"devices", 8}, {"link", "warp"}});
  ASSERT_TRUE(warp.contains("error")) << warp.dump();
  EXPECT_NE(warp.at("error").at("message").get<std::string>().find("warp"), std::string::npos) << warp.dump();
  EXPECT_THROW(solve_declared_exercise(8, {{"prompt_tokens", 1000}, {"nics", 2.5}}), std::exception);
}
