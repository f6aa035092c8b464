// NCCL's INFO lines read back into the structure they were made from (core/OPS.md "nccl.topology"):
// every print format since 2.3, launcher prefixes, many ranks' lines interleaved, several
// communicators, cut rings, unknown and refused lines; then the lecture's model on that structure
// (P5 §5.1, §5.5): the hops that cross nodes, the binding link, the predicted bus bandwidth, and
// the verdict beside an nccl-tests table of the same log. The logs come from
// tests/nccl_synth_topology.hpp or are written here line by line; none is copied.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>

#include "api/api.hpp"
#include "measured/nccl_topology.hpp"
#include "nccl_synth_topology.hpp"
#include "test_cli.hpp"
#include "test_files.hpp"

using commlab_test::TopoSynthComm;
using commlab_test::TopoSynthRun;
using commlab_test::TopoSynthShape;
using nlohmann::json;

namespace {

json topo(const std::string& log, json extra = json::object()) {
  extra["op"] = "nccl.topology";
  extra["log"] = log;
  return commlab::evaluate(extra);
}

TopoSynthRun run_of(int ranks, int nodes, int channels, const std::string& format = "2.23") {
  TopoSynthRun run;
  run.comms[0].ranks = ranks;
  run.comms[0].nodes = nodes;
  run.comms[0].channels = channels;
  run.format = format;
  return run;
}

// The ring of channel `ch` as rank 0 prints it.
std::vector<int> ring_of(const TopoSynthComm& c, int ch) {
  const TopoSynthShape s{c};
  std::vector<int> ring;
  for (int q = 0, k = 0; k < c.ranks; ++k, q = s.next(ch, q)) ring.push_back(q);
  return ring;
}

// The structure without line numbers: rings, trees, connections (as sets), nodes.
json structure(const json& comm) {
  json out = {{"ranks", comm["ranks"]}, {"nodes", comm["nodes"]}, {"version", comm.value("version", "")}};
  for (const json& ch : comm["channels"])
    out["rings"].push_back({ch["channel"], ch["ring"], ch["complete"], ch.value("rebuilt_ring", json::array())});
  std::set<std::string> trees, conns;
  for (const json& t : comm["trees"]) trees.insert(t.dump());
  for (const json& k : comm["connections"]) conns.insert(k.dump());
  out["trees"] = trees;
  out["connections"] = conns;
  return out;
}

std::string code(const json& a) { return a.contains("error") ? a["error"]["code"].get<std::string>() : ""; }
std::string message(const json& a) { return a.contains("error") ? a["error"]["message"].get<std::string>() : ""; }

}  // namespace

TEST(Topology, CurrentFormatGivesTheRingsTreesConnectionsHostsAndVersion) {
  const TopoSynthRun run = run_of(16, 2, 4);
  const json a = topo(commlab_test::topo_synth_log(run));
  ASSERT_FALSE(a.contains("error")) << a.dump();
  ASSERT_EQ(a["communicators"].size(), 1u);
  const json& c = a["communicators"][0];
  EXPECT_EQ(c["ranks"], 16);
  EXPECT_EQ(c["ranks_from"], "nRanks");
  EXPECT_EQ(c["comm_id"], "0x5c1e0b7dfa1b2c3d");
  EXPECT_EQ(c["version"], "2.23.4+cuda12.6");
  ASSERT_EQ(c["nodes"].size(), 2u);
  EXPECT_EQ(c["nodes"][1]["host"], "node-1");
  EXPECT_EQ(c["nodes"][1]["ranks"], json({8, 9, 10, 11, 12, 13, 14, 15}));
  ASSERT_EQ(c["channels"].size(), 4u);
  for (int ch = 0; ch < 4; ++ch) {
    EXPECT_EQ(c["channels"][ch]["ring"], json(ring_of(run.comms[0], ch))) << ch;
    EXPECT_TRUE(c["channels"][ch]["complete"].get<bool>());
    EXPECT_FALSE(c["channels"][ch].contains("rebuilt_ring"));
  }
  // Every rank's tree on every channel, as the generator built it: children->rank->parent.
  ASSERT_EQ(c["trees"].size(), 64u);
  const TopoSynthShape s{run.comms[0]};
  for (const json& t : c["trees"]) {
    int up = -2, d[3];
    s.tree(t["channel"], t["rank"], &up, d);
    EXPECT_EQ(t["parent"], up) << t.dump();
    std::vector<int> kids;
    for (int k : d)
      if (k >= 0) kids.push_back(k);
    EXPECT_EQ(t["children"], json(kids)) << t.dump();
  }
  // 64 sends (P2P inside a node, NET/IB [send] out of it) and 8 receives.
  int p2p = 0, send = 0, receive = 0;
  for (const json& k : c["connections"]) {
    const std::string tr = k["transport"];
    p2p += tr == "P2P/CUMEM/read";
    send += k.value("direction", "") == "send";
    receive += k.value("direction", "") == "receive";
    if (k.value("direction", "") != "") {
      EXPECT_EQ(tr.rfind("NET/IB/", 0), 0u) << k.dump();
      EXPECT_NE(k["from"].get<int>() / 8, k["to"].get<int>() / 8) << k.dump();
    }
  }
  EXPECT_EQ(p2p, 56);
  EXPECT_EQ(send, 8);
  EXPECT_EQ(receive, 8);
  EXPECT_EQ(c["connections"].size(), 72u);
  EXPECT_EQ(a["rejected_lines"], 0);
}

TEST(Topology, EveryOlderFormatGivesTheSameStructure) {
  const json current = structure(topo(commlab_test::topo_synth_log(run_of(16, 2, 4)))["communicators"][0]);
  struct Case {
    const char* format;
    const char* version;
    bool trees, comm_id;
    size_t connections;
  };
  // 2.3 prints no trees, and a NET connection only at its receiver, without [receive].
  for (const Case& k : {Case{"2.19", "2.19.3+cuda12.3", true, true, 72}, Case{"2.12", "2.12.12+cuda11.7", true, false, 72},
                        Case{"2.7", "2.7.8+cuda11.0", true, false, 72}, Case{"2.4", "2.4.8+cuda10.1", true, false, 72},
                        Case{"2.3", "2.3.7+cuda9.2", false, false, 64}}) {
    const json a = topo(commlab_test::topo_synth_log(run_of(16, 2, 4, k.format)));
    ASSERT_FALSE(a.contains("error")) << k.format << ": " << a.dump();
    ASSERT_EQ(a["communicators"].size(), 1u) << k.format;
    const json& c = a["communicators"][0];
    const json s = structure(c);
    EXPECT_EQ(s["version"], k.version);
    EXPECT_EQ(s["rings"], current["rings"]) << k.format;
    EXPECT_EQ(s["nodes"], current["nodes"]) << k.format;
    EXPECT_EQ(c.contains("comm_id"), k.comm_id) << k.format;
    EXPECT_EQ(c["ranks"], 16) << k.format;
    if (k.trees) EXPECT_EQ(s["trees"], current["trees"]) << k.format;
    else EXPECT_TRUE(c["trees"].empty()) << k.format;
    EXPECT_EQ(c["connections"].size(), k.connections) << k.format;
    // The hops and their transports, whatever the format's words for them.
    const json& e = c["explanation"];
    ASSERT_EQ(e["channels"].size(), 4u) << k.format;
    for (const json& ch : e["channels"]) {
      EXPECT_EQ(ch["by_class"]["network"], 2) << k.format;
      EXPECT_EQ(ch["by_class"]["nvlink"], 14) << k.format;
    }
    EXPECT_EQ(e["predicted_busbw_Bps"], 160e9) << k.format;
  }
}

TEST(Topology, OldTreeFormatsAreReadByWhereTheirSlashesAre) {
  // 2.4: parent->rank->children; 2.5-2.7: up tree | down tree; 2.8 on: children->rank->parent.
  const std::string p = "n0:1:1 [0] NCCL INFO ";
  for (const std::string& line : {p + "Trees [0] -1->0->1/2/-1 [1] 3->0->-1/-1/-1",
                                  p + "Trees [0] 1/2/-1->0->-1|-1->0->1/2/-1 [1] -1/-1/-1->0->3|3->0->-1/-1/-1",
                                  p + "Trees [0] 1/2/-1->0->-1 [1] -1/-1/-1->0->3", p + "Tree 0 : -1 -> 0 -> 1/2/-1\n" + p + "Tree 1 : 3 -> 0 -> -1/-1/-1"}) {
    const json a = topo(line + "\n");
    ASSERT_FALSE(a.contains("error")) << line << ": " << a.dump();
    const json& t = a["communicators"][0]["trees"];
    ASSERT_EQ(t.size(), 2u) << line;
    EXPECT_EQ(t[0], json({{"channel", 0}, {"rank", 0}, {"parent", -1}, {"children", {1, 2}}})) << line;
    EXPECT_EQ(t[1], json({{"channel", 1}, {"rank", 0}, {"parent", 3}, {"children", json::array()}})) << line;
  }
}

TEST(Topology, EveryLauncherPrefixAndOrderGivesTheSameStructure) {
  TopoSynthRun run = run_of(16, 2, 4);
  const json plain = structure(topo(commlab_test::topo_synth_log(run))["communicators"][0]);
  for (const char* launcher : {"openmpi", "intelmpi", "srun"})
    for (bool interleave : {true, false}) {
      run.launcher = launcher;
      run.interleave = interleave;
      const std::string log = commlab_test::topo_synth_log(run);
      const json a = topo(log);
      ASSERT_FALSE(a.contains("error")) << launcher;
      ASSERT_EQ(a["communicators"].size(), 1u) << launcher;
      EXPECT_EQ(structure(a["communicators"][0]), plain) << launcher << (interleave ? " interleaved" : " grouped");
    }
  // The prefix is there to be taken off.
  run.launcher = "openmpi";
  EXPECT_NE(commlab_test::topo_synth_log(run).find("[1,9]<stdout>:node-1:41009:41009 [1] NCCL INFO"), std::string::npos);
}

TEST(Topology, CommunicatorsAreToldApartByCommIdRankCountOrOrder) {
  // A 16-rank communicator, then one of node 1's 8 ranks (a tensor-parallel group).
  for (const char* format : {"2.23", "2.19", "2.12", "2.7", "2.4"}) {
    TopoSynthRun run = run_of(16, 2, 2, format);
    TopoSynthComm tp;
    tp.ranks = 8;
    tp.nodes = 1;
    tp.channels = 2;
    tp.first_process = 8;
    run.comms.push_back(tp);
    const json a = topo(commlab_test::topo_synth_log(run));
    ASSERT_FALSE(a.contains("error")) << format;
    ASSERT_EQ(a["communicators"].size(), 2u) << format << ": " << a.dump().substr(0, 500);
    const json& big = a["communicators"][0];
    const json& small = a["communicators"][1];
    EXPECT_EQ(big["ranks"], 16) << format;
    EXPECT_EQ(small["ranks"], 8) << format;
    EXPECT_EQ(small["nodes"], json::parse(R"([{"host":"node-1","ranks":[0,1,2,3,4,5,6,7]}])")) << format;
    EXPECT_EQ(small["channels"][1]["ring"], json(ring_of(tp, 1))) << format;
    EXPECT_EQ(small["explanation"]["bottleneck"], "nvlink") << format;
    EXPECT_EQ(big["explanation"]["bottleneck"], "network") << format;
    EXPECT_EQ(big["connections"].size(), 2u * 16 + 2 * 2) << format;
    EXPECT_EQ(small["connections"].size(), 2u * 8) << format;
    for (const json& k : small["connections"]) EXPECT_EQ(k["transport"].get<std::string>().substr(0, 3), "P2P") << format;
  }
  // Two of one rank count in the same processes, one after another, without a commId (2.12).
  TopoSynthRun run = run_of(8, 1, 2, "2.12");
  run.comms.push_back(run.comms[0]);
  run.comms[1].channels = 3;
  const json a = topo(commlab_test::topo_synth_log(run));
  ASSERT_EQ(a["communicators"].size(), 2u);
  EXPECT_EQ(a["communicators"][0]["channels"].size(), 2u);
  EXPECT_EQ(a["communicators"][1]["channels"].size(), 3u);
  EXPECT_TRUE(a["communicators"][1]["notes"].empty()) << a["communicators"][1]["notes"];
  // One commId printed with two rank counts (two logs pasted together): two communicators.
  const std::string start = " NCCL INFO ncclCommInitRank comm 0xa rank 1 nranks ";
  const json b = topo("h:1:1 [0]" + start + "2 cudaDev 0 nvmlDev 0 busId 1 commId 0x7 - Init START\n" +
                      "h:1:1 [0] NCCL INFO Trees [0] -1/-1/-1->1->0\n" +
                      "h:2:2 [0]" + start + "8 cudaDev 0 nvmlDev 0 busId 1 commId 0x7 - Init START\n" +
                      "h:2:2 [0] NCCL INFO Trees [0] 5/-1/-1->1->0\n");
  ASSERT_EQ(b["communicators"].size(), 2u) << b.dump();
  EXPECT_EQ(b["communicators"][0]["ranks"], 2);
  EXPECT_EQ(b["communicators"][1]["ranks"], 8);
  EXPECT_EQ(b["communicators"][1]["trees"][0]["children"], json({5}));
}

TEST(Topology, LinesWithoutCommunicatorLinesFormOneUntilAChannelRepeats) {
  // Pasted lines, no prefix: two rings of channel 0 of different rank counts are two communicators.
  const json a = topo("Channel 00/02 :  0  1  2  3\nChannel 01/02 :  0  3  2  1\nChannel 00/01 : 0 1\n");
  ASSERT_EQ(a["communicators"].size(), 2u) << a.dump();
  EXPECT_EQ(a["communicators"][0]["ranks"], 4);
  EXPECT_EQ(a["communicators"][0]["ranks_from"], "highest rank seen");
  EXPECT_EQ(a["communicators"][1]["ranks"], 2);
  EXPECT_TRUE(a["communicators"][1]["channels"][0]["complete"].get<bool>());
  EXPECT_EQ(a["communicators"][0]["nodes"], json::array());
}

TEST(Topology, ConnectionsMadeAfterInitGoToTheRankThatPrintedThem) {
  // 2.22's lazy connect: the caller's thread prints them after Init COMPLETE, for either of two
  // communicators of its process; the printing rank tells which.
  const std::string h = "n0:7:", i = " NCCL INFO ";
  const std::string log =
      h + "7 [0]" + i + "ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init START\n" +
      h + "7 [0]" + i + "Channel 00/01 : 0 1\n" +
      h + "7 [0]" + i + "ncclCommInitRank comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0x1 - Init COMPLETE\n" +
      h + "9 [0]" + i + "ncclCommInitRank comm 0xb rank 1 nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0x2 - Init START\n" +
      h + "9 [0]" + i + "ncclCommInitRank comm 0xb rank 1 nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0x2 - Init COMPLETE\n" +
      h + "8 [0]" + i + "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n" +
      h + "8 [0]" + i + "Channel 00/0 : 1[0] -> 2[2] [send] via NET/IB/0(3)/GDRDMA(PCI)/Shared\n";
  const json a = topo(log);
  ASSERT_EQ(a["communicators"].size(), 2u) << a.dump();
  EXPECT_EQ(a["communicators"][0]["connections"], json::parse(R"([{"channel":0,"conn":0,"from":0,"to":1,"transport":"P2P/CUMEM/read"}])"));
  EXPECT_EQ(a["communicators"][1]["connections"][0]["transport"], "NET/IB/0(3)/GDRDMA(PCI)/Shared");
  EXPECT_EQ(a["communicators"][1]["connections"][0]["direction"], "send");
}

TEST(Topology, ACutRingIsIncompleteAndRebuiltFromEveryRanksRingLines) {
  TopoSynthRun run = run_of(64, 8, 2);  // 64 ranks: " %2d" a rank, cut at 128 characters
  const std::string log = commlab_test::topo_synth_log(run);
  ASSERT_NE(log.find("..."), std::string::npos);
  const json a = topo(log);
  const json& ch = a["communicators"][0]["channels"][1];
  EXPECT_FALSE(ch["complete"].get<bool>());
  EXPECT_LT(ch["ring"].size(), 64u);
  EXPECT_EQ(ch["rebuilt_ring"], json(ring_of(run.comms[0], 1)));
  const json& e = a["communicators"][0]["explanation"];
  EXPECT_EQ(e["rings"], 2);
  EXPECT_TRUE(e["channels"][0]["rebuilt"].get<bool>());
  EXPECT_EQ(e["channels"][0]["cross_node_hops"], 8);
  // Without NCCL_DEBUG_SUBSYS=GRAPH nothing rebuilds it: no ring, no prediction, and the sentence says why.
  run.prev_next = false;
  const json b = topo(commlab_test::topo_synth_log(run));
  const json& f = b["communicators"][0]["explanation"];
  EXPECT_FALSE(b["communicators"][0]["channels"][0].contains("rebuilt_ring"));
  EXPECT_EQ(f["rings"], 0);
  EXPECT_FALSE(f.contains("predicted_busbw_Bps"));
  EXPECT_NE(f["sentence"].get<std::string>().find("NCCL_DEBUG_SUBSYS=INIT,GRAPH"), std::string::npos);
  // Before 2.23 dumpLine stopped at 20 ranks without a mark.
  const json c = topo(commlab_test::topo_synth_log(run_of(32, 4, 2, "2.19")));
  EXPECT_EQ(c["communicators"][0]["channels"][0]["ring"].size(), 20u);
  EXPECT_FALSE(c["communicators"][0]["channels"][0]["complete"].get<bool>());
  EXPECT_EQ(c["communicators"][0]["channels"][0]["rebuilt_ring"].size(), 32u);
}

TEST(Topology, ALogWithoutTopologyLinesSaysWhichSettingsPrintThem) {
  for (const std::string& log :
       {std::string(""), std::string("hello\nworld\n"),
        std::string("n0:1:1 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1 commId 0x5 - Init COMPLETE\n"),
        std::string("#  Rank  0 Group  0 Pid  41000 on     node-0 device  0 [0000:18:00] NVIDIA H100\n")}) {
    const json a = topo(log);
    EXPECT_EQ(code(a), "invalid_value") << log;
    const std::string m = message(a);
    EXPECT_NE(m.find("field 'log': no NCCL topology lines found"), std::string::npos) << m;
    EXPECT_NE(m.find("NCCL_DEBUG=INFO"), std::string::npos) << m;
    EXPECT_NE(m.find("NCCL_DEBUG_SUBSYS=INIT,GRAPH"), std::string::npos) << m;
  }
  EXPECT_NE(message(topo("n0:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n"))
                .find("1 communicator named"),
            std::string::npos);
  EXPECT_EQ(code(topo("x", {{"nvlink", "warp"}})), "unknown_value");
  EXPECT_EQ(code(topo("x", {{"nic", 5}})), "invalid_type");
  EXPECT_EQ(code(topo("x", {{"ranks", 5}})), "unknown_field");
  EXPECT_EQ(code(commlab::evaluate(json{{"op", "nccl.topology"}, {"log", 5}})), "invalid_type");
  EXPECT_EQ(code(commlab::evaluate(json{{"op", "nccl.topology"}})), "missing_field");
}

TEST(Topology, UnknownLinesAreCountedAndRefusedLinesNamed) {
  const TopoSynthRun run = run_of(8, 1, 2);
  const std::string log = commlab_test::topo_synth_log(run);
  const json a = topo(log);
  const std::string extra =
      "some job output\n"
      "n0:1:1 [0] NCCL INFO Channel 99/04 :  0  1\n"
      "n0:1:1 [0] NCCL INFO comm 0x1 rank 5 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0\n"
      "n0:1:1 [0] NCCL INFO Trees [0] 1/-1/-1->0->2000000\n"
      "n0:1:1 [0] NCCL WARN Channel 00/02 :  0  1\n"
      "\n   \n";
  const json b = topo(extra + log);
  ASSERT_FALSE(b.contains("error")) << b.dump();
  EXPECT_EQ(b["skipped_lines"], a["skipped_lines"].get<int>() + 5);
  EXPECT_EQ(b["rejected_lines"], 3);
  ASSERT_EQ(b["rejected"].size(), 3u);
  EXPECT_EQ(b["rejected"][0]["line"], 2);
  EXPECT_EQ(b["rejected"][0]["reason"], "channel 99 is past NCCL's MAXCHANNELS (64); allowed: 0 to 63");
  EXPECT_EQ(b["rejected"][1]["reason"], "rank 5 of a communicator of 2 ranks; allowed: 0 to 1");
  EXPECT_EQ(b["rejected"][2]["reason"], "a parent 2000000 is not a rank the engine models; allowed: 0 to 1048575");
  EXPECT_EQ(structure(b["communicators"][0]), structure(a["communicators"][0]));
  EXPECT_EQ(b["lines"], a["lines"].get<int>() + 7);
}

TEST(Topology, SixteenRanksOnTwoNodesPredictTheNicsBusBandwidth) {
  // 8 GPUs a node, NVLink inside, one 400 Gb/s NIC a GPU; 16 channels: each ring crosses between
  // the nodes twice, channels c and c + 8 leave a node from the same GPU and NIC.
  TopoSynthRun run = run_of(16, 2, 16);
  run.table_busbw_Bps = 300e9;
  const json a = topo(commlab_test::topo_synth_log(run));
  ASSERT_FALSE(a.contains("error")) << a.dump();
  const json& e = a["communicators"][0]["explanation"];
  ASSERT_EQ(e["channels"].size(), 16u);
  for (const json& ch : e["channels"]) {
    EXPECT_EQ(ch["hops"], 16);
    EXPECT_EQ(ch["cross_node_hops"], 2);
    EXPECT_EQ(ch["by_class"], json::parse(R"({"network":2,"nvlink":14,"shm":0,"unknown":0})"));
    EXPECT_EQ(ch["bottleneck"], "network");
  }
  EXPECT_EQ(e["bottleneck"], "network");
  ASSERT_EQ(e["bounds"].size(), 3u);
  // InfiniBand NDR: 400 Gb/s = 50 GB/s x 0.8 = 40 GB/s a NIC; each NIC carries 2 of 16 rings:
  // 8 NICs' worth, 320 GB/s.
  EXPECT_EQ(e["bounds"][0], json::parse(R"({"beta_Bps":4e10,"busbw_Bps":3.2e11,"kind":"network","link":"ib_ndr",
                                              "links_in_parallel":8.0,"max_hops_per_link":2})"));
  // NVLink 4 (360 GB/s effective) carries 14 of the 16 rings out of each GPU; the cap is one GPU's NVLink.
  EXPECT_EQ(e["bounds"][1]["kind"], "nvlink");
  EXPECT_EQ(e["bounds"][1]["max_hops_per_link"], 14);
  EXPECT_NEAR(e["bounds"][1]["busbw_Bps"].get<double>(), 360e9 * 16 / 14, 1);
  EXPECT_EQ(e["bounds"][2]["kind"], "gpu_link");
  EXPECT_EQ(e["bounds"][2]["busbw_Bps"], 360e9);
  EXPECT_EQ(e["predicted_busbw_Bps"], 320e9);
  ASSERT_EQ(e["links"].size(), 2u);
  EXPECT_EQ(e["links"][0]["id"], "nvlink4");
  EXPECT_EQ(e["links"][1]["id"], "ib_ndr");
  const std::string assumptions = e["assumptions"].dump();
  for (const char* said : {"nominal x 0.8", "nvlink4 (default: the H100's)", "ib_ndr", "node-0 8, node-1 8", "beta x C / L"})
    EXPECT_NE(assumptions.find(said), std::string::npos) << said << " in " << assumptions;
  // The nccl-tests table of the same log: about 300 GB/s at 1 GiB, within 10% of 320.
  EXPECT_EQ(e["measured"]["table"], 1);
  EXPECT_EQ(e["measured"]["bytes"], 1073741824);
  const double measured = e["measured"]["busbw_Bps"];
  EXPECT_GT(measured, 285e9);
  EXPECT_LT(measured, 300e9);
  EXPECT_EQ(e["verdict"], "matches");
  EXPECT_NEAR(e["deviation_percent"].get<double>(), (measured / 320e9 - 1) * 100, 1e-9);
  EXPECT_EQ(e["sentence"].get<std::string>().rfind("Measured " + commlab_test::format("%.4g", measured / 1e9) + " GB/s bus bandwidth at 1.074 GB", 0), 0u)
      << e["sentence"];
  EXPECT_NE(e["sentence"].get<std::string>().find("within 10% of the 320 GB/s"), std::string::npos) << e["sentence"];
}

TEST(Topology, TheVerdictFollowsTheNumbers) {
  TopoSynthRun run = run_of(16, 2, 16);
  run.table_busbw_Bps = 200e9;
  json e = topo(commlab_test::topo_synth_log(run))["communicators"][0]["explanation"];
  EXPECT_EQ(e["verdict"], "below");
  EXPECT_LT(e["deviation_percent"].get<double>(), -37);
  EXPECT_NE(e["sentence"].get<std::string>().find("% below the 320 GB/s"), std::string::npos) << e["sentence"];
  // Above a ring's bound: NVLS when the log says so.
  run.table_busbw_Bps = 480e9;
  run.nvls = true;
  const json a = topo(commlab_test::topo_synth_log(run));
  e = a["communicators"][0]["explanation"];
  EXPECT_EQ(e["verdict"], "above");
  EXPECT_EQ(e["in_switch"], "nvls");
  EXPECT_NE(e["sentence"].get<std::string>().find("the log shows NVLS (line"), std::string::npos) << e["sentence"];
  ASSERT_EQ(a["in_switch"].size(), 1u);
  EXPECT_EQ(a["in_switch"][0]["says"], "nvls");
  run.nvls = false;
  e = topo(commlab_test::topo_synth_log(run))["communicators"][0]["explanation"];
  EXPECT_EQ(e["in_switch"], "");
  // No table of this rank count: no measurement, no verdict.
  run.table_busbw_Bps = 0;
  e = topo(commlab_test::topo_synth_log(run))["communicators"][0]["explanation"];
  EXPECT_FALSE(e.contains("measured"));
  EXPECT_FALSE(e.contains("verdict"));
  EXPECT_EQ(e["sentence"].get<std::string>().substr(0, 32), "The model predicts 320 GB/s bus ");
}

TEST(Topology, TheBoundFollowsTheNicsChannelsLinksAndTransports) {
  auto predicted = [](TopoSynthRun run, json extra = json::object()) {
    const json a = topo(commlab_test::topo_synth_log(run), extra);
    return a["communicators"][0]["explanation"]["predicted_busbw_Bps"].get<double>();
  };
  TopoSynthRun run = run_of(16, 2, 16);
  run.comms[0].nics = 1;  // every ring through NIC 0: 16 rings on one NIC
  EXPECT_EQ(predicted(run), 40e9);
  run.comms[0].nics = 2;
  EXPECT_EQ(predicted(run), 80e9);
  EXPECT_EQ(predicted(run_of(16, 2, 4)), 160e9);  // 4 rings, 4 NICs
  // Ethernet 25 Gb/s: 3.125 GB/s x 0.8 = 2.5 GB/s a NIC, 8 NICs' worth.
  EXPECT_NEAR(predicted(run_of(16, 2, 16), {{"nic", "ethernet"}}), 20e9, 1);
  EXPECT_EQ(predicted(run_of(8, 1, 8)), 360e9);  // one node: NVLink
  EXPECT_EQ(predicted(run_of(8, 1, 8), {{"gpu", "b200"}}), 720e9);
  EXPECT_EQ(predicted(run_of(8, 1, 8), {{"gpu", "b200"}, {"nvlink", "pcie5"}}), 51.2e9);
  run = run_of(16, 2, 16);
  run.comms[0].net = "Socket";
  EXPECT_NEAR(predicted(run), 20e9, 1);  // NET/Socket: priced as Ethernet whatever 'nic' says
  run = run_of(8, 1, 4);
  run.comms[0].shm = true;
  const json a = topo(commlab_test::topo_synth_log(run));
  const json& e = a["communicators"][0]["explanation"];
  EXPECT_EQ(e["bottleneck"], "shm");
  EXPECT_EQ(e["predicted_busbw_Bps"], 51.2e9);
  EXPECT_EQ(e["links"][1]["id"], "pcie5");
}

TEST(Topology, CountsAreBoundedAndHugeRankCountsCostNothing) {
  // A printed nRanks of 2^20: the communicator has that many ranks, and nothing is sized by it.
  const json a = topo("n0:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 1048576 nNodes 1 localRanks 1 localRank 0 MNNVL 0\n"
                      "n0:1:1 [0] NCCL INFO Channel 00/01 : 0 1\n");
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["communicators"][0]["ranks"], 1048576);
  EXPECT_FALSE(a["communicators"][0]["channels"][0]["complete"].get<bool>());
  EXPECT_EQ(code(topo("n0:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 1048577 nNodes 1\nChannel 00/01 : 0\n")), "");
  EXPECT_EQ(topo("comm 0x1 rank 0 nRanks 1048577\nChannel 00/01 : 0\n")["rejected"][0]["reason"],
            "nRanks 1048577 is not a rank count the engine models; allowed: 1 to 1048576");
  const std::string long_line(8000001, 'x');
  EXPECT_EQ(code(topo(long_line)), "too_large");
  EXPECT_NE(message(topo(long_line)).find("allowed: at most 8000000 bytes"), std::string::npos);
  EXPECT_EQ(code(topo(std::string(200001, '\n'))), "too_large");
  // More communicators than a request may hold.
  std::string many;
  for (int i = 0; i <= commlab::kMaxTopologyCommunicators; ++i)
    many += commlab_test::format("Channel 00/01 : 0\n");
  EXPECT_EQ(code(topo(many)), "too_large");
  EXPECT_NE(message(topo(many)).find("1025 communicators; allowed: at most 1024"), std::string::npos) << message(topo(many));
}

TEST(Topology, MangledLogsAreAnsweredNeverThrown) {
  const std::string log = commlab_test::topo_synth_log(run_of(16, 2, 4, "2.19"));
  commlab_test::SynthRandom rng(7);
  for (int i = 0; i < 300; ++i) {
    std::string m = log;
    for (int k = 0; k < 20; ++k) {
      const size_t at = rng.next() % m.size();
      const char* junk[] = {"->", "/", "[", "]", " ", "-1", "999999999", "\n", "...", "0x", "|", "Init COMPLETE"};
      if (rng.next() % 3 == 0) m.erase(at, rng.next() % 40);
      else m.insert(at, junk[rng.next() % 12]);
    }
    const json a = topo(m);
    ASSERT_TRUE(a.is_object());
    if (a.contains("error")) {
      EXPECT_NE(code(a), "internal") << a.dump();
      continue;
    }
    for (const json& c : a["communicators"])
      for (const json& ch : c["channels"]) {
        EXPECT_LT(ch["channel"].get<int>(), 64);
        if (ch["complete"].get<bool>()) {
          EXPECT_EQ(ch["ring"].size(), c["ranks"].get<size_t>());
        }
      }
  }
}

TEST(Topology, TheCliPrintsASummaryAndTheAnswer) {
  TopoSynthRun run = run_of(16, 2, 16);
  run.table_busbw_Bps = 300e9;
  const std::string path = testing::TempDir() + "topology_16.log";
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  const std::string log = commlab_test::topo_synth_log(run);
  std::fwrite(log.data(), 1, log.size(), f);
  std::fclose(f);
  const commlab_test::CliRun text = commlab_test::run_cli("topology " + path);
  EXPECT_EQ(text.status, 0) << text.out;
  for (const char* said : {"1 communicator", "16 ranks on 2 nodes (node-0: 0-7, node-1: 8-15)", "NCCL 2.23.4+cuda12.6",
                           "16 channels, 16 complete rings", "bottleneck network", "predicted 320 GB/s", "matches"})
    EXPECT_NE(text.out.find(said), std::string::npos) << said << " in\n" << text.out;
  const commlab_test::CliRun as_json = commlab_test::run_cli("topology --json - < " + path);
  EXPECT_EQ(as_json.status, 0);
  EXPECT_EQ(json::parse(as_json.out), topo(log));
  const commlab_test::CliRun bad = commlab_test::run_cli("topology /dev/null");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("/dev/null: field 'log': no NCCL topology lines found"), std::string::npos) << bad.out;
  EXPECT_EQ(commlab_test::run_cli("topology --nic warp " + path).status, 1);
  EXPECT_EQ(commlab_test::run_cli("topology --bogus " + path).status, 2);
}

TEST(Topology, TheMeasuredViewsSampleIsWhatTheGeneratorWrites) {
  // tests/fixtures/nccl/synthetic_topology_two_nodes.txt, the page's sample of what NCCL built:
  // its first line says how it was made; a change to the generator shows here.
  TopoSynthRun run = run_of(16, 2, 8);
  run.table_busbw_Bps = 290e9;
  const std::string file = commlab_test::read_file(std::string(COMMLAB_SOURCE_DIR) + "/tests/fixtures/nccl/synthetic_topology_two_nodes.txt");
  const size_t first = file.find('\n');
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(file.substr(first + 1), commlab_test::topo_synth_log(run));
  const json a = topo(file);
  ASSERT_FALSE(a.contains("error")) << a.dump();
  EXPECT_EQ(a["communicators"][0]["explanation"]["verdict"], "matches");
}
