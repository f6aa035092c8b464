// Pipeline-parallel decode simulator (P5 §6.3, code 04 demo 4, exercise 6).
#include <gtest/gtest.h>

#include <algorithm>

#include "api/api.hpp"
#include "model/links.hpp"
#include "parallel/pipeline.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;

TEST(Pipeline, Exercise6EightStages) {
  const PipelineResult r = simulate_pipeline_decode(8, 8, 1 * ms, 0.1 * ms, 100);
  EXPECT_NEAR(r.token_interval_s / ms, 8.77, 1e-9);  // pp_decode(8, 8, 1e-3, 1e-4, 100)
  EXPECT_NEAR(r.steady_interval_s / ms, 8.7, 1e-12);
  EXPECT_NEAR(r.utilisation, 800.0 / 877.0, 1e-12);  // "about 91%"
  EXPECT_EQ(r.microbatches_to_fill, 9);             // "one or two more to fill completely"
}

TEST(Pipeline, ClosedFormWhenTheRingIsNotFull) {
  // makespan = (m-1) s + N (p s + (p-1) t) while m s <= p s + (p-1) t.
  for (int m = 1; m <= 8; ++m) {
    const PipelineResult r = simulate_pipeline_decode(8, m, 1.0, 0.1, 20);
    EXPECT_NEAR(r.makespan_s, (m - 1) * 1.0 + 20 * 8.7, 1e-9) << m;
  }
  // Past the fill point the stages are the bottleneck: the interval grows with m s.
  const PipelineResult over = simulate_pipeline_decode(8, 16, 1.0, 0.1, 50);
  EXPECT_GT(over.token_interval_s, 15.9);
  EXPECT_GT(over.utilisation, 0.99);
}

TEST(Pipeline, SteadyStateIsTheSimulatorsOwnLateInterval) {
  // P5 §6.3: the interval is the trip while m s <= trip, else m s; the simulator's late tokens agree.
  for (int p : {2, 4, 8, 13}) {
    for (int m : {1, 2, p - 1, p, p + 1, 2 * p + 3}) {
      if (m < 1) continue;
      for (double t : {0.0, 0.05, 0.3}) {
        const PipelineResult r = simulate_pipeline_decode(p, m, 1.0, t, 40, 0);
        const double trip = p * 1.0 + (p - 1) * t;
        EXPECT_NEAR(r.trip_s, trip, 1e-12);
        EXPECT_NEAR(r.steady_interval_s, std::max(trip, m * 1.0), 1e-9) << p << " " << m << " " << t;
        EXPECT_NEAR(r.measured_interval_s, r.steady_interval_s, 1e-9) << p << " " << m << " " << t;
        EXPECT_NEAR(r.steady_utilisation, m * 1.0 / r.steady_interval_s, 1e-12);
        EXPECT_LE(r.steady_utilisation, 1.0 + 1e-12);
      }
    }
  }
  // The lecture's demo: 4 stages of 2 ms, 4 micro-batches, "≈ 8.15 ms, 98%" are its simulator's
  // 100-token averages, fill included; the steady state is the trip, 8 + 3 x 0.0312 ms, 98.8%.
  const double t = transfer_time_s(catalogue_link("ib_ndr"), 64 * 8192 * 2);
  const PipelineResult four = simulate_pipeline_decode(4, 4, 2 * ms, t, 100, 3);
  EXPECT_NEAR(four.steady_interval_s / ms, 8 + 3 * t / ms, 1e-12);
  EXPECT_NEAR(four.steady_interval_s / ms, 8.15, 0.01 * 8.15);
  EXPECT_NEAR(four.steady_utilisation, 8 * ms / four.steady_interval_s, 1e-12);
  EXPECT_NEAR(four.token_interval_s / ms, 8.15, 0.005);
  // More micro-batches than the trip holds: each stage is the bottleneck, never slower per token
  // than m s, and throughput m / interval only grows.
  const PipelineResult nine = simulate_pipeline_decode(8, 9, 1 * ms, 0.1 * ms, 100, 3);
  const PipelineResult eight = simulate_pipeline_decode(8, 8, 1 * ms, 0.1 * ms, 100, 3);
  EXPECT_NEAR(nine.steady_interval_s / ms, 9.0, 1e-9);
  EXPECT_NEAR(nine.steady_utilisation, 1.0, 1e-12);
  EXPECT_GT(9 / nine.steady_interval_s, 8 / eight.steady_interval_s);
}

TEST(Pipeline, Demo044FourStagesOfTwoMs) {
  const double t = transfer_time_s(catalogue_link("ib_ndr"), 64 * 8192 * 2);
  EXPECT_NEAR(t / us, 31.2, 0.05);
  const PipelineResult four = simulate_pipeline_decode(4, 4, 2 * ms, t, 100);
  EXPECT_NEAR(four.token_interval_s / ms, 8.15, 0.005);
  EXPECT_NEAR(four.utilisation, 0.98, 0.005);
  const PipelineResult one = simulate_pipeline_decode(4, 1, 2 * ms, t, 100);
  EXPECT_NEAR(one.utilisation, 0.25, 0.005);  // "1/4 of the time"
  // Pipelining raises throughput, not latency: the interval never beats a token's trip.
  EXPECT_GE(one.token_interval_s, 4 * 2 * ms);
  EXPECT_NEAR(four.tokens_per_s / one.tokens_per_s, 4 * one.token_interval_s / four.token_interval_s, 1e-9);
}

TEST(Pipeline, TimelineIsConsistent) {
  const PipelineResult r = simulate_pipeline_decode(3, 2, 1.0, 0.5, 4, 4);
  // Each stage serves one micro-batch at a time.
  for (const auto& a : r.timeline) {
    for (const auto& b : r.timeline) {
      if (&a != &b && a.kind == "compute" && b.kind == "compute" && a.stage == b.stage) {
        EXPECT_TRUE(a.end_s <= b.start_s + 1e-12 || b.end_s <= a.start_s + 1e-12);
      }
    }
  }
  int computes = 0;
  for (const auto& a : r.timeline) computes += a.kind == "compute";
  EXPECT_EQ(computes, 3 * 2 * 4);
}

TEST(Pipeline, Op) {
  auto out = evaluate(nlohmann::json{{"op", "pipeline"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_NEAR(out["token_interval_s"].get<double>(), 8.77e-3, 1e-12);
  auto bytes = evaluate(nlohmann::json{{"op", "pipeline"}, {"stages", 4}, {"microbatches", 4},
                                       {"stage_time_s", 0.002}, {"transfer_bytes", "1048576 B"},
                                       {"link", "ib_ndr"}});
  ASSERT_FALSE(bytes.contains("error")) << bytes.dump();
  EXPECT_NEAR(bytes["token_interval_s"].get<double>() / ms, 8.15, 0.005);
  // The steady state the view shows: the interval between micro-batch 0's last two timeline
  // tokens is the steady interval, and exercise 6's answer at its own micro-batch count.
  for (int m : {1, 4, 8, 9, 12}) {
    auto st = evaluate(nlohmann::json{{"op", "pipeline"}, {"microbatches", m}, {"tokens", 4}, {"timeline_tokens", 3}});
    ASSERT_FALSE(st.contains("error")) << st.dump();
    const auto ends = st["microbatch0_token_ends_s"].get<std::vector<double>>();
    ASSERT_EQ(ends.size(), 3u);
    EXPECT_NEAR(ends[2] - ends[1], st["steady_interval_s"].get<double>(), 1e-12) << m;
    EXPECT_EQ(st["steady_bound"], m * 1e-3 <= 8.7e-3 ? "trip" : "stages") << m;
  }
  auto ex6 = evaluate(nlohmann::json{{"op", "exercise.solve"}, {"id", 6}});
  auto at8 = evaluate(nlohmann::json{{"op", "pipeline"}, {"microbatches", 8}, {"tokens", 4}, {"timeline_tokens", 3}});
  EXPECT_NEAR(at8["steady_interval_s"].get<double>(), ex6["answers"]["token_interval"].get<double>(), 1e-15);
  auto huge = evaluate(nlohmann::json{{"op", "pipeline"}, {"stages", 1024}, {"microbatches", 4096}});
  EXPECT_EQ(huge["error"]["code"], "too_large");
  auto neg = evaluate(nlohmann::json{{"op", "pipeline"}, {"stage_time_s", -1}});
  EXPECT_EQ(neg["error"]["code"], "out_of_range");
}

// "max_stage_visits": a request names the stage visits it accepts, up to 5e6 (an exercise whose
// params reach further than the op's own 1e6); past its own figure the error is out_of_range.
TEST(Pipeline, MaxStageVisits) {
  const nlohmann::json big = {{"op", "pipeline"}, {"stages", 32}, {"microbatches", 32}, {"tokens", 1000},
                              {"timeline_tokens", 0}};
  EXPECT_EQ(evaluate(big)["error"]["code"], "too_large");  // 1.024e6 visits, past the op's 1e6
  nlohmann::json asked = big;
  asked["max_stage_visits"] = 5000000;
  const auto out = evaluate(asked);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  const PipelineResult r = simulate_pipeline_decode(32, 32, 1 * ms, 0.1 * ms, 1000, 0);
  EXPECT_EQ(out["makespan_s"].get<double>(), r.makespan_s);
  EXPECT_EQ(out["microbatches_to_fill"].get<int>(), r.microbatches_to_fill);
  asked["max_stage_visits"] = 1000000;  // a lower figure than the run: the request's own range
  const auto over = evaluate(asked);
  EXPECT_EQ(over["error"]["code"], "out_of_range");
  const std::string m = over["error"]["message"];
  EXPECT_NE(m.find("32 x 32 x 1000 stage visits"), std::string::npos) << m;
  EXPECT_NE(m.find("at most max_stage_visits (1e+06), so at most 976 tokens here"), std::string::npos) << m;
  for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(5000001), nlohmann::json(2.5), nlohmann::json("5e6")}) {
    asked["max_stage_visits"] = bad;
    const auto e = evaluate(asked);
    ASSERT_TRUE(e.contains("error")) << bad.dump();
    EXPECT_NE(e["error"]["message"].get<std::string>().find("max_stage_visits"), std::string::npos) << e.dump();
  }
}
