// Solvers of exercises 6 and 8 (P5 §11): pipeline decode, KV transfer. Params arrive filled in
// and in base units (exercise.solve / exercise.check).
#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "exercises/solvers.hpp"
#include "model/links.hpp"
#include "parallel/overlap.hpp"
#include "parallel/parallel.hpp"
#include "parallel/pipeline.hpp"
#include "model/presets.hpp"

namespace commlab {

namespace {

using nlohmann::json;

double param(const json& p, const char* name, double min, double max) {
  if (!p.is_object() || !p.contains(name))
    throw RequestError("missing_field", std::string("field 'params.") + name + "' is missing");
  const json& v = p.at(name);
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < min || v.get<double>() > max)
    throw RequestError("out_of_range", std::string("field 'params.") + name + "': value " + v.dump() +
                                           " is not allowed; allowed: a number from " + std::to_string(min) +
                                           " to " + std::to_string(max));
  return v.get<double>();
}

int int_param(const json& p, const char* name, int min, int max) {
  const double x = param(p, name, min, max);
  if (x != std::floor(x))
    throw RequestError("not_integer", std::string("field 'params.") + name + "': value " +
                                          p.at(name).dump() + " is not an integer");
  return static_cast<int>(x);
}

Link link_param(const json& p, const char* name, const char* fallback) {
  std::string id = fallback;
  if (p.is_object() && p.contains(name)) {
    if (!p.at(name).is_string())
      throw RequestError("invalid_type", std::string("field 'params.") + name + "': value " +
                                             p.at(name).dump() + " is not a link id; allowed: " + link_ids());
    id = p.at(name).get<std::string>();
  }
  return catalogue_link(id, std::string("params.") + name);
}

const ModelPreset& llama() { return *find_model("llama3_70b"); }

const GpuPreset& h100() { return *find_gpu("h100"); }

}  // namespace

// Exercise 6: a token's trip through p stages sets the interval; one micro-batch per stage.
ExerciseSolution solve_exercise_6(const json& p) {
  const int stages = int_param(p, "stages", 1, 1024);
  const double s_time = param(p, "stage_time_s", 1e-9, 1e3);
  const double t_time = param(p, "transfer_time_s", 0, 1e3);
  const int tokens = int_param(p, "tokens", 1, 100000);
  // The simulator runs stages x stages x tokens stage visits: cap it like the "pipeline" op.
  if (double(stages) * stages * tokens > 5e6)
    throw RequestError("out_of_range", "params: stages^2 x tokens = " +
                                           std::to_string(double(stages) * stages * tokens) +
                                           " is not allowed; allowed: at most 5e6 stage visits");
  const PipelineResult r = simulate_pipeline_decode(stages, stages, s_time, t_time, tokens, 0);
  ExerciseSolution s;
  s.answers = {{"microbatches", stages}, {"token_interval", r.steady_interval_s}};
  // The lecture: "at least 8 ... one or two more fill it completely": p up to the fill count pass.
  s.ranges = {{"microbatches", {stages, std::max(stages, r.microbatches_to_fill)}}};
  s.values = {{"microbatches_to_fill", r.microbatches_to_fill},
              // Steady state with exactly p micro-batches: p s of work in each trip of p s + (p-1) t.
              {"busy_fraction", stages * s_time / r.steady_interval_s},
              {"trip_extra_s", r.steady_interval_s - stages * s_time},
              {"simulated_token_interval_s", r.token_interval_s},
              {"simulated_makespan_s", r.makespan_s},
              {"utilisation", r.utilisation},
              {"steady_interval_s", r.steady_interval_s}};
  return s;
}

// Exercise 8: KV of the prompt after prefill on one NIC, on all NICs, and layer by layer while
// prefill runs on 8 GPUs with TP8 (P5 §7.3).
ExerciseSolution solve_exercise_8(const json& p) {
  const double prompt = param(p, "prompt_tokens", 1, 1e8);
  const int nics = int_param(p, "nics", 1, 1024);
  const Link nic = link_param(p, "link", "ib_ndr");
  const ModelPreset& m = llama();
  const double layer_s = prefill_layer_time_s(m, prompt, 8, effective_flops(h100()));
  const KvTransfer k = kv_transfer(m, prompt, nics, nic, layer_s, false);
  // The lecture's arithmetic leaves alpha out (134.2 MB / (8 x 40 GB/s) = 0.419 ms, "about
  // 0.42 ms"); that simplification passes too: each time from bytes / beta to the engine's.
  const double per_layer = k.kv_bytes / m.layers;
  const double one_no_alpha = k.kv_bytes / nic.beta_Bps, all_no_alpha = k.kv_bytes / nics / nic.beta_Bps;
  const double layer_no_alpha = per_layer / nics / nic.beta_Bps;
  const bool layer_hides = k.layer_transfer_s <= k.layer_compute_s;
  ExerciseSolution s;
  s.ranges = {{"one_nic", {one_no_alpha, k.one_nic_s}},
              {"eight_nics", {all_no_alpha, k.all_nics_s}}};
  if (layer_hides) s.ranges["layerwise"] = {layer_no_alpha, k.layerwise_exposed_s};
  s.answers = {{"kv_bytes", k.kv_bytes},
               {"one_nic", k.one_nic_s},
               {"eight_nics", k.all_nics_s},
               {"layerwise", k.layerwise_exposed_s}};
  s.values = {{"kv_bytes_per_token", kv_bytes_per_token(m)},
              {"layer_kv_bytes", per_layer},
              {"one_nic_no_alpha_s", one_no_alpha},
              {"all_nics_no_alpha_s", all_no_alpha},
              {"layer_transfer_no_alpha_s", layer_no_alpha},
              {"link_alpha_s", nic.alpha_s},
              {"link_beta_Bps", nic.beta_Bps},
              {"nics", nics},
              {"layer_transfer_s", k.layer_transfer_s},
              {"layer_compute_s", k.layer_compute_s},
              {"prefill_s", k.prefill_s},
              {"layers", m.layers},
              {"kv_heads", m.kv_heads},
              {"head_dim", m.head_dim},
              {"bytes_per_value", m.activation_bytes}};
  return s;
}

}  // namespace commlab
