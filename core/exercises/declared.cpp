// Exercises as data: the "compute" section of an exercise file (declared.hpp).
//   "compute": {
//     "values": [{"id": "time_s", "request": {"op": "allreduce", "devices": "$devices", ...},
//                 "field": "time_s"},
//                {"id": "share", "expr": "2 * ($devices - 1) / $devices"},
//                {"id": "note", "text": {"en": " ({label})", "zh": "（{label}）"}, "if": "label"}],
//     "answers": {"time": "$time_s", "best": {"argmin": ["ring", "tree"]}},
//     "ranges": {"time": {"lo": "$time_no_alpha_s", "hi": "$time_s",
//                         "when": {"left": "values.share", "op": "<", "right": 1}}}}
// A "$name" names a param or a figure computed above it; answers may also name values.
#include "exercises/declared.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/request.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/declared_run.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using json = nlohmann::json;
using namespace detail;

namespace {

// Replaces {name} in a text by the string value of `name` (a figure computed above).
std::string fill_names(const std::string& text, const json& scope, const std::string& path) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i), close = text.find('}', open == std::string::npos ? i : open);
    if (open == std::string::npos || close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    out += text.substr(i, open - i);
    if (scope.contains(name) && scope.at(name).is_string()) out += scope.at(name).get<std::string>();
    else if (scope.contains(name) && scope.at(name).is_number()) out += num(scope.at(name).get<double>());
    else
      out += concat({"{", name, "}"});
    i = close + 1;
    if (out.size() > kMaxFilledTextBytes) break;
  }
  out += text.substr(i);
  if (out.size() > kMaxFilledTextBytes)
    reject({path, ": the filled text passes ", std::to_string(kMaxFilledTextBytes), " bytes; allowed: at most 16 KB"});
  return out;
}

bool truthy(const json& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get<std::string>().empty();
  return true;
}

// An expression's value; a problem names the expression's path in the file.
double expression_at(const std::string& text, const json& scope, const std::string& path) {
  try {
    return eval_expression(text, scope);
  } catch (const std::invalid_argument& e) {
    reject({path, ": ", e.what()});
  }
}

const char* const kFigureKinds[] = {"expr", "request", "text", "argmin", "cases"};

std::string kind_of(const json& v) {
  return v.is_boolean() ? "true/false" : v.is_number() ? "number" : v.is_string() ? "text" : "other";
}

json compute(const json& spec, Run& run, const std::string& path);

// "cases": the first case whose "when" holds gives the figure, a literal "value" or an "expr";
// the last case has no "when". Every case is checked at every run, not only the one taken: a
// mistake in a case the defaults do not reach would otherwise first show in front of a student.
json compute_cases(const json& spec, Run& run, const std::string& path) {
  const json& cases = spec.at("cases");
  const std::string at = path + ".cases";
  if (!cases.is_array() || cases.empty())
    reject({at, ": must be a non-empty array of cases {\"when\", \"value\"}, the last without \"when\""});
  size_t pick = cases.size();
  json picked;
  std::string first_kind;
  for (size_t j = 0; j < cases.size(); ++j) {
    const std::string cat = concat({at, "[", std::to_string(j), "]"});
    const json& k = cases[j];
    if (!k.is_object()) reject({cat, ": must be an object {\"when\", \"value\"} or {\"when\", \"expr\"}"});
    const bool last = j + 1 == cases.size();
    if (last && k.contains("when")) reject({cat, ".when: the last case is the otherwise case and has no \"when\""});
    if (!last && !k.contains("when")) reject({cat, ".when: is missing; only the last case (otherwise) may have none"});
    if (k.contains("value") == k.contains("expr"))
      reject({cat, ": needs either \"value\" (a number, a text or true/false) or \"expr\" (an expression)"});
    json v;
    if (k.contains("value")) {
      v = k.at("value");
      if (!v.is_number() && !v.is_string() && !v.is_boolean())
        reject({cat, ".value: is ", show_value(v), "; allowed: a number, a text or true/false"});
    } else {
      if (!k.at("expr").is_string()) reject({cat, ".expr: must be a string (an expression)"});
      v = expression_at(k.at("expr").get<std::string>(), run.scope, cat + ".expr");
    }
    if (j == 0) first_kind = kind_of(v);
    else if (kind_of(v) != first_kind)
      reject({cat, ": gives a ", kind_of(v), ", cases[0] a ", first_kind,
              "; allowed: one kind (a number, a text or true/false) in every case"});
    if (last) {
      if (pick == cases.size()) picked = std::move(v);
      continue;
    }
    const json& w = k.at("when");
    if (w.is_array() && w.empty()) reject({cat, ".when: must hold at least one condition"});
    const size_t count = w.is_array() ? w.size() : 1;
    for (size_t n = 0; n < count; ++n) {
      const json& one = w.is_array() ? w[n] : w;
      const std::vector<std::string> problems = condition_problems(
          run.solved, one, concat({cat, ".when", (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")}));
      if (problems.empty()) continue;
      std::string problem = problems.front();
      const std::string generic = " names no figure (params.x, answers.x or values.x)";
      const size_t g = problem.find(generic);
      if (g != std::string::npos)  // here a figure must also come before: say so
        problem.replace(g, generic.size(),
                        " names no figure computed before it; allowed: params.x, values.x of a value above it, "
                        "answers.x of an answer before it");
      reject({problem});
    }
    if (pick == cases.size() && condition_holds(run.solved, w)) {
      pick = j;
      picked = std::move(v);
    }
  }
  return picked;
}

// One declared figure: an expression, a request's field, a text, the name of the smallest, or a
// figure chosen by conditions.
json compute(const json& spec, Run& run, const std::string& path) {
  const json& scope = run.scope;
  if (spec.is_number()) return spec;
  if (spec.is_string()) return expression_at(spec.get<std::string>(), scope, path);
  if (!spec.is_object()) reject({path, ": must be an expression, a request, a text or cases"});
  const char* kind = nullptr;
  for (const char* k : kFigureKinds)
    if (spec.contains(k)) {
      if (kind)
        reject({path, ": holds both \"", kind, "\" and \"", k,
                "\"; allowed: one of \"expr\", \"request\", \"text\", \"argmin\", \"cases\""});
      kind = k;
    }
  if (spec.contains("expr")) {
    if (!spec.at("expr").is_string()) reject({path, ".expr: must be a string"});
    return expression_at(spec.at("expr").get<std::string>(), scope, path);
  }
  if (spec.contains("request")) return request_figure(spec, run, path);
  if (spec.contains("text")) {
    const json& t = spec.at("text");
    if (!is_text_pair(t)) reject({path, ".text: needs en and zh"});
    if (spec.contains("if") && !spec.at("if").is_string())
      reject({path, ".if: must name a param or a figure computed above (a string)"});
    if (spec.contains("if") && !truthy(bind_names(json("$" + spec.at("if").get<std::string>()), scope, path + ".if")))
      return message("", "");
    std::string en = fill_names(t.at("en"), scope, path + ".text.en");  // en first, as its message
    return message(std::move(en), fill_names(t.at("zh"), scope, path + ".text.zh"));
  }
  if (spec.contains("argmin")) {
    const json& names = spec.at("argmin");
    if (!names.is_array() || names.empty()) reject({path, ".argmin: must list names"});
    std::string best;
    double best_v = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string n = names[i].is_string() ? names[i].get<std::string>() : "";
      const json v = bind_names(json("$" + n), scope, concat({path, ".argmin[", std::to_string(i), "]"}));
      if (!v.is_number()) reject({path, ".argmin[", std::to_string(i), "]: not a number"});
      if (best.empty() || v.get<double>() < best_v) {
        best = n;
        best_v = v.get<double>();
      }
    }
    return best;
  }
  if (spec.contains("cases")) return compute_cases(spec, run, path);
  reject({path, ": must hold \"expr\", \"request\", \"text\", \"argmin\" or \"cases\""});
}

// A choice answer chosen by cases gives one of its choices in every case, a number answer a
// number: checked for every case, not only the one these params take.
void check_answer_cases(const json& def, const json& spec, const std::string& path) {
  if (!spec.is_object() || !spec.contains("cases") || !spec.at("cases").is_array()) return;
  const json& cases = spec.at("cases");
  const bool choice = is_choice_answer(def);
  const std::vector<std::string> choices = choice ? choices_of(def) : std::vector<std::string>{};
  for (size_t j = 0; j < cases.size(); ++j) {
    const std::string cat = concat({path, ".cases[", std::to_string(j), "]"});
    if (!cases[j].is_object()) continue;  // compute_cases says what is wrong
    if (choice && cases[j].contains("expr"))
      reject({cat, ".expr: a choice answer gives a name; allowed: \"value\": one of ", join(choices, ", ")});
    if (!cases[j].contains("value")) continue;
    const json& v = cases[j].at("value");
    if (choice && (!v.is_string() || std::find(choices.begin(), choices.end(), v.get<std::string>()) == choices.end()))
      reject({cat, ".value: ", show_value(v), " is not one of the answer's choices; ",
              nearest_or_allowed(v.is_string() ? v.get<std::string>() : v.dump(), choices)});
    if (!choice && !v.is_number())
      reject({cat, ".value: is ", show_value(v), "; allowed: a number (the answer is a ",
              def.value("dimension", std::string("number")), ")"});
  }
}

// The ranges the lecture accepts (answer id -> [lo, hi]), after every answer: "when" is a
// condition of the kind conclusions use, over params, answers and values; lo and hi are figures.
json ranges_of(const json& doc, const json& c, const json& params, const ExerciseSolution& s, Run& run) {
  json out = json::object();
  if (!c.contains("ranges")) return out;
  const json& ranges = c.at("ranges");
  if (!ranges.is_object()) reject({"compute.ranges: must be an object {answer id: {lo, hi, when}}"});
  const json solved = figures_of(params, s.answers, s.values);
  const auto answer_defs = defs_by_id(doc.at("answers"));
  for (auto it = ranges.begin(); it != ranges.end(); ++it) {
    const std::string id = it.key(), at = "compute.ranges." + clip(id);
    const auto found = answer_defs.find(id);
    const json* def = found == answer_defs.end() ? nullptr : found->second;
    if (!def) reject({at, ": no answer with this id in 'answers'"});
    if (is_choice_answer(*def))
      reject({at, ": answer '", clip(id), "' is a choice; allowed: a range of a number answer"});
    const json& r = it.value();
    if (!r.is_object()) reject({at, ": must be an object {lo, hi, when}"});
    for (const char* f : {"lo", "hi"})
      if (!r.contains(f))
        reject({at, ".", f, ": is missing; allowed: a figure (\"$name\", an expression or a request)"});
    if (r.contains("when")) {
      const json& w = r.at("when");
      if (!w.is_object() && !(w.is_array() && !w.empty()))
        reject({at, ".when: must be a condition {left, op, right} or a non-empty array of them"});
      const json conds = w.is_array() ? w : json::array({w});
      for (size_t n = 0; n < conds.size(); ++n) {
        const std::vector<std::string> problems = condition_problems(
            solved, conds[n], concat({at, ".when", (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")}));
        if (!problems.empty()) reject({problems.front()});
      }
      if (!condition_holds(solved, w)) continue;  // the lecture's range does not apply here
    }
    double ends[2];
    for (int i = 0; i < 2; ++i) {
      const char* f = i == 0 ? "lo" : "hi";
      const json x = compute(r.at(f), run, concat({at, ".", f}));
      if (!x.is_number())
        reject({at, ".", f, ": gives ", x.dump().substr(0, 60),
                "; allowed: a number (\"$name\", an expression or a request's number field)"});
      ends[i] = x.get<double>();
      if (!std::isfinite(ends[i]))
        reject({at, ".", f, ": is ", (std::isnan(ends[i]) ? "not a number (NaN)" : "infinite"),
                "; allowed: a finite number"});
    }
    if (ends[0] > ends[1])
      reject({at, ": lo (", num(ends[0]), ") is above hi (", num(ends[1]), "); allowed: lo <= hi"});
    out[id] = {ends[0], ends[1]};
  }
  return out;
}

// Runs the section; a problem throws std::invalid_argument naming its path in the file.
ExerciseSolution run(const json& doc, const json& params) {
  const json& c = doc.at("compute");
  Run r;
  r.scope = params;
  r.solved = figures_of(params, kNoMembers, kNoMembers);
  json& solved_values = r.solved["values"];
  json& solved_answers = r.solved["answers"];
  size_t kept = 0;
  // The section is read in place, not copied: a solve runs for every variant lint draws.
  static const json kNone = json::array(), kNoAnswers = json::object();
  // Params a template or a page view reads among the values (values.layers), kept as they are.
  const json& keep = c.contains("keep_params") ? c.at("keep_params") : kNone;
  if (!keep.is_array()) reject({"compute.keep_params: must be an array of param ids"});
  const auto param_defs = keep.empty() ? std::unordered_map<std::string, const json*>() : defs_by_id(doc.at("params"));
  for (size_t i = 0; i < keep.size(); ++i) {
    const std::string at = concat({"compute.keep_params[", std::to_string(i), "]"});
    if (!keep[i].is_string() || !param_defs.count(keep[i].get<std::string>()))
      reject({at, ": ", (keep[i].is_string() ? detail::quoted(keep[i].get<std::string>()) : show_value(keep[i])),
              " is not a param; allowed: a param's id"});
    const std::string id = keep[i];
    if (solved_values.contains(id))
      reject({at, ": ", detail::quoted(id), " is listed twice; allowed: each param once"});
    solved_values[id] = params.at(id);
  }
  const json& values = c.contains("values") ? c.at("values") : kNone;
  if (!values.is_array()) reject({"compute.values: must be an array"});
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string at = concat({"compute.values[", std::to_string(i), "]"});
    const json& v = values[i];
    if (!v.is_object() || !v.contains("id") || !v.at("id").is_string()) reject({at, ".id: must be a string"});
    const std::string& id = v.at("id").get_ref<const std::string&>();
    json x = compute(v, r, at);
    kept += x.is_string() ? x.get_ref<const std::string&>().size()
                          : x.is_object() ? x.value("en", std::string()).size() + x.value("zh", std::string()).size() : 8;
    if (kept > kMaxKeptBytes)
      reject({at, ": the figures computed so far hold ", std::to_string(kept), " bytes; allowed: at most 1 MB in all"});
    if (r.scope.contains(id)) r.last_request = nullptr;  // a name rebound: the same text may ask anew
    r.scope[id] = x;
    solved_values[id] = std::move(x);
  }
  const json& answers = c.contains("answers") ? c.at("answers") : kNoAnswers;
  if (!answers.is_object()) reject({"compute.answers: must be an object"});
  for (const json& def : doc.at("answers")) {
    const std::string id = def.at("id");
    if (!answers.contains(id)) reject({"compute.answers.", id, ": missing: how is this answer computed?"});
    check_answer_cases(def, answers.at(id), "compute.answers." + id);
    json x = compute(answers.at(id), r, "compute.answers." + id);
    if (r.scope.contains(id)) r.last_request = nullptr;
    r.scope[id] = x;
    solved_answers[id] = std::move(x);
  }
  const auto answer_defs = defs_by_id(doc.at("answers"));
  for (auto it = answers.begin(); it != answers.end(); ++it)
    if (!answer_defs.count(it.key())) reject({"compute.answers.", it.key(), ": no answer with this id in 'answers'"});
  ExerciseSolution s;
  s.values = std::move(solved_values);
  s.answers = std::move(solved_answers);
  s.ranges = ranges_of(doc, c, params, s, r);
  return s;
}

}  // namespace

void check_compute(const std::string& file, const json& doc, bool run_at_defaults) {
  if (!doc.at("compute").is_object()) bad_doc(file, "field 'compute' must be an object");
  if (!run_at_defaults) return;
  // Binding is checked by running the section at the lecture's params: every name must then
  // resolve and every request must be one the engine accepts.
  json params = json::object();
  for (const json& p : doc.at("params")) params[p.at("id").get<std::string>()] = p.at("default");
  if (!request_evaluator()) return;  // checked again when solved
  try {
    run(doc, params);
  } catch (const std::invalid_argument& e) {
    bad_doc(file, e.what());
  } catch (const json::exception& e) {
    bad_doc(file, {"a field of 'compute' has the wrong type: ", e.what()});
  }
}

namespace {
// solve_declared's refusal: what run() found, after the exercise's number (capped).
[[noreturn]] COMMLAB_RARE void refuse_solving(const std::string& code, const json& doc, const char* sep,
                                              const char* what) {
  throw RequestError(code, capped_message(concat({"exercise ", std::to_string(doc.at("id").get<int>()), sep, what})));
}
}  // namespace

ExerciseSolution solve_declared(const json& doc, const json& params) {
  try {
    return run(doc, params);
  } catch (const RefusedAtParams& e) {
    refuse_solving(e.code(), doc, ", ", e.what());
  } catch (const std::invalid_argument& e) {
    refuse_solving("invalid_exercise", doc, ", ", e.what());
  } catch (const json::exception& e) {
    refuse_solving("invalid_exercise", doc, ": a field of its compute section has the wrong type: ", e.what());
  }
}

}  // namespace commlab
