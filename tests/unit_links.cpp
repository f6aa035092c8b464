// The link catalogue and the alpha-beta model (P5 §2-3, exercise 1).
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "base/error.hpp"
#include "model/links.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;

TEST(Links, CatalogueHasTheLecturesNineLinks) {
  EXPECT_EQ(link_catalogue().size(), 9u);
  for (const char* id : {"hbm3", "nvlink4", "nvlink5", "pcie5", "pcie4", "ib_ndr", "roce400", "ethernet", "nvme"})
    EXPECT_NE(find_link(id), nullptr) << id;
}

TEST(Links, EffectiveIsNominalTimesEfficiency) {  // P5 §0.4: 450 GB/s a direction -> 360 effective
  EXPECT_DOUBLE_EQ(catalogue_link("nvlink4").beta_Bps, 360 * GB);
  EXPECT_DOUBLE_EQ(catalogue_link("ib_ndr").beta_Bps, 40 * GB);
  EXPECT_DOUBLE_EQ(catalogue_link("pcie5").beta_Bps, 51.2 * GB);
  EXPECT_DOUBLE_EQ(catalogue_link("nvlink4", "link", 1.0).beta_Bps, 450 * GB);
  EXPECT_DOUBLE_EQ(catalogue_link("nvlink4").alpha_s, 2 * us);
  EXPECT_DOUBLE_EQ(catalogue_link("ib").alpha_s, 5 * us);
}

TEST(Links, AliasesResolve) {
  EXPECT_EQ(find_link("infiniband")->id, "ib_ndr");
  EXPECT_EQ(find_link("nvlink")->id, "nvlink4");
  EXPECT_EQ(find_link("warp"), nullptr);
}

TEST(Links, UnknownLinkListsTheValidNames) {
  try {
    catalogue_link("warp", "intra_link");
    FAIL();
  } catch (const RequestError& e) {
    EXPECT_EQ(e.code(), "unknown_value");
    const std::string m = e.what();
    EXPECT_NE(m.find("'intra_link'"), std::string::npos);
    EXPECT_NE(m.find("warp"), std::string::npos);
    EXPECT_NE(m.find("nvlink4, pcie5"), std::string::npos);
  }
}

TEST(AlphaBeta, Exercise1) {  // P5 §11 ex. 1: 720 KB; 64 KB in 2.18 us at 8% of peak
  const Link nv = catalogue_link("nvlink4");
  EXPECT_DOUBLE_EQ(n_half_bytes(nv), 720 * kB);
  EXPECT_NEAR(transfer_time_s(nv, 64 * kB) / us, 2.18, 0.005);
  EXPECT_NEAR(100 * bandwidth_fraction(nv, 64 * kB), 8, 0.5);
}

TEST(AlphaBeta, Section3Fractions) {  // P5 §3: 256 KB uses about a quarter of NVLink, 84% of Ethernet
  EXPECT_NEAR(bandwidth_fraction(catalogue_link("nvlink4"), 256 * kB), 0.25, 0.015);
  EXPECT_NEAR(100 * bandwidth_fraction(catalogue_link("ethernet"), 256 * kB), 84, 0.5);
  EXPECT_DOUBLE_EQ(bandwidth_fraction(catalogue_link("nvlink4"), n_half_bytes(catalogue_link("nvlink4"))), 0.5);
}

TEST(AlphaBeta, Section2Figures) {
  const Link ib = catalogue_link("ib_ndr"), pcie = catalogue_link("pcie5"), nvme = catalogue_link("nvme");
  // §2.4 GPUDirect: 1 GB across nodes: 64 ms staged through both hosts, 25 ms direct.
  EXPECT_NEAR((2 * transfer_time_s(pcie, 1 * GB) + transfer_time_s(ib, 1 * GB)) / ms, 64, 0.5);
  EXPECT_NEAR(transfer_time_s(ib, 1 * GB) / ms, 25, 0.05);
  // §2.5 cold start: 141 GB from NVMe in 25 s, over 8 PCIe Gen5 links in 0.34 s.
  EXPECT_NEAR(transfer_time_s(nvme, 141 * GB), 25, 0.5);
  EXPECT_NEAR(transfer_time_s(pcie, 141 * GB / 8), 0.34, 0.005);
  // §2.3: 8 x 450 GB/s of NVLink against 8 x 50 GB/s of NICs: 9x.
  EXPECT_DOUBLE_EQ(find_link("nvlink4")->nominal_Bps / find_link("ib_ndr")->nominal_Bps, 9);
}

TEST(AlphaBeta, TimeIsMonotonicInBytes) {
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s);
    double prev = 0;
    for (double n = 1; n < 1e13; n *= 3.7) {
      const double t = transfer_time_s(l, n);
      EXPECT_GT(t, prev) << s.id << " at " << n;
      prev = t;
    }
  }
}

TEST(Links, MatchNamesACatalogueLinkOnlyFromItsFigures) {
  const nlohmann::json hit =
      commlab::evaluate(nlohmann::json{{"op", "link.match"}, {"alpha_s", 2e-6}, {"beta_Bps", 3.6e11}});
  EXPECT_EQ(hit.at("matched"), true);
  EXPECT_EQ(hit.at("id"), "nvlink4");
  EXPECT_EQ(hit.at("label"), "NVLink 4");
  // No match: said by "matched", with empty names, never null (the fuzz target's rule).
  const nlohmann::json miss =
      commlab::evaluate(nlohmann::json{{"op", "link.match"}, {"alpha_s", 1e-6}, {"beta_Bps", 1e9}});
  EXPECT_EQ(miss.at("matched"), false);
  EXPECT_EQ(miss.at("id"), "");
  EXPECT_EQ(miss.at("label"), "");
}
