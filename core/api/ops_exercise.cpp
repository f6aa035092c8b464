// Ops of the exercises (P5 §11; exercises/README.md "Exercises contract"): list, get, solve, check, variant.
#include <cmath>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"
#include "api/ops.hpp"

namespace commlab {

namespace {

// The part of an op that works on an exercise document (untrusted input, exercises/README.md "Exercise
// documents are untrusted input"): inside the document's one work budget, and a wrong type deep
// in a loaded document is an invalid_exercise error, short, never the library's exception.
// The exception on_document caught, rethrown as its refusal: one function, not a copy of these
// handlers in each op's instance of the template.
[[noreturn]] COMMLAB_RARE void document_refusal(int id) {
  const std::string who = "exercise " + std::to_string(id);
  try {
    throw;
  } catch (const RequestError& e) {
    if (document_work_exhausted()) refuse("invalid_exercise", {who, ": ", document_work_message()});
    throw RequestError(e.code(), detail::capped_message(e.what()));
  } catch (const json::exception& e) {
    throw RequestError(
        "invalid_exercise",
        detail::capped_message(concat({who, ": a field of the document has the wrong type: ", e.what()})));
  }
}

template <class F>
json on_document(int id, F f) {
  DocumentWork work;
  try {
    return f();
  } catch (const std::exception&) {
    document_refusal(id);
  }
}

// {"id", "title"}: an exercise as the list names it.
json id_and_title(const Exercise& ex) {
  json out = json::object();
  out["id"] = ex.id;
  out["title"] = ex.doc.at("title");
  return out;
}

json params_of(Request& r, const Exercise& ex) {
  const json empty = json::object();
  return resolve_params(ex, r.has("params") ? r.raw("params") : empty, "params.");
}

}  // namespace

json op_exercise_list(Request& r) {
  r.finish();
  if (exercises().empty()) throw_not_installed();
  json list = json::array();
  for (const Exercise& ex : exercises()) list.push_back(id_and_title(ex));
  json out = json::object();
  out["exercises"] = std::move(list);
  return out;
}

json op_exercise_get(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  r.finish();
  return on_document(ex.id, [&] { return exercise_document(ex, params); });
}

json op_exercise_solve(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  r.finish();
  return on_document(ex.id, [&] { return solve_exercise(ex, params); });
}

json op_exercise_check(Request& r) {
  const Exercise& ex = find_exercise(r.raw("id"));
  const json params = params_of(r, ex);
  const json& answers = r.raw("answers");
  r.finish();
  return on_document(ex.id, [&] { return check_exercise(ex, params, answers); });
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
    refuse(
        seed.is_number() ? "out_of_range" : "invalid_type",
        {"field 'seed': value ", show_value(seed), " is not allowed; allowed: an integer from 0 to 9007199254740991"});
  const std::uint64_t s =
      seed.is_number_unsigned() ? seed.get<std::uint64_t>() : static_cast<std::uint64_t>(seed.get<double>());
  return on_document(ex.id, [&] {
    json out = json::object();
    out["id"] = ex.id;
    out["params"] = variant_params(ex, s);
    return out;
  });
}

}  // namespace commlab

namespace commlab {

namespace {
// "file": the name messages give the document (a short string).
std::string file_name(Request& r, const char* fallback) {
  if (!r.has("file")) return fallback;
  const json& f = r.raw("file");
  if (!f.is_string() || f.get_ref<const std::string&>().empty() || f.get_ref<const std::string&>().size() > 100)
    refuse("invalid_type",
           {"field 'file': value ", show_value(f), " is not allowed; allowed: a file name of 1 to 100 characters"});
  return f.get<std::string>();
}
}  // namespace

// An exercise written only in JSON, added for this session (the page, a test, the CLI's
// --exercise FILE): {"op":"exercise.load","doc":{...}} or "text" with the file's text.
json op_exercise_load(Request& r) {
  const std::string file = file_name(r, "loaded.json");
  json doc;
  if (r.has("doc")) {
    doc = r.raw("doc");
    // The request's own nesting is bounded already; its size is the document's.
    if (doc.dump(-1, ' ', false, json::error_handler_t::replace).size() > kMaxDocumentBytes)
      refuse("invalid_exercise", {"exercises/", file, ": the document is over ", std::to_string(kMaxDocumentBytes),
                                  " bytes; allowed: at most 256 KB"});
  } else {
    const json& text = r.raw("text");
    if (!text.is_string()) refuse("invalid_type", {"field 'text': must be the exercise file's text"});
    doc = parse_exercise_text(file, text.get<std::string>());
  }
  r.finish();
  DocumentWork work;  // checking the compute section runs its requests at the defaults
  try {
    const Exercise& ex = load_exercise(file, doc);
    return id_and_title(ex);
  } catch (const RequestError& e) {
    if (document_work_exhausted()) refuse("invalid_exercise", {"exercises/", file, ": ", document_work_message()});
    throw;
  } catch (const json::exception& e) {
    throw RequestError(
        "invalid_exercise",
        detail::capped_message(concat({"exercises/", file, ": a field has the wrong type: ", e.what()})));
  }
}

// The documents the host ships, installed once at start (the CLI reads its folder, the page's
// worker fetches dist/exercises/): {"op":"exercise.install","files":[{"file","text"}]}. Each
// document is checked as exercise.load checks one; the ones with a problem are named and left out.
// "checked_at_build": true marks a text the host's build installed with this engine: its compute
// section is not run again at the defaults (ExerciseFile).
json op_exercise_install(Request& r) {
  const json& files = r.raw("files");
  r.finish();
  const std::string rule = concat({"allowed: an array of at most ", std::to_string(kMaxExerciseId),
                                   " objects {\"file\": \"03.json\", \"text\": <the file's text>",
                                   ", \"checked_at_build\": true|false (optional)}"});
  if (!files.is_array())
    refuse("invalid_type", {"field 'files': value ", show_value(files), " is not allowed; ", rule});
  if (files.size() > static_cast<size_t>(kMaxExerciseId))
    refuse("too_large", {"field 'files': ", std::to_string(files.size()), " documents; ", rule});
  std::vector<ExerciseFile> given;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string at = concat({"field 'files[", std::to_string(i), "]"});
    const json& f = files[i];
    if (!f.is_object()) refuse("invalid_type", {at, "': value ", show_value(f), " is not allowed; ", rule});
    for (auto it = f.begin(); it != f.end(); ++it)
      if (it.key() != "file" && it.key() != "text" && it.key() != "checked_at_build")
        refuse("unknown_field", {at, "': unknown field ", detail::quoted(it.key()), "; allowed: file, text, checked_at_build"});
    const json& name = f.value("file", json());
    if (!name.is_string() || name.get_ref<const std::string&>().empty() || name.get_ref<const std::string&>().size() > 100)
      refuse(f.contains("file") ? "invalid_type" : "missing_field",
             {at, ".file': value ", show_value(name), " is not allowed; allowed: a file name of 1 to 100 characters"});
    if (!f.value("text", json()).is_string())
      refuse(f.contains("text") ? "invalid_type" : "missing_field", {at, ".text': must be the exercise file's text"});
    const json& checked = f.value("checked_at_build", json(false));
    if (!checked.is_boolean())
      refuse("invalid_type", {at, ".checked_at_build': value ", show_value(checked), " is not allowed; allowed: true or false"});
    given.push_back({name.get<std::string>(), f.at("text").get<std::string>(), checked.get<bool>()});
  }
  const InstallReport report = install_exercises(given);
  json installed = json::array(), problems = json::array();
  for (const auto& x : report.installed) {
    json& e = installed.emplace_back(json::object());
    e["id"] = x.id;
    e["title"] = x.title;
    e["file"] = x.file;
  }
  for (const auto& p : report.problems) {
    json& e = problems.emplace_back(json::object());
    e["file"] = p.file;
    e["code"] = "invalid_exercise";
    e["message"] = p.message;
  }
  json out = json::object();
  out["exercises"] = std::move(installed);
  out["problems"] = std::move(problems);
  return out;
}

json op_exercise_lint(Request& r) {
  const std::string file = file_name(r, "exercise.json");
  const json& text = r.raw("text");
  if (!text.is_string()) refuse("invalid_type", {"field 'text': must be the exercise file's text"});
  r.finish();
  const std::vector<std::string> problems = lint_exercise(file, text.get<std::string>());
  json out = json::object();
  out["ok"] = problems.empty();
  out["problems"] = problems;
  return out;
}

}  // namespace commlab
