// The exercises the host installs (none is compiled in): exercise.install checks each document
// as exercise.load does (limits, strictness, one work budget each), refuses a lecture id from
// another file and a second file with one id, installs the rest; with nothing installed every
// exercise request says what is missing. The CLI reads its folder (--exercises DIR,
// COMMLAB_EXERCISES_DIR, the source tree's exercises/) and says plainly when it cannot.
#include <gtest/gtest.h>

#include "test_files.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "api/api.hpp"
#include "exercise_folder.hpp"
#include "test_cli.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string read(const std::string& path) { return commlab_test::read_file(path); }

const std::string kSource = COMMLAB_SOURCE_DIR "/exercises/";
const std::string kFixtures = COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/";

json file(const std::string& name, const std::string& text) { return {{"file", name}, {"text", text}}; }

// The source tree's eight, as the CLI reads them.
json lecture_files() {
  json files = json::array();
  for (int n = 1; n <= 8; ++n) {
    const std::string name = "0" + std::to_string(n) + ".json";
    files.push_back(file(name, read(kSource + name)));
  }
  return files;
}

json install(const json& files) { return commlab::evaluate(json{{"op", "exercise.install"}, {"files", files}}); }

json ids_of(const json& list) {
  json ids = json::array();
  for (const json& e : list) ids.push_back(e.at("id"));
  return ids;
}

json listed_ids() { return ids_of(commlab::evaluate(json{{"op", "exercise.list"}}).at("exercises")); }

// Each test leaves the lecture's eight installed, as test_main installed them.
class Install : public testing::Test {
 protected:
  void TearDown() override {
    const json out = install(lecture_files());
    ASSERT_EQ(out.at("problems"), json::array()) << out.dump();
  }
};

using commlab_test::CliRun;

CliRun cli(const std::string& args, const std::string& env = "") { return commlab_test::run_cli(args, env); }

// A fresh folder under the test temp dir with the named files copied in (or given texts).
std::string folder(const std::string& name, const json& files) {
  const fs::path dir = fs::path(testing::TempDir()) / ("commlab_install_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const json& f : files) std::ofstream(dir / f.at("file").get<std::string>(), std::ios::binary) << f.at("text").get<std::string>();
  return dir.string();
}

}  // namespace

TEST_F(Install, TheLecturesEightAndTheTwoWrittenOnlyAsJson) {
  json files = lecture_files();
  files.push_back(file("09.json", read(kFixtures + "09.json")));
  files.push_back(file("10.json", read(kFixtures + "10.json")));
  const json out = install(files);
  EXPECT_EQ(out.at("problems"), json::array()) << out.dump();
  EXPECT_EQ(ids_of(out.at("exercises")), json({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(out.at("exercises").at(9).at("file"), "10.json");
  EXPECT_EQ(out.at("exercises").at(9).at("title").at("en"), "NCCL's protocol for one all-reduce");
  EXPECT_EQ(listed_ids(), json({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  // The tenth solves with the engine's own nccl answer: LL128 for 16 MB on 8 GPUs (P5 §5.6).
  const json s = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 10}});
  ASSERT_FALSE(s.contains("error")) << s.dump();
  const json nccl = commlab::evaluate(
      json{{"op", "nccl"}, {"devices", 8}, {"bytes", 16e6}, {"link", "nvlink4"}, {"algorithms", {"ring"}}});
  EXPECT_EQ(s.at("answers").at("protocol"), "LL128");
  EXPECT_EQ(s.at("answers").at("protocol"), nccl.at("protocol"));
  EXPECT_DOUBLE_EQ(s.at("answers").at("payload_share").get<double>(), nccl.at("bandwidth_Bps").get<double>() / 360e9);
  EXPECT_DOUBLE_EQ(s.at("answers").at("wire_time").get<double>(), 2.0 * 7 / 8 * 16e6 / nccl.at("bandwidth_Bps").get<double>());
  // Small messages take LL, large ones Simple (the lecture's 64 KB and 256 MB).
  const json small = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 10}, {"params", {{"bytes", 16e3}}}});
  const json large = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 10}, {"params", {{"bytes", 256e6}}}});
  EXPECT_EQ(small.at("answers").at("protocol"), "LL");
  EXPECT_EQ(large.at("answers").at("protocol"), "Simple");
  EXPECT_NE(large.at("solution").at("en").get<std::string>().find("Simple's full bandwidth"), std::string::npos);
}

TEST(InstallLint, TheTenthLintsClean) {
  const json out = commlab::evaluate(json{{"op", "exercise.lint"}, {"file", "10.json"}, {"text", read(kFixtures + "10.json")}});
  EXPECT_EQ(out.at("problems"), json::array()) << out.dump();
}

// A bad document is named with its problem; the others are installed.
TEST_F(Install, ABadDocumentIsLeftOutAndNamedTheRestWork) {
  json files = lecture_files();
  files[2] = file("03.json", "{\"id\": 3, \"title\": ");  // cut short
  json nine = json::parse(read(kFixtures + "09.json"));
  nine["answers"][0]["tolerence_rel"] = 0.05;  // misspelled: refused as strictly as a request
  files.push_back(file("09.json", nine.dump()));
  const json out = install(files);
  ASSERT_EQ(out.at("problems").size(), 2u) << out.dump();
  const json& cut = out.at("problems").at(0);
  EXPECT_EQ(cut.at("file"), "03.json");
  EXPECT_EQ(cut.at("code"), "invalid_exercise");
  EXPECT_EQ(cut.at("message").get<std::string>().rfind("exercises/03.json: not valid JSON", 0), 0u) << cut.dump();
  const json& typo = out.at("problems").at(1);
  EXPECT_EQ(typo.at("file"), "09.json");
  EXPECT_NE(typo.at("message").get<std::string>().find("answers[0].tolerence_rel: unknown field; did you mean \"tolerance_rel\"?"),
            std::string::npos)
      << typo.dump();
  EXPECT_EQ(listed_ids(), json({1, 2, 4, 5, 6, 7, 8}));
  const json missing = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 3}});
  EXPECT_EQ(missing.at("error").at("code"), "unknown_value");
  EXPECT_NE(missing.at("error").at("message").get<std::string>().find("allowed: one of 1, 2, 4, 5, 6, 7, 8"), std::string::npos);
  EXPECT_FALSE(commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 4}}).contains("error"));
}

// A text the host's build installed (checked_at_build) is not run at its defaults again: a
// compute section that fails there installs, and says so when the exercise is first solved.
// Unmarked, the same text is refused at install. The mark is a boolean or absent.
TEST_F(Install, ATextCheckedAtBuildRunsItsComputeWhenFirstSolved) {
  json nine = json::parse(read(kFixtures + "09.json"));
  nine["compute"]["values"][2]["expr"] = "2 * ($devicez - 1)";  // a name nothing binds
  json files = lecture_files();
  files.push_back(file("09.json", nine.dump()));
  const json refused = install(files);
  ASSERT_EQ(refused.at("problems").size(), 1u) << refused.dump();
  EXPECT_NE(refused.at("problems")[0].at("message").get<std::string>().find("devicez"), std::string::npos) << refused.dump();
  for (json& f : files) f["checked_at_build"] = true;
  const json out = install(files);
  EXPECT_EQ(out.at("problems"), json::array()) << out.dump();
  EXPECT_EQ(listed_ids(), json({1, 2, 3, 4, 5, 6, 7, 8, 9}));
  const json solved = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 9}});
  ASSERT_TRUE(solved.contains("error")) << solved.dump();
  EXPECT_EQ(solved.at("error").at("code"), "invalid_exercise");
  EXPECT_NE(solved.at("error").at("message").get<std::string>().find("devicez"), std::string::npos) << solved.dump();
  // The lecture's own answers the same either way.
  const json marked = commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 2}}).at("answers");
  install(lecture_files());
  EXPECT_EQ(commlab::evaluate(json{{"op", "exercise.solve"}, {"id", 2}}).at("answers"), marked);
  files[0]["checked_at_build"] = "yes";
  const json bad = install(files);
  EXPECT_EQ(bad.at("error").at("code"), "invalid_type") << bad.dump();
  EXPECT_NE(bad.at("error").at("message").get<std::string>().find("field 'files[0].checked_at_build': value \"yes\" is not allowed; allowed: true or false"),
            std::string::npos) << bad.dump();
}

// Ids 1-8 are the lecture's: only from their own file name. One file per id.
TEST_F(Install, ALectureIdOnlyFromItsOwnFileAndOneFilePerId) {
  const std::string three = read(kSource + "03.json");
  const std::string nine = read(kFixtures + "09.json");
  const json out = install(json{file("3.json", three), file("03.json", three), file("04.json", three), file("09.json", nine),
                                file("09-copy.json", nine)});
  EXPECT_EQ(ids_of(out.at("exercises")), json({3, 9})) << out.dump();
  ASSERT_EQ(out.at("problems").size(), 3u) << out.dump();
  EXPECT_EQ(out.at("problems").at(0).at("message"),
            "exercises/3.json: field 'id': exercise 3 is the lecture's, accepted only from exercises/03.json; allowed: "
            "in this file, a number from 9 to 999");
  EXPECT_EQ(out.at("problems").at(1).at("file"), "04.json");
  EXPECT_EQ(out.at("problems").at(2).at("message"),
            "exercises/09-copy.json: field 'id': exercise 9 is also the id of exercises/09.json; allowed: one file per id");
  // The lecture's numbers stay refused to exercise.load; another installed one is replaced.
  const json load3 = commlab::evaluate(json{{"op", "exercise.load"}, {"text", three}, {"file", "03.json"}});
  EXPECT_NE(load3.at("error").at("message").get<std::string>().find("exercise 3 is built in"), std::string::npos);
  json renamed = json::parse(nine);
  renamed["title"]["en"] = "Edited for this session";
  const json load9 = commlab::evaluate(json{{"op", "exercise.load"}, {"doc", renamed}, {"file", "draft.json"}});
  EXPECT_EQ(load9.at("id"), 9) << load9.dump();
  EXPECT_EQ(commlab::evaluate(json{{"op", "exercise.list"}}).at("exercises").at(1).at("title").at("en"), "Edited for this session");
}

// Each document has a work budget of its own: two documents at half the budget each install;
// one past it is refused naming the budget.
TEST_F(Install, EachDocumentHasItsOwnWorkBudget) {
  json doc = json::parse(read(kFixtures + "09.json"));
  const json sim = {{"op", "simulate"}, {"algorithm", "ring"}, {"devices", 2400}, {"bytes", 1e6}};
  doc["compute"]["values"].push_back({{"id", "s0"}, {"request", sim}, {"field", "time_s"}});
  json a = doc, b = doc, heavy = doc;
  a["id"] = 41;
  b["id"] = 42;
  heavy["id"] = 43;
  // Twenty different simulations (one repeated back to back is evaluated once).
  for (int i = 1; i < 20; ++i) {
    json other = sim;
    other["bytes"] = 1e6 + 8 * i;
    heavy["compute"]["values"].push_back({{"id", "s" + std::to_string(i)}, {"request", other}, {"field", "time_s"}});
  }
  const json out = install(json{file("41.json", a.dump()), file("42.json", b.dump()), file("43.json", heavy.dump())});
  EXPECT_EQ(ids_of(out.at("exercises")), json({41, 42})) << out.dump();
  ASSERT_EQ(out.at("problems").size(), 1u) << out.dump();
  EXPECT_EQ(out.at("problems").at(0).at("file"), "43.json");
  EXPECT_NE(out.at("problems").at(0).at("message").get<std::string>().find("work (every request it declares, every variant drawn) passes its budget"), std::string::npos) << out.dump();
  // A document past the size limit is refused naming it.
  const json big = install(json::array({file("44.json", std::string(300 * 1024, ' '))}));
  EXPECT_NE(big.at("problems").at(0).at("message").get<std::string>().find("allowed: at most 262144 (256 KB)"), std::string::npos)
      << big.dump();
}

// Nothing installed: every exercise request says what is missing, nothing crashes; a session
// document still loads.
TEST_F(Install, NothingInstalledIsAClearError) {
  const json out = install(json::array());
  EXPECT_EQ(out.at("exercises"), json::array()) << out.dump();
  EXPECT_EQ(out.at("problems"), json::array()) << out.dump();
  for (const json& req : {json{{"op", "exercise.list"}}, json{{"op", "exercise.get"}, {"id", 1}},
                          json{{"op", "exercise.solve"}, {"id", 1}}, json{{"op", "exercise.variant"}, {"id", 2}, {"seed", 3}},
                          json{{"op", "exercise.check"}, {"id", 1}, {"answers", json::object()}}}) {
    const json r = commlab::evaluate(req);
    ASSERT_TRUE(r.contains("error")) << req.dump();
    EXPECT_EQ(r.at("error").at("code"), "not_installed") << req.dump();
    EXPECT_NE(r.at("error").at("message").get<std::string>().find("no exercise is installed"), std::string::npos);
    EXPECT_NE(r.at("error").at("message").get<std::string>().find("exercise.install"), std::string::npos);
  }
  const json loaded = commlab::evaluate(json{{"op", "exercise.load"}, {"text", read(kFixtures + "09.json")}, {"file", "09.json"}});
  EXPECT_EQ(loaded.at("id"), 9) << loaded.dump();
  EXPECT_EQ(listed_ids(), json({9}));
}

TEST_F(Install, AMalformedListIsARequestError) {
  const std::pair<json, std::string> cases[] = {
      {json{{"op", "exercise.install"}}, "missing_field"},
      {json{{"op", "exercise.install"}, {"files", "01.json"}}, "invalid_type"},
      {json{{"op", "exercise.install"}, {"files", {7}}}, "invalid_type"},
      {json{{"op", "exercise.install"}, {"files", {{{"file", "01.json"}}}}}, "missing_field"},
      {json{{"op", "exercise.install"}, {"files", {{{"file", 1}, {"text", "{}"}}}}}, "invalid_type"},
      {json{{"op", "exercise.install"}, {"files", {{{"file", "01.json"}, {"text", "{}"}, {"txet", ""}}}}}, "unknown_field"},
      {json{{"op", "exercise.install"}, {"files", json::array()}, {"dir", "x"}}, "unknown_field"},
  };
  for (const auto& [req, code] : cases) {
    const json r = commlab::evaluate(req);
    ASSERT_TRUE(r.contains("error")) << req.dump();
    EXPECT_EQ(r.at("error").at("code"), code) << req.dump() << " -> " << r.dump();
  }
  json many = json::array();
  for (int i = 0; i < 1000; ++i) many.push_back(file("x.json", "{}"));
  EXPECT_EQ(install(many).at("error").at("code"), "too_large");
  // A request error changes nothing: the eight are still installed.
  EXPECT_EQ(listed_ids(), json({1, 2, 3, 4, 5, 6, 7, 8}));
}

// The native folder reader: index.json lists the files when present, else every *.json but
// index.json and schema.json.
TEST(ExerciseFolder, IndexListsTheFilesElseEveryJson) {
  json files = lecture_files();
  files.push_back(file("schema.json", "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}"));
  files.push_back(file("10.json", read(kFixtures + "10.json")));
  const std::string dir = folder("plain", files);
  const commlab::ExerciseFolder all = commlab::read_exercise_folder(dir);
  EXPECT_EQ(all.error, "");
  ASSERT_EQ(all.files.size(), 9u);
  EXPECT_EQ(all.files.front().file, "01.json");
  EXPECT_EQ(all.files.back().file, "10.json");
  std::ofstream(fs::path(dir) / "index.json") << R"({"files": ["02.json", "10.json"]})";
  const commlab::ExerciseFolder listed = commlab::read_exercise_folder(dir);
  ASSERT_EQ(listed.files.size(), 2u);
  EXPECT_EQ(listed.files[1].file, "10.json");
  std::ofstream(fs::path(dir) / "index.json") << R"({"files": ["../secret.json"]})";
  EXPECT_NE(commlab::read_exercise_folder(dir).error.find("must be {\"files\": [\"01.json\", ...]}"), std::string::npos);
  std::ofstream(fs::path(dir) / "index.json") << R"({"files": ["11.json"]})";
  EXPECT_NE(commlab::read_exercise_folder(dir).error.find("11.json: no such file"), std::string::npos);
  EXPECT_NE(commlab::read_exercise_folder(dir + "/nope").error.find("does not exist"), std::string::npos);
}

// The CLI: --exercises DIR, else $COMMLAB_EXERCISES_DIR, else the source tree's exercises/.
TEST(InstallCli, TheFolderComesFromTheFlagTheEnvironmentOrTheSourceTree) {
  json files = lecture_files();
  files.push_back(file("09.json", read(kFixtures + "09.json")));
  files.push_back(file("10.json", read(kFixtures + "10.json")));
  const std::string dir = folder("ten", files);
  const std::string list = "eval '{\"op\":\"exercise.list\"}'";
  const CliRun flag = cli("--exercises " + dir + " " + list);
  EXPECT_EQ(flag.status, 0) << flag.out;
  EXPECT_EQ(ids_of(json::parse(flag.out).at("exercises")), json({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  const CliRun env = cli(list, "COMMLAB_EXERCISES_DIR=" + dir);
  EXPECT_EQ(ids_of(json::parse(env.out).at("exercises")), json({1, 2, 3, 4, 5, 6, 7, 8, 9, 10})) << env.out;
  const CliRun source = cli(list, "env -u COMMLAB_EXERCISES_DIR");
  EXPECT_EQ(ids_of(json::parse(source.out).at("exercises")), json({1, 2, 3, 4, 5, 6, 7, 8})) << source.out;
  // The flag wins over the environment.
  const CliRun both = cli(std::string("--exercises ") + COMMLAB_SOURCE_DIR "/exercises " + list, "COMMLAB_EXERCISES_DIR=" + dir);
  EXPECT_EQ(ids_of(json::parse(both.out).at("exercises")).size(), 8u) << both.out;
  // The tenth solves through the CLI as through the API.
  const CliRun ten = cli("--exercises " + dir + " eval '{\"op\":\"exercise.solve\",\"id\":10,\"params\":{\"bytes\":16000}}'");
  EXPECT_EQ(json::parse(ten.out).at("answers").at("protocol"), "LL") << ten.out;
}

TEST(InstallCli, AMissingFolderOrABadFileIsAClearError) {
  const CliRun missing = cli("--exercises /nonexistent/commlab eval '{\"op\":\"links\"}'");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.out,
            "commlab: the exercises folder /nonexistent/commlab does not exist (give one with --exercises DIR or "
            "COMMLAB_EXERCISES_DIR)\n");
  json files = lecture_files();
  json five = json::parse(files[4].at("text").get<std::string>());
  five["params"][0]["kind"] = 5;
  files[4] = file("05.json", five.dump(2));
  const std::string dir = folder("bad", files);
  const CliRun bad = cli("--exercises " + dir + " eval '{\"op\":\"exercise.list\"}'");
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("commlab: " + dir + "/05.json: field 'params[0].kind' must be number, integer or choice"),
            std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("commlab exercise lint lists every problem"), std::string::npos) << bad.out;
  const CliRun empty = cli("--exercises " + folder("empty", json::array()) + " eval '{\"op\":\"links\"}'");
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.out.find("holds no exercise document"), std::string::npos) << empty.out;
  // Commands that answer no exercise request do not read the folder.
  EXPECT_EQ(cli("--exercises /nonexistent/commlab links").status, 0);
  // Lint still lints the files it is given, the bad one with every problem.
  const CliRun lint = cli("--exercises " + dir + " exercise lint " + dir + "/05.json " + dir + "/06.json");
  EXPECT_EQ(lint.status, 1) << lint.out;
  EXPECT_NE(lint.out.find(dir + "/05.json: params[0].kind"), std::string::npos) << lint.out;
  EXPECT_NE(lint.out.find(dir + "/06.json: ok"), std::string::npos) << lint.out;
}

// Lint checks a file against the installed set: an id an installed file of another name holds
// is a problem; the installed file itself, linted, is ok.
TEST(InstallCli, LintComparesWithTheInstalledSet) {
  json files = lecture_files();
  files.push_back(file("09.json", read(kFixtures + "09.json")));
  const std::string dir = folder("lint", files);
  const std::string draft = (fs::path(testing::TempDir()) / "draft-9.json").string();
  std::ofstream(draft) << read(kFixtures + "09.json");
  const CliRun r = cli("--exercises " + dir + " exercise lint " + dir + "/09.json " + draft);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(dir + "/09.json: ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(draft + ": id: exercise 9 is also the id of 09.json; allowed: one file per id"), std::string::npos) << r.out;
  const CliRun alone = cli("--exercises " + dir + " exercise lint " + draft);
  EXPECT_NE(alone.out.find(draft + ": id: exercise 9 is also the id of exercises/09.json, installed; allowed: one file per id"),
            std::string::npos)
      << alone.out;
}
