// The fields an exercise document may hold, read as strictly as a request (SPEC "Exercise
// documents are untrusted input"): an unknown or misspelled field anywhere is a lint problem
// naming its path and the nearest valid name, since a misspelling silently changes grading
// ("tolerence_rel" would keep 1%, "exakt" would accept "7.05 steps").
#include <algorithm>
#include <string>
#include <vector>

#include "exercises/internal.hpp"

namespace commlab::detail {

namespace {

using Names = std::vector<std::string>;

const Names kTop = {"id", "title", "statement", "solution", "hints", "params", "answers",
                    "variant", "compute", "conclusions", "solver"};
const Names kText = {"en", "zh"};
const Names kParam = {"id", "kind", "label", "default", "min", "max", "unit", "nice", "one_of", "choices"};
const Names kAnswer = {"id", "label", "dimension", "unit", "exact", "about", "aliases", "choices",
                       "choice_labels", "tolerance_rel", "min_significant_figures", "range_rule"};
const Names kVariant = {"presets", "constraints", "distinct"};
const Names kConstraint = {"left", "op", "right", "why"};
const Names kCondition = {"left", "op", "right"};
const Names kCompute = {"values", "answers", "keep_params"};
const Names kValue = {"id", "expr", "request", "field", "text", "if", "argmin", "cases"};
const Names kAnswerSpec = {"expr", "request", "field", "text", "if", "argmin", "cases"};
const Names kFigureCase = {"when", "value", "expr"};
const Names kConclusion = {"id", "cases"};
const Names kCase = {"when", "text"};

std::string clip(const std::string& s) { return s.size() <= 60 ? s : s.substr(0, 57) + "..."; }

std::string key_path(const std::string& path, const std::string& key) {
  return path.empty() ? clip(key) : path + "." + clip(key);
}

// Names from `fields` in `obj` that are not in `allowed`, each a problem.
void keys(const json& obj, const Names& allowed, const std::string& path, const std::string& what,
          std::vector<std::string>& out) {
  if (!obj.is_object()) return;
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
      out.push_back(key_path(path, it.key()) + ": " + what + "; " + nearest_or_allowed(it.key(), allowed));
}

void text_pair(const json& j, const std::string& path, std::vector<std::string>& out) {
  keys(j, kText, path, "unknown field", out);
}

Names ids_of(const json& list) {
  Names out;
  if (!list.is_array()) return out;
  for (const json& x : list)
    if (x.is_object() && x.contains("id") && x.at("id").is_string()) out.push_back(x.at("id"));
  return out;
}

void condition(const json& c, const Names& allowed, const std::string& path, std::vector<std::string>& out) {
  keys(c, allowed, path, "unknown field", out);
  if (c.is_object() && c.contains("why")) text_pair(c.at("why"), path + ".why", out);
}

void when(const json& w, const std::string& path, std::vector<std::string>& out) {
  if (w.is_object()) condition(w, kCondition, path, out);
  for (size_t n = 0; w.is_array() && n < w.size(); ++n) condition(w[n], kCondition, path + "[" + std::to_string(n) + "]", out);
}

void figure_spec(const json& spec, const Names& allowed, const std::string& path, std::vector<std::string>& out) {
  keys(spec, allowed, path, "unknown field", out);
  if (spec.is_object() && spec.contains("text")) text_pair(spec.at("text"), path + ".text", out);
  const json& cases = spec.is_object() ? spec.value("cases", json()) : json();
  for (size_t j = 0; cases.is_array() && j < cases.size(); ++j) {
    const std::string cat = path + ".cases[" + std::to_string(j) + "]";
    keys(cases[j], kFigureCase, cat, "unknown field", out);
    if (cases[j].is_object() && cases[j].contains("when")) when(cases[j].at("when"), cat + ".when", out);
  }
}

}  // namespace

// Optimal string alignment: a swap of two letters ("whne") is one edit, as a typo is.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest_or_allowed(const std::string& name, const std::vector<std::string>& allowed) {
  std::string best;
  size_t best_d = 0;
  if (name.size() <= 200)  // a long name is near nothing; the distance stays cheap
    for (const std::string& a : allowed) {
      const size_t d = edit_distance(name, a);
      if (best.empty() || d < best_d) {
        best = a;
        best_d = d;
      }
    }
  // Close: at most a third of the name's letters differ (one typo in "exakt", two in "tolerence_rel").
  if (!best.empty() && best_d <= std::max<size_t>(1, std::min(name.size(), best.size()) / 3))
    return "did you mean \"" + best + "\"?";
  // Or cut short ("alpha" for "alpha_s"): the one name it begins.
  std::string prefix_of;
  int begun = 0;
  for (const std::string& a : allowed)
    if (name.size() >= 3 && a.size() > name.size() && a.compare(0, name.size(), name) == 0) {
      prefix_of = a;
      ++begun;
    }
  if (begun == 1) return "did you mean \"" + prefix_of + "\"?";
  return "allowed: " + join(allowed, ", ");
}

std::vector<std::string> unknown_fields(const json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object()) return out;
  keys(doc, kTop, "", "unknown field", out);
  for (const char* f : {"title", "statement", "solution", "hints"})
    if (doc.contains(f)) text_pair(doc.at(f), f, out);
  const json& params = doc.value("params", json());
  for (size_t i = 0; params.is_array() && i < params.size(); ++i) {
    const std::string at = "params[" + std::to_string(i) + "]";
    keys(params[i], kParam, at, "unknown field", out);
    if (params[i].is_object() && params[i].contains("label")) text_pair(params[i].at("label"), at + ".label", out);
  }
  const json& answers = doc.value("answers", json());
  for (size_t i = 0; answers.is_array() && i < answers.size(); ++i) {
    const json& a = answers[i];
    const std::string at = "answers[" + std::to_string(i) + "]";
    keys(a, kAnswer, at, "unknown field", out);
    if (!a.is_object()) continue;
    for (const char* f : {"label", "range_rule"})
      if (a.contains(f)) text_pair(a.at(f), at + "." + f, out);
    Names choices;
    if (a.value("choices", json()).is_array())
      for (const json& c : a.at("choices"))
        if (c.is_string()) choices.push_back(c);
    for (const char* f : {"aliases", "choice_labels"}) {
      if (!a.contains(f) || !choices.size()) continue;
      keys(a.at(f), choices, at + "." + f, "not one of the answer's choices", out);
      if (std::string(f) == "choice_labels" && a.at(f).is_object())
        for (auto it = a.at(f).begin(); it != a.at(f).end(); ++it) text_pair(it.value(), at + "." + f + "." + clip(it.key()), out);
    }
  }
  if (doc.contains("variant")) {
    const json& v = doc.at("variant");
    keys(v, kVariant, "variant", "unknown field", out);
    const Names param_ids = ids_of(params);
    const json& presets = v.is_object() ? v.value("presets", json()) : json();
    for (size_t i = 0; presets.is_array() && i < presets.size(); ++i)
      keys(presets[i], param_ids, "variant.presets[" + std::to_string(i) + "]", "not a param", out);
    const json& cons = v.is_object() ? v.value("constraints", json()) : json();
    for (size_t i = 0; cons.is_array() && i < cons.size(); ++i)
      condition(cons[i], kConstraint, "variant.constraints[" + std::to_string(i) + "]", out);
  }
  if (doc.contains("compute")) {
    const json& c = doc.at("compute");
    keys(c, kCompute, "compute", "unknown field", out);
    const json& values = c.is_object() ? c.value("values", json()) : json();
    for (size_t i = 0; values.is_array() && i < values.size(); ++i)
      figure_spec(values[i], kValue, "compute.values[" + std::to_string(i) + "]", out);
    const json& ans = c.is_object() ? c.value("answers", json()) : json();
    if (ans.is_object()) {
      keys(ans, ids_of(answers), "compute.answers", "not an answer id", out);
      for (auto it = ans.begin(); it != ans.end(); ++it)
        figure_spec(it.value(), kAnswerSpec, "compute.answers." + clip(it.key()), out);
    }
  }
  const json& conclusions = doc.value("conclusions", json());
  for (size_t i = 0; conclusions.is_array() && i < conclusions.size(); ++i) {
    const std::string at = "conclusions[" + std::to_string(i) + "]";
    keys(conclusions[i], kConclusion, at, "unknown field", out);
    const json& cases = conclusions[i].is_object() ? conclusions[i].value("cases", json()) : json();
    for (size_t j = 0; cases.is_array() && j < cases.size(); ++j) {
      const std::string cat = at + ".cases[" + std::to_string(j) + "]";
      keys(cases[j], kCase, cat, "unknown field", out);
      if (!cases[j].is_object()) continue;
      if (cases[j].contains("text")) text_pair(cases[j].at("text"), cat + ".text", out);
      when(cases[j].value("when", json()), cat + ".when", out);
    }
  }
  return out;
}

}  // namespace commlab::detail
