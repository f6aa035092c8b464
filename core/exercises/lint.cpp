// Lint: every problem of a document, each naming its path in the file: its shape (unknown
// fields, types, ranges, ids), its texts and conclusions, its solvability (lint_solvable.cpp)
// and its variants.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"
#include "exercises/lint.hpp"
#include "exercises/templates.hpp"

namespace commlab {

using namespace detail;

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

void lint_into(const std::string& file, const std::string& text, std::vector<std::string>& problems) {
  std::unordered_set<std::string> said_lines;
  const Said said = [&](const std::string& message) {
    std::string line = as_line(file, message);  // said once, though two checks find it
    if (said_lines.insert(line).second) problems.push_back(std::move(line));
  };
  json parsed;
  try {
    parsed = parse_exercise_text(file, text);
  } catch (const RequestError& e) {
    said(e.what());
    return;
  }
  if (!schema_into(file, parsed, problems, said)) return;
  Exercise ex{0, json()};
  try {
    ex = read_exercise(file, parsed);
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

}  // namespace commlab
