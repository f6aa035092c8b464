// Reading one exercise document (fields, types, its compute section), lint, and the document a page shows.
#include "base/concat.hpp"
#include "exercises/exercises.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>

#include "base/error.hpp"
#include "base/quantity.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/declared.hpp"
#include "exercises/internal.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

namespace {

bool is_string_list(const json& j) {
  if (!j.is_array() || j.empty()) return false;
  for (const json& x : j)
    if (!x.is_string()) return false;
  return true;
}

// Every field code reads has its type and range checked here, so a wrong type is a problem
// named by its path, never a library exception (SPEC "Exercise documents are untrusted input").
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

json parse_doc(const std::string& file, const std::string& text) { return parse_exercise_text(file, text); }

Exercise load_one(const std::string& file, const json& doc) {
  if (!doc.is_object() || !doc.contains("id") || !doc.at("id").is_number_integer() ||
      doc.at("id").get<double>() < 1 || doc.at("id").get<double>() > kMaxExerciseId)
    bad_doc(file, {"field 'id' is ", show_value(doc.is_object() ? member(doc, "id") : json()),
                   "; allowed: an integer from 1 to ", std::to_string(kMaxExerciseId)});
  // Read as strictly as a request: a misspelled field would silently change grading.
  const std::vector<std::string> unknown = unknown_fields(doc);
  if (!unknown.empty())
    bad_doc(file, {unknown.front(), (unknown.size() > 1 ? concat({" (and ", std::to_string(unknown.size() - 1),
                                                                  " more: commlab exercise lint lists them)"})
                                                        : "")});
  check_schema_reference(file, doc);
  for (const char* f : {"title", "statement", "solution"})
    if (!is_text_pair(member(doc, f))) bad_doc(file, {"field '", f, "' needs en and zh"});
  if (!member(doc, "params").is_array()) bad_doc(file, "field 'params' must be an array");
  if (!member(doc, "answers").is_array() || doc.at("answers").empty())
    bad_doc(file, "field 'answers' must be a non-empty array");
  const json& hints = member(doc, "hints");
  if (!hints.is_object() || !member(hints, "en").is_array() || !member(hints, "zh").is_array())
    bad_doc(file, "field 'hints' needs en and zh arrays");
  for (size_t i = 0; i < doc.at("params").size(); ++i) check_param_def(file, doc.at("params")[i], i);
  for (size_t i = 0; i < doc.at("answers").size(); ++i) check_answer_def(file, doc.at("answers")[i], i);
  check_variant(file, doc);
  check_conclusions(file, doc);
  const int id = doc.at("id");
  // "compute": answers declared as requests and arithmetic over the params, JSON only (no C++).
  if (!doc.contains("compute"))
    bad_doc(file, "field 'compute' is missing; allowed: a compute section saying how every answer is computed "
                  "(README \"Adding an exercise\")");
  check_compute(file, doc);
  return Exercise{id, doc};
}

}  // namespace

Exercise detail::read_exercise(const std::string& file, const json& doc) { return load_one(file, doc); }

json parse_exercise_text(const std::string& file, const std::string& text) {
  if (text.size() > kMaxDocumentBytes)
    bad_doc(file, {"the document is ", std::to_string(text.size()), " bytes; allowed: at most ",
                   std::to_string(kMaxDocumentBytes), " (256 KB)"});
  // Before parsing: nothing after the parser should see (and recurse over) a deeper value.
  if (text_nesting_depth(text, kMaxDocumentDepth) > kMaxDocumentDepth)
    bad_doc(file, {"the document nests more than ", std::to_string(kMaxDocumentDepth),
                   " levels of arrays and objects; allowed: at most ", std::to_string(kMaxDocumentDepth)});
  try {
    return parse_json(text);
  } catch (const json::exception& e) {
    bad_doc(file, {"not valid JSON: ", e.what()});
  }
}

namespace {

// "{name}" placeholders left in a filled text (names nothing): "{values.lnk_note}". Braces in
// $...$ math are TeX groups ("$\beta_\text{NIC}$"), not placeholders.
std::vector<std::string> unbound_placeholders(const std::string& text_in) {
  std::string text = text_in;
  for (size_t open = text.find('$'); open != std::string::npos; open = text.find('$', open + 1)) {
    const size_t close = text.find('$', open + 1);
    if (close == std::string::npos) break;
    for (size_t k = open; k <= close; ++k) text[k] = ' ';
    open = close;
  }
  std::vector<std::string> out;
  size_t i = 0;
  while ((i = text.find('{', i)) != std::string::npos) {
    const size_t close = text.find('}', i);
    if (close == std::string::npos) break;
    const std::string name = text.substr(i + 1, close - i - 1);
    bool word = !name.empty();
    for (char c : name) word = word && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':');
    if (word) out.push_back(concat({"{", name, "}"}));
    i = close;
  }
  return out;
}

}  // namespace

namespace {

// bad_doc says "exercises/<file>: field 'x.y' must be ..."; a lint line reads "x.y: must be ...".
std::string as_line(const std::string& file, const std::string& message) {
  const std::string prefix = concat({"exercises/", file, ": "});
  std::string m = message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
  if (m.rfind("field '", 0) == 0) {
    const size_t close = m.find('\'', 7);
    if (close != std::string::npos) {
      std::string rest = m.substr(close + 1);
      while (!rest.empty() && (rest[0] == ':' || rest[0] == ' ')) rest.erase(0, 1);
      m = concat({m.substr(7, close - 7), ": ", rest});
    }
  }
  return capped_message(m);
}

using Said = std::function<void(const std::string&)>;

// Everything about the document's shape, every problem collected (not only the first): unknown
// fields, types, ranges, duplicate ids, a built-in id. True when there is none.
bool schema_into(const std::string& file, const json& doc, std::vector<std::string>& problems, const Said& said) {
  const size_t before = problems.size();
  if (!doc.is_object()) {
    said("(document): must be a JSON object {id, title, statement, params, answers, ...}");
    return false;
  }
  for (const std::string& p : unknown_fields(doc)) said(p);
  auto attempt = [&](const std::function<void()>& f) {
    try {
      f();
    } catch (const RequestError& e) {
      said(e.what());
    } catch (const json::exception& e) {
      said(std::string("a field has the wrong type: ") + e.what());
    }
  };
  const json& id = member(doc, "id");
  if (!id.is_number_integer() || id.get<double>() < 1 || id.get<double>() > kMaxExerciseId) {
    said(concat({"id: is ", show_value(id), "; allowed: an integer from 1 to ", std::to_string(kMaxExerciseId)}));
  } else {
    // A built-in number is refused by exercise.load; only the built-in file itself may use it.
    const std::string owner = lecture_file(id.get<int>());
    if (!owner.empty() && owner != file)
      said(concat({"id: exercise ", std::to_string(id.get<int>()), " is built in (exercises/", owner,
                   "); allowed: a number from 1 to ", std::to_string(kMaxExerciseId),
                   " that no built-in exercise uses"}));
  }
  for (const char* f : {"title", "statement", "solution"})
    if (!is_text_pair(doc.value(f, json()))) said(std::string(f) + ": needs en and zh texts; allowed: {\"en\": \"...\", \"zh\": \"...\"}");
  const json& hints = member(doc, "hints");
  if (!hints.is_object() || !member(hints, "en").is_array() || !member(hints, "zh").is_array())
    said("hints: needs en and zh arrays; allowed: {\"en\": [\"...\"], \"zh\": [\"...\"]}");
  const json& params = member(doc, "params");
  const json& answers = member(doc, "answers");
  if (!params.is_array()) said("params: must be an array of param definitions");
  if (!answers.is_array() || answers.empty()) said("answers: must be a non-empty array of answer definitions");
  for (size_t i = 0; params.is_array() && i < params.size(); ++i) attempt([&] { check_param_def(file, params[i], i); });
  for (size_t i = 0; answers.is_array() && i < answers.size(); ++i) attempt([&] { check_answer_def(file, answers[i], i); });
  attempt([&] { check_schema_reference(file, doc); });
  attempt([&] { check_variant(file, doc); });
  attempt([&] { check_conclusions(file, doc); });
  // Ids: params, answers and computed values share one scope ("$name"), so each is unique; but
  // a value may carry the id of an answer given as that value ("answers": {"x": "$x"}): the one
  // figure is then in both answers and values, and "$x" means it before and after the answer.
  std::map<std::string, std::string> seen;
  const json& computed = member(doc, "compute").is_object() ? member(doc.at("compute"), "answers") : json();
  auto unique = [&](const json& list, const std::string& where) {
    for (size_t i = 0; list.is_array() && i < list.size(); ++i) {
      if (!list[i].is_object() || !member(list[i], "id").is_string()) continue;
      const std::string n = list[i].at("id");
      const std::string at = concat({where, "[", std::to_string(i), "]"});
      const auto [it, fresh] = seen.emplace(n, at);
      const bool answer_is_value = where == "compute.values" && it->second.rfind("answers[", 0) == 0 &&
                                   computed.is_object() && computed.value(n, json()) == json("$" + n);
      if (!fresh && !answer_is_value)
        said(concat({at, ".id: ", quoted(n), " is also the id of ", it->second,
                     "; allowed: an id used once (a value may share an answer's id when that answer is \"$id\")"}));
    }
  };
  unique(params, "params");
  unique(answers, "answers");
  if (member(doc, "compute").is_object()) unique(member(doc.at("compute"), "values"), "compute.values");
  return problems.size() == before;
}

std::string show_number(double x) {
  if (std::isnan(x)) return "not a number (NaN: 0/0 or a root of a negative?)";
  if (std::isinf(x)) return std::string(x > 0 ? "" : "-") + "infinite (a division by zero?)";
  return num(x);
}

// A side of a condition as written: params.devices, >, 5000.
std::string side(const json& v) {
  if (!v.is_string()) return show_value(v);
  const std::string q = quoted(v.get<std::string>());
  return q.substr(1, q.size() - 2);
}

std::string params_text(const json& p) {
  std::vector<std::string> parts;
  for (auto it = p.begin(); it != p.end(); ++it)
    parts.push_back(
        concat({it.key(), " = ", (it.value().is_number() ? num(it.value().get<double>()) : show_value(it.value()))}));
  return join(parts, ", ");
}

// What is wrong with the answers at one point: not computable, not finite, an exact count not
// whole; {key, "path: what"}. `solved` receives the solution when it is computed.
std::vector<std::pair<std::string, std::string>> point_problems(const Exercise& ex, const json& params, json* solved) {
  std::vector<std::pair<std::string, std::string>> out;
  try {
    *solved = solve_exercise(ex, params);
  } catch (const RequestError& e) {
    if (document_work_exhausted()) throw;
    std::string m = e.what();
    const std::string head = concat({"exercise ", std::to_string(ex.id), ", "});
    if (m.rfind(head, 0) == 0) m = m.substr(head.size());
    const size_t colon = m.find(": ");
    const std::string path = colon == std::string::npos ? "answers" : m.substr(0, colon);
    out.push_back({path + "#solve",
                   concat({path, ": cannot be computed", (colon == std::string::npos ? ": " + m : m.substr(colon))})});
    *solved = json();
    return out;
  } catch (const json::exception& e) {  // a figure of the wrong kind read
    out.push_back({"answers#json", std::string("answers: cannot be computed: ") + e.what()});
    *solved = json();
    return out;
  }
  const json& answers = ex.doc.at("answers");
  for (size_t i = 0; i < answers.size(); ++i) {
    const std::string id = answers[i].at("id");
    const json& v = solved->at("answers").at(id);
    if (!v.is_number()) continue;
    const double x = v.get<double>();
    const std::string path =
        ex.doc.contains("compute") ? "compute.answers." + id : concat({"answers[", std::to_string(i), "]"});
    if (!std::isfinite(x))
      out.push_back({path + "#finite", concat({path, ": is ", show_number(x), "; allowed: a finite number"})});
    else if (answers[i].value("exact", false) && x != std::floor(x))
      out.push_back({path + "#exact", concat({path, ": an exact count (answers[", std::to_string(i), "].exact) is ",
                                              num(x), "; allowed: a whole number, or no \"exact\""})});
  }
  return out;
}

// Solvable: the answers at the defaults, at both ends of every param's range (the others at
// their defaults) and at 50 drawn variants; every constraint met by some draw.
void solvability_into(const Exercise& ex, const json& defaults, const Said& said) {
  const size_t kDraws = 50;
  std::set<std::string> reported;
  json solved;
  auto report_at = [&](const json& params, const std::string& where) {
    for (const auto& [key, line] : point_problems(ex, params, &solved))
      if (reported.insert(key).second) {
        const size_t colon = line.find(": ");
        said(concat({line.substr(0, colon), ": at ", where, ", ", line.substr(colon + 2)}));
      }
  };
  report_at(defaults, "the defaults");
  const json& params = ex.doc.at("params");
  for (size_t i = 0; i < params.size(); ++i) {
    const json& def = params[i];
    const std::string id = def.at("id");
    std::vector<std::pair<json, std::string>> ends;
    if (def.at("kind") == "choice") {
      for (const json& c : def.at("choices"))
        ends.push_back({c, concat({"params[", std::to_string(i), "] ", id, " = ", c.get<std::string>()})});
    } else {
      const json list = def.contains("one_of") ? def.at("one_of") : json::array({def.at("min"), def.at("max")});
      for (const json& x : list)
        ends.push_back({x, concat({id, " = ", num(x.get<double>()), " (params[", std::to_string(i), "] ",
                                   (def.contains("one_of") ? "one_of"
                                    : x == def.at("min")   ? "min"
                                                           : "max"),
                                   ")"})});
    }
    for (const auto& [x, where] : ends) {
      json p = defaults;
      p[id] = x;
      report_at(p, where);
    }
  }
  // Drawn variants: failures counted, the first named with its params.
  std::map<std::string, std::pair<int, std::string>> at_draws;  // key -> (count, first line)
  std::vector<std::string> order;
  const json& constraints = member(member(ex.doc, "variant", kNoMembers), "constraints", kNoItems);
  std::vector<int> holds(constraints.size(), 0);
  int drawn = 0, solved_draws = 0;
  for (std::uint64_t seed = 1; seed <= kDraws; ++seed) {
    const json p = draw_params(ex, seed);
    if (p.is_null()) continue;
    ++drawn;
    for (const auto& [key, line] : point_problems(ex, p, &solved)) {
      if (reported.count(key)) continue;
      auto& slot = at_draws[key];
      if (slot.first++ == 0) {
        order.push_back(key);
        const size_t colon = line.find(": ");
        slot.second = concat({line.substr(0, colon), ": at drawn variants (first: seed ", std::to_string(seed), ", ",
                              params_text(p), "), ", line.substr(colon + 2)});
      }
    }
    if (solved.is_null()) continue;
    ++solved_draws;
    for (size_t i = 0; i < constraints.size(); ++i) {
      try {
        holds[i] += condition_holds(solved, constraints[i]) ? 1 : 0;
      } catch (const std::exception&) {
        if (document_work_exhausted()) throw;
      }
    }
  }
  for (const std::string& key : order) {
    const auto& [count, line] = at_draws.at(key);
    const size_t at = line.find(": at drawn variants");
    said(concat(
        {line.substr(0, at), ": at ", std::to_string(count), " of ", std::to_string(drawn), " ", line.substr(at + 5)}));
  }
  if (solved_draws == 0) return;
  for (size_t i = 0; i < constraints.size(); ++i)
    if (holds[i] == 0)
      said(concat({"variant.constraints[", std::to_string(i), "]: no drawn variant satisfies it (0 of ",
                   std::to_string(solved_draws), " draws: ", side(member(constraints[i], "left")), " ",
                   side(member(constraints[i], "op")), " ", side(member(constraints[i], "right")),
                   "); allowed: a condition some params within min, max and nice meet"}));
}

void lint_into(const std::string& file, const std::string& text, std::vector<std::string>& problems) {
  const Said said = [&](const std::string& message) {
    const std::string line = as_line(file, message);  // said once, though two checks find it
    if (std::find(problems.begin(), problems.end(), line) == problems.end()) problems.push_back(line);
  };
  json parsed;
  try {
    parsed = parse_doc(file, text);
  } catch (const RequestError& e) {
    said(e.what());
    return;
  }
  if (!schema_into(file, parsed, problems, said)) return;
  Exercise ex{0, json()};
  try {
    ex = load_one(file, parsed);
  } catch (const RequestError& e) {
    said(e.what());
    return;
  }
  const json& doc = ex.doc;
  // Schema beyond what loading checks: texts of the hints in both languages, labels of choices.
  for (const char* lang : {"en", "zh"}) {
    const json& list = doc.at("hints").at(lang);
    for (size_t i = 0; i < list.size(); ++i)
      if (!list[i].is_string() || list[i].get<std::string>().empty())
        said(concat({"hints.", lang, "[", std::to_string(i), "]: must be a non-empty text"}));
  }
  if (doc.at("hints").at("en").size() != doc.at("hints").at("zh").size())
    said("hints: en and zh must have as many hints");
  json defaults, solved;
  try {
    defaults = resolve_params(ex, json::object());
    solved = solve_exercise(ex, defaults);
  } catch (const RequestError& e) {
    said(std::string("default answers cannot be computed: ") + e.what());
    return;
  }
  for (const char* part : {"statement", "solution"})
    for (const char* lang : {"en", "zh"})
      for (const std::string& p : unbound_placeholders(solved.at(part).at(lang).get<std::string>()))
        said(concat({part, ".", lang, ": placeholder ", p, " names no param, answer or value"}));
  for (const json& def : doc.at("answers")) {
    const std::string id = def.at("id");
    const json& v = solved.at("answers").at(id);
    if (v.is_string() && is_choice_answer(def)) {
      const auto c = choices_of(def);
      if (std::find(c.begin(), c.end(), v.get<std::string>()) == c.end())
        said(concat({"compute.answers.", id, ": gives ", quoted(v.get<std::string>()),
                     ", not one of its choices; allowed: ", join(c, ", ")}));
    }
  }
  // Conclusions: every condition names figures of the right kinds, every case's text fills
  // (not only the case the lecture's params pick), every conclusion is said somewhere.
  const json figures = figures_of(solved.at("params"), solved.at("answers"), solved.at("values"));
  const TemplateContext ctx{ex, defaults, &solved.at("answers"), &solved.at("display"), &solved.at("values"),
                            &solved.at("conclusions")};
  std::string all_texts = doc.at("solution").dump();  // raw: where {conclusions.x} are said
  const json& conclusions = member(doc, "conclusions", kNoItems);
  for (size_t i = 0; i < conclusions.size(); ++i) {
    const std::string at = concat({"conclusions[", std::to_string(i), "]"});
    const json& cases = conclusions[i].at("cases");
    for (size_t j = 0; j < cases.size(); ++j) {
      const std::string cat = concat({at, ".cases[", std::to_string(j), "]"});
      if (cases[j].contains("when")) {
        const json& w = cases[j].at("when");
        const json conds = w.is_array() ? w : json::array({w});
        for (size_t n = 0; n < conds.size(); ++n)
          for (const std::string& p :
               condition_problems(figures, conds[n],
                                  concat({cat, ".when", (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")})))
            said(p);
      }
      const json filled = fill_pair(cases[j].at("text"), ctx);
      all_texts += cases[j].at("text").dump();
      for (const char* lang : {"en", "zh"})
        for (const std::string& p : unbound_placeholders(filled.at(lang).get<std::string>()))
          said(concat({cat, ".text.", lang, ": placeholder ", p, " names no param, answer, value or conclusion"}));
    }
  }
  for (size_t i = 0; i < conclusions.size(); ++i)
    if (all_texts.find(concat({"{conclusions.", conclusions[i].at("id").get<std::string>(), "}"})) == std::string::npos)
      said(concat({"conclusions[", std::to_string(i), "]: '", conclusions[i].at("id").get<std::string>(),
                   "' is said nowhere (no {conclusions.", conclusions[i].at("id").get<std::string>(),
                   "} in the solution)"}));
  const json& variant = member(doc, "variant", kNoMembers);
  const json& constraints = member(variant, "constraints", kNoItems);
  bool constraints_ok = true;
  for (size_t i = 0; i < constraints.size(); ++i)
    for (const std::string& p :
         condition_problems(figures, constraints[i], concat({"variant.constraints[", std::to_string(i), "]"}))) {
      said(p);
      constraints_ok = false;
    }
  if (!constraints_ok) return;
  const size_t before = problems.size();
  solvability_into(ex, defaults, said);
  if (problems.size() != before) return;  // the draws below would only restate it, slowly
  // Variants: several seeds must draw fresh params, each within the constraints.
  int fresh = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    try {
      const json p = variant_params(ex, seed);
      if (p != defaults) ++fresh;
    } catch (const RequestError& e) {
      said(concat({"variant: seed ", std::to_string(seed), ": ", e.what()}));
      break;
    }
  }
  if (fresh == 0)
    said("variant: no seed draws params other than the lecture's that meet every constraint together, with "
         "every answer positive and judged correct; allowed: params (min, max, nice) and constraints some draw meets");
}

}  // namespace

std::vector<std::string> lint_exercise(const std::string& file, const std::string& text) {
  // One budget for everything lint runs: the defaults, every variant drawn.
  DocumentWork work;
  std::vector<std::string> problems;
  try {
    lint_into(file, text, problems);
  } catch (const RequestError& e) {
    problems.push_back(capped_message(e.what()));
  } catch (const json::exception& e) {
    problems.push_back(capped_message(std::string("a field has the wrong type or is missing: ") + e.what()));
  } catch (const std::bad_alloc&) {
    problems.push_back("the document needs more memory than the engine may use");
  } catch (const std::exception& e) {
    problems.push_back(capped_message(std::string("the document cannot be checked: ") + e.what()));
  }
  return problems;
}

std::vector<std::vector<std::string>> lint_exercise_files(
    const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::vector<std::string>> out;
  std::map<int, std::string> owners;  // id -> the first file that uses it
  std::map<int, std::string> installed;  // id -> the installed file that holds it
  for (const Exercise& ex : exercises())
    if (!ex.file.empty()) installed.emplace(ex.id, ex.file);
  for (const auto& [file, text] : files) {
    out.push_back(lint_exercise(file, text));
    try {
      const json doc = parse_exercise_text(file, text);
      const json& id = doc.is_object() ? member(doc, "id") : json();
      if (!id.is_number_integer() || id.get<double>() < 1 || id.get<double>() > kMaxExerciseId) continue;
      const auto [it, fresh] = owners.emplace(id.get<int>(), file);
      const auto other = installed.find(id.get<int>());
      if (!fresh)
        out.back().push_back(concat({"id: exercise ", std::to_string(id.get<int>()), " is also the id of ", it->second,
                                     "; allowed: one file per id"}));
      else if (other != installed.end() && other->second != file)
        out.back().push_back(concat({"id: exercise ", std::to_string(id.get<int>()), " is also the id of exercises/",
                                     other->second, ", installed; allowed: one file per id"}));
    } catch (const std::exception&) {
      // lint_exercise has said why it cannot be read
    }
  }
  return out;
}

json exercise_document(const Exercise& ex, const json& params) {
  json doc = ex.doc;
  doc.erase("$schema");  // for editors of the file, not for the page
  for (json& a : doc.at("answers")) {
    if (a.contains("rule")) continue;
    a["rule"] = answer_rule(a);
  }
  // The statement may name hardware from the compute section's values (a link's label only when the
  // params are its figures), so it is filled as exercise.solve fills it.
  const ExerciseSolution s = solve_declared(ex.doc, params);
  const json values = s.values.is_object() ? s.values : json::object();
  const TemplateContext c{ex, params, nullptr, nullptr, &values};
  doc["statement_filled"] = fill_pair(ex.doc.at("statement"), c, "statement");
  doc["params_display"] = params_display(ex, params);
  return doc;
}

}  // namespace commlab
