// The `crossover` op (P5 §5.3, §5.6): the sizes where the cheapest all-reduce algorithm or NCCL
// (algorithm, protocol) pair changes, held against a bisection written here on the closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "model/collectives.hpp"
#include "model/nccl.hpp"

using namespace commlab;
using nlohmann::json;

namespace {

struct Change {
  double bytes;
  std::string from, to;
};

// The test's own search: the cheapest name at each of 400 sizes a decade (a tie to the first
// listed), and every change between neighbours bisected in log size to 1e-7.
std::vector<Change> reference_changes(const std::vector<std::string>& names,
                                      const std::function<double(const std::string&, double)>& time,
                                      double from, double to) {
  auto cheapest = [&](double x) {
    std::string best = names[0];
    for (const std::string& n : names)
      if (time(n, x) < time(best, x)) best = n;
    return best;
  };
  std::vector<Change> out;
  const int steps = static_cast<int>(std::ceil(std::log10(to / from) * 400));
  double lo = from;
  std::string w_lo = cheapest(lo);
  for (int i = 1; i <= steps; ++i) {
    const double hi = from * std::pow(to / from, static_cast<double>(i) / steps);
    const std::string w_hi = cheapest(hi);
    if (w_hi != w_lo) {
      double a = lo, b = hi;
      while (b / a > 1 + 1e-7) {
        const double m = std::sqrt(a * b);
        (cheapest(m) == w_lo ? a : b) = m;
      }
      out.push_back({std::sqrt(a * b), w_lo, w_hi});
    }
    lo = hi;
    w_lo = w_hi;
  }
  return out;
}

std::vector<Change> op_changes(const json& answer) {
  std::vector<Change> out;
  for (const json& b : answer.at("boundaries")) out.push_back({b.at("bytes"), b.at("from"), b.at("to")});
  return out;
}

void expect_same(const std::vector<Change>& got, const std::vector<Change>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].from, want[i].from) << what << " #" << i;
    EXPECT_EQ(got[i].to, want[i].to) << what << " #" << i;
    EXPECT_NEAR(got[i].bytes / want[i].bytes, 1.0, 1e-3) << what << " #" << i << " at " << want[i].bytes;
  }
}

json link_json(const Link& l) { return {{"alpha_s", l.alpha_s}, {"beta_Bps", l.beta_Bps}}; }

const std::vector<std::string> kExercise3 = {"ring", "recursive_doubling", "rabenseifner", "binary_tree"};
const std::vector<std::string> kFlat = {"ring", "recursive_doubling", "rabenseifner", "binary_tree", "double_binary_tree"};

std::vector<Change> allreduce_reference(int k, const Link& link, const std::vector<std::string>& names) {
  return reference_changes(names, [&](const std::string& n, double x) {
    AllreduceAlgorithm a;
    parse_allreduce_algorithm(n, &a);
    return allreduce_cost(a, k, x, link).time_s;
  }, 1, 1e9);
}

}  // namespace

TEST(Crossover, AllreduceMatchesABisectionOnTheClosedForms) {
  const std::vector<Link> links = {catalogue_link("nvlink4"), catalogue_link("ib_ndr"), catalogue_link("pcie5"),
                                   Link{5e-6, 40e9, "custom"}, Link{2e-5, 2.5e9, "custom"}};
  int compared = 0;
  for (int k : {2, 3, 8, 10, 12, 16, 64, 100, 1024})
    for (const Link& link : links)
      for (const auto* names : {&kExercise3, &kFlat}) {
        json req = {{"op", "crossover"}, {"devices", k}, {"link", link_json(link)}};
        if (names == &kExercise3) req["algorithms"] = *names;
        const json got = evaluate(req);
        ASSERT_FALSE(got.contains("error")) << got.dump();
        const std::string what = "k=" + std::to_string(k) + " beta=" + std::to_string(link.beta_Bps) +
                                 " " + std::to_string(names->size()) + " algorithms";
        const std::vector<Change> want = allreduce_reference(k, link, *names);
        expect_same(op_changes(got), want, what);
        compared += static_cast<int>(want.size());
        // The winner bands join at the boundaries and cover the range.
        const json& bands = got.at("winners");
        ASSERT_EQ(bands.size(), want.size() + 1) << what;
        EXPECT_EQ(bands.front().at("from_bytes"), 1.0);
        EXPECT_EQ(bands.back().at("to_bytes"), 1e9);
        for (size_t i = 0; i + 1 < bands.size(); ++i)
          EXPECT_EQ(bands[i].at("to_bytes"), bands[i + 1].at("from_bytes")) << what;
      }
  EXPECT_GT(compared, 40);
}

// Reference points worked from the closed forms by hand: exercise 3's
// defaults cross from recursive doubling to Rabenseifner at 4 alpha beta / 2.125 = 376.5 KB;
// §5.3's 8 GPUs on NVLink 4 at 3 alpha beta / 1.25 = 1.728 MB.
TEST(Crossover, TheLecturesReferencePoints) {
  const json ex3 = evaluate(json{{"op", "crossover"}, {"devices", 16}, {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 40e9}}},
                                 {"algorithms", kExercise3}});
  ASSERT_EQ(ex3.at("boundaries").size(), 1u) << ex3.dump();
  EXPECT_EQ(ex3["boundaries"][0]["from"], "recursive_doubling");
  EXPECT_EQ(ex3["boundaries"][0]["to"], "rabenseifner");
  EXPECT_NEAR(ex3["boundaries"][0]["bytes"].get<double>() / (4 * 5e-6 * 40e9 / 2.125), 1.0, 1e-3);
  EXPECT_NEAR(ex3["boundaries"][0]["bytes"].get<double>(), 376.5e3, 0.05e3);

  const json nv = evaluate(json{{"op", "crossover"}, {"devices", 8}, {"link", "nvlink4"}});
  bool found = false;
  for (const json& b : nv.at("boundaries"))
    if (b["from"] == "recursive_doubling" && b["to"] == "rabenseifner") {
      found = true;
      EXPECT_NEAR(b["bytes"].get<double>(), 1.728e6, 0.0005e6);
    }
  EXPECT_TRUE(found) << nv.dump();
}

TEST(Crossover, NcclMatchesABisectionOnTheClosedForms) {
  int compared = 0;
  for (int k : {2, 8, 16, 64, 512})
    for (const char* id : {"nvlink4", "ib_ndr", "pcie5"}) {
      const Link link = catalogue_link(id);
      const NcclTransport transport = transport_of(link);
      std::vector<std::string> names;
      for (const auto& p : nccl_pairs({NcclAlgorithm::ring, NcclAlgorithm::tree}))
        names.push_back(nccl_pair_name(p.first, p.second));
      const auto want = reference_changes(names, [&](const std::string& n, double x) {
        const NcclAlgorithm a = n.rfind("ring", 0) == 0 ? NcclAlgorithm::ring : NcclAlgorithm::tree;
        const std::string p = n.substr(n.find('/') + 1);
        const NcclProtocol proto = p == "LL" ? NcclProtocol::LL : p == "LL128" ? NcclProtocol::LL128 : NcclProtocol::Simple;
        return nccl_allreduce_estimate(a, proto, k, x, link, transport).time_s;
      }, 1, 1e9);
      const json got = evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", k}, {"link", id}, {"algorithms", {"ring", "tree"}}});
      ASSERT_FALSE(got.contains("error")) << got.dump();
      expect_same(op_changes(got), want, std::string("nccl k=") + std::to_string(k) + " " + id);
      compared += static_cast<int>(want.size());
      // Each boundary's time is where the two pairs cost the same.
      for (const json& b : got["boundaries"]) {
        const json at = evaluate(json{{"op", "nccl"}, {"devices", k}, {"link", id}, {"bytes", b["bytes"]}, {"algorithms", {"ring", "tree"}}});
        EXPECT_NEAR(at["time_s"].get<double>() / b["time_s"].get<double>(), 1.0, 1e-3);
      }
    }
  EXPECT_GT(compared, 10);
}

// The issue's NCCL chart: 8 GPUs on NVLink 4 change pair at 786.9 KB, 33.75 MB and 59.86 MB.
TEST(Crossover, NcclEightGpusOnNvlink) {
  // Ring and tree (the link's NVLS is weighed by default: CrossoverNcclWeighsTheLinksSwitch).
  const json got = evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "nvlink4"}, {"algorithms", {"ring", "tree"}}});
  ASSERT_EQ(got.at("boundaries").size(), 3u) << got.dump();
  const double want[] = {786.9e3, 33.75e6, 59.86e6};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got["boundaries"][i]["bytes"].get<double>() / want[i], 1.0, 2e-4) << i;
}

TEST(Crossover, CheapestAtTheAskedSizeIsTheCalculatorsBest) {
  // Exercise 3 at k = 10, D = 1,000 KB: the four algorithms only, as the exercise asks.
  for (int k : {4, 10, 16, 33})
    for (double d : {16e3, 256e3, 1e6, 8e6}) {
      const json got = evaluate(json{{"op", "crossover"}, {"devices", k}, {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 40e9}}},
                                     {"algorithms", kExercise3}, {"bytes", d}});
      const json solved = evaluate(json{{"op", "exercise.solve"}, {"id", 3},
                                        {"params", {{"devices", k}, {"bytes", d}, {"alpha_s", 5e-6}, {"beta_Bps", 40e9}}}});
      ASSERT_FALSE(solved.contains("error")) << solved.dump();
      EXPECT_EQ(got.at("cheapest").at("name"), solved.at("answers").at("best")) << k << " " << d;
    }
}

TEST(Crossover, RequestsAreReadStrictly) {
  auto code = [](const json& req) {
    const json r = evaluate(req);
    return r.contains("error") ? r["error"]["code"].get<std::string>() : std::string("ok");
  };
  const json base = {{"op", "crossover"}, {"devices", 8}, {"link", "nvlink4"}};
  EXPECT_EQ(code(base), "ok");
  json r = base;
  r["devices"] = 1;
  EXPECT_EQ(code(r), "out_of_range");
  r = base;
  r["algorithms"] = json::array({"ring", "warp"});
  EXPECT_EQ(code(r), "unknown_value");
  r["algorithms"] = json::array();
  EXPECT_EQ(code(r), "invalid_type");
  r["algorithms"] = json::array({"ring", "ring"});
  EXPECT_EQ(code(r), "invalid_value");
  r = base;
  r["algorithms"] = json::array({"ring", "in_switch"});
  r["in_switch_available"] = true;
  EXPECT_EQ(code(r), "invalid_request");
  r = base;
  r["transport"] = "net";  // NCCL only
  EXPECT_EQ(code(r), "unknown_field");
  r = base;
  r["from_bytes"] = 1e6;
  r["to_bytes"] = 1e3;
  EXPECT_EQ(code(r), "invalid_value");
  r = base;
  r["kind"] = "nccl";
  r["algorithms"] = json::array({"tree"});
  EXPECT_EQ(code(r), "ok");
  const json err = evaluate(json{{"op", "crossover"}, {"devices", 8}, {"link", "nvlink4"}, {"algorithms", {"warp"}}});
  const std::string msg = err["error"]["message"];
  EXPECT_NE(msg.find("'algorithms'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warp"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rabenseifner"), std::string::npos) << msg;
}

TEST(Crossover, TheWorkBudgetIsCheckedFirst) {
  // The largest device count with the double binary tree over 15 decades is refused up front.
  const json big = evaluate(json{{"op", "crossover"}, {"devices", 1 << 20}, {"link", "ib_ndr"}, {"from_bytes", 1}, {"to_bytes", 1e15}});
  if (big.contains("error")) {
    EXPECT_EQ(big["error"]["code"], "too_large");
    EXPECT_NE(big["error"]["message"].get<std::string>().find("'devices'"), std::string::npos);
  }
  // Without it, any size answers.
  const json ok = evaluate(json{{"op", "crossover"}, {"devices", 1 << 20}, {"link", "ib_ndr"}, {"algorithms", kExercise3},
                                {"from_bytes", 1}, {"to_bytes", 1e15}});
  EXPECT_FALSE(ok.contains("error")) << ok.dump();
}

// As the nccl op: by default the pairs of every algorithm the link allows (§5.4, §5.6).
TEST(Crossover, CrossoverNcclWeighsTheLinksSwitch) {
  const auto names = [](const json& out) { return out["candidates"].get<std::vector<std::string>>(); };
  const json nv = evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "nvlink4"}});
  ASSERT_FALSE(nv.contains("error")) << nv.dump();
  EXPECT_EQ(names(nv).back(), "nvls/Simple");
  EXPECT_EQ(names(evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "ib_ndr"}})).back(), "collnet/Simple");
  EXPECT_EQ(names(evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "pcie5"}})).size(), 6u);
  const json refused = evaluate(json{{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "pcie5"}, {"algorithms", {"nvls"}}});
  ASSERT_TRUE(refused.contains("error"));
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("allowed here: \"ring\", \"tree\""), std::string::npos) << refused.dump();
}
