// Layer exercises (above parallel, below api): the lecture's exercises (P5 §11) as data, one
// JSON document per exercise compiled in from exercises/*.json (CMake generates
// exercises_data.cpp). Params are checked against the document; typed answers by the one rule of
// SPEC's "Judging typed answers" (judge.cpp).
//
// A new exercise: exercises/NN.json (id, title, statement, params, answers, hints, solution,
// compute; see 01.json, and exercises/schema.json) whose answers are declared in its "compute"
// section as engine requests over the params plus arithmetic (declared.hpp): no C++.
// Files: document (loading, checks), params, templates, declared, judge, solve, variants.
// Templates in statement and solution: {param}, {params.x}, {answers.x}, {values.x}, each
// optionally with a display unit: {values.wire_time_s:us}.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "exercises/solution.hpp"

namespace commlab {

using json = nlohmann::json;

/// One embedded file: its name ("01.json") and text. Defined in the generated exercises_data.cpp.
struct ExerciseSource {
  const char* file;
  const char* text;
};
const std::vector<ExerciseSource>& exercise_sources();

using ExerciseSolver = std::function<ExerciseSolution(const json& params)>;

// A document is untrusted input (SPEC "Exercise documents are untrusted input"): each limit is
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

/// A parsed, checked exercise document and its solver (its compute section run for params).
struct Exercise {
  int id;
  json doc;
  ExerciseSolver solver;
};

/// Every exercise, by id; parsed and checked once. Throws RequestError ("invalid_exercise")
/// naming the file and field when a document is malformed.
const std::vector<Exercise>& exercises();
/// Adds an exercise document at run time (request op exercise.load, `commlab --exercise FILE`):
/// checked as a compiled-in one, its answers declared in "compute". A built-in
/// id is refused; an id loaded before is replaced. Throws RequestError naming the path in the file.
const Exercise& load_exercise(const std::string& file, const json& doc);
/// Everything wrong with an exercise file, each problem naming its path in the file
/// ("answers[1].label: needs en and zh"): schema, both languages, every placeholder bound,
/// default answers computable, variants within the declared constraints. Empty when it is fine.
std::vector<std::string> lint_exercise(const std::string& file, const std::string& text);
/// Throws RequestError naming `field` and listing the ids when there is no such exercise.
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
/// lint_exercise for several files at once, plus an id used by two files (a problem of the later).
std::vector<std::vector<std::string>> lint_exercise_files(
    const std::vector<std::pair<std::string, std::string>>& files);
/// The document with a `rule` {en, zh} per answer and `statement_filled` for `params`.
json exercise_document(const Exercise& ex, const json& params);

/// The rule printed beside an answer field, {en, zh}: what to type and when it is correct.
json answer_rule(const json& answer_def);
/// Verdict of one typed answer against the exact one: "correct", "incorrect", "format-error",
/// with a message {en, zh} that says what it read and never gives the exact answer away.
/// `range` ([lo, hi] or null): every value in it passes, where the lecture gives a range.
json judge_answer(const json& answer_def, const json& exact, const json& typed, const json& range = json());
/// A choice's label in `lang` ("Recursive doubling" for "recursive_doubling"), or the choice.
std::string choice_label(const json& answer_def, const std::string& choice, const std::string& lang);

}  // namespace commlab
