// NCCL protocols and selection (P5 §5.6, code 03 demo 4).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "api/api.hpp"
#include "model/nccl.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;
using nlohmann::json;

namespace {
std::string error_message(const json& out) { return out.contains("error") ? out["error"]["message"].get<std::string>() : ""; }
NcclProtocol fastest_ring_protocol(double bytes) {
  return nccl_select(8, bytes, catalogue_link("nvlink4"), NcclTransport::nvlink, {NcclAlgorithm::ring})
      .best.protocol;
}
}  // namespace

TEST(Nccl, LectureCrossoversForAnEightGpuRing) {
  for (double n : {1 * kB, 4 * kB, 16 * kB, 64 * kB}) EXPECT_EQ(fastest_ring_protocol(n), NcclProtocol::LL) << n;
  EXPECT_EQ(fastest_ring_protocol(16 * MB), NcclProtocol::LL128);
  for (double n : {256 * MB, 1 * GB, 4 * GB}) EXPECT_EQ(fastest_ring_protocol(n), NcclProtocol::Simple) << n;
}

TEST(Nccl, ProtocolOrderIsLatencyAgainstBandwidth) {
  for (NcclTransport t : {NcclTransport::nvlink, NcclTransport::pci, NcclTransport::net}) {
    const ProtocolModel ll = protocol_model(NcclAlgorithm::ring, NcclProtocol::LL, t);
    const ProtocolModel ll128 = protocol_model(NcclAlgorithm::ring, NcclProtocol::LL128, t);
    const ProtocolModel simple = protocol_model(NcclAlgorithm::ring, NcclProtocol::Simple, t);
    EXPECT_LT(ll.step_latency_s, ll128.step_latency_s);
    EXPECT_LT(ll128.step_latency_s, simple.step_latency_s);
    EXPECT_LT(ll.bandwidth_factor, ll128.bandwidth_factor);
    EXPECT_LT(ll128.bandwidth_factor, simple.bandwidth_factor);
  }
}

TEST(Nccl, SelectionPicksTheCheapestCandidate) {
  const Link ib = catalogue_link("ib_ndr");
  for (double n = 1e3; n < 1e10; n *= 7) {
    const NcclChoice c = nccl_select(32, n, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree});
    EXPECT_EQ(c.candidates.size(), 6u);
    for (const NcclEstimate& e : c.candidates) EXPECT_LE(c.best.time_s, e.time_s);
  }
  // Trees win small messages on many ranks (log steps), rings win large ones.
  EXPECT_EQ(nccl_select(256, 4 * kB, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree})
                .best.algorithm,
            NcclAlgorithm::tree);
  EXPECT_EQ(nccl_select(8, 4 * GB, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree})
                .best.algorithm,
            NcclAlgorithm::ring);
}

// P5 §5.6: NCCL weighs every algorithm the hardware allows. §5.4: NVLS where NVSwitch reduces
// (NVLink 4 and 5), CollNet where InfiniBand's switches do (SHARP), neither over PCIe.
TEST(Nccl, TheTunerWeighsTheInSwitchAlgorithmTheLinkAllows) {
  const auto names = [](const json& out) {
    std::vector<std::string> v;
    for (const json& c : out["candidates"]) v.push_back(c["algorithm"].get<std::string>() + "/" + c["protocol"].get<std::string>());
    return v;
  };
  const auto left_out = [](const json& out) {
    std::vector<std::string> v;
    for (const json& x : out["left_out"]) v.push_back(x["algorithm"].get<std::string>() + ":" + x["reason"].get<std::string>());
    return v;
  };
  // NVLink 4, 8 GPUs, 16 MB: NVLS (Simple only) is weighed and, at 2 alpha + D/beta, is the
  // cheapest: the `allreduce` op's in_switch time for the same call.
  const json nv = evaluate({{"op", "nccl"}, {"devices", 8}, {"bytes", 16e6}, {"link", "nvlink4"}});
  ASSERT_EQ(error_message(nv), "") << nv;
  const std::vector<std::string> nv_names = names(nv);
  EXPECT_EQ(std::count(nv_names.begin(), nv_names.end(), "nvls/Simple"), 1);
  EXPECT_EQ(std::count_if(nv_names.begin(), nv_names.end(), [](const std::string& n) { return n.rfind("nvls/", 0) == 0; }), 1);
  EXPECT_EQ(nv["algorithm"], "nvls");
  const json in_switch = evaluate({{"op", "allreduce"}, {"devices", 8}, {"bytes", 16e6}, {"link", "nvlink4"}, {"algorithm", "in_switch"}});
  EXPECT_NEAR(nv["time_s"].get<double>(), in_switch["time_s"].get<double>(), 1e-15);
  EXPECT_NEAR(nv["time_s"].get<double>(), 2 * 2e-6 + 16e6 / 360e9, 1e-15);  // 2 alpha + D / beta
  EXPECT_EQ(left_out(nv), std::vector<std::string>{"collnet:needs_sharp"});
  // InfiniBand NDR: CollNet instead.
  const json ib = evaluate({{"op", "nccl"}, {"devices", 16}, {"bytes", 1e6}, {"link", "ib_ndr"}});
  const std::vector<std::string> ib_names = names(ib);
  EXPECT_EQ(std::count(ib_names.begin(), ib_names.end(), "collnet/Simple"), 1);
  EXPECT_EQ(left_out(ib), std::vector<std::string>{"nvls:needs_nvswitch"});
  // PCIe Gen5 and RoCE: no switch reduces; ring and tree only, both left out and said why.
  for (const char* link : {"pcie5", "roce400", "ethernet"}) {
    const json out = evaluate({{"op", "nccl"}, {"devices", 8}, {"bytes", 16e6}, {"link", link}});
    EXPECT_EQ(names(out).size(), 6u) << link;
    EXPECT_EQ(left_out(out), (std::vector<std::string>{"nvls:needs_nvswitch", "collnet:needs_sharp"})) << link;
    const std::string refused = error_message(evaluate({{"op", "nccl"}, {"devices", 8}, {"bytes", 16e6}, {"link", link}, {"algorithms", {"nvls"}}}));
    EXPECT_NE(refused.find("field 'algorithms'"), std::string::npos) << refused;
    EXPECT_NE(refused.find("NVSwitch"), std::string::npos) << refused;
    EXPECT_NE(refused.find("allowed here: \"ring\", \"tree\""), std::string::npos) << refused;
  }
  // The catalogue says which switch reduces, for the views that offer in-switch all-reduce.
  const json links = evaluate({{"op", "links"}});
  std::map<std::string, std::string> reducing;
  for (const json& l : links["links"]) reducing[l["id"]] = l["reducing_switch"];
  EXPECT_EQ(reducing["nvlink4"], "nvls");
  EXPECT_EQ(reducing["nvlink5"], "nvls");
  EXPECT_EQ(reducing["ib_ndr"], "collnet");
  for (const char* none : {"pcie5", "pcie4", "roce400", "ethernet", "hbm3", "nvme"}) EXPECT_EQ(reducing[none], "none") << none;
}
