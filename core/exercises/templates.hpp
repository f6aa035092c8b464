// Filling an exercise's statement and worked-solution templates (internal to the layer).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "exercises/exercises.hpp"

namespace commlab {

struct DefIndex {
  std::unordered_map<std::string, const json*> answers, params;
};

/// What placeholders may name: {param}, {params.x}, {answers.x}, {values.x}, each optionally
/// with a display unit ({values.wire_time_s:us}), and {conclusions.x} (conclusions.hpp).
struct TemplateContext {
  const Exercise& ex;
  const json& params;
  const json* answers = nullptr;  // base values
  const json* display = nullptr;  // display strings
  const json* values = nullptr;
  const json* conclusions = nullptr;  // {id: {en, zh}}, filled; the solution's only
  /// The answers' and params' definitions by id, built at the first placeholder that needs
  /// them and shared by copies: a scan for each placeholder grew with answers x placeholders.
  mutable std::shared_ptr<const DefIndex> defs = nullptr;
};

/// A param's value as a statement shows it: a link's label, "4 MB" rather than "4,000 KB".
std::string param_display(const json& def, const json& value);
/// {"en", "zh"} with every placeholder that names something replaced.
/// Both languages filled; a filled text past kMaxFilledTextBytes is an invalid_exercise error
/// naming `path` ("statement", "solution", "conclusions[0].cases[1].text").
json fill_pair(const json& pair, const TemplateContext& c, const std::string& path = "text");
/// Every param's display string, by id.
json params_display(const Exercise& ex, const json& params);

}  // namespace commlab
