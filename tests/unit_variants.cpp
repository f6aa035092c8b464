// Variants stay true (exercises/README.md "Variants"): over 200 seeds an exercise, each variant's own answers,
// typed as the page shows them, are correct; its statement names only hardware and models whose
// figures it uses; the premise of each exercise holds; and the variants are many.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "api/api.hpp"
#include "model/links.hpp"

using nlohmann::json;

namespace {

json eval(const json& request) { return commlab::evaluate(request); }

// The page shows "us" as "µs" and a choice by its label.
std::string as_shown(std::string text) {
  for (size_t at = text.find(" us"); at != std::string::npos; at = text.find(" us", at + 1))
    if (at + 3 == text.size()) text.replace(at, 3, " \xC2\xB5s");
  return text;
}

bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fabs(b); }

// Does `params` hold the figures of catalogue link `spec` (a choice of it, or its alpha and beta)?
bool uses_link(const json& params, const commlab::LinkSpec& spec) {
  for (auto it = params.begin(); it != params.end(); ++it)
    if (it.value().is_string() && it.value() == spec.id) return true;
  const commlab::Link e = commlab::effective_link(spec);
  return params.contains("alpha_s") && params.contains("beta_Bps") && same(params.at("alpha_s"), e.alpha_s) &&
         same(params.at("beta_Bps"), e.beta_Bps);
}

constexpr int kSeeds = 200;

}  // namespace

TEST(Variants, StayTrueOver200Seeds) {
  for (int id = 1; id <= 8; ++id) {
    const json doc = eval({{"op", "exercise.get"}, {"id", id}});
    std::set<std::string> distinct;
    for (int seed = 0; seed < kSeeds; ++seed) {
      const json params = eval({{"op", "exercise.variant"}, {"id", id}, {"seed", seed}}).at("params");
      distinct.insert(params.dump());
      const json s = eval({{"op", "exercise.solve"}, {"id", id}, {"params", params}});
      ASSERT_FALSE(s.contains("error")) << s.dump();
      const std::string where = "exercise " + std::to_string(id) + " seed " + std::to_string(seed);

      // The variant's own answers, as the page displays them, in both languages for choices.
      for (const char* lang : {"en", "zh"}) {
        json typed = json::object();
        for (const json& a : doc.at("answers")) {
          const std::string aid = a.at("id");
          const std::string shown = s.at("display").at(aid);
          typed[aid] = a.contains("choice_labels") ? a.at("choice_labels").at(shown).at(lang).get<std::string>()
                                                    : as_shown(shown);
        }
        const json c = eval({{"op", "exercise.check"}, {"id", id}, {"params", params}, {"answers", typed}});
        EXPECT_TRUE(c.at("all_correct")) << where << " (" << lang << "): " << c.dump() << " typed " << typed.dump();
      }

      // The statement names a catalogue link only when the params hold its figures.
      for (const commlab::LinkSpec& spec : commlab::link_catalogue()) {
        for (const char* lang : {"en", "zh"}) {
          const std::string text = s.at("statement").at(lang);
          if (text.find(spec.label) != std::string::npos) {
            EXPECT_TRUE(uses_link(params, spec)) << where << " names " << spec.label << ": " << text;
          }
        }
      }
      // Models: exercise 5 names one only for its shape (its layers and hidden size).
      if (id == 5) {
        const std::string en = s.at("statement").at("en");
        if (en.find("Llama-3-70B") != std::string::npos) {
          EXPECT_TRUE(params.at("layers") == 80 && params.at("hidden") == 8192) << where << ": " << en;
        }
        if (en.find("BF16") != std::string::npos) {
          EXPECT_EQ(params.at("bytes_per_value"), 2) << where << ": " << en;
        }
        if (en.find("FP8") != std::string::npos) {
          EXPECT_EQ(params.at("bytes_per_value"), 1) << where << ": " << en;
        }
      }
      if (id == 4) {  // what hierarchy buys: it must buy something, and more with more GPUs a node
        EXPECT_GT(s.at("answers").at("speedup").get<double>(), 1) << where;
        EXPECT_GT(s.at("answers").at("speedup_doubled").get<double>(), s.at("answers").at("speedup").get<double>())
            << where;
      }
      if (id == 6) {  // p micro-batches and the exact fill count both pass; one more than the fill does not
        const int p = params.at("stages");
        const int fill = s.at("values").at("microbatches_to_fill");
        EXPECT_LT(params.at("transfer_time_s").get<double>(), params.at("stage_time_s").get<double>()) << where;
        for (int n : {p, fill}) {
          const json c = eval({{"op", "exercise.check"}, {"id", 6}, {"params", params},
                               {"answers", {{"microbatches", std::to_string(n)}}}});
          EXPECT_EQ(c.at("verdicts").at("microbatches").at("verdict"), "correct") << where << " typed " << n;
        }
        const json over = eval({{"op", "exercise.check"}, {"id", 6}, {"params", params},
                                {"answers", {{"microbatches", std::to_string(fill + 1)}}}});
        EXPECT_EQ(over.at("verdicts").at("microbatches").at("verdict"), "incorrect") << where;
      }
    }
    EXPECT_GE(distinct.size(), 100u) << "exercise " << id << ": " << distinct.size() << " distinct variants in "
                                     << kSeeds << " seeds";
  }
}
