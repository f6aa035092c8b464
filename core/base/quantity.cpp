#include "base/quantity.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
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
    {"s", Dimension::time, 1},
    {"ms", Dimension::time, 1e-3},
    {"us", Dimension::time, 1e-6},
    {"\xC2\xB5s", Dimension::time, 1e-6},
    {"\xCE\xBCs", Dimension::time, 1e-6},
    {"ns", Dimension::time, 1e-9},
    {"sec", Dimension::time, 1},
    {"msec", Dimension::time, 1e-3},
    {"usec", Dimension::time, 1e-6},
    {"B", Dimension::bytes, 1},
    {"bytes", Dimension::bytes, 1},
    {"KB", Dimension::bytes, 1e3},
    {"kB", Dimension::bytes, 1e3},
    {"MB", Dimension::bytes, 1e6},
    {"GB", Dimension::bytes, 1e9},
    {"TB", Dimension::bytes, 1e12},
    {"PB", Dimension::bytes, 1e15},
    {"KiB", Dimension::bytes, 1024.0},
    {"MiB", Dimension::bytes, 1048576.0},
    {"GiB", Dimension::bytes, 1073741824.0},
    {"%", Dimension::fraction, 0.01},
    {"K", Dimension::count, 1024},
    {"k", Dimension::count, 1024},
    {"M", Dimension::count, 1048576},
    {"B/s", Dimension::bandwidth, 1},
    {"KB/s", Dimension::bandwidth, 1e3},
    {"MB/s", Dimension::bandwidth, 1e6},
    {"GB/s", Dimension::bandwidth, 1e9},
    {"TB/s", Dimension::bandwidth, 1e12},
    {"Gb/s", Dimension::bandwidth, 1.25e8},
    {"Gbps", Dimension::bandwidth, 1.25e8},
    {"x", Dimension::plain, 1},
    {"X", Dimension::plain, 1},
    {"\xC3\x97", Dimension::plain, 1},      // ×
    {"\xE5\x80\x8D", Dimension::plain, 1},  // 倍
};

// Words a count may end with ("16K tokens"); matched without regard to case.
const char* const kCountWords[] = {
    "tokens",        "token", "micro-batches", "micro-batch", "microbatches", "microbatch",
    "micro batches", "steps", "step",          "devices",     "device",       "gpus",
    "gpu",           "nics",  "nic",           "stages",      "\xE4\xB8\xAA"};  // 个

// "about 57 ms", "~57 ms", "≈ 57 ms", "约 57 ms": the lecture's way of quoting estimates.
const char* const kApproxPrefixes[] = {"approximately",
                                       "approx.",
                                       "approx",
                                       "about",
                                       "\xE2\x89\x88",              // ≈
                                       "\xE5\xA4\xA7\xE7\xBA\xA6",  // 大约
                                       "\xE7\xBA\xA6",              // 约
                                       "~"};

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Drops a trailing count word: "K tokens" -> "K", "tokens" -> "".
std::string strip_count_word(const std::string& unit) {
  const std::string low = lower(unit);
  for (const char* word : kCountWords) {
    const std::string w = word;
    if (low.size() >= w.size() && low.compare(low.size() - w.size(), w.size(), w) == 0)
      return trim(unit.substr(0, unit.size() - w.size()));
  }
  return unit;
}

std::string strip_approx(const std::string& text) {
  const std::string low = lower(text);
  for (const char* prefix : kApproxPrefixes) {
    const std::string p = prefix;
    if (low.compare(0, p.size(), p) == 0) return trim(text.substr(p.size()));
  }
  return text;
}

std::string with_commas(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace

std::optional<double> unit_factor(const std::string& unit_in, Dimension dim) {
  const std::string unit = dim == Dimension::count ? strip_count_word(trim(unit_in)) : trim(unit_in);
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
  switch (dim) {
    case Dimension::time:
      return "s, ms, us, \xC2\xB5s, ns";
    case Dimension::bytes:
      return "B, KB, MB, GB, TB, KiB, MiB, GiB";
    case Dimension::fraction:
      return "%";
    case Dimension::count:
      return "K (= 1,024), M (= 1,048,576), or a word such as tokens";
    case Dimension::bandwidth:
      return "B/s, KB/s, MB/s, GB/s, TB/s, Gb/s";
    case Dimension::plain:
      return "x";
  }
  return "no unit";
}

std::optional<Dimension> dimension_of_unit(const std::string& unit) {
  if (trim(unit).empty()) return Dimension::plain;
  for (const UnitEntry& u : kUnits)
    if (unit == u.name) return u.dim;
  if (strip_count_word(trim(unit)) != trim(unit)) return Dimension::count;
  return std::nullopt;
}

std::optional<Parsed> parse_quantity(const std::string& input, Dimension dim, const std::string& shown_unit) {
  const std::string text = strip_approx(trim(input));
  // Mantissa: sign, digits with optional thousands commas, decimal point, exponent.
  std::string number;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) number += text[i++];
  int digits = 0, significant = 0;
  bool seen_nonzero = false, seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (is_digit(c)) {
      number += c;
      ++digits;
      if (c != '0') seen_nonzero = true;
      if (seen_nonzero) ++significant;
    } else if (c == '.' && !seen_point) {
      number += c;
      seen_point = true;
    } else if (c == ',' && !seen_point && digits > 0 && i + 3 < text.size() && is_digit(text[i + 1]) &&
               is_digit(text[i + 2]) && is_digit(text[i + 3]) &&
               (i + 4 == text.size() || !is_digit(text[i + 4]))) {
      continue;  // thousands separator: "1,024", but not "1,0245"
    } else {
      break;
    }
  }
  if (digits == 0) return std::nullopt;
  if (i + 1 < text.size() && (text[i] == 'e' || text[i] == 'E') &&
      (is_digit(text[i + 1]) || text[i + 1] == '-' || text[i + 1] == '+')) {
    number += text[i++];
    if (text[i] == '-' || text[i] == '+') number += text[i++];
    int exp_digits = 0;
    while (i < text.size() && is_digit(text[i])) {
      number += text[i++];
      ++exp_digits;
    }
    if (exp_digits == 0) return std::nullopt;
  }
  const std::string unit = trim(text.substr(i));
  const double mantissa = std::strtod(number.c_str(), nullptr);
  if (!std::isfinite(mantissa)) return std::nullopt;
  // A bare number (or a bare count word: "2163 tokens") is read in the unit beside the field.
  const bool bare = unit.empty() || (dim == Dimension::count && strip_count_word(unit).empty());
  const std::optional<double> factor = bare ? unit_factor(shown_unit, dim) : unit_factor(unit, dim);
  if (!factor) return std::nullopt;
  const double value = mantissa * *factor;
  if (!std::isfinite(value)) return std::nullopt;
  return Parsed{value, significant == 0 ? 1 : significant, mantissa, *factor};
}

std::string format_quantity(double value_base, const std::string& unit, Dimension dim) {
  const double factor = unit_factor(unit, dim).value_or(1.0);
  const double x = value_base / factor;
  std::string number;
  if (!std::isfinite(x)) {
    number = std::isnan(x) ? "NaN" : (x > 0 ? "inf" : "-inf");
  } else if (std::fabs(x) >= 1000 && std::fabs(x) < 9e15) {
    number = with_commas(std::llround(x));
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", x);
    number = buf;
    if (number == "-0") number = "0";
  }
  if (unit.empty()) return number;
  const bool attached = unit == "%" || unit == "x" || unit == "\xC3\x97";
  return number + (attached ? "" : " ") + unit;
}

std::string format_auto(double v, Dimension dim) {
  const double a = std::fabs(v);
  switch (dim) {
    case Dimension::time:
      return format_quantity(v, a >= 1 ? "s" : a >= 1e-3 ? "ms" : a >= 1e-6 || a == 0 ? "us" : "ns", dim);
    case Dimension::bytes:
      return format_quantity(v,
                             a >= 1e12  ? "TB"
                             : a >= 1e9 ? "GB"
                             : a >= 1e6 ? "MB"
                             : a >= 1e3 ? "KB"
                                        : "B",
                             dim);
    case Dimension::bandwidth:
      return format_quantity(v, a >= 1e9 ? "GB/s" : "MB/s", dim);
    case Dimension::fraction:
      return format_quantity(v, "%", dim);
    case Dimension::count:
    case Dimension::plain:
      return format_quantity(v, "", dim);
  }
  return format_quantity(v, "", dim);
}

}  // namespace commlab
