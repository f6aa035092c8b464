// Solving an exercise for given params (answers, display strings, filled texts) and checking typed answers.
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/declared.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

namespace {
// What one solve of the document handles: params, answers, computed values, conclusion cases.
double items_of(const json& doc) {
  auto count = [&](const json& parent, const char* key) -> double {
    return parent.is_object() && parent.contains(key) && parent.at(key).is_array() ? parent.at(key).size() : 0;
  };
  double n = 1 + count(doc, "params") + count(doc, "answers") + (doc.contains("compute") ? count(doc.at("compute"), "values") : 0);
  if (doc.contains("conclusions") && doc.at("conclusions").is_array())
    for (const json& c : doc.at("conclusions")) n += count(c, "cases");
  return n;
}
}  // namespace

json solve_exercise(const Exercise& ex, const json& params) {
  charge_work(kSolveUnitsPerItem * items_of(ex.doc));  // the document's one budget, requests or not
  const ExerciseSolution s = solve_declared(ex.doc, params);
  // Every answer comes from the document's compute section: one it does not give, or of the
  // other kind, is the document's fault.
  json display = json::object();
  const json& defs = ex.doc.at("answers");
  for (size_t i = 0; i < defs.size(); ++i) {
    const json& def = defs[i];
    const std::string id = def.at("id");
    if (!s.answers.contains(id)) {
      std::vector<std::string> given;
      for (auto it = s.answers.begin(); it != s.answers.end(); ++it) given.push_back(it.key());
      throw RequestError("invalid_exercise",
                         capped_message(concat({"exercise ", std::to_string(ex.id), ", answers[", std::to_string(i),
                                                "].id: '", id, "' is not computed; allowed: ", join(given, ", ")})));
    }
    const json& v = s.answers.at(id);
    if (is_choice_answer(def) ? !v.is_string() : !v.is_number())
      throw RequestError(
          "invalid_exercise",
          capped_message(concat({"exercise ", std::to_string(ex.id), ", answers[", std::to_string(i), "]: answer '", id,
                                 "' is computed as ", show_value(v), "; allowed: ",
                                 (is_choice_answer(def) ? "one of its choices (a text)" : "a number")})));
    display[id] =
        v.is_string() ? v.get<std::string>() : format_quantity(v.get<double>(), unit_of(def), answer_dimension(def));
  }
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, &s.answers, &display, &values};
  // Conclusions are chosen by the figures, their texts filled like the solution's, then the
  // solution says them: a concluding sentence cannot contradict the numbers before it.
  const json solved = figures_of(params, s.answers, values);
  const json picked = choose_conclusions(ex.doc, solved);
  json conclusions = json::object();
  for (const json& def : member(ex.doc, "conclusions", kNoItems)) {
    const std::string id = def.at("id");
    conclusions[id] = fill_pair(def.at("cases").at(picked.at(id).get<size_t>()).at("text"), c, "conclusions." + id);
  }
  TemplateContext with_conclusions = c;
  with_conclusions.conclusions = &conclusions;
  // Member by member, in the order a list would fill them (the texts last): no list of
  // temporaries to build and clean up.
  json out = json::object();
  out["params_display"] = params_display(ex, params);
  out["statement"] = fill_pair(ex.doc.at("statement"), c, "statement");
  out["solution"] = fill_pair(ex.doc.at("solution"), with_conclusions, "solution");
  out["id"] = ex.id;
  out["params"] = params;
  out["answers"] = s.answers;
  out["display"] = std::move(display);
  out["values"] = values;
  out["ranges"] = s.ranges;
  out["conclusions"] = std::move(conclusions);
  out["conclusion_cases"] = picked;
  return out;
}

json check_exercise(const Exercise& ex, const json& params, const json& typed) {
  if (!typed.is_object())
    refuse("invalid_type",
           {"field 'answers': value ", show_value(typed), " is not allowed; allowed: a JSON object {answer id: text}"});
  std::vector<std::string> names;
  for (const json& def : ex.doc.at("answers")) names.push_back(def.at("id"));
  const auto defs = defs_by_id(ex.doc.at("answers"));
  for (auto it = typed.begin(); it != typed.end(); ++it)
    if (!defs.count(it.key()))
      throw RequestError(
          "unknown_field",
          capped_message(concat({"field 'answers.", (it.key().size() <= 60 ? it.key() : it.key().substr(0, 57) + "..."),
                                 "' is not an answer of exercise ", std::to_string(ex.id),
                                 "; allowed fields: ", join(names, ", ")})));
  const ExerciseSolution s = solve_declared(ex.doc, params);
  json verdicts = json::object();
  bool all_correct = true;
  for (const json& def : ex.doc.at("answers")) {
    const std::string id = def.at("id");
    if (!typed.contains(id)) {
      all_correct = false;
      continue;
    }
    verdicts[id] = judge_answer(def, s.answers.at(id), typed.at(id), s.ranges.value(id, json()));
    all_correct = all_correct && verdicts[id].at("verdict") == "correct";
  }
  json out = json::object();
  out["id"] = ex.id;
  out["verdicts"] = std::move(verdicts);
  out["all_correct"] = all_correct;
  return out;
}

}  // namespace commlab
