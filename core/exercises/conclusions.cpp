// Conclusions chosen by numbers (conclusions.hpp) and the conditions variant constraints share.
#include "exercises/conclusions.hpp"

#include <cctype>
#include <cmath>
#include <set>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "exercises/internal.hpp"

namespace commlab::detail {

namespace {

const std::set<std::string>& ops() {
  static const std::set<std::string> s = {"<", "<=", ">", ">=", "==", "!="};
  return s;
}

bool is_reference(const json& side) {
  if (!side.is_string()) return false;
  const std::string s = side.get<std::string>();
  for (const char* prefix : {"params.", "answers.", "values."})
    if (s.rfind(prefix, 0) == 0 && s.size() > std::string(prefix).size()) return true;
  return false;
}

// The figure a side names, or the literal itself; null when a reference names nothing.
json side_value(const json& solved, const json& side) {
  if (!is_reference(side)) return side;
  const std::string name = side.get<std::string>();
  const size_t dot = name.find('.');
  const std::string part = name.substr(0, dot), id = name.substr(dot + 1);
  if (!solved.contains(part) || !solved.at(part).is_object() || !solved.at(part).contains(id)) return json();
  return solved.at(part).at(id);
}

bool one_holds(const json& solved, const json& c) {
  const json a = side_value(solved, c.at("left")), b = side_value(solved, c.at("right"));
  const std::string op = c.at("op");
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    return false;
  }
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  return false;
}

std::string shape_of_condition(const json& c, const std::string& at) {
  // Its field names were checked with every other's (unknown_fields, from the schema).
  if (!c.is_object()) return at + ": must be an object {left, op, right}";
  if (!c.contains("op") || !c.at("op").is_string() || !ops().count(c.at("op").get<std::string>()))
    return at + ".op: must be one of <, <=, >, >=, ==, !=";
  for (const char* side : {"left", "right"}) {
    if (!c.contains(side)) return concat({at, ".", side, ": is missing"});
    const json& v = c.at(side);
    if (!v.is_number() && !v.is_string() && !v.is_boolean())
      return concat(
          {at, ".", side, ": must be a number, true/false, a figure (params.x, answers.x, values.x) or a text"});
  }
  return "";
}

}  // namespace

std::vector<std::string> condition_problems(const json& solved, const json& c, const std::string& at) {
  const std::string shape = shape_of_condition(c, at);
  if (!shape.empty()) return {shape};
  std::vector<std::string> out;
  json v[2];
  const char* sides[] = {"left", "right"};
  for (int i = 0; i < 2; ++i) {
    v[i] = side_value(solved, c.at(sides[i]));
    if (v[i].is_null())
      out.push_back(concat(
          {at, ".", sides[i], ": ", c.at(sides[i]).dump(), " names no figure (params.x, answers.x or values.x)"}));
  }
  if (!out.empty()) return out;
  const std::string op = c.at("op");
  if (op != "==" && op != "!=" && !(v[0].is_number() && v[1].is_number()))
    out.push_back(
        concat({at, ".op: ", op, " compares numbers; ", v[0].dump(), " and ", v[1].dump(), " are not both numbers"}));
  else if ((op == "==" || op == "!=") && v[0].is_number() != v[1].is_number())
    out.push_back(concat({at, ": compares a number with a text (", v[0].dump(), " ", op, " ", v[1].dump(), ")"}));
  return out;
}

bool condition_holds(const json& solved, const json& when) {
  if (when.is_array()) {
    for (const json& c : when)
      if (!one_holds(solved, c)) return false;
    return true;
  }
  return one_holds(solved, when);
}

// Types and order of the cases; the field names are checked before, with every other object's
// (unknown_fields: from exercises/schema.json).
void check_conclusions(const std::string& file, const json& doc) {
  if (!doc.contains("conclusions")) return;
  const json& list = doc.at("conclusions");
  if (!list.is_array()) bad_doc(file, "field 'conclusions' must be an array");
  std::set<std::string> ids;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = concat({"field 'conclusions[", std::to_string(i), "]"});
    const json& c = list[i];
    if (!c.is_object()) bad_doc(file, {at, "' must be an object {id, cases}"});
    if (!c.contains("id") || !c.at("id").is_string() || c.at("id").get<std::string>().empty())
      bad_doc(file, {at, ".id' must be a non-empty string"});
    const std::string id = c.at("id");
    for (char ch : id)
      if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'))
        bad_doc(file, {at, ".id': '", id, "' may hold only letters, digits and _"});
    if (!ids.insert(id).second) bad_doc(file, {at, ".id': '", id, "' is used twice"});
    if (!c.contains("cases") || !c.at("cases").is_array() || c.at("cases").empty())
      bad_doc(file, {at, ".cases' must be a non-empty array"});
    const json& cases = c.at("cases");
    for (size_t j = 0; j < cases.size(); ++j) {
      const std::string cat = concat({at, ".cases[", std::to_string(j), "]"});
      const json& k = cases[j];
      if (!k.is_object()) bad_doc(file, {cat, "' must be an object {when, text}"});
      if (!is_text_pair(member(k, "text"))) bad_doc(file, {cat, ".text' needs en and zh"});
      const bool last = j + 1 == cases.size();
      if (last && k.contains("when"))
        bad_doc(file, {cat, ".when': the last case is the otherwise case and has no 'when'"});
      if (!last && !k.contains("when")) bad_doc(file, {cat, ".when' is missing: only the last case may have none"});
      if (last) continue;
      const json& w = k.at("when");
      const json conds = w.is_array() ? w : json::array({w});
      if (w.is_array() && w.empty()) bad_doc(file, {cat, ".when' must hold at least one condition"});
      for (size_t n = 0; n < conds.size(); ++n) {
        const std::string wat = concat({cat.substr(std::string("field '").size()), ".when",
                                        (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")});
        const std::string problem = shape_of_condition(conds[n], wat);
        if (!problem.empty())
          bad_doc(file, {"field '", problem.substr(0, problem.find(':')), "'", problem.substr(problem.find(':'))});
      }
    }
  }
}

json choose_conclusions(const json& doc, const json& solved) {
  json out = json::object();
  for (const json& c : member(doc, "conclusions", kNoItems)) {
    const json& cases = c.at("cases");
    size_t pick = cases.size() - 1;
    for (size_t j = 0; j + 1 < cases.size(); ++j)
      if (condition_holds(solved, cases[j].at("when"))) {
        pick = j;
        break;
      }
    out[c.at("id").get<std::string>()] = pick;
  }
  return out;
}

}  // namespace commlab::detail
