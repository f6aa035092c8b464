// Reading one exercise document: its text parsed within the limits, its fields checked
// (document_checks.cpp) and its compute section run at the defaults; and the document a page shows.
#include "exercises/exercises.hpp"

#include <string>
#include <vector>

#include "base/concat.hpp"
#include "base/request.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/declared.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

Exercise detail::read_exercise(const std::string& file, const json& doc, bool run_compute) {
  if (!doc.is_object() || !doc.contains("id") || !doc.at("id").is_number_integer() ||
      doc.at("id").get<double>() < 1 || doc.at("id").get<double>() > kMaxExerciseId)
    bad_doc(file, {"field 'id' is ", show_value(doc.is_object() ? member(doc, "id") : json()),
                   "; allowed: an integer from 1 to ", std::to_string(kMaxExerciseId)});
  // Read as strictly as a request: a misspelled field would silently change grading.
  const std::vector<std::string> unknown = unknown_fields(doc);
  if (!unknown.empty())
    bad_doc(file, {unknown.front(), (unknown.size() > 1 ? concat({" (and ", std::to_string(unknown.size() - 1),
                                                                  " more: commlab exercise lint lists them)"})
                                                        : "")});
  check_schema_reference(file, doc);
  for (const char* f : {"title", "statement", "solution"})
    if (!is_text_pair(member(doc, f))) bad_doc(file, {"field '", f, "' needs en and zh"});
  if (!member(doc, "params").is_array()) bad_doc(file, "field 'params' must be an array");
  if (!member(doc, "answers").is_array() || doc.at("answers").empty())
    bad_doc(file, "field 'answers' must be a non-empty array");
  const json& hints = member(doc, "hints");
  if (!hints.is_object() || !member(hints, "en").is_array() || !member(hints, "zh").is_array())
    bad_doc(file, "field 'hints' needs en and zh arrays");
  for (size_t i = 0; i < doc.at("params").size(); ++i) check_param_def(file, doc.at("params")[i], i);
  for (size_t i = 0; i < doc.at("answers").size(); ++i) check_answer_def(file, doc.at("answers")[i], i);
  check_variant(file, doc);
  check_conclusions(file, doc);
  const int id = doc.at("id");
  // "compute": answers declared as requests and arithmetic over the params, JSON only (no C++).
  if (!doc.contains("compute"))
    bad_doc(file, "field 'compute' is missing; allowed: a compute section saying how every answer is computed "
                  "(exercises/README.md \"Adding an exercise\")");
  check_compute(file, doc, run_compute);
  return Exercise{id, doc};
}

json parse_exercise_text(const std::string& file, const std::string& text) {
  if (text.size() > kMaxDocumentBytes)
    bad_doc(file, {"the document is ", std::to_string(text.size()), " bytes; allowed: at most ",
                   std::to_string(kMaxDocumentBytes), " (256 KB)"});
  // Before parsing: nothing after the parser should see (and recurse over) a deeper value.
  if (text_nesting_depth(text, kMaxDocumentDepth) > kMaxDocumentDepth)
    bad_doc(file, {"the document nests more than ", std::to_string(kMaxDocumentDepth),
                   " levels of arrays and objects; allowed: at most ", std::to_string(kMaxDocumentDepth)});
  try {
    return parse_json(text);
  } catch (const json::exception& e) {
    bad_doc(file, {"not valid JSON: ", e.what()});
  }
}

json exercise_document(const Exercise& ex, const json& params) {
  json doc = ex.doc;
  doc.erase("$schema");  // for editors of the file, not for the page
  for (json& a : doc.at("answers")) {
    if (a.contains("rule")) continue;
    a["rule"] = answer_rule(a);
    // The page shows the judging part once an exercise (web/card/answers.js).
    auto [what, judging] = answer_rule_parts(a);
    a["rule_what"] = std::move(what);
    if (!judging.is_null()) a["rule_judging"] = std::move(judging);
  }
  // The statement may name hardware from the compute section's values (a link's label only when the
  // params are its figures), so it is filled as exercise.solve fills it.
  const ExerciseSolution s = solve_declared(ex.doc, params);
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, nullptr, nullptr, &values};
  doc["statement_filled"] = fill_pair(ex.doc.at("statement"), c, "statement");
  doc["params_display"] = params_display(ex, params);
  return doc;
}

}  // namespace commlab
