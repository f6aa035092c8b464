// The judging rule (exercises/README.md "Judging typed answers") as a table: typed answers over the eight
// exercises and the verdict a teacher gives each. The same table runs through the wasm module
// (tests/node/judging.test.mjs).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "api/api.hpp"

using nlohmann::json;

namespace {

json table() {
  std::ifstream in(COMMLAB_SOURCE_DIR "/tests/golden/judging.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).at("cases");
}

}  // namespace

TEST(Judging, EveryTypedAnswerGetsTheTeachersVerdict) {
  const json cases = table();
  ASSERT_GE(cases.size(), 150u);
  std::set<std::string> covered;
  for (const json& c : cases) {
    const std::string answer = c.at("answer");
    const json out = commlab::evaluate(json{{"op", "exercise.check"},
                                            {"id", c.at("exercise")},
                                            {"answers", {{answer, c.at("typed")}}}});
    ASSERT_FALSE(out.contains("error")) << out.dump();
    const json& v = out.at("verdicts").at(answer);
    const std::string where = "exercise " + c.at("exercise").dump() + " " + answer + " typed " + c.at("typed").dump();
    EXPECT_EQ(v.at("verdict"), c.at("verdict")) << where << ": " << v.at("message").at("en");
    if (c.contains("message_has")) {
      EXPECT_NE(v.at("message").at("en").get<std::string>().find(c.at("message_has").get<std::string>()),
                std::string::npos)
          << where << ": " << v.at("message").at("en");
    }
    if (c.contains("message_lacks")) {
      EXPECT_EQ(v.at("message").at("en").get<std::string>().find(c.at("message_lacks").get<std::string>()),
                std::string::npos)
          << where << ": " << v.at("message").at("en");
    }
    if (c.contains("message_has_zh")) {
      EXPECT_NE(v.at("message").at("zh").get<std::string>().find(c.at("message_has_zh").get<std::string>()),
                std::string::npos)
          << where << ": " << v.at("message").at("zh");
    }
    covered.insert(c.at("exercise").dump() + "." + answer);
  }
  // Every answer of every exercise is in the table.
  for (int id = 1; id <= 8; ++id) {
    const json doc = commlab::evaluate(json{{"op", "exercise.get"}, {"id", id}});
    for (const json& a : doc.at("answers"))
      EXPECT_TRUE(covered.count(std::to_string(id) + "." + a.at("id").get<std::string>()))
          << "exercise " << id << " answer " << a.at("id") << " has no row in tests/golden/judging.json";
  }
}

TEST(Judging, MessagesNeverContradictThePrintedRule) {
  // A verdict on a number always names what it read and, when it is not correct, which part of
  // the printed rule it misses; a correct one says which part it meets.
  for (const char* typed : {"10", "2200", "9.6", "9.61", "12", "10."}) {
    const json out = commlab::evaluate(
        json{{"op", "exercise.check"}, {"id", 4}, {"answers", {{"hierarchical", std::string(typed) + " ms"}}}});
    const std::string en = out.at("verdicts").at("hierarchical").at("message").at("en");
    EXPECT_NE(en.find(std::string(typed) + " ms"), std::string::npos) << en;
    const bool correct = out.at("verdicts").at("hierarchical").at("verdict") == "correct";
    EXPECT_TRUE(correct ? en.find("within 1%") != std::string::npos || en.find("rounded to") != std::string::npos
                        : en.find("more than 1%") != std::string::npos)
        << en;
  }
  const json rule = commlab::evaluate(json{{"op", "exercise.get"}, {"id", 4}}).at("answers").at(0).at("rule");
  EXPECT_NE(rule.at("en").get<std::string>().find("420 and 2,200 have two figures"), std::string::npos);
  EXPECT_NE(rule.at("zh").get<std::string>().find("2,200 都是两位"), std::string::npos);
}
