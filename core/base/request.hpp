// Layer base (lowest: includes nothing of core/): errors, units, quantities and this request
// field reader.
// Reading one JSON request field by field: every value is checked for type, finiteness,
// range and integrality, and a field the op does not know is an error (a typo is not ignored).
#pragma once
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>


namespace commlab {

using json = nlohmann::json;

/// Allowed interval of a number field, for checking and for the message that names it.
struct Range {
  double min;
  double max;
  bool min_exclusive = false;
  std::string unit = "";
};

/// Largest byte count any request accepts: 1 PB.
constexpr double kMaxBytes = 1e15;
/// Largest device count of the cost model.
constexpr int kMaxDevices = 1 << 20;

Range bytes_range();
Range devices_range();

/// Reads fields of one request object; throws RequestError naming field, value and rule.
class Request {
 public:
  /// `where` prefixes field names in messages, e.g. "params." for nested objects.
  explicit Request(const json& body, std::string where = "");

  bool has(const std::string& field) const;
  double number(const std::string& field, const Range& range);
  double number_or(const std::string& field, double fallback, const Range& range);
  int integer(const std::string& field, long long min, long long max);
  int integer_or(const std::string& field, int fallback, long long min, long long max);
  bool boolean_or(const std::string& field, bool fallback);
  std::string name(const std::string& field, const std::vector<std::string>& allowed);
  std::string name_or(const std::string& field, const std::string& fallback,
                      const std::vector<std::string>& allowed);
  /// A byte count: a number of bytes or a string with a decimal unit ("256 KB", "1 GiB").
  double bytes(const std::string& field);
  double bytes_or(const std::string& field, double fallback);
  /// A nested object, read with its own Request (field names prefixed).
  const json& object(const std::string& field);
  /// The raw value (marks the field as read).
  const json& raw(const std::string& field);
  /// The value of a field that must be present (marks it read); missing_field names `rule`.
  const json& required(const std::string& field, const std::string& rule) { return at(field, rule); }
  /// Marks an absent optional field as read, so finish() accepts the request.
  void mark_read(const std::string& field) { read_.insert(field); }
  /// Throws if the request carries a field no reader asked for.
  void finish() const;

  std::string path(const std::string& field) const { return where_ + field; }

 private:
  // Marks the field read; throws missing_field with `rule` when absent.
  const json& at(const std::string& field, const std::string& rule);

  const json& body_;
  std::string where_;
  std::set<std::string> read_;
};

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
