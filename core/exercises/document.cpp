// Loading the embedded exercise documents, checking their fields, and the document a page shows.
#include "exercises/exercises.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

namespace {

// One solver per exercise id. A new exercise is a JSON file plus, at most, one line here
// (and its function in exercise_solvers.hpp).
const std::map<int, ExerciseSolver>& solver_table() {
  static const std::map<int, ExerciseSolver> table = {
      {1, solve_exercise_1}, {2, solve_exercise_2}, {3, solve_exercise_3}, {4, solve_exercise_4},
      {5, solve_exercise_5}, {6, solve_exercise_6}, {7, solve_exercise_7}, {8, solve_exercise_8},
  };
  return table;
}

void check_param_def(const std::string& file, const json& p, size_t i) {
  const std::string at = "field 'params[" + std::to_string(i) + "]";
  if (!p.is_object() || !p.contains("id") || !p.at("id").is_string())
    bad_doc(file, at + ".id' must be a string");
  const std::string kind = p.value("kind", "");
  if (kind != "number" && kind != "integer" && kind != "choice")
    bad_doc(file, at + ".kind' must be number, integer or choice");
  if (!p.contains("default")) bad_doc(file, at + ".default' is missing");
  if (!is_text_pair(p.value("label", json()))) bad_doc(file, at + ".label' needs en and zh");
  if (kind == "choice") {
    const json& c = p.value("choices", json());
    if (!c.is_array() || c.empty()) bad_doc(file, at + ".choices' must be a non-empty array");
    if (std::find(c.begin(), c.end(), p.at("default")) == c.end())
      bad_doc(file, at + ".default' is not among its choices");
    return;
  }
  if (!p.value("min", json()).is_number() || !p.value("max", json()).is_number() ||
      !p.at("default").is_number())
    bad_doc(file, at + "': default, min and max must be numbers");
  if (!dimension_of_unit(p.value("unit", "")))
    bad_doc(file, at + ".unit' " + p.value("unit", "") + " is not a known unit");
  const double lo = p.at("min"), hi = p.at("max"), d = p.at("default");
  if (!(lo <= d && d <= hi)) bad_doc(file, at + ".default' is outside [min, max]");
}

void check_answer_def(const std::string& file, const json& a, size_t i) {
  const std::string at = "field 'answers[" + std::to_string(i) + "]";
  if (!a.is_object() || !a.contains("id") || !a.at("id").is_string())
    bad_doc(file, at + ".id' must be a string");
  if (!is_text_pair(a.value("label", json()))) bad_doc(file, at + ".label' needs en and zh");
  const std::string dim = a.value("dimension", "");
  if (dim == "choice") {
    const json& c = a.value("choices", json());
    if (!c.is_array() || c.empty()) bad_doc(file, at + ".choices' must be a non-empty array");
    return;
  }
  if (!parse_dimension(dim) || dim == "bandwidth")
    bad_doc(file, at + ".dimension' must be time, bytes, fraction, count, plain or choice");
  if (!unit_factor(a.value("unit", ""), *parse_dimension(dim)))
    bad_doc(file, at + ".unit' does not fit dimension " + dim);
  if (a.contains("tolerance_rel") && !(a.at("tolerance_rel").is_number() && a.at("tolerance_rel") > 0))
    bad_doc(file, at + ".tolerance_rel' must be a positive number");
}

Exercise load_one(const ExerciseSource& src) {
  const std::string file = src.file;
  json doc;
  try {
    doc = json::parse(src.text);
  } catch (const json::exception& e) {
    bad_doc(file, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("id") || !doc.at("id").is_number_integer())
    bad_doc(file, "field 'id' must be an integer");
  for (const char* f : {"title", "statement", "solution"})
    if (!is_text_pair(doc.value(f, json()))) bad_doc(file, std::string("field '") + f + "' needs en and zh");
  if (!doc.value("params", json()).is_array()) bad_doc(file, "field 'params' must be an array");
  if (!doc.value("answers", json()).is_array() || doc.at("answers").empty())
    bad_doc(file, "field 'answers' must be a non-empty array");
  const json& hints = doc.value("hints", json());
  if (!hints.is_object() || !hints.value("en", json()).is_array() || !hints.value("zh", json()).is_array())
    bad_doc(file, "field 'hints' needs en and zh arrays");
  for (size_t i = 0; i < doc.at("params").size(); ++i) check_param_def(file, doc.at("params")[i], i);
  for (size_t i = 0; i < doc.at("answers").size(); ++i) check_answer_def(file, doc.at("answers")[i], i);
  // "solver": N lets a new exercise reuse exercise N's solver with other defaults: JSON only.
  const int id = doc.at("id");
  if (doc.contains("solver") && !doc.at("solver").is_number_integer())
    bad_doc(file, "field 'solver' must be an exercise number");
  const int solver_id = doc.value("solver", id);
  const auto solver = solver_table().find(solver_id);
  if (solver == solver_table().end())
    bad_doc(file, "exercise " + std::to_string(solver_id) + " has no solver function (solver_table in core/exercises/document.cpp)");
  return Exercise{id, doc, solver->second};
}

}  // namespace

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = [] {
    std::vector<Exercise> list;
    std::set<int> ids;
    for (const ExerciseSource& src : exercise_sources()) {
      Exercise ex = load_one(src);
      if (!ids.insert(ex.id).second)
        bad_doc(src.file, "exercise id " + std::to_string(ex.id) + " is used twice");
      list.push_back(std::move(ex));
    }
    std::sort(list.begin(), list.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
    return list;
  }();
  return all;
}

const Exercise& find_exercise(const json& id, const std::string& field) {
  std::vector<std::string> ids;
  for (const Exercise& ex : exercises()) ids.push_back(std::to_string(ex.id));
  const std::string rule = "allowed: one of " + join(ids, ", ");
  if (!id.is_number() || !std::isfinite(id.get<double>()) || id.get<double>() != std::floor(id.get<double>()))
    throw RequestError("invalid_type", "field '" + field + "': value " + show_value(id) +
                                           " is not an exercise number; " + rule);
  for (const Exercise& ex : exercises())
    if (ex.id == id.get<double>()) return ex;
  throw RequestError("unknown_value", "field '" + field + "': no exercise " + show_value(id) + "; " + rule);
}

json exercise_document(const Exercise& ex, const json& params) {
  json doc = ex.doc;
  for (json& a : doc.at("answers")) {
    if (a.contains("rule")) continue;
    a["rule"] = answer_rule(a);
  }
  // The statement may name hardware from the solver's values (a link's label only when the
  // params are its figures), so it is filled as exercise.solve fills it.
  const ExerciseSolution s = ex.solver(params);
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, nullptr, nullptr, &values};
  doc["statement_filled"] = fill_pair(ex.doc.at("statement"), c);
  doc["params_display"] = params_display(ex, params);
  return doc;
}

}  // namespace commlab
