// All-reduce algorithms and the other collectives (P5 §4-5, exercises 2-4).
#include <gtest/gtest.h>

#include <cmath>

#include "model/collectives.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;
using A = AllreduceAlgorithm;

namespace {
const Link nv = catalogue_link("nvlink4");
const Link ib = catalogue_link("ib_ndr");
double us_of(A a, int k, double D, const Link& l) { return allreduce_cost(a, k, D, l).time_s / us; }
}  // namespace

TEST(Allreduce, Exercise2Ring) {  // 4 x 100 MB on NVLink 4: 150 MB, 6 steps, 429 us
  const CollectiveCost c = allreduce_cost(A::ring, 4, 100 * MB, nv);
  EXPECT_DOUBLE_EQ(c.bytes_sent_per_device, 150 * MB);
  EXPECT_EQ(c.steps, 6);
  EXPECT_NEAR(c.time_s / us, 428.7, 0.05);
}

TEST(Allreduce, Exercise3Algorithms) {  // 16 devices on IB, 256 KB
  EXPECT_NEAR(us_of(A::ring, 16, 256 * kB, ib), 162, 0.05);
  EXPECT_NEAR(us_of(A::recursive_doubling, 16, 256 * kB, ib), 45.6, 0.05);
  EXPECT_NEAR(us_of(A::rabenseifner, 16, 256 * kB, ib), 52, 0.05);
  EXPECT_NEAR(us_of(A::binary_tree, 16, 256 * kB, ib), 91.2, 0.05);
  EXPECT_EQ(allreduce_auto(16, 256 * kB, ib, false).algorithm, A::recursive_doubling);
}

TEST(Allreduce, Exercise4Hierarchical) {  // 4 nodes x 8, 1 GB: 9.61 ms vs 48.75 ms
  const double hier = hierarchical_allreduce_cost(4, 8, 1 * GB, nv, ib).total.time_s;
  const double flat = allreduce_cost(A::ring, 32, 1 * GB, ib).time_s;
  EXPECT_NEAR(hier / ms, 9.61, 0.005);
  EXPECT_NEAR(flat / ms, 48.75, 0.005);
  EXPECT_NEAR(flat / hier, 5, 0.5);
  // 16 GPUs a node: "about 6-7x".
  const double r16 = allreduce_cost(A::ring, 64, 1 * GB, ib).time_s /
                     hierarchical_allreduce_cost(4, 16, 1 * GB, nv, ib).total.time_s;
  EXPECT_GE(r16, 6);
  EXPECT_LE(r16, 7);
}

TEST(Allreduce, Section53SixtyFourDevices) {  // ring pays 630 us of alpha at 1 MB; RD 180 us
  EXPECT_NEAR(allreduce_cost(A::ring, 64, 1 * MB, ib).alpha_time_s / us, 630, 1e-6);
  EXPECT_NEAR(us_of(A::recursive_doubling, 64, 1 * MB, ib), 180, 1e-6);
}

TEST(Allreduce, Section57DecodeSmallMessages) {  // 160 ring all-reduces of 16 KB: 4.5 ms
  EXPECT_NEAR(160 * us_of(A::ring, 8, 8192 * 2, nv) / 1000, 4.5, 0.05);
}

TEST(Allreduce, RingAndRabenseifnerSendExactlyTheLowerBound) {
  for (int k : {2, 4, 8, 16, 64, 1024})
    for (double D : {1e3, 1e6, 1e9}) {
      EXPECT_DOUBLE_EQ(allreduce_cost(A::ring, k, D, nv).bytes_sent_per_device, allreduce_lower_bound_bytes(k, D));
      EXPECT_DOUBLE_EQ(allreduce_cost(A::rabenseifner, k, D, nv).bytes_sent_per_device,
                       allreduce_lower_bound_bytes(k, D));
    }
  for (int k : {3, 5, 12, 100})  // ring for any k
    EXPECT_DOUBLE_EQ(allreduce_cost(A::ring, k, 1e6, nv).bytes_sent_per_device, allreduce_lower_bound_bytes(k, 1e6));
}

TEST(Allreduce, NoAlgorithmBeatsTheLowerBoundExceptInSwitch) {
  for (A a : allreduce_algorithms())
    for (int k = 2; k <= 70; ++k) {
      const double sent = allreduce_cost(a, k, 1e6, nv).bytes_sent_per_device;
      if (a == A::in_switch)
        EXPECT_DOUBLE_EQ(sent, 1e6);  // the switch does the reducing: D up, D down
      else
        EXPECT_GE(sent, allreduce_lower_bound_bytes(k, 1e6) * (1 - 1e-12)) << algorithm_name(a) << " k=" << k;
    }
}

TEST(Allreduce, StepCountsAndNonPowersOfTwo) {
  EXPECT_EQ(allreduce_cost(A::ring, 8, 1, nv).steps, 14);
  EXPECT_EQ(allreduce_cost(A::ring, 64, 1, nv).steps, 126);
  EXPECT_EQ(allreduce_cost(A::recursive_doubling, 16, 1, nv).steps, 4);
  EXPECT_EQ(allreduce_cost(A::rabenseifner, 16, 1, nv).steps, 8);
  EXPECT_EQ(allreduce_cost(A::binary_tree, 16, 1, nv).steps, 8);
  EXPECT_EQ(allreduce_cost(A::in_switch, 16, 1, nv).steps, 2);
  // MPICH fold: 12 = 8 + 4 surplus ranks: two extra full-buffer steps.
  EXPECT_EQ(allreduce_cost(A::recursive_doubling, 12, 1, nv).steps, 3 + 2);
  EXPECT_EQ(allreduce_cost(A::rabenseifner, 12, 1, nv).steps, 6 + 2);
  EXPECT_NEAR(allreduce_cost(A::recursive_doubling, 12, 1e6, nv).time_s, 5 * (nv.alpha_s + 1e6 / nv.beta_Bps), 1e-15);
  EXPECT_EQ(allreduce_cost(A::binary_tree, 12, 1, nv).steps, 2 * 4);
  for (A a : allreduce_algorithms()) EXPECT_EQ(allreduce_cost(a, 1, 1e6, nv).time_s, 0) << algorithm_name(a);
}

TEST(Allreduce, TimeIsMonotonicInBytes) {
  for (A a : allreduce_algorithms())
    for (int k : {2, 3, 8, 12, 64}) {
      double prev = 0;
      for (double D = 1; D < 1e12; D *= 2.3) {
        const double t = allreduce_cost(a, k, D, ib).time_s;
        EXPECT_GE(t, prev) << algorithm_name(a) << " k=" << k << " D=" << D;
        prev = t;
      }
    }
}

TEST(Allreduce, EachAlgorithmWinsWhereTheLectureSays) {
  // §5.3: small messages -> recursive doubling; large -> ring / Rabenseifner (equal bytes).
  EXPECT_EQ(allreduce_auto(8, 1 * kB, nv, false).algorithm, A::recursive_doubling);
  const A large = allreduce_auto(8, 1 * GB, nv, false).algorithm;
  EXPECT_TRUE(large == A::ring || large == A::rabenseifner);
  EXPECT_LT(us_of(A::ring, 8, 1 * GB, nv), us_of(A::recursive_doubling, 8, 1 * GB, nv) / 1.5);
  // §5.3: with 64 devices on IB the ring's 126 alphas push its crossover with recursive
  // doubling to larger messages.
  auto crossover = [](int k, const Link& l) {
    double D = 1e3;
    while (allreduce_cost(A::recursive_doubling, k, D, l).time_s < allreduce_cost(A::ring, k, D, l).time_s) D *= 1.1;
    return D;
  };
  EXPECT_GT(crossover(64, ib), crossover(8, ib));
  // §5.4: in-switch reduction is fastest at every size.
  for (double D = 1e3; D < 1e10; D *= 10) EXPECT_EQ(allreduce_auto(8, D, nv, true).algorithm, A::in_switch);
  // §5.2: the pipelined double binary tree gets near full bandwidth where the plain tree does not.
  EXPECT_LT(us_of(A::double_binary_tree, 64, 1 * GB, ib), 1.3 * us_of(A::ring, 64, 1 * GB, ib));
  EXPECT_GT(us_of(A::binary_tree, 64, 1 * GB, ib), 5 * us_of(A::ring, 64, 1 * GB, ib));
  // §5.5: hierarchical beats the flat ring across nodes at every size.
  for (double D = 64 * kB; D <= 1 * GB; D *= 4)
    EXPECT_LT(hierarchical_allreduce_cost(4, 8, D, nv, ib).total.time_s, allreduce_cost(A::ring, 32, D, ib).time_s);
}

TEST(Collectives, ReduceScatterPlusAllgatherIsRingAllreduce) {  // §4.1
  for (int k : {2, 5, 8, 33}) {
    const double rs = collective_cost(Collective::reduce_scatter, "ring", k, 1e6, nv).time_s;
    const double ag = collective_cost(Collective::allgather, "ring", k, 1e6, nv).time_s;
    EXPECT_NEAR(rs + ag, allreduce_cost(A::ring, k, 1e6, nv).time_s, 1e-15);
  }
}

TEST(Collectives, CostsAndLowerBounds) {
  for (Collective c : collectives())
    for (const std::string& algo : collective_algorithms(c)) {
      const int k = c == Collective::sendrecv ? 2 : 8;
      const CollectiveCost cost = collective_cost(c, algo, k, 8e6, nv);
      EXPECT_GT(cost.time_s, 0) << collective_name(c) << "/" << algo;
      if (algo == "in_switch") continue;  // the switch reduces: below the device-only bound
      EXPECT_GE(cost.bytes_sent_per_device, collective_lower_bound_bytes(c, k, 8e6) * (1 - 1e-12))
          << collective_name(c) << "/" << algo;
    }
  EXPECT_DOUBLE_EQ(collective_cost(Collective::sendrecv, "direct", 2, 1e6, ib).time_s, transfer_time_s(ib, 1e6));
  EXPECT_EQ(collective_cost(Collective::broadcast, "binomial_tree", 8, 1, nv).steps, 3);
  EXPECT_EQ(collective_cost(Collective::alltoall, "pairwise", 8, 1, nv).steps, 7);
}
