#include "base/quantity.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "base/concat.hpp"

namespace commlab {

namespace {

struct UnitEntry {
  const char* name;
  Dimension dim;
  double factor;
  double alt_factor = 0;  // a second reading (K = 1,000 beside the lecture's 1,024), 0 if none
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
    {"\xE7\xA7\x92", Dimension::time, 1},                  // 秒
    {"\xE6\xAF\xAB\xE7\xA7\x92", Dimension::time, 1e-3},      // 毫秒
    {"\xE5\xBE\xAE\xE7\xA7\x92", Dimension::time, 1e-6},      // 微秒
    {"\xE7\xBA\xB3\xE7\xA7\x92", Dimension::time, 1e-9},      // 纳秒
    {"sec", Dimension::time, 1},
    {"msec", Dimension::time, 1e-3},
    {"usec", Dimension::time, 1e-6},
    {"\xC2\xB5sec", Dimension::time, 1e-6},  // µsec
    {"\xCE\xBCsec", Dimension::time, 1e-6},  // μsec
    {"nsec", Dimension::time, 1e-9},
    {"seconds", Dimension::time, 1},
    {"milliseconds", Dimension::time, 1e-3},
    {"microseconds", Dimension::time, 1e-6},
    {"nanoseconds", Dimension::time, 1e-9},
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
    {"\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, 1},                        // 字节
    {"\xE5\x8D\x83\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, 1e3},           // 千字节
    {"\xE5\x85\x86\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, 1e6},           // 兆字节
    {"\xE5\x90\x89\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, 1e9},           // 吉字节
    {"\xE5\xA4\xAA\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, 1e12},          // 太字节
    {"%", Dimension::fraction, 0.01},
    {"percent", Dimension::fraction, 0.01},
    {"per cent", Dimension::fraction, 0.01},
    {"K", Dimension::count, 1024, 1e3},
    {"k", Dimension::count, 1024, 1e3},
    {"M", Dimension::count, 1048576, 1e6},
    {"G", Dimension::count, 1073741824.0, 1e9},
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
    "gpu",           "nics",  "nic",           "stages",      "\xE4\xB8\xAA",  // 个
    "\xE6\xAD\xA5",  // 步
    "\xE6\xAC\xA1",  // 次
    "\xE5\x9D\x97",  // 块 (GPUs)
    "\xE5\xBC\xA0"};  // 张 (NICs)

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

// Drops trailing count words: "K tokens" -> "K", "个 token" -> "", "tokens" -> "".
std::string strip_count_word(const std::string& unit_in) {
  std::string unit = unit_in;
  for (bool again = true; again;) {
    again = false;
    const std::string low = lower(unit);
    for (const char* word : kCountWords) {
      const std::string w = word;
      if (!unit.empty() && low.size() >= w.size() && low.compare(low.size() - w.size(), w.size(), w) == 0) {
        unit = trim(unit.substr(0, unit.size() - w.size()));
        again = true;
        break;
      }
    }
  }
  return unit;
}

const UnitEntry* find_unit(const std::string& unit_in, Dimension dim) {
  const std::string unit = dim == Dimension::count ? strip_count_word(trim(unit_in)) : trim(unit_in);
  for (const UnitEntry& u : kUnits)
    if (u.dim == dim && unit == u.name) return &u;
  return nullptr;
}

std::string strip_approx(const std::string& text) {
  const std::string low = lower(text);
  for (const char* prefix : kApproxPrefixes) {
    const std::string p = prefix;
    if (low.compare(0, p.size(), p) == 0) return trim(text.substr(p.size()));
  }
  return text;
}

// "x 10^5", "×10⁵", "* 10**5", "· 10^-3": a power of ten written out after a mantissa (what
// students type for 7.2e5). Returns the exponent and where the text after it starts.
std::optional<std::pair<int, size_t>> power_of_ten(const std::string& text, size_t i) {
  const auto skip_spaces = [&] { while (i < text.size() && text[i] == ' ') ++i; };
  skip_spaces();
  bool times = false;
  for (const char* sign : {"\xC3\x97", "\xC2\xB7", "\xE2\x8B\x85", "*", "x", "X"}) {
    if (text.compare(i, std::char_traits<char>::length(sign), sign) == 0) {
      i += std::char_traits<char>::length(sign);
      times = true;
      break;
    }
  }
  if (!times) return std::nullopt;
  skip_spaces();
  if (text.compare(i, 2, "10") != 0) return std::nullopt;
  i += 2;
  int sign = 1, exp = 0, digits = 0;
  if (text.compare(i, 1, "^") == 0 || text.compare(i, 2, "**") == 0) {
    i += text[i] == '^' ? 1 : 2;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) sign = text[i++] == '-' ? -1 : 1;
    for (; i < text.size() && is_digit(text[i]) && digits < 4; ++i, ++digits) exp = 10 * exp + (text[i] - '0');
  } else {
    // Superscripts: ⁻ ⁺ ⁰ ¹ ² ³ ⁴-⁹.
    if (text.compare(i, 3, "\xE2\x81\xBB") == 0 || text.compare(i, 3, "\xE2\x81\xBA") == 0) {
      sign = text[i + 2] == '\xBB' ? -1 : 1;
      i += 3;
    }
    for (; digits < 4; ++digits) {
      int d = -1;
      if (text.compare(i, 2, "\xC2\xB9") == 0) d = 1;
      else if (text.compare(i, 2, "\xC2\xB2") == 0) d = 2;
      else if (text.compare(i, 2, "\xC2\xB3") == 0) d = 3;
      if (d > 0) {
        i += 2;
      } else if (i + 2 < text.size() && text.compare(i, 2, "\xE2\x81") == 0 &&
                 (static_cast<unsigned char>(text[i + 2]) == 0xB0 ||
                  (static_cast<unsigned char>(text[i + 2]) >= 0xB4 && static_cast<unsigned char>(text[i + 2]) <= 0xB9))) {
        d = static_cast<unsigned char>(text[i + 2]) - 0xB0;
        i += 3;
      } else {
        break;
      }
      exp = 10 * exp + d;
    }
  }
  if (digits == 0) return std::nullopt;
  return std::make_pair(sign * exp, i);
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

std::string ascii_forms(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0xEF && i + 2 < text.size()) {  // U+FF01-FF5E: EF BC 81-BF, EF BD 80-9E
      const unsigned char b1 = static_cast<unsigned char>(text[i + 1]);
      const unsigned char b2 = static_cast<unsigned char>(text[i + 2]);
      const int cp = ((c & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
      if (cp >= 0xFF01 && cp <= 0xFF5E) {
        out += static_cast<char>(cp - 0xFF01 + 0x21);
        i += 2;
        continue;
      }
    }
    if (text.compare(i, 3, "\xE3\x80\x80") == 0) {  // ideographic space
      out += ' ';
      i += 2;
      continue;
    }
    if (text.compare(i, 3, "\xE2\x88\x92") == 0) {  // minus sign
      out += '-';
      i += 2;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::optional<double> unit_factor(const std::string& unit_in, Dimension dim) {
  const std::string unit = dim == Dimension::count ? strip_count_word(trim(unit_in)) : trim(unit_in);
  if (unit.empty()) return 1.0;
  if (const UnitEntry* u = find_unit(unit, dim)) return u->factor;
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
      return "s, ms, us, \xC2\xB5s, ns, \xE7\xA7\x92, \xE6\xAF\xAB\xE7\xA7\x92, \xE5\xBE\xAE\xE7\xA7\x92, \xE7\xBA\xB3\xE7\xA7\x92";
    case Dimension::bytes:
      return "B, KB, MB, GB, TB, KiB, MiB, GiB, \xE5\xAD\x97\xE8\x8A\x82, \xE5\x8D\x83\xE5\xAD\x97\xE8\x8A\x82, \xE5\x85\x86\xE5\xAD\x97\xE8\x8A\x82, \xE5\x90\x89\xE5\xAD\x97\xE8\x8A\x82";
    case Dimension::fraction:
      return "%";
    case Dimension::count:
      return "K, M, G (1,024-based as the lecture writes token counts, or 1,000-based), or a word such as tokens";
    case Dimension::bandwidth:
      return "B/s, KB/s, MB/s, GB/s, TB/s, Gb/s";
    case Dimension::plain:
      return "x, \xC3\x97, \xE5\x80\x8D";
  }
  return "no unit";
}

std::vector<std::pair<std::string, Dimension>> unit_names() {
  std::vector<std::pair<std::string, Dimension>> out;
  for (const UnitEntry& u : kUnits) out.push_back({u.name, u.dim});
  for (const char* w : kCountWords) out.push_back({w, Dimension::count});
  return out;
}

std::optional<Dimension> dimension_of_unit(const std::string& unit) {
  if (trim(unit).empty()) return Dimension::plain;
  for (const UnitEntry& u : kUnits)
    if (unit == u.name) return u.dim;
  if (strip_count_word(trim(unit)) != trim(unit)) return Dimension::count;
  return std::nullopt;
}

std::optional<Parsed> parse_quantity(const std::string& input, Dimension dim, const std::string& shown_unit) {
  const std::string text = strip_approx(trim(ascii_forms(input)));
  // Mantissa: sign, digits with optional thousands commas, decimal point, exponent.
  std::string number, digits_typed;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) number += text[i++];
  const size_t number_start = i;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (is_digit(c)) {
      number += c;
      digits_typed += c;
    } else if (c == '.' && !seen_point) {
      number += c;
      seen_point = true;
    } else if (c == ',' && !seen_point && !digits_typed.empty() && i + 3 < text.size() &&
               is_digit(text[i + 1]) && is_digit(text[i + 2]) && is_digit(text[i + 3]) &&
               (i + 4 == text.size() || !is_digit(text[i + 4]))) {
      continue;  // thousands separator: "1,024", but not "1,0245"
    } else {
      break;
    }
  }
  if (digits_typed.empty()) return std::nullopt;
  std::string shown_number = text.substr(number_start, i - number_start);
  bool exponent = false;
  if (i + 1 < text.size() && (text[i] == 'e' || text[i] == 'E') &&
      (is_digit(text[i + 1]) || text[i + 1] == '-' || text[i + 1] == '+')) {
    const size_t e_start = i;
    number += text[i++];
    if (text[i] == '-' || text[i] == '+') number += text[i++];
    int exp_digits = 0;
    while (i < text.size() && is_digit(text[i])) {
      number += text[i++];
      ++exp_digits;
    }
    if (exp_digits == 0) return std::nullopt;
    exponent = true;
    shown_number += text.substr(e_start, i - e_start);
  } else if (const auto pow = power_of_ten(text, i)) {
    number += "e" + std::to_string(pow->first);
    shown_number += "e" + std::to_string(pow->first);
    exponent = true;
    i = pow->second;
  }
  // Significant figures as a teacher counts them: leading zeros never count; trailing zeros
  // count after a decimal point ("8.0", "420.") but not in a whole number ("420", "2,200").
  const size_t first = digits_typed.find_first_not_of('0');
  int significant = 1;
  if (first != std::string::npos) {
    const size_t last = seen_point ? digits_typed.size() - 1 : digits_typed.find_last_not_of('0');
    significant = static_cast<int>(last - first + 1);
  }
  const std::string unit = trim(text.substr(i));
  const double mantissa = std::strtod(number.c_str(), nullptr);
  if (!std::isfinite(mantissa)) return std::nullopt;
  // A bare number (or a bare count word: "2163 tokens") is read in the unit beside the field.
  const bool bare = unit.empty() || (dim == Dimension::count && strip_count_word(unit).empty());
  double factor = 1, alt_factor = 0;
  const std::string unit_used = bare ? trim(shown_unit) : unit;
  const std::string stripped = dim == Dimension::count ? strip_count_word(unit_used) : unit_used;
  if (!stripped.empty()) {
    const UnitEntry* u = find_unit(stripped, dim);
    if (!u) return std::nullopt;
    factor = u->factor;
    alt_factor = u->alt_factor;
  }
  const double value = mantissa * factor;
  if (!std::isfinite(value)) return std::nullopt;
  Parsed p;
  p.value = value;
  p.significant_digits = significant;
  p.typed = mantissa;
  p.factor = factor;
  p.alt_factor = alt_factor;
  p.whole = !seen_point && !exponent;
  p.number = (number[0] == '-' ? "-" : "") + shown_number;
  p.unit = bare ? "" : unit;
  return p;
}

// The binary unit of an exact power of two of bytes from 1 KiB up (the lecture's "64 KB" of a
// power of two means 64 KiB), or nothing.
const char* binary_unit_of(double bytes) {
  int exp = 0;
  if (!(bytes >= 1024) || std::frexp(bytes, &exp) != 0.5) return nullptr;
  return bytes < 1048576.0 ? "KiB" : bytes < 1073741824.0 ? "MiB" : "GiB";
}

std::string format_quantity(double value_base, const std::string& unit_in, Dimension dim) {
  // A power of two of bytes shows in binary units, as the lecture means it; other sizes in the
  // decimal unit asked for.
  const char* binary = dim == Dimension::bytes && (unit_in == "B" || unit_in == "KB" || unit_in == "MB" ||
                                                    unit_in == "GB" || unit_in == "TB")
                           ? binary_unit_of(value_base)
                           : nullptr;
  const std::string unit = binary ? binary : unit_in;
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
  return concat({number, (attached ? "" : " "), unit});
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
