// Layer api (on exercises and steps): evaluate() and the op handlers (ops.hpp, ops_*.cpp).
// The one request API (core/README.md "One request API, three doors"): JSON in, JSON out, never throws.
// The CLI, the wasm module and the tests all call these.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace commlab {

/// Answers one request; errors come back as {"error":{"code","message"}}.
nlohmann::json evaluate(const nlohmann::json& request);
/// Same, from and to text; malformed JSON is an "invalid_json" error.
std::string evaluate(const std::string& request_text);

/// Every error code evaluate() can return, as README "Errors" lists them (a test holds the two
/// together, and the fuzz target checks every answer against this list).
const std::vector<std::string>& error_codes();

}  // namespace commlab
