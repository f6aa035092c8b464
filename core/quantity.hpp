// Numbers with units as people type them ("429 us", "0.429 ms", "150 MB", "8%", "4K").
#pragma once
#include <optional>
#include <string>

namespace commlab {

/// What a quantity measures, which fixes the units it may carry and its base unit.
enum class Dimension { time, bytes, fraction, count, bandwidth, plain };

/// Base units: seconds, bytes, a fraction (8% = 0.08), a count, bytes per second.
/// `shown_unit` is the unit beside the field ("us", "MB", "%"), used for a bare number.
struct Parsed {
  double value;          // in the base unit
  int significant_digits; // as typed, for the rounding rule of exercise.check
};

/// Parses `text`; nullopt when it is not a number in a unit of that dimension.
std::optional<Parsed> parse_quantity(const std::string& text, Dimension dim,
                                     const std::string& shown_unit);
/// Multiplier from `unit` to the base unit of `dim`; nullopt if the unit does not fit.
std::optional<double> unit_factor(const std::string& unit, Dimension dim);
/// Parses a dimension name ("time", "bytes", ...).
std::optional<Dimension> parse_dimension(const std::string& name);
/// Units a dimension accepts, for messages.
std::string units_of(Dimension dim);

}  // namespace commlab
