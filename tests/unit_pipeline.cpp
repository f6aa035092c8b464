// Pipeline-parallel decode simulator (P5 §6.3, code 04 demo 4, exercise 6).
#include <gtest/gtest.h>

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
  auto huge = evaluate(nlohmann::json{{"op", "pipeline"}, {"stages", 1024}, {"microbatches", 4096}});
  EXPECT_EQ(huge["error"]["code"], "too_large");
  auto neg = evaluate(nlohmann::json{{"op", "pipeline"}, {"stage_time_s", -1}});
  EXPECT_EQ(neg["error"]["code"], "out_of_range");
}
