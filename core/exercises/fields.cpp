// The fields an exercise document may hold, read as strictly as a request (exercises/README.md "Exercise
// documents are untrusted input"): an unknown or misspelled field anywhere is a lint problem
// naming its path and the nearest valid name, since a misspelling silently changes grading
// ("tolerence_rel" would keep 1%, "exakt" would accept "7.05 steps"). The names are those of
// exercises/schema.json (embedded at build time, generated/schema_data.cpp): the document is
// walked beside its schema, so a field added there is accepted here.
#include <algorithm>
#include <string>
#include <vector>

#include "base/concat.hpp"
#include "base/request.hpp"
#include "exercises/internal.hpp"

namespace commlab::detail {

namespace {

using Names = std::vector<std::string>;

std::string key_path(const std::string& path, const std::string& key) {
  return path.empty() ? clip(key) : concat({path, ".", clip(key)});
}

Names ids_of(const json& list) {
  Names out;
  if (!list.is_array()) return out;
  for (const json& x : list)
    if (x.is_object() && x.contains("id") && x.at("id").is_string()) out.push_back(x.at("id"));
  return out;
}

const json& empty_object() {
  static const json e = json::object();
  return e;
}

const json& definitions() {
  static const json& defs = exercise_schema().contains("definitions") && exercise_schema().at("definitions").is_object()
                                ? exercise_schema().at("definitions")
                                : empty_object();
  return defs;
}

// A subschema with its "$ref"s followed ("#/definitions/param"); `def` receives the name of
// the last definition reached. A reference the schema does not hold is an empty schema (the
// schema test keeps every reference resolvable).
const json& resolve(const json& s, std::string* def) {
  const json* at = &s;
  for (int hops = 0; hops < 16 && at->is_object() && at->contains("$ref") && at->at("$ref").is_string(); ++hops) {
    const std::string ref = at->at("$ref");
    const std::string name = ref.substr(ref.rfind('/') + 1);
    const json& defs = definitions();
    const auto it = defs.find(name);
    if (it == defs.end()) return empty_object();
    at = &*it;
    if (def) *def = name;
  }
  return at->is_object() ? *at : empty_object();
}

bool has_type(const json& s, const char* type) {
  const auto t = s.find("type");
  if (t == s.end()) return false;
  if (t->is_string()) return *t == type;
  if (t->is_array())
    for (const json& x : *t)
      if (x == type) return true;
  return false;
}

// The names of an object kind's fields, in the order nearest_or_allowed lists them.
Names field_names(const json& properties) {
  Names out;
  for (auto it = properties.begin(); it != properties.end(); ++it) out.push_back(it.key());
  return out;
}

class Walk {
 public:
  Walk(const json& doc, std::vector<std::string>& out) : doc_(doc), out_(out) {}

  // `v` at `path` against subschema `s`; `parent` is the object holding `v`.
  void at(const json& v, const json& s_in, const std::string& path, const json* parent) {
    std::string def;
    const json& s = resolve(s_in, &def);
    if (!v.is_structured()) return;  // a value's type is checked by the code that reads it
    // One of several forms ("a condition or an array of them", "a number, an expression or
    // an object"): the one of the value's JSON type.
    for (const char* alternatives : {"anyOf", "oneOf"}) {
      const auto list = s.find(alternatives);
      if (list == s.end() || !list->is_array() || s.contains("properties") || s.contains("items")) continue;
      for (const json& b : *list) {
        const json& r = resolve(b, nullptr);
        if (v.is_object() ? has_type(r, "object") : has_type(r, "array")) return at(v, b, path, parent);
      }
      return;
    }
    if (v.is_array()) {
      const auto items = s.find("items");
      if (items != s.end() && items->is_object())
        for (size_t i = 0; i < v.size(); ++i) at(v[i], *items, concat({path, "[", std::to_string(i), "]"}), &v);
      return;
    }
    const json& properties = s.contains("properties") && s.at("properties").is_object() ? s.at("properties") : empty_object();
    const auto extra = s.find("additionalProperties");
    if (extra != s.end() && *extra == false) {
      const Names allowed = field_names(properties);
      for (auto it = v.begin(); it != v.end(); ++it)
        if (!properties.contains(it.key()))
          out_.push_back(
              concat({key_path(path, it.key()), ": unknown field; ", nearest_or_allowed(it.key(), allowed)}));
    }
    keyed_map(v, def, path, parent);
    for (auto it = v.begin(); it != v.end(); ++it) {
      const auto p = properties.find(it.key());
      if (p != properties.end()) at(it.value(), *p, key_path(path, it.key()), &v);
      else if (extra != s.end() && extra->is_object()) at(it.value(), *extra, key_path(path, it.key()), &v);
    }
  }

 private:
  // Maps whose keys name something of the document rather than fields (schema definitions
  // preset, aliases, choice_labels, computed_answers, computed_ranges): a key naming nothing.
  void keyed_map(const json& v, const std::string& def, const std::string& path, const json* parent) {
    Names names;
    std::string what;
    if (def == "preset") {
      names = ids_of(member(doc_, "params"));
      what = "not a param";
    } else if (def == "aliases" || def == "choice_labels") {
      if (parent && parent->is_object() && member(*parent, "choices").is_array())
        for (const json& c : parent->at("choices"))
          if (c.is_string()) names.push_back(c);
      if (names.empty()) return;  // no choices: the answer's own problem, said where its choices are checked
      what = "not one of the answer's choices";
    } else if (def == "computed_answers" || def == "computed_ranges") {
      names = ids_of(member(doc_, "answers"));
      what = "not an answer id";
    } else {
      return;
    }
    for (auto it = v.begin(); it != v.end(); ++it)
      if (std::find(names.begin(), names.end(), it.key()) == names.end())
        out_.push_back(concat({key_path(path, it.key()), ": ", what, "; ", nearest_or_allowed(it.key(), names)}));
  }

  const json& doc_;
  std::vector<std::string>& out_;
};

}  // namespace

// Optimal string alignment: a swap of two letters ("whne") is one edit, as a typo is.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest_or_allowed(const std::string& name, const std::vector<std::string>& allowed) {
  std::string best;
  size_t best_d = 0;
  if (name.size() <= 200)  // a long name is near nothing; the distance stays cheap
    for (const std::string& a : allowed) {
      const size_t d = edit_distance(name, a);
      if (best.empty() || d < best_d) {
        best = a;
        best_d = d;
      }
    }
  // Close: at most a third of the name's letters differ (one typo in "exakt", two in "tolerence_rel").
  if (!best.empty() && best_d <= std::max<size_t>(1, std::min(name.size(), best.size()) / 3))
    return concat({"did you mean \"", best, "\"?"});
  // Or cut short ("alpha" for "alpha_s"): the one name it begins.
  std::string prefix_of;
  int begun = 0;
  for (const std::string& a : allowed)
    if (name.size() >= 3 && a.size() > name.size() && a.compare(0, name.size(), name) == 0) {
      prefix_of = a;
      ++begun;
    }
  if (begun == 1) return concat({"did you mean \"", prefix_of, "\"?"});
  return "allowed: " + join(allowed, ", ");
}

const json& exercise_schema() {
  static json schema = parse_json(exercise_schema_text());  // not const: tests/unit_schema.cpp edits it
  return schema;
}

std::vector<std::string> unknown_fields(const json& doc) {
  std::vector<std::string> out;
  Walk(doc, out).at(doc, exercise_schema(), "", nullptr);
  return out;
}

}  // namespace commlab::detail
