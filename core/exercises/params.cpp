// Exercise parameters: defaults, given values checked against their definitions.
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include <cmath>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using namespace detail;

namespace {

std::string allowed_text(const json& def) {
  if (def.at("kind") == "choice") return "one of " + join(choices_of(def), ", ");
  const Dimension dim = param_dimension(def);
  const double lo = def.at("min"), hi = def.at("max");
  const std::string& unit = unit_of(def);
  if (def.contains("one_of")) {  // a few values only (bytes per value: 1, 2 or 4)
    std::vector<std::string> v;
    for (const json& x : def.at("one_of")) v.push_back(num(x.get<double>()));
    return concat({"one of ", join(v, ", "), (unit.empty() ? "" : " " + unit)});
  }
  std::string s = def.at("kind") == "integer" ? "an integer from " : "a number from ";
  s += concat({num(lo), " to ", num(hi)});
  const std::string base = base_unit_name(dim);
  if (!base.empty()) s += " " + base;
  if (!unit.empty() && unit_factor(unit, dim).value_or(1) != 1)
    s += concat({" (", format_quantity(lo, unit, dim), " to ", format_quantity(hi, unit, dim), ")"});
  if (dim == Dimension::plain) return s;
  if (dim == Dimension::count) return s + ", or a string such as \"128K\" (K = 1,024)";
  return concat({s, ", or a string with a unit (", units_of(dim), ")"});
}

// A refused value: "field 'x': value 5 is not an integer; allowed: ...", the rule built only
// here (a solve reads every param, and all but a refused one pass).
[[noreturn]] COMMLAB_RARE void refuse_param(const char* code, const std::string& field, const json& v,
                                            const char* before, const char* after, const json& def) {
  refuse(code, {"field '", field, before, show_value(v), after, "; allowed: ", allowed_text(def)});
}

json read_param(const json& def, const json& v, const std::string& field) {
  if (def.at("kind") == "choice") {
    if (!v.is_string()) refuse_param("invalid_type", field, v, "': value ", " is not a string", def);
    // Exact, as the ops read link ids: "NVLINK4" is an error everywhere, not only in ops.
    for (const std::string& c : choices_of(def))
      if (c == v.get<std::string>()) return c;
    refuse_param("unknown_value", field, v, "': unknown value ", "", def);
  }
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    const std::optional<Parsed> p = parse_quantity(v.get<std::string>(), param_dimension(def), "");
    if (!p) refuse_param("invalid_type", field, v, "': value ", " is not a number with a fitting unit", def);
    x = p->value;
  } else {
    refuse_param("invalid_type", field, v, "': value ", " is not a number", def);
  }
  const double lo = def.at("min"), hi = def.at("max");
  if (!std::isfinite(x) || x < lo || x > hi)
    refuse_param("out_of_range", field, v, "': value ", " is not allowed", def);
  if (def.contains("one_of")) {
    bool listed = false;
    for (const json& a : def.at("one_of")) listed = listed || a.get<double>() == x;
    if (!listed) refuse_param("out_of_range", field, v, "': value ", " is not allowed", def);
  }
  if (def.at("kind") == "integer") {
    if (x != std::floor(x)) refuse_param("not_integer", field, v, "': value ", " is not an integer", def);
    return static_cast<long long>(x);
  }
  return x;
}

}  // namespace

json resolve_params(const Exercise& ex, const json& given, const std::string& where) {
  if (!given.is_object())
    refuse("invalid_type", {"field '", where.substr(0, where.size() - 1), "': value ", show_value(given),
                            " is not allowed; allowed: a JSON object"});
  json out = json::object();
  std::vector<std::string> names;
  for (const json& def : ex.doc.at("params")) {  // defaults read like given values: same types
    const std::string id = def.at("id");
    out[id] = read_param(def, def.at("default"), "exercises default " + id);
    names.push_back(id);
  }
  const auto defs = defs_by_id(ex.doc.at("params"));
  for (auto it = given.begin(); it != given.end(); ++it) {
    const auto found = defs.find(it.key());
    const json* def = found == defs.end() ? nullptr : found->second;
    // A name from the request in a message: its first 60 characters (the fuzzer sent 4 KB ones).
    const std::string key = it.key().size() <= 60 ? it.key() : it.key().substr(0, 57) + "...";
    if (!def)
      throw RequestError("unknown_field",
                         capped_message(concat({"field '", where, key, "' is not a parameter of exercise ",
                                                std::to_string(ex.id), "; allowed fields: ", join(names, ", ")})));
    out[it.key()] = read_param(*def, it.value(), where + key);
  }
  return out;
}

}  // namespace commlab
