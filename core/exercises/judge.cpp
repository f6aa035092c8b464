// Judging typed answers (SPEC "Judging typed answers") and the rule text printed beside a field.
#include "exercises/exercises.hpp"

#include <cmath>
#include <optional>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using namespace detail;

namespace {

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


json answer_rule(const json& a) {
  if (is_choice_answer(a)) {
    const std::string list = join(choices_of(a), ", ");
    return message("One of: " + list + " (case does not matter).",
                   "填写其中之一：" + list + "（不区分大小写）。");
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
  return message(en_in + ". Correct if within " + pct +
                          " of the exact value, or if it is the exact value rounded to the significant "
                          "figures you type (at least " +
                          n + ").",
                      zh_in + "。与精确值相差不超过 " + pct + "，或等于精确值按你写的有效数字（至少 " + n +
                          " 位）四舍五入的结果，即为正确。");
}

}  // namespace commlab
