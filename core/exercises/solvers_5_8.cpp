// Solvers of exercises 5 and 7 (P5 §11): TP prefill traffic, ring attention. Params arrive
// filled in and in base units (exercise.solve / exercise.check). Exercises 6 and 8 are declared
// in their files (exercises/06.json, 08.json: "compute").
#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"
#include "exercises/solvers.hpp"
#include "model/links.hpp"
#include "parallel/parallel.hpp"
#include "model/presets.hpp"
#include "parallel/ring_attention.hpp"

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

// SPEC "Variants": a statement names a model only when the params are its figures. The dense
// models whose (layers, hidden) the variants of exercise 5 use, from their published configs.
json model_note(int layers, int hidden, double bytes_per_value) {
  struct Shape {
    int layers, hidden;
    const char* name;
  };
  static const Shape shapes[] = {
      {80, 8192, "Llama-3-70B"}, {32, 4096, "Llama-3-8B"}, {126, 16384, "Llama-3-405B"}, {40, 5120, "Llama-2-13B"}};
  const char* precision = bytes_per_value == 2 ? "BF16" : bytes_per_value == 1 ? "FP8" : bytes_per_value == 4 ? "FP32" : nullptr;
  for (const Shape& m : shapes)
    if (m.layers == layers && m.hidden == hidden) {
      const std::string name = std::string(m.name) + (precision ? std::string(" in ") + precision : "");
      const std::string name_zh = precision ? std::string(precision) + " 的 " + m.name : m.name;
      return {{"en", " (the shape of " + name + ")"}, {"zh", "（即 " + name_zh + " 的形状）"}};
    }
  return {{"en", ""}, {"zh", ""}};
}
const GpuPreset& h100() { return *find_gpu("h100"); }

}  // namespace

// Exercise 5: each TP all-reduce carries tokens x hidden x bytes; ring sends 2(k-1)/k of it.
ExerciseSolution solve_exercise_5(const json& p) {
  ModelPreset m = llama();
  const double tokens = param(p, "tokens", 1, 1e8);
  const int tp = int_param(p, "tp", 1, 1 << 20);
  m.layers = int_param(p, "layers", 1, 100000);
  m.hidden = int_param(p, "hidden", 1, 1 << 24);
  m.activation_bytes = param(p, "bytes_per_value", 0.125, 16);
  // The prefill's computation, for the share the communication takes: the statement's layers
  // and hidden size with Llama-3's proportions (head size 128, 8 query heads per KV head, MLP
  // 3.5 x hidden; Llama-3-70B: 64 heads, 8 KV heads, 28,672).
  m.head_dim = 128;
  m.q_heads = std::max(1, m.hidden / m.head_dim);
  m.kv_heads = std::max(1, m.q_heads / 8);
  m.ffn = static_cast<int>(std::lround(3.5 * m.hidden));
  const Link link = link_param(p, "link", "nvlink4");
  const TpCost c = tp_cost(m, h100(), tp, tokens, Phase::prefill, link, AllreduceAlgorithm::ring);
  ExerciseSolution s;
  s.answers = {{"bytes_per_gpu", c.bytes_sent_per_gpu}, {"time", c.comm_time_s}};
  s.values = {{"model_note", model_note(m.layers, m.hidden, m.activation_bytes)},
              {"allreduce_bytes", c.allreduce_bytes},
              {"bytes_sent_per_allreduce", c.per_call.bytes_sent_per_device},
              {"bytes_sent_per_layer", 2 * c.per_call.bytes_sent_per_device},
              {"allreduces", c.allreduces},
              {"allreduce_time_s", c.per_call.time_s},
              {"allreduce_steps", c.per_call.steps},
              {"link_alpha_s", link.alpha_s},
              {"link_beta_Bps", link.beta_Bps},
              // What the page's timeline draws: the statement's model, not the 70B preset.
              {"layers", m.layers},
              {"hidden", m.hidden},
              {"ffn", m.ffn},
              {"q_heads", m.q_heads},
              {"kv_heads", m.kv_heads},
              {"head_dim", m.head_dim},
              {"tp", tp},
              {"flops_eff_tflops", effective_flops(h100()) / 1e12},
              {"compute_time_s", c.compute_time_s},
              {"comm_to_compute_fraction", c.comm_time_s / c.compute_time_s}};
  return s;
}

// Exercise 7: compare tokens per device with the bandwidth-only crossover of §6.5.
ExerciseSolution solve_exercise_7(const json& p) {
  const double prompt = param(p, "prompt_tokens", 1, 1e9);
  const int devices = int_param(p, "devices", 1, 1 << 20);
  const Link link = link_param(p, "link", "ib_ndr");
  // The lecture's second question (an 8K prompt): the same threshold, fewer tokens a device.
  const double short_prompt = p.contains("short_prompt_tokens") ? param(p, "short_prompt_tokens", 1, 1e9) : 8192;
  const double per_device = prompt / devices, short_per_device = short_prompt / devices;
  const ModelPreset& m = llama();
  const RingAttentionCost c = ring_attention_cost(m, effective_flops(h100()), link, per_device);
  ExerciseSolution s;
  s.answers = {{"threshold", c.threshold_tokens},
               {"tokens_per_device", per_device},
               {"hidden", c.hidden ? "yes" : "no"},
               {"short_hidden", short_per_device >= c.threshold_tokens ? "yes" : "no"}};
  s.values = {{"threshold_with_alpha_tokens", c.threshold_with_alpha_tokens},
              {"flops_per_token2", c.flops_per_token2},
              {"kv_bytes_per_token", c.kv_bytes_per_token},
              {"step_compute_s", c.compute_time_s},
              {"step_transfer_s", c.transfer_time_s},
              {"flops_eff", effective_flops(h100())},
              {"flops_eff_tflops", effective_flops(h100()) / 1e12},
              {"flops_peak_tflops", h100().flops / 1e12},
              {"mfu_fraction", kDefaultMfu},
              {"head_dim", m.head_dim},
              {"q_heads", m.q_heads},
              {"kv_heads", m.kv_heads},
              {"bytes_per_value", m.activation_bytes},
              {"short_tokens_per_device", short_per_device},
              {"short_prompt_limit_tokens", c.threshold_tokens * devices},
              {"link_alpha_s", link.alpha_s},
              {"link_beta_Bps", link.beta_Bps}};
  return s;
}

}  // namespace commlab
