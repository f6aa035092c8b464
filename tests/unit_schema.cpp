// exercises/schema.json is the one description of an exercise document (exercises/README.md "Exercise documents
// are untrusted input"): lint and exercise.load take their field names from it, and here the C++
// checks and the schema are held to each other. Over every object kind of a document, every field
// the schema allows is accepted and every other is refused with its nearest name; the schema's
// enums (kinds, dimensions, units, comparisons, ops, collectives, response fields) are what the
// engine accepts. tests/node/schema.test.mjs validates the documents with a standard validator.
#include <gtest/gtest.h>

#include "test_files.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"
#include "api/ops.hpp"
#include "base/quantity.hpp"
#include "exercises/internal.hpp"
#include "model/collectives.hpp"

using nlohmann::json;

namespace {

std::string read(const std::string& path) { return commlab_test::read_file(path); }

const json& file_schema() {
  static const json s = json::parse(read(COMMLAB_SOURCE_DIR "/exercises/schema.json"));
  return s;
}

const json& def(const std::string& name) { return file_schema().at("definitions").at(name); }

// What CMake keeps when it embeds the schema: the keywords the engine's walk reads
// (core/exercises/fields.cpp), every name under properties and definitions.
json as_walked(const json& j) {
  if (j.is_array()) {
    json out = json::array();
    for (const json& x : j) out.push_back(as_walked(x));
    return out;
  }
  if (!j.is_object()) return j;
  static const std::set<std::string> walked = {
      "$ref", "type", "anyOf", "oneOf", "items", "properties", "additionalProperties", "definitions"};
  json out = json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "properties" || it.key() == "definitions") {
      json& names = out[it.key()] = json::object();
      for (auto n = it.value().begin(); n != it.value().end(); ++n) names[n.key()] = as_walked(n.value());
    } else if (walked.count(it.key())) {
      out[it.key()] = as_walked(it.value());
    }
  }
  return out;
}

std::set<std::string> strings(const json& list) {
  std::set<std::string> out;
  for (const json& x : list) out.insert(x.get<std::string>());
  return out;
}

std::vector<std::string> names_of(const json& properties) {
  std::vector<std::string> out;
  for (auto it = properties.begin(); it != properties.end(); ++it) out.push_back(it.key());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

json eval(const json& request) { return commlab::evaluate(request); }
json load(const json& doc) { return eval({{"op", "exercise.load"}, {"file", "41.json"}, {"doc", doc}}); }
json lint(const json& doc) { return eval({{"op", "exercise.lint"}, {"file", "41.json"}, {"text", doc.dump()}}); }
std::string load_message(const json& doc) {
  const json out = load(doc);
  return out.contains("error") ? out.at("error").at("message").get<std::string>() : "";
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The ninth exercise of the fixtures, renumbered, with aliases and a conclusion: it loads.
json loadable_doc() {
  json doc = json::parse(read(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json"));
  doc["id"] = 41;
  doc["answers"][2]["aliases"] = {{"ring", {"环"}}};
  doc["conclusions"] = {
      {{"id", "winner"},
       {"cases",
        {{{"when", {{"left", "answers.best"}, {"op", "=="}, {"right", "ring"}}}, {"text", {{"en", "Ring."}, {"zh", "环。"}}}},
         {{"text", {{"en", "Doubling."}, {"zh", "加倍。"}}}}}}}};
  doc["solution"]["en"] = doc["solution"]["en"].get<std::string>() + " {conclusions.winner}";
  doc["solution"]["zh"] = doc["solution"]["zh"].get<std::string>() + "{conclusions.winner}";
  return doc;
}

// And every object kind the schema describes that it lacks: a `cases` figure (an array of
// conditions) and a `compute.ranges` entry.
json full_doc() {
  json doc = loadable_doc();
  doc["compute"]["values"].push_back(
      {{"id", "faster"},
       {"cases",
        {{{"when", {{{"left", "values.ring_time_s"}, {"op", "<"}, {"right", "values.rd_time_s"}}}}, {"value", "yes"}},
         {{"value", "no"}}}}});
  doc["compute"]["ranges"] = {
      {"ring", {{"when", {{"left", "params.devices"}, {"op", ">"}, {"right", 2}}}, {"lo", "$ring_time_s * 0.9"}, {"hi", "$ring_time_s"}}}};
  return doc;
}

// Where each object kind (a schema definition whose fields are closed) is found in full_doc();
// a kind may be listed at several places, every one checked.
const std::vector<std::pair<std::string, std::string>>& places() {
  static const std::vector<std::pair<std::string, std::string>> p = {
      {"", "(document)"},
      {"/title", "text"},
      {"/params/0/label", "text"},
      {"/answers/2/choice_labels/ring", "text"},
      {"/variant/constraints/0/why", "text"},
      {"/compute/values/1/text", "text"},
      {"/statement", "template"},
      {"/solution", "template"},
      {"/conclusions/0/cases/0/text", "template"},
      {"/hints", "hints"},
      {"/params/0", "param"},
      {"/answers/0", "answer"},
      {"/variant", "variant"},
      {"/variant/constraints/0", "constraint"},
      {"/conclusions/0/cases/0/when", "condition"},
      {"/compute/values/8/cases/0/when/0", "condition"},
      {"/compute/ranges/ring/when", "condition"},
      {"/compute", "compute"},
      {"/compute/values/0", "value"},
      {"/compute/values/8", "value"},
      {"/compute/answers/best", "figure_object"},
      {"/compute/ranges/ring", "range"},
      {"/compute/values/8/cases/0", "figure_case"},
      {"/conclusions/0", "conclusion"},
      {"/conclusions/0/cases/0", "conclusion_case"},
  };
  return p;
}

const json& kind_schema(const std::string& kind) { return kind == "(document)" ? file_schema() : def(kind); }

// A JSON pointer as lint writes the path: /compute/values/8/cases/0 -> compute.values[8].cases[0].
std::string lint_path(const json& doc, const std::string& pointer) {
  std::string path;
  const json* at = &doc;
  std::stringstream tokens(pointer);
  std::string token;
  std::getline(tokens, token, '/');  // before the first '/'
  while (std::getline(tokens, token, '/')) {
    if (at->is_array()) {
      path += "[" + token + "]";
      at = &at->at(std::stoul(token));
    } else {
      path += (path.empty() ? "" : ".") + token;
      at = &at->at(token);
    }
  }
  return path;
}

std::string with(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// A typo of `name`: two letters in its middle swapped ("kind" -> "knid", "id" -> "di").
std::string misspelled(const std::string& name) {
  std::string m = name;
  const size_t i = name.size() >= 3 ? name.size() / 2 - 1 : 0;
  std::swap(m[i], m[i + 1]);
  return m;
}

// Every subschema of the file, depth first.
void each_schema(const json& s, const std::function<void(const json&)>& f) {
  if (s.is_object()) {
    f(s);
    for (auto it = s.begin(); it != s.end(); ++it)
      if (it.key() != "enum" && it.key() != "const" && it.key() != "defaultSnippets") each_schema(it.value(), f);
  } else if (s.is_array()) {
    for (const json& x : s) each_schema(x, f);
  }
}

}  // namespace

TEST(Schema, TheEngineHoldsWhatItsWalkReadsOfTheFile) {
  EXPECT_EQ(commlab::detail::exercise_schema(), as_walked(file_schema()));
  // A property named like a keyword (a param's "default") is a field name, kept.
  EXPECT_TRUE(commlab::detail::exercise_schema().at("definitions").at("param").at("properties").contains("default"));
  EXPECT_EQ(std::string(commlab::detail::exercise_schema_text()).find("\"description\""), std::string::npos);
}

TEST(Schema, EveryReferenceNamesADefinitionAndEveryDefinitionIsUsed) {
  std::set<std::string> used;
  each_schema(file_schema(), [&](const json& s) {
    if (!s.contains("$ref")) return;
    const std::string ref = s.at("$ref");
    ASSERT_EQ(ref.rfind("#/definitions/", 0), 0u) << ref;
    const std::string name = ref.substr(14);
    EXPECT_TRUE(file_schema().at("definitions").contains(name)) << ref;
    used.insert(name);
  });
  for (auto it = file_schema().at("definitions").begin(); it != file_schema().at("definitions").end(); ++it)
    EXPECT_TRUE(used.count(it.key())) << "definition " << it.key() << " is used nowhere";
}

// The table of places names every object kind whose fields the schema closes, so a new kind
// is checked below as soon as it is placed.
TEST(Schema, ThePlacesCoverEveryObjectKind) {
  std::set<std::string> closed = {"(document)"}, placed;
  for (auto it = file_schema().at("definitions").begin(); it != file_schema().at("definitions").end(); ++it)
    if (it.value().value("additionalProperties", json()) == false) closed.insert(it.key());
  for (const auto& [pointer, kind] : places()) placed.insert(kind);
  EXPECT_EQ(placed, closed);
  const json doc = full_doc();
  for (const auto& [pointer, kind] : places())
    EXPECT_TRUE(doc.contains(json::json_pointer(pointer)) && doc.at(json::json_pointer(pointer)).is_object()) << pointer;
  EXPECT_EQ(commlab::detail::unknown_fields(doc), std::vector<std::string>());
  const json linted = lint(doc);  // held: a range-for over a temporary's member would dangle
  for (const json& p : linted.at("problems")) EXPECT_FALSE(has(p, "unknown field")) << p;
}

TEST(Schema, EveryFieldItAllowsIsAcceptedEveryOtherRefusedWithItsNearestName) {
  const json base = full_doc();
  int checked = 0;
  for (const auto& [pointer, kind] : places()) {
    const json::json_pointer at(pointer);
    const std::string path = lint_path(base, pointer);
    const std::vector<std::string> allowed = names_of(kind_schema(kind).at("properties"));
    ASSERT_FALSE(allowed.empty()) << kind;
    for (const std::string& f : allowed) {
      // Allowed: present (it may still be of the wrong type: that is another check's problem).
      json doc = base;
      if (!doc.at(at).contains(f)) doc.at(at)[f] = nullptr;
      EXPECT_EQ(commlab::detail::unknown_fields(doc), std::vector<std::string>()) << path << " " << f;
      EXPECT_FALSE(has(load_message(doc), "unknown field")) << path << " " << f << ": " << load_message(doc);
      // A typo of it: refused by load and by lint, naming the field meant.
      const std::string m = misspelled(f);
      ASSERT_EQ(std::count(allowed.begin(), allowed.end(), m), 0) << m;
      doc = base;
      doc.at(at)[m] = doc.at(at).value(f, json());
      const std::string line = with(path, m) + ": unknown field; did you mean \"" + f + "\"?";
      EXPECT_EQ(commlab::detail::unknown_fields(doc), std::vector<std::string>{line}) << kind;
      EXPECT_TRUE(has(load_message(doc), line)) << load_message(doc);
      EXPECT_TRUE(has(lint(doc).at("problems").dump(), json(line).dump())) << lint(doc).at("problems").dump();
      ++checked;
    }
    // A name near none: refused with the list of the kind's fields, the schema's.
    json doc = base;
    doc.at(at)["zz_not_a_field"] = 1;
    EXPECT_EQ(commlab::detail::unknown_fields(doc),
              std::vector<std::string>{with(path, "zz_not_a_field") + ": unknown field; allowed: " + join(allowed)});
  }
  EXPECT_GE(checked, 100);
}

// A field added to the schema is accepted at once: the walk follows the embedded schema, not a
// list of its own (the engine's schema, changed in memory for this test only).
TEST(Schema, TheWalkReadsOnlyTheSchema) {
  json& properties = const_cast<json&>(commlab::detail::exercise_schema()).at("definitions").at("param").at("properties");
  json doc = loadable_doc();
  doc["params"][0]["step"] = 2;
  ASSERT_EQ(commlab::detail::unknown_fields(doc).size(), 1u);
  EXPECT_TRUE(has(commlab::detail::unknown_fields(doc).at(0), "params[0].step: unknown field"));
  properties["step"] = json::object();
  EXPECT_EQ(commlab::detail::unknown_fields(doc), std::vector<std::string>());
  doc["params"][0]["stpe"] = 2;
  EXPECT_EQ(commlab::detail::unknown_fields(doc),
            std::vector<std::string>{"params[0].stpe: unknown field; did you mean \"step\"?"});
  properties.erase("step");
  doc["params"][0].erase("stpe");
  EXPECT_TRUE(has(commlab::detail::unknown_fields(doc).at(0), "params[0].step: unknown field"));
}

// Maps keyed by the document's own names, not by fields: each wrong key named with its nearest.
TEST(Schema, KeysThatNameTheDocumentAreCheckedAgainstIt) {
  json doc = full_doc();
  doc["variant"]["presets"][0]["devics"] = 8;
  doc["answers"][2]["aliases"]["rnig"] = {"x"};
  doc["answers"][2]["choice_labels"]["recursive_doubln"] = {{"en", "x"}, {"zh", "x"}};
  doc["compute"]["answers"]["rng"] = "$ring_time_s";
  doc["compute"]["ranges"]["bets"] = {{"lo", 0}, {"hi", 1}};
  const std::vector<std::string> expected = {
      "answers[2].aliases.rnig: not one of the answer's choices; did you mean \"ring\"?",
      "answers[2].choice_labels.recursive_doubln: not one of the answer's choices; did you mean \"recursive_doubling\"?",
      "compute.answers.rng: not an answer id; did you mean \"ring\"?",
      "compute.ranges.bets: not an answer id; did you mean \"best\"?",
      "variant.presets[0].devics: not a param; did you mean \"devices\"?"};
  EXPECT_EQ(commlab::detail::unknown_fields(doc), expected);
}

TEST(Schema, ParamKindsAreTheEnginesKinds) {
  const json kinds = def("param").at("properties").at("kind").at("enum");
  EXPECT_EQ(strings(kinds), (std::set<std::string>{"number", "integer", "choice"}));
  for (const json& kind : kinds) {
    json doc = loadable_doc();
    json p = {{"id", "extra"}, {"kind", kind}, {"label", {{"en", "x"}, {"zh", "x"}}}};
    if (kind == "choice") p.update({{"choices", {"a", "b"}}, {"default", "a"}});
    else p.update({{"min", 1}, {"max", 4}, {"default", 2}});
    doc["params"].push_back(p);
    EXPECT_EQ(load_message(doc), "") << kind;
  }
  json doc = loadable_doc();
  doc["params"][0]["kind"] = "float";
  EXPECT_TRUE(has(load_message(doc), "params[0].kind' must be number, integer or choice")) << load_message(doc);
}

TEST(Schema, AnswerDimensionsAndTheirUnitsAreTheEngines) {
  const json dims = def("answer").at("properties").at("dimension").at("enum");
  EXPECT_EQ(strings(dims), (std::set<std::string>{"time", "bytes", "fraction", "count", "plain", "choice"}));
  // Each dimension's units: those the schema's answer allows for it, each fitting the engine.
  std::map<std::string, std::string> unit_def;
  for (const json& rule : def("answer").at("allOf")) {
    const json& then = rule.at("then");
    if (then.contains("properties") && then.at("properties").contains("unit"))
      unit_def[rule.at("if").at("properties").at("dimension").at("const")] =
          then.at("properties").at("unit").at("$ref").get<std::string>().substr(14);
  }
  EXPECT_EQ(unit_def.size(), 5u);
  for (const auto& [dim, unit_name] : unit_def) {
    const json& units = def(unit_name).contains("enum") ? def(unit_name).at("enum") : def(unit_name).at("anyOf").at(0).at("enum");
    for (const json& u : units) {
      json doc = loadable_doc();
      doc["answers"][0]["dimension"] = dim;
      doc["answers"][0]["unit"] = u;
      const std::string m = load_message(doc);
      EXPECT_FALSE(has(m, "answers[0].unit") || has(m, "answers[0].dimension")) << dim << " " << u << ": " << m;
    }
  }
  for (const char* bad : {"bandwidth", "tme"}) {
    json doc = loadable_doc();
    doc["answers"][0]["dimension"] = bad;
    EXPECT_TRUE(has(load_message(doc), "answers[0].dimension' must be time, bytes")) << load_message(doc);
  }
  json doc = loadable_doc();
  doc["answers"][0]["unit"] = "MB";  // a time answer
  EXPECT_TRUE(has(load_message(doc), "answers[0].unit' does not fit dimension time")) << load_message(doc);
}

// The schema's units are the engine's: every unit it lists is read in that dimension, every
// unit the engine reads is listed, and a param takes each.
TEST(Schema, UnitsAreTheEnginesUnits) {
  using commlab::Dimension;
  const std::map<std::string, Dimension> groups = {
      {"unit_time", Dimension::time},       {"unit_bytes", Dimension::bytes}, {"unit_fraction", Dimension::fraction},
      {"unit_count", Dimension::count},     {"unit_bandwidth", Dimension::bandwidth}, {"unit_plain", Dimension::plain}};
  std::map<std::string, Dimension> listed;
  for (const auto& [name, dim] : groups) {
    const json& d = def(name);
    const json& units = d.contains("enum") ? d.at("enum") : d.at("anyOf").at(0).at("enum");
    for (const json& u : units) {
      const std::string unit = u;
      if (unit.empty()) continue;
      listed[unit] = dim;
      EXPECT_EQ(commlab::dimension_of_unit(unit), dim) << unit;
      EXPECT_TRUE(commlab::unit_factor(unit, dim).has_value()) << unit;
      json doc = loadable_doc();
      doc["params"][1]["unit"] = unit;
      EXPECT_FALSE(has(load_message(doc), "params[1].unit")) << unit << ": " << load_message(doc);
    }
  }
  for (const auto& [unit, dim] : commlab::unit_names()) {
    ASSERT_TRUE(listed.count(unit)) << "the engine reads unit \"" << unit << "\"; the schema does not list it";
    EXPECT_EQ(listed.at(unit), dim) << unit;
  }
  // "K tokens": a count word after K, M or G, as the schema's pattern says.
  const std::regex pattern(def("unit_count").at("anyOf").at(1).at("pattern").get<std::string>());
  for (const char* u : {"K tokens", "Ktokens", "M steps", "G GPUs", "k 个"}) {
    EXPECT_TRUE(std::regex_search(u, pattern)) << u;
    EXPECT_EQ(commlab::dimension_of_unit(u), Dimension::count) << u;
    EXPECT_TRUE(commlab::unit_factor(u, Dimension::count).has_value()) << u;
  }
  for (const auto& [unit, dim] : commlab::unit_names()) {
    if (dim != Dimension::count || unit.size() == 1) continue;  // K, M, G themselves
    EXPECT_TRUE(std::regex_search("K " + unit, pattern)) << unit;     // a count word
  }
  EXPECT_FALSE(std::regex_search("K bytes", pattern));
  json doc = loadable_doc();
  doc["params"][1]["unit"] = "KiBB";
  EXPECT_TRUE(has(load_message(doc), "params[1].unit' \"KiBB\" is not a known unit")) << load_message(doc);
}

TEST(Schema, ComparisonsAreTheEngines) {
  const json ops = def("comparison").at("enum");
  EXPECT_EQ(strings(ops), (std::set<std::string>{"<", "<=", ">", ">=", "==", "!="}));
  for (const json& op : ops) {
    json doc = loadable_doc();
    doc["conclusions"][0]["cases"][0]["when"]["op"] = op;
    EXPECT_FALSE(has(load_message(doc), ".op")) << op << ": " << load_message(doc);
  }
  for (const char* bad : {"=", "=~", "<>"}) {
    json doc = loadable_doc();
    doc["conclusions"][0]["cases"][0]["when"]["op"] = bad;
    EXPECT_TRUE(has(load_message(doc), "conclusions[0].cases[0].when.op': must be one of <, <=, >, >=, ==, !="))
        << load_message(doc);
  }
}

// A declared request may be any op of the API but exercise.* (and the native CLI's demo). test.*
// ops are a test's own (unit_hardening.cpp adds one to the process's table).
TEST(Schema, RequestOpsAreTheApisOps) {
  std::set<std::string> api;
  for (const commlab::OpInfo& op : commlab::op_table()) {
    const std::string name = op.name;
    if (name.rfind("exercise.", 0) != 0 && name.rfind("test.", 0) != 0 && name != "demo") api.insert(name);
  }
  EXPECT_EQ(strings(def("request").at("properties").at("op").at("enum")), api);
  EXPECT_EQ(def("request").at("properties").at("op").at("enum").size(),
            def("request").at("properties").at("op").at("enumDescriptions").size());
  json doc = loadable_doc();
  doc["compute"]["values"][0]["request"] = {{"op", "exercise.list"}};
  EXPECT_TRUE(has(load_message(doc), "an exercise cannot ask for exercise.list")) << load_message(doc);
}

TEST(Schema, CollectivesAndAlgorithmsAreTheModels) {
  const json* collective_then = nullptr;
  const json* allreduce_then = nullptr;
  for (const json& rule : def("request").at("allOf")) {
    const std::string op = rule.at("if").at("properties").at("op").at("const");
    if (op == "collective") collective_then = &rule.at("then");
    if (op == "allreduce") allreduce_then = &rule.at("then");
  }
  ASSERT_TRUE(collective_then && allreduce_then);
  std::set<std::string> model;
  for (commlab::Collective c : commlab::collectives()) model.insert(commlab::collective_name(c));
  EXPECT_EQ(strings(collective_then->at("properties").at("collective").at("anyOf").at(1).at("enum")), model);
  std::set<std::string> per_collective;
  for (const json& rule : collective_then->at("allOf")) {
    const std::string name = rule.at("if").at("properties").at("collective").at("const");
    per_collective.insert(name);
    commlab::Collective c;
    ASSERT_TRUE(commlab::parse_collective(name, &c)) << name;
    const json& algorithms = rule.at("then").at("properties").at("algorithm").at("anyOf").at(1).at("enum");
    EXPECT_EQ(algorithms.get<std::vector<std::string>>(), commlab::collective_algorithms(c)) << name;
    EXPECT_TRUE(rule.at("then").at("properties").at("bytes").at("description").get<std::string>().rfind(name + ": ", 0) == 0)
        << name << ": its bytes are described as its own";
  }
  EXPECT_EQ(per_collective, model);
  std::vector<std::string> allreduce;
  for (commlab::AllreduceAlgorithm a : commlab::allreduce_algorithms()) allreduce.push_back(commlab::algorithm_name(a));
  allreduce.push_back("hierarchical");
  allreduce.push_back("auto");
  EXPECT_EQ(allreduce_then->at("properties").at("algorithm").at("anyOf").at(1).at("enum").get<std::vector<std::string>>(),
            allreduce);
}

// The fields `field` may take from each cost op are the number, text and true/false fields of
// its answers (over requests that give every one).
TEST(Schema, ResponseFieldsAreTheOpsAnswers) {
  const json link = {{"alpha_s", 5e-6}, {"beta_Bps", 4e10}};
  const std::map<std::string, std::vector<json>> samples = {
      {"transfer", {{{"op", "transfer"}, {"link", link}, {"bytes", 1e6}}}},
      {"allreduce",
       {{{"op", "allreduce"}, {"algorithm", "ring"}, {"devices", 8}, {"bytes", 1e6}, {"link", link}},
        {{"op", "allreduce"}, {"algorithm", "double_binary_tree"}, {"devices", 64}, {"bytes", 1e9}, {"link", link}},
        {{"op", "allreduce"}, {"algorithm", "auto"}, {"devices", 8}, {"bytes", 1e6}, {"link", link}},
        {{"op", "allreduce"}, {"algorithm", "hierarchical"}, {"nodes", 2}, {"gpus_per_node", 4}, {"bytes", 1e6},
         {"intra_link", "nvlink4"}, {"inter_link", "ib_ndr"}}}},
      {"collective",
       {{{"op", "collective"}, {"collective", "allgather"}, {"devices", 8}, {"bytes", 1e6}, {"link", link}},
        {{"op", "collective"}, {"collective", "allreduce"}, {"algorithm", "double_binary_tree"}, {"devices", 64},
         {"bytes", 1e9}, {"link", link}}}},
      {"nccl", {{{"op", "nccl"}, {"devices", 8}, {"bytes", 1e6}, {"link", "nvlink4"}}}},
      {"crossover",
       {{{"op", "crossover"}, {"devices", 8}, {"link", link}},
        {{"op", "crossover"}, {"kind", "nccl"}, {"devices", 8}, {"link", "ib_ndr"}}}},
      {"link.match",
       {{{"op", "link.match"}, {"alpha_s", 5e-6}, {"beta_Bps", 4e10}}, {{"op", "link.match"}, {"alpha_s", 1}, {"beta_Bps", 1}}}},
  };
  std::set<std::string> described;
  for (const json& rule : def("fields_of_ops").at("allOf")) {
    const std::string op = rule.at("if").at("properties").at("request").at("properties").at("op").at("const");
    described.insert(op);
    ASSERT_TRUE(samples.count(op)) << op;
    std::set<std::string> scalar;
    for (const json& request : samples.at(op)) {
      const json out = eval(request);
      ASSERT_FALSE(out.contains("error")) << out.dump();
      for (auto it = out.begin(); it != out.end(); ++it)
        if (it.value().is_primitive() && !it.value().is_null() && it.key() != "op") scalar.insert(it.key());  // every answer echoes its op
    }
    const json& then_field = rule.at("then").at("properties").at("field");
    // The op's own names, beside a path into its answer (field_path).
    const json& field = then_field.contains("enum") ? then_field : then_field.at("anyOf").at(0);
    EXPECT_EQ(strings(field.at("enum")), scalar) << op;
    EXPECT_EQ(field.at("enum").size(), field.at("enumDescriptions").size()) << op;
  }
  EXPECT_EQ(described.size(), samples.size());
}
