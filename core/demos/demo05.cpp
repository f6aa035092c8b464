// Code 05: overlapping computation and communication (P5 §7): chunked pipelining, TP prefill in
// chunks, layer-by-layer KV transfer, two-batch overlap.
#include <algorithm>
#include <cmath>

#include "demos/demo_table.hpp"
#include "model/links.hpp"
#include "parallel/overlap.hpp"
#include "parallel/parallel.hpp"
#include "model/presets.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

namespace {

json chunked_table() {
  DemoTable t("05-1", "Chunked pipelining: compute 1 ms, each chunk pays 10 us of alpha");
  t.columns({{"chunks", ""}, {"comm 1 ms", "ms"}, {"comm 2 ms", "ms"}});
  const double alpha = 10 * us;
  double one = 0, eight = 0, many = 0, best2 = 1e9;
  for (int n : {1, 2, 4, 8, 16, 32, 64, 256}) {
    const double t1 = chunked_overlap(1 * ms, 1 * ms, n, alpha).total_s;
    const double t2 = chunked_overlap(1 * ms, 2 * ms, n, alpha).total_s;
    if (n == 1) one = t1;
    if (n == 8) eight = t1;
    if (n == 256) many = t1;
    best2 = std::min(best2, t2);
    t.row({n, t1 / ms, t2 / ms});
  }
  t.check("no overlap (1 chunk)", one / ms, "2.01", "ms")
      .check("8 chunks", eight / ms, "1.20", "ms")
      .check("256 chunks (alpha eats the gain)", many / ms, "3.56", "ms")
      .check_text("comm 2 ms: no chunking beats the communication itself",
                  best2 >= 2 * ms ? "yes" : "no", "yes")
      .note("T = c/n + (a/n + alpha) + (n-1) max(c/n, a/n + alpha).");
  return t.to_json();
}

json tp_prefill_table() {
  DemoTable t("05-2", "TP8 prefill of 4,096 tokens, Llama-3-70B on NVLink 4: chunks by token");
  const ModelPreset& m = *find_model("llama3_70b");
  const GpuPreset& g = *find_gpu("h100");
  const Link nv = catalogue_link("nvlink4");
  const TpCost tp = tp_cost(m, g, 8, 4096, Phase::prefill, nv, AllreduceAlgorithm::ring);
  t.columns({{"chunks", ""}, {"one layer", "ms"}, {"80 layers", "ms"}, {"saved over 80 layers", "ms"}});
  const double chunk_alphas = 2 * allreduce_cost(AllreduceAlgorithm::ring, 8, 1, nv).alpha_time_s;
  double saved4 = 0, saved16 = 0, best = 0;
  int best_n = 1;
  TpPrefillOverlap one{};
  for (int n : {1, 2, 4, 8, 16, 32}) {
    const TpPrefillOverlap o = tp_prefill_overlap(m, g, 8, 4096, nv, n, AllreduceAlgorithm::ring);
    if (n == 1) one = o;
    if (n == 4) saved4 = o.saved_s;
    if (n == 16) saved16 = o.saved_s;
    if (o.saved_s > best) {
      best = o.saved_s;
      best_n = n;
    }
    t.row({n, o.layer_overlapped_s / ms, o.model_overlapped_s / ms, o.saved_s / ms});
  }
  t.check("compute a layer a GPU", one.layer_compute_s / ms, "1.32", "ms")
      .check("two 67 MB all-reduces a layer (ring)", one.layer_comm_s / ms, "0.71", "ms")
      .check("all-reduce share of the layer (\"about a third\")",
             one.layer_comm_s / one.layer_serial_s, "about 0.33", "", 0.08,
             "0.71 / (1.32 + 0.71) = 0.35, which the lecture calls about a third")
      .check("80 layers of compute (§2.5 \"about 105 ms\")", m.layers * one.layer_compute_s / ms, "105", "ms")
      .check("80 layers of communication (exercise 5)", tp.comm_time_s / ms, "about 57", "ms", 0.01)
      .check("bytes sent a GPU (exercise 5)", tp.bytes_sent_per_gpu / GB, "18.8", "GB")
      .check("saved with 4 chunks", saved4 / ms, "about 38", "ms", 0.05)
      .check_text("16 chunks save less than 4 (alpha)", saved16 < saved4 ? "yes" : "no", "yes")
      .check("saved with 4 chunks, read as 05-1's formula (a/n + the 28 alphas of a chunk)",
             m.layers * (one.layer_serial_s - chunked_overlap(one.layer_compute_s, one.layer_comm_s, 4,
                                                              chunk_alphas).total_s) / ms,
             "about 38", "ms", 0.05,
             "an alternative reading: the lecture's 38 ms comes out if a chunk is charged a/n plus "
             "another full set of alphas")
      .assume("Compute 989 TFLOP/s x 0.7; a layer's FLOPs = 2 x 855.6 M params x T + 2 x T^2 x "
              "8,192 (causal attention), / 8. Each chunk runs both of its all-reduces (ring, 14 "
              "alphas each) after its compute; layers do not overlap each other.")
      .note("Most saving at " + std::to_string(best_n) + " chunks: beyond that the extra alphas win.");
  return t.to_json();
}

json kv_table() {
  DemoTable t("05-3", "KV of a Llama-3-70B prompt from prefill to decode over 400 Gb/s NICs");
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  const Link ib = catalogue_link("ib_ndr");
  t.columns({{"prompt", ""}, {"KV", "GB"}, {"one NIC", "ms"}, {"8 NICs", "ms"},
             {"layer compute", "ms"}, {"layer by layer, exposed", "ms"}});
  KvTransfer k4{}, k32{};
  for (int tokens : {4096, 32768}) {
    const KvTransfer k = kv_transfer(m, tokens, 8, ib, prefill_layer_time_s(m, tokens, 8, F), false);
    (tokens == 4096 ? k4 : k32) = k;
    t.row({std::to_string(tokens / 1024) + "K", k.kv_bytes / GB, k.one_nic_s / ms, k.all_nics_s / ms,
           k.layer_compute_s / ms, k.layerwise_exposed_s / ms});
  }
  t.check("4K: KV", k4.kv_bytes / GB, "1.34", "GB")
      .check("4K: one NIC", k4.one_nic_s / ms, "33.6", "ms")
      .check("4K: eight NICs", k4.all_nics_s / ms, "4.2", "ms")
      .check("4K: layer by layer, exposed", k4.layerwise_exposed_s / us, "57", "us")
      .check("32K: KV (exercise 8)", k32.kv_bytes / GB, "10.7", "GB")
      .check("32K: one NIC", k32.one_nic_s / ms, "268", "ms")
      .check("32K: eight NICs", k32.all_nics_s / ms, "33.6", "ms")
      .check("32K: layer by layer, exposed", k32.layerwise_exposed_s / ms, "0.42", "ms")
      .check("32K: compute a layer (\"about 13 ms\")", k32.layer_compute_s / ms, "about 13", "ms", 0.03)
      .check_text("32K: a layer's compute still outlasts its KV transfer",
                  k32.layer_compute_s > k32.layer_transfer_s ? "yes" : "no", "yes")
      .assume("Prefill on 8 GPUs with TP8 (compute as in 05-2); eight NICs carry 1/8 of the "
              "bytes each at once, each paying alpha 5 us; a layer's KV leaves when the layer ends.");
  return t.to_json();
}

json tbo_table() {
  DemoTable t("05-4", "Two-batch overlap of a MoE layer: compute c = 1, all-to-all a");
  t.columns({{"a / c", ""}, {"serial", ""}, {"two-batch overlap", ""}, {"speed-up", "x"}});
  double best = 0, best_a = 0, small = 0, large = 0, large_saved = 0;
  for (double a : {0.05, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0, 20.0}) {
    const Timeline tb = two_batch_overlap(1.0, a);
    const double speedup = tb.serial_s / tb.total_s;
    if (speedup > best) {
      best = speedup;
      best_a = a;
    }
    if (a == 0.05) small = speedup;
    if (a == 20.0) {
      large = speedup;
      large_saved = tb.serial_s - tb.total_s;
    }
    t.row({a, tb.serial_s, tb.total_s, speedup});
  }
  t.check("largest speed-up", best, "1.33", "x")
      .check("at a / c", best_a, "1", "")
      .check_text("a << c: little gain (a = 0.05c: < 1.05x)", small < 1.05 ? "yes" : "no", "yes")
      .check_text("a >> c: at most the compute hides (a = 20c: saved <= c)",
                  large_saved <= 1.0 && large < 1.05 ? "yes" : "no", "yes")
      .assume("Each half-batch computes c/2 then communicates a/2; half B computes while half A "
              "communicates: T = c/2 + max(c, a)/2 + a/2, so the gain is min(c, a)/2 and the "
              "speed-up 2(c+a)/(c+a+max(c,a)) peaks at 4/3 when a = c.");
  return t.to_json();
}

}  // namespace

json demo_05() { return json::array({chunked_table(), tp_prefill_table(), kv_table(), tbo_table()}); }

}  // namespace commlab
