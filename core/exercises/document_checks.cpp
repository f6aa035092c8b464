// The checks of a document's fields that loading and lint share: params, answers, the variant
// section and "$schema", each field's type and range, a problem named by its path.
#include <algorithm>
#include <cmath>
#include <string>

#include "base/concat.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab::detail {

namespace {

bool is_string_list(const json& j) {
  if (!j.is_array() || j.empty()) return false;
  for (const json& x : j)
    if (!x.is_string()) return false;
  return true;
}

}  // namespace

// Every field code reads has its type and range checked here, so a wrong type is a problem
// named by its path, never a library exception (exercises/README.md "Exercise documents are untrusted input").
void check_param_def(const std::string& file, const json& p, size_t i) {
  const std::string at = concat({"field 'params[", std::to_string(i), "]"});
  if (!p.is_object() || !p.contains("id") || !p.at("id").is_string()) bad_doc(file, {at, ".id' must be a string"});
  const json& kind_field = member(p, "kind");
  const std::string kind = kind_field.is_string() ? kind_field.get<std::string>() : "";
  if (kind != "number" && kind != "integer" && kind != "choice")
    bad_doc(file, {at, ".kind' must be number, integer or choice"});
  if (!p.contains("default")) bad_doc(file, {at, ".default' is missing"});
  if (!is_text_pair(member(p, "label"))) bad_doc(file, {at, ".label' needs en and zh"});
  if (p.contains("nice")) {  // the values variants draw from
    const json& nice = p.at("nice");
    bool ok = nice.is_array() && !nice.empty();
    if (ok)
      for (const json& x : nice) ok = ok && (kind == "choice" ? x.is_string() : x.is_number());
    if (!ok) bad_doc(file, {at, ".nice' must be a non-empty array of ", (kind == "choice" ? "strings" : "numbers")});
  }
  if (kind == "choice") {
    const json& c = member(p, "choices");
    if (!is_string_list(c)) bad_doc(file, {at, ".choices' must be a non-empty array of strings"});
    if (std::find(c.begin(), c.end(), p.at("default")) == c.end())
      bad_doc(file, {at, ".default' is not among its choices"});
    return;
  }
  if (!member(p, "min").is_number() || !member(p, "max").is_number() ||
      !p.at("default").is_number())
    bad_doc(file, {at, "': default, min and max must be numbers"});
  if (p.contains("unit") && !p.at("unit").is_string()) bad_doc(file, {at, ".unit' must be a string"});
  if (!dimension_of_unit(unit_of(p))) bad_doc(file, {at, ".unit' ", quoted(unit_of(p)), " is not a known unit"});
  const double lo = p.at("min"), hi = p.at("max"), d = p.at("default");
  if (kind == "integer")
    for (const char* f : {"min", "max", "default"}) {
      const double x = p.at(f);
      if (x != std::floor(x) || std::fabs(x) > kMaxIntegerParam)
        bad_doc(file,
                {at, ".", f, "' of an integer param is ", num(x), "; allowed: a whole number from -1e+15 to 1e+15"});
    }
  if (!(lo <= d && d <= hi)) bad_doc(file, {at, ".default' is outside [min, max]"});
  if (p.contains("one_of")) {  // the only values allowed, each within [min, max]
    const json& list = p.at("one_of");
    if (!list.is_array() || list.empty()) bad_doc(file, {at, ".one_of' must be a non-empty array of numbers"});
    bool has_default = false;
    for (const json& x : list) {
      if (!x.is_number() || x.get<double>() < lo || x.get<double>() > hi)
        bad_doc(file, {at, ".one_of' holds ", show_value(x), ", not a number within [min, max]"});
      has_default = has_default || x.get<double>() == d;
    }
    if (!has_default) bad_doc(file, {at, ".default' is not among its one_of values"});
  }
}

void check_answer_def(const std::string& file, const json& a, size_t i) {
  const std::string at = concat({"field 'answers[", std::to_string(i), "]"});
  if (!a.is_object() || !a.contains("id") || !a.at("id").is_string()) bad_doc(file, {at, ".id' must be a string"});
  if (!is_text_pair(member(a, "label"))) bad_doc(file, {at, ".label' needs en and zh"});
  for (const char* f : {"exact", "about"})
    if (a.contains(f) && !a.at(f).is_boolean()) bad_doc(file, {at, ".", f, "' must be true or false"});
  if (a.contains("aliases")) {
    const json& al = a.at("aliases");
    bool ok = al.is_object();
    if (ok)
      for (const json& list : al) ok = ok && is_string_list(list);
    if (!ok) bad_doc(file, {at, ".aliases' must be an object {choice: [names]}"});
  }
  if (a.contains("choice_labels")) {
    const json& cl = a.at("choice_labels");
    bool ok = cl.is_object();
    if (ok)
      for (const json& l : cl) ok = ok && l.is_object();
    if (ok)
      for (const json& l : cl)
        for (const json& t : l) ok = ok && t.is_string();
    if (!ok) bad_doc(file, {at, ".choice_labels' must be an object {choice: {en, zh}}"});
  }
  const json& dim_field = member(a, "dimension");
  const std::string dim = dim_field.is_string() ? dim_field.get<std::string>() : "";
  if (dim == "choice") {
    if (!is_string_list(member(a, "choices"))) bad_doc(file, {at, ".choices' must be a non-empty array of strings"});
    return;
  }
  if (!parse_dimension(dim) || dim == "bandwidth")
    bad_doc(file, {at, ".dimension' must be time, bytes, fraction, count, plain or choice"});
  if (a.contains("unit") && !a.at("unit").is_string()) bad_doc(file, {at, ".unit' must be a string"});
  if (!unit_factor(unit_of(a), *parse_dimension(dim))) bad_doc(file, {at, ".unit' does not fit dimension ", dim});
  if (a.contains("tolerance_rel") &&
      !(a.at("tolerance_rel").is_number() && a.at("tolerance_rel") > 0 && a.at("tolerance_rel") <= 1))
    bad_doc(file, {at, ".tolerance_rel' must be a number > 0 and <= 1"});
  if (a.contains("min_significant_figures")) {
    const json& m = a.at("min_significant_figures");
    if (!m.is_number() || m.get<double>() != std::floor(m.get<double>()) || m.get<double>() < 1 ||
        m.get<double>() > 15)
      bad_doc(file, {at, ".min_significant_figures' is ", show_value(m), "; allowed: an integer from 1 to 15"});
  }
}

// "variant": {"presets": [{param: value}], "constraints": [condition], "distinct": [[a, b]]}.
void check_variant(const std::string& file, const json& doc) {
  if (!doc.contains("variant")) return;
  const json& v = doc.at("variant");
  if (!v.is_object()) bad_doc(file, "field 'variant' must be an object");
  if (v.contains("presets")) {
    const json& p = v.at("presets");
    if (!p.is_array()) bad_doc(file, "field 'variant.presets' must be an array of objects");
    for (size_t i = 0; i < p.size(); ++i)
      if (!p[i].is_object()) bad_doc(file, {"field 'variant.presets[", std::to_string(i), "]' must be an object"});
  }
  if (v.contains("constraints")) {
    const json& c = v.at("constraints");
    if (!c.is_array()) bad_doc(file, "field 'variant.constraints' must be an array of conditions");
    for (size_t i = 0; i < c.size(); ++i)
      if (!c[i].is_object() || !c[i].contains("left") || !c[i].contains("right") || !c[i].contains("op"))
        bad_doc(file, {"field 'variant.constraints[", std::to_string(i), "]' must be {left, op, right}"});
  }
  if (v.contains("distinct")) {
    const json& d = v.at("distinct");
    if (!d.is_array()) bad_doc(file, "field 'variant.distinct' must be an array of pairs");
    for (size_t i = 0; i < d.size(); ++i) {
      bool ok = d[i].is_array() && d[i].size() == 2;
      for (const json& x : ok ? d[i] : kNoItems) {
        ok = ok && (x.is_number() || x.is_string());
        if (ok && x.is_string()) {
          const std::string n = x.get<std::string>();
          ok = n.rfind("params.", 0) == 0 || n.rfind("values.", 0) == 0 || n.rfind("answers.", 0) == 0;
        }
      }
      if (!ok)
        bad_doc(file, {"field 'variant.distinct[", std::to_string(i),
                       "]' must be a pair of numbers or figures (\"params.x\", \"values.x\", \"answers.x\")"});
    }
  }
}

// "$schema": the document's schema for editors ("./schema.json"), which the engine ignores.
void check_schema_reference(const std::string& file, const json& doc) {
  if (doc.contains("$schema") && !doc.at("$schema").is_string())
    bad_doc(file, {"field '$schema' is ", show_value(doc.at("$schema")),
                   "; allowed: the path of the schema for editors, a string such as \"./schema.json\""});
}

}  // namespace commlab::detail
