// Code 03: all-reduce algorithms, hierarchy, NCCL protocols, small messages (P5 §5).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/collectives.hpp"
#include "demos/demo_table.hpp"
#include "model/nccl.hpp"
#include "model/presets.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

namespace {

std::string size_label(double n) {
  if (n >= GB) return std::to_string(int(n / GB)) + " GB";
  if (n >= MB) return std::to_string(int(n / MB)) + " MB";
  return std::to_string(int(n / kB)) + " KB";
}

// The size above which the ring all-reduce beats recursive doubling on k devices over `link`.
double ring_doubling_crossover_bytes(int k, const Link& link) {
  const CheapestMap m = cheapest_changes(2, [&](int i, double n) {
    return allreduce_cost(i == 0 ? AllreduceAlgorithm::recursive_doubling : AllreduceAlgorithm::ring, k, n, link).time_s;
  }, 1, 1e12);
  return m.changes.empty() ? 0 : m.changes.front().bytes;
}

// Time of every flat algorithm at several sizes; records the fastest (no in-switch) per size.
void algorithms_rows(DemoTable& t, int k, const Link& link, const std::vector<double>& sizes,
                     std::vector<std::string>* fastest) {
  std::vector<std::pair<std::string, std::string>> cols = {{"size", ""}};
  for (AllreduceAlgorithm a : allreduce_algorithms()) cols.push_back({algorithm_name(a), "us"});
  cols.push_back({"fastest (no in-switch)", ""});
  t.columns(cols);
  for (double n : sizes) {
    std::vector<json> row = {size_label(n)};
    for (AllreduceAlgorithm a : allreduce_algorithms())
      row.push_back(allreduce_cost(a, k, n, link).time_s / us);
    const AutoChoice best = allreduce_auto(k, n, link, false);
    row.push_back(algorithm_name(best.algorithm));
    fastest->push_back(algorithm_name(best.algorithm));
    t.row(row);
  }
}

json sizes_table() {
  DemoTable t("03-1", "Message size decides the algorithm: 8 GPUs on NVLink 4");
  const Link nv = catalogue_link("nvlink4");
  const std::vector<double> sizes = {1 * kB, 64 * kB, 1 * MB, 16 * MB, 256 * MB, 1 * GB};
  std::vector<std::string> fastest;
  algorithms_rows(t, 8, nv, sizes, &fastest);
  // At large sizes ring and Rabenseifner send the same bytes; Rabenseifner's fewer alphas
  // make it the nominal winner, within a fraction of a percent of ring.
  const double ring = allreduce_cost(AllreduceAlgorithm::ring, 8, 1 * GB, nv).time_s;
  const double rab = allreduce_cost(AllreduceAlgorithm::rabenseifner, 8, 1 * GB, nv).time_s;
  const bool bandwidth_optimal_wins =
      (fastest.back() == "ring" || fastest.back() == "rabenseifner") && std::abs(ring - rab) / ring < 0.01;
  bool in_switch_everywhere = true;
  for (double n : sizes)
    in_switch_everywhere &= allreduce_auto(8, n, nv, true).algorithm == AllreduceAlgorithm::in_switch;
  t.check_text("fastest at 1 KB", fastest.front(), "recursive_doubling")
      .check_text("fastest at 1 GB is ring or Rabenseifner, within 1% of each other",
                  bandwidth_optimal_wins ? "yes" : "no", "yes")
      .check_text("in-switch reduction fastest at every size (ideal)", in_switch_everywhere ? "yes" : "no", "yes");
  return t.to_json();
}

json many_devices_table() {
  DemoTable t("03-2", "64 devices, all on InfiniBand");
  const Link ib = catalogue_link("ib_ndr");
  std::vector<std::string> fastest;
  algorithms_rows(t, 64, ib, {64 * kB, 1 * MB, 16 * MB, 256 * MB}, &fastest);
  const CollectiveCost ring = allreduce_cost(AllreduceAlgorithm::ring, 64, 1 * MB, ib);
  const CollectiveCost rd = allreduce_cost(AllreduceAlgorithm::recursive_doubling, 64, 1 * MB, ib);
  t.check("ring at 1 MB: alpha alone", ring.alpha_time_s / us, "630", "us")
      .check("ring steps", ring.steps, "126", "")
      .check("recursive doubling at 1 MB", rd.time_s / us, "180", "us");
  // §5.3: "the crossover moves to larger messages" holds on one link; 8 GPUs on NVLink against 64
  // on InfiniBand changes the link too, and the link's alpha x beta scales every crossover.
  const Link nv = catalogue_link("nvlink4");
  const double nv8 = ring_doubling_crossover_bytes(8, nv), nv64 = ring_doubling_crossover_bytes(64, nv);
  const double ib64 = ring_doubling_crossover_bytes(64, ib);
  auto mb = [](double n) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g MB", n / MB);
    return std::string(text);
  };
  t.check_text("one link (NVLink 4): the ring/recursive-doubling crossover is larger with 64 devices than with 8",
               nv64 > nv8 ? "yes" : "no", "yes")
      .note("Ring against recursive doubling on one link, NVLink 4: the crossover moves from " + mb(nv8) +
            " with 8 devices to " + mb(nv64) + " with 64, " + (nv64 > nv8 ? "larger" : "smaller") +
            " messages (the ring's 126 alphas against 6). On InfiniBand with 64 devices it is " + mb(ib64) +
            ", " + (ib64 < nv8 ? "below" : "above") + " the 8 GPUs on NVLink: that comparison changes the link's "
            "alpha x beta as well as the device count.");
  return t.to_json();
}

json hierarchical_table() {
  DemoTable t("03-3", "Hierarchical vs flat ring: 4 nodes x 8 GPUs (NVLink 4 in, InfiniBand across)");
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  t.columns({{"size", ""}, {"flat ring", "ms"}, {"hierarchical", "ms"}, {"speed-up", "x"}});
  double min_ratio = 1e9, max_ratio = 0;
  for (double n : {64 * kB, 1 * MB, 16 * MB, 256 * MB, 1 * GB}) {
    const double flat = allreduce_cost(AllreduceAlgorithm::ring, 32, n, ib).time_s;
    const double hier = hierarchical_allreduce_cost(4, 8, n, nv, ib).total.time_s;
    min_ratio = std::min(min_ratio, flat / hier);
    max_ratio = std::max(max_ratio, flat / hier);
    t.row({size_label(n), flat / ms, hier / ms, flat / hier});
  }
  const double flat = allreduce_cost(AllreduceAlgorithm::ring, 32, 1 * GB, ib).time_s;
  const double hier = hierarchical_allreduce_cost(4, 8, 1 * GB, nv, ib).total.time_s;
  const double flat16 = allreduce_cost(AllreduceAlgorithm::ring, 64, 1 * GB, ib).time_s;
  const double hier16 = hierarchical_allreduce_cost(4, 16, 1 * GB, nv, ib).total.time_s;
  t.check("hierarchical, 1 GB", hier / ms, "9.61", "ms")
      .check("flat ring, 1 GB", flat / ms, "48.75", "ms")
      .check("smallest speed-up, 64 KB to 1 GB (\"about 5x\")", min_ratio, "about 5", "x", 0.05)
      .check("largest speed-up, 64 KB to 1 GB (\"about 5x\")", max_ratio, "about 5", "x", 0.08)
      .check("16 GPUs a node, 1 GB (\"6-7x\")", flat16 / hier16, "6.5", "x", 0.08)
      .note("The flat ring crosses a NIC at every step; the hierarchy sends only D/G across nodes, "
            "on G NICs at once, and does the rest on NVLink.");
  return t.to_json();
}

json protocols_table() {
  DemoTable t("03-4", "NCCL protocols for an 8-GPU ring all-reduce on NVLink 4");
  const Link nv = catalogue_link("nvlink4");
  t.columns({{"size", ""}, {"LL", "us"}, {"LL128", "us"}, {"Simple", "us"}, {"fastest", ""}});
  std::string at_64k, at_16m, at_256m;
  for (double n : {4 * kB, 64 * kB, 1 * MB, 16 * MB, 64 * MB, 256 * MB, 1 * GB}) {
    const NcclChoice c = nccl_select(8, n, nv, NcclTransport::nvlink, {NcclAlgorithm::ring});
    t.row({size_label(n), c.candidates[0].time_s / us, c.candidates[1].time_s / us,
           c.candidates[2].time_s / us, protocol_name(c.best.protocol)});
    if (n == 64 * kB) at_64k = protocol_name(c.best.protocol);
    if (n == 16 * MB) at_16m = protocol_name(c.best.protocol);
    if (n == 256 * MB) at_256m = protocol_name(c.best.protocol);
  }
  t.check_text("fastest at 64 KB", at_64k, "LL")
      .check_text("fastest at 16 MB", at_16m, "LL128")
      .check_text("fastest at 256 MB", at_256m, "Simple")
      .assume("Latencies from NCCL's tuning.cc (ring on NVLink: LL 3.6 + 0.47 us a step, LL128 "
              "10 + 1.9 us, Simple 8.4 + 3.4 us); bandwidth shares LL 50%, LL128 120/128, Simple "
              "100% (Demystifying NCCL).");
  return t.to_json();
}

json small_messages_table() {
  DemoTable t("03-5", "TP8 decode of Llama-3-70B on NVLink 4: 160 all-reduces a step");
  const ModelPreset& m = *find_model("llama3_70b");
  const GpuPreset& gpu = *find_gpu("h100");
  const Link nv = catalogue_link("nvlink4");
  const int calls = 2 * m.layers;
  const double weights_s = m.weight_bytes / 8 / (gpu.hbm_Bps * kDefaultEfficiency);
  t.columns({{"batch", ""}, {"bytes per all-reduce", "KB"}, {"ring, one step", "ms"},
             {"recursive doubling, one step", "ms"}, {"reading the weights", "ms"}});
  double ring_b1 = 0;
  for (int batch : {1, 8, 64}) {
    const double bytes = batch * m.hidden * m.activation_bytes;
    const double ring = calls * allreduce_cost(AllreduceAlgorithm::ring, 8, bytes, nv).time_s;
    const double rd = calls * allreduce_cost(AllreduceAlgorithm::recursive_doubling, 8, bytes, nv).time_s;
    if (batch == 1) ring_b1 = ring;
    t.row({batch, bytes / kB, ring / ms, rd / ms, weights_s / ms});
  }
  t.check("all-reduces a step", calls, "160", "")
      .check("generic ring, batch 1", ring_b1 / ms, "4.5", "ms")
      .check("reading 141 GB / 8 from HBM", weights_s / ms, "about 6.6", "ms")
      .check("ring / weights (\"two thirds\")", ring_b1 / weights_s, "about 0.67", "", 0.05)
      .assume("Batch 1 for the lecture's 4.5 ms; HBM3 read at 3.35 TB/s x 0.8.");
  return t.to_json();
}

}  // namespace

json demo_03() {
  return json::array({sizes_table(), many_devices_table(), hierarchical_table(), protocols_table(),
                      small_messages_table()});
}

}  // namespace commlab
