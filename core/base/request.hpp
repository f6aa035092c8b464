// Layer base (lowest: includes nothing of core/): errors, units, quantities and this request
// field reader.
// Reading one JSON request field by field: every value is checked for type, finiteness,
// range and integrality, and a field the op does not know is an error (a typo is not ignored).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>


namespace commlab {

using json = nlohmann::json;

/// Allowed interval of a number field, for checking and for the message that names it.
struct Range {
  double min;
  double max;
  bool min_exclusive = false;
  const char* unit = "";  // a literal: no string is built for a field that is valid
};

/// Largest byte count any request accepts: 1 PB.
constexpr double kMaxBytes = 1e15;
/// Largest device count of the cost model.
constexpr int kMaxDevices = 1 << 20;

Range bytes_range();
Range devices_range();

/// Reads fields of one request object; throws RequestError naming field, value and rule.
/// Rule texts ("a finite number > 0 ...", "one of ring, ...") are built only when an error is
/// thrown: a valid request pays nothing for the words it would need to be refused.
class Request {
 public:
  /// `where` prefixes field names in messages, e.g. "params." for nested objects.
  explicit Request(const json& body, std::string where = "");

  bool has(std::string_view field) const;
  double number(std::string_view field, const Range& range);
  double number_or(std::string_view field, double fallback, const Range& range);
  int integer(std::string_view field, long long min, long long max);
  int integer_or(std::string_view field, int fallback, long long min, long long max);
  bool boolean_or(std::string_view field, bool fallback);
  std::string name(std::string_view field, const std::vector<std::string>& allowed);
  std::string name_or(std::string_view field, const std::string& fallback,
                      const std::vector<std::string>& allowed);
  /// A byte count: a number of bytes or a string with a decimal unit ("256 KB", "1 GiB").
  double bytes(std::string_view field);
  double bytes_or(std::string_view field, double fallback);
  /// A nested object, read with its own Request (field names prefixed).
  const json& object(std::string_view field);
  /// The raw value (marks the field as read).
  const json& raw(std::string_view field);
  /// The value of a field that must be present (marks it read); when it is absent,
  /// missing_field names the rule `rule_text()` returns (called only then).
  template <class RuleText>
  const json& required(std::string_view field, RuleText rule_text) {
    if (const json* v = find(field)) return *v;
    throw_missing(field, rule_text());
  }
  /// Marks an absent optional field as read, so finish() accepts the request.
  void mark_read(std::string_view field);
  /// Throws if the request carries a field no reader asked for.
  void finish() const;

  std::string path(std::string_view field) const { return where_ + std::string(field); }

 private:
  // Marks the field read; its value, or nullptr when absent.
  const json* find(std::string_view field);
  // finish()'s refusal: the unknown field and the names this op asked for.
  [[noreturn]] void refuse_unknown(const std::string& key) const;
  [[noreturn]] void throw_missing(std::string_view field, const std::string& rule) const;
  // "field 'x': value 5 is a string; allowed: <rule>" (invalid_type).
  [[noreturn]] void throw_type(std::string_view field, const json& v, const std::string& rule) const;
  // "field 'x': value 5 is not allowed; allowed: <rule>" (out_of_range unless `code` says).
  [[noreturn]] void throw_value(std::string_view field, const json& v, const std::string& rule,
                                const char* code = "out_of_range") const;

  const json& body_;
  std::string where_;
  // Names asked for, each followed by '\0': one buffer, not a node and a string per field.
  std::string read_;
};

/// json::parse(text) without its callback variant, which the engine never uses: the same
/// parser, values and errors, and 10 KB less of wasm.
json parse_json(const std::string& text);
/// parse_json for a whole request: the same value and errors, with long top-level strings (a
/// log of megabytes) taken out of the text before nlohmann reads it (base/long_strings.cpp).
json parse_request(const std::string& text);
/// Formats a JSON value for an error message, shortened past 60 characters; never recurses.
std::string show_value(const json& v);
/// Deepest nesting of arrays and objects in `v` (0 for a scalar), counted without recursion;
/// stops counting once past `limit`.
int nesting_depth(const json& v, int limit);
/// The same over JSON text, before parsing (brackets inside strings do not count).
int text_nesting_depth(const std::string& text, int limit);
/// Deepest nesting a request may have: the engine's own requests need 4 levels.
constexpr int kMaxNestingDepth = 64;
/// A number as "%g" ("inf" where JSON would print null).
std::string format_number(double x);
/// "a number", "a string", ...: a JSON value's type in words.
std::string type_name(const json& v);
/// "a number > 0 and <= 1e+15 bytes": a range in words.
std::string describe(const Range& r);

}  // namespace commlab
