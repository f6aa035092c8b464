// Ops of tensor, sequence, expert and context parallelism (P5 §6): tp, sharding_check, moe,
// parallelisms, ring_attention, ring_attention_check.
#include <algorithm>
#include <cmath>

#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/json_writer.hpp"
#include "base/work_meter.hpp"
#include "model/collectives.hpp"
#include "model/link_field.hpp"
#include "model/presets.hpp"
#include "model/small_allreduce.hpp"
#include "parallel/compare.hpp"
#include "parallel/parallel.hpp"
#include "parallel/ring_attention.hpp"

namespace commlab {

namespace {

// tp's all-reduce (P5 §5.7): a flat algorithm, vLLM's one or two shots, or with `protocol` NCCL's
// ring under LL, LL128 or Simple (§5.6).
AllreduceKernel read_kernel(Request& r) {
  // read_algorithm's names, then vLLM's shots: built once.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = allreduce_names(false);
    for (CustomShot s : {CustomShot::one_shot, CustomShot::two_shot}) v.push_back(custom_shot_name(s));
    return v;
  }();
  const std::string name = r.name_or("algorithm", "ring", names);
  const bool with_protocol = r.has("protocol");
  if (with_protocol && name != "ring")
    refuse("invalid_value", {"field '", r.path("protocol"), "': NCCL's protocols apply to algorithm 'ring' only, not '",
                             name, "'; allowed: leave 'protocol' out, or set 'algorithm' to 'ring'"});
  if (with_protocol) {
    const std::string p = r.name("protocol", {"LL", "LL128", "Simple"});
    return AllreduceKernel::nccl(p == "LL" ? NcclProtocol::LL : p == "LL128" ? NcclProtocol::LL128 : NcclProtocol::Simple);
  }
  if (name == "one_shot") return AllreduceKernel::vllm(CustomShot::one_shot);
  if (name == "two_shot") return AllreduceKernel::vllm(CustomShot::two_shot);
  AllreduceAlgorithm a;
  parse_allreduce_algorithm(name, &a);
  return a;
}

void write_kernel(JsonWriter& w, const AllreduceKernel& kernel, const TpCost& c) {
  w.begin_object();
  write_cost_members(w, c.call.cost);
  if (kernel.kind == AllreduceKernel::Kind::nccl_ring) w.member("protocol", protocol_name(kernel.protocol));
  if (kernel.kind == AllreduceKernel::Kind::flat && kernel.algorithm == AllreduceAlgorithm::in_switch)
    w.member("applies", c.call.applies).member("limit", c.call.limit);  // "switch": none reduces here
  if (kernel.kind == AllreduceKernel::Kind::custom) {
    // vLLM's kernel outside its limits: the model's cost stays, said not to apply (P5 §5.7).
    w.member("applies", c.call.applies)
        .member("limit", c.call.limit)
        .member("limit_bytes", kCustomAllreduceMaxBytes)
        .member("vllm_picks", c.call.vllm_picks);
  }
  w.end_object();
}

/// ring_attention_check's work budget (core/README.md "Limits"), about 0.1-0.2 s natively and under half
/// a second in wasm: all tokens squared x head_dim (the ring and the one-device reference, an
/// exp a pair).
constexpr double kMaxAttentionCheckWork = 1 << 24;

}  // namespace

AllreduceAlgorithm read_algorithm(Request& r) {
  AllreduceAlgorithm a;
  parse_allreduce_algorithm(r.name_or("algorithm", "ring", allreduce_names(false)), &a);
  return a;
}

void op_tp(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "llama3_70b");
  const GpuPreset g = read_gpu(r, "h100");
  const int tp = r.integer_or("tp", 8, 1, 4096);
  const std::string phase_name = r.name_or("phase", "decode", {"decode", "prefill"});
  const Phase phase = phase_name == "prefill" ? Phase::prefill : Phase::decode;
  const double tokens = r.integer_or("tokens", phase == Phase::prefill ? 4096 : 1, 1, 100000000);
  const Link link = read_link_or(r, "link", g.nvlink);
  const AllreduceKernel kernel = read_kernel(r);
  const double mfu = read_mfu(r);
  const double hbm_eff = r.number_or("hbm_efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  r.finish();
  const TpCost c = tp_cost(m, g, tp, tokens, phase, link, kernel, mfu, hbm_eff);
  w.key("model");
  write_model(w, m);
  w.member("tp", tp).member("phase", phase_name).member("tokens", tokens)
      .member("allreduce_bytes", c.allreduce_bytes).member("allreduces", c.allreduces);
  w.key("per_allreduce");
  write_kernel(w, kernel, c);
  // What binds the step's communication, for a view to say (§5.7): latency when α is at least
  // half of each all-reduce.
  const CollectiveCost& one = c.call.cost;
  w.member("bound", c.comm_time_s == 0 ? "none" : one.alpha_time_s >= one.time_s - one.alpha_time_s ? "latency" : "bandwidth");
  w.member("comm_time_s", c.comm_time_s).member("bytes_sent_per_gpu", c.bytes_sent_per_gpu)
      .member("compute_time_s", c.compute_time_s).member("weight_read_time_s", c.weight_read_time_s)
      .member("comm_to_compute", c.comm_time_s / c.compute_time_s);
  w.key("sequence_parallel");
  w.begin_object();
  w.member("bytes_sent_per_gpu", c.sp_bytes_sent_per_gpu)
      .member("activation_bytes_per_gpu", c.sp_activation_bytes_per_gpu)
      .member("tp_activation_bytes_per_gpu", c.tp_activation_bytes_per_gpu);
  w.end_object();
  if (phase == Phase::prefill) {
    w.member("layer_compute_s", prefill_layer_time_s(m, tokens, tp, effective_flops(g, mfu)))
        .member("flops_per_layer", prefill_flops_per_layer(m, tokens));
  }
}

void op_sharding_check(Request& r, JsonWriter& w) {
  const std::string kind = r.name_or("kind", "both", {"mlp", "attention", "both"});
  const int tokens = r.integer_or("tokens", 16, 1, 256);
  const int shards = r.integer_or("shards", 4, 1, 64);
  const int seed = r.integer_or("seed", 1, 0, 2147483647);
  w.member("kind", kind).member("shards", shards).member("tokens", tokens);
  if (kind != "attention") {
    const int hidden = r.integer_or("hidden", 32, 1, 1024);
    const int ffn = r.integer_or("ffn", 112, 1, 4096);
    if (double(tokens) * hidden * ffn > 4e6)
      refuse("out_of_range", {"fields 'tokens' x 'hidden' x 'ffn' = ", std::to_string(double(tokens) * hidden * ffn),
                              " is not allowed; allowed: at most 4e6 (a quick check)"});
    const MlpSplitCheck c = check_mlp_split(tokens, hidden, ffn, shards, seed);
    w.key("mlp");
    w.begin_object();
    w.member("hidden", hidden).member("ffn", ffn).member("max_abs_error", c.max_abs_error)
        .member("sp_max_abs_error", c.sp_max_abs_error).member("wrong_max_abs_error", c.wrong_max_abs_error)
        .member("correct_bytes", c.correct_bytes).member("wrong_bytes", c.wrong_bytes)
        .member("bytes_ratio", c.bytes_ratio);
    w.end_object();
  }
  if (kind != "mlp") {
    const int q_heads = r.integer_or("q_heads", 16, 1, 64);
    const int kv_heads = r.integer_or("kv_heads", 4, 1, 64);
    const int head_dim = r.integer_or("head_dim", 8, 1, 128);
    if (q_heads * head_dim > 512)
      refuse("out_of_range", {"fields 'q_heads' x 'head_dim' = ", std::to_string(q_heads * head_dim),
                              " is not allowed; allowed: at most 512 (a quick check)"});
    const AttentionSplitCheck c =
        check_attention_split(tokens, q_heads, kv_heads, head_dim, shards, std::uint64_t(seed) + 1);
    w.key("attention");
    w.begin_object();
    w.member("q_heads", q_heads).member("kv_heads", kv_heads).member("head_dim", head_dim)
        .member("max_abs_error", c.max_abs_error);
    w.end_object();
  }
  r.finish();
}

void op_moe(Request& r, JsonWriter& w) {
  const json* given = r.has("model") && r.raw("model").is_object() ? &r.raw("model") : nullptr;
  const ModelPreset m = read_model(r, "mixtral_8x7b");
  // Blame the override that breaks the MoE premise, not the preset it overrides.
  for (const char* field : {"experts", "top_k"}) {
    const int value = std::string(field) == "experts" ? m.experts : m.top_k;
    if (value < 1 && given && given->contains(field))
      refuse("invalid_value", {"field 'model.", field, "': value ", std::to_string(value),
                               " is not allowed; allowed: at least 1 "
                               "(a MoE model routes each token to top_k >= 1 of its experts)"});
  }
  const int ep = r.integer_or("ep", 8, 1, 4096);
  const double batch = r.integer_or("batch_tokens", 64, 1, 100000000);
  const double hot = r.number_or("hot_factor", 1, Range{0, 1e6, true, ""});
  const Link link = read_link_or(r, "link", "nvlink4");
  r.finish();
  const EpCost c = ep_cost(m, ep, batch, hot, link);
  w.key("model");
  write_model(w, m);
  w.member("ep", ep).member("batch_tokens", batch).member("hot_factor", hot)
      .member("tokens_per_gpu", c.tokens_per_gpu).member("remote_fraction", c.remote_fraction)
      .member("dispatch_bytes_per_gpu_layer", c.dispatch_bytes_per_gpu_layer)
      .member("combine_bytes_per_gpu_layer", c.dispatch_bytes_per_gpu_layer)
      .member("bytes_per_gpu_step", c.bytes_per_gpu_step).member("hot_probability", c.hot_probability)
      .member("busiest_recv_bytes_layer", c.busiest_recv_bytes_layer)
      .member("mean_recv_bytes_layer", c.mean_recv_bytes_layer)
      .member("recv_bytes_per_gpu_layer", c.recv_bytes_per_gpu_layer).member("skew", c.skew)
      .member("alltoall_time_s", c.alltoall_time_s).member("alltoall_alpha_time_s", c.alltoall_alpha_time_s)
      .member("alltoalls_per_step", 2 * moe_layers(m)).member("step_time_s", c.step_time_s);
}

// P5 §6.6: the comparison table, each parallelism on the node's NVLink and on its NIC.
void op_parallelisms(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "mixtral_8x7b");
  const NodePreset node = read_node(r, "dgx_h100");
  const GpuPreset g = read_gpu(r, node.gpu);
  const std::string phase_name = r.name_or("phase", "decode", {"decode", "prefill"});
  const Phase phase = phase_name == "prefill" ? Phase::prefill : Phase::decode;
  const double tokens = r.integer_or("tokens", phase == Phase::prefill ? 4096 : 64, 1, 100000000);
  ParallelismDegrees d;
  d.tp = r.integer_or("tp", 8, 1, 4096);
  d.pp = r.integer_or("pp", 2, 1, m.layers);  // a stage holds one layer at the finest
  d.ep = r.integer_or("ep", m.experts > 0 ? std::min(8, m.experts) : 1, 1, 4096);
  d.cp = r.integer_or("cp", 8, 1, 1024);
  const double mfu = read_mfu(r);
  r.finish();
  const Link intra = catalogue_link(node.intra_link, "node.intra_link");
  const Link nic = catalogue_link(node.nic_link, "node.nic_link");
  w.objects("rows", compare_parallelisms(m, g, intra, nic, tokens, phase, d, mfu), [&](const ParallelismRow& x) {
    w.member("id", x.id).member("pattern", x.pattern).member("bytes_per_gpu_step", x.bytes_per_gpu_step)
        .member("messages_per_step", x.messages_per_step).member("intra_time_s", x.intra_time_s)
        .member("nic_time_s", x.nic_time_s).member("message_bytes", x.message_bytes)
        .member("intra_message_time_s", x.intra_message_time_s).member("nic_message_time_s", x.nic_message_time_s)
        .member("hidden_on_nic", x.hidden_on_nic).member("belongs_on", x.belongs_on);
    // A row that sends nothing runs beside no compute: it has no compute and no shares.
    if (x.compute_time_s > 0) {
      w.member("compute_time_s", x.compute_time_s).member("intra_share", x.intra_time_s / x.compute_time_s)
          .member("nic_share", x.nic_time_s / x.compute_time_s);
    }
  });
  w.key("model");
  write_model(w, m);
  w.key("node");
  w.begin_object();
  w.member("id", node.id).member("label", node.label).member("gpus", node.gpus).member("intra_link", node.intra_link)
      .member("nic_link", node.nic_link);
  w.end_object();
  w.member("phase", phase_name).member("tokens", tokens).member("tp", d.tp).member("pp", d.pp).member("ep", d.ep)
      .member("cp", d.cp).member("cross_share", kCrossShare);
}

void op_ring_attention(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "llama3_70b");
  const GpuPreset g = read_gpu(r, "h100");
  const double mfu = read_mfu(r);
  const Link link = read_link_or(r, "link", g.nvlink);
  const int devices = r.integer_or("devices", 8, 1, 1024);
  double n = 0;
  if (r.has("tokens_per_device")) {
    n = r.integer("tokens_per_device", 1, 1000000000);
  } else {
    n = r.integer_or("prompt_tokens", 131072, 1, 2000000000) / double(devices);
  }
  r.finish();
  const RingAttentionCost c = ring_attention_cost(m, effective_flops(g, mfu), link, n);
  w.member("tokens_per_device", n).member("devices", devices).member("threshold_tokens", c.threshold_tokens)
      .member("threshold_with_alpha_tokens", c.threshold_with_alpha_tokens)
      .member("flops_per_token2", c.flops_per_token2).member("kv_bytes_per_token", c.kv_bytes_per_token)
      .member("compute_time_s", c.compute_time_s).member("transfer_time_s", c.transfer_time_s)
      .member("hidden", c.hidden).member("hidden_with_alpha", c.hidden_with_alpha).member("hiding_case", c.hiding_case);
  const long long whole = static_cast<long long>(std::floor(n));
  w.key("causal");
  w.begin_object();
  for (SequenceLayout l : {SequenceLayout::contiguous, SequenceLayout::zigzag}) {
    w.key(l == SequenceLayout::contiguous ? "contiguous" : "zigzag");
    if (whole < 1 || (l == SequenceLayout::zigzag && whole % 2 != 0)) {
      w.value(nullptr);
      continue;
    }
    const CausalBalance b = causal_balance(devices, whole, l);
    w.begin_object();
    w.member("imbalance", b.imbalance).member("ring_pairs", b.ring_pairs)
        .member("ring_pairs_ideal", b.ring_pairs_ideal).member("work_pairs", b.work_pairs);
    w.end_object();
  }
  w.end_object();
}

void op_ring_attention_check(Request& r, JsonWriter& w) {
  const int devices = r.integer_or("devices", 4, 1, 16);
  const int n = r.integer_or("tokens_per_device", 16, 1, 64);
  const int d = r.integer_or("head_dim", 16, 1, 128);
  const bool causal = r.boolean_or("causal", false);
  const SequenceLayout layout =
      r.name_or("layout", "contiguous", {"contiguous", "zigzag"}) == "zigzag" ? SequenceLayout::zigzag
                                                                              : SequenceLayout::contiguous;
  const int seed = r.integer_or("seed", 3, 0, 2147483647);
  r.finish();
  if (layout == SequenceLayout::zigzag && n % 2 != 0)
    refuse("invalid_value", {"field 'tokens_per_device': value ", std::to_string(n),
                             " is not allowed with layout zigzag; allowed: an even number"});
  const double all_tokens = double(devices) * n;
  if (all_tokens * all_tokens * d > kMaxAttentionCheckWork)
    refuse("too_large", {"fields 'devices' x 'tokens_per_device': ", std::to_string(devices), " x ", std::to_string(n),
                         " tokens with head_dim ", std::to_string(d), "; allowed: at most ",
                         format_number(std::floor(std::sqrt(kMaxAttentionCheckWork / d))),
                         " tokens in all at this head_dim (a quick check on random matrices)"});
  charge_work(8.0 * all_tokens * all_tokens * d);
  const RingAttentionCheck c = check_ring_attention(devices, n, d, causal, layout, seed);
  w.member("devices", devices).member("tokens_per_device", n).member("head_dim", d).member("causal", causal)
      .member("layout", layout == SequenceLayout::zigzag ? "zigzag" : "contiguous")
      .member("max_abs_error", c.max_abs_error).member("max_abs_output", c.max_abs_output);
}

}  // namespace commlab
