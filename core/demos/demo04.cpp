// Code 04: communication patterns of parallelism (P5 §6): the Megatron split checked for real,
// ring attention, TP / EP decode traffic, pipeline decode.
#include <algorithm>
#include <cmath>

#include "demos/demo_table.hpp"
#include "model/links.hpp"
#include "parallel/parallel.hpp"
#include "parallel/pipeline.hpp"
#include "model/presets.hpp"
#include "parallel/ring_attention.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

namespace {

json sharding_table() {
  DemoTable t("04-1", "Megatron split of a SwiGLU MLP and of attention, on random matrices in double");
  // Shapes small enough to run at once, with Llama-3-70B's ffn / hidden = 3.5 and its 8:1 GQA.
  const MlpSplitCheck mlp = check_mlp_split(16, 32, 112, 4);
  const AttentionSplitCheck att = check_attention_split(16, 16, 4, 8, 4);
  const ModelPreset& m = *find_model("llama3_70b");
  const double llama_ratio = 2.0 * m.ffn / m.hidden;
  const TpCost sp = tp_cost(m, *find_gpu("h100"), 8, 4096, Phase::prefill, catalogue_link("nvlink4"),
                            AllreduceAlgorithm::ring);
  t.columns({{"split", ""}, {"max |error| vs one device", ""}, {"bytes all-reduced a layer", "KB"}});
  t.row({"MLP: gate/up by column, down by row (Megatron)", mlp.max_abs_error, mlp.correct_bytes / kB});
  t.row({"MLP: sequence parallel (all-gather + reduce-scatter)", mlp.sp_max_abs_error, mlp.correct_bytes / kB});
  t.row({"MLP: gate/up by row (wrong: all-reduce before SiLU)", mlp.wrong_max_abs_error, mlp.wrong_bytes / kB});
  t.row({"attention: heads split, Wo by row", att.max_abs_error, mlp.correct_bytes / kB});
  const double worst = std::max({mlp.max_abs_error, mlp.sp_max_abs_error, att.max_abs_error});
  t.check_text("column/row and head splits reproduce one device (error < 1e-12)",
               worst < 1e-12 ? "yes" : "no", "yes")
      .check("wrong split: bytes vs the right one (this shape)", mlp.bytes_ratio, "7", "x")
      .check("wrong split: bytes vs the right one (Llama-3-70B: 2 x 28,672 / 8,192)", llama_ratio, "7", "x")
      .check("each wrong all-reduce vs the output (ffn / hidden)", double(m.ffn) / m.hidden, "3.5", "x")
      .assume("Check shapes: MLP 16 tokens, hidden 32, ffn 112 (Llama's 3.5 ratio), 4 shards; "
              "attention 16 tokens, 16 query / 4 KV heads of 8, causal, 4 shards; entries uniform, "
              "weights scaled by 1/sqrt(fan-in); seeds fixed.")
      .check("sequence parallel vs tensor parallel bytes (TP8 prefill, 4,096 tokens)",
             sp.sp_bytes_sent_per_gpu / sp.bytes_sent_per_gpu, "1", "x")
      .check_text("sequence parallel: norm / residual activations a GPU divided by k = 8",
                  sp.sp_activation_bytes_per_gpu * 8 == sp.tp_activation_bytes_per_gpu ? "yes" : "no", "yes")
      .note("Sequence parallelism sends the same bytes as the all-reduce (reduce-scatter + "
            "all-gather) and keeps tokens / k of the norm and residual activations a GPU.");
  return t.to_json();
}

json ring_table() {
  DemoTable t("04-2", "Ring attention: exact, and when the KV transfer hides (Llama-3-70B, one layer)");
  const RingAttentionCheck plain = check_ring_attention(4, 16, 16, false, SequenceLayout::contiguous);
  const RingAttentionCheck causal = check_ring_attention(4, 16, 16, true, SequenceLayout::zigzag);
  const ModelPreset& m = *find_model("llama3_70b");
  const double F = effective_flops(*find_gpu("h100"));
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  const RingAttentionCost c_nv = ring_attention_cost(m, F, nv, 16384);
  const RingAttentionCost c_ib = ring_attention_cost(m, F, ib, 16384);
  const RingAttentionCost ex7_long = ring_attention_cost(m, F, ib, 131072.0 / 8);
  const RingAttentionCost ex7_short = ring_attention_cost(m, F, ib, 8192.0 / 8);
  const CausalBalance contiguous = causal_balance(8, 16384, SequenceLayout::contiguous);
  const CausalBalance zigzag = causal_balance(8, 16384, SequenceLayout::zigzag);
  t.columns({{"case", ""}, {"value", ""}, {"unit", ""}});
  t.row({"ring vs one device, 4 devices x 16 tokens, full mask", plain.max_abs_error, "max |error|"});
  t.row({"ring vs one device, causal, zig-zag layout", causal.max_abs_error, "max |error|"});
  t.row({"hiding threshold on NVLink 4 (bandwidth only)", c_nv.threshold_tokens, "tokens / device"});
  t.row({"hiding threshold on NVLink 4 (with alpha 2 us)", c_nv.threshold_with_alpha_tokens, "tokens / device"});
  t.row({"hiding threshold on InfiniBand (bandwidth only)", c_ib.threshold_tokens, "tokens / device"});
  t.row({"hiding threshold on InfiniBand (with alpha 5 us)", c_ib.threshold_with_alpha_tokens, "tokens / device"});
  t.row({"causal, contiguous: busiest / mean work (8 devices)", contiguous.imbalance, "x"});
  t.row({"causal, zig-zag: busiest / mean work (8 devices)", zigzag.imbalance, "x"});
  t.row({"causal ring time, contiguous vs zig-zag", contiguous.ring_pairs / zigzag.ring_pairs, "x"});
  t.check_text("ring attention equals one device (error < 1e-12; the lecture's run: 7e-16)",
               std::max(plain.max_abs_error, causal.max_abs_error) < 1e-12 ? "yes" : "no", "yes")
      .check("threshold, NVLink", c_nv.threshold_tokens, "about 240", "tokens", 0.01)
      .check("threshold, InfiniBand", c_ib.threshold_tokens, "2,163", "tokens")
      .check("exercise 7: 128K on 8 devices, tokens per device", 131072.0 / 8, "16384", "tokens")
      .check_text("exercise 7: 16K per device hides on InfiniBand", ex7_long.hidden ? "yes" : "no", "yes")
      .check_text("exercise 7: 8K prompt, 1K per device hides", ex7_short.hidden ? "yes" : "no", "no")
      .assume("Per step a device computes its n queries against n keys, 4 n^2 x head_dim x "
              "q_heads FLOPs (no causal halving), at 989 TFLOP/s x 0.7, and receives n x 2 x "
              "kv_heads x head_dim x 2 B; the lecture's threshold ignores alpha (shown beside).")
      .note("With a causal mask the contiguous split leaves the last device twice the mean work "
            "and the ring as slow as without the mask; zig-zag (chunks i and 2k-1-i) balances it.");
  return t.to_json();
}

json decode_traffic_table() {
  DemoTable t("04-3", "Decode traffic a step: TP8 Llama-3-70B and EP8 Mixtral-8x7B, batch 64");
  const ModelPreset& llama = *find_model("llama3_70b");
  const ModelPreset& mixtral = *find_model("mixtral_8x7b");
  const GpuPreset& h100 = *find_gpu("h100");
  const Link nv = catalogue_link("nvlink4"), ib = catalogue_link("ib_ndr");
  const int batch = 64;
  auto tp = [&](const Link& l, AllreduceAlgorithm a) {
    return tp_cost(llama, h100, 8, batch, Phase::decode, l, a);
  };
  const TpCost nv_rd = tp(nv, AllreduceAlgorithm::recursive_doubling), nv_ring = tp(nv, AllreduceAlgorithm::ring);
  const TpCost ib_rd = tp(ib, AllreduceAlgorithm::recursive_doubling), ib_ring = tp(ib, AllreduceAlgorithm::ring);
  const EpCost ep_nv = ep_cost(mixtral, 8, batch, 1, nv);
  const EpCost ep_hot = ep_cost(mixtral, 8, batch, 4, nv);  // §4.3: one expert 4x as popular
  t.columns({{"setup", ""}, {"per call", "KB"}, {"calls", ""}, {"one step", "ms"}, {"bytes a GPU", "MB"}});
  t.row({"TP8 on NVLink 4, recursive doubling", nv_rd.allreduce_bytes / kB, nv_rd.allreduces,
         nv_rd.comm_time_s / ms, nv_rd.bytes_sent_per_gpu / MB});
  t.row({"TP8 on NVLink 4, ring", nv_ring.allreduce_bytes / kB, nv_ring.allreduces,
         nv_ring.comm_time_s / ms, nv_ring.bytes_sent_per_gpu / MB});
  t.row({"TP8 on InfiniBand, recursive doubling", ib_rd.allreduce_bytes / kB, ib_rd.allreduces,
         ib_rd.comm_time_s / ms, ib_rd.bytes_sent_per_gpu / MB});
  t.row({"TP8 on InfiniBand, ring", ib_ring.allreduce_bytes / kB, ib_ring.allreduces,
         ib_ring.comm_time_s / ms, ib_ring.bytes_sent_per_gpu / MB});
  t.row({"reading the weights (141 GB / 8 from HBM)", json(""), json(""),
         nv_ring.weight_read_time_s / ms, json("")});
  t.row({"EP8 Mixtral on NVLink 4 (dispatch + combine)", ep_nv.dispatch_bytes_per_gpu_layer / kB,
         2 * mixtral.layers, ep_nv.step_time_s / ms, ep_nv.bytes_per_gpu_step / MB});
  t.row({"EP8 Mixtral, one expert 4x hot (busiest GPU)", ep_hot.busiest_recv_bytes_layer / kB,
         2 * mixtral.layers, ep_hot.step_time_s / ms, json("")});
  t.check("TP8 on NVLink, low end (recursive doubling)", nv_rd.comm_time_s / ms, "2", "ms")
      .check("TP8 on NVLink, high end (ring)", nv_ring.comm_time_s / ms, "5", "ms")
      .check("TP8 on InfiniBand, low end (recursive doubling)", ib_rd.comm_time_s / ms, "15", "ms")
      .check("TP8 on InfiniBand, high end (ring)", ib_ring.comm_time_s / ms, "19", "ms")
      .check("reading the weights", nv_ring.weight_read_time_s / ms, "about 6.6", "ms", 0.01)
      .check("EP8 Mixtral decode, bytes a GPU a step", ep_nv.bytes_per_gpu_step / MB, "about 7", "MB", 0.05)
      .check_text("EP8 all-to-all: time mostly alpha (alpha > half of it)",
                  ep_nv.alltoall_alpha_time_s > 0.5 * ep_nv.alltoall_time_s ? "yes" : "no", "yes")
      .check("EP8: partners a GPU exchanges with each layer", ep_nv.alltoall_alpha_time_s / nv.alpha_s, "7", "")
      .check("one expert 4x hot: its GPU receives vs the mean (§4.3)", ep_hot.skew, "about 2.5", "x", 0.02)
      .assume("Batch 64 decode tokens a step (the lecture's 1 MB activation), 8 tokens a GPU for EP8; "
              "each token to its top-2 experts, 7/8 of them on other GPUs (a token is sent once per expert); "
              "pairwise all-to-all, 7 rounds of alpha; a hot expert is "
              "drawn with 4x the weight, top-2 without replacement; the range \"2-5 ms\" / "
              "\"15-19 ms\" is read as "
              "recursive doubling to ring.");
  return t.to_json();
}

json pipeline_table() {
  DemoTable t("04-4", "Pipeline decode: 4 stages of 2 ms, 1 MB activations over InfiniBand, 100 tokens");
  const ModelPreset& m = *find_model("llama3_70b");
  const Link ib = catalogue_link("ib_ndr");
  const double act = 64 * m.hidden * m.activation_bytes;
  const double transfer = transfer_time_s(ib, act);
  t.columns({{"micro-batches", ""}, {"token interval", "ms"}, {"utilisation", "%"}, {"tokens / s", ""}});
  double u1 = 0, u4 = 0, i4 = 0;
  for (int mb : {1, 2, 3, 4, 5, 8}) {
    const PipelineResult r = simulate_pipeline_decode(4, mb, 2 * ms, transfer, 100, 0);
    if (mb == 1) u1 = r.utilisation;
    if (mb == 4) {
      u4 = r.utilisation;
      i4 = r.token_interval_s;
    }
    t.row({mb, r.token_interval_s / ms, 100 * r.utilisation, r.tokens_per_s});
  }
  // §6.3: with 8 stages a token crosses 7 stage boundaries, one activation of batch 64 each.
  const PipelineResult eight = simulate_pipeline_decode(8, 1, 1 * ms, transfer, 1, 1);
  int boundaries = 0;
  for (const PipelineInterval& i : eight.timeline) boundaries += i.kind == "transfer";
  // Exercise 6: 8 stages of 1 ms, 0.1 ms transfers.
  const PipelineResult ex6 = simulate_pipeline_decode(8, 8, 1 * ms, 0.1 * ms, 100, 0);
  t.check("token interval, 4 micro-batches", i4 / ms, "8.15", "ms")
      .check("busy, 4 micro-batches", 100 * u4, "98", "%")
      .check("busy, 1 micro-batch (\"1/4 of the time\")", 100 * u1, "25", "%")
      .check("8 stages: activations sent a token (stage boundaries)", boundaries, "7", "")
      .check("activation a boundary, batch 64", act / MB, "1", "MB")
      .check("exercise 6: pp_decode(8, 8, 1e-3, 1e-4, 100)", ex6.token_interval_s / ms, "8.77", "ms")
      .check("exercise 6: floor of the interval, 8 x 1 + 7 x 0.1", ex6.steady_interval_s / ms, "8.7", "ms")
      .check("exercise 6: busy with 8 micro-batches", 100 * ex6.utilisation, "about 91", "%", 0.01)
      .check("exercise 6: micro-batches to fill completely (\"one or two more\")",
             ex6.microbatches_to_fill, "9", "")
      .assume("The 1 MB activation is batch 64 x 8,192 x 2 B, sent over InfiniBand (5 us + "
              "1.05 MB / 40 GB/s = 31 us); 100 tokens a micro-batch; the interval is makespan / "
              "tokens, all micro-batches ready at time 0, stages first come first served.")
      .note("The interval never drops below one token's trip through all stages: pipelining "
            "raises throughput, not latency.");
  return t.to_json();
}

}  // namespace

json demo_04() {
  return json::array({sharding_table(), ring_table(), decode_traffic_table(), pipeline_table()});
}

}  // namespace commlab
