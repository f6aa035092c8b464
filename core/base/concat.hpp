// One string from pieces: concat({"field '", name, "': value ", shown, " is not allowed"}).
// A chain of operator+ makes a string per '+', and under wasm exceptions a cleanup path for each;
// the engine builds its messages in some 300 places (tests/README.md "Budgets": "Writers").
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

namespace commlab {

std::string concat(std::initializer_list<std::string_view> pieces);

/// Throws std::invalid_argument with the pieces joined. One call, where each of some hundred
/// `throw std::invalid_argument(concat({...}))` built a string, threw it and had a cleanup path
/// for it under wasm exceptions (tests/README.md "Budgets").
[[noreturn]] void reject(std::initializer_list<std::string_view> pieces);
/// Throws RequestError(code, the pieces joined), likewise.
[[noreturn]] void refuse(const char* code, std::initializer_list<std::string_view> pieces);

/// A message from a template: each "{name}" replaced by the value given for that name, e.g.
/// substitute("Read {read}: a count is a whole number.", {{"read", read}}). A message in some
/// forty variants (the judge's) is then one call with literals instead of a chain of pieces.
struct Slot {
  std::string_view name, value;
};
std::string substitute(std::string_view text, std::initializer_list<Slot> slots);

}  // namespace commlab
