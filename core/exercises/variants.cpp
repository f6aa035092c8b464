// New variants of an exercise: nice params from a seed, the same natively and in wasm.
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include <cmath>
#include <set>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using namespace detail;

namespace {

// splitmix64 (Steele, Lea, Flood 2014): integer-only, so native and wasm draw the same.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t pick(size_t n) { return static_cast<size_t>(next() % n); }
};

// Exact powers of ten: products and one division, the same on every IEEE platform.
double pow10_exact(int k) {
  double p = 1;
  for (int i = 0; i < std::abs(k); ++i) p *= 10;
  return k < 0 ? 1 / p : p;
}

// Round numbers inside [min, max]: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten.
std::vector<json> ladder(const json& def) {
  const double lo = def.at("min"), hi = def.at("max");
  const bool integer = def.at("kind") == "integer";
  std::vector<json> out;
  std::set<double> seen;
  for (int k = -15; k <= 15; ++k)
    for (double m : {10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 80.0}) {
      const double x = k >= 1 ? m * pow10_exact(k - 1) : m / pow10_exact(1 - k);
      if (x < lo || x > hi || (integer && x != std::floor(x)) || !seen.insert(x).second) continue;
      out.push_back(integer ? json(static_cast<long long>(x)) : json(x));
    }
  if (out.empty()) out.push_back(def.at("default"));
  return out;
}

std::vector<json> candidates(const json& def) {
  if (def.contains("nice")) return def.at("nice").get<std::vector<json>>();
  if (def.contains("one_of")) return def.at("one_of").get<std::vector<json>>();
  if (def.at("kind") == "choice") return def.at("choices").get<std::vector<json>>();
  return ladder(def);
}

// A figure a "distinct" pair names: "params.x", "values.x", "answers.x", or a number.
double figure(const json& solved, const json& ref) {
  if (ref.is_number()) return ref.get<double>();
  const std::string name = ref.get<std::string>();
  const size_t dot = name.find('.');
  return solved.at(name.substr(0, dot)).at(name.substr(dot + 1)).get<double>();
}

// A variant must be well posed: every figure finite and positive, the exercise's constraints
// true, the compute section content with it (values.well_posed, e.g. no near-tie for "best"), and its
// own displayed answers correct.
bool solvable(const Exercise& ex, const json& params) {
  try {
    const json s = solve_exercise(ex, params);
    if (s.at("values").contains("well_posed") && s.at("values").at("well_posed") == false) return false;
    const json& variant = member(ex.doc, "variant", kNoMembers);
    // The premise of an exercise, declared in its file: "variant": {"constraints": [{"left":
    // "values.inter_beta_Bps", "op": "<", "right": "values.intra_beta_Bps"}, ...]}.
    for (const json& c : member(variant, "constraints", kNoItems))
      if (!condition_holds(s, c)) return false;
    // Pairs of figures a student compares ("tokens_per_device" vs "threshold") stay 10% apart,
    // so rounding cannot flip the conclusion.
    for (const json& pair : member(variant, "distinct", kNoItems)) {
      const double a = figure(s, pair.at(0)), b = figure(s, pair.at(1));
      if (std::fabs(a - b) < 0.1 * std::max(std::fabs(a), std::fabs(b))) return false;
    }
    for (const json& def : ex.doc.at("answers")) {
      const std::string id = def.at("id");
      const json& v = s.at("answers").at(id);
      if (v.is_number() && !(std::isfinite(v.get<double>()) && v.get<double>() > 0)) return false;
      if (judge_answer(def, v, s.at("display").at(id), s.at("ranges").value(id, json())).at("verdict") != "correct")
        return false;
    }
    return true;
  } catch (const std::exception&) {
    // Out of the document's one budget: every later draw would fail at once; stop here.
    if (document_work_exhausted())
      refuse("invalid_exercise", {"exercise ", std::to_string(ex.id), ": ", document_work_message()});
    return false;
  }
}

// One draw: a preset (if any), then a candidate for every other param.
json draw(const Exercise& ex, const json& presets, SplitMix64& rng) {
  json p = json::object();
  if (!presets.empty()) p = presets.at(rng.pick(presets.size()));
  if (!p.is_object()) p = json::object();
  for (const json& def : ex.doc.at("params")) {
    const std::string id = def.at("id");
    if (p.contains(id)) continue;
    const std::vector<json> c = candidates(def);
    if (c.empty()) continue;  // never: loading refuses an empty "nice"; no division by zero
    p[id] = c.at(rng.pick(c.size()));
  }
  return p;
}

SplitMix64 rng_for(const Exercise& ex, std::uint64_t seed) {
  return SplitMix64{seed ^ (static_cast<std::uint64_t>(ex.id) * 0xd1b54a32d192ed03ULL)};
}

}  // namespace

json draw_params(const Exercise& ex, std::uint64_t seed) {
  SplitMix64 rng = rng_for(ex, seed);
  const json& presets = member(member(ex.doc, "variant", kNoMembers), "presets", kNoItems);
  try {
    return resolve_params(ex, draw(ex, presets, rng));
  } catch (const RequestError&) {
    return json();
  }
}

json variant_params(const Exercise& ex, std::uint64_t seed) {
  SplitMix64 rng = rng_for(ex, seed);
  const json defaults = resolve_params(ex, json::object());
  const json& variant = member(ex.doc, "variant", kNoMembers);
  const json& presets = member(variant, "presets", kNoItems);
  for (int attempt = 0; attempt < 200; ++attempt) {
    json p = draw(ex, presets, rng);
    try {
      p = resolve_params(ex, p);
    } catch (const RequestError&) {
      continue;
    }
    if (p == defaults && attempt < 100) continue;  // fresh, unless nothing else is possible
    if (solvable(ex, p)) return p;
  }
  return defaults;
}

}  // namespace commlab
