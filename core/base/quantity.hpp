// Numbers with units as people type them ("429 us", "0.429 ms", "150 MB", "8%", "16K tokens"),
// and the reverse: a base value shown in a display unit ("428.7 us").
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace commlab {

/// What a quantity measures, which fixes the units it may carry and its base unit.
enum class Dimension { time, bytes, fraction, count, bandwidth, plain };

/// Base units: seconds, bytes, a fraction (8% = 0.08), a count, bytes per second.
struct Parsed {
  double value = 0;            // in the base unit
  int significant_digits = 1;  // as a teacher counts them: "420" has 2, "420." and "4.20e2" have 3
  double typed = 0;        // the number as typed, in the unit typed ("0.429" of "0.429 ms")
  double factor = 1;       // that unit in base units (1e-3 for ms)
  double alt_factor = 0;   // a second reading of the unit, 0 if none: "2.16K" tokens as 2,160
  bool whole = false;      // written as a whole number: no decimal point, no exponent
  std::string number;      // the number as read (ASCII, thousands commas kept): "2,200"
  std::string unit;        // the unit as typed, "" for a bare number
};

/// Parses `text`; nullopt when it is not a number in a unit of that dimension. A bare number
/// is read in `shown_unit`, the unit beside the field ("us", "MB", "%", "tokens"). Accepts
/// thousands commas ("2,163", "2，163"), exponents ("1.5e8 B"), full-width digits and signs
/// ("７２０", "８％"), units in English and Chinese ("429 微秒", "150 兆字节", "5倍"), an
/// "about" / "~" / "≈" / "约" in front, and for counts a trailing word ("16K tokens", "6 步",
/// "8 个 token"). K/M/G on a count are 1,024-based as the lecture writes token counts, with
/// the 1,000-based reading in alt_factor.
std::optional<Parsed> parse_quantity(const std::string& text, Dimension dim, const std::string& shown_unit);
/// Multiplier from `unit` to the base unit of `dim`; nullopt if the unit does not fit.
/// The empty unit and, for counts, a count word ("tokens") are 1.
std::optional<double> unit_factor(const std::string& unit, Dimension dim);
/// Parses a dimension name ("time", "bytes", ...).
std::optional<Dimension> parse_dimension(const std::string& name);
/// Full-width ASCII forms (U+FF01-FF5E), the ideographic space and the minus sign as ASCII.
std::string ascii_forms(const std::string& text);
/// Units a dimension accepts, for messages ("s, ms, us, µs, ns").
std::string units_of(Dimension dim);
/// Every unit name the engine reads, with its dimension, then the count words (a count's unit
/// alone or after K, M, G): what exercises/schema.json lists as units (tests/unit_schema.cpp).
std::vector<std::pair<std::string, Dimension>> unit_names();
/// The dimension whose units include `unit` ("us" -> time, "GB/s" -> bandwidth,
/// "tokens" -> count, "" -> plain); nullopt when no dimension has it.
std::optional<Dimension> dimension_of_unit(const std::string& unit);

/// `value_base` in `unit` with 4 significant figures, or as a whole number with thousands
/// commas from 1,000 up: "428.7 us", "720 KB", "8.163%", "5.068x", "16,384 tokens", "6".
std::string format_quantity(double value_base, const std::string& unit, Dimension dim);
/// A base value in a unit chosen by its size: seconds as s/ms/us/ns, bytes as B/KB/MB/GB/TB,
/// bandwidth as GB/s or MB/s, fractions in %; counts and plain numbers bare.
std::string format_auto(double value_base, Dimension dim);

}  // namespace commlab
