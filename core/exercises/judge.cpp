// Judging typed answers (exercises/README.md "Judging typed answers") and the rule text printed beside a field.
// One rule, stated once: answer_rule() prints it, judge_answer() applies it, and every verdict
// message says what it read, so the two can never disagree.
#include "base/concat.hpp"
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

json verdict(const char* v, json msg) {
  json out = json::object();
  out["verdict"] = v;
  out["message"] = std::move(msg);
  return out;
}

// A verdict whose message is two templates, English and Chinese, filled from the same slots.
json say(const char* v, std::string_view en, std::string_view zh, std::initializer_list<Slot> slots) {
  return verdict(v, message(substitute(en, slots), substitute(zh, slots)));
}

std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

bool is_exact_count(const json& def) { return def.value("exact", false); }
bool is_about(const json& def) { return def.value("about", false); }

std::string figures_en(int n) {
  return std::to_string(n) + (n == 1 ? " significant figure" : " significant figures");
}
std::string figures_zh(int n) { return std::to_string(n) + " 位有效数字"; }

// "2,18": a comma that cannot separate thousands (not three digits after it) is most likely a
// decimal comma; returns the number written with a point, or nothing.
std::optional<std::string> decimal_comma(const std::string& text) {
  size_t i = text.find_first_not_of(' ');
  if (i == std::string::npos) return std::nullopt;
  const size_t start = i;
  if (text[i] == '-' || text[i] == '+') ++i;
  const auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
  const size_t int_start = i;
  while (digit(i)) ++i;
  if (i == int_start || i >= text.size() || text[i] != ',') return std::nullopt;
  size_t j = i + 1;
  while (digit(j)) ++j;
  if (j == i + 1 || j - i - 1 == 3) return std::nullopt;
  return concat({text.substr(start, i - start), ".", text.substr(i + 1, j - i - 1)});
}

// A typed quantity as the messages quote it: its number and its unit, or the field's unit.
std::string quoted(const Parsed& p, const json& def) {
  const std::string unit = p.unit.empty() ? shown(unit_of(def)) : p.unit;
  if (unit.empty()) return p.number;
  const bool attached = unit == "%" || unit == "x" || unit == "\xC3\x97" || unit == "\xE5\x80\x8D" ||
                        unit == "K" || unit == "k" || unit == "M" || unit == "G";
  return concat({p.number, (attached ? "" : " "), unit});
}

// The ways to write a number for this field, for the format-error message and the rule text.
std::string what_to_type_en(const json& def) {
  const Dimension dim = answer_dimension(def);
  const std::string& unit = unit_of(def);
  if (is_exact_count(def)) return "A whole number" + (unit.empty() ? "" : " of " + unit);
  if (dim == Dimension::count && !unit.empty())
    return concat({"A number of ", unit, ", e.g. 1,500 or 4K (K, M, G read as 1,000 or 1,024, whichever passes)"});
  if (unit.empty()) return "A number";
  const std::string others = units_of(dim);
  if (others.find(',') == std::string::npos) return "A number in " + shown(unit);
  return concat({"A number in ", shown(unit), " (or with a unit: ", others, ")"});
}

std::string what_to_type_zh(const json& def) {
  const Dimension dim = answer_dimension(def);
  const std::string& unit = unit_of(def);
  if (is_exact_count(def)) return "填一个整数" + (unit.empty() ? "" : concat({"（", unit, "）"}));
  if (dim == Dimension::count && !unit.empty())
    return concat({"填一个数（", unit, "），例如 1,500 或 4K（K、M、G 按 1,000 或 1,024 理解，哪种对都算对）"});
  if (unit.empty()) return "填一个数";
  const std::string others = units_of(dim);
  if (others.find(',') == std::string::npos) return concat({"填一个数（单位 ", shown(unit), "）"});
  return concat({"填一个数（单位 ", shown(unit), "，也可以带单位：", others, "）"});
}

// Choice text -> canonical choice, through the ids, the labels and the document's aliases.
std::optional<std::string> match_choice(const json& def, const std::string& text) {
  const std::string t = normalize_choice(ascii_forms(text));
  if (t.empty()) return std::nullopt;
  for (const std::string& c : choices_of(def)) {
    if (normalize_choice(c) == t) return c;
    for (const char* lang : {"en", "zh"})
      if (normalize_choice(choice_label(def, c, lang)) == t) return c;
    if (def.contains("aliases") && def.at("aliases").contains(c))
      for (const json& a : def.at("aliases").at(c))
        if (normalize_choice(a.get<std::string>()) == t) return c;
  }
  return std::nullopt;
}

std::string choice_list(const json& def, const std::string& lang) {
  std::vector<std::string> labels;
  for (const std::string& c : choices_of(def)) labels.push_back(choice_label(def, c, lang));
  return join(labels, lang == "zh" ? "、" : ", ");
}

json judge_choice(const json& def, const json& exact, const std::string& text) {
  const std::optional<std::string> got = match_choice(def, text);
  if (!got)
    return say("format-error", "Expected one of: {en} (case does not matter).", "应填以下之一：{zh}（不区分大小写）。",
               {{"en", choice_list(def, "en")}, {"zh", choice_list(def, "zh")}});
  const std::string en = choice_label(def, *got, "en"), zh = choice_label(def, *got, "zh");
  const bool right = normalize_choice(*got) == normalize_choice(exact.get<std::string>());
  return right ? say("correct", "Correct: {en}.", "正确：{zh}。", {{"en", en}, {"zh", zh}})
               : say("incorrect", "Read \"{en}\": not correct. Compare your figures again, or see the hints.",
                     "读到“{zh}”：不对。再比较一下你算出的数，或看看提示。", {{"en", en}, {"zh", zh}});
}

// One reading of the typed number: K on a token count may mean 1,024 or 1,000.
struct Reading {
  double value;   // base units
  double factor;  // the unit typed, in base units
  bool decimal_k; // the 1,000-based reading of K/M/G
};

// Rounding rule: the exact value, in the unit typed, rounded to the figures typed, is what was
// typed ("420" for 424.4, "10" for 9.6 at one figure; not "10" for 8.2).
bool rounds_to(double typed, double exact_in_unit, int figures) {
  if (typed == 0 || exact_in_unit == 0) return false;
  const double place = std::pow(10.0, std::floor(std::log10(std::fabs(exact_in_unit))) - figures + 1);
  const double rounded = std::round(exact_in_unit / place) * place;
  return std::fabs(typed - rounded) <= 1e-9 * std::fabs(rounded);
}

bool within(double v, double e, double tol) { return v == e || std::fabs(v - e) <= tol * std::fabs(e) * (1 + 1e-12); }

// "6-7x", "6 to 7", "6～7 倍": a range, for answers the lecture itself gives as "about".
std::optional<std::pair<Parsed, Parsed>> parse_range(const json& def, const std::string& text_in) {
  const std::string text = ascii_forms(text_in);
  const Dimension dim = answer_dimension(def);
  const std::string& shown_unit = unit_of(def);
  for (const char* sep : {"-", "\xE2\x80\x93", "\xE2\x80\x94", "~", " to ", "\xE5\x88\xB0", "\xE8\x87\xB3"}) {
    const size_t at = text.find(sep, 1);
    if (at == std::string::npos) continue;
    const std::optional<Parsed> hi = parse_quantity(text.substr(at + std::string(sep).size()), dim, shown_unit);
    if (!hi) continue;
    const std::optional<Parsed> lo =
        parse_quantity(text.substr(0, at), dim, hi->unit.empty() ? shown_unit : hi->unit);
    if (lo && lo->value < hi->value) return std::make_pair(*lo, *hi);
  }
  return std::nullopt;
}

json judge_range(const json& def, double e, const Parsed& lo, const Parsed& hi) {
  const double tol = tolerance(def);
  Parsed lo_shown = lo;  // "6-7x": both ends in the unit typed after the second
  if (lo_shown.unit.empty()) lo_shown.unit = hi.unit;
  const std::string read = concat({quoted(lo_shown, def), " - ", quoted(hi, def)}), pct = percent(tol);
  const bool below = e < lo.value;
  const std::initializer_list<Slot> slots = {
      {"read", read}, {"pct", pct}, {"side", below ? "below" : "above"}, {"side_zh", below ? "小" : "大"}};
  // As wide as the lecture's "about 6-7x" and no wider: a range may not span more than 1.5 : 1.
  if (hi.value > 1.5 * lo.value)
    return say("incorrect", "Read the range {read}: too wide to count (at most 1.5 : 1).",
               "读到范围 {read}：太宽了（上下限之比最多 1.5）。", slots);
  if (e >= lo.value * (1 - tol) && e <= hi.value * (1 + tol))
    return say("correct", "Correct: the exact value lies in {read} (within {pct}).",
               "正确：精确值在 {read} 之内（容差 {pct}）。", slots);
  return say("incorrect", "Read the range {read}: the exact value is {side} it by more than {pct}.",
             "读到范围 {read}：精确值比它{side_zh}，超过 {pct}。", slots);
}

json judge_count(const json& def, const json& exact, const json& range, const Parsed& p,
                 const std::vector<Reading>& readings) {
  const std::string read = quoted(p, def);
  for (const Reading& r : readings) {
    if (std::fabs(r.value - std::round(r.value)) > 1e-9 * std::max(1.0, std::fabs(r.value))) continue;
    const bool ok = range.is_array() ? r.value >= range.at(0).get<double>() && r.value <= range.at(1).get<double>()
                                     : r.value == exact.get<double>();
    if (ok) return say("correct", "Correct: {read}.", "正确：{read}。", {{"read", read}});
  }
  if (std::fabs(p.value - std::round(p.value)) > 1e-9 * std::max(1.0, std::fabs(p.value)))
    return say("incorrect", "Read {read}: a count is a whole number.", "读到 {read}：个数应是整数。", {{"read", read}});
  const double lo = range.is_array() ? range.at(0).get<double>() : exact.get<double>();
  const bool high = p.value > lo;
  return say("incorrect", "Read {read}: not the right count (too {too}).", "读到 {read}：个数不对（{too_zh}）。",
             {{"read", read}, {"too", high ? "many" : "few"}, {"too_zh", high ? "多了" : "少了"}});
}

}  // namespace

std::string choice_label(const json& def, const std::string& choice, const std::string& lang) {
  if (def.contains("choice_labels") && def.at("choice_labels").contains(choice)) {
    const json& l = def.at("choice_labels").at(choice);
    if (l.is_object() && l.contains(lang)) return l.at(lang).get<std::string>();
  }
  return choice;
}

// exercises/README.md "Judging typed answers": within tolerance_rel (1%) of the exact value, or the exact value
// rounded to the significant figures typed, counted as a teacher counts them (at least
// min_significant_figures, 2); counts exact; ranges where the lecture gives one.
json judge_answer(const json& def, const json& exact, const json& typed, const json& range) {
  std::string text;
  if (typed.is_string())
    text = typed.get<std::string>();
  else if (typed.is_number())
    text = typed.dump();
  else if (typed.is_boolean())
    text = typed.get<bool>() ? "true" : "false";
  else
    return verdict("format-error", message("Expected text or a number.", "应填文字或数。"));
  if (text.size() > 200)
    return verdict("format-error", message("Expected a short answer (at most 200 characters).",
                                           "答案太长（最多 200 个字符）。"));
  if (is_choice_answer(def)) return judge_choice(def, exact, text);

  const Dimension dim = answer_dimension(def);
  const std::optional<Parsed> p = parse_quantity(text, dim, unit_of(def));
  if (!p) {
    if (is_about(def))
      if (const auto r = parse_range(def, text)) return judge_range(def, exact.get<double>(), r->first, r->second);
    if (const auto point = decimal_comma(text))
      return say("format-error", "Expected {en}. Write the decimal point as a point: {n} (or {n}e0).",
                 "应{zh}。小数点请写成点：{n}（或 {n}e0）。",
                 {{"en", lower_first(what_to_type_en(def))}, {"zh", what_to_type_zh(def)}, {"n", *point}});
    return say("format-error", "Expected {en}.", "应{zh}。",
               {{"en", lower_first(what_to_type_en(def))}, {"zh", what_to_type_zh(def)}});
  }
  std::vector<Reading> readings = {{p->value, p->factor, false}};
  if (p->alt_factor > 0) readings.push_back({p->typed * p->alt_factor, p->alt_factor, true});
  if (is_exact_count(def)) return judge_count(def, exact, range, *p, readings);

  const double e = exact.get<double>(), tol = tolerance(def), v = p->value;
  const int need = min_figures(def), figs = p->significant_digits;
  const std::string read = quoted(*p, def), pct = percent(tol);
  const std::string figs_en = figures_en(figs), figs_zh = figures_zh(figs);
  const std::string need_en = figures_en(need), need_zh = figures_zh(need);
  // Tolerance first, then the rounding rule, then the lecture's range: the message names the
  // part of the rule that the answer meets; {k} says when K was read as 1,000.
  static const std::string_view kMet[3][2] = {
      {"Correct: {read} is within {pct} of the exact value{k}.", "正确：{read} 与精确值相差不超过 {pct}{k_zh}。"},
      {"Correct: {read} has {figs}, and the exact value rounded to {figs} is {read}{k}.",
       "正确：{read} 有 {figs_zh}，精确值按 {figs_zh}四舍五入正是 {read}{k_zh}。"},
      {"Correct: {read} lies in the range the worked solution accepts (within {pct}){k}.",
       "正确：{read} 在解答所接受的范围之内（容差 {pct}）{k_zh}。"}};
  const auto meets = [&](int rule, const Reading& r) {
    if (rule == 0) return within(r.value, e, tol);
    if (rule == 1) return figs >= need && rounds_to(p->typed, e / r.factor, figs);
    return range.is_array() && r.value >= range.at(0).get<double>() * (1 - tol) &&
           r.value <= range.at(1).get<double>() * (1 + tol);
  };
  for (int rule = 0; rule < 3; ++rule)
    for (const Reading& r : readings)
      if (meets(rule, r))
        return say("correct", kMet[rule][0], kMet[rule][1],
                   {{"read", read},
                    {"pct", pct},
                    {"figs", figs_en},
                    {"figs_zh", figs_zh},
                    {"k", r.decimal_k ? " (K read as 1,000)" : ""},
                    {"k_zh", r.decimal_k ? "（K 按 1,000 理解）" : ""}});

  // Incorrect: say what was read and which part of the rule it misses, never the exact value.
  if (e != 0 && v / e > 0) {  // a unit slip: off by a power of 1,000
    const double decades = std::log10(v / e);
    const double k = std::round(decades / 3);
    if (k != 0 && std::fabs(decades - 3 * k) < 0.02)
      return say("incorrect", "Read {read}: off by a factor of about 1,000{more}: check the unit (KB vs MB, µs vs ms).",
                 "读到 {read}：差了约 1000 倍：检查单位（KB 与 MB、µs 与 ms）。",
                 {{"read", read}, {"more", std::fabs(k) > 1 ? " or more" : ""}});
    // A fraction typed into a percent field (0.082 for 8.2%), or a percentage as a fraction.
    if (dim == Dimension::fraction && std::fabs(std::fabs(decades) - 2) < 0.02)
      return say("incorrect", "Read {read}: off by a factor of about 100: check percent against fraction (0.5 is 50%).",
                 "读到 {read}：差了约 100 倍：检查百分数与小数（0.5 即 50%）。", {{"read", read}});
  }
  const std::initializer_list<Slot> slots = {{"read", read},
                                             {"pct", pct},
                                             {"figs", figs_en},
                                             {"figs_zh", figs_zh},
                                             {"need", need_en},
                                             {"need_zh", need_zh},
                                             {"side", v > e ? "above" : "below"},
                                             {"side_zh", v > e ? "大" : "小"},
                                             {"too", v > e ? " (too high)" : " (too low)"},
                                             {"too_zh", v > e ? "（偏大）" : "（偏小）"}};
  // Fewer figures than the rule needs. The judge never calls such an answer "close": at one
  // figure the right value rounded and a different quantity (alpha alone, a term left out) read
  // the same ("2 us" for 2.18 us), so it says only whether the figures typed agree with the exact
  // value and asks for more. Typing more figures then either passes or is "not correct", and
  // neither contradicts what was said before.
  if (figs < need) {
    bool agrees = false;
    for (const Reading& r : readings) agrees = agrees || rounds_to(p->typed, e / r.factor, figs);
    if (agrees)
      return say("incorrect",
                 "Too few figures to judge: {read} is more than {pct} from the exact value and has {figs}; the "
                 "rounding rule needs at least {need}, because at {figs} a rounded answer and a different quantity "
                 "look alike. Type it to {need}.",
                 "有效数字太少，无法判断：{read} 与精确值相差超过 {pct}，且只有 {figs_zh}；按有效数字判断至少要 "
                 "{need_zh}，因为只有 {figs_zh}时，四舍五入的正确答案和另一个量看起来一样。请写到 {need_zh}。",
                 slots);
    // Not even the figures typed agree: more figures would not help, so they are not asked for.
  }
  return say("incorrect",
             "Not correct: {read} is more than {pct} {side} the exact value{too}, and the exact value rounded to "
             "{figs} is not {read}.",
             "不对：{read} 比精确值{side_zh} {pct} 以上{too_zh}，精确值按 {figs_zh}四舍五入也不是 {read}。", slots);
}

std::pair<json, json> answer_rule_parts(const json& a) {
  if (is_choice_answer(a))
    return {message(substitute("One of: {en} (case does not matter).", {{"en", choice_list(a, "en")}}),
                    substitute("填写其中之一：{zh}（不区分大小写）。", {{"zh", choice_list(a, "zh")}})),
            nullptr};
  if (a.contains("range_rule")) return {a.at("range_rule"), nullptr};  // the lecture's own range, in words
  const std::string what_en = what_to_type_en(a), what_zh = what_to_type_zh(a);
  if (is_exact_count(a))
    return {message(what_en + ". Correct only if it is exactly right.", what_zh + "。只有完全正确才算对。"), nullptr};
  const std::string pct = percent(tolerance(a)), n = std::to_string(min_figures(a));
  const std::initializer_list<Slot> slots = {{"pct", pct}, {"n", n}};
  std::string en = substitute(
      "Correct if within {pct} of the exact value, or if it is the exact value rounded to the significant "
      "figures you type (at least {n}). Trailing zeros of a whole number are not significant: 420 and 2,200 have "
      "two figures, 420. and 4.20e2 three.",
      slots);
  std::string zh = substitute(
      "与精确值相差不超过 {pct}，或等于精确值按你写的有效数字（至少 {n} 位）四舍五入的结果，即为正确。"
      "整数末尾的 0 不算有效数字：420、2,200 都是两位，420. 和 4.20e2 是三位。",
      slots);
  if (is_about(a)) {
    en += " A range such as 6-7 counts when it holds the exact value (at most 1.5 : 1).";
    zh += "也可以写一个范围，如 6-7，只要包含精确值（上下限之比最多 1.5）。";
  }
  return {message(what_en + ".", what_zh + "。"), message(en, zh)};
}

json answer_rule(const json& a) {
  const auto [what, judging] = answer_rule_parts(a);
  if (judging.is_null()) return what;
  return message(concat({what.at("en").get<std::string>(), " ", judging.at("en").get<std::string>()}),
                 concat({what.at("zh").get<std::string>(), judging.at("zh").get<std::string>()}));
}

}  // namespace commlab
