// Prose chosen by numbers: over 200 variants of every exercise, each concluding
// sentence of the worked solution agrees with the figures it follows from. The truth is worked
// out here from the params (with the engine's cost functions) or from the answers and values the
// sentence follows, never from which case the document picked; both languages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "api/api.hpp"
#include "model/collectives.hpp"
#include "model/links.hpp"

using nlohmann::json;

namespace {

constexpr int kSeeds = 200;

json eval(const json& request) { return commlab::evaluate(request); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Scans rather than std::regex: over every variant's texts, libstdc++'s regex under the
// sanitizers took two thirds of the whole test's time.
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
size_t skip_digits(const std::string& t, size_t i) {
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// A speed-up below 1 called faster: \b0\.\d+ ?(x|×) faster
bool calls_slower_faster(const std::string& t) {
  for (size_t at = t.find("0."); at != std::string::npos; at = t.find("0.", at + 1)) {
    if (at > 0 && is_word(t[at - 1])) continue;
    size_t i = skip_digits(t, at + 2);
    if (i == at + 2) continue;
    if (i < t.size() && t[i] == ' ') ++i;
    if (t.compare(i, 1, "x") == 0) i += 1;
    else if (t.compare(i, 2, "×") == 0) i += 2;
    else continue;
    if (t.compare(i, 7, " faster") == 0) return true;
  }
  return false;
}

// "a 8 MB", "an" wanted: \b[Aa] (8|11|18|80)\d*\b
bool bad_article(const std::string& t) {
  for (size_t at = 0; at + 2 < t.size(); ++at) {
    if ((t[at] != 'a' && t[at] != 'A') || t[at + 1] != ' ' || (at > 0 && is_word(t[at - 1]))) continue;
    const size_t n = at + 2;
    if (!(t.compare(n, 1, "8") == 0 || t.compare(n, 2, "11") == 0 || t.compare(n, 2, "18") == 0)) continue;
    const size_t end = skip_digits(t, n);
    if (end == t.size() || !is_word(t[end])) return true;
  }
  return false;
}

// The text without its $...$ math: braces there are TeX groups, not placeholders.
std::string prose_only(std::string text) {
  for (size_t open = text.find('$'); open != std::string::npos; open = text.find('$', open + 1)) {
    const size_t close = text.find('$', open + 1);
    if (close == std::string::npos) break;
    text.replace(open, close - open + 1, " ");
  }
  return text;
}

struct Variant {
  int id;
  int seed;
  json params, solved, defaults;
  std::string en() const { return solved.at("solution").at("en"); }
  std::string zh() const { return solved.at("solution").at("zh"); }
  std::string where() const { return "exercise " + std::to_string(id) + " seed " + std::to_string(seed) + " " + params.dump(); }
  double param(const char* k) const { return params.at(k).get<double>(); }
  double answer(const char* k) const { return solved.at("answers").at(k).get<double>(); }
  double value(const char* k) const { return solved.at("values").at(k).get<double>(); }
};

// Each variant of exercise `id` (and the lecture's own params as seed -1).
template <class F>
void for_each_variant(int id, F check) {
  const json doc = eval({{"op", "exercise.get"}, {"id", id}});
  json defaults = json::object();
  for (const json& p : doc.at("params")) defaults[p.at("id").get<std::string>()] = p.at("default");
  defaults = eval({{"op", "exercise.solve"}, {"id", id}, {"params", defaults}}).at("params");
  for (int seed = -1; seed < kSeeds; ++seed) {
    const json params =
        seed < 0 ? defaults : eval({{"op", "exercise.variant"}, {"id", id}, {"seed", seed}}).at("params");
    const json solved = eval({{"op", "exercise.solve"}, {"id", id}, {"params", params}});
    ASSERT_FALSE(solved.contains("error")) << solved.dump();
    check(Variant{id, seed, params, solved, defaults});
  }
}

// Says exactly one of the sentences (en, zh pairs) and which: `truth` is the index it must be.
void says_case(const Variant& v, const std::vector<std::pair<std::string, std::string>>& markers, size_t truth,
               const std::string& what) {
  for (size_t i = 0; i < markers.size(); ++i) {
    EXPECT_EQ(has(v.en(), markers[i].first), i == truth)
        << v.where() << ": " << what << " (en) should say case " << truth << ", marker '" << markers[i].first
        << "':\n" << v.en();
    EXPECT_EQ(has(v.zh(), markers[i].second), i == truth)
        << v.where() << ": " << what << " (zh) should say case " << truth << ", marker '" << markers[i].second
        << "':\n" << v.zh();
  }
}

}  // namespace

// Everything every exercise's texts must do: no unfilled placeholders, no grading jargon, no
// speed-up below 1 called "faster", "a 8 MB" never, every named link with its alpha and beta.
TEST(Conclusions, TheTextScansFindWhatTheyLookFor) {
  for (const char* bad : {"is 0.5x faster", "(0.93 × faster)", "0.1x faster.", "A 8 MB message", "a 11-step ring", "a 18 GB copy", "a 80 GB card", "a 8"})
    EXPECT_TRUE(calls_slower_faster(bad) || bad_article(bad)) << bad;
  for (const char* good : {"is 1.5x faster", "10.5x faster", "0.5x slower", "an 8 MB message", "a 1 MB message", "a 8x", "data 8 MB", "a 81b"})
    EXPECT_FALSE(calls_slower_faster(good) || bad_article(good)) << good;
}

// One test per exercise: the variants of all eight take long enough under the sanitizers that
// one test would hold one ctest shard alone (tests/CMakeLists.txt).
class ConclusionTexts : public ::testing::TestWithParam<int> {};

TEST_P(ConclusionTexts, OfEveryVariantAreClean) {
  const int id = GetParam();
  const json doc = eval({{"op", "exercise.get"}, {"id", id}});
  int link_params = 0;
  for (const json& p : doc.at("params"))
    if ((p.at("kind") == "choice" && commlab::find_link(p.at("default").get<std::string>())) || p.at("id") == "alpha_s")
      ++link_params;  // a link by name, or a link by its alpha and beta
  for_each_variant(id, [&](const Variant& v) {
    for (const char* part : {"statement", "solution"})
      for (const char* lang : {"en", "zh"}) {
        const std::string text = v.solved.at(part).at(lang);
        const std::string prose = prose_only(text);
        EXPECT_FALSE(has(prose, "{")) << v.where() << " " << part << "." << lang << ": " << text;
        EXPECT_FALSE(has(text, "(about:") || has(text, "within 10%") || has(text, "约数"))
            << v.where() << " " << part << "." << lang << ": grading jargon: " << text;
        EXPECT_FALSE(calls_slower_faster(text)) << v.where() << ": " << text;
        EXPECT_FALSE(bad_article(text)) << v.where() << ": " << text;
      }
    // A statement naming a link gives its alpha and its (effective) beta.
    for (const char* lang : {"en", "zh"}) {
      const std::string st = v.solved.at("statement").at(lang);
      size_t alphas = 0, betas = 0;
      for (size_t at = st.find("α = "); at != std::string::npos; at = st.find("α = ", at + 1)) ++alphas;
      for (size_t at = st.find("β = "); at != std::string::npos; at = st.find("β = ", at + 1)) ++betas;
      EXPECT_GE(alphas, static_cast<size_t>(link_params)) << v.where() << ": " << st;
      EXPECT_GE(betas, static_cast<size_t>(link_params)) << v.where() << ": " << st;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Exercises, ConclusionTexts, ::testing::Range(1, 9));

TEST(Conclusions, Exercise1And2SayWhatBindsThisMessage) {
  for_each_variant(1, [](const Variant& v) {
    says_case(v, {{"This message is smaller than n₁/₂", "这条消息比 n₁/₂ 小"}, {"This message is at least n₁/₂", "这条消息不小于 n₁/₂"}},
              v.param("bytes") < v.param("alpha_s") * v.param("beta_Bps") ? 0 : 1, "latency- or bandwidth-bound");
  });
  for_each_variant(2, [](const Variant& v) {
    const int k = v.param("devices");
    const double alpha = 2.0 * (k - 1) * v.param("alpha_s"), beta = 2.0 * (k - 1) / k * v.param("bytes") / v.param("beta_Bps");
    says_case(v, {{"the α part is the larger", "α 那部分更大"}, {"the bytes part is the larger", "字节那部分更大"}},
              alpha > beta ? 0 : 1, "larger part");
  });
}

TEST(Conclusions, Exercise3SaysWhyTheWinnerWins) {
  using commlab::AllreduceAlgorithm;
  for_each_variant(3, [](const Variant& v) {
    const commlab::Link link{v.param("alpha_s"), v.param("beta_Bps"), "custom"};
    const std::vector<std::pair<std::string, AllreduceAlgorithm>> algos = {
        {"ring", AllreduceAlgorithm::ring},
        {"recursive_doubling", AllreduceAlgorithm::recursive_doubling},
        {"rabenseifner", AllreduceAlgorithm::rabenseifner},
        {"binary_tree", AllreduceAlgorithm::binary_tree}};
    size_t best = 0;
    std::vector<double> a, b, t;
    for (size_t i = 0; i < algos.size(); ++i) {
      const commlab::CollectiveCost c = commlab::allreduce_cost(algos[i].second, v.param("devices"), v.param("bytes"), link);
      t.push_back(c.time_s);
      a.push_back(c.alpha_time_s);
      b.push_back(c.time_s - c.alpha_time_s);
      if (c.time_s < t[best]) best = i;
    }
    ASSERT_EQ(v.solved.at("answers").at("best"), algos[best].first) << v.where();
    const double min_a = *std::min_element(a.begin(), a.end()), min_b = *std::min_element(b.begin(), b.end());
    const bool extra_bytes = b[best] > 1.001 * min_b, extra_alpha = a[best] > 1.001 * min_a;
    const size_t truth = extra_bytes && !extra_alpha ? 0 : extra_alpha && !extra_bytes ? 1 : !extra_alpha ? 2 : 3;
    says_case(v,
              {{"the number of α's decides", "α 的次数说了算"},
               {"the bytes each GPU sends decide", "每块卡传的字节说了算"},
               {"both the fewest", "都是最少的"},
               {"best sum", "两者之和最小"}},
              truth, "why the winner wins");
    // The lecture's name (§11 ex. 3: "binary tree", 二叉树), with what the tree does (reduce to a
    // root, broadcast back; the engine builds it as a binomial tree, one message a step).
    EXPECT_TRUE(has(v.solved.at("statement").at("en"), "binary tree (reduce to one root")) << v.where();
    EXPECT_TRUE(has(v.zh(), "二叉树")) << v.where();
    EXPECT_FALSE(has(v.en(), "inomial")) << v.where();
  });
}

TEST(Conclusions, Exercise4SaysWhichStepDominates) {
  for_each_variant(4, [](const Variant& v) {
    const commlab::Link intra = commlab::catalogue_link(v.params.at("intra_link").get<std::string>(), "intra_link");
    const commlab::Link inter = commlab::catalogue_link(v.params.at("inter_link").get<std::string>(), "inter_link");
    const int n = v.param("nodes"), g = v.param("gpus_per_node");
    const commlab::HierarchicalCost h2 = commlab::hierarchical_allreduce_cost(n, 2 * g, v.param("bytes"), intra, inter);
    const double intra2 = h2.intra_reduce_scatter.time_s + h2.intra_allgather.time_s;
    says_case(v,
              {{"now take longer than the cross-node step", "现在比跨节点那一步"},
               {"still takes longer than the two intra-node steps", "仍比节点内那两步"}},
              intra2 > h2.inter_allreduce.time_s ? 0 : 1, "which step dominates with twice the GPUs");
    says_case(v, {{"grows to", "升到"}, {"drops to", "降到"}},
              v.answer("speedup_doubled") > v.answer("speedup") ? 0 : 1, "trend");
    says_case(v, {{"slowest link on the ring", "环上最慢的链路"}, {"premise of §5.5 does not hold", "前提不成立"}},
              inter.beta_Bps < intra.beta_Bps ? 0 : 1, "the flat ring's link");
    const double main_term = 1.0 / (1.0 / g + inter.beta_Bps / intra.beta_Bps);
    says_case(v, {{"add the rest", "补上其余部分"}, {"bring it down", "拉低到"}},
              v.answer("speedup") >= main_term ? 0 : 1, "beyond the main terms");
    says_case(v, {{"slower than the flat ring", "反而比扁平的环慢"}}, v.answer("speedup") < 1 ? 0 : 1, "a slowdown");
    // The lecture's "6-7x" only beside the lecture's own case.
    const bool lecture = v.params == v.defaults;
    EXPECT_EQ(has(v.en(), "6-7x"), lecture) << v.where() << ": " << v.en();
    EXPECT_EQ(has(v.zh(), "6–7 倍"), lecture) << v.where() << ": " << v.zh();
  });
}

TEST(Conclusions, Exercise5WeighsTheCommunicationAgainstThePrefill) {
  for_each_variant(5, [](const Variant& v) {
    const double share = v.answer("time") / v.value("compute_time_s");
    says_case(v,
              {{"takes longer than that computation", "通信比计算还长"},
               {"a large share", "占了不小的比例"},
               {"a small share", "比例很小"}},
              share >= 1 ? 0 : share >= 0.1 ? 1 : 2, "share of the prefill");
    // The page draws the statement's model: values carry its layers and hidden size.
    EXPECT_EQ(v.value("layers"), v.param("layers")) << v.where();
    EXPECT_EQ(v.value("hidden"), v.param("hidden")) << v.where();
  });
  // Bytes per value: 1, 2 or 4, never 3.
  const json three = eval({{"op", "exercise.solve"}, {"id", 5}, {"params", {{"bytes_per_value", 3}}}});
  ASSERT_TRUE(three.contains("error")) << three.dump();
  EXPECT_TRUE(has(three.at("error").at("message"), "one of 1, 2, 4")) << three.dump();
}

TEST(Conclusions, Exercise6SaysWhatTheTransfersDo) {
  for_each_variant(6, [](const Variant& v) {
    const double p = v.param("stages"), s = v.param("stage_time_s"), t = v.param("transfer_time_s");
    says_case(v, {{"The transfers make a token's trip", "段间传输让"}, {"With no transfer", "没有段间传输"}},
              t > 0 ? 0 : 1, "what the transfers do");
    says_case(v, {{"a little more than the trip", "比路程略长"}, {"the trip itself", "正是这段路程"}},
              v.value("simulated_token_interval_s") > v.answer("token_interval") ? 0 : 1, "the simulator");
    // p micro-batches keep the GPUs at least about 90% busy (the lecture's example: 92%).
    if (v.seed >= 0) {
      EXPECT_GE(p * s / (p * s + (p - 1) * t), 0.9) << v.where();
    }
  });
}

TEST(Conclusions, Exercise7SaysHiddenOnlyWhenItIs) {
  for_each_variant(7, [](const Variant& v) {
    const double threshold = v.answer("threshold");
    const double per_device = v.param("prompt_tokens") / v.param("devices");
    const bool hidden = per_device >= threshold;
    ASSERT_EQ(v.solved.at("answers").at("hidden"), hidden ? "yes" : "no") << v.where();
    const bool covers = v.value("step_compute_s") >= v.value("step_transfer_s");
    says_case(v,
              {{"the computation covers the transfer", "计算盖得住传输"},
               {"α still shows", "α 还露在外面"},
               {"the transfer sticks out", "传输露在外面"}},
              hidden && covers ? 0 : hidden ? 1 : 2, "is the transfer hidden");
    const bool short_hidden = v.param("short_prompt_tokens") / v.param("devices") >= threshold;
    says_case(v, {{"too small to hide the transfer", "块太小，藏不住传输"}, {"large enough to hide", "大得足以藏住"}},
              short_hidden ? 1 : 0, "the shorter prompt");
    // What the answer needs is in the statement: the FLOP rate and the head size.
    for (const char* lang : {"en", "zh"}) {
      const std::string st = v.solved.at("statement").at(lang);
      EXPECT_TRUE(has(st, "692.3 TFLOP/s") && has(st, "989 TFLOP/s") && has(st, "70%") && has(st, "128")) << st;
    }
  });
}

TEST(Conclusions, Exercise8HidesLayerByLayerOnlyWhenItDoesAndAcceptsTheLecturesArithmetic) {
  for_each_variant(8, [](const Variant& v) {
    const bool hides = v.value("layer_transfer_s") <= v.value("layer_compute_s");
    says_case(v, {{"hides behind the next layer's computation", "藏在下一层的计算后面"}, {"queue up", "排队"}},
              hides ? 0 : 1, "layer by layer");
    EXPECT_LE(v.param("nics"), 8) << v.where() << ": more NICs than the 8 GPUs";
    // Without alpha (the lecture's 134.2 MB / (8 x 40 GB/s)): correct too, to four figures.
    const commlab::Link nic = commlab::catalogue_link(v.params.at("link").get<std::string>(), "link");
    const double layer_no_alpha = v.answer("kv_bytes") / v.value("layers") / v.param("nics") / nic.beta_Bps;
    const double all_no_alpha = v.answer("kv_bytes") / v.param("nics") / nic.beta_Bps;
    char layer[32], all[32];
    std::snprintf(layer, sizeof layer, "%.4g ms", layer_no_alpha * 1e3);
    std::snprintf(all, sizeof all, "%.4g ms", all_no_alpha * 1e3);
    const json c = eval({{"op", "exercise.check"}, {"id", 8}, {"params", v.params},
                         {"answers", {{"layerwise", layer}, {"eight_nics", all}}}});
    if (hides) {
      EXPECT_EQ(c.at("verdicts").at("layerwise").at("verdict"), "correct") << v.where() << " " << layer;
    }
    EXPECT_EQ(c.at("verdicts").at("eight_nics").at("verdict"), "correct") << v.where() << " " << all;
    // And the solution states the simplification.
    EXPECT_TRUE(has(v.en(), "Leaving α out") && has(v.zh(), "不计 α")) << v.where();
  });
}

// The section is checked like every other field: unknown fields, types and the figures it
// names, each problem naming its path in the file.
TEST(Conclusions, LintNamesThePathOfEveryProblem) {
  json base = eval({{"op", "exercise.get"}, {"id", 7}});
  base.erase("statement_filled");
  base.erase("params_display");
  base.erase("op");  // what exercise.get adds to the document: not fields of a file
  for (json& a : base["answers"])
    for (const char* shown : {"rule", "rule_what", "rule_judging"}) a.erase(shown);
  base["id"] = 907;
  // A new exercise: exercise 7's document, its compute section included (it has no solver).
  ASSERT_TRUE(base.contains("compute"));
  auto lint = [&](const std::function<void(json&)>& change) {
    json doc = base;
    change(doc);
    const json out = eval({{"op", "exercise.lint"}, {"file", "907.json"}, {"text", doc.dump()}});
    return out.at("problems").dump();
  };
  EXPECT_EQ(lint([](json&) {}), "[]");
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][0]["cases"][0]["whne"] = 1; }),
                  "conclusions[0].cases[0].whne: unknown field; did you mean \\\"when\\\"?"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][0]["cases"][0]["when"][0]["op"] = "=~"; }),
                  "conclusions[0].cases[0].when[0].op: must be one of"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["cases"][0]["when"]["left"] = "answers.short_hiden"; }),
                  "conclusions[1].cases[0].when.left: \\\"answers.short_hiden\\\" names no figure"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["cases"][0]["when"]["op"] = "<"; }),
                  "conclusions[1].cases[0].when.op: < compares numbers"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["cases"][1]["when"] = d["conclusions"][1]["cases"][0]["when"]; }),
                  "the last case is the otherwise case"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["cases"][1]["text"].erase("zh"); }),
                  "conclusions[1].cases[1].text: needs en and zh"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["cases"][1]["text"]["en"] = "{values.nothing}"; }),
                  "conclusions[1].cases[1].text.en: placeholder {values.nothing} names no"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["id"] = "shrt"; }), "'shrt' is said nowhere"));
  EXPECT_TRUE(has(lint([](json& d) { d["conclusions"][1]["id"] = "hidden"; }), "'hidden' is used twice"));
}

// Outside the variants (the calculator takes any params) a speed-up below 1 is called a slowdown.
TEST(Conclusions, Exercise4CallsASpeedUpBelowOneASlowdown) {
  const json params = {{"intra_link", "pcie4"}, {"inter_link", "ib_ndr"}, {"nodes", 2}, {"gpus_per_node", 2}};
  const json s = eval({{"op", "exercise.solve"}, {"id", 4}, {"params", params}});
  ASSERT_LT(s.at("answers").at("speedup").get<double>(), 1) << s.dump();
  EXPECT_TRUE(has(s.at("solution").at("en"), "slower than the flat ring")) << s.at("solution").at("en");
  EXPECT_TRUE(has(s.at("solution").at("zh"), "反而比扁平的环慢")) << s.at("solution").at("zh");
  EXPECT_TRUE(has(s.at("solution").at("en"), "drops to")) << s.at("solution").at("en");
  EXPECT_TRUE(has(s.at("solution").at("en"), "premise of §5.5 does not hold")) << s.at("solution").at("en");
}
