// Ops of pipelines and overlap (P5 §6.3, §7): pipeline, overlap, kv_transfer, each a timeline
// of compute and communication.
#include <cmath>

#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/json_writer.hpp"
#include "base/work_meter.hpp"
#include "model/collectives.hpp"
#include "model/link_field.hpp"
#include "model/presets.hpp"
#include "parallel/overlap.hpp"
#include "parallel/parallel.hpp"
#include "parallel/pipeline.hpp"

namespace commlab {

namespace {

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
/// The pipeline's work budget (core/README.md "Limits"), about 0.1-0.2 s natively and under half a
/// second in wasm: stage visits, a priority-queue step each.
constexpr double kMaxStageVisits = 1e6;
/// The most a request may accept with "max_stage_visits" (an exercise whose params reach
/// further): the simulate op's budget, 1e8 units at 20 a visit (64 x 64 x 1,000 = 4.1 M visits
/// took 0.19 s of CPU natively, process start included).
constexpr int kMaxDeclaredStageVisits = 5000000;

}  // namespace

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
      .member("layerwise_exposed_s", k.layerwise_exposed_s)
      .member("against_prefill", k.all_nics_s < k.prefill_s ? "less" : "more");  // over every NIC
  w.key("timeline");
  write_timeline(w, k.timeline);
}

}  // namespace commlab
