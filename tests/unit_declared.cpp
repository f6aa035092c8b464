// Exercises as data (exercises/declared.hpp): the arithmetic of "expr", and exercises 1 and 2,
// now declared as requests in their files, giving what the engine gives for the same requests.
#include <gtest/gtest.h>

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
