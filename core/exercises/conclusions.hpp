// Conclusions chosen by numbers (internal to the layer): a document's "conclusions" section,
// the same for declared and C++-solved exercises. Every sentence that concludes ("the transfer
// hides", "the intra-node steps dominate") is one case of a conclusion, picked by comparing the
// variant's figures, so it can never contradict the numbers printed before it.
//   "conclusions": [{"id": "hiding",
//                    "cases": [{"when": {"left": "answers.hidden", "op": "==", "right": "yes"},
//                               "text": {"en": "...", "zh": "..."}},
//                              {"text": {"en": "...", "zh": "..."}}]}]
// The first case whose "when" holds is taken (an array of conditions: all must hold); the last
// case has no "when" (otherwise). The solution says {conclusions.hiding}. Conditions are the
// ones variant constraints use: left/right a number, true/false, a figure ("params.x",
// "answers.x", "values.x") or any other string (a literal, "yes"); ops < <= > >= == !=.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace commlab::detail {

using json = nlohmann::json;

/// The shape of the section: fields, types, one default case last, unique ids. Throws
/// RequestError ("invalid_exercise") naming the path ("conclusions[1].cases[0].when.op").
void check_conclusions(const std::string& file, const json& doc);

/// What is wrong with one condition against a solved exercise ({"params","answers","values"}):
/// a side naming no figure, an order op on text. Empty when it is fine. `at` prefixes messages.
std::vector<std::string> condition_problems(const json& solved, const json& condition, const std::string& at);
/// Whether a condition (or an array of them, all) holds for a solved exercise.
bool condition_holds(const json& solved, const json& when);

/// {id: case index} chosen for a solved exercise.
json choose_conclusions(const json& doc, const json& solved);

}  // namespace commlab::detail
