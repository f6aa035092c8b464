// The bandwidth ladder of P5 §2.1 (op ladder) and what NCCL's protocols are (op nccl.protocols,
// §5.6): the ratios the lecture states, said by the engine, and its refusals.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "base/units.hpp"
#include "model/links.hpp"
#include "model/nccl.hpp"

using namespace commlab;
using namespace commlab::units;
using nlohmann::json;

namespace {
json ask(const json& request) { return evaluate(request); }
std::string error_code(const json& out) { return out.contains("error") ? out["error"]["code"].get<std::string>() : ""; }
// Pairs as JSON arrays (an initializer list of two strings would read as an object).
json pairs(std::initializer_list<std::pair<const char*, const char*>> list) {
  json out = json::array();
  for (const auto& [a, b] : list) out.push_back(json::array({a, b}));
  return out;
}
std::string error_message(const json& out) { return out.contains("error") ? out["error"]["message"].get<std::string>() : ""; }
}  // namespace

TEST(Ladder, EveryCatalogueLinkOnItsLevelWithItsEffectiveFigures) {
  const json out = ask({{"op", "ladder"}});
  ASSERT_EQ(error_code(out), "") << out;
  ASSERT_EQ(out["rungs"].size(), link_catalogue().size());
  EXPECT_EQ(out["levels"], json({"gpu", "nvlink_domain", "node", "network", "storage"}));
  for (const json& r : out["rungs"]) {
    const Link l = catalogue_link(r["id"].get<std::string>());
    EXPECT_DOUBLE_EQ(r["beta_Bps"].get<double>(), l.beta_Bps) << r;
    EXPECT_DOUBLE_EQ(r["alpha_s"].get<double>(), l.alpha_s) << r;
  }
  EXPECT_EQ(out["rungs"][0]["level"], "gpu");
  EXPECT_EQ(out["rungs"][2]["id"], "nvlink4");
  EXPECT_EQ(out["rungs"][2]["level"], "nvlink_domain");
  EXPECT_EQ(out["rungs"][5]["level"], "network");
  EXPECT_EQ(out["rungs"][8]["level"], "storage");
}

TEST(Ladder, TheLecturesRatios) {  // P5 §2.1, §2.3
  const json out = ask({{"op", "ladder"}});
  ASSERT_EQ(out["comparisons"].size(), 3u);
  const json& hbm = out["comparisons"][0];
  EXPECT_EQ(hbm["faster"], "hbm3");
  EXPECT_EQ(hbm["slower"], "nvlink4");
  EXPECT_NEAR(hbm["ratio"].get<double>(), 3.35e12 / 450e9, 1e-9);  // "nearly 10x": 7.4x
  EXPECT_EQ(out["comparisons"][1]["faster"], "nvlink4");
  EXPECT_NEAR(out["comparisons"][1]["ratio"].get<double>(), 9, 1e-9);  // "nearly an order of magnitude"
  EXPECT_NEAR(out["comparisons"][2]["ratio"].get<double>(), 144, 1e-9);  // "over two orders"
  const json& node = out["node"];
  EXPECT_EQ(node["id"], "dgx_h100");
  EXPECT_EQ(node["faster"], "inside");
  EXPECT_NEAR(node["inside_nominal_Bps"].get<double>(), 3.6e12, 1);  // 8 x 450 GB/s
  EXPECT_NEAR(node["outside_nominal_Bps"].get<double>(), 400e9, 1);  // 8 x 50 GB/s
  EXPECT_NEAR(node["ratio"].get<double>(), 9, 1e-9);                 // "inside the node 9x outside"
  EXPECT_NEAR(node["inside_Bps"].get<double>(), 2.88e12, 1);
}

TEST(Ladder, APairSaysWhichIsFasterWhicheverOrderItIsGiven) {
  const json out = ask({{"op", "ladder"}, {"pairs", pairs({{"ethernet", "nvme"}, {"nvme", "ethernet"}, {"ib", "roce400"}})}});
  ASSERT_EQ(error_code(out), "") << out;
  for (int i : {0, 1}) {
    EXPECT_EQ(out["comparisons"][i]["faster"], "nvme");  // 7 GB/s against 25 Gb/s: the SSD is faster
    EXPECT_NEAR(out["comparisons"][i]["ratio"].get<double>(), 7e9 / 3.125e9, 1e-9);
    EXPECT_FALSE(out["comparisons"][i]["equal"].get<bool>());
  }
  EXPECT_EQ(out["comparisons"][2]["a"], "ib_ndr");  // aliases resolve
  EXPECT_TRUE(out["comparisons"][2]["equal"].get<bool>());
  EXPECT_DOUBLE_EQ(out["comparisons"][2]["ratio"].get<double>(), 1);
  // Efficiency scales every bandwidth alike: the ratios stay.
  const json e = ask({{"op", "ladder"}, {"efficiency", 0.5}, {"node", "gb200_nvl72"}});
  EXPECT_DOUBLE_EQ(e["rungs"][2]["beta_Bps"].get<double>(), 225e9);
  EXPECT_NEAR(e["node"]["ratio"].get<double>(), 900e9 / 50e9, 1e-9);
  EXPECT_EQ(e["node"]["gpus"], 72);
}

TEST(Ladder, BadFieldsAreNamed) {
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"pairs", pairs({{"hbm3", "warp"}})}})), "unknown_value");
  EXPECT_NE(error_message(ask({{"op", "ladder"}, {"pairs", pairs({{"hbm3", "warp"}})}})).find("pairs[0][1]"), std::string::npos);
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"pairs", json::array()}})), "invalid_type");
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"pairs", json::array({json::array({"hbm3"})})}})), "invalid_type");
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"pairs", json::array({json::array({"hbm3", 3})})}})), "invalid_type");
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"efficiency", 0}})), "out_of_range");
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"node", "dgx_a100"}})), "unknown_value");
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"extra", 1}})), "unknown_field");
  json many = json::array();
  for (int i = 0; i < 65; ++i) many.push_back(json::array({"hbm3", "nvme"}));
  EXPECT_EQ(error_code(ask({{"op", "ladder"}, {"pairs", many}})), "invalid_type");
}

TEST(NcclProtocols, PayloadSharesFromTheFlaggedUnits) {  // P5 §5.6
  const json out = ask({{"op", "nccl.protocols"}, {"link", "nvlink4"}});
  ASSERT_EQ(error_code(out), "") << out;
  EXPECT_EQ(out["transport"], "nvlink");
  ASSERT_EQ(out["protocols"].size(), 3u);
  const json& ll = out["protocols"][0];
  EXPECT_EQ(ll["protocol"], "LL");
  EXPECT_EQ(ll["unit_bytes"], 8);
  EXPECT_EQ(ll["payload_bytes"], 4);
  EXPECT_EQ(ll["flag_bytes"], 4);
  EXPECT_DOUBLE_EQ(ll["payload_share"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(ll["bandwidth_Bps"].get<double>(), 180e9);
  const json& ll128 = out["protocols"][1];
  EXPECT_EQ(ll128["unit_bytes"], 128);
  EXPECT_EQ(ll128["payload_bytes"], 120);
  EXPECT_DOUBLE_EQ(ll128["payload_share"].get<double>(), 120.0 / 128.0);
  const json& simple = out["protocols"][2];
  EXPECT_FALSE(simple["flag_in_data"].get<bool>());
  EXPECT_DOUBLE_EQ(simple["payload_share"].get<double>(), 1);
  // The same factors the estimates use: LL's bandwidth in the nccl op is this one.
  const json est = ask({{"op", "nccl"}, {"devices", 8}, {"bytes", 1e6}, {"link", "nvlink4"}, {"algorithms", {"ring"}}});
  EXPECT_DOUBLE_EQ(est["candidates"][0]["bandwidth_Bps"].get<double>(), ll["bandwidth_Bps"].get<double>());
  // LL's one hop is the shortest: its step latency is the least of the three.
  EXPECT_LT(ll["step_latency_s"].get<double>(), ll128["step_latency_s"].get<double>());
  EXPECT_LT(ll128["step_latency_s"].get<double>(), simple["step_latency_s"].get<double>());
  const json tree = ask({{"op", "nccl.protocols"}, {"link", "ib_ndr"}, {"algorithm", "tree"}});
  EXPECT_EQ(tree["transport"], "net");
  EXPECT_EQ(tree["algorithm"], "tree");
  EXPECT_EQ(error_code(ask({{"op", "nccl.protocols"}, {"link", "nvlink4"}, {"algorithm", "nvls"}})), "unknown_value");
  EXPECT_EQ(error_code(ask({{"op", "nccl.protocols"}})), "missing_field");
}
