// Ops of the exercises (P5 §11; SPEC "Exercises contract"): list, get, solve, check, variant.
#include <cmath>

#include "base/error.hpp"
#include "exercises/exercises.hpp"
#include "api/ops.hpp"

namespace commlab {

namespace {

json params_of(Request& r, const Exercise& ex) {
  const json empty = json::object();
  return resolve_params(ex, r.has("params") ? r.raw("params") : empty, "params.");
}

}  // namespace

json op_exercise_list(Request& r) {
  r.finish();
  json list = json::array();
  for (const Exercise& ex : exercises()) list.push_back({{"id", ex.id}, {"title", ex.doc.at("title")}});
  return {{"exercises", list}};
}

json op_exercise_get(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  r.finish();
  return exercise_document(ex, params);
}

json op_exercise_solve(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  r.finish();
  return solve_exercise(ex, params);
}

json op_exercise_check(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  const json& answers = r.raw("answers");
  r.finish();
  return check_exercise(ex, params, answers);
}

json op_exercise_variant(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json& seed = r.raw("seed");
  r.finish();
  // Seeds are whole numbers JSON carries exactly: 0 .. 2^53 - 1.
  const double kMaxSeed = 9007199254740991.0;
  if (!seed.is_number() || !std::isfinite(seed.get<double>()) ||
      seed.get<double>() != std::floor(seed.get<double>()) || seed.get<double>() < 0 ||
      seed.get<double>() > kMaxSeed)
    throw RequestError(seed.is_number() ? "out_of_range" : "invalid_type",
                       "field 'seed': value " + show_value(seed) +
                           " is not allowed; allowed: an integer from 0 to 9007199254740991");
  const std::uint64_t s =
      seed.is_number_unsigned() ? seed.get<std::uint64_t>() : static_cast<std::uint64_t>(seed.get<double>());
  return {{"id", ex.id}, {"params", variant_params(ex, s)}};
}

}  // namespace commlab

namespace commlab {

// An exercise written only in JSON, added for this session (the page, a test, the CLI's
// --exercise FILE): {"op":"exercise.load","doc":{...}} or "text" with the file's text.
json op_exercise_load(Request& r) {
  const std::string file = r.has("file") ? r.raw("file").get<std::string>() : std::string("loaded.json");
  json doc;
  if (r.has("doc")) {
    doc = r.raw("doc");
  } else {
    const json& text = r.raw("text");
    if (!text.is_string()) throw RequestError("invalid_type", "field 'text': must be the exercise file's text");
    try {
      doc = parse_json(text.get<std::string>());
    } catch (const json::exception& e) {
      throw RequestError("invalid_exercise", "exercises/" + file + ": not valid JSON: " + e.what());
    }
  }
  r.finish();
  const Exercise& ex = load_exercise(file, doc);
  return {{"id", ex.id}, {"title", ex.doc.at("title")}};
}

json op_exercise_lint(Request& r) {
  const std::string file = r.has("file") ? r.raw("file").get<std::string>() : std::string("exercise.json");
  const json& text = r.raw("text");
  if (!text.is_string()) throw RequestError("invalid_type", "field 'text': must be the exercise file's text");
  r.finish();
  const std::vector<std::string> problems = lint_exercise(file, text.get<std::string>());
  return {{"ok", problems.empty()}, {"problems", problems}};
}

}  // namespace commlab
