// Logs as engineers paste them (issue 43), each made by the synthesizer (tests/nccl_synth.hpp)
// exactly as nccl-tests or rccl-tests prints it: NCCL INFO lines of other ranks between the
// header's lines and the rows, rows of size 0 at the small end, a launcher's label on every line
// and again inside rows, rccl-tests under srun with no test name. Each is read back row for row
// (exactly the noise skipped) and fitted back to the spec's collective, alpha and beta, its
// plateau at the spec's bus bandwidth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "measured/fit.hpp"
#include "nccl_synth.hpp"
#include "test_cli.hpp"
#include "test_files.hpp"

using namespace commlab;
using commlab_test::SynthLog;
using commlab_test::SynthSpec;
using nlohmann::json;

namespace {

json fit(const std::string& text, json extra = json::object()) {
  extra["op"] = "fit";
  extra["log"] = text;
  return evaluate(extra);
}

double rel(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

std::string what(const SynthSpec& s) {
  return commlab_test::describe(s) + ", prefix '" + s.prefix + "'" + (s.prefix_inside_rows ? " inside rows" : "") +
         (s.old_format ? ", 2019-2022 format" : "") + (s.rccl ? ", rccl-tests" : "") +
         ", other ranks' lines " + std::to_string(s.other_rank_info) + ", split every " + std::to_string(s.split_every);
}

// Every row the synthesizer printed is read, from its line, and only its noise lines are skipped.
void expect_read(const SynthLog& log, const std::string& name, size_t tables = 1) {
  const ParsedLog p = parse_nccl_log(log.text);
  ASSERT_EQ(p.tables.size(), tables) << name << "\n" << log.text;
  std::vector<const LogRow*> rows;
  for (const LogTable& t : p.tables)
    for (const LogRow& r : t.rows) rows.push_back(&r);
  ASSERT_EQ(rows.size(), log.sizes.size()) << name << "\n" << log.text;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]->bytes, log.sizes[i]) << name << " row " << i;
    EXPECT_EQ(rows[i]->line, log.row_lines[i]) << name << " row " << i;
    EXPECT_EQ(rows[i]->out_of_place.time_us, log.times_us[i]) << name << " row " << i;
  }
  std::set<int> skipped;
  for (const LogTable& t : p.tables)
    for (const LogSkip& k : t.skipped) skipped.insert(k.line);
  EXPECT_EQ(skipped, std::set<int>(log.noise_lines.begin(), log.noise_lines.end())) << name;
  EXPECT_EQ(p.rejected_rows, 0) << name << ": " << p.first_rejected.reason;
}

// The fitted table is the spec's: its collective and rank count, alpha and beta within 1%, and
// the plateau within 3% of the bus bandwidth (the sweeps run far past n_1/2).
void expect_fit(const json& t, const SynthSpec& s, const std::string& name) {
  EXPECT_EQ(t["collective"], s.collective) << name;
  if (s.collective != "broadcast" && s.collective != "reduce" && s.collective != "sendrecv") {
    EXPECT_EQ(t["ranks"], s.ranks) << name;
  }
  EXPECT_LT(rel(t["fit"]["alpha_s"].get<double>(), s.alpha_s), 0.01) << name << " alpha " << t["fit"]["alpha_s"];
  EXPECT_LT(rel(t["fit"]["beta_Bps"].get<double>(), s.beta_Bps), 0.01) << name << " beta " << t["fit"]["beta_Bps"];
  EXPECT_LT(rel(t["plateau_busbw_Bps"].get<double>(), s.beta_Bps), 0.03) << name << " plateau " << t["plateau_busbw_Bps"];
  EXPECT_GE(t["plateau_rows"].get<int>(), 2) << name;
}

const char* const kLaunchers[] = {"", "[1,0]<stdout>:", "[0] ", " 0: "};

}  // namespace

TEST(FitShapes, InfoLinesOfOtherRanksBetweenTheHeaderAndTheRows) {
  // NCCL_DEBUG=INFO on every rank: other ranks' INFO lines (each under its own rank's label)
  // after each header line, under the header and between rows, in both formats.
  for (const char* launcher : kLaunchers)
    for (bool old_format : {false, true}) {
      SynthSpec s;
      s.ranks = 16;
      s.alpha_s = 6e-6;
      s.beta_Bps = 40e9;
      s.min_bytes = 1024;
      s.max_bytes = 1073741824;
      s.prefix = launcher;
      s.old_format = old_format;
      s.other_rank_info = 2;
      const SynthLog log = commlab_test::synth_log(s);
      ASSERT_GE(log.noise_lines.size(), 6u + 2 * log.sizes.size());  // the lines the test is about
      expect_read(log, what(s));
      const json a = fit(log.text);
      ASSERT_FALSE(a.contains("error")) << what(s) << ": " << a.dump();
      expect_fit(a["tables"][0], s, what(s));
    }
  // Hosts named by address ("10:52002:52402 [2] NCCL INFO ..."): lines that start with a number,
  // between the header's lines and inside rows split by them, are not values.
  for (const char* launcher : kLaunchers) {
    SynthSpec s;
    s.ranks = 16;
    s.max_bytes = 1073741824;
    s.prefix = launcher;
    s.numeric_hosts = true;
    s.other_rank_info = 2;
    s.split_every = 3;
    const SynthLog log = commlab_test::synth_log(s);
    ASSERT_NE(log.text.find("10:52002:52402 [2] NCCL INFO"), std::string::npos);
    expect_read(log, what(s));
    const json a = fit(log.text);
    ASSERT_FALSE(a.contains("error")) << what(s) << ": " << a.dump();
    expect_fit(a["tables"][0], s, what(s));
  }
  // With all-to-all's rows of size 0 under them: the table was read as having "0 sizes".
  SynthSpec s;
  s.collective = "alltoall";
  s.redop = "none";
  s.other_rank_info = 2;
  s.max_bytes = 1073741824;
  const SynthLog log = commlab_test::synth_log(s);
  expect_read(log, what(s));
  const json a = fit(log.text);
  ASSERT_FALSE(a.contains("error")) << a.dump();
  expect_fit(a["tables"][0], s, what(s));
}

TEST(FitShapes, RowsOfSizeZeroStayInTheirTableAndTheFitLeavesThemOut) {
  // Each rank's share of a small size rounds down to nothing (nccl-tests' getCollByteCount): the
  // first rows print size 0 and count 0, bandwidths 0.00 (or N/A).
  for (const char* collective : {"alltoall", "all_gather", "reduce_scatter"})
    for (int variant = 0; variant < 3; ++variant) {
      SynthSpec s;
      s.collective = collective;
      s.redop = s.collective == "reduce_scatter" ? "sum" : "none";
      s.max_bytes = 1073741824;
      s.rccl = variant == 1;
      s.size0_na = variant == 2;
      const SynthLog log = commlab_test::synth_log(s);
      size_t zeros = 0;
      for (double b : log.sizes) zeros += b == 0;
      ASSERT_GE(zeros, 2u) << what(s);  // the shape the test is about
      expect_read(log, what(s));
      // rccl-tests names no test, and all-gather's table is all-to-all's (RcclUnderSrun... below).
      const json a = fit(log.text, s.rccl ? json{{"collective", collective}} : json::object());
      ASSERT_FALSE(a.contains("error")) << what(s) << ": " << a.dump();
      const json& t = a["tables"][0];
      expect_fit(t, s, what(s));
      EXPECT_EQ(t["fit"]["rows"], log.sizes.size() - zeros) << what(s);
      for (const json& r : t["rows"]) {
        if (r["bytes"] == 0) {
          EXPECT_EQ(r["not_fitted"].get<std::string>().rfind("size 0: ", 0), 0u) << r.dump();
        } else {
          EXPECT_FALSE(r.contains("not_fitted")) << r.dump();
        }
      }
    }
  // A second type (-d all) starts again at size 0: a table of its own, its zeros its own.
  SynthSpec a;
  a.collective = "alltoall";
  a.redop = "none";
  a.max_bytes = 1048576;
  a.footer = false;
  SynthSpec b = a;
  b.type = "half";
  b.preamble = false;
  const std::string one = commlab_test::synth_log(a).text, two = commlab_test::synth_log(b).text;
  const ParsedLog p = parse_nccl_log(one + two.substr(two.find("           0             0")));
  ASSERT_EQ(p.tables.size(), 2u);
  EXPECT_EQ(p.tables[0].rows.front().bytes, 0);
  EXPECT_EQ(p.tables[1].rows.front().bytes, 0);
  EXPECT_EQ(p.tables[1].type, "half");
  EXPECT_EQ(p.tables[1].rows.size(), p.tables[0].rows.size());
}

TEST(FitShapes, LauncherLabelsOnEveryLineAndAgainInsideRows) {
  // Open MPI --tag-output, Intel MPI / MPICH, srun -l (padded to two digits on 16 ranks, and
  // "0: " on 8, glued to a root of -1 as "-10:"), repeated between a row's pieces; alone, with
  // rows split by NCCL INFO lines, and with other ranks' lines.
  struct Launcher {
    const char* prefix;
    int ranks;
  };
  for (const Launcher& l : {Launcher{"[1,0]<stdout>:", 8}, Launcher{"[0] ", 8}, Launcher{" 0: ", 16}, Launcher{"0: ", 8}})
    for (int variant = 0; variant < 3; ++variant) {
      SynthSpec s;
      s.ranks = l.ranks;
      s.alpha_s = 5e-6;
      s.beta_Bps = 48e9;
      s.min_bytes = 1024;
      s.max_bytes = 1073741824;
      s.prefix = l.prefix;
      s.prefix_inside_rows = true;
      s.split_every = variant == 1 ? 3 : 0;
      s.other_rank_info = variant == 2 ? 1 : 0;
      const SynthLog log = commlab_test::synth_log(s);
      ASSERT_NE(log.text.find(std::string("-1") + l.prefix), std::string::npos) << what(s);  // inside a row
      expect_read(log, what(s));
      const json a = fit(log.text);
      ASSERT_FALSE(a.contains("error")) << what(s) << ": " << a.dump();
      expect_fit(a["tables"][0], s, what(s));
    }
}

TEST(FitShapes, RcclUnderSrunToldFromTheTable) {
  // rccl-tests prints no test name; under srun --label nothing else names it. The redop and root
  // columns and busbw / algbw (with the Rank lines' count, or solved for it) tell the collective.
  struct Case {
    const char* collective;
    int ranks;
    const char* redop;
    int root;
    bool rank_lines;
    const char* from;
  };
  const Case cases[] = {
      {"all_reduce", 8, "sum", -1, true, "busbw / algbw 1.75 = 2(n-1)/n with n = 8, redop sum, root -1"},
      {"all_reduce", 16, "sum", -1, false, "busbw / algbw 1.875 = 2(n-1)/n with n = 16, redop sum, root -1"},
      {"reduce_scatter", 16, "sum", -1, true, "busbw / algbw 0.9375 = (n-1)/n with n = 16, redop sum, root -1"},
      {"reduce_scatter", 8, "max", -1, false, "busbw / algbw 0.875 = (n-1)/n with n = 8, redop max, root -1"},
      {"broadcast", 8, "none", 0, true, "busbw / algbw 1 = 1, redop none, root 0"},
      {"reduce", 8, "sum", 3, true, "busbw / algbw 1 = 1, redop sum, root 3"},
      {"sendrecv", 8, "sum", -1, true, "busbw / algbw 1 = 1, redop sum, root -1"},
  };
  for (const Case& c : cases) {
    SynthSpec s;
    s.rccl = true;
    s.prefix = " 0: ";
    s.prefix_inside_rows = true;
    s.other_rank_info = 1;
    s.collective = c.collective;
    s.ranks = c.ranks;
    s.redop = c.redop;
    s.root = c.root;
    s.preamble = c.rank_lines;
    s.alpha_s = 6e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 4096;
    s.max_bytes = 2147483648.0;
    const SynthLog log = commlab_test::synth_log(s);
    ASSERT_EQ(log.text.find("Collective test"), std::string::npos);
    ASSERT_EQ(log.text.find(std::string(c.collective) + "_perf"), std::string::npos);
    expect_read(log, what(s));
    const json a = fit(log.text);
    ASSERT_FALSE(a.contains("error")) << what(s) << ": " << a.dump();
    const json& t = a["tables"][0];
    EXPECT_EQ(t["collective_from"], c.from) << what(s);
    expect_fit(t, s, what(s));
  }
  // Two collectives print the same table: all-gather and all-to-all (redop none, root -1,
  // (n-1)/n); all-reduce on 2 ranks and send/recv (factor 1, redop sum, root -1). The error names
  // both and asks for the collective.
  struct Tie {
    const char* collective;
    int ranks;
    const char* redop;
    const char* both;
  };
  for (const Tie& tie : {Tie{"all_gather", 16, "none", "all_gather and alltoall"}, Tie{"alltoall", 8, "none", "all_gather and alltoall"},
                         Tie{"all_reduce", 2, "sum", "all_reduce and sendrecv"}}) {
    SynthSpec s;
    s.rccl = true;
    s.prefix = " 0: ";
    s.collective = tie.collective;
    s.ranks = tie.ranks;
    s.redop = tie.redop;
    s.min_bytes = 65536;
    const json a = fit(commlab_test::synth_log(s).text);
    ASSERT_TRUE(a.contains("error")) << a.dump().substr(0, 300);
    EXPECT_EQ(a["error"]["code"], "missing_field");
    const std::string m = a["error"]["message"];
    EXPECT_EQ(m.rfind("field 'collective': table 1 (", 0), 0u) << m;
    EXPECT_NE(m.find(std::string("its table fits ") + tie.both + " alike"), std::string::npos) << m;
    const std::string either = std::string(tie.both).replace(std::string(tie.both).find(" and "), 5, " or ");
    EXPECT_NE(m.find("give 'collective': " + either), std::string::npos) << m;
    // Given, it fits.
    const json b = fit(commlab_test::synth_log(s).text, {{"collective", tie.collective}});
    ASSERT_FALSE(b.contains("error")) << b.dump().substr(0, 300);
    EXPECT_EQ(b["tables"][0]["collective_from"], "request");
  }
  // A redop column of 10,000 letters: the error quotes its first 40 (messages stay under 4 KB).
  SynthSpec s;
  s.rccl = true;
  s.ranks = 2;
  s.redop = std::string(10000, 'q');
  s.min_bytes = 65536;
  const json a = fit(commlab_test::synth_log(s).text);
  ASSERT_TRUE(a.contains("error")) << a.dump().substr(0, 300);
  const std::string m = a["error"]["message"];
  EXPECT_LT(m.size(), 1000u) << m.size();
  EXPECT_NE(m.find("redop " + std::string(40, 'q') + ", root -1"), std::string::npos) << m.substr(0, 600);
}

TEST(FitPlateau, TheBandwidthBoundRowsLevelBesideTheBestRow) {
  // The example: all-reduce on 8 GPUs from 8 B to 8 GB, timed by the engine's NCCL model on
  // NVLink 4 (LL, LL128, Simple; ring or tree). One line through every size has a beta below
  // what the large rows measure; the plateau is their level.
  SynthSpec s;
  s.nccl_link = "nvlink4";
  s.max_bytes = 8589934592.0;
  s.seed = 13;
  const SynthLog log = commlab_test::synth_log(s);
  const json a = fit(log.text);
  ASSERT_FALSE(a.contains("error")) << a.dump();
  const json& t = a["tables"][0];
  double lo = 1e300, hi = 0, best = 0;
  json best_row;
  for (const json& r : t["rows"]) {
    const double b = r["busbw_Bps"];
    if (r["bytes"].get<double>() >= 536870912) lo = std::min(lo, b), hi = std::max(hi, b);
    if (b > best) best = b, best_row = r;
  }
  const double plateau = t["plateau_busbw_Bps"], beta = t["fit"]["beta_Bps"];
  EXPECT_GE(plateau, lo);
  EXPECT_LE(plateau, hi);
  EXPECT_LT(beta, 0.97 * plateau) << "beta " << beta << ", plateau " << plateau;  // the headline was beta
  EXPECT_LE(t["plateau_from_bytes"].get<double>(), 536870912);
  EXPECT_GE(t["plateau_rows"].get<int>(), 5);
  EXPECT_EQ(t["best_row"]["bytes"], best_row["bytes"]);
  EXPECT_EQ(t["best_row"]["busbw_Bps"], best);
  EXPECT_EQ(t["best_row"]["line"], best_row["line"]);
  EXPECT_EQ(t["nearest_link"]["id"], "nvlink4");
  EXPECT_DOUBLE_EQ(t["nearest_link"]["plateau_ratio"].get<double>(), plateau / t["nearest_link"]["beta_Bps"].get<double>());
  EXPECT_DOUBLE_EQ(t["nearest_link"]["ratio"].get<double>(), beta / t["nearest_link"]["beta_Bps"].get<double>());
}

TEST(FitPlateau, ACollapseADipAndARisingEnd) {
  SynthSpec s;
  s.max_bytes = 1073741824;
  s.noise = 0.005;
  const json plain = fit(commlab_test::synth_log(s).text)["tables"][0];
  const double level = plain["plateau_busbw_Bps"];
  // A collapse below the largest sizes ends the plateau above it.
  SynthSpec c = s;
  c.collapse_from = 67108864;
  c.collapse_to = 134217728;
  c.collapse_slowdown = 3;
  const json collapsed = fit(commlab_test::synth_log(c).text)["tables"][0];
  EXPECT_EQ(collapsed["plateau_from_bytes"], 268435456);
  EXPECT_EQ(collapsed["plateau_rows"], 3);
  EXPECT_LT(rel(collapsed["plateau_busbw_Bps"].get<double>(), level), 0.01);
  // A dip at the largest size is passed over: the level is the three largest sizes' median.
  SynthSpec d = s;
  d.collapse_from = d.collapse_to = 1073741824;
  d.collapse_slowdown = 1.3;
  const json dipped = fit(commlab_test::synth_log(d).text)["tables"][0];
  EXPECT_LT(rel(dipped["plateau_busbw_Bps"].get<double>(), level), 0.01);
  EXPECT_EQ(dipped["plateau_from_bytes"], plain["plateau_from_bytes"]);
  EXPECT_EQ(dipped["plateau_rows"].get<int>(), plain["plateau_rows"].get<int>() - 1);
  // A sweep that ends while the bus bandwidth still rises: its largest size alone.
  SynthSpec r = s;
  r.max_bytes = 4194304;
  const json rising = fit(commlab_test::synth_log(r).text)["tables"][0];
  EXPECT_EQ(rising["plateau_rows"], 1);
  EXPECT_EQ(rising["plateau_from_bytes"], 4194304);
  EXPECT_EQ(rising["plateau_busbw_Bps"], rising["rows"].back()["busbw_Bps"]);
  // Two sizes far apart: their median is within 5% of neither, so the larger alone.
  SynthSpec two = s;
  two.min_bytes = 65536;
  two.max_bytes = 262144;
  two.step_factor = 4;
  const json t = fit(commlab_test::synth_log(two).text)["tables"][0];
  ASSERT_EQ(t["rows"].size(), 2u);
  EXPECT_EQ(t["plateau_rows"], 1);
  EXPECT_EQ(t["plateau_from_bytes"], 262144);
  EXPECT_EQ(t["plateau_busbw_Bps"], t["rows"][1]["busbw_Bps"]);
  EXPECT_EQ(t["nearest_link"]["plateau_ratio"].get<double>(),
            t["plateau_busbw_Bps"].get<double>() / t["nearest_link"]["beta_Bps"].get<double>());
}

TEST(FitPlateau, TheCliLeadsWithThePlateauBesideTheBestRow) {
  const commlab_test::CliRun r =
      commlab_test::run_cli("fit " COMMLAB_SOURCE_DIR "/tests/fixtures/nccl/synthetic_nccl_protocols.txt");
  EXPECT_EQ(r.status, 0) << r.out;
  const json t = fit(commlab_test::read_file(COMMLAB_SOURCE_DIR "/tests/fixtures/nccl/synthetic_nccl_protocols.txt"))["tables"][0];
  char want[160];
  std::snprintf(want, sizeof want, "\n  bus bandwidth plateau %.4g GB/s (%d sizes from ", t["plateau_busbw_Bps"].get<double>() / 1e9,
                t["plateau_rows"].get<int>());
  const size_t at = r.out.find(want);
  ASSERT_NE(at, std::string::npos) << want << "\n" << r.out;
  EXPECT_LT(at, r.out.find("  T = ")) << r.out;  // the headline first, the fitted line after it
  std::snprintf(want, sizeof want, "; best row %.4g GB/s at 1.07 GB (line %d)\n", t["best_row"]["busbw_Bps"].get<double>() / 1e9,
                t["best_row"]["line"].get<int>());
  EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST(FitRegimes, NcclsProtocolsAreNamedWhereTheResidualsBend) {
  // The engine's NCCL model times all-reduce on 8 GPUs over NVLink 4 (tree with LL, then LL128,
  // ring with Simple): one ring line through every size is under the LL128 rows and over the
  // Simple ones, and the answer says which of NCCL's choices the rows span.
  const json t = fit(commlab_test::read_file(COMMLAB_SOURCE_DIR "/tests/fixtures/nccl/synthetic_nccl_protocols.txt"))["tables"][0];
  const json& g = t["regimes"];
  ASSERT_EQ(g.size(), 3u) << g.dump();
  const char* names[][2] = {{"tree", "LL"}, {"tree", "LL128"}, {"ring", "Simple"}};
  const double from[] = {8, 1048576, 67108864}, to[] = {524288, 33554432, 1073741824};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(g[i]["algorithm"], names[i][0]);
    EXPECT_EQ(g[i]["protocol"], names[i][1]);
    EXPECT_EQ(g[i]["from_bytes"], from[i]);
    EXPECT_EQ(g[i]["to_bytes"], to[i]);
  }
  EXPECT_GT(g[1]["mean_residual"].get<double>(), 0.05);  // slower than the line: LL128's share
  EXPECT_LT(g[2]["mean_residual"].get<double>(), -0.05);
  EXPECT_EQ(t["bend_bytes"], json::array({131072, 134217728}));
  bool named = false;
  for (const json& n : t["notes"])
    named |= n.get<std::string>().find("one line through NCCL's tree/LL (8 B to 524 KB), tree/LL128 (1.05 MB to 33.6 MB) and "
                                       "ring/Simple (67.1 MB to 1.07 GB), as the engine's NCCL model picks them on NVLink 4 "
                                       "(P5 §5.6), bends: its residuals change sign at 131 KB and 134 MB") == 0;
  EXPECT_TRUE(named) << t["notes"].dump();
  // One ring's times: the line does not bend, and no note says it does.
  const json ring = fit(commlab_test::read_file(COMMLAB_SOURCE_DIR "/tests/fixtures/nccl/synthetic_allreduce_current.txt"))["tables"][0];
  EXPECT_TRUE(ring["bend_bytes"].empty()) << ring["bend_bytes"];
  EXPECT_TRUE(ring["notes"].empty()) << ring["notes"];
  EXPECT_FALSE(ring["regimes"].empty());
}

TEST(FitRegimes, TheShapesOfRealLogsKeepThem) {
  SynthSpec plain;
  plain.nccl_link = "nvlink4";
  plain.seed = 13;
  const json want = fit(commlab_test::synth_log(plain).text)["tables"][0];
  ASSERT_EQ(want["regimes"].size(), 3u);
  ASSERT_EQ(want["bend_bytes"].size(), 2u);
  for (const char* launcher : kLaunchers)
    for (int variant = 0; variant < 2; ++variant) {
      SynthSpec s = plain;
      s.prefix = launcher;
      s.prefix_inside_rows = true;
      s.other_rank_info = 2;
      s.numeric_hosts = variant == 1;
      s.split_every = variant == 1 ? 5 : 0;
      s.rccl = variant == 1 && std::string(launcher) == " 0: ";
      const json t = fit(commlab_test::synth_log(s).text)["tables"][0];
      EXPECT_EQ(t["collective"], "all_reduce") << what(s);
      EXPECT_EQ(t["rows"].size(), want["rows"].size()) << what(s);
      ASSERT_EQ(t["regimes"].size(), want["regimes"].size()) << what(s);
      for (size_t i = 0; i < want["regimes"].size(); ++i) {
        json a = t["regimes"][i], b = want["regimes"][i];
        // rccl-tests prints times above 100 us with one decimal: the means move a little.
        EXPECT_NEAR(a["mean_residual"].get<double>(), b["mean_residual"].get<double>(), 1e-3) << what(s);
        a.erase("mean_residual");
        b.erase("mean_residual");
        EXPECT_EQ(a, b) << what(s);
      }
      EXPECT_EQ(t["bend_bytes"], want["bend_bytes"]) << what(s);
    }
}

// A log pasted from the middle of its Rank lines ("#  Rank 15 ..." alone above the table, as
// threads quote the tail of a long list): the run had at least the highest rank plus one.
TEST(FitShapes, RankLinesPastedFromTheirMiddle) {
  SynthSpec s;
  s.ranks = 16;
  s.alpha_s = 6e-6;
  s.beta_Bps = 40e9;
  s.min_bytes = 65536;
  const std::string full = commlab_test::synth_log(s).text;
  std::string cut;
  size_t kept = 0;
  for (size_t at = 0; at < full.size();) {
    const size_t end = std::min(full.find('\n', at), full.size());
    const std::string line = full.substr(at, end - at);
    const bool rank_line = line.find("#  Rank ") != std::string::npos;
    if (!rank_line || line.find("Rank 15 ") != std::string::npos) cut += line + "\n", kept += rank_line;
    at = end + 1;
  }
  ASSERT_EQ(kept, 1u) << full.substr(0, 800);
  const json a = fit(cut);
  ASSERT_FALSE(a.contains("error")) << a.dump().substr(0, 400);
  const json& t = a["tables"][0];
  EXPECT_EQ(t["ranks"], 16);
  EXPECT_EQ(t["ranks_from"].get<std::string>().rfind("Rank lines (1 of them, the highest rank 15) (line ", 0), 0u)
      << t["ranks_from"];
  EXPECT_LT(rel(t["fit"]["beta_Bps"].get<double>(), 40e9), 0.03);
  EXPECT_TRUE(t["notes"].empty()) << t["notes"];
}
