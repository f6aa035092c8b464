// Code 02: the collectives by per-message bookkeeping (P5 §4), run by the step engine.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/collectives.hpp"
#include "demos/demo_table.hpp"
#include "steps/executor.hpp"
#include "model/presets.hpp"
#include "steps/schedule.hpp"
#include "steps/topology.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

namespace {

// Shows elements [lo, hi) of a buffer, the rest as ".", e.g. "[., 12, ., .]".
std::string show(const std::vector<double>& v, int64_t lo, int64_t hi) {
  // snprintf, not a stringstream: iostreams would add their locale machinery to the wasm module.
  std::string out = "[";
  char buf[32];
  for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
    if (i) out += ", ";
    if (i >= lo && i < hi) {
      std::snprintf(buf, sizeof buf, "%g", v[i]);
      out += buf;
    } else {
      out += ".";
    }
  }
  return out + "]";
}

json six_operations_table() {
  DemoTable t("02-1", "The six operations and send / recv: 4 devices, an array of 4 each, before and after");
  t.columns({{"operation", ""}, {"algorithm", ""}, {"device", ""}, {"before", ""}, {"after", ""}});
  const int k = 4, n = 4;
  std::vector<std::vector<double>> inputs(k, std::vector<double>(n));
  for (int d = 0; d < k; ++d)
    for (int e = 0; e < n; ++e) inputs[d][e] = 10 * d + e + 1;  // device 2 holds 21 22 23 24
  const Link nv = catalogue_link("nvlink4");
  const Topology topo = Topology::switched(k, nv);
  int verified = 0, total = 0;
  for (Collective c : collectives()) {
    ScheduleSpec spec;
    spec.collective = c;
    spec.algorithm = collective_algorithms(c).front();
    spec.devices = k;
    spec.bytes = n * sizeof(double);
    const int devices_shown = c == Collective::sendrecv ? 2 : k;
    Topology sub = c == Collective::sendrecv ? Topology::switched(2, nv) : topo;
    if (c == Collective::sendrecv) spec.devices = 2;
    ExecOptions opt;
    opt.data = true;
    opt.inputs = &inputs;
    Executor ex(spec, sub, opt);
    ex.prepare();
    ex.run();
    ++total;
    verified += ex.verify();
    for (int d = 0; d < devices_shown; ++d) {
      // Which part of the buffer is input and which is output, per operation (P5 §4.1).
      int64_t in_lo = 0, in_hi = n, out_lo = 0, out_hi = n;
      if (c == Collective::allgather) in_lo = d, in_hi = d + 1;
      if (c == Collective::reduce_scatter) out_lo = d, out_hi = d + 1;
      if ((c == Collective::reduce && d != 0) || (c == Collective::sendrecv && d == 0)) out_lo = out_hi = 0;
      if (c == Collective::broadcast && d != 0) in_lo = in_hi = 0;
      if (c == Collective::sendrecv && d == 1) in_lo = in_hi = 0;
      t.row({d == 0 ? collective_name(c) : "", d == 0 ? spec.algorithm : "", "device " + std::to_string(d),
             show(inputs[d], in_lo, in_hi), show(ex.final_buffer(d), out_lo, out_hi)});
    }
  }
  t.check("operations whose result equals the reference (sum, gather, transpose)", verified,
          std::to_string(total), "")
      .assume("Device d starts with [10d+1, 10d+2, 10d+3, 10d+4]; roots are device 0; send / recv "
              "goes from device 0 to device 1. \".\" marks entries that are not input (before) or "
              "not defined by the operation (after).")
      .note("all-reduce = reduce-scatter + all-gather: compare the reduce-scatter blocks with the "
            "all-reduce rows.");
  return t.to_json();
}

json bookkeeping_table() {
  DemoTable t("02-2", "All-reduce of 8 MB on 8 devices (NVLink 4): messages counted one by one");
  const int k = 8;
  const double D = 8 * MB;
  const Link nv = catalogue_link("nvlink4");
  const Topology topo = Topology::switched(k, nv);
  const double lower = allreduce_lower_bound_bytes(k, D);
  t.columns({{"algorithm", ""}, {"steps", ""}, {"messages", ""}, {"bytes sent per device", "MB"},
             {"vs lower bound", "x"}, {"time", "us"}, {"closed form", "us"}, {"verified on data", ""}});
  bool all_verified = true, all_equal = true;
  std::string optimal;
  for (AllreduceAlgorithm a : allreduce_algorithms()) {
    ScheduleSpec spec;
    spec.algorithm = algorithm_name(a);
    spec.devices = k;
    spec.bytes = D;
    const CollectiveCost closed = allreduce_cost(a, k, D, nv);
    spec.chunks = closed.chunks;
    ExecOptions opt;
    const ExecResult r = execute(spec, topo, opt);
    // The same schedule on a small replica (8 KB a device) proves the data comes out right.
    ScheduleSpec small = spec;
    small.bytes = 8 * kB;
    ExecOptions data;
    data.data = true;
    const bool ok = execute(small, topo, data).verified;
    all_verified &= ok;
    all_equal &= std::fabs(r.time_s - closed.time_s) <= 1e-12 * closed.time_s && r.steps == closed.steps;
    if (std::fabs(r.max_bytes_sent - lower) <= 1e-9 * lower) optimal += (optimal.empty() ? "" : ", ") + spec.algorithm;
    t.row({a == AllreduceAlgorithm::in_switch ? spec.algorithm + " (the switch adds)" : spec.algorithm, r.steps,
           static_cast<double>(r.messages), r.max_bytes_sent / MB, r.max_bytes_sent / lower, r.time_s / us,
           closed.time_s / us, ok ? "yes" : "no"});
  }
  t.check("lower bound 2(k-1)/k D", lower / MB, "14", "MB")
      .check_text("bandwidth-optimal (send exactly the lower bound)", optimal, "ring, rabenseifner")
      .check_text("every algorithm's result verified on data", all_verified ? "yes" : "no", "yes")
      .check_text("executor equals the closed form (steps, time)", all_equal ? "yes" : "no", "yes")
      .check("ring steps", 2 * (k - 1), "14", "")
      .assume("Counted in accounting mode at 8 MB; the data check runs the same schedules on 8 KB "
              "a device (integers in doubles, so sums are exact). Double binary tree uses the "
              "chunk count that minimises its time.")
      .note("In-switch reduction sends D, less than the bound: the bound counts what devices must "
            "send when only devices add; the switch adds for them (P5 §5.4).");
  return t.to_json();
}

// P(expert j among the top-2) when two experts are drawn without replacement with weights w.
std::vector<double> top2_probability(const std::vector<double>& w) {
  double W = 0;
  for (double x : w) W += x;
  std::vector<double> p(w.size(), 0);
  for (size_t j = 0; j < w.size(); ++j) {
    p[j] = w[j] / W;
    for (size_t m = 0; m < w.size(); ++m)
      if (m != j) p[j] += w[m] / W * w[j] / (W - w[m]);
  }
  return p;
}

struct Dispatch {
  double time_s, hot_received, mean_received;
};

Dispatch moe_dispatch(double hot_weight, int k, double tokens, double token_bytes, const Link& link) {
  std::vector<double> w(k, 1.0);
  w[0] = hot_weight;
  const std::vector<double> p = top2_probability(w);
  ScheduleSpec spec;
  spec.collective = Collective::alltoall;
  spec.algorithm = "pairwise";
  spec.devices = k;
  spec.bytes = 2 * tokens * token_bytes;  // nominal; the messages carry pair_bytes
  spec.pair_bytes.assign(static_cast<size_t>(k) * k, 0.0);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (i != j) spec.pair_bytes[static_cast<size_t>(i) * k + j] = tokens * p[j] * token_bytes;
  const ExecResult r = execute(spec, Topology::switched(k, link), ExecOptions{});
  double sum = 0;
  for (double b : r.bytes_received) sum += b;
  return {r.time_s, r.bytes_received[0], sum / k};
}

json moe_table() {
  DemoTable t("02-3", "MoE dispatch on 8 GPUs, one expert each, top-2 (all-to-all, P5 §4.3)");
  const ModelPreset& m = *find_model("mixtral_8x7b");
  const Link nv = catalogue_link("nvlink4");
  const int k = 8;
  const double tokens = 4096;
  const double token_bytes = m.hidden * m.activation_bytes;
  t.columns({{"routing", ""}, {"hot GPU receives", "MB"}, {"mean receive", "MB"}, {"hot / mean", "x"},
             {"dispatch time", "us"}});
  const Dispatch u = moe_dispatch(1, k, tokens, token_bytes, nv);
  const Dispatch h = moe_dispatch(4, k, tokens, token_bytes, nv);
  t.row({"uniform", u.hot_received / MB, u.mean_received / MB, u.hot_received / u.mean_received, u.time_s / us});
  t.row({"expert 0 is 4x hot", h.hot_received / MB, h.mean_received / MB, h.hot_received / h.mean_received,
         h.time_s / us});
  t.check("uniform dispatch", u.time_s / us, "181", "us", 0.05)
      .check("one expert 4x hot", h.time_s / us, "415", "us", 0.05)
      .check("slow-down (\"2.3x\")", h.time_s / u.time_s, "2.3", "x", 0.05)
      .check("hot GPU receives vs the mean (\"about 2.5x\")", h.hot_received / h.mean_received, "about 2.5", "x", 0.05)
      .assume("Parameters the lecture leaves out: 4,096 tokens a GPU, Mixtral-8x7B's hidden size "
              "4,096 in BF16 (8 KB a token), NVLink 4, pairwise all-to-all (7 steps). Routing is "
              "the expectation of top-2 drawn without replacement with weights 1 (4 for the hot "
              "expert): the hot expert gets 62% of tokens, the others 20% each. A token for the "
              "GPU's own expert stays local.")
      .note("Every step of the pairwise exchange has one sender to the hot GPU, so every step "
            "waits for it: the busiest receiver sets the time.");
  return t.to_json();
}

}  // namespace

json demo_02() { return json::array({six_operations_table(), bookkeeping_table(), moe_table()}); }

}  // namespace commlab
