// The executor on a uniform topology (one switch) equals the closed forms of collectives.cpp,
// for every algorithm, device counts 2-1,024 and several sizes; golden schedules of ring and
// Rabenseifner all-reduce on 8 devices.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "model/collectives.hpp"
#include "steps/executor.hpp"
#include "model/links.hpp"
#include "steps/schedule.hpp"
#include "steps/topology.hpp"

using namespace commlab;

namespace {

const std::vector<int> kDevices = {2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 64, 100, 127, 128, 255, 256, 1000, 1024};
const std::vector<double> kSizes = {1e3, 8e6, 1e9};

void expect_close(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::fabs(want))) << what;
}

ExecResult account(const ScheduleSpec& spec, const Topology& topo) {
  ExecOptions opt;
  return execute(spec, topo, opt);
}

std::string label(const ScheduleSpec& s) {
  std::ostringstream os;
  os << collective_name(s.collective) << "/" << s.algorithm << " k=" << s.devices << " D=" << s.bytes
     << " C=" << s.chunks;
  return os.str();
}

void expect_equal(const ExecResult& r, const CollectiveCost& c, const std::string& what) {
  EXPECT_EQ(r.steps, c.steps) << what;
  expect_close(r.max_bytes_sent, c.bytes_sent_per_device, what + " bytes sent");
  expect_close(r.time_s, c.time_s, what + " time");
  expect_close(r.alpha_time_s, c.alpha_time_s, what + " alpha time");
}

}  // namespace

TEST(Schedule, AllreduceEqualsClosedForm) {
  const Link link = catalogue_link("nvlink4");
  for (AllreduceAlgorithm a : allreduce_algorithms())
    for (int k : kDevices)
      for (double D : kSizes) {
        const CollectiveCost c = allreduce_cost(a, k, D, link);
        ScheduleSpec s;
        s.algorithm = algorithm_name(a);
        s.devices = k;
        s.bytes = D;
        s.chunks = c.chunks;
        expect_equal(account(s, Topology::switched(k, link)), c, label(s));
      }
}

TEST(Schedule, DoubleBinaryTreeAnyChunkCount) {
  const Link link = catalogue_link("ib_ndr");
  for (int k : {2, 3, 5, 8, 10, 33, 64})
    for (int C : {1, 2, 3, 7, 16, 64}) {
      const CollectiveCost c = allreduce_cost(AllreduceAlgorithm::double_binary_tree, k, 4e6, link, C);
      ScheduleSpec s;
      s.algorithm = "double_binary_tree";
      s.devices = k;
      s.bytes = 4e6;
      s.chunks = C;
      expect_equal(account(s, Topology::switched(k, link)), c, label(s));
      EXPECT_EQ(c.steps, 2 * ceil_log2(k) + C - 1);
    }
}

TEST(Schedule, DoubleBinaryTreesAreComplementary) {
  // A device inside one tree is a leaf of the other (P5 §5.2), for even (mirrored) and odd
  // (shifted) counts.
  for (int k : {4, 5, 6, 7, 8, 9, 16, 31, 64, 100}) {
    std::vector<int> children[2];
    for (int t = 0; t < 2; ++t) {
      children[t].assign(k, 0);
      int roots = 0;
      for (int r = 0; r < k; ++r) {
        const int p = dtree_parent(k, r, t);
        if (p < 0) ++roots;
        else ++children[t][p];
      }
      EXPECT_EQ(roots, 1) << k;
    }
    int inner_in_both = 0;
    for (int r = 0; r < k; ++r) inner_in_both += children[0][r] > 0 && children[1][r] > 0;
    EXPECT_LE(inner_in_both, k % 2 == 0 ? 0 : 2) << k;  // a shift leaves at most the ends
  }
}

TEST(Schedule, OtherCollectivesEqualClosedForm) {
  const Link link = catalogue_link("ib_ndr");
  for (Collective c : collectives())
    for (const std::string& a : collective_algorithms(c)) {
      if (c == Collective::allreduce) continue;
      for (int k : kDevices) {
        if (c == Collective::sendrecv && k != 2) continue;
        if ((c == Collective::alltoall && a == "direct") && k > 256) continue;  // k^2 messages
        for (double D : kSizes) {
          ScheduleSpec s;
          s.collective = c;
          s.algorithm = a;
          s.devices = k;
          s.bytes = D;
          expect_equal(account(s, Topology::switched(k, link)), collective_cost(c, a, k, D, link), label(s));
        }
      }
    }
}

TEST(Schedule, RootDoesNotChangeTheCost) {
  const Link link = catalogue_link("nvlink4");
  for (Collective c : {Collective::broadcast, Collective::reduce})
    for (const std::string& a : collective_algorithms(c))
      for (int root : {0, 3, 6}) {
        ScheduleSpec s;
        s.collective = c;
        s.algorithm = a;
        s.devices = 7;
        s.bytes = 1e6;
        s.root = root;
        expect_equal(account(s, Topology::switched(7, link)), collective_cost(c, a, 7, 1e6, link), label(s));
      }
}

TEST(Schedule, HierarchicalEqualsClosedForm) {
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  for (auto [N, G] : std::vector<std::pair<int, int>>{{1, 8}, {2, 1}, {4, 8}, {3, 8}, {4, 16}, {5, 3}, {16, 8}})
    for (AllreduceAlgorithm inter : {AllreduceAlgorithm::ring, AllreduceAlgorithm::recursive_doubling,
                                     AllreduceAlgorithm::rabenseifner, AllreduceAlgorithm::binary_tree,
                                     AllreduceAlgorithm::double_binary_tree})
      for (double D : {64e3, 1e9}) {
        const HierarchicalCost h = hierarchical_allreduce_cost(N, G, D, nv, ib, inter);
        ScheduleSpec s;
        s.algorithm = "hierarchical";
        s.devices = N * G;
        s.gpus_per_node = G;
        s.bytes = D;
        s.inter_algorithm = inter;
        s.chunks = h.inter_allreduce.chunks;
        const ExecResult r = account(s, Topology::two_level(N, G, nv, ib));
        const std::string what = label(s) + " N=" + std::to_string(N) + " inter=" + algorithm_name(inter);
        EXPECT_EQ(r.steps, h.total.steps) << what;
        expect_close(r.time_s, h.total.time_s, what + " time");
        expect_close(r.max_bytes_sent, h.total.bytes_sent_per_device, what + " bytes");
      }
}

TEST(Schedule, FlatRingAcrossNodesPaysTheNicAtEveryStep) {
  // P5 §5.5: the flat ring on 4 x 8 GPUs waits for InfiniBand at every step (48.75 ms at 1 GB).
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  ScheduleSpec s;
  s.devices = 32;
  s.bytes = 1e9;
  const ExecResult r = account(s, Topology::two_level(4, 8, nv, ib));
  expect_close(r.time_s, allreduce_cost(AllreduceAlgorithm::ring, 32, 1e9, ib).time_s, "flat ring");
}

namespace {
std::string dump(const ScheduleSpec& spec) {
  std::ostringstream os;
  build_schedule(spec, [&](const Step& step) {
    os << step.phase << ":";
    for (const Message& m : step.messages)
      os << " " << m.src << ">" << m.dst << (m.op == MsgOp::reduce ? "+" : "=") << "[" << m.src_begin
         << "," << m.src_begin + m.len << ")/" << m.den;
    os << "\n";
  });
  return os.str();
}
}  // namespace

TEST(Schedule, GoldenRingAllreduce8) {
  ScheduleSpec s;
  s.devices = 8;
  s.bytes = 8e6;
  const std::string want =
      "reduce-scatter: 0>1+[7,8)/8 1>2+[0,1)/8 2>3+[1,2)/8 3>4+[2,3)/8 4>5+[3,4)/8 5>6+[4,5)/8 6>7+[5,6)/8 7>0+[6,7)/8\n"
      "reduce-scatter: 0>1+[6,7)/8 1>2+[7,8)/8 2>3+[0,1)/8 3>4+[1,2)/8 4>5+[2,3)/8 5>6+[3,4)/8 6>7+[4,5)/8 7>0+[5,6)/8\n"
      "reduce-scatter: 0>1+[5,6)/8 1>2+[6,7)/8 2>3+[7,8)/8 3>4+[0,1)/8 4>5+[1,2)/8 5>6+[2,3)/8 6>7+[3,4)/8 7>0+[4,5)/8\n"
      "reduce-scatter: 0>1+[4,5)/8 1>2+[5,6)/8 2>3+[6,7)/8 3>4+[7,8)/8 4>5+[0,1)/8 5>6+[1,2)/8 6>7+[2,3)/8 7>0+[3,4)/8\n"
      "reduce-scatter: 0>1+[3,4)/8 1>2+[4,5)/8 2>3+[5,6)/8 3>4+[6,7)/8 4>5+[7,8)/8 5>6+[0,1)/8 6>7+[1,2)/8 7>0+[2,3)/8\n"
      "reduce-scatter: 0>1+[2,3)/8 1>2+[3,4)/8 2>3+[4,5)/8 3>4+[5,6)/8 4>5+[6,7)/8 5>6+[7,8)/8 6>7+[0,1)/8 7>0+[1,2)/8\n"
      "reduce-scatter: 0>1+[1,2)/8 1>2+[2,3)/8 2>3+[3,4)/8 3>4+[4,5)/8 4>5+[5,6)/8 5>6+[6,7)/8 6>7+[7,8)/8 7>0+[0,1)/8\n"
      "all-gather: 0>1=[0,1)/8 1>2=[1,2)/8 2>3=[2,3)/8 3>4=[3,4)/8 4>5=[4,5)/8 5>6=[5,6)/8 6>7=[6,7)/8 7>0=[7,8)/8\n"
      "all-gather: 0>1=[7,8)/8 1>2=[0,1)/8 2>3=[1,2)/8 3>4=[2,3)/8 4>5=[3,4)/8 5>6=[4,5)/8 6>7=[5,6)/8 7>0=[6,7)/8\n"
      "all-gather: 0>1=[6,7)/8 1>2=[7,8)/8 2>3=[0,1)/8 3>4=[1,2)/8 4>5=[2,3)/8 5>6=[3,4)/8 6>7=[4,5)/8 7>0=[5,6)/8\n"
      "all-gather: 0>1=[5,6)/8 1>2=[6,7)/8 2>3=[7,8)/8 3>4=[0,1)/8 4>5=[1,2)/8 5>6=[2,3)/8 6>7=[3,4)/8 7>0=[4,5)/8\n"
      "all-gather: 0>1=[4,5)/8 1>2=[5,6)/8 2>3=[6,7)/8 3>4=[7,8)/8 4>5=[0,1)/8 5>6=[1,2)/8 6>7=[2,3)/8 7>0=[3,4)/8\n"
      "all-gather: 0>1=[3,4)/8 1>2=[4,5)/8 2>3=[5,6)/8 3>4=[6,7)/8 4>5=[7,8)/8 5>6=[0,1)/8 6>7=[1,2)/8 7>0=[2,3)/8\n"
      "all-gather: 0>1=[2,3)/8 1>2=[3,4)/8 2>3=[4,5)/8 3>4=[5,6)/8 4>5=[6,7)/8 5>6=[7,8)/8 6>7=[0,1)/8 7>0=[1,2)/8\n";
  EXPECT_EQ(dump(s), want);
}

TEST(Schedule, GoldenRabenseifnerAllreduce8) {
  ScheduleSpec s;
  s.algorithm = "rabenseifner";
  s.devices = 8;
  s.bytes = 8e6;
  const std::string want =
      "reduce-scatter (recursive halving): 0>4+[4,8)/8 1>5+[4,8)/8 2>6+[4,8)/8 3>7+[4,8)/8 4>0+[0,4)/8 5>1+[0,4)/8 6>2+[0,4)/8 7>3+[0,4)/8\n"
      "reduce-scatter (recursive halving): 0>2+[2,4)/8 1>3+[2,4)/8 2>0+[0,2)/8 3>1+[0,2)/8 4>6+[6,8)/8 5>7+[6,8)/8 6>4+[4,6)/8 7>5+[4,6)/8\n"
      "reduce-scatter (recursive halving): 0>1+[1,2)/8 1>0+[0,1)/8 2>3+[3,4)/8 3>2+[2,3)/8 4>5+[5,6)/8 5>4+[4,5)/8 6>7+[7,8)/8 7>6+[6,7)/8\n"
      "all-gather (recursive doubling): 0>1=[0,1)/8 1>0=[1,2)/8 2>3=[2,3)/8 3>2=[3,4)/8 4>5=[4,5)/8 5>4=[5,6)/8 6>7=[6,7)/8 7>6=[7,8)/8\n"
      "all-gather (recursive doubling): 0>2=[0,2)/8 1>3=[0,2)/8 2>0=[2,4)/8 3>1=[2,4)/8 4>6=[4,6)/8 5>7=[4,6)/8 6>4=[6,8)/8 7>5=[6,8)/8\n"
      "all-gather (recursive doubling): 0>4=[0,4)/8 1>5=[0,4)/8 2>6=[0,4)/8 3>7=[0,4)/8 4>0=[4,8)/8 5>1=[4,8)/8 6>2=[4,8)/8 7>3=[4,8)/8\n";
  EXPECT_EQ(dump(s), want);
}
