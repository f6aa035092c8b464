// Exercises as data (exercises/README.md "Exercises contract"): answers and figures declared in the exercise's
// JSON as engine requests over its parameters plus simple arithmetic, so a new exercise needs
// no C++. The exercises layer cannot call the request API (it sits above): the api layer
// installs the evaluator (set_request_evaluator) before anything is solved.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "exercises/solution.hpp"

namespace commlab {

using RequestEvaluator = std::function<nlohmann::json(const nlohmann::json&)>;

/// Installs the function that answers a declared request (the api layer's evaluate()).
void set_request_evaluator(RequestEvaluator evaluator);

/// Checks a document's "compute" section: every entry well formed, every $name bound to a
/// param or to a figure computed before it, every answer computed. Throws RequestError
/// ("invalid_exercise") naming the path in the file ("compute.values[2].request.bytes").
/// Without `run_at_defaults`, only that the section is an object (the rest when it is solved).
void check_compute(const std::string& file, const nlohmann::json& doc, bool run_at_defaults = true);

/// Solves the document's "compute" section for `params` (every param filled in, base units):
/// the figures in order ("values"), then the answers, then the ranges the lecture accepts
/// ("ranges": answer id -> {lo, hi, when}).
ExerciseSolution solve_declared(const nlohmann::json& doc, const nlohmann::json& params);

/// The value of an arithmetic expression over `$name`s ("2 * ($devices - 1) / $devices"):
/// + - * / ^, parentheses, min, max, ceil, floor, round, log2, sqrt, abs. Throws
/// std::invalid_argument saying what is wrong (an unbound name, a stray character).
double eval_expression(const std::string& text, const nlohmann::json& scope);

}  // namespace commlab
