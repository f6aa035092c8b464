// One message between GPUs of two nodes (op gpudirect, P5 §2.4, code 01 demo 4): the lecture's
// 64 / 25 / 25 ms, the pipeline's pace and its alphas, NCCL's path, and the refusals.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "base/units.hpp"
#include "model/gpudirect.hpp"

using namespace commlab;
using namespace commlab::units;
using nlohmann::json;

namespace {
std::string error_message(const json& out) { return out.contains("error") ? out["error"]["message"].get<std::string>() : ""; }
const json& path(const json& out, const std::string& id) {
  for (const json& p : out["paths"])
    if (p["id"] == id) return p;
  throw std::runtime_error("no path " + id);
}
}  // namespace

TEST(GpuDirect, TheLecturesOneGigabyte) {
  const json out = evaluate({{"op", "gpudirect"}});
  ASSERT_EQ(error_message(out), "") << out;
  // P5 §2.4: 64 ms through host memory one stage after another, 25 ms chunked, 25 ms GPUDirect.
  EXPECT_NEAR(path(out, "host_staged")["time_s"].get<double>() / ms, 64.08, 0.01);
  EXPECT_NEAR(path(out, "host_pipelined")["time_s"].get<double>() / ms, 25.94, 0.01);
  EXPECT_NEAR(path(out, "gpudirect")["time_s"].get<double>() / ms, 25.005, 0.001);
  EXPECT_EQ(out["fastest"], "gpudirect");
  EXPECT_EQ(out["nccl_path"], "gpudirect");
  EXPECT_EQ(path(out, "host_pipelined")["paced_by"], "network");
  // Host memory: two buffers on the way, each host writes and reads the message; none for GPUDirect.
  EXPECT_EQ(path(out, "host_staged")["host_copies"], 2);
  EXPECT_DOUBLE_EQ(path(out, "host_pipelined")["host_memory_bytes"].get<double>(), 4e9);
  EXPECT_EQ(path(out, "gpudirect")["host_copies"], 0);
  EXPECT_DOUBLE_EQ(out["staged_over_gpudirect"].get<double>(),
                   path(out, "host_staged")["time_s"].get<double>() / path(out, "gpudirect")["time_s"].get<double>());
}

TEST(GpuDirect, StagedStagesFollowOneAnother) {
  const json out = evaluate({{"op", "gpudirect"}, {"bytes", "100 MB"}});
  const json& s = path(out, "host_staged")["stages"];
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0]["stage"], "gpu_to_host");
  EXPECT_EQ(s[1]["link"], "ib_ndr");
  for (int i = 1; i < 3; ++i) EXPECT_DOUBLE_EQ(s[i]["start_s"].get<double>(), s[i - 1]["end_s"].get<double>());
  EXPECT_DOUBLE_EQ(s[2]["end_s"].get<double>(), path(out, "host_staged")["time_s"].get<double>());
}

TEST(GpuDirect, PipelineMatchesItsClosedFormAndPaysAlphaPerChunk) {
  const Link pcie = catalogue_link("pcie5"), ib = catalogue_link("ib_ndr");
  for (int chunks : {1, 2, 64, 4096}) {
    const GpuDirectPaths g = gpudirect_paths(1e9, chunks, pcie, ib, true);
    const double a = transfer_time_s(pcie, 1e9 / chunks), b = transfer_time_s(ib, 1e9 / chunks);
    // First chunk through all three stages, then one chunk per slowest-stage time.
    EXPECT_NEAR(g.paths[1].time_s, 2 * a + b + (chunks - 1) * std::max(a, b), 1e-12) << chunks;
  }
  // One chunk is the staged path; very many chunks lose to their alphas.
  EXPECT_NEAR(gpudirect_paths(1e9, 1, pcie, ib, true).paths[1].time_s, gpudirect_paths(1e9, 1, pcie, ib, true).paths[0].time_s, 1e-12);
  EXPECT_GT(gpudirect_paths(1e9, 1 << 20, pcie, ib, true).paths[1].time_s, gpudirect_paths(1e9, 4096, pcie, ib, true).paths[1].time_s);
}

TEST(GpuDirect, PacedByTheSlowerLinkAndNcclWithoutASharedSwitch) {
  // A NIC faster than PCIe: the host copies pace the pipeline.
  const json out = evaluate({{"op", "gpudirect"}, {"link", {{"alpha_s", 5e-6}, {"beta_Bps", 100e9}}}, {"same_pcie_switch", false}});
  ASSERT_EQ(error_message(out), "") << out;
  EXPECT_NE(path(out, "host_pipelined")["paced_by"], "network");
  EXPECT_EQ(out["nccl_path"], "host_pipelined");
}

TEST(GpuDirect, RefusalsNameTheField) {
  EXPECT_NE(error_message(evaluate({{"op", "gpudirect"}, {"chunks", 0}})).find("'chunks'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "gpudirect"}, {"bytes", "-1 GB"}})).find("'bytes'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "gpudirect"}, {"host_link", "warp"}})).find("'host_link'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "gpudirect"}, {"same_pcie_switch", 1}})).find("'same_pcie_switch'"), std::string::npos);
  EXPECT_NE(error_message(evaluate({{"op", "gpudirect"}, {"chunk", 4}})).find("chunk"), std::string::npos);
}

// §2.4: the case the rdma view says is the engine's: one chunk overlaps nothing (the staged
// path's time), a few chunks overlap, very many cost more in alphas than the overlap saves.
TEST(GpuDirect, PipelinedCaseIsChosenByTheTimes) {
  const auto at = [](int chunks) { return evaluate({{"op", "gpudirect"}, {"chunks", chunks}}); };
  const json one = at(1);
  EXPECT_EQ(one["pipelined_case"], "single_chunk");
  EXPECT_DOUBLE_EQ(path(one, "host_pipelined")["time_s"].get<double>(), path(one, "host_staged")["time_s"].get<double>());
  for (int chunks : {2, 64, 1024}) {
    const json out = at(chunks);
    EXPECT_EQ(out["pipelined_case"], "overlaps") << chunks;
    EXPECT_LT(path(out, "host_pipelined")["time_s"].get<double>(), path(out, "host_staged")["time_s"].get<double>()) << chunks;
  }
  const json many = at(1 << 20);
  EXPECT_EQ(many["pipelined_case"], "worse");
  EXPECT_GT(path(many, "host_pipelined")["time_s"].get<double>(), path(many, "host_staged")["time_s"].get<double>());
}
