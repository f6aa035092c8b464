// `commlab exercise key` (cli/README.md "Answer keys"): each row of the key is what
// exercise.variant and exercise.solve give for its seed, as the page shows it to students; the
// CSV parses by RFC 4180; the Markdown holds the same cells; bad arguments are one line naming
// the flag, the value and what is allowed, exit 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "api/api.hpp"
#include "base/quantity.hpp"
#include "exercise_folder.hpp"
#include "test_files.hpp"
#include "test_cli.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct KeyRun {
  int status = -1;
  std::string out, err;
};

// The CLI with stdout and stderr apart.
KeyRun cli(const std::string& args) {
  // One file per process: ctest runs this binary's tests side by side (-j).
  const fs::path err = fs::path(testing::TempDir()) / ("commlab_key_stderr." + std::to_string(getpid()) + ".txt");
  const commlab_test::CliRun run = commlab_test::run_cli(args, "", "2>" + err.string());
  return {run.status, run.out, commlab_test::read_file(err.string())};
}

using Table = std::vector<std::vector<std::string>>;

// RFC 4180: records end in CRLF, a quoted field may hold commas, CRLF and doubled quotes. An
// empty line separates two tables. A malformed text (a stray quote, a bare LF) fails the test.
std::vector<Table> parse_csv(const std::string& text) {
  std::vector<Table> tables(1);
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      EXPECT_TRUE(field.empty() && !was_quoted) << "a quote inside an unquoted field at byte " << i;
      quoted = was_quoted = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\r') {
      EXPECT_TRUE(i + 1 < text.size() && text[i + 1] == '\n') << "a CR without LF at byte " << i;
      ++i;
      if (record.empty() && field.empty() && !was_quoted) {  // an empty line: the next table
        EXPECT_FALSE(tables.back().empty()) << "two empty lines at byte " << i;
        tables.emplace_back();
        continue;
      }
      record.push_back(field);
      tables.back().push_back(record);
      record.clear();
      field.clear();
      was_quoted = false;
    } else {
      EXPECT_NE(c, '\n') << "a bare LF at byte " << i;
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "an unterminated quote";
  EXPECT_TRUE(record.empty() && field.empty()) << "the last record has no CRLF";
  for (const Table& t : tables) {
    EXPECT_FALSE(t.empty());
    for (const auto& r : t) EXPECT_EQ(r.size(), t.at(0).size()) << "a record of another width";
  }
  return tables;
}

json ask(const json& request) {
  const json out = commlab::evaluate(request);
  EXPECT_FALSE(out.contains("error")) << request.dump() << " -> " << out.dump();
  return out;
}

std::string pick(const json& text, const std::string& lang) {
  return text.is_string() ? text.get<std::string>() : text.value(lang, text.value("en", ""));
}

// What the key's header says of an answer: its label and the tolerance of the document.
std::string heading(const json& a, const std::string& lang) {
  const std::string label = pick(a.at("label"), lang);
  const bool zh = lang == "zh";
  if (a.contains("choices")) return label;
  if (a.value("exact", false)) return label + (zh ? "（精确）" : " (exact)");
  const std::string tol = "±" + commlab::format_quantity(a.at("tolerance_rel").get<double>(), "%", commlab::Dimension::fraction);
  return label + (zh ? "（" + tol + "）" : " (" + tol + ")");
}

// The row the key must print for `solved` (exercise.solve's answer): params_display, then each
// answer's display (a choice by its label), with the accepted range where solve gives one.
std::vector<std::string> expected_row(const json& doc, const json& solved, const std::string& seed, const std::string& lang) {
  std::vector<std::string> row{seed};
  for (const json& p : doc.at("params")) row.push_back(solved.at("params_display").at(p.at("id").get<std::string>()));
  for (const json& a : doc.at("answers")) {
    const std::string id = a.at("id");
    std::string cell = solved.at("display").at(id);
    if (a.contains("choice_labels")) cell = pick(a.at("choice_labels").at(cell), lang);
    if (solved.at("ranges").contains(id)) {
      const auto dim = commlab::parse_dimension(a.at("dimension"));
      const std::string lo = commlab::format_quantity(solved["ranges"][id][0].get<double>(), a.value("unit", ""), *dim);
      const std::string hi = commlab::format_quantity(solved["ranges"][id][1].get<double>(), a.value("unit", ""), *dim);
      if (lo != hi) cell += lang == "zh" ? "（" + lo + " 到 " + hi + " 都算对）" : " (accepted: " + lo + " to " + hi + ")";
    }
    row.push_back(cell);
  }
  return row;
}

std::vector<int> listed_ids() {
  std::vector<int> ids;
  const json list = ask(json{{"op", "exercise.list"}});
  for (const json& ex : list.at("exercises")) ids.push_back(ex.at("id"));
  EXPECT_FALSE(ids.empty());
  return ids;
}

// Table `t` of the key is exercise `id`'s: the header, the lecture's row, then seeds first..last.
void expect_key(const Table& t, int id, int first, int last, const std::string& lang = "en") {
  const json doc = ask(json{{"op", "exercise.get"}, {"id", id}});
  std::vector<std::string> head{lang == "zh" ? "练习" : "exercise", lang == "zh" ? "种子" : "seed"};
  for (const json& p : doc.at("params")) head.push_back(pick(p.at("label"), lang));
  for (const json& a : doc.at("answers")) head.push_back(heading(a, lang));
  ASSERT_EQ(t.size(), static_cast<size_t>(2 + last - first + 1)) << "exercise " << id;
  EXPECT_EQ(t[0], head);
  auto with_id = [&](std::vector<std::string> row) {
    row.insert(row.begin(), std::to_string(id));
    return row;
  };
  EXPECT_EQ(t[1], with_id(expected_row(doc, ask(json{{"op", "exercise.solve"}, {"id", id}}), lang == "zh" ? "讲义" : "lecture", lang)));
  for (int s = first; s <= last; ++s) {
    const json v = ask(json{{"op", "exercise.variant"}, {"id", id}, {"seed", s}});
    const json solved = ask(json{{"op", "exercise.solve"}, {"id", id}, {"params", v.at("params")}});
    EXPECT_EQ(t[2 + s - first], with_id(expected_row(doc, solved, std::to_string(s), lang))) << "exercise " << id << ", seed " << s;
  }
}

}  // namespace

TEST(AnswerKey, EachRowIsTheEnginesVariantAndAnswersForItsSeed) {
  for (int id : listed_ids()) {
    const KeyRun r = cli("exercise key --id " + std::to_string(id) + " --seeds 100-139 --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<Table> tables = parse_csv(r.out);
    ASSERT_EQ(tables.size(), 1u);
    expect_key(tables[0], id, 100, 139);
  }
}

TEST(AnswerKey, EveryExerciseOneTableAfterAnotherInTheListsOrder) {
  const std::vector<int> ids = listed_ids();
  const KeyRun all = cli("exercise key --seeds 7");
  ASSERT_EQ(all.status, 0) << all.err;
  const std::vector<Table> tables = parse_csv(all.out);
  ASSERT_EQ(tables.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) expect_key(tables[i], ids[i], 7, 7);
  // --id all is the default, and no --seeds is the lecture's row alone.
  EXPECT_EQ(cli("exercise key --id all --seeds 7-7 --format csv").out, all.out);
  const std::vector<Table> lecture = parse_csv(cli("exercise key").out);
  ASSERT_EQ(lecture.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) expect_key(lecture[i], ids[i], 0, -1);
}

TEST(AnswerKey, CommasInFiguresAreQuoted) {
  // Exercise 7's token counts are written with thousands commas ("131,072 tokens").
  const KeyRun r = cli("exercise key --id 7");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string shown = ask(json{{"op", "exercise.solve"}, {"id", 7}}).at("params_display").at("prompt_tokens");
  ASSERT_NE(shown.find(','), std::string::npos) << shown;
  EXPECT_NE(r.out.find(",\"" + shown + "\","), std::string::npos) << r.out;
}

TEST(AnswerKey, ChineseLabelsTitlesAndWords) {
  const KeyRun r = cli("exercise key --id 3 --seeds 0-4 --lang zh");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_key(parse_csv(r.out).at(0), 3, 0, 4, "zh");
  // Exercise 6 accepts a range of micro-batch counts: said in the cell.
  const KeyRun six = cli("exercise key --id 6 --lang zh");
  EXPECT_NE(six.out.find("都算对）"), std::string::npos) << six.out;
  expect_key(parse_csv(six.out).at(0), 6, 0, -1, "zh");
}

TEST(AnswerKey, MarkdownHoldsTheSameCellsUnderTheTitle) {
  for (const std::string lang : {"en", "zh"}) {
    const Table csv = parse_csv(cli("exercise key --id 4 --seeds 3-5 --lang " + lang).out).at(0);
    const KeyRun md = cli("exercise key --id 4 --seeds 3-5 --format markdown --lang " + lang);
    ASSERT_EQ(md.status, 0) << md.err;
    std::vector<std::string> lines;
    size_t at = 0;
    for (size_t nl; (nl = md.out.find('\n', at)) != std::string::npos; at = nl + 1) lines.push_back(md.out.substr(at, nl - at));
    EXPECT_EQ(at, md.out.size()) << "the last line has no line break";
    const json title = ask(json{{"op", "exercise.get"}, {"id", 4}}).at("title");
    EXPECT_EQ(lines.at(0), lang == "zh" ? "## 练习 4：" + pick(title, "zh") : "## Exercise 4: " + pick(title, "en"));
    EXPECT_EQ(lines.at(1), "");
    ASSERT_EQ(lines.size(), 2 + csv.size() + 1);  // title, blank, header, rule, rows
    auto cells = [](const std::string& line) {
      std::vector<std::string> out;
      EXPECT_EQ(line.substr(0, 2), "| ");
      EXPECT_EQ(line.substr(line.size() - 2), " |");
      const std::string inner = line.substr(2, line.size() - 4);
      size_t from = 0;
      for (size_t bar; (bar = inner.find(" | ", from)) != std::string::npos; from = bar + 3) out.push_back(inner.substr(from, bar - from));
      out.push_back(inner.substr(from));
      return out;
    };
    for (size_t r = 0; r < csv.size(); ++r) {
      std::vector<std::string> want(csv[r].begin() + 1, csv[r].end());  // no exercise column
      EXPECT_EQ(cells(lines.at(r == 0 ? 2 : r + 3)), want);
    }
    EXPECT_EQ(cells(lines.at(3)).size(), csv[0].size() - 1);
  }
}

TEST(AnswerKey, AnExerciseWrittenAsJsonHasAKeyToo) {
  const std::string file = COMMLAB_SOURCE_DIR "/tests/fixtures/exercises/09.json";
  const KeyRun r = cli("--exercise " + file + " exercise key --id 9 --seeds 0-2");
  ASSERT_EQ(r.status, 0) << r.err;
  const json loaded = commlab::evaluate(json{{"op", "exercise.load"}, {"text", commlab_test::read_file(file)}, {"file", "09.json"}});
  ASSERT_FALSE(loaded.contains("error")) << loaded.dump();
  expect_key(parse_csv(r.out).at(0), 9, 0, 2);
  // The other tests see the lecture's eight again.
  const json again = commlab::install_exercise_folder(COMMLAB_SOURCE_DIR "/exercises");
  ASSERT_EQ(again.at("problems"), json::array()) << again.dump();
}

TEST(AnswerKey, BadArgumentsAreOneLineNamingFlagValueAndWhatIsAllowed) {
  struct Bad {
    std::string args, flag, value;
  };
  const std::vector<Bad> bad = {
      {"--id 12", "--id", "'12'"},
      {"--id three", "--id", "'three'"},
      {"--id 0", "--id", "'0'"},
      {"--seeds 9-3", "--seeds", "'9-3'"},
      {"--seeds 0-10000", "--seeds", "'0-10000'"},  // 10,001 seeds
      {"--seeds 1-x", "--seeds", "'1-x'"},
      {"--seeds seven", "--seeds", "'seven'"},
      {"--seeds -3", "--seeds", "'-3'"},
      {"--seeds 2.5", "--seeds", "'2.5'"},
      {"--seeds 9007199254740992", "--seeds", "'9007199254740992'"},
      {"--seeds 1--2", "--seeds", "'1--2'"},
      {"--format pdf", "--format", "'pdf'"},
      {"--format=xlsx", "--format", "'xlsx'"},
      {"--lang fr", "--lang", "'fr'"},
      {"--seeds", "--seeds", ""},
      {"--id 1 --id 2", "--id", ""},
      {"--colour red", "'--colour'", ""},
  };
  for (const Bad& b : bad) {
    const KeyRun r = cli("exercise key " + b.args);
    EXPECT_EQ(r.status, 2) << b.args;
    EXPECT_EQ(r.out, "") << b.args;
    ASSERT_FALSE(r.err.empty()) << b.args;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_EQ(r.err.rfind("commlab exercise key: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(b.flag), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(b.value), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("allowed: "), std::string::npos) << r.err;
  }
  EXPECT_NE(cli("exercise key --id 99").err.find("allowed: all, 1, 2, 3, 4, 5, 6, 7, 8"), std::string::npos);
  EXPECT_NE(cli("exercise key --seeds 0-10000").err.find("10,001 seeds"), std::string::npos);
  // The largest range allowed, 10,000 seeds, is not refused (one exercise, the quickest to solve).
  const KeyRun most = cli("exercise key --id 1 --seeds 5000-14999");
  EXPECT_EQ(most.status, 0) << most.err;
  EXPECT_EQ(parse_csv(most.out).at(0).size(), 2u + 10000u);
}

TEST(AnswerKey, TheHelpListsTheCommand) {
  const KeyRun r = cli("help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("commlab exercise key [--id N|all] [--seeds A-B|N] [--format csv|markdown] [--lang en|zh]"),
            std::string::npos) << r.out;
}
