// Small helpers the exercise files share (internal.hpp).
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include <cctype>
#include <cstdio>

#include "base/error.hpp"
#include "base/work_meter.hpp"
#include "exercises/internal.hpp"

namespace commlab {

namespace detail {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// "Recursive doubling", "recursive-doubling" and "recursive_doubling" are one name.
std::string normalize_choice(const std::string& s) {
  std::string out;
  bool sep = false;
  for (char c : lower(trim(s))) {
    if (c == ' ' || c == '-' || c == '_' || c == '\t') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '_';
    sep = false;
    out += c;
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
  return buf;
}

namespace {
std::string utf8_prefix(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}
}  // namespace

const json kNoValue, kNoMembers = json::object(), kNoItems = json::array();

const std::string& unit_of(const json& def) {
  static const std::string kNone;
  const json& u = member(def, "unit");
  if (u.is_null() && !def.contains("unit")) return kNone;
  if (!u.is_string()) (void)def.value("unit", "");  // throws type_error 302, as value() does
  return u.get_ref<const std::string&>();
}

const json& member(const json& obj, const char* key, const json& fallback) {
  if (!obj.is_object()) (void)obj.value(key, json());  // throws type_error 306, as value() does
  const auto it = obj.find(key);
  return it == obj.end() ? fallback : *it;
}

std::string capped_message(const std::string& message) {
  return message.size() <= kMaxMessageChars ? message : utf8_prefix(message, kMaxMessageChars - 3) + "...";
}

std::string quoted(const std::string& text) {
  return concat({"\"", (text.size() <= 60 ? text : utf8_prefix(text, 57) + "..."), "\""});
}

std::string clip(const std::string& s) { return s.size() <= 60 ? s : s.substr(0, 57) + "..."; }

[[noreturn]] void bad_doc(const std::string& file, const std::string& what) {
  throw RequestError("invalid_exercise", capped_message(concat({"exercises/", utf8_prefix(file, 60), ": ", what})));
}

[[noreturn]] void bad_doc(const std::string& file, std::initializer_list<std::string_view> what) {
  bad_doc(file, concat(what));
}

bool is_text_pair(const json& j) {
  return j.is_object() && j.contains("en") && j.contains("zh") && j.at("en").is_string() &&
         j.at("zh").is_string();
}

std::string base_unit_name(Dimension d) {
  switch (d) {
    case Dimension::time:
      return "seconds";
    case Dimension::bytes:
      return "bytes";
    case Dimension::bandwidth:
      return "bytes/s";
    case Dimension::fraction:
      return "a fraction, 0.08 = 8%";
    case Dimension::count:
    case Dimension::plain:
      return "";
  }
  return "";
}

Dimension param_dimension(const json& def) { return dimension_of_unit(unit_of(def)).value_or(Dimension::plain); }

bool is_choice_answer(const json& def) { return def.at("dimension") == "choice"; }

Dimension answer_dimension(const json& def) {
  return parse_dimension(def.at("dimension").get<std::string>()).value_or(Dimension::plain);
}

int min_figures(const json& def) {
  return def.contains("min_significant_figures") ? def.at("min_significant_figures").get<int>()
                                                 : kDefaultMinFigures;
}

double tolerance(const json& def) {
  return def.contains("tolerance_rel") ? def.at("tolerance_rel").get<double>() : kDefaultTolerance;
}

std::vector<std::string> choices_of(const json& def) {
  std::vector<std::string> out;
  if (def.contains("choices"))
    for (const json& c : def.at("choices")) out.push_back(c.get<std::string>());
  return out;
}

std::unordered_map<std::string, const json*> defs_by_id(const json& list) {
  charge_work(static_cast<double>(list.size()));
  std::unordered_map<std::string, const json*> out;
  out.reserve(list.size());
  for (const json& d : list)
    if (d.is_object() && d.contains("id") && d.at("id").is_string()) out.emplace(d.at("id").get<std::string>(), &d);
  return out;
}

json message(std::string en, std::string zh) {
  json m = json::object();  // member by member: smaller than a list of temporaries
  m["en"] = std::move(en);
  m["zh"] = std::move(zh);
  return m;
}

json figures_of(const json& params, const json& answers, const json& values) {
  json f = json::object();
  f["params"] = params;
  f["answers"] = answers;
  f["values"] = values;
  return f;
}

// A unit as prose shows it: the request vocabulary says "us", a reader sees "µs".
std::string shown(const std::string& unit) {
  if (unit == "us") return "\xC2\xB5s";
  if (unit == "x") return "\xC3\x97";
  return unit;
}

}  // namespace detail

}  // namespace commlab
