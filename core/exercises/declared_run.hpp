// A run of a document's compute section, shared by the files that compute its figures (internal
// to the layer): declared.cpp the section's values, answers and ranges, declared_request.cpp the
// figures asked of the engine, expression.cpp the arithmetic.
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "exercises/declared.hpp"

namespace commlab::detail {

using json = nlohmann::json;

/// The evaluator set_request_evaluator installed (empty before).
RequestEvaluator& request_evaluator();

// A declared request the engine refuses as out of range or too large at these params: the
// params ask for more than the engine computes (a simulation too large), not a broken document,
// so the engine's code stays (at the defaults it is the document's fault: invalid_exercise).
class RefusedAtParams : public std::invalid_argument {
 public:
  RefusedAtParams(const std::string& code, const std::string& what) : std::invalid_argument(what), code_(code) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// What a run has computed so far: `scope` for $names (params, values, answers), `solved` for
// conditions ({"params", "values", "answers"}, as conclusions and constraints read them), and
// the last request with its response: the next figure asking the same request (another field
// of one all-reduce) reuses it. One response only, so a run never holds many timelines.
struct Run {
  json scope;
  json solved;
  const json* last_request = nullptr;  // as written in the document, $names unbound
  json last_response;
};

/// Every "$name" string in a request replaced by its value; `path` names where for errors.
json bind_names(const json& j, const json& scope, const std::string& path);

/// A figure {"request", "field"}: the request asked (or the run's last response reused when it is
/// the same request) and the field taken. A refusal at these params throws RefusedAtParams, any
/// other problem std::invalid_argument naming its path.
json request_figure(const json& spec, Run& run, const std::string& path);

}  // namespace commlab::detail
