// Exercise documents are untrusted input (exercises/README.md "Exercise documents are untrusted
// input"): documents that would crash an engine, run for minutes, convert out of range, or answer
// with the wrong code or a message the size of the document. Each must be an invalid_exercise
// error naming the JSON path and the limit, quickly.
// tests/node/documents.test.mjs sends the same documents through the wasm module and the CLI.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "api/api.hpp"
#include "base/work_meter.hpp"
#include "exercises/declared.hpp"

using nlohmann::json;

// Timings are checked against the budget natively; the sanitizer build runs 3-15x slower.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COMMLAB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(COMMLAB_ASAN)
constexpr double kSlower = 20;
#else
constexpr double kSlower = 1;
#endif

namespace {

// The ninth exercise of the fixtures (answers declared as requests), renumbered.
json base_doc() {
  std::ifstream in(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json");
  std::stringstream s;
  s << in.rdbuf();
  json doc = json::parse(s.str());
  doc["id"] = 41;
  return doc;
}

json load(const std::string& text) { return commlab::evaluate(json{{"op", "exercise.load"}, {"text", text}}); }
json load(const json& doc) { return load(doc.dump()); }
json lint(const std::string& text) { return commlab::evaluate(json{{"op", "exercise.lint"}, {"text", text}}); }
json lint(const json& doc) { return lint(doc.dump()); }

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// An invalid_exercise error whose message names `what` and stays short.
void expect_refused(const json& answer, const std::string& what) {
  ASSERT_TRUE(answer.contains("error")) << answer.dump().substr(0, 300);
  EXPECT_EQ(answer["error"]["code"], "invalid_exercise") << answer.dump().substr(0, 300);
  const std::string m = answer["error"]["message"];
  EXPECT_NE(m.find(what), std::string::npos) << m;
  EXPECT_LE(m.size(), 400u) << m.substr(0, 400);
}

// Lint answers ok false with a problem naming `what`; every problem short.
void expect_problem(const json& answer, const std::string& what) {
  ASSERT_FALSE(answer.contains("error")) << answer.dump().substr(0, 300);
  EXPECT_EQ(answer["ok"], false);
  bool named = false;
  for (const json& p : answer["problems"]) {
    named = named || p.get<std::string>().find(what) != std::string::npos;
    EXPECT_LE(p.get<std::string>().size(), 400u);
  }
  EXPECT_TRUE(named) << "no problem names " << what << ": " << answer["problems"].dump().substr(0, 600);
}

void expect_both(const json& doc, const std::string& what) {
  expect_refused(load(doc), what);
  expect_problem(lint(doc), what);
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// A document whose value p0 is a 1,000-character word (argmin names a value) and whose values
// p1..p`texts` each paste it `times` times.
json pasted(int times, int texts) {
  json doc = base_doc();
  const std::string word(1000, 'w');
  doc["compute"]["values"].push_back({{"id", word}, {"expr", "1"}});
  doc["compute"]["values"].push_back({{"id", "p0"}, {"argmin", {word}}});
  for (int i = 1; i <= texts; ++i)
    doc["compute"]["values"].push_back({{"id", "p" + std::to_string(i)},
                                        {"text", {{"en", repeat("{p0}", times)}, {"zh", "x"}}}});
  return doc;
}

json with_value(json doc, const json& value) {
  doc["compute"]["values"].push_back(value);
  return doc;
}

}  // namespace

TEST(Documents, TheFixtureItselfIsFine) {
  const json doc = base_doc();
  EXPECT_EQ(lint(doc)["ok"], true) << lint(doc).dump();
  EXPECT_EQ(load(doc)["id"], 41);
}

// "nice": [] divided by zero when a variant was drawn (SIGFPE natively, lint alone sufficed).
TEST(Documents, AnEmptyNiceListIsAProblem) {
  json doc = base_doc();
  doc["params"][0]["nice"] = json::array();
  expect_both(doc, "params[0].nice");
  doc["params"][0]["nice"] = 5;
  expect_both(doc, "params[0].nice");
}

// A field of the wrong type aborted `commlab exercise lint` (exit 134).
TEST(Documents, WrongTypesAreProblemsNamingThePath) {
  json doc = base_doc();
  doc["params"][0]["kind"] = 5;
  expect_both(doc, "params[0].kind");
  doc = base_doc();
  doc["variant"] = 5;
  expect_both(doc, "variant");
  doc = base_doc();
  doc["compute"]["values"][1]["if"] = 7;
  expect_both(doc, "compute.values[1].if");
  doc = base_doc();
  doc["answers"][2]["aliases"] = 5;
  expect_both(doc, "answers[2].aliases");
  doc = base_doc();
  doc["answers"][0]["exact"] = "yes";
  expect_both(doc, "answers[0].exact");
  doc = base_doc();
  doc["params"][1]["unit"] = 5;
  expect_both(doc, "params[1].unit");
  doc = base_doc();
  doc["variant"]["presets"] = json::array({5});
  expect_both(doc, "variant.presets[0]");
  doc = base_doc();
  doc["variant"]["distinct"] = json::array({json::array({"answers.ring"})});
  expect_both(doc, "variant.distinct[0]");
}

// The parser had no depth limit: 100,000 parentheses or a million unary '-' overflowed the stack;
// wasm threw RangeError near 2,900 parentheses where native accepted.
TEST(Documents, ExpressionsAreBoundedInDepthAndLength) {
  const json scope = {{"x", 2}};
  auto message = [&](const std::string& text) {
    try {
      commlab::eval_expression(text, scope);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto parens = [](size_t n) { return repeat("(", n) + "1" + repeat(")", n); };
  EXPECT_DOUBLE_EQ(commlab::eval_expression(parens(63), scope), 1);
  EXPECT_NE(message(parens(65)).find("more than 64 levels"), std::string::npos);
  EXPECT_NE(message(parens(100000)).find("at most 4096"), std::string::npos);
  EXPECT_NE(message(repeat("-", 1000000) + "1").find("at most 4096"), std::string::npos);
  EXPECT_NE(message(repeat("-", 100) + "1").find("more than 64 levels"), std::string::npos);
  EXPECT_NE(message(repeat("1^", 100) + "1").find("more than 64 levels"), std::string::npos);
  EXPECT_NE(message(repeat("max(", 100) + "1" + repeat(")", 100)).find("more than 64 levels"), std::string::npos);
  EXPECT_DOUBLE_EQ(commlab::eval_expression(repeat("-", 62) + "$x", scope), 2);
  for (const std::string& text : {parens(100000), repeat("-", 100) + "1"})
    EXPECT_LE(message(text).size(), 300u);
  // In a document: refused at load, named by its path.
  json doc = with_value(base_doc(), {{"id", "deep"}, {"expr", parens(100000)}});
  expect_both(doc, "compute.values[8]");
  doc = with_value(base_doc(), {{"id", "deep"}, {"expr", parens(65)}});
  expect_both(doc, "64 levels");
}

// exercise.load parsed without the nesting check: a 1,000,000-deep array crashed on load, a
// 100,000-deep one loaded and then crashed exercise.get.
TEST(Documents, LoadBoundsSizeAndNesting) {
  const std::string million = repeat("[", 1000000) + repeat("]", 1000000);
  expect_refused(load(million), "256 KB");
  expect_problem(lint(million), "256 KB");
  const std::string deep = repeat("[", 100000) + repeat("]", 100000);
  expect_refused(load(deep), "64 levels");
  json doc = base_doc();
  const std::string text = doc.dump();
  const std::string nested = text.substr(0, text.size() - 1) + ",\"x\":" + repeat("[", 70) + repeat("]", 70) + "}";
  expect_refused(load(nested), "64 levels");
  const json got = commlab::evaluate(json{{"op", "exercise.get"}, {"id", 1}});
  EXPECT_FALSE(got.contains("error"));
  // The same limit for a document given as JSON in the request.
  json big = base_doc();
  big["solution"]["en"] = std::string(300 * 1024, 'a');
  const json r = commlab::evaluate(json{{"op", "exercise.load"}, {"doc", big}});
  expect_refused(r, "256 KB");
}

// Filled text at most 16 KB; a 100 KB statement of '{' filled in 3.6 s (quadratic).
TEST(Documents, FilledTextsAreCappedAndLinear) {
  json doc = base_doc();
  doc["statement"]["en"] = std::string(100000, '{') + "}";
  ASSERT_FALSE(load(doc).contains("error"));
  json solved;
  const double s = seconds_of([&] { solved = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 41}}); });
  expect_refused(solved, "statement.en");
  EXPECT_NE(solved["error"]["message"].get<std::string>().find("16 KB"), std::string::npos);
  EXPECT_LT(s, 0.5 * kSlower) << "filling took " << s << " s";
  expect_problem(lint(doc), "16 KB");
  // Under the cap, braces that name nothing stay as they are.
  doc["statement"]["en"] = std::string(10000, '{') + "{devices}";
  ASSERT_FALSE(load(doc).contains("error"));
  solved = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 41}});
  ASSERT_FALSE(solved.contains("error")) << solved.dump().substr(0, 300);
  EXPECT_EQ(solved["statement"]["en"], std::string(10000, '{') + "8");
  // A long word pasted into a text: stops at 16 KB, at its path.
  expect_both(pasted(20, 1), "compute.values[10].text.en");
  expect_both(pasted(20, 1), "16 KB");
}

// A 230 KB document pasting a text 10,000 times peaked at 2.9 GB; 50 kept pipeline timelines
// held 2.77 GB: kept figures are capped and a declared request keeps its field only.
TEST(Documents, KeptFiguresAreCapped) {
  EXPECT_FALSE(load(pasted(15, 2)).contains("error"));
  expect_both(pasted(15, 200), "1 MB");
  // A 226 KB document pasting a 15 KB text 10,000 times into its statement and solution.
  json paste = pasted(15, 1);
  paste["statement"]["en"] = repeat("{values.p1}", 10000);
  paste["solution"]["en"] = repeat("{values.p1}", 10000);
  ASSERT_FALSE(load(paste).contains("error"));
  expect_refused(commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 41}}), "statement.en");
  expect_refused(commlab::evaluate(json{{"op", "exercise.get"}, {"id", 41}}), "16 KB");
  expect_problem(lint(paste), "16 KB");
  json doc = with_value(base_doc(), {{"id", "timeline"}, {"request", {{"op", "pipeline"}}}, {"field", "timeline"}});
  expect_both(doc, "compute.values[8].field");
}

// One work budget for the whole document: 20 near-budget simulations loaded in 5-7 s; lint with
// a heavy value and a constraint that never holds ran for minutes. The 20 differ (bytes): figures
// in a row asking one request share its answer.
TEST(Documents, OneWorkBudgetForTheWholeDocument) {
  json doc = base_doc();
  // Twenty different simulations (one repeated back to back is evaluated once).
  for (int i = 0; i < 20; ++i)
    doc["compute"]["values"].push_back({{"id", "sim" + std::to_string(i)},
                                        {"request", {{"op", "simulate"}, {"algorithm", "ring"}, {"devices", 2400}, {"bytes", 1e6 + 8 * i}}},
                                        {"field", "time_s"}});
  json r;
  double s = seconds_of([&] { r = load(doc); });
  expect_refused(r, "budget");
  EXPECT_LT(s, 2.5 * kSlower);
  doc = with_value(base_doc(), {{"id", "sim"},
                                {"request", {{"op", "simulate"}, {"algorithm", "ring"}, {"devices", 2400}, {"bytes", 1e6}}},
                                {"field", "time_s"}});
  doc["variant"]["constraints"].push_back({{"left", "params.devices"}, {"op", "<"}, {"right", 0}});
  s = seconds_of([&] { r = lint(doc); });
  expect_problem(r, "budget");
  EXPECT_LT(s, 3.0 * kSlower);
  // Plain requests are not metered: the same simulation alone answers as before.
  const json plain = commlab::evaluate(json{{"op", "simulate"}, {"algorithm", "ring"}, {"devices", 2400}, {"bytes", 1e6}});
  EXPECT_FALSE(plain.contains("error"));
}

// An integer param with max 1e300 or min_significant_figures 1e300 converted out of range (UB;
// native and wasm disagreed); ids wrapped at 2^31 (4294967297 was "exercise 1").
TEST(Documents, IntegerFieldsStayInTheirRanges) {
  json doc = base_doc();
  doc["params"][0]["max"] = 1e300;
  expect_both(doc, "params[0].max");
  doc = base_doc();
  doc["answers"][0]["min_significant_figures"] = 1e300;
  expect_both(doc, "answers[0].min_significant_figures");
  doc = base_doc();
  doc["answers"][0]["min_significant_figures"] = 2.5;
  expect_both(doc, "answers[0].min_significant_figures");
  for (const json& id : {json(4294967297LL), json(0), json(1000), json(-1)}) {
    doc = base_doc();
    doc["id"] = id;
    // A load error names the field; a lint line starts with its path.
    expect_refused(load(doc), "field 'id'");
    expect_problem(lint(doc), "id: is " + id.dump() + "; allowed: an integer from 1 to 999");
  }
  doc = base_doc();
  doc["id"] = 999;
  EXPECT_EQ(load(doc)["id"], 999);
  // A document says how its answers are computed: without "compute" it is refused, by name.
  doc.erase("compute");
  expect_refused(load(doc), "field 'compute' is missing");
  expect_problem(lint(doc), "compute: is missing");
}

// An answer of the wrong type reached the `internal` code; wrong-typed fields gave
// invalid_request; messages grew to 5-10 KB with the document.
TEST(Documents, WrongTypedAnswersAndFieldsAreTheDocumentsFault) {
  json doc = base_doc();
  doc["compute"]["answers"]["best"] = "1";  // a number for a choice
  const json loaded = load(doc);
  if (!loaded.contains("error")) expect_refused(commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 41}}), "'best'");
  expect_problem(lint(doc), "'best'");
  doc = base_doc();
  doc["answers"][2]["choice_labels"] = {{"ring", 5}};
  expect_both(doc, "answers[2].choice_labels");
  doc = base_doc();
  doc["hints"]["en"] = json::array({5});
  expect_problem(lint(doc), "hints.en[0]");
}

TEST(Documents, MessagesStayShort) {
  const std::string long_name(10000, 'q');
  json doc = base_doc();
  doc["params"][1]["unit"] = long_name;
  expect_both(doc, "params[1].unit");
  doc = with_value(base_doc(), {{"id", "v"}, {"expr", "$" + long_name}});
  expect_both(doc, "compute.values[8]");
  doc = with_value(base_doc(), {{"id", "v"}, {"request", {{"op", "transfer"}, {"bytes", "$" + long_name}}}, {"field", "time_s"}});
  expect_both(doc, "compute.values[8]");
  doc = with_value(base_doc(), {{"id", "v"}, {"request", {{"op", "transfer"}, {"bytes", long_name}}}, {"field", "time_s"}});
  expect_both(doc, "compute.values[8]");
  doc = with_value(base_doc(), {{"id", long_name}, {"request", {{"op", "transfer"}, {"bytes", 1}}}, {"field", long_name}});
  expect_both(doc, "compute.values[8]");
  expect_refused(load("{\"id\": 41, " + std::string(100000, ' ') + long_name), "not valid JSON");
  const json r = commlab::evaluate(json{{"op", "exercise.load"}, {"text", base_doc().dump()}, {"file", long_name}});
  ASSERT_TRUE(r.contains("error"));
  EXPECT_LE(r["error"]["message"].get<std::string>().size(), 400u);
}

// Found by tests/fuzz/fuzz_documents (tests/fuzz/documents/solver_7_answer_renamed.json): an
// answer renamed, or of the other kind than its figure, was solved into an `internal` error. It is
// the document's fault, named by its path.
TEST(Documents, ARenamedOrMistypedAnswerIsTheDocumentsFault) {
  std::ifstream in(COMMLAB_SOURCE_DIR "/exercises/03.json");
  std::stringstream s;
  s << in.rdbuf();
  json doc = json::parse(s.str());
  doc["id"] = 103;
  EXPECT_EQ(lint(doc)["ok"], true) << lint(doc).dump().substr(0, 600);
  doc["answers"][0]["id"] = "rign";
  expect_refused(load(doc), "compute.answers.ring: not an answer id; did you mean \"rign\"?");
  expect_problem(lint(doc), "compute.answers");
  doc = json::parse(s.str());
  doc["id"] = 103;
  doc["answers"][0]["dimension"] = "choice";  // its figure is a time
  doc["answers"][0]["choices"] = {"fast", "slow"};
  const json loaded = load(doc);
  const json solved = loaded.contains("error") ? loaded : commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 103}});
  expect_refused(solved, "answer 'ring' is computed as ");
  expect_problem(lint(doc), "answer 'ring' is computed as");
}

// Found while checking the document fuzzer's slow inputs against the budget: lint solves a
// document thousands of times (every range end, 50 draws, the variants) and only requests were
// counted, so 2,000 unused params (196 KB) linted ok after 18 s natively. Each solve now counts
// the items it handles (kSolveUnitsPerItem): lint stops at the budget, within about a second.
TEST(Documents, ManyParamsStayInsideTheBudget) {
  json doc = base_doc();
  for (int i = 0; i < 2000; ++i)
    doc["params"].push_back({{"id", "p" + std::to_string(i)}, {"label", {{"en", "p"}, {"zh", "p"}}},
                             {"kind", "number"}, {"default", 1}, {"min", 1}, {"max", 2}, {"unit", ""}});
  json answer;
  // CPU time, not the wall clock: the budget is work, and a busy machine would stretch the latter.
  const std::clock_t start = std::clock();
  answer = lint(doc);
  const double lint_cpu_s = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  expect_problem(answer, "passes its budget");
  EXPECT_LT(lint_cpu_s, 2.0 * kSlower);
  // A hundred params still lint ok.
  doc["params"].erase(doc["params"].begin() + 4 + 100, doc["params"].end());
  EXPECT_EQ(lint(doc)["ok"], true) << lint(doc).dump().substr(0, 600);
}

// A clean document of 2,200 answers (under the size limit) took 11-18 s to lint natively: each
// solve scanned the answers once for every answer (issue 44). The meter counts every
// definition a lookup scans (find_def), so metered work is the work done: at twice the answers
// it may grow twice, plus a little for what does not grow with them, never four times.
TEST(Documents, LintWorkGrowsLinearlyWithTheAnswers) {
  auto with_answers = [](int n) {
    json doc = base_doc();
    for (int i = 0; i < n; ++i) {
      const std::string id = "a" + std::to_string(i);
      doc["answers"].push_back({{"id", id}, {"label", {{"en", "A"}, {"zh", "A"}}}, {"unit", ""}, {"dimension", "count"}});
      doc["compute"]["answers"][id] = "$devices";
    }
    return doc.dump();
  };
  const std::string half = with_answers(1100), whole = with_answers(2200);
  ASSERT_LT(whole.size(), 256u * 1024u);
  const json a = lint(half);
  const double half_units = commlab::last_document_work_units();
  const json b = lint(whole);
  const double whole_units = commlab::last_document_work_units();
  EXPECT_EQ(a["ok"], true) << a.dump().substr(0, 600);
  EXPECT_EQ(b["ok"], true) << b.dump().substr(0, 600);
  EXPECT_GT(half_units, 0);
  EXPECT_LE(whole_units, 2.1 * half_units) << half_units << " units at 1,100 answers, " << whole_units << " at 2,200";
}
