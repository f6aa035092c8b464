// Exercises as data (P5 §11): loading the embedded documents, checking params, filling the
// worked-solution templates, judging typed answers, and drawing new variants.
#include "exercises.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "error.hpp"
#include "links.hpp"
#include "quantity.hpp"
#include "request.hpp"

namespace commlab {

namespace {

// One solver per exercise id. A new exercise is a JSON file plus, at most, one line here
// (and its function in exercise_solvers.hpp).
const std::map<int, ExerciseSolver>& solver_table() {
  static const std::map<int, ExerciseSolver> table = {
      {1, solve_exercise_1}, {2, solve_exercise_2}, {3, solve_exercise_3}, {4, solve_exercise_4},
      {5, solve_exercise_5}, {6, solve_exercise_6}, {7, solve_exercise_7}, {8, solve_exercise_8},
  };
  return table;
}

constexpr double kDefaultTolerance = 0.01;
constexpr int kDefaultMinFigures = 2;

// ---------------------------------------------------------------- small helpers

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

[[noreturn]] void bad_doc(const std::string& file, const std::string& what) {
  throw RequestError("invalid_exercise", "exercises/" + file + ": " + what);
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

Dimension param_dimension(const json& def) {
  return dimension_of_unit(def.value("unit", "")).value_or(Dimension::plain);
}

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

// ---------------------------------------------------------------- document checks

void check_param_def(const std::string& file, const json& p, size_t i) {
  const std::string at = "field 'params[" + std::to_string(i) + "]";
  if (!p.is_object() || !p.contains("id") || !p.at("id").is_string())
    bad_doc(file, at + ".id' must be a string");
  const std::string kind = p.value("kind", "");
  if (kind != "number" && kind != "integer" && kind != "choice")
    bad_doc(file, at + ".kind' must be number, integer or choice");
  if (!p.contains("default")) bad_doc(file, at + ".default' is missing");
  if (!is_text_pair(p.value("label", json()))) bad_doc(file, at + ".label' needs en and zh");
  if (kind == "choice") {
    const json& c = p.value("choices", json());
    if (!c.is_array() || c.empty()) bad_doc(file, at + ".choices' must be a non-empty array");
    if (std::find(c.begin(), c.end(), p.at("default")) == c.end())
      bad_doc(file, at + ".default' is not among its choices");
    return;
  }
  if (!p.value("min", json()).is_number() || !p.value("max", json()).is_number() ||
      !p.at("default").is_number())
    bad_doc(file, at + "': default, min and max must be numbers");
  if (!dimension_of_unit(p.value("unit", "")))
    bad_doc(file, at + ".unit' " + p.value("unit", "") + " is not a known unit");
  const double lo = p.at("min"), hi = p.at("max"), d = p.at("default");
  if (!(lo <= d && d <= hi)) bad_doc(file, at + ".default' is outside [min, max]");
}

void check_answer_def(const std::string& file, const json& a, size_t i) {
  const std::string at = "field 'answers[" + std::to_string(i) + "]";
  if (!a.is_object() || !a.contains("id") || !a.at("id").is_string())
    bad_doc(file, at + ".id' must be a string");
  if (!is_text_pair(a.value("label", json()))) bad_doc(file, at + ".label' needs en and zh");
  const std::string dim = a.value("dimension", "");
  if (dim == "choice") {
    const json& c = a.value("choices", json());
    if (!c.is_array() || c.empty()) bad_doc(file, at + ".choices' must be a non-empty array");
    return;
  }
  if (!parse_dimension(dim) || dim == "bandwidth")
    bad_doc(file, at + ".dimension' must be time, bytes, fraction, count, plain or choice");
  if (!unit_factor(a.value("unit", ""), *parse_dimension(dim)))
    bad_doc(file, at + ".unit' does not fit dimension " + dim);
  if (a.contains("tolerance_rel") && !(a.at("tolerance_rel").is_number() && a.at("tolerance_rel") > 0))
    bad_doc(file, at + ".tolerance_rel' must be a positive number");
}

Exercise load_one(const ExerciseSource& src) {
  const std::string file = src.file;
  json doc;
  try {
    doc = json::parse(src.text);
  } catch (const json::exception& e) {
    bad_doc(file, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("id") || !doc.at("id").is_number_integer())
    bad_doc(file, "field 'id' must be an integer");
  for (const char* f : {"title", "statement", "solution"})
    if (!is_text_pair(doc.value(f, json()))) bad_doc(file, std::string("field '") + f + "' needs en and zh");
  if (!doc.value("params", json()).is_array()) bad_doc(file, "field 'params' must be an array");
  if (!doc.value("answers", json()).is_array() || doc.at("answers").empty())
    bad_doc(file, "field 'answers' must be a non-empty array");
  const json& hints = doc.value("hints", json());
  if (!hints.is_object() || !hints.value("en", json()).is_array() || !hints.value("zh", json()).is_array())
    bad_doc(file, "field 'hints' needs en and zh arrays");
  for (size_t i = 0; i < doc.at("params").size(); ++i) check_param_def(file, doc.at("params")[i], i);
  for (size_t i = 0; i < doc.at("answers").size(); ++i) check_answer_def(file, doc.at("answers")[i], i);
  // "solver": N lets a new exercise reuse exercise N's solver with other defaults: JSON only.
  const int id = doc.at("id");
  if (doc.contains("solver") && !doc.at("solver").is_number_integer())
    bad_doc(file, "field 'solver' must be an exercise number");
  const int solver_id = doc.value("solver", id);
  const auto solver = solver_table().find(solver_id);
  if (solver == solver_table().end())
    bad_doc(file, "exercise " + std::to_string(solver_id) + " has no solver function in exercises.cpp");
  return Exercise{id, doc, solver->second};
}

// ---------------------------------------------------------------- formatting and templates

std::string localized_choice(const std::string& value, const std::string& lang) {
  if (lang != "zh") return value;
  if (value == "yes") return "是";
  if (value == "no") return "否";
  return value;
}

std::string param_display(const json& def, const json& value) {
  if (def.at("kind") == "choice") {
    const std::string s = value.get<std::string>();
    const LinkSpec* link = find_link(s);
    return link ? link->label : s;
  }
  // A param far from its usual size reads better in a unit of its own: "4 MB", not "4,000 KB".
  const double v = value.get<double>();
  const Dimension dim = param_dimension(def);
  const std::string unit = def.value("unit", "");
  const double shown = v / unit_factor(unit, dim).value_or(1);
  const bool scalable = dim == Dimension::time || dim == Dimension::bytes || dim == Dimension::bandwidth;
  if (scalable && shown != 0 && (std::fabs(shown) >= 1000 || std::fabs(shown) < 0.1))
    return format_auto(v, dim);
  return format_quantity(v, unit, dim);
}

// Names tell units: alpha_s is seconds, shard_bytes bytes, beta_Bps bytes/s (STYLE: units in names).
Dimension dimension_by_name(const std::string& name) {
  if (ends_with(name, "_s")) return Dimension::time;
  if (ends_with(name, "_bytes") || name == "bytes") return Dimension::bytes;
  if (ends_with(name, "_Bps")) return Dimension::bandwidth;
  if (ends_with(name, "_fraction") || name == "fraction") return Dimension::fraction;
  return Dimension::plain;
}

struct TemplateContext {
  const Exercise& ex;
  const json& params;
  const json* answers = nullptr;  // base values
  const json* display = nullptr;  // display strings
  const json* values = nullptr;
};

const json* find_def(const json& list, const std::string& id) {
  for (const json& d : list)
    if (d.at("id") == id) return &d;
  return nullptr;
}

std::string format_with(double v, const std::string& unit, Dimension fallback) {
  if (unit.empty()) return format_auto(v, fallback);
  return format_quantity(v, unit, dimension_of_unit(unit).value_or(fallback));
}

// Resolves one placeholder ("answers.time", "values.alpha_s:us", "bytes"); false if unknown.
bool resolve_placeholder(const TemplateContext& c, const std::string& key, const std::string& lang,
                         std::string* out) {
  std::string name = key, unit;
  const size_t colon = key.find(':');
  if (colon != std::string::npos) {
    name = key.substr(0, colon);
    unit = key.substr(colon + 1);
  }
  auto starts = [&](const std::string& prefix) { return name.compare(0, prefix.size(), prefix) == 0; };
  if (starts("answers.") && c.answers) {
    const std::string id = name.substr(8);
    const json* def = find_def(c.ex.doc.at("answers"), id);
    if (!def || !c.answers->contains(id)) return false;
    const json& v = c.answers->at(id);
    if (v.is_string())
      *out = localized_choice(v.get<std::string>(), lang);
    else if (!unit.empty())
      *out = format_with(v.get<double>(), unit, answer_dimension(*def));
    else
      *out = c.display->at(id).get<std::string>();
    return true;
  }
  if (starts("values.") && c.values) {
    const std::string id = name.substr(7);
    if (!c.values->contains(id)) return false;
    const json& v = c.values->at(id);
    if (v.is_number())
      *out = format_with(v.get<double>(), unit, dimension_by_name(id));
    else if (v.is_string())
      *out = localized_choice(v.get<std::string>(), lang);
    else if (v.is_boolean())
      *out = localized_choice(v.get<bool>() ? "yes" : "no", lang);
    else
      return false;
    return true;
  }
  const std::string id = starts("params.") ? name.substr(7) : name;
  const json* def = find_def(c.ex.doc.at("params"), id);
  if (!def || !c.params.contains(id)) return false;
  const json& v = c.params.at(id);
  *out = unit.empty() || def->at("kind") == "choice"
             ? param_display(*def, v)
             : format_with(v.get<double>(), unit, param_dimension(*def));
  return true;
}

// Replaces {name} placeholders; text in braces that names nothing stays as it is.
std::string fill(const std::string& text, const TemplateContext& c, const std::string& lang) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i);
    if (open == std::string::npos) break;
    const size_t close = text.find('}', open + 1);
    if (close == std::string::npos) break;
    out += text.substr(i, open - i);
    std::string replaced;
    if (resolve_placeholder(c, text.substr(open + 1, close - open - 1), lang, &replaced)) {
      out += replaced;
      i = close + 1;
    } else {
      out += '{';
      i = open + 1;
    }
  }
  return out + text.substr(i);
}

json fill_pair(const json& pair, const TemplateContext& c) {
  return {{"en", fill(pair.at("en").get<std::string>(), c, "en")},
          {"zh", fill(pair.at("zh").get<std::string>(), c, "zh")}};
}

json params_display(const Exercise& ex, const json& params) {
  json out = json::object();
  for (const json& def : ex.doc.at("params")) {
    const std::string id = def.at("id");
    out[id] = param_display(def, params.at(id));
  }
  return out;
}

// ---------------------------------------------------------------- params

std::string allowed_text(const json& def) {
  if (def.at("kind") == "choice") return "one of " + join(choices_of(def), ", ");
  const Dimension dim = param_dimension(def);
  const double lo = def.at("min"), hi = def.at("max");
  const std::string unit = def.value("unit", "");
  std::string s = def.at("kind") == "integer" ? "an integer from " : "a number from ";
  s += num(lo) + " to " + num(hi);
  const std::string base = base_unit_name(dim);
  if (!base.empty()) s += " " + base;
  if (!unit.empty() && unit_factor(unit, dim).value_or(1) != 1)
    s += " (" + format_quantity(lo, unit, dim) + " to " + format_quantity(hi, unit, dim) + ")";
  if (dim == Dimension::plain) return s;
  if (dim == Dimension::count) return s + ", or a string such as \"128K\" (K = 1,024)";
  return s + ", or a string with a unit (" + units_of(dim) + ")";
}

json read_param(const json& def, const json& v, const std::string& field) {
  const std::string rule = "allowed: " + allowed_text(def);
  if (def.at("kind") == "choice") {
    if (!v.is_string())
      throw RequestError("invalid_type",
                         "field '" + field + "': value " + show_value(v) + " is not a string; " + rule);
    for (const std::string& c : choices_of(def))
      if (lower(c) == lower(v.get<std::string>())) return c;
    throw RequestError("unknown_value",
                       "field '" + field + "': unknown value " + show_value(v) + "; " + rule);
  }
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    const std::optional<Parsed> p = parse_quantity(v.get<std::string>(), param_dimension(def), "");
    if (!p)
      throw RequestError("invalid_type", "field '" + field + "': value " + show_value(v) +
                                             " is not a number with a fitting unit; " + rule);
    x = p->value;
  } else {
    throw RequestError("invalid_type",
                       "field '" + field + "': value " + show_value(v) + " is not a number; " + rule);
  }
  const double lo = def.at("min"), hi = def.at("max");
  if (!std::isfinite(x) || x < lo || x > hi)
    throw RequestError("out_of_range",
                       "field '" + field + "': value " + show_value(v) + " is not allowed; " + rule);
  if (def.at("kind") == "integer") {
    if (x != std::floor(x))
      throw RequestError("not_integer",
                         "field '" + field + "': value " + show_value(v) + " is not an integer; " + rule);
    return static_cast<long long>(x);
  }
  return x;
}

// ---------------------------------------------------------------- judging

json message(const std::string& en, const std::string& zh) { return {{"en", en}, {"zh", zh}}; }

// A unit as prose shows it: the request vocabulary says "us", a reader sees "µs".
std::string shown(const std::string& unit) { return unit == "us" ? "\xC2\xB5s" : unit; }

json verdict(const std::string& v, const json& msg) { return {{"verdict", v}, {"message", msg}}; }

std::string expected_number_en(const json& def) {
  const Dimension dim = answer_dimension(def);
  const std::string unit = def.value("unit", "");
  if (dim == Dimension::count && !unit.empty())
    return "Expected a number of " + unit + ", e.g. 1,500 or 4K (K = 1,024).";
  if (unit.empty()) return "Expected a number.";
  return "Expected a number in " + shown(unit) + ", or with a unit: " + units_of(dim) + ".";
}

std::string expected_number_zh(const json& def) {
  const Dimension dim = answer_dimension(def);
  const std::string unit = def.value("unit", "");
  if (dim == Dimension::count && !unit.empty())
    return "应填一个数（" + unit + "），例如 1,500 或 4K（K = 1,024）。";
  if (unit.empty()) return "应填一个数。";
  return "应填一个数（单位 " + shown(unit) + "），或带单位：" + units_of(dim) + "。";
}

// Choice text -> canonical choice, through the names and the document's aliases.
std::optional<std::string> match_choice(const json& def, const std::string& text) {
  const std::string t = normalize_choice(text);
  if (t.empty()) return std::nullopt;
  for (const std::string& c : choices_of(def)) {
    if (normalize_choice(c) == t) return c;
    if (def.contains("aliases") && def.at("aliases").contains(c))
      for (const json& a : def.at("aliases").at(c))
        if (normalize_choice(a.get<std::string>()) == t) return c;
  }
  return std::nullopt;
}

json judge_choice(const json& def, const json& exact, const std::string& text) {
  const std::string list = join(choices_of(def), ", ");
  const std::optional<std::string> got = match_choice(def, text);
  if (!got)
    return verdict("format-error", message("Expected one of: " + list + " (case does not matter).",
                                           "应填以下之一：" + list + "（不区分大小写）。"));
  if (normalize_choice(*got) == normalize_choice(exact.get<std::string>()))
    return verdict("correct", message("Correct.", "正确。"));
  return verdict("incorrect", message("Not correct: compare your figures again, or see the hints.",
                                      "不对：再比较一下你算出的数，或看看提示。"));
}

}  // namespace

// SPEC "Exercises contract": within tolerance_rel (1%) of the exact value, or the exact value
// correctly rounded to the significant figures typed (at least min_significant_figures, 2).
json judge_answer(const json& def, const json& exact, const json& typed) {
  std::string text;
  if (typed.is_string())
    text = typed.get<std::string>();
  else if (typed.is_number())
    text = typed.dump();
  else if (typed.is_boolean())
    text = typed.get<bool>() ? "true" : "false";
  else
    return verdict("format-error", message("Expected text or a number.", "应填文字或数。"));
  if (is_choice_answer(def)) return judge_choice(def, exact, text);

  const std::optional<Parsed> p = parse_quantity(text, answer_dimension(def), def.value("unit", ""));
  if (!p) return verdict("format-error", message(expected_number_en(def), expected_number_zh(def)));
  const double e = exact.get<double>(), v = p->value, tol = tolerance(def);
  const int figures = min_figures(def);
  bool ok = std::fabs(v - e) <= tol * std::fabs(e) * (1 + 1e-12) || v == e;
  if (!ok && p->significant_digits >= figures && p->typed != 0) {
    // The place of the last typed figure, in the unit typed: 0.01 for "0.42 ms".
    const double magnitude = std::floor(std::log10(std::fabs(p->typed)));
    const double place = std::pow(10.0, magnitude - p->significant_digits + 1);
    ok = std::fabs(p->typed - e / p->factor) <= 0.5 * place * (1 + 1e-9);
  }
  if (ok) return verdict("correct", message("Correct.", "正确。"));

  const double rel = e != 0 ? std::fabs(v - e) / std::fabs(e) : 1;
  if (p->significant_digits < figures && rel < 0.1) {
    const std::string n = std::to_string(figures);
    return verdict("incorrect", message("Close, but give at least " + n + " significant figures.",
                                        "接近了，但请至少写 " + n + " 位有效数字。"));
  }
  if (e != 0 && v / e > 0) {  // a unit slip: off by a power of 1,000
    const double decades = std::log10(v / e);
    const double k = std::round(decades / 3);
    if (k != 0 && std::fabs(decades - 3 * k) < 0.02)
      return verdict("incorrect", message("Off by a factor of about 1,000" +
                                              std::string(std::fabs(k) > 1 ? " or more" : "") +
                                              ": check the unit (KB vs MB, us vs ms).",
                                          "差了约 1000 倍：检查单位（KB 与 MB、us 与 ms）。"));
  }
  const std::string pct = percent(tol);
  if (v > e)
    return verdict("incorrect", message("Too high: more than " + pct + " above the expected value.",
                                        "偏大：比正确值大 " + pct + " 以上。"));
  return verdict("incorrect", message("Too low: more than " + pct + " below the expected value.",
                                      "偏小：比正确值小 " + pct + " 以上。"));
}

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = [] {
    std::vector<Exercise> list;
    std::set<int> ids;
    for (const ExerciseSource& src : exercise_sources()) {
      Exercise ex = load_one(src);
      if (!ids.insert(ex.id).second)
        bad_doc(src.file, "exercise id " + std::to_string(ex.id) + " is used twice");
      list.push_back(std::move(ex));
    }
    std::sort(list.begin(), list.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
    return list;
  }();
  return all;
}

const Exercise& find_exercise(const json& id, const std::string& field) {
  std::vector<std::string> ids;
  for (const Exercise& ex : exercises()) ids.push_back(std::to_string(ex.id));
  const std::string rule = "allowed: one of " + join(ids, ", ");
  if (!id.is_number() || !std::isfinite(id.get<double>()) || id.get<double>() != std::floor(id.get<double>()))
    throw RequestError("invalid_type", "field '" + field + "': value " + show_value(id) +
                                           " is not an exercise number; " + rule);
  for (const Exercise& ex : exercises())
    if (ex.id == id.get<double>()) return ex;
  throw RequestError("unknown_value", "field '" + field + "': no exercise " + show_value(id) + "; " + rule);
}

json resolve_params(const Exercise& ex, const json& given, const std::string& where) {
  if (!given.is_object())
    throw RequestError("invalid_type", "field '" + where.substr(0, where.size() - 1) + "': value " +
                                           show_value(given) + " is not allowed; allowed: a JSON object");
  json out = json::object();
  std::vector<std::string> names;
  for (const json& def : ex.doc.at("params")) {  // defaults read like given values: same types
    const std::string id = def.at("id");
    out[id] = read_param(def, def.at("default"), "exercises default " + id);
    names.push_back(id);
  }
  for (auto it = given.begin(); it != given.end(); ++it) {
    const json* def = find_def(ex.doc.at("params"), it.key());
    if (!def)
      throw RequestError("unknown_field", "field '" + where + it.key() + "' is not a parameter of exercise " +
                                              std::to_string(ex.id) +
                                              "; allowed fields: " + join(names, ", "));
    out[it.key()] = read_param(*def, it.value(), where + it.key());
  }
  return out;
}

json solve_exercise(const Exercise& ex, const json& params) {
  const ExerciseSolution s = ex.solver(params);
  json display = json::object();
  for (const json& def : ex.doc.at("answers")) {
    const std::string id = def.at("id");
    if (!s.answers.contains(id))
      throw RequestError("internal",
                         "the solver of exercise " + std::to_string(ex.id) + " gave no answer '" + id + "'");
    const json& v = s.answers.at(id);
    if (is_choice_answer(def) ? !v.is_string() : !v.is_number())
      throw RequestError("internal", "the solver of exercise " + std::to_string(ex.id) + " gave answer '" +
                                         id + "' of the wrong type: " + show_value(v));
    display[id] = v.is_string()
                      ? v.get<std::string>()
                      : format_quantity(v.get<double>(), def.value("unit", ""), answer_dimension(def));
  }
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, &s.answers, &display, &values};
  return {{"id", ex.id},
          {"params", params},
          {"params_display", params_display(ex, params)},
          {"answers", s.answers},
          {"display", display},
          {"values", values},
          {"statement", fill_pair(ex.doc.at("statement"), c)},
          {"solution", fill_pair(ex.doc.at("solution"), c)}};
}

json check_exercise(const Exercise& ex, const json& params, const json& typed) {
  if (!typed.is_object())
    throw RequestError("invalid_type", "field 'answers': value " + show_value(typed) +
                                           " is not allowed; allowed: a JSON object {answer id: text}");
  std::vector<std::string> names;
  for (const json& def : ex.doc.at("answers")) names.push_back(def.at("id"));
  for (auto it = typed.begin(); it != typed.end(); ++it)
    if (!find_def(ex.doc.at("answers"), it.key()))
      throw RequestError("unknown_field", "field 'answers." + it.key() + "' is not an answer of exercise " +
                                              std::to_string(ex.id) +
                                              "; allowed fields: " + join(names, ", "));
  const ExerciseSolution s = ex.solver(params);
  json verdicts = json::object();
  bool all_correct = true;
  for (const json& def : ex.doc.at("answers")) {
    const std::string id = def.at("id");
    if (!typed.contains(id)) {
      all_correct = false;
      continue;
    }
    verdicts[id] = judge_answer(def, s.answers.at(id), typed.at(id));
    all_correct = all_correct && verdicts[id].at("verdict") == "correct";
  }
  return {{"id", ex.id}, {"verdicts", verdicts}, {"all_correct", all_correct}};
}

json exercise_document(const Exercise& ex, const json& params) {
  json doc = ex.doc;
  for (json& a : doc.at("answers")) {
    if (a.contains("rule")) continue;
    if (is_choice_answer(a)) {
      const std::string list = join(choices_of(a), ", ");
      a["rule"] = message("One of: " + list + " (case does not matter).",
                          "填写其中之一：" + list + "（不区分大小写）。");
      continue;
    }
    const std::string unit = a.value("unit", ""), pct = percent(tolerance(a));
    const std::string n = std::to_string(min_figures(a));
    const Dimension dim = answer_dimension(a);
    std::string en_in = "A number", zh_in = "填一个数";
    if (dim == Dimension::count && !unit.empty()) {  // token counts: "4K" as the lecture writes
      en_in += " of " + unit + ", e.g. 1,500 or 4K (K = 1,024)";
      zh_in += "（" + unit + "），可以写 1,500 或 4K（K = 1,024）";
    } else if (!unit.empty() && units_of(dim) == unit) {  // "%", "x": nothing else to offer
      en_in += " in " + unit;
      zh_in += "（单位 " + unit + "）";
    } else if (!unit.empty()) {
      en_in += " in " + shown(unit) + " (or with a unit: " + units_of(dim) + ")";
      zh_in += "（单位 " + shown(unit) + "，也可以带单位：" + units_of(dim) + "）";
    }
    a["rule"] = message(en_in + ". Correct if within " + pct +
                            " of the exact value, or if it is the exact value rounded to the significant "
                            "figures you type (at least " +
                            n + ").",
                        zh_in + "。与精确值相差不超过 " + pct + "，或等于精确值按你写的有效数字（至少 " + n +
                            " 位）四舍五入的结果，即为正确。");
  }
  const TemplateContext c{ex, params};
  doc["statement_filled"] = fill_pair(ex.doc.at("statement"), c);
  doc["params_display"] = params_display(ex, params);
  return doc;
}

// ---------------------------------------------------------------- variants

namespace {

// splitmix64 (Steele, Lea, Flood 2014): integer-only, so native and wasm draw the same.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t pick(size_t n) { return static_cast<size_t>(next() % n); }
};

// Exact powers of ten: products and one division, the same on every IEEE platform.
double pow10_exact(int k) {
  double p = 1;
  for (int i = 0; i < std::abs(k); ++i) p *= 10;
  return k < 0 ? 1 / p : p;
}

// Round numbers inside [min, max]: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten.
std::vector<json> ladder(const json& def) {
  const double lo = def.at("min"), hi = def.at("max");
  const bool integer = def.at("kind") == "integer";
  std::vector<json> out;
  std::set<double> seen;
  for (int k = -15; k <= 15; ++k)
    for (double m : {10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 80.0}) {
      const double x = k >= 1 ? m * pow10_exact(k - 1) : m / pow10_exact(1 - k);
      if (x < lo || x > hi || (integer && x != std::floor(x)) || !seen.insert(x).second) continue;
      out.push_back(integer ? json(static_cast<long long>(x)) : json(x));
    }
  if (out.empty()) out.push_back(def.at("default"));
  return out;
}

std::vector<json> candidates(const json& def) {
  if (def.contains("nice")) return def.at("nice").get<std::vector<json>>();
  if (def.at("kind") == "choice") return def.at("choices").get<std::vector<json>>();
  return ladder(def);
}

// A variant must be well posed: every figure finite and positive, the solver content with it
// (values.well_posed, e.g. no near-tie for "best"), and its own displayed answers correct.
bool solvable(const Exercise& ex, const json& params) {
  try {
    const json s = solve_exercise(ex, params);
    if (s.at("values").contains("well_posed") && s.at("values").at("well_posed") == false) return false;
    // Pairs of answers a student compares ("tokens_per_device" vs "threshold") stay 10% apart,
    // so rounding cannot flip the conclusion.
    for (const json& pair : ex.doc.value("variant", json::object()).value("distinct", json::array())) {
      const double a = s.at("answers").at(pair.at(0).get<std::string>());
      const double b = s.at("answers").at(pair.at(1).get<std::string>());
      if (std::fabs(a - b) < 0.1 * std::max(std::fabs(a), std::fabs(b))) return false;
    }
    for (const json& def : ex.doc.at("answers")) {
      const std::string id = def.at("id");
      const json& v = s.at("answers").at(id);
      if (v.is_number() && !(std::isfinite(v.get<double>()) && v.get<double>() > 0)) return false;
      if (judge_answer(def, v, s.at("display").at(id)).at("verdict") != "correct") return false;
    }
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

json variant_params(const Exercise& ex, std::uint64_t seed) {
  SplitMix64 rng{seed ^ (static_cast<std::uint64_t>(ex.id) * 0xd1b54a32d192ed03ULL)};
  const json defaults = resolve_params(ex, json::object());
  const json variant = ex.doc.value("variant", json::object());
  const json presets = variant.value("presets", json::array());
  for (int attempt = 0; attempt < 200; ++attempt) {
    json p = json::object();
    if (!presets.empty()) p = presets.at(rng.pick(presets.size()));
    for (const json& def : ex.doc.at("params")) {
      const std::string id = def.at("id");
      if (p.contains(id)) continue;
      const std::vector<json> c = candidates(def);
      p[id] = c.at(rng.pick(c.size()));
    }
    try {
      p = resolve_params(ex, p);
    } catch (const RequestError&) {
      continue;
    }
    if (p == defaults && attempt < 100) continue;  // fresh, unless nothing else is possible
    if (solvable(ex, p)) return p;
  }
  return defaults;
}

}  // namespace commlab
