// Solving an exercise for given params (answers, display strings, filled texts) and checking typed answers.
#include "exercises/exercises.hpp"

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

json solve_exercise(const Exercise& ex, const json& params) {
  const ExerciseSolution s = ex.solver(params);
  json display = json::object();
  for (const json& def : ex.doc.at("answers")) {
    const std::string id = def.at("id");
    if (!s.answers.contains(id))
      throw RequestError("internal",
                         "the solver of exercise " + std::to_string(ex.id) + " gave no answer '" + id + "'");
    const json& v = s.answers.at(id);
    // A declared answer comes from the document: its wrong type is the document's fault.
    if (is_choice_answer(def) ? !v.is_string() : !v.is_number())
      throw RequestError(ex.doc.contains("compute") ? "invalid_exercise" : "internal", "the solver of exercise " + std::to_string(ex.id) + " gave answer '" +
                                         id + "' of the wrong type: " + show_value(v));
    display[id] = v.is_string()
                      ? v.get<std::string>()
                      : format_quantity(v.get<double>(), def.value("unit", ""), answer_dimension(def));
  }
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, &s.answers, &display, &values};
  // Conclusions are chosen by the figures, their texts filled like the solution's, then the
  // solution says them: a concluding sentence cannot contradict the numbers before it.
  const json solved = {{"params", params}, {"answers", s.answers}, {"values", values}};
  const json picked = choose_conclusions(ex.doc, solved);
  json conclusions = json::object();
  for (const json& def : ex.doc.value("conclusions", json::array())) {
    const std::string id = def.at("id");
    conclusions[id] = fill_pair(def.at("cases").at(picked.at(id).get<size_t>()).at("text"), c, "conclusions." + id);
  }
  TemplateContext with_conclusions = c;
  with_conclusions.conclusions = &conclusions;
  return {{"id", ex.id},
          {"params", params},
          {"params_display", params_display(ex, params)},
          {"answers", s.answers},
          {"display", display},
          {"values", values},
          {"ranges", s.ranges},
          {"statement", fill_pair(ex.doc.at("statement"), c, "statement")},
          {"conclusions", conclusions},
          {"conclusion_cases", picked},
          {"solution", fill_pair(ex.doc.at("solution"), with_conclusions, "solution")}};
}

json check_exercise(const Exercise& ex, const json& params, const json& typed) {
  if (!typed.is_object())
    throw RequestError("invalid_type", "field 'answers': value " + show_value(typed) +
                                           " is not allowed; allowed: a JSON object {answer id: text}");
  std::vector<std::string> names;
  for (const json& def : ex.doc.at("answers")) names.push_back(def.at("id"));
  for (auto it = typed.begin(); it != typed.end(); ++it)
    if (!find_def(ex.doc.at("answers"), it.key()))
      throw RequestError("unknown_field",
                         capped_message("field 'answers." +
                                        (it.key().size() <= 60 ? it.key() : it.key().substr(0, 57) + "...") +
                                        "' is not an answer of exercise " + std::to_string(ex.id) +
                                        "; allowed fields: " + join(names, ", ")));
  const ExerciseSolution s = ex.solver(params);
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
  return {{"id", ex.id}, {"verdicts", verdicts}, {"all_correct", all_correct}};
}

}  // namespace commlab
