// Data mode: every schedule, run on random integer inputs, ends exactly at the reference (sum,
// gather, transpose); link sharing, cut-through, limits and the trace.
#include <gtest/gtest.h>

#include <cmath>

#include "model/collectives.hpp"
#include "base/error.hpp"
#include "steps/executor.hpp"
#include "steps/schedule.hpp"
#include "steps/topology.hpp"

using namespace commlab;

namespace {

ExecResult run_data(const ScheduleSpec& spec, const Topology& topo, uint64_t seed) {
  ExecOptions opt;
  opt.data = true;
  opt.seed = seed;
  return execute(spec, topo, opt);
}

}  // namespace

TEST(Executor, EveryScheduleVerifiesOnRandomInputs) {
  const Link link = catalogue_link("nvlink4");
  for (Collective c : collectives())
    for (const std::string& a : schedule_algorithms(c)) {
      if (a == "hierarchical") continue;
      for (int k : {2, 3, 4, 5, 6, 7, 8, 13, 16, 33}) {
        if (c == Collective::sendrecv && k != 2) continue;
        // Sizes that do and do not split evenly into k blocks (all-to-all needs even blocks).
        std::vector<double> sizes = {8.0 * k, 8.0 * k * 37};
        if (c != Collective::alltoall) sizes.insert(sizes.end(), {8.0, 8.0 * 1001, 8.0 * 4099});
        for (double D : sizes)
          for (uint64_t seed : {1u, 7u}) {
            ScheduleSpec s;
            s.collective = c;
            s.algorithm = a;
            s.devices = k;
            s.bytes = D;
            s.root = (c == Collective::broadcast || c == Collective::reduce) ? k / 2 : 0;
            if (a == "double_binary_tree") s.chunks = 1 + static_cast<int>(seed % 5);
            const ExecResult r = run_data(s, Topology::switched(k, link), seed);
            EXPECT_TRUE(r.verified) << collective_name(c) << "/" << a << " k=" << k << " D=" << D << ": "
                                    << r.verification;
          }
      }
    }
}

TEST(Executor, HierarchicalVerifies) {
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  for (auto [N, G] : std::vector<std::pair<int, int>>{{2, 4}, {3, 8}, {4, 2}, {5, 3}, {1, 4}})
    for (AllreduceAlgorithm inter : {AllreduceAlgorithm::ring, AllreduceAlgorithm::recursive_doubling,
                                     AllreduceAlgorithm::rabenseifner, AllreduceAlgorithm::binary_tree,
                                     AllreduceAlgorithm::double_binary_tree}) {
      ScheduleSpec s;
      s.algorithm = "hierarchical";
      s.devices = N * G;
      s.gpus_per_node = G;
      s.bytes = 8.0 * 997;
      s.inter_algorithm = inter;
      s.chunks = 3;
      const ExecResult r = run_data(s, Topology::two_level(N, G, nv, ib), 3);
      EXPECT_TRUE(r.verified) << N << "x" << G << " " << algorithm_name(inter) << ": " << r.verification;
    }
}

TEST(Executor, SameDataOnEveryTopology) {
  const Link nv = catalogue_link("nvlink4");
  ScheduleSpec s;
  s.algorithm = "rabenseifner";
  s.devices = 6;
  s.bytes = 8.0 * 600;
  EXPECT_TRUE(run_data(s, Topology::ring(6, nv), 5).verified);
  EXPECT_TRUE(run_data(s, Topology::two_level(3, 2, nv, catalogue_link("ib_ndr")), 5).verified);
  EXPECT_TRUE(run_data(s, Topology::custom(6, {}, nv, true), 5).verified);
}

TEST(Executor, RecursiveDoublingOnARingSharesLinks) {
  // Distance-4 partners on an 8-ring: each clockwise link carries 4 messages at once;
  // distance 2: 2. Steps cost alpha + (1, 2, 4) D / beta.
  const Link l{1e-6, 1e9, "x"};
  ScheduleSpec s;
  s.algorithm = "recursive_doubling";
  s.devices = 8;
  s.bytes = 1e6;
  const ExecResult r = execute(s, Topology::ring(8, l), ExecOptions{});
  EXPECT_NEAR(r.time_s, 3e-6 + 7 * 1e6 / 1e9, 1e-15);
}

TEST(Executor, DirectAllToAllSharesThePort) {
  const Link l{2e-6, 1e9, "x"};
  ScheduleSpec s;
  s.collective = Collective::alltoall;
  s.algorithm = "direct";
  s.devices = 8;
  s.bytes = 8e6;
  const ExecResult r = execute(s, Topology::switched(8, l), ExecOptions{});
  EXPECT_EQ(r.steps, 1);
  EXPECT_EQ(r.messages, 56);
  EXPECT_NEAR(r.time_s, 2e-6 + 7e6 / 1e9, 1e-15);
}

TEST(Executor, InSwitchIsCutThrough) {
  // P5 §5.4: 2 alpha + D / beta: the multicast streams back while the sums stream in.
  const Link l{2e-6, 1e9, "x"};
  ScheduleSpec s;
  s.algorithm = "in_switch";
  s.devices = 4;
  s.bytes = 8e3;
  const ExecResult r = run_data(s, Topology::switched(4, l), 1);
  EXPECT_TRUE(r.verified) << r.verification;
  EXPECT_NEAR(r.time_s, 4e-6 + 8e3 / 1e9, 1e-15);
  EXPECT_DOUBLE_EQ(r.switch_bytes_received, 4 * 8e3);
  EXPECT_DOUBLE_EQ(r.max_bytes_sent, 8e3);
}

TEST(Executor, CustomTopologySlowLinkSetsTheStep) {
  // A ring all-reduce on 4 devices where the link 3 -> 0 is ten times slower.
  const Link fast{1e-6, 1e10, "fast"}, slow{1e-6, 1e9, "slow"};
  ScheduleSpec s;
  s.devices = 4;
  s.bytes = 4e6;
  const ExecResult r = execute(s, Topology::custom(4, {{3, 0, slow}}, fast, true), ExecOptions{});
  EXPECT_NEAR(r.time_s, 6 * (1e-6 + 1e6 / 1e9), 1e-15);
}

TEST(Executor, CustomTopologyWithoutRouteIsAnError) {
  const Link l{1e-6, 1e9, "x"};
  ScheduleSpec s;
  s.devices = 3;
  s.bytes = 1e3;
  EXPECT_THROW(execute(s, Topology::custom(3, {{0, 1, l}, {1, 2, l}}, l, false), ExecOptions{}), RequestError);
}

TEST(Executor, ExplicitInputsAndFinalBuffers) {
  std::vector<std::vector<double>> in = {{1, 2}, {10, 20}, {100, 200}};
  ScheduleSpec s;
  s.devices = 3;
  s.bytes = 16;
  ExecOptions opt;
  opt.data = true;
  opt.inputs = &in;
  Executor ex(s, Topology::switched(3, catalogue_link("nvlink4")), opt);
  ex.prepare();
  ex.run();
  EXPECT_TRUE(ex.verify());
  for (int d = 0; d < 3; ++d) EXPECT_EQ(ex.final_buffer(d), (std::vector<double>{111, 222}));
}

TEST(Executor, DataModeMemoryIsCapped) {
  ScheduleSpec s;
  s.devices = 1024;
  s.bytes = 1e6;  // 1 GB of buffers
  ExecOptions opt;
  opt.data = true;
  try {
    execute(s, Topology::switched(1024, catalogue_link("nvlink4")), opt);
    FAIL() << "expected too_large";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.code(), "too_large");
    EXPECT_NE(std::string(e.what()).find("MB"), std::string::npos) << e.what();
  }
  s.devices = 4;
  s.bytes = 12;  // not whole doubles
  EXPECT_THROW(execute(s, Topology::switched(4, catalogue_link("nvlink4")), opt), RequestError);
}

TEST(Executor, MessageCountIsCapped) {
  ScheduleSpec s;
  s.devices = 8192;  // ring: 134 M messages
  s.bytes = 1e6;
  EXPECT_THROW(execute(s, Topology::switched(8192, catalogue_link("nvlink4")), ExecOptions{}), RequestError);
}

TEST(Executor, TraceIsCappedByMessages) {
  ScheduleSpec s;
  s.devices = 8;
  s.bytes = 8e3;
  ExecOptions opt;
  opt.trace_messages = 20;
  const ExecResult r = execute(s, Topology::switched(8, catalogue_link("nvlink4")), opt);
  EXPECT_EQ(r.step_records.size(), 14u);
  EXPECT_EQ(r.trace_messages, 16);
  EXPECT_TRUE(r.trace_truncated);
  EXPECT_EQ(r.step_records[1].trace.size(), 8u);
  EXPECT_TRUE(r.step_records[2].trace.empty());
}

TEST(Executor, PerDeviceBytes) {
  // Binomial tree all-reduce: the root sends D to ceil(log2 k) children on the way down.
  ScheduleSpec s;
  s.algorithm = "binary_tree";
  s.devices = 5;
  s.bytes = 1e3;
  const ExecResult r = execute(s, Topology::switched(5, catalogue_link("nvlink4")), ExecOptions{});
  EXPECT_DOUBLE_EQ(r.bytes_sent[0], 3e3);
  EXPECT_DOUBLE_EQ(r.bytes_received[0], 3e3);  // from 1, 2 and 4 on the way up
  EXPECT_EQ(r.messages, 8);
}

TEST(Executor, VerificationCatchesAWrongResult) {
  // Changing the reference input after the run must make verification fail and say where.
  std::vector<std::vector<double>> in = {{1, 2}, {10, 20}, {100, 200}};
  ScheduleSpec s;
  s.devices = 3;
  s.bytes = 16;
  ExecOptions opt;
  opt.data = true;
  opt.inputs = &in;
  Executor ex(s, Topology::switched(3, catalogue_link("nvlink4")), opt);
  ex.prepare();
  ex.run();
  in[2][1] += 1;
  EXPECT_FALSE(ex.verify());
  EXPECT_NE(ex.result().verification.find("element 1"), std::string::npos) << ex.result().verification;
}
