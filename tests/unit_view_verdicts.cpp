// Verdicts the Topics views print, chosen by the engine from its own figures (core/OPS.md "tp",
// "kv_transfer"): a view renders the case, it never compares the numbers itself.
#include <gtest/gtest.h>

#include "api/api.hpp"

using namespace commlab;
using nlohmann::json;

// §5.7: tp's `bound` is latency when alpha is at least half of each all-reduce, bandwidth
// otherwise, none when nothing is sent; checked against the figures beside it.
TEST(ViewVerdicts, TpBoundFollowsTheAlphaShare) {
  int latency = 0, bandwidth = 0;
  for (const char* phase : {"decode", "prefill"})
    for (int tp : {1, 2, 8, 64})
      for (const char* link : {"nvlink4", "ib_ndr", "pcie5"}) {
        const json out = evaluate(json{{"op", "tp"}, {"model", "llama3_70b"}, {"tp", tp}, {"phase", phase}, {"link", link}});
        const json& p = out.at("per_allreduce");
        const double alpha = p.at("alpha_time_s").get<double>(), beta = p.at("beta_time_s").get<double>();
        const std::string want = out.at("comm_time_s").get<double>() == 0 ? "none" : alpha >= beta ? "latency" : "bandwidth";
        EXPECT_EQ(out.at("bound"), want) << out.dump().substr(0, 300);
        latency += want == "latency";
        bandwidth += want == "bandwidth";
      }
  EXPECT_GT(latency, 0);  // the lecture's decode step on NVLink 4
  EXPECT_GT(bandwidth, 0);  // a 4,096-token prefill
  // The lecture's case: Llama-3-70B's TP8 decode step on NVLink 4 is latency-bound.
  EXPECT_EQ(evaluate(json{{"op", "tp"}, {"model", "llama3_70b"}, {"tp", 8}, {"link", "nvlink4"}}).at("bound"), "latency");
}

// §2.5, §7.3: kv_transfer's `against_prefill` says whether the KV over every NIC takes less or
// more than the prefill that made it.
TEST(ViewVerdicts, KvTransferAgainstPrefillFollowsTheTimes) {
  int less = 0, more = 0;
  for (int tokens : {1, 512, 4096, 32768})
    for (int nics : {1, 8})
      for (const char* model : {"llama3_70b", "llama3_8b"})
        for (const char* link : {"ib_ndr", "ethernet"}) {  // over Ethernet an 8B's KV outlasts its prefill
          const json out = evaluate(json{{"op", "kv_transfer"}, {"model", model}, {"tokens", tokens}, {"nics", nics}, {"link", link}});
          const std::string want = out.at("all_nics_s").get<double>() < out.at("prefill_s").get<double>() ? "less" : "more";
          EXPECT_EQ(out.at("against_prefill"), want) << out.dump().substr(0, 300);
          less += want == "less";
          more += want == "more";
        }
  EXPECT_GT(less, 0);
  EXPECT_GT(more, 0);
}
