// Lint's parts (internal to the layer): lint.cpp reads a document's shape and texts,
// lint_solvable.cpp solves it at many points.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace commlab {
struct Exercise;
}

namespace commlab::detail {

/// Takes one problem of a document.
using Said = std::function<void(const std::string&)>;

/// Says where the answers cannot be computed or are not finite, and each constraint no drawn
/// variant meets.
void solvability_into(const Exercise& ex, const nlohmann::json& defaults, const Said& said);

}  // namespace commlab::detail
