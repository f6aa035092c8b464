#include "quantity.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace commlab {

namespace {

struct UnitEntry {
  const char* name;
  Dimension dim;
  double factor;
};

// Decimal SI as the lecture uses it (P5 §0.4); binary units only where spelled KiB/MiB/GiB.
// Token counts follow the lecture: 4K tokens = 4,096.
const UnitEntry kUnits[] = {
    {"s", Dimension::time, 1},          {"ms", Dimension::time, 1e-3},
    {"us", Dimension::time, 1e-6},      {"\xC2\xB5s", Dimension::time, 1e-6},
    {"\xCE\xBCs", Dimension::time, 1e-6}, {"ns", Dimension::time, 1e-9},
    {"B", Dimension::bytes, 1},         {"bytes", Dimension::bytes, 1},
    {"KB", Dimension::bytes, 1e3},      {"kB", Dimension::bytes, 1e3},
    {"MB", Dimension::bytes, 1e6},      {"GB", Dimension::bytes, 1e9},
    {"TB", Dimension::bytes, 1e12},     {"PB", Dimension::bytes, 1e15},
    {"KiB", Dimension::bytes, 1024.0},  {"MiB", Dimension::bytes, 1048576.0},
    {"GiB", Dimension::bytes, 1073741824.0},
    {"%", Dimension::fraction, 0.01},
    {"K", Dimension::count, 1024},      {"k", Dimension::count, 1024},
    {"M", Dimension::count, 1048576},
    {"B/s", Dimension::bandwidth, 1},   {"KB/s", Dimension::bandwidth, 1e3},
    {"MB/s", Dimension::bandwidth, 1e6}, {"GB/s", Dimension::bandwidth, 1e9},
    {"TB/s", Dimension::bandwidth, 1e12}, {"Gb/s", Dimension::bandwidth, 1.25e8},
    {"Gbps", Dimension::bandwidth, 1.25e8},
};

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

}  // namespace

std::optional<double> unit_factor(const std::string& unit, Dimension dim) {
  if (unit.empty()) return 1.0;
  for (const UnitEntry& u : kUnits)
    if (u.dim == dim && unit == u.name) return u.factor;
  return std::nullopt;
}

std::optional<Dimension> parse_dimension(const std::string& name) {
  if (name == "time") return Dimension::time;
  if (name == "bytes") return Dimension::bytes;
  if (name == "fraction") return Dimension::fraction;
  if (name == "count") return Dimension::count;
  if (name == "bandwidth") return Dimension::bandwidth;
  if (name == "plain") return Dimension::plain;
  return std::nullopt;
}

std::string units_of(Dimension dim) {
  std::string out;
  for (const UnitEntry& u : kUnits)
    if (u.dim == dim) {
      if (!out.empty()) out += ", ";
      out += u.name;
    }
  return out.empty() ? "no unit" : out;
}

std::optional<Parsed> parse_quantity(const std::string& input, Dimension dim,
                                     const std::string& shown_unit) {
  const std::string text = trim(input);
  // Mantissa: sign, digits with optional thousands commas, decimal point, exponent.
  std::string number;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) number += text[i++];
  int digits = 0, significant = 0;
  bool seen_nonzero = false, seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      number += c;
      ++digits;
      if (c != '0') seen_nonzero = true;
      if (seen_nonzero) ++significant;
    } else if (c == '.' && !seen_point) {
      number += c;
      seen_point = true;
    } else if (c == ',' && !seen_point && digits > 0 && i + 3 < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
               std::isdigit(static_cast<unsigned char>(text[i + 2])) &&
               std::isdigit(static_cast<unsigned char>(text[i + 3]))) {
      continue;  // thousands separator: "1,024"
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E') && i + 1 < text.size() &&
      (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' ||
       text[i + 1] == '+')) {
    number += text[i++];
    if (text[i] == '-' || text[i] == '+') number += text[i++];
    int exp_digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      number += text[i++];
      ++exp_digits;
    }
    if (exp_digits == 0) return std::nullopt;
  }
  std::string unit = trim(text.substr(i));
  if (dim == Dimension::count) {  // "16K tokens", "8 micro-batches"
    for (const char* word : {"tokens", "token", "micro-batches", "microbatches", "steps", "devices"}) {
      const std::string w = word;
      if (unit.size() >= w.size() && unit.compare(unit.size() - w.size(), w.size(), w) == 0) {
        unit = trim(unit.substr(0, unit.size() - w.size()));
        break;
      }
    }
  }
  const double mantissa = std::strtod(number.c_str(), nullptr);
  if (!std::isfinite(mantissa)) return std::nullopt;
  std::optional<double> factor = unit.empty() ? unit_factor(shown_unit, dim) : unit_factor(unit, dim);
  if (!factor) return std::nullopt;
  const double value = mantissa * *factor;
  if (!std::isfinite(value)) return std::nullopt;
  return Parsed{value, significant == 0 ? 1 : significant};
}

}  // namespace commlab
