// The exercises of P5 §11 through the request API: the lecture's answers, the checking rule,
// variants, and errors (exercises/README.md "Exercises contract").
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <set>

#include "api/api.hpp"

using nlohmann::json;

namespace {

json eval(const json& request) { return commlab::evaluate(request); }

json solve(int id, const json& params = json::object()) {
  return eval({{"op", "exercise.solve"}, {"id", id}, {"params", params}});
}

json check(int id, const json& answers, const json& params = json::object()) {
  return eval({{"op", "exercise.check"}, {"id", id}, {"params", params}, {"answers", answers}});
}

std::string verdict(int id, const std::string& answer, const json& typed) {
  const json out = check(id, {{answer, typed}});
  if (out.contains("error")) return "error: " + out.dump();
  return out.at("verdicts").at(answer).at("verdict");
}

// The lecture's answers as it writes them (P5 §11), answer by answer.
const std::vector<std::pair<int, json>>& lecture_answers() {
  static const std::vector<std::pair<int, json>> all = {
      {1, {{"n_half", "720 KB"}, {"time", "2.18 us"}, {"fraction", "8%"}}},
      {2, {{"bytes_sent", "150 MB"}, {"steps", "6"}, {"time", "429 us"}}},
      {3,
       {{"ring", "162 us"},
        {"recursive_doubling", "45.6 us"},
        {"rabenseifner", "52 us"},
        {"binary_tree", "91.2 us"},
        {"best", "recursive doubling"}}},
      {4, {{"hierarchical", "9.61 ms"}, {"flat", "48.75 ms"}, {"speedup", "about 5x"}, {"speedup_doubled", "about 6-7x"}}},
      {5, {{"bytes_per_gpu", "18.8 GB"}, {"time", "about 57 ms"}}},
      {6, {{"microbatches", "8"}, {"token_interval", "8.7 ms"}}},
      {7, {{"threshold", "2,163 tokens"}, {"tokens_per_device", "16,384"}, {"hidden", "yes"}, {"short_hidden", "no"}}},
      {8,
       {{"kv_bytes", "10.7 GB"}, {"one_nic", "268 ms"}, {"eight_nics", "33.6 ms"}, {"layerwise", "0.42 ms"}}},
  };
  return all;
}

// The text without its $...$ math: braces there are TeX groups ("$\\beta_\\text{NIC}$").
std::string prose_only(std::string text) {
  for (size_t open = text.find('$'); open != std::string::npos; open = text.find('$', open + 1)) {
    const size_t close = text.find('$', open + 1);
    if (close == std::string::npos) break;
    text.replace(open, close - open + 1, " ");
  }
  return text;
}

void expect_filled(const json& pair, const std::string& what) {
  for (const char* lang : {"en", "zh"}) {
    const std::string text = prose_only(pair.at(lang));
    EXPECT_FALSE(text.empty()) << what;
    EXPECT_EQ(text.find('{'), std::string::npos) << what << " (" << lang << ") left a placeholder: " << text;
  }
}

}  // namespace

TEST(Exercises, ListHasTheEightInLectureOrder) {
  const json out = eval({{"op", "exercise.list"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  ASSERT_EQ(out.at("exercises").size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const json& e = out.at("exercises")[i];
    EXPECT_EQ(e.at("id"), i + 1);
    EXPECT_FALSE(e.at("title").at("en").get<std::string>().empty());
    EXPECT_FALSE(e.at("title").at("zh").get<std::string>().empty());
  }
}

TEST(Exercises, GetGivesTheDocumentWithRules) {
  for (int id = 1; id <= 8; ++id) {
    const json doc = eval({{"op", "exercise.get"}, {"id", id}});
    ASSERT_FALSE(doc.contains("error")) << doc.dump();
    EXPECT_EQ(doc.at("id"), id);
    for (const char* f : {"title", "statement", "solution"}) {
      EXPECT_TRUE(doc.at(f).contains("en"));
      EXPECT_TRUE(doc.at(f).contains("zh"));
    }
    EXPECT_FALSE(doc.at("hints").at("en").empty());
    EXPECT_EQ(doc.at("hints").at("en").size(), doc.at("hints").at("zh").size());
    for (const json& p : doc.at("params")) {
      for (const char* f : {"id", "label", "kind", "default", "unit"}) EXPECT_TRUE(p.contains(f)) << p.dump();
      if (p.at("kind") == "choice")
        EXPECT_TRUE(p.contains("choices"));
      else
        EXPECT_TRUE(p.contains("min") && p.contains("max"));
    }
    for (const json& a : doc.at("answers")) {
      for (const char* f : {"id", "label", "unit", "dimension", "tolerance_rel", "rule"})
        EXPECT_TRUE(a.contains(f)) << a.dump();
      // 1%, or 10% where the lecture itself answers "about" (exercise 4's "about 6-7x").
      EXPECT_DOUBLE_EQ(a.at("tolerance_rel").get<double>(), a.value("about", false) ? 0.1 : 0.01) << a.dump();
      EXPECT_FALSE(a.at("rule").at("en").get<std::string>().empty());
      EXPECT_FALSE(a.at("rule").at("zh").get<std::string>().empty());
    }
    expect_filled(doc.at("statement_filled"), "statement of " + std::to_string(id));
    // No rule gives an answer away: none quotes a figure of this exercise's answers.
    const json display = solve(id).at("display");
    for (const json& a : doc.at("answers"))
      for (auto it = display.begin(); it != display.end(); ++it) {
        const std::string figure =
            it.value().get<std::string>().substr(0, it.value().get<std::string>().find(' '));
        if (figure.size() < 2 || !std::isdigit(static_cast<unsigned char>(figure[0]))) continue;
        for (const char* lang : {"en", "zh"})
          EXPECT_EQ(a.at("rule").at(lang).get<std::string>().find(figure), std::string::npos)
              << "exercise " << id << " rule of " << a.at("id") << " quotes " << figure;
      }
  }
}

TEST(Exercises, GetFillsTheStatementForGivenParams) {
  const json doc = eval({{"op", "exercise.get"}, {"id", 2}, {"params", {{"devices", 8}, {"bytes", "1 GB"}}}});
  ASSERT_FALSE(doc.contains("error")) << doc.dump();
  const std::string en = doc.at("statement_filled").at("en");
  EXPECT_EQ(en.rfind("8 GPUs each hold 1 GB", 0), 0u) << en;  // 1,000 MB reads better in GB
  EXPECT_NE(doc.at("statement").at("en").get<std::string>().find("{devices}"), std::string::npos);
  EXPECT_EQ(doc.at("params_display").at("alpha_s"), "2 us");
}

TEST(Exercises, AnswerIdsFollowTheSpec) {
  const std::vector<std::vector<std::string>> ids = {
      {"n_half", "time", "fraction"},
      {"bytes_sent", "steps", "time"},
      {"ring", "recursive_doubling", "rabenseifner", "binary_tree", "best"},
      {"hierarchical", "flat", "speedup", "speedup_doubled"},  // + the lecture's "16 GPUs a node?"
      {"bytes_per_gpu", "time"},
      {"microbatches", "token_interval"},
      {"threshold", "tokens_per_device", "hidden", "short_hidden"},  // + "and an 8K prompt?"
      {"kv_bytes", "one_nic", "eight_nics", "layerwise"}};
  for (int id = 1; id <= 8; ++id) {
    const json doc = eval({{"op", "exercise.get"}, {"id", id}});
    std::vector<std::string> got;
    for (const json& a : doc.at("answers")) got.push_back(a.at("id"));
    EXPECT_EQ(got, ids[id - 1]) << "exercise " << id;
  }
}

TEST(Exercises, DefaultsGiveTheLectureAnswers) {
  for (const auto& [id, answers] : lecture_answers()) {
    const json out = check(id, answers);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    for (auto it = answers.begin(); it != answers.end(); ++it)
      EXPECT_EQ(out.at("verdicts").at(it.key()).at("verdict"), "correct")
          << "exercise " << id << " " << it.key() << " = " << it.value() << ": "
          << solve(id).at("display").dump();
    EXPECT_TRUE(out.at("all_correct")) << "exercise " << id;
  }
}

TEST(Exercises, DefaultsExactFigures) {
  const json s1 = solve(1);
  EXPECT_NEAR(s1.at("answers").at("n_half").get<double>(), 720e3, 1e-6);
  EXPECT_NEAR(s1.at("answers").at("time").get<double>(), 2.1778e-6, 1e-10);
  EXPECT_EQ(s1.at("display").at("n_half"), "720 KB");
  EXPECT_EQ(s1.at("display").at("time"), "2.178 us");
  const json s2 = solve(2);
  EXPECT_EQ(s2.at("answers").at("steps"), 6);
  EXPECT_EQ(s2.at("display").at("time"), "428.7 us");
  EXPECT_EQ(s2.at("display").at("bytes_sent"), "150 MB");
  const json s3 = solve(3);
  EXPECT_EQ(s3.at("answers").at("best"), "recursive_doubling");
  EXPECT_EQ(s3.at("display").at("recursive_doubling"), "45.6 us");
  EXPECT_EQ(s3.at("display").at("binary_tree"), "91.2 us");
  const json s4 = solve(4);
  EXPECT_NEAR(s4.at("answers").at("speedup").get<double>(), 5.0, 0.25);  // "about 5x"
  EXPECT_GT(s4.at("values").at("speedup_doubled").get<double>(), 6.0);   // "6-7x" with 16 a node
  EXPECT_LT(s4.at("values").at("speedup_doubled").get<double>(), 7.0);
  const json s7 = solve(7);
  EXPECT_EQ(s7.at("answers").at("tokens_per_device"), 16384);
  EXPECT_EQ(s7.at("answers").at("hidden"), "yes");
  EXPECT_EQ(solve(6).at("answers").at("microbatches"), 8);
}

TEST(Exercises, SolveFillsTheWorkedSolution) {
  for (int id = 1; id <= 8; ++id) {
    const json out = solve(id);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    for (const char* f : {"id", "params", "answers", "display", "values", "solution", "statement"})
      EXPECT_TRUE(out.contains(f)) << id << " " << f;
    expect_filled(out.at("solution"), "solution of " + std::to_string(id));
    expect_filled(out.at("statement"), "statement of " + std::to_string(id));
    // Every answer's display appears in the worked solution.
    for (auto it = out.at("display").begin(); it != out.at("display").end(); ++it) {
      if (out.at("answers").at(it.key()).is_string()) continue;
      EXPECT_NE(out.at("solution").at("en").get<std::string>().find(it.value().get<std::string>()),
                std::string::npos)
          << "exercise " << id << " answer " << it.key();
    }
  }
  const std::string en = solve(1).at("solution").at("en");
  EXPECT_NE(en.find("720 KB"), std::string::npos) << en;
  EXPECT_NE(en.find("2 us"), std::string::npos) << en;
  EXPECT_NE(en.find("360 GB/s"), std::string::npos) << en;
}

TEST(Exercises, CheckAcceptsOtherUnitsAndRoundings) {
  for (const char* ok : {"429 us", "428.7 us", "0.4287 ms", "0.429 ms", "0.43 ms", "428.67 \xC2\xB5s",
                         "4.287e-4 s", "429", "about 429 us"})
    EXPECT_EQ(verdict(2, "time", ok), "correct") << ok;
  for (const char* ok : {"150 MB", "150000 KB", "0.15 GB", "1.5e8 B", "150"})
    EXPECT_EQ(verdict(2, "bytes_sent", ok), "correct") << ok;
  for (const char* ok : {"8%", "8.2%", "8.16 %", "8.163"})
    EXPECT_EQ(verdict(1, "fraction", ok), "correct") << ok;
  EXPECT_EQ(verdict(1, "time", "2.2 us"), "correct");     // 2.178 rounds to 2.2
  EXPECT_EQ(verdict(2, "time", json(428.7)), "correct");  // a JSON number: the display unit
  EXPECT_EQ(verdict(2, "steps", json(6)), "correct");
  EXPECT_EQ(verdict(7, "tokens_per_device", "16K tokens"), "correct");
  EXPECT_EQ(verdict(3, "best", "Recursive Doubling"), "correct");
  EXPECT_EQ(verdict(3, "best", "recursive-doubling"), "correct");
  EXPECT_EQ(verdict(3, "best", "\xE9\x80\x92\xE5\xBD\x92\xE5\x8A\xA0\xE5\x80\x8D"), "correct");  // 递归加倍
  EXPECT_EQ(verdict(7, "hidden", "YES"), "correct");
  EXPECT_EQ(verdict(7, "hidden", "\xE6\x98\xAF"), "correct");  // 是
  EXPECT_EQ(verdict(7, "hidden", json(true)), "correct");
  EXPECT_EQ(verdict(6, "token_interval", "8.77 ms"), "correct");  // the lecture's simulator
}

TEST(Exercises, CheckRejectsWrongAnswers) {
  for (const char* bad : {"450 us", "858 us", "214 us", "0.4 ms", "400 us", "429 ms", "-429 us"})
    EXPECT_EQ(verdict(2, "time", bad), "incorrect") << bad;
  EXPECT_EQ(verdict(2, "steps", "3"), "incorrect");
  EXPECT_EQ(verdict(2, "bytes_sent", "200 MB"), "incorrect");
  EXPECT_EQ(verdict(2, "bytes_sent", "75 MB"), "incorrect");
  EXPECT_EQ(verdict(1, "fraction", "9%"), "incorrect");
  EXPECT_EQ(verdict(1, "fraction", "0.08"), "incorrect");  // a bare number is read in %
  EXPECT_EQ(verdict(3, "best", "ring"), "incorrect");
  EXPECT_EQ(verdict(7, "hidden", "no"), "incorrect");
  EXPECT_EQ(verdict(8, "layerwise", "0.5 ms"), "incorrect");
}

TEST(Exercises, IncorrectMessagesHelpWithoutGivingTheAnswerAway) {
  // Messages quote what the student typed (exercises/README.md "Judging typed answers"), so the typed values
  // here hold none of the secrets: "0.43 s" is the unit slip.
  const json out = check(2, {{"time", "0.43 s"}, {"bytes_sent", "180 MB"}, {"steps", "5"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_NE(out.at("verdicts").at("time").at("message").at("en").get<std::string>().find("unit"),
            std::string::npos);
  EXPECT_NE(out.at("verdicts").at("bytes_sent").at("message").at("en").get<std::string>().find("high"),
            std::string::npos);
  for (auto it = out.at("verdicts").begin(); it != out.at("verdicts").end(); ++it)
    for (const char* lang : {"en", "zh"}) {
      const std::string m = it.value().at("message").at(lang);
      for (const char* secret : {"428", "429", "150", "6 "})
        EXPECT_EQ(m.find(secret), std::string::npos) << m;
    }
  const json close = check(2, {{"time", "0.4 ms"}});
  EXPECT_NE(close.at("verdicts").at("time").at("message").at("en").get<std::string>().find("significant"),
            std::string::npos);
}

TEST(Exercises, JunkIsAFormatError) {
  const json out = check(2, {{"time", "about four hundred"}, {"bytes_sent", "150 us"}, {"steps", ""}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  for (const char* id : {"time", "bytes_sent", "steps"})
    EXPECT_EQ(out.at("verdicts").at(id).at("verdict"), "format-error") << id;
  const std::string msg = out.at("verdicts").at("time").at("message").at("en");
  EXPECT_NE(msg.find("a number in \xC2\xB5s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ms"), std::string::npos) << msg;
  EXPECT_FALSE(out.at("verdicts").at("time").at("message").at("zh").get<std::string>().empty());
  EXPECT_EQ(verdict(3, "best", "the fastest one"), "format-error");
  EXPECT_EQ(verdict(7, "hidden", "maybe"), "format-error");
  const json junk = check(7, {{"threshold", "lots"}, {"tokens_per_device", "many"}});
  for (const char* id : {"threshold", "tokens_per_device"}) {
    EXPECT_EQ(junk.at("verdicts").at(id).at("verdict"), "format-error");
    const std::string m = junk.at("verdicts").at(id).at("message").at("en");
    for (const char* secret : {"2,163", "2163", "16K", "16,384"})
      EXPECT_EQ(m.find(secret), std::string::npos) << m;
  }
  EXPECT_FALSE(out.at("all_correct"));
}

TEST(Exercises, AnswersNotGivenAreAbsent) {
  const json out = check(2, {{"time", "429 us"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("verdicts").size(), 1u);
  EXPECT_FALSE(out.at("all_correct"));  // all_correct needs every answer
  const json none = check(2, json::object());
  EXPECT_TRUE(none.at("verdicts").empty());
  EXPECT_FALSE(none.at("all_correct"));
}

TEST(Exercises, ParamsChangeTheAnswers) {
  const json out = solve(2, {{"devices", 8}, {"bytes", "1 GB"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("params").at("devices"), 8);
  EXPECT_DOUBLE_EQ(out.at("params").at("bytes").get<double>(), 1e9);
  EXPECT_DOUBLE_EQ(out.at("answers").at("bytes_sent").get<double>(), 1.75e9);
  EXPECT_EQ(out.at("answers").at("steps"), 14);
  // The check follows the same params.
  EXPECT_TRUE(check(2, {{"steps", "14"}, {"bytes_sent", "1750 MB"}, {"time", out.at("display").at("time")}},
                    {{"devices", 8}, {"bytes", 1e9}})
                  .at("all_correct"));
  const json s4 = solve(4, {{"gpus_per_node", 16}});
  EXPECT_GT(s4.at("answers").at("speedup").get<double>(), 6.0);  // P5 §11 ex. 4: "6-7x"
  EXPECT_LT(s4.at("answers").at("speedup").get<double>(), 7.0);
  // A parameter given in display form reads like the base value.
  EXPECT_EQ(solve(1, {{"alpha_s", "2 us"}}).at("answers"), solve(1).at("answers"));
}

TEST(Exercises, BadParamsAreClearErrors) {
  auto error_of = [](const json& out) {
    EXPECT_TRUE(out.contains("error")) << out.dump();
    return out.contains("error") ? out.at("error") : json::object();
  };
  json e = error_of(solve(2, {{"devices", 3.5}}));
  EXPECT_EQ(e.at("code"), "not_integer");
  std::string m = e.at("message");
  EXPECT_NE(m.find("params.devices"), std::string::npos) << m;
  EXPECT_NE(m.find("3.5"), std::string::npos) << m;
  EXPECT_NE(m.find("integer from 2 to 1024"), std::string::npos) << m;

  e = error_of(solve(2, {{"devices", 0}}));
  EXPECT_EQ(e.at("code"), "out_of_range");

  e = error_of(solve(2, {{"device", 4}}));
  EXPECT_EQ(e.at("code"), "unknown_field");
  m = e.at("message");
  EXPECT_NE(m.find("params.device"), std::string::npos) << m;
  EXPECT_NE(m.find("devices"), std::string::npos) << m;

  e = error_of(solve(4, {{"intra_link", "warp"}}));
  EXPECT_EQ(e.at("code"), "unknown_value");
  EXPECT_NE(e.at("message").get<std::string>().find("nvlink4"), std::string::npos);

  e = error_of(solve(1, {{"alpha_s", "2 parsecs"}}));
  EXPECT_EQ(e.at("code"), "invalid_type");
  e = error_of(solve(1, {{"bytes", -5}}));
  EXPECT_EQ(e.at("code"), "out_of_range");
  e = error_of(solve(1, {{"bytes", nullptr}}));
  EXPECT_EQ(e.at("code"), "invalid_type");
  e = error_of(eval({{"op", "exercise.solve"}, {"id", 1}, {"params", json::array()}}));
  EXPECT_EQ(e.at("code"), "invalid_type");

  e = error_of(eval({{"op", "exercise.solve"}, {"id", 9}}));
  EXPECT_NE(e.at("message").get<std::string>().find("1, 2, 3, 4, 5, 6, 7, 8"), std::string::npos);
  e = error_of(eval({{"op", "exercise.get"}, {"id", "one"}}));
  EXPECT_EQ(e.at("code"), "invalid_type");
  e = error_of(eval({{"op", "exercise.get"}}));
  EXPECT_EQ(e.at("code"), "missing_field");
  e = error_of(eval({{"op", "exercise.solve"}, {"id", 1}, {"extra", 1}}));
  EXPECT_EQ(e.at("code"), "unknown_field");
  e = error_of(check(2, {{"latency", "1 us"}}));
  EXPECT_EQ(e.at("code"), "unknown_field");
  EXPECT_NE(e.at("message").get<std::string>().find("answers.latency"), std::string::npos);
  e = error_of(eval({{"op", "exercise.check"}, {"id", 2}}));
  EXPECT_EQ(e.at("code"), "missing_field");
  // An answer that is neither text nor a number is a format error, not a failed request.
  EXPECT_EQ(verdict(2, "time", json::array()), "format-error");
}

TEST(Exercises, BadSeedsAreErrors) {
  for (const json& seed : {json(-1), json(1.5), json("x"), json(1e300), json(nullptr)}) {
    const json out = eval({{"op", "exercise.variant"}, {"id", 1}, {"seed", seed}});
    ASSERT_TRUE(out.contains("error")) << seed.dump();
    EXPECT_NE(out.at("error").at("message").get<std::string>().find("seed"), std::string::npos);
  }
}

TEST(Exercises, VariantsAreValidSolvableAndDeterministic) {
  for (int id = 1; id <= 8; ++id) {
    const json doc = eval({{"op", "exercise.get"}, {"id", id}});
    const json defaults = solve(id).at("params");
    std::set<std::string> distinct;
    for (int seed = 0; seed < 120; ++seed) {
      const json v = eval({{"op", "exercise.variant"}, {"id", id}, {"seed", seed}});
      ASSERT_FALSE(v.contains("error")) << v.dump();
      EXPECT_EQ(v.at("id"), id);
      const json& params = v.at("params");
      EXPECT_EQ(eval({{"op", "exercise.variant"}, {"id", id}, {"seed", seed}}).at("params"), params);
      distinct.insert(params.dump());
      for (const json& p : doc.at("params")) {
        const json& x = params.at(p.at("id").get<std::string>());
        if (p.at("kind") == "choice") {
          EXPECT_NE(std::find(p.at("choices").begin(), p.at("choices").end(), x), p.at("choices").end());
        } else {
          EXPECT_GE(x.get<double>(), p.at("min").get<double>());
          EXPECT_LE(x.get<double>(), p.at("max").get<double>());
        }
      }
      const json s = solve(id, params);
      ASSERT_FALSE(s.contains("error")) << "exercise " << id << " seed " << seed << ": " << s.dump();
      expect_filled(s.at("solution"), "variant solution");
      const json c = check(id, s.at("display"), params);
      ASSERT_FALSE(c.contains("error")) << c.dump();
      EXPECT_TRUE(c.at("all_correct")) << "exercise " << id << " seed " << seed << ": " << c.dump()
                                       << " display " << s.at("display").dump();
      if (id == 7) {  // never so close to the threshold that rounding decides "hidden"
        const double n = s.at("answers").at("tokens_per_device"), t = s.at("answers").at("threshold");
        EXPECT_GE(std::fabs(n - t), 0.1 * std::max(n, t)) << n << " vs " << t;
      }
      if (id == 3) {  // recursive doubling as the lecture writes it: powers of two
        const int k = params.at("devices");
        EXPECT_EQ(k & (k - 1), 0) << k;
      }
    }
    EXPECT_GT(distinct.size(), 10u) << "exercise " << id;
    EXPECT_EQ(distinct.count(defaults.dump()), 0u)
        << "exercise " << id << ": a variant repeated the lecture's";
  }
}

TEST(Exercises, VariantGoldenSeed) {
  // The PRNG is splitmix64 on integers only: these must hold natively and in wasm alike.
  const json a = eval({{"op", "exercise.variant"}, {"id", 3}, {"seed", 42}});
  EXPECT_EQ(a.at("params"),
            json({{"alpha_s", 2e-5}, {"beta_Bps", 2.5e9}, {"bytes", 512e3}, {"devices", 16}}));
  const json b = eval({{"op", "exercise.variant"}, {"id", 4}, {"seed", 7}});
  EXPECT_EQ(b.at("params"), json({{"bytes", 5e8},
                                  {"gpus_per_node", 8},
                                  {"inter_link", "ib_ndr"},
                                  {"intra_link", "pcie5"},
                                  {"nodes", 8}}));
  const json big = eval({{"op", "exercise.variant"}, {"id", 2}, {"seed", 9007199254740991.0}});
  EXPECT_FALSE(big.contains("error")) << big.dump();
}
