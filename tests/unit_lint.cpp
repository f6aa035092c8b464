// Lint as a promise (exercises/README.md "Exercise documents are untrusted input"): a table of
// deliberate authoring mistakes (tests/fixtures/lint/mistakes.json) and the problem lint must
// give for each, with its path and words; every problem reported, not only the first; the
// shipped exercises lint ok; `commlab exercise lint` exits 1 with one line per problem.
#include <gtest/gtest.h>

#include "test_files.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "api/api.hpp"
#include "test_cli.hpp"

using nlohmann::json;

namespace {

std::string read(const std::string& path) { return commlab_test::read_file(path); }

// The ninth exercise of the fixtures, renumbered: a document that lints ok.
json base_doc() {
  json doc = json::parse(read(COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json"));
  doc["id"] = 41;
  return doc;
}

json rows() { return json::parse(read(COMMLAB_SOURCE_DIR "/tests/fixtures/lint/mistakes.json")).at("rows"); }

// A row's patch: ["set", pointer, value], ["remove", pointer], ["append", pointer, value].
json patched(const json& row) {
  json doc = base_doc();
  for (const json& step : row.at("patch")) {
    const std::string op = step.at(0);
    const json::json_pointer at(step.at(1).get<std::string>());
    if (op == "set") doc[at] = step.at(2);
    else if (op == "remove") doc[at.parent_pointer()].erase(at.back());
    else if (op == "append") doc[at].push_back(step.at(2));
    else ADD_FAILURE() << "unknown patch op " << op;
  }
  return doc;
}

json lint(const json& doc, const std::string& file = "41.json") {
  return commlab::evaluate(json{{"op", "exercise.lint"}, {"file", file}, {"text", doc.dump()}});
}

// The problem starting with `path: ` that holds every word, or "" when none does.
std::string problem_for(const json& problems, const json& expect) {
  const std::string head = expect.at("path").get<std::string>() + ": ";
  for (const json& p : problems) {
    const std::string line = p;
    if (line.rfind(head, 0) != 0) continue;
    bool all = true;
    for (const json& w : expect.at("words")) all = all && line.find(w.get<std::string>()) != std::string::npos;
    if (all) return line;
  }
  return "";
}

using commlab_test::CliRun;

// The CLI, stdout and stderr together.
CliRun cli(const std::string& args) { return commlab_test::run_cli(args); }

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST(Lint, TheBaseDocumentIsOk) {
  const json out = lint(base_doc());
  EXPECT_EQ(out.at("ok"), true) << out.dump();
  EXPECT_EQ(out.at("problems"), json::array());
}

TEST(Lint, EveryMistakeOfTheTableGivesItsProblem) {
  const json table = rows();
  ASSERT_GE(table.size(), 15u);
  for (const json& row : table) {
    const std::string name = row.at("name");
    const json out = lint(patched(row));
    ASSERT_FALSE(out.contains("error")) << name << ": " << out.dump();
    EXPECT_EQ(out.at("ok"), false) << name;
    for (const json& expect : row.at("expect"))
      EXPECT_NE(problem_for(out.at("problems"), expect), "")
          << name << ": no problem " << expect.dump() << " in " << out.at("problems").dump();
    for (const json& p : out.at("problems")) {
      const std::string line = p;
      // path: what is wrong; what is allowed (or did you mean): short, one line.
      EXPECT_NE(line.find(": "), std::string::npos) << name << ": " << line;
      EXPECT_EQ(line.find('\n'), std::string::npos) << name << ": " << line;
      EXPECT_LE(line.size(), 400u) << name << ": " << line;
    }
  }
}

// The table's rows can fail: without the mistake, none of the expected problems is given.
TEST(Lint, TheTableExpectsNothingOfTheBaseDocument) {
  const json base = lint(base_doc()).at("problems");
  for (const json& row : rows())
    for (const json& expect : row.at("expect"))
      EXPECT_EQ(problem_for(base, expect), "") << row.at("name");
}

// All the mistakes of the table at once (those that do not stop the checks after the shape):
// each shape problem is still reported, not only the first.
TEST(Lint, EveryShapeProblemIsReportedAtOnce) {
  json doc = base_doc();
  doc["answers"][1]["tolerence_rel"] = 0.05;
  doc["answers"][0]["exakt"] = true;
  doc["params"][0]["kind"] = 5;
  doc["answers"][2]["id"] = "ring";
  doc["compute"]["values"][0]["fild"] = "label";
  doc["title"].erase("zh");
  doc["id"] = 3;
  const json problems = lint(doc).at("problems");
  for (const char* path : {"answers[1].tolerence_rel", "answers[0].exakt", "params[0].kind", "answers[2].id",
                           "compute.values[0].fild", "title", "id"})
    EXPECT_NE(problem_for(problems, json{{"path", path}, {"words", json::array()}}), "") << path << " in " << problems.dump();
}

TEST(Lint, TheShippedExercisesAndTheFixtureAreOk) {
  std::string files;
  for (int n = 1; n <= 8; ++n) {
    const std::string file = "0" + std::to_string(n) + ".json";
    const json out = commlab::evaluate(
        json{{"op", "exercise.lint"}, {"file", file}, {"text", read(COMMLAB_SOURCE_DIR "/exercises/" + file)}});
    EXPECT_EQ(out.at("problems"), json::array()) << file;
    files += std::string(" ") + COMMLAB_SOURCE_DIR "/exercises/" + file;
  }
  const CliRun r = cli("exercise lint" + files + " " COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("09.json: ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exercises/08.json: ok"), std::string::npos) << r.out;
}

// A built-in's number is its own file's only: a copy of exercise 3 under another name is refused.
TEST(Lint, ABuiltInIdOnlyInItsOwnFile) {
  const std::string text = read(COMMLAB_SOURCE_DIR "/exercises/03.json");
  EXPECT_EQ(commlab::evaluate(json{{"op", "exercise.lint"}, {"file", "03.json"}, {"text", text}}).at("ok"), true);
  const json copy = commlab::evaluate(json{{"op", "exercise.lint"}, {"file", "03-copy.json"}, {"text", text}});
  EXPECT_NE(problem_for(copy.at("problems"), json{{"path", "id"}, {"words", {"is built in", "exercises/03.json"}}}), "")
      << copy.dump();
}

// Through the CLI: exit 1, one line "FILE: path: what; allowed" per problem, no "ok".
TEST(Lint, TheCliExitsOneWithALinePerProblem) {
  const json table = rows();
  for (const size_t i : {size_t{0}, size_t{3}, size_t{11}}) {
    const json& row = table.at(i);
    const std::string file = temp_file("lint_row_" + std::to_string(i) + ".json", patched(row).dump(2));
    const CliRun r = cli("exercise lint " + file);
    EXPECT_EQ(r.status, 1) << row.at("name") << ": " << r.out;
    EXPECT_EQ(r.out.find(": ok"), std::string::npos) << r.out;
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      EXPECT_EQ(line.rfind(file + ": ", 0), 0u) << line;
      lines.push_back(line.substr(file.size() + 2));
    }
    for (const json& expect : row.at("expect"))
      EXPECT_NE(problem_for(json(lines), expect), "") << row.at("name") << ": " << r.out;
  }
}

// Two files with one id: the later one has the problem, naming the first.
TEST(Lint, TwoFilesWithOneIdAreAProblem) {
  const std::string a = temp_file("lint_a_41.json", base_doc().dump());
  const std::string b = temp_file("lint_b_41.json", base_doc().dump());
  const CliRun r = cli("exercise lint " + a + " " + b);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(a + ": ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(b + ": id: exercise 41 is also the id of lint_a_41.json; allowed: one file per id"),
            std::string::npos)
      << r.out;
}

// Params, answers and values share one $name scope, so an id is used once; but a value may carry
// the id of the answer that is that value ("ring": "$ring"), the figure then in both.
TEST(Lint, AValueMayCarryTheIdOfTheAnswerThatRepeatsIt) {
  json doc = base_doc();
  doc["compute"]["values"].push_back({{"id", "ring"}, {"expr", "$ring_time_s"}});
  doc["compute"]["answers"]["ring"] = "$ring";
  const json ok = lint(doc);
  EXPECT_EQ(ok.at("problems"), json::array()) << ok.dump();
  const json s = commlab::evaluate(json{{"op", "exercise.load"}, {"text", doc.dump()}});
  ASSERT_FALSE(s.contains("error")) << s.dump();
  const json solved = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 41}});
  EXPECT_EQ(solved.at("values").at("ring"), solved.at("answers").at("ring"));
  EXPECT_EQ(solved.at("values").at("ring"), solved.at("values").at("ring_time_s"));
  // An answer computed otherwise: two figures under one name, a problem.
  doc["compute"]["answers"]["ring"] = "$ring_time_s * 1";
  EXPECT_NE(problem_for(lint(doc).at("problems"),
                        json{{"path", "compute.values[8].id"}, {"words", {"\"ring\" is also the id of answers[0]", "allowed: an id used once"}}}),
            "");
  // A param's id stays a param's.
  doc = base_doc();
  doc["compute"]["values"].push_back({{"id", "devices"}, {"expr", "$devices"}});
  EXPECT_NE(problem_for(lint(doc).at("problems"),
                        json{{"path", "compute.values[8].id"}, {"words", {"\"devices\" is also the id of params[0]"}}}),
            "");
}
