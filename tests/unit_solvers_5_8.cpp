// Exercises 5-8 with the lecture's answers (P5 §11): 6 and 8 by their solvers, 5 and 7 declared.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "exercises/solvers.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;
using nlohmann::json;

namespace {
// Exercises 5 and 7 are declared in their files (exercises/05.json, 07.json): solved through the
// request API.
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
  const ExerciseSolution s =
      solve_exercise_6({{"stages", 8}, {"stage_time_s", 0.001}, {"transfer_time_s", 0.0001}, {"tokens", 100}});
  EXPECT_EQ(s.answers.at("microbatches").get<int>(), 8);
  EXPECT_NEAR(s.answers.at("token_interval").get<double>(), 8.7e-3, 1e-15);
  EXPECT_EQ(s.values.at("microbatches_to_fill").get<int>(), 9);
  EXPECT_NEAR(s.values.at("simulated_token_interval_s").get<double>(), 8.77e-3, 1e-12);
  EXPECT_NEAR(s.values.at("utilisation").get<double>(), 0.912, 0.001);
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
  const ExerciseSolution s = solve_exercise_8({{"prompt_tokens", 32768}, {"nics", 8}});
  EXPECT_NEAR(s.answers.at("kv_bytes").get<double>(), 32768.0 * 327680, 1);      // "10.7 GB"
  EXPECT_NEAR(s.answers.at("one_nic").get<double>() / ms, 268.4, 0.05);          // "268 ms"
  EXPECT_NEAR(s.answers.at("eight_nics").get<double>() / ms, 33.56, 0.01);       // "33.6 ms"
  EXPECT_NEAR(s.answers.at("layerwise").get<double>() / ms, 0.4244, 0.0001);     // "0.42 ms"
  const ExerciseSolution four = solve_exercise_8({{"prompt_tokens", 4096}, {"nics", 8}});
  EXPECT_NEAR(four.answers.at("layerwise").get<double>() / us, 57.4, 0.1);
}

TEST(Solvers, BadParamsThrowNamedErrors) {
  const json bad = solve(5, {{"tokens", -1}, {"tp", 8}, {"layers", 80}, {"hidden", 8192}, {"bytes_per_value", 2},
                             {"link", "nvlink4"}});
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_NE(bad.at("error").at("message").get<std::string>().find("params.tokens"), std::string::npos) << bad.dump();
  EXPECT_THROW(solve_exercise_6({{"stages", 8}}), std::exception);
  const json warp = solve(7, {{"prompt_tokens", 8192}, {"devices", 8}, {"link", "warp"}});
  ASSERT_TRUE(warp.contains("error")) << warp.dump();
  EXPECT_NE(warp.at("error").at("message").get<std::string>().find("warp"), std::string::npos) << warp.dump();
  EXPECT_THROW(solve_exercise_8({{"prompt_tokens", 1000}, {"nics", 2.5}}), std::exception);
}
