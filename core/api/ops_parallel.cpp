// Ops of parallelism and overlap (P5 §6-7): presets, tp, sharding_check, pipeline, moe,
// ring_attention, ring_attention_check, overlap, kv_transfer. Presets are chosen by id and any
// field can be overridden: "model": "llama3_70b" or {"id": "llama3_70b", "layers": 40}.
#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "model/collectives.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "api/ops.hpp"
#include "base/work_meter.hpp"
#include "model/link_field.hpp"
#include "parallel/memory.hpp"
#include "parallel/overlap.hpp"
#include "parallel/compare.hpp"
#include "parallel/parallel.hpp"
#include "parallel/pipeline.hpp"
#include "model/presets.hpp"
#include "parallel/ring_attention.hpp"

namespace commlab {

namespace {

template <class T>
std::vector<std::string> ids_of(const std::vector<T>& list) {
  std::vector<std::string> ids;
  for (const T& x : list) ids.push_back(x.id);
  return ids;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// A preset field: its id as a string, or an object {"id", overrides...}. `apply` reads the
// overrides from the nested Request.
template <class T, class Apply>
T read_preset(Request& r, const std::string& field, const std::string& fallback,
              const std::vector<T>& list, const char* kind, Apply apply) {
  const std::vector<std::string> ids = ids_of(list);
  auto find = [&](const std::string& id) {
    for (const T& x : list)
      if (x.id == id) return x;
    return list.front();
  };
  if (!r.has(field)) return find(r.name_or(field, fallback, ids));
  const json& v = r.raw(field);
  if (v.is_string()) return find(r.name(field, ids));
  if (!v.is_object())
    refuse("invalid_type", {"field '", r.path(field), "': value ", show_value(v), " is not allowed; allowed: a ", kind,
                            " id (", joined(ids), ") or an object {\"id\", field overrides}"});
  Request o(v, r.path(field) + ".");
  T x = find(o.name_or("id", fallback, ids));
  apply(o, x);
  o.finish();
  return x;
}

ModelPreset read_model(Request& r, const std::string& fallback) {
  return read_preset(r, "model", fallback, model_presets(), "model", [](Request& o, ModelPreset& m) {
    m.layers = o.integer_or("layers", m.layers, 1, 100000);
    m.hidden = o.integer_or("hidden", m.hidden, 1, 1 << 24);
    m.q_heads = o.integer_or("q_heads", m.q_heads, 1, 1 << 16);
    m.kv_heads = o.integer_or("kv_heads", m.kv_heads, 1, 1 << 16);
    m.head_dim = o.integer_or("head_dim", m.head_dim, 1, 1 << 16);
    m.ffn = o.integer_or("ffn", m.ffn, 1, 1 << 24);
    m.experts = o.integer_or("experts", m.experts, 0, 1 << 16);
    m.top_k = o.integer_or("top_k", m.top_k, 0, 1 << 16);
    m.weight_bytes = o.bytes_or("weight_bytes", m.weight_bytes);
    m.bytes_per_param = o.number_or("bytes_per_param", m.bytes_per_param, Range{0, 16, true, "bytes"});
    m.activation_bytes = o.number_or("activation_bytes", m.activation_bytes, Range{0, 16, true, "bytes"});
    if (m.top_k > m.experts)
      refuse("invalid_value", {"field '", o.path("top_k"), "': value ", std::to_string(m.top_k),
                               " is not allowed; allowed: at most experts (", std::to_string(m.experts), ")"});
  });
}

GpuPreset read_gpu(Request& r, const std::string& fallback) {
  return read_preset(r, "gpu", fallback, gpu_presets(), "GPU", [](Request& o, GpuPreset& g) {
    g.hbm_bytes = o.bytes_or("hbm_bytes", g.hbm_bytes);
    g.hbm_Bps = o.number_or("hbm_Bps", g.hbm_Bps, Range{1e6, 1e15, false, "bytes per second"});
    g.flops = o.number_or("flops", g.flops, Range{1e6, 1e18, false, "FLOP/s"});
    if (o.has("nvlink")) {
      g.nvlink = o.name("nvlink", ids_of(link_catalogue()));
    }
  });
}

NodePreset read_node(Request& r, const std::string& fallback) {
  return read_preset(r, "node", fallback, node_presets(), "node", [](Request& o, NodePreset& n) {
    const std::vector<std::string> links = ids_of(link_catalogue());
    n.gpu = o.name_or("gpu", n.gpu, ids_of(gpu_presets()));
    n.gpus = o.integer_or("gpus", n.gpus, 1, 1 << 16);
    n.intra_link = o.name_or("intra_link", n.intra_link, links);
    n.nic_link = o.name_or("nic_link", n.nic_link, links);
    n.nics = o.integer_or("nics", n.nics, 1, 1 << 16);
  });
}

// Rates, efficiencies and bandwidths have a floor (1%, 1 MFLOP/s, 1 MB/s): near zero they make
// times infinite, and the answer must name the field rather than print null.
double read_mfu(Request& r) { return r.number_or("mfu", kDefaultMfu, Range{0.01, 1, false, ""}); }

// The flat all-reduce algorithms' names (§5), what `algorithm` allows before §5.7's kernels.
std::vector<std::string> flat_algorithm_names() {
  std::vector<std::string> names;
  for (AllreduceAlgorithm a : allreduce_algorithms()) names.push_back(algorithm_name(a));
  return names;
}

AllreduceAlgorithm read_algorithm(Request& r) {
  AllreduceAlgorithm a;
  parse_allreduce_algorithm(r.name_or("algorithm", "ring", flat_algorithm_names()), &a);
  return a;
}

// tp's all-reduce (P5 §5.7): a flat algorithm, vLLM's one or two shots, or with `protocol` NCCL's
// ring under LL, LL128 or Simple (§5.6).
AllreduceKernel read_kernel(Request& r) {
  std::vector<std::string> names = flat_algorithm_names();
  for (CustomShot s : {CustomShot::one_shot, CustomShot::two_shot}) names.push_back(custom_shot_name(s));
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
  if (kernel.kind == AllreduceKernel::Kind::custom) {
    // vLLM's kernel outside its limits: the model's cost stays, said not to apply (P5 §5.7).
    w.member("applies", c.call.applies)
        .member("limit", c.call.limit)
        .member("limit_bytes", kCustomAllreduceMaxBytes)
        .member("vllm_picks", c.call.vllm_picks);
  }
  w.end_object();
}

void write_model(JsonWriter& w, const ModelPreset& m) {
  w.begin_object();
  w.member("id", m.id).member("label", m.label).member("layers", m.layers).member("hidden", m.hidden)
      .member("q_heads", m.q_heads).member("kv_heads", m.kv_heads).member("head_dim", m.head_dim)
      .member("ffn", m.ffn).member("experts", m.experts).member("top_k", m.top_k)
      .member("weight_bytes", m.weight_bytes).member("bytes_per_param", m.bytes_per_param)
      .member("activation_bytes", m.activation_bytes).member("kv_bytes_per_token", kv_bytes_per_token(m))
      .member("active_params_per_layer", active_params_per_layer(m));
  w.end_object();
}

void write_gpu(JsonWriter& w, const GpuPreset& g) {
  w.begin_object();
  w.member("id", g.id).member("label", g.label).member("hbm_bytes", g.hbm_bytes).member("hbm_Bps", g.hbm_Bps)
      .member("flops", g.flops).member("nvlink", g.nvlink);
  w.end_object();
}

void write_node(JsonWriter& w, const NodePreset& n) {
  w.begin_object();
  w.member("id", n.id).member("label", n.label).member("gpu", n.gpu).member("gpus", n.gpus)
      .member("intra_link", n.intra_link).member("nic_link", n.nic_link).member("nics", n.nics);
  w.end_object();
}

// Whether overlapping helped, said by the engine so no page re-derives it: "faster", "slower"
// (chunks too fine: every chunk pays its alpha, P5 §7.1) or "same".
const char* outcome(double serial_s, double overlapped_s) {
  if (overlapped_s < serial_s * (1 - 1e-9)) return "faster";
  if (overlapped_s > serial_s * (1 + 1e-9)) return "slower";
  return "same";
}

void write_timeline_members(JsonWriter& w, const Timeline& t) {
  w.member("total_s", t.total_s).member("serial_s", t.serial_s).member("saved_s", t.serial_s - t.total_s)
      .member("speedup", t.total_s > 0 ? t.serial_s / t.total_s : 1.0)
      .member("slowdown", t.serial_s > 0 ? t.total_s / t.serial_s : 1.0)
      .member("outcome", outcome(t.serial_s, t.total_s)).member("compute_end_s", t.compute_end_s)
      .member("exposed_comm_s", t.exposed_comm_s);
  w.objects("intervals", t.intervals, [&](const StreamInterval& i) {
    w.member("stream", i.stream).member("index", i.index).member("start_s", i.start_s).member("end_s", i.end_s);
  });
}

void write_timeline(JsonWriter& w, const Timeline& t) {
  w.begin_object();
  write_timeline_members(w, t);
  w.end_object();
}

// Timelines are drawn by the page: beyond this many pieces only the totals come back.
constexpr int kMaxTimelinePieces = 1024;
/// Largest fill count the pipeline op reports (micro-batches to keep every stage busy).
constexpr double kMaxFillMicrobatches = 1e6;
/// Work budgets (README "Limits"), each about 0.1-0.2 s natively and under half a second in
/// wasm: pipeline stage visits (a priority-queue step each), and ring-attention check work
/// (all tokens squared x head_dim: the ring and the one-device reference, an exp a pair).
constexpr double kMaxStageVisits = 1e6;
/// The most a request may accept with "max_stage_visits" (an exercise whose params reach
/// further): the simulate op's budget, 1e8 units at 20 a visit (64 x 64 x 1,000 = 4.1 M visits
/// took 0.19 s of CPU natively, process start included).
constexpr int kMaxDeclaredStageVisits = 5000000;
constexpr double kMaxAttentionCheckWork = 1 << 24;

}  // namespace

void op_presets(Request& r, JsonWriter& w) {
  r.finish();
  w.key("models");
  w.begin_array();
  for (const ModelPreset& m : model_presets()) write_model(w, m);
  w.end_array();
  w.key("gpus");
  w.begin_array();
  for (const GpuPreset& g : gpu_presets()) write_gpu(w, g);
  w.end_array();
  w.key("nodes");
  w.begin_array();
  for (const NodePreset& n : node_presets()) write_node(w, n);
  w.end_array();
  w.member("mfu", kDefaultMfu).member("efficiency", kDefaultEfficiency);
}

// A statement names a model only when the params are its shape (SPEC "Variants"), as link.match
// names a link; exercises written as data ask this. Mixtral-8x7B has Llama-3-8B's layers and
// hidden size, so experts (0: dense) is part of the shape.
void op_model_match(Request& r, JsonWriter& w) {
  const int layers = r.integer("layers", 1, 100000);
  const int hidden = r.integer("hidden", 1, 1 << 24);
  const int experts = r.integer_or("experts", 0, 0, 1 << 16);
  const double bytes = r.number_or("bytes_per_value", 0, Range{0, 16, true, "bytes"});
  r.finish();
  const ModelPreset* m = match_model(layers, hidden, experts);
  // No null in an answer (README "Errors"): no match is said by "matched" and empty names.
  w.member("matched", m != nullptr).member("id", m ? m->id : "").member("label", m ? m->label : "")
      .member("precision", value_format_name(bytes));
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

// P5 §1, §6.1: does a model fit n GPUs, how many its weights need, the KV room left, batch-1
// decode's lower bound on 1 and n GPUs, and replicas' throughput (no traffic between them).
void op_memory(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "llama3_70b");
  const GpuPreset g = read_gpu(r, "h100");
  const int gpus = r.integer_or("gpus", 1, 1, 4096);
  const double context = r.integer_or("context_tokens", 8192, 0, 100000000);
  const double batch = r.integer_or("batch", 1, 1, 1000000);
  const int replicas = r.integer_or("replicas", 1, 1, 100000);
  const double eff = r.number_or("hbm_efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  r.finish();
  const MemoryPlan p = memory_plan(m, g, gpus, context, batch, replicas, eff);
  w.key("model");
  write_model(w, m);
  w.key("gpu");
  write_gpu(w, g);
  w.member("gpus", p.gpus).member("context_tokens", p.context_tokens).member("batch", p.batch)
      .member("replicas", p.replicas).member("hbm_efficiency", eff).member("weight_bytes", p.weight_bytes)
      .member("weight_bytes_per_gpu", p.weight_bytes_per_gpu).member("kv_bytes_per_token", p.kv_bytes_per_token)
      .member("kv_bytes", p.kv_bytes).member("kv_bytes_per_gpu", p.kv_bytes_per_gpu)
      .member("used_bytes_per_gpu", p.used_bytes_per_gpu).member("hbm_bytes", p.hbm_bytes)
      .member("used_fraction", p.used_fraction).member("weights_fit", p.weights_fit).member("fits", p.fits)
      .member("kv_room_bytes_per_gpu", p.kv_room_bytes_per_gpu).member("min_gpus", p.min_gpus)
      .member("min_gpus_with_kv", p.min_gpus_with_kv).member("max_context_tokens", p.max_context_tokens)
      .member("decode_time_s", p.decode_time_s).member("decode_time_effective_s", p.decode_time_effective_s)
      .member("one_gpu_fits", p.one_gpu_fits).member("one_gpu_decode_time_s", p.one_gpu_decode_time_s)
      .member("one_gpu_decode_time_effective_s", p.one_gpu_decode_time_effective_s)
      .member("speedup", p.speedup).member("total_gpus", p.total_gpus).member("tokens_per_s", p.tokens_per_s)
      .member("tokens_per_s_effective", p.tokens_per_s_effective)
      .member("traffic_bytes_between_replicas", p.traffic_bytes_between_replicas);
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

void op_pipeline(Request& r, JsonWriter& w) {
  const int stages = r.integer_or("stages", 8, 1, 1024);
  const int mb = r.integer_or("microbatches", stages, 1, 4096);
  const double stage_s = r.number_or("stage_time_s", 1e-3, Range{0, 1e3, true, "seconds"});
  double transfer_s = 0;
  if (r.has("transfer_bytes")) {
    const double bytes = r.bytes("transfer_bytes");
    transfer_s = transfer_time_s(read_link_or(r, "link", "ib_ndr"), bytes);
  } else {
    transfer_s = r.number_or("transfer_time_s", 1e-4, Range{0, 1e3, false, "seconds"});
  }
  const int tokens = r.integer_or("tokens", 100, 1, 1000000);
  const int timeline_tokens = r.integer_or("timeline_tokens", 2, 0, 64);
  // The stage visits the caller accepts, when it names them: past them the request asks for
  // more than its own range (out_of_range), as an exercise's params would.
  const bool own_cap = r.has("max_stage_visits");
  const int cap = r.integer_or("max_stage_visits", static_cast<int>(kMaxStageVisits), 1, kMaxDeclaredStageVisits);
  r.finish();
  if (own_cap && double(stages) * mb * tokens > cap)
    refuse("out_of_range",
           {"fields 'stages' x 'microbatches' x 'tokens': ", std::to_string(stages), " x ", std::to_string(mb), " x ",
            std::to_string(tokens), " stage visits is not allowed; allowed: at most max_stage_visits (",
            format_number(cap), ")",
            (double(stages) * mb <= cap
                 ? concat({", so at most ", format_number(std::floor(cap / (double(stages) * mb))), " tokens here"})
                 : std::string(", with fewer stages or micro-batches"))});
  // Work budget: a stage visit is a priority-queue step of about 100 ns natively.
  if (!own_cap && double(stages) * mb * tokens > kMaxStageVisits)
    refuse("too_large",
           {"fields 'stages' x 'microbatches' x 'tokens': ", std::to_string(stages), " x ", std::to_string(mb), " x ",
            std::to_string(tokens), " stage visits; allowed: at most 1e6, ",
            (double(stages) * mb <= kMaxStageVisits
                 ? concat({"so at most ", format_number(std::floor(kMaxStageVisits / (double(stages) * mb))),
                           " tokens here"})
                 : std::string("with fewer stages or micro-batches"))});
  charge_work(20.0 * stages * mb * tokens);  // about 100 ns a visit; an exercise document's budget
  if (double(stages) * mb * timeline_tokens > 20000)
    refuse("out_of_range", {"field 'timeline_tokens': stages x microbatches x timeline_tokens "
                            "must be at most 20000 intervals"});
  // The fill count is ceil((p s + (p-1) t) / s): a stage time far below the transfer time makes it
  // astronomically large (and once overflowed an int).
  const double fill = (stages * stage_s + (stages - 1) * transfer_s) / stage_s;
  if (!(fill <= kMaxFillMicrobatches))
    refuse("out_of_range", {"field 'stage_time_s': value ", format_number(stage_s), " with transfers of ",
                            format_number(transfer_s), " s would need ", format_number(fill),
                            " micro-batches to fill the pipeline; allowed: a stage time "
                            "that keeps it at most 1e6 (at least (stages - 1) x "
                            "transfer time / 1e6 seconds)"});
  const PipelineResult p = simulate_pipeline_decode(stages, mb, stage_s, transfer_s, tokens, timeline_tokens);
  w.member("stages", stages).member("microbatches", mb).member("stage_time_s", stage_s)
      .member("transfer_time_s", transfer_s).member("tokens", tokens).member("makespan_s", p.makespan_s)
      .member("token_interval_s", p.token_interval_s).member("trip_s", p.trip_s)
      .member("steady_interval_s", p.steady_interval_s).member("steady_utilisation", p.steady_utilisation)
      .member("measured_interval_s", p.measured_interval_s)
      // P5 §6.3: which sets the interval, a token's trip (too few micro-batches) or the stages.
      .member("steady_bound", p.trip_s >= mb * stage_s ? "trip" : "stages")
      .member("steady_tokens_per_s", p.steady_tokens_per_s)
      .member("microbatch0_token_ends_s", p.token_ends_s);
  w.member("utilisation", p.utilisation).member("microbatches_to_fill", p.microbatches_to_fill)
      .member("tokens_per_s", p.tokens_per_s);
  w.objects("timeline", p.timeline, [&](const PipelineInterval& i) {
    w.member("kind", i.kind).member("stage", i.stage).member("microbatch", i.microbatch).member("token", i.token)
        .member("start_s", i.start_s).member("end_s", i.end_s);
  });
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
      .member("alltoalls_per_step", 2 * m.layers).member("step_time_s", c.step_time_s);
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
      .member("hidden", c.hidden).member("hidden_with_alpha", c.hidden_with_alpha);
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

void op_overlap(Request& r, JsonWriter& w) {
  const std::string kind = r.name("kind", {"chunked", "tp_prefill", "two_batch"});
  if (kind == "chunked") {
    const double c = r.number("compute_s", Range{0, 1e4, false, "seconds"});
    const double a = r.number("comm_s", Range{0, 1e4, false, "seconds"});
    const int n = r.integer_or("chunks", 1, 1, 1000000);
    const double alpha = r.number_or("alpha_per_chunk_s", 0, Range{0, 10, false, "seconds"});
    r.finish();
    Timeline t = pipelined_timeline(n, c / n, a / n + alpha, c + a + alpha, n <= kMaxTimelinePieces);
    write_timeline_members(w, t);
    w.member("chunks", n);
    return;
  }
  if (kind == "two_batch") {
    const double c = r.number_or("compute_s", 1, Range{0, 1e4, false, "seconds"});
    const double a = r.number("comm_s", Range{0, 1e4, false, "seconds"});
    r.finish();
    write_timeline_members(w, two_batch_overlap(c, a));
    return;
  }
  const ModelPreset m = read_model(r, "llama3_70b");
  const GpuPreset g = read_gpu(r, "h100");
  const int tp = r.integer_or("tp", 8, 1, 4096);
  const double tokens = r.integer_or("tokens", 4096, 1, 100000000);
  const Link link = read_link_or(r, "link", g.nvlink);
  const int n = r.integer_or("chunks", 4, 1, kMaxTimelinePieces);
  const AllreduceAlgorithm algorithm = read_algorithm(r);
  const double mfu = read_mfu(r);
  r.finish();
  const TpPrefillOverlap o = tp_prefill_overlap(m, g, tp, tokens, link, n, algorithm, mfu);
  write_timeline_members(w, o.layer);
  w.member("chunks", n).member("layers", m.layers).member("layer_compute_s", o.layer_compute_s)
      .member("layer_comm_s", o.layer_comm_s).member("chunk_allreduce_bytes", o.chunk_allreduce_bytes)
      .member("chunk_comm_s", o.chunk_comm_s).member("layer_serial_s", o.layer_serial_s)
      .member("layer_overlapped_s", o.layer_overlapped_s).member("model_serial_s", o.model_serial_s)
      .member("model_overlapped_s", o.model_overlapped_s).member("model_saved_s", o.saved_s)
      .member("model_outcome", outcome(o.model_serial_s, o.model_overlapped_s));
}

void op_kv_transfer(Request& r, JsonWriter& w) {
  const ModelPreset m = read_model(r, "llama3_70b");
  const NodePreset node = read_node(r, "dgx_h100");
  const GpuPreset g = read_gpu(r, node.gpu);
  const double tokens = r.integer_or("tokens", 4096, 1, 100000000);
  const int nics = r.integer_or("nics", node.nics, 1, 1 << 16);
  const Link nic = read_link_or(r, "link", node.nic_link);
  const int tp = r.integer_or("tp", node.gpus, 1, 1 << 16);
  const double mfu = read_mfu(r);
  double layer_s = prefill_layer_time_s(m, tokens, tp, effective_flops(g, mfu));
  layer_s = r.number_or("layer_compute_s", layer_s, Range{0, 1e4, false, "seconds"});
  r.finish();
  const KvTransfer k = kv_transfer(m, tokens, nics, nic, layer_s, m.layers <= kMaxTimelinePieces);
  // The model and the NIC it used, as tp and simulate report theirs: a caller (a declared
  // exercise) reads the figures behind the answer from the same request.
  w.key("model");
  write_model(w, m);
  write_link(w, "link", nic);
  w.member("tokens", tokens).member("nics", nics).member("tp", tp).member("kv_bytes", k.kv_bytes)
      .member("kv_bytes_per_token", kv_bytes_per_token(m)).member("one_nic_s", k.one_nic_s)
      .member("all_nics_s", k.all_nics_s).member("layer_compute_s", k.layer_compute_s)
      .member("layer_transfer_s", k.layer_transfer_s).member("prefill_s", k.prefill_s)
      .member("layerwise_exposed_s", k.layerwise_exposed_s);
  w.key("timeline");
  write_timeline(w, k.timeline);
}

}  // namespace commlab

namespace commlab {

namespace {
// The ratios P5 §2.1 states: HBM against NVLink ("NVLink is nearly 10x slower than HBM"), NVLink
// against the NIC ("nearly an order of magnitude") and against Ethernet ("over two orders").
const std::vector<std::pair<std::string, std::string>>& lecture_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"hbm3", "nvlink4"}, {"nvlink4", "ib_ndr"}, {"nvlink4", "ethernet"}};
  return pairs;
}
constexpr size_t kMaxLadderPairs = 64;
}  // namespace

// The bandwidth ladder of P5 §2.1: each catalogue link on its level with its effective beta and
// alpha, pairs of links compared (which is faster, by how much), and a node's NVLink inside
// against its NICs outside (§2.3: "inside the node 9x outside"). Written member by member.
void op_ladder(Request& r, JsonWriter& w) {
  const double eff = r.number_or("efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  std::vector<std::pair<const LinkSpec*, const LinkSpec*>> pairs;
  if (r.has("pairs")) {
    const json& list = r.raw("pairs");
    auto bad_pair = [&](const std::string& where, const json& v) {
      refuse("invalid_type",
             {"field '", where, "': value ", show_value(v), " is not allowed; allowed: a non-empty array of at most ",
              std::to_string(kMaxLadderPairs), " pairs [link, link] of catalogue ids (", link_ids(), ")"});
    };
    if (!list.is_array() || list.empty() || list.size() > kMaxLadderPairs) bad_pair("pairs", list);
    for (size_t i = 0; i < list.size(); ++i) {
      const json& p = list[i];
      const std::string where = concat({"pairs[", std::to_string(i), "]"});
      if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_string()) bad_pair(where, p);
      const LinkSpec* ends[2];
      for (int k = 0; k < 2; ++k)
        if (!(ends[k] = find_link(p[k].get<std::string>())))
          refuse("unknown_value", {"field '", where, "[", std::to_string(k), "]': unknown link ", show_value(p[k]),
                                   "; valid links: ", link_ids()});
      pairs.emplace_back(ends[0], ends[1]);
    }
  } else {
    for (const auto& [a, b] : lecture_pairs()) pairs.emplace_back(find_link(a), find_link(b));
  }
  const NodePreset node = read_node(r, "dgx_h100");
  r.finish();

  auto beta = [&](const LinkSpec& s) { return effective_link(s, eff).beta_Bps; };
  w.key("comparisons");
  w.begin_array();
  for (const auto& [a, b] : pairs) {
    const BandwidthComparison c = compare_bandwidth(beta(*a), beta(*b));
    const LinkSpec& fast = c.faster ? *b : *a;
    const LinkSpec& slow = c.faster ? *a : *b;
    w.begin_object();
    w.member("a", a->id).member("b", b->id).member("equal", c.equal).member("faster", fast.id)
        .member("faster_Bps", beta(fast)).member("faster_label", fast.label).member("ratio", c.ratio)
        .member("slower", slow.id).member("slower_Bps", beta(slow)).member("slower_label", slow.label);
    w.end_object();
  }
  w.end_array();
  w.member("efficiency", eff);
  w.key("levels");
  w.begin_array();
  for (const std::string& l : link_levels()) w.value(l);
  w.end_array();
  // §2.3: every GPU's NVLink at once against every NIC at once, per direction.
  const LinkSpec& intra = *find_link(node.intra_link);
  const LinkSpec& nic = *find_link(node.nic_link);
  const double inside_nominal = node.gpus * intra.nominal_Bps, outside_nominal = node.nics * nic.nominal_Bps;
  const BandwidthComparison c = compare_bandwidth(inside_nominal, outside_nominal);
  w.key("node");
  w.begin_object();
  w.member("equal", c.equal).member("faster", c.faster ? "outside" : "inside").member("gpus", node.gpus)
      .member("id", node.id).member("inside_Bps", inside_nominal * eff).member("inside_nominal_Bps", inside_nominal)
      .member("intra_label", intra.label).member("intra_link", intra.id).member("label", node.label)
      .member("nic_label", nic.label).member("nic_link", nic.id).member("nics", node.nics)
      .member("outside_Bps", outside_nominal * eff).member("outside_nominal_Bps", outside_nominal)
      .member("per_gpu_Bps", beta(intra)).member("per_nic_Bps", beta(nic)).member("ratio", c.ratio);
  w.end_object();
  w.key("rungs");
  w.begin_array();
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s, eff);
    w.begin_object();
    w.member("alpha_s", l.alpha_s).member("beta_Bps", l.beta_Bps).member("id", s.id).member("label", s.label)
        .member("level", link_level(s)).member("n_half_bytes", n_half_bytes(l)).member("nominal_Bps", s.nominal_Bps)
        .member("scope", s.scope);
    w.end_object();
  }
  w.end_array();
}

}  // namespace commlab
