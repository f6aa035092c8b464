// Filling statement and worked-solution templates: {param}, {answers.x}, {values.x:unit}.
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include <cmath>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"
#include "model/links.hpp"

namespace commlab {

using namespace detail;

namespace {

std::string localized_choice(const std::string& value, const std::string& lang) {
  if (lang != "zh") return value;
  if (value == "yes") return "是";
  if (value == "no") return "否";
  return value;
}

}  // namespace

std::string param_display(const json& def, const json& value) {
  if (def.at("kind") == "choice") {
    const std::string s = value.get<std::string>();
    const LinkSpec* link = find_link(s);
    return link ? link->label : s;
  }
  // A param far from its usual size reads better in a unit of its own: "4 MB", not "4,000 KB".
  const double v = value.get<double>();
  const Dimension dim = param_dimension(def);
  const std::string& unit = unit_of(def);
  const double shown = v / unit_factor(unit, dim).value_or(1);
  const bool scalable = dim == Dimension::time || dim == Dimension::bytes || dim == Dimension::bandwidth;
  if (scalable && shown != 0 && (std::fabs(shown) >= 1000 || std::fabs(shown) < 0.1))
    return format_auto(v, dim);
  return format_quantity(v, unit, dim);
}

namespace {

// Names tell units: alpha_s is seconds, shard_bytes bytes, beta_Bps bytes/s (STYLE: units in names).
Dimension dimension_by_name(const std::string& name) {
  if (ends_with(name, "_s")) return Dimension::time;
  if (ends_with(name, "_bytes") || name == "bytes") return Dimension::bytes;
  if (ends_with(name, "_Bps")) return Dimension::bandwidth;
  if (ends_with(name, "_fraction") || name == "fraction") return Dimension::fraction;
  return Dimension::plain;
}


std::string format_with(double v, const std::string& unit, Dimension fallback) {
  if (unit.empty()) return format_auto(v, fallback);
  return format_quantity(v, unit, dimension_of_unit(unit).value_or(fallback));
}

const json* def_of(const TemplateContext& c, bool answer, const std::string& id) {
  if (!c.defs) c.defs = std::make_shared<const DefIndex>(DefIndex{defs_by_id(c.ex.doc.at("answers")), defs_by_id(c.ex.doc.at("params"))});
  const auto& map = answer ? c.defs->answers : c.defs->params;
  const auto found = map.find(id);
  return found == map.end() ? nullptr : found->second;
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
    const json* def = def_of(c, true, id);
    if (!def || !c.answers->contains(id)) return false;
    const json& v = c.answers->at(id);
    if (v.is_string())
      *out = choice_label(*def, v.get<std::string>(), lang);
    else if (!unit.empty())
      *out = format_with(v.get<double>(), unit, answer_dimension(*def));
    else
      *out = c.display->at(id).get<std::string>();
    return true;
  }
  if (starts("conclusions.") && c.conclusions) {
    const std::string id = name.substr(12);
    if (!unit.empty() || !c.conclusions->contains(id)) return false;
    *out = c.conclusions->at(id).at(lang).get<std::string>();
    return true;
  }
  if (starts("values.") && c.values) {
    const std::string id = name.substr(7);
    if (!c.values->contains(id)) return false;
    const json& v = c.values->at(id);
    if (v.is_number())
      *out = format_with(v.get<double>(), unit, dimension_by_name(id));
    else if (is_text_pair(v))  // words that depend on the params, in both languages
      *out = v.at(lang).get<std::string>();
    else if (v.is_string())
      *out = localized_choice(v.get<std::string>(), lang);
    else if (v.is_boolean())
      *out = localized_choice(v.get<bool>() ? "yes" : "no", lang);
    else
      return false;
    return true;
  }
  const std::string id = starts("params.") ? name.substr(7) : name;
  const json* def = def_of(c, false, id);
  if (!def || !c.params.contains(id)) return false;
  const json& v = c.params.at(id);
  *out = unit.empty() || def->at("kind") == "choice"
             ? param_display(*def, v)
             : format_with(v.get<double>(), unit, param_dimension(*def));
  return true;
}

// Replaces {name} placeholders; text in braces that names nothing stays as it is. Linear: a
// '{' with another '{' before its '}' names nothing (no name holds a brace), so a statement of
// 100 KB of '{' is one pass, not a search to its end from each brace.
std::string fill(const std::string& text, const TemplateContext& c, const std::string& lang, const std::string& path) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i);
    if (open == std::string::npos) break;
    const size_t close = text.find_first_of("{}", open + 1);
    if (close == std::string::npos) break;
    out.append(text, i, open - i);
    std::string replaced;
    if (text[close] == '}' && resolve_placeholder(c, text.substr(open + 1, close - open - 1), lang, &replaced)) {
      out += replaced;
      i = close + 1;
    } else {
      out.append(text, open, close - open);
      i = close;
    }
    if (out.size() > kMaxFilledTextBytes) break;
  }
  if (i < text.size()) out.append(text, i, std::string::npos);
  if (out.size() > kMaxFilledTextBytes)
    throw RequestError(
        "invalid_exercise",
        capped_message(concat({"exercise ", std::to_string(c.ex.id), ", ", path, ".", lang, ": the filled text passes ",
                               std::to_string(kMaxFilledTextBytes), " bytes; allowed: at most 16 KB"})));
  return out;
}

}  // namespace

json fill_pair(const json& pair, const TemplateContext& c, const std::string& path) {
  std::string en = fill(pair.at("en").get<std::string>(), c, "en", path);  // en first, as its problems
  return message(std::move(en), fill(pair.at("zh").get<std::string>(), c, "zh", path));
}

json params_display(const Exercise& ex, const json& params) {
  json out = json::object();
  for (const json& def : ex.doc.at("params")) {
    const std::string id = def.at("id");
    out[id] = param_display(def, params.at(id));
  }
  return out;
}

}  // namespace commlab
