// The "simulate" op: answers, and a table of bad inputs that must come back as errors naming
// the field, the value and what is allowed.
#include <gtest/gtest.h>

#include "api/api.hpp"

using nlohmann::json;

namespace {
json eval(const std::string& text) { return json::parse(commlab::evaluate(text)); }
}  // namespace

TEST(SimulateOp, RingAllreduceEqualsClosedFormAndVerifies) {
  const json out = eval(R"({"op":"simulate","devices":8,"bytes":8e6,"link":"nvlink4","mode":"data"})");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("algorithm"), "ring");
  EXPECT_EQ(out.at("mode"), "data");
  EXPECT_EQ(out.at("verified"), true);
  EXPECT_EQ(out.at("steps"), 14);
  EXPECT_EQ(out.at("messages"), 112);
  EXPECT_NEAR(out.at("time_s").get<double>(), out.at("closed_form").at("time_s").get<double>(), 1e-15);
  EXPECT_DOUBLE_EQ(out.at("bytes_sent_per_device").get<double>(), 14e6);
  const json& sched = out.at("schedule");
  EXPECT_EQ(sched.at("steps").size(), 14u);
  EXPECT_EQ(sched.at("steps")[0].at("trace").size(), 8u);
  EXPECT_EQ(sched.at("steps")[0].at("trace")[0].at("op"), "reduce");
  EXPECT_EQ(sched.at("trace_truncated"), false);
  EXPECT_EQ(out.at("per_device").at("bytes_sent").size(), 8u);
}

TEST(SimulateOp, AccountingScalesAndTruncatesTheTrace) {
  const json out = eval(R"({"op":"simulate","devices":1024,"bytes":"1 GB","mode":"accounting","trace_limit":100})");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("steps"), 2046);
  EXPECT_EQ(out.at("verified"), nullptr);
  EXPECT_EQ(out.at("schedule").at("trace_truncated"), true);
  EXPECT_EQ(out.at("schedule").at("traced_messages"), 0);  // the first step alone has 1,024
}

TEST(SimulateOp, HierarchicalOnTwoLevels) {
  const json out = eval(R"({"op":"simulate","algorithm":"hierarchical","nodes":4,"gpus_per_node":8,"bytes":"1 GB","mode":"accounting"})");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_NEAR(out.at("time_s").get<double>(), 9.61e-3, 0.005e-3);  // P5 §5.5
  EXPECT_NEAR(out.at("time_s").get<double>(), out.at("closed_form").at("time_s").get<double>(), 1e-15);
}

TEST(SimulateOp, TwoLevelTraceNamesPhasesAndLevels) {
  // P5 §5.5: the three phases by what they do; every traced message says whether it stays in
  // its node, and the inter-node all-reduce runs among GPUs of one local rank only.
  for (const char* inter : {"ring", "recursive_doubling", "rabenseifner", "double_binary_tree"}) {
    const int N = 3, G = 4;
    const json out = eval(json{{"op", "simulate"}, {"algorithm", "hierarchical"}, {"nodes", N}, {"gpus_per_node", G},
                               {"bytes", 1.2e6}, {"inter_algorithm", inter}, {"mode", "accounting"}}
                              .dump());
    ASSERT_FALSE(out.contains("error")) << out.dump();
    EXPECT_EQ(out.at("topology").at("nodes"), N);
    EXPECT_EQ(out.at("topology").at("gpus_per_node"), G);
    std::vector<std::string> order;
    for (const json& st : out.at("schedule").at("steps")) {
      const std::string phase = st.at("phase");
      if (order.empty() || order.back() != phase) order.push_back(phase);
      const bool across = phase == "inter-node all-reduce";
      EXPECT_EQ(st.at("group"), across ? "same_local_rank" : "node") << phase;
      EXPECT_EQ(st.contains("detail"), across) << phase;
      for (const json& m : st.at("trace")) {
        const int src = m.at("src"), dst = m.at("dst");
        EXPECT_EQ(m.at("level"), src / G == dst / G ? "intra" : "inter");
        EXPECT_EQ(m.at("level"), across ? "inter" : "intra") << phase << " " << src << ">" << dst;
        if (across) EXPECT_EQ(src % G, dst % G) << inter;
      }
    }
    EXPECT_EQ(order, (std::vector<std::string>{"intra-node reduce-scatter", "inter-node all-reduce",
                                               "intra-node all-gather"}))
        << inter;
  }
  // The flat ring on two levels: levels from the device ids, no group.
  const json flat = eval(R"({"op":"simulate","algorithm":"ring","topology":"two_level","nodes":2,"gpus_per_node":4,"bytes":8000,"mode":"accounting"})");
  int inter_msgs = 0;
  for (const json& st : flat.at("schedule").at("steps")) {
    EXPECT_FALSE(st.contains("group"));
    for (const json& m : st.at("trace")) inter_msgs += m.at("level") == "inter";
  }
  EXPECT_EQ(inter_msgs, 2 * 7 * 2);  // 3>4 and 7>0 in each of the 14 steps
  // A flat topology carries no level.
  const json sw = eval(R"({"op":"simulate","devices":4,"bytes":8000,"mode":"accounting"})");
  EXPECT_FALSE(sw.at("schedule").at("steps")[0].at("trace")[0].contains("level"));
}

TEST(SimulateOp, NonPowerOfTwoFoldIsAPhase) {
  // MPICH's fold (Thakur et al. 2005): k = 6 folds 2 surplus ranks in first and sends them the
  // result last; k = 8 has no fold.
  for (const char* algo : {"recursive_doubling", "rabenseifner"}) {
    const json six = eval(json{{"op", "simulate"}, {"algorithm", algo}, {"devices", 6}, {"bytes", 6000}}.dump());
    const json& steps = six.at("schedule").at("steps");
    EXPECT_EQ(steps.front().at("phase"), "fold surplus ranks in") << algo;
    EXPECT_EQ(steps.back().at("phase"), "send result to surplus ranks") << algo;
    EXPECT_EQ(steps.front().at("trace").size(), 2u);
    const json eight = eval(json{{"op", "simulate"}, {"algorithm", algo}, {"devices", 8}, {"bytes", 8000}}.dump());
    for (const json& st : eight.at("schedule").at("steps")) EXPECT_NE(st.at("phase"), "fold surplus ranks in");
  }
}

TEST(SimulateOp, LectureFiguresByMessages) {
  // P5 §5.3: 64 devices on InfiniBand, 1 MB: ring pays 630 us of alpha, recursive doubling 180 us.
  const json ring = eval(R"({"op":"simulate","devices":64,"bytes":"1 MB","link":"ib_ndr","mode":"accounting"})");
  EXPECT_NEAR(ring.at("alpha_time_s").get<double>(), 630e-6, 1e-12);
  EXPECT_EQ(ring.at("steps"), 126);
  const json rd = eval(R"({"op":"simulate","algorithm":"recursive_doubling","devices":64,"bytes":"1 MB","link":"ib_ndr"})");
  EXPECT_NEAR(rd.at("time_s").get<double>(), 180e-6, 1e-12);
  // P5 §11 ex. 2: 4 x 100 MB ring on NVLink 4: 150 MB sent, 6 steps, 429 us.
  const json ex2 = eval(R"({"op":"simulate","devices":4,"bytes":"100 MB","mode":"accounting"})");
  EXPECT_DOUBLE_EQ(ex2.at("bytes_sent_per_device").get<double>(), 150e6);
  EXPECT_EQ(ex2.at("steps"), 6);
  EXPECT_NEAR(ex2.at("time_s").get<double>(), 429e-6, 0.5e-6);
}

TEST(SimulateOp, OtherCollectivesAndTopologies) {
  for (const char* req : {
           R"({"op":"simulate","collective":"broadcast","algorithm":"scatter_allgather","devices":5,"bytes":4000,"root":3})",
           R"({"op":"simulate","collective":"alltoall","algorithm":"direct","devices":4,"bytes":320})",
           R"({"op":"simulate","collective":"sendrecv","devices":3,"bytes":80,"root":2,"peer":0})",
           R"({"op":"simulate","algorithm":"double_binary_tree","devices":7,"bytes":"1 MB","chunks":4})",
           R"({"op":"simulate","algorithm":"in_switch","devices":8,"bytes":"1 MB"})",
           R"({"op":"simulate","algorithm":"recursive_doubling","devices":8,"bytes":8000,"topology":"ring"})",
           R"({"op":"simulate","devices":3,"bytes":800,"topology":"custom","link":"nvlink4","links":[{"from":2,"to":0,"link":"ib"}]})",
       }) {
    const json out = eval(req);
    ASSERT_FALSE(out.contains("error")) << req << " -> " << out.dump();
    EXPECT_EQ(out.at("verified"), true) << req << " -> " << out.at("verification");
  }
}

TEST(SimulateOp, UnevenAllToAll) {
  // Device 0 is the hot receiver: every step of the pairwise exchange waits for its port.
  const json out = eval(R"({"op":"simulate","collective":"alltoall","algorithm":"pairwise","devices":3,"bytes":3e6,)"
                        R"("link":{"alpha_s":1e-6,"beta_Bps":1e9},"pair_bytes":[[0,1e6,1e6],[4e6,0,1e6],[4e6,1e6,0]]})");
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("mode"), "accounting");
  EXPECT_NEAR(out.at("time_s").get<double>(), 2 * (1e-6 + 4e-3), 1e-15);
  EXPECT_DOUBLE_EQ(out.at("per_device").at("bytes_received")[0].get<double>(), 8e6);
}

TEST(SimulateOp, BadInputs) {
  struct Case {
    const char* request;
    const char* code;
    const char* mentions;  // a fragment the message must contain
  };
  const Case cases[] = {
      {R"({"op":"simulate","bytes":1000})", "missing_field", "devices"},
      {R"({"op":"simulate","devices":8})", "missing_field", "bytes"},
      {R"({"op":"simulate","devices":1,"bytes":1000})", "out_of_range", "devices"},
      {R"({"op":"simulate","devices":100000,"bytes":1000})", "out_of_range", "65536"},
      {R"({"op":"simulate","devices":2.5,"bytes":1000})", "not_integer", "devices"},
      {R"({"op":"simulate","devices":"8","bytes":1000})", "invalid_type", "devices"},
      {R"({"op":"simulate","devices":8,"bytes":-1})", "out_of_range", "bytes"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"algorithm":"bogus"})", "unknown_value", "rabenseifner"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"collective":"gather"})", "unknown_value", "collective"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"topology":"torus"})", "unknown_value", "two_level"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"mode":"fast"})", "unknown_value", "accounting"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"colective":"allreduce"})", "unknown_field", "colective"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"link":"warp"})", "unknown_value", "nvlink4"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"algorithm":"in_switch","topology":"ring"})", "invalid_request", "in_switch"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"algorithm":"hierarchical","topology":"switch"})", "invalid_request", "two_level"},
      {R"({"op":"simulate","algorithm":"hierarchical","nodes":2,"gpus_per_node":4,"devices":9,"bytes":800})", "invalid_request", "devices"},
      {R"({"op":"simulate","algorithm":"hierarchical","nodes":2,"gpus_per_node":4,"bytes":800,"inter_algorithm":"in_switch"})", "unknown_value", "inter_algorithm"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"root":3})", "unknown_field", "root"},
      {R"({"op":"simulate","collective":"broadcast","devices":8,"bytes":1000,"root":8})", "out_of_range", "root"},
      {R"({"op":"simulate","collective":"sendrecv","devices":2,"bytes":8,"root":1,"peer":1})", "out_of_range", "peer"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"chunks":4})", "unknown_field", "chunks"},
      {R"({"op":"simulate","algorithm":"double_binary_tree","devices":8,"bytes":1000,"chunks":5000})", "out_of_range", "chunks"},
      {R"({"op":"simulate","devices":8,"bytes":1001,"mode":"data"})", "invalid_request", "multiple of 8"},
      {R"({"op":"simulate","devices":1024,"bytes":"1 MB","mode":"data"})", "too_large", "MB"},
      {R"({"op":"simulate","devices":8192,"bytes":"1 MB","mode":"data"})", "too_large", "devices"},
      {R"({"op":"simulate","devices":8192,"bytes":"1 MB","mode":"accounting"})", "too_large", "the largest that fits is"},
      {R"({"op":"simulate","collective":"alltoall","algorithm":"direct","devices":4096,"bytes":"1 GB"})", "too_large", "pairwise"},
      {R"({"op":"simulate","collective":"alltoall","devices":3,"bytes":80,"mode":"data"})", "invalid_request", "24"},
      {R"({"op":"simulate","devices":8,"bytes":1000,"trace_limit":-1})", "out_of_range", "trace_limit"},
      {R"({"op":"simulate","devices":3,"bytes":800,"topology":"custom","links":[{"from":0,"to":1,"link":"ib"}]})", "no_route", "links"},
      {R"({"op":"simulate","devices":3,"bytes":800,"topology":"custom","links":[{"from":0,"to":0,"link":"ib"}]})", "out_of_range", "links[0]"},
      {R"({"op":"simulate","devices":3,"bytes":800,"topology":"custom","links":{"from":0}})", "invalid_type", "links"},
      {R"({"op":"simulate","devices":300,"bytes":800,"topology":"custom","link":"ib"})", "out_of_range", "256"},
      {R"({"op":"simulate","devices":8,"bytes":800,"link":{"alpha_s":1e-6}})", "missing_field", "beta_Bps"},
      {R"({"op":"simulate","devices":8,"bytes":800,"seed":"x"})", "invalid_type", "seed"},
      {R"({"op":"simulate","collective":"alltoall","devices":2,"bytes":800,"pair_bytes":[[0,1]]})", "invalid_type", "pair_bytes"},
      {R"({"op":"simulate","collective":"alltoall","devices":2,"bytes":800,"pair_bytes":[[0,-1],[1,0]]})", "out_of_range", "pair_bytes[0][1]"},
      {R"({"op":"simulate","collective":"alltoall","devices":2,"bytes":800,"mode":"data","pair_bytes":[[0,8],[8,0]]})", "invalid_request", "accounting"},
      {R"({"op":"simulate","devices":2,"bytes":800,"pair_bytes":[[0,8],[8,0]]})", "unknown_field", "pair_bytes"},
  };
  for (const Case& c : cases) {
    const json out = eval(c.request);
    ASSERT_TRUE(out.contains("error")) << c.request << " -> " << out.dump().substr(0, 300);
    EXPECT_EQ(out["error"]["code"], c.code) << c.request << " -> " << out.dump();
    const std::string msg = out["error"]["message"];
    EXPECT_NE(msg.find(c.mentions), std::string::npos) << c.request << " -> " << msg;
  }
}
