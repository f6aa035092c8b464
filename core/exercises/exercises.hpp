// Layer exercises (above parallel, below api): the lecture's exercises (P5 §11) as data, one
// JSON document per exercise. None is compiled in: core reads no files, so the host installs
// the documents it ships once at start (install_exercises, the request exercise.install: the CLI
// reads a folder, the page fetches dist/exercises/). Params are checked against the document;
// typed answers by the one rule of exercises/README.md "Judging typed answers" (judge.cpp).
//
// A new exercise: exercises/NN.json (id, title, statement, params, answers, hints, solution,
// compute; see 01.json, and exercises/schema.json) whose answers are declared in its "compute"
// section as engine requests over the params plus arithmetic (declared.hpp): no C++.
// Files: document (loading) and document_checks, lint and lint_solvable, params, templates,
// declared with declared_request and expression, judge, solve, variants.
// Templates in statement and solution: {param}, {params.x}, {answers.x}, {values.x}, each
// optionally with a display unit: {values.wire_time_s:us}.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "exercises/solution.hpp"

namespace commlab {

using json = nlohmann::json;

/// One exercise document as the host read it: its file name ("03.json") and its text.
/// `checked_at_build`: the host's build installed this very text with this engine (the page's
/// copies, web/README.md), so its compute section is not run at the defaults again: it runs,
/// and a problem is named, when the exercise is first solved.
struct ExerciseFile {
  std::string file;
  std::string text;
  bool checked_at_build = false;
};

// A document is untrusted input (exercises/README.md "Exercise documents are untrusted input"): each limit is
// an invalid_exercise error naming it. The whole document's work shares one budget
// (base/work_meter.hpp).
constexpr size_t kMaxDocumentBytes = 256 * 1024;
constexpr int kMaxDocumentDepth = 64;
constexpr int kMaxExpressionDepth = 64;
constexpr size_t kMaxExpressionBytes = 4096;
constexpr size_t kMaxFilledTextBytes = 16 * 1024;
/// Every figure a document's compute section keeps (texts, labels), in all: a document that
/// pastes a text 10,000 times stops here instead of holding gigabytes.
constexpr size_t kMaxKeptBytes = 1024 * 1024;
constexpr int kMaxExerciseId = 999;
/// Integer params JSON and doubles carry exactly.
constexpr double kMaxIntegerParam = 1e15;
/// An invalid_exercise message: its start only, so it does not grow with the document.
constexpr size_t kMaxMessageChars = 300;

/// The document parsed from its text, within the size and nesting limits. Throws RequestError
/// ("invalid_exercise") naming the file and the limit.
json parse_exercise_text(const std::string& file, const std::string& text);

/// A parsed, checked exercise document and its compute section, run for params;
/// `file` is the name it came from.
/// An installed document; its answers come from its compute section (solve_declared,
/// exercises/declared.hpp), the same for every exercise.
struct Exercise {
  int id;
  json doc;
  std::string file = "";
};

/// The lecture's exercises are ids 1 to 8 (P5 §11); each is accepted only from its own file.
constexpr int kLectureExercises = 8;
/// The one file a lecture exercise may come from ("03.json" for 3); "" for any other id.
std::string lecture_file(int id);

/// What exercise.install did: each document installed, and each one left out with its problem
/// (an invalid_exercise message naming the file and the JSON path).
struct InstallReport {
  struct Installed {
    std::string file;
    int id;
    json title;
  };
  struct Problem {
    std::string file;
    std::string message;
  };
  std::vector<Installed> installed;
  std::vector<Problem> problems;
};
/// Makes `files` the exercises (replacing everything installed or loaded before). Each is read
/// as exercise.load reads one (limits, strictness, its own work budget); ids 1-8 only from their
/// own file (lecture_file), one file per id (the later one is refused). A document with a
/// problem is left out and named; the others are installed.
InstallReport install_exercises(const std::vector<ExerciseFile>& files);

/// Every exercise installed or loaded, by id; empty before the host installs any.
const std::vector<Exercise>& exercises();
/// Adds an exercise document at run time (request op exercise.load, `commlab --exercise FILE`):
/// checked as an installed one, its answers declared in "compute". A lecture
/// id (1-8) is refused; any other id installed or loaded before is replaced for the session.
/// Throws RequestError naming the path in the file.
const Exercise& load_exercise(const std::string& file, const json& doc);
/// Everything wrong with an exercise file, each problem naming its path in the file
/// ("answers[1].label: needs en and zh"): schema, both languages, every placeholder bound,
/// default answers computable, variants within the declared constraints. Empty when it is fine.
std::vector<std::string> lint_exercise(const std::string& file, const std::string& text);
/// Throws RequestError naming `field` and listing the ids when there is no such exercise, and
/// "not_installed" naming what is missing when no exercise is installed at all.
const Exercise& find_exercise(const json& id, const std::string& field = "id");

/// Every param filled in (defaults for the ones not given), base units; `given` is checked
/// against the param definitions (type, integer, range, choices, unknown names). A number param
/// may also be a string with a unit ("100 MB", "128K").
json resolve_params(const Exercise& ex, const json& given, const std::string& where = "params.");

/// {"id","params","answers","display","values","solution","statement","params_display"}.
json solve_exercise(const Exercise& ex, const json& params);
/// {"id","verdicts","all_correct"} for the typed answers (strings, or numbers in display units).
json check_exercise(const Exercise& ex, const json& params, const json& typed_answers);
/// Fresh "nice" params inside the ranges, the same for a seed on every platform, solvable.
json variant_params(const Exercise& ex, std::uint64_t seed);
/// The first params variant_params draws for a seed, before any check (what lint checks
/// answers at); null when the draw breaks the param definitions.
json draw_params(const Exercise& ex, std::uint64_t seed);
/// lint_exercise for several files at once, plus an id used by two files (a problem of the later)
/// or by an installed exercise from another file.
std::vector<std::vector<std::string>> lint_exercise_files(
    const std::vector<std::pair<std::string, std::string>>& files);
/// The error when no exercise is installed (RequestError "not_installed").
[[noreturn]] void throw_not_installed();
/// The document with a `rule` {en, zh} per answer and `statement_filled` for `params`.
json exercise_document(const Exercise& ex, const json& params);

/// The rule printed beside an answer field, {en, zh}: what to type and when it is correct.
json answer_rule(const json& answer_def);
// The rule in two parts: what to type in this field, and how its number is judged (null where
// the rule is the field's own: a choice, a count, the lecture's range); answer_rule joins them.
std::pair<json, json> answer_rule_parts(const json& answer_def);
/// Verdict of one typed answer against the exact one: "correct", "incorrect", "format-error",
/// with a message {en, zh} that says what it read and never gives the exact answer away.
/// `range` ([lo, hi] or null): every value in it passes, where the lecture gives a range.
json judge_answer(const json& answer_def, const json& exact, const json& typed, const json& range = json());
/// A choice's label in `lang` ("Recursive doubling" for "recursive_doubling"), or the choice.
std::string choice_label(const json& answer_def, const std::string& choice, const std::string& lang);

}  // namespace commlab
