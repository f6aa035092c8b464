// commlab exercise key: the answer key of the lecture's values and of seeds A..B, as CSV (RFC
// 4180) or Markdown. No figure is computed here: params and answers are the engine's display
// strings (exercise.solve), ranges are written by the engine's own formatter.
#include "answer_key.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "api/api.hpp"
#include "base/quantity.hpp"

using nlohmann::json;

namespace commlab {

namespace {

constexpr std::uint64_t kMaxSeed = 9007199254740991ULL;  // 2^53 - 1, as exercise.variant allows
constexpr std::uint64_t kMaxSeeds = 10000;

struct Words {
  const char* exercise_column;
  const char* seed_column;
  const char* lecture;
  const char* exact;
  const char* accepted_open;  // "8 (accepted: 8 to 9)"
  const char* accepted_to;
  const char* accepted_close;
  const char* title_open;  // "## Exercise 1: ..."
  const char* title_colon;
  const char* paren_open;  // around a tolerance: "(±1%)"
  const char* paren_close;
};

const Words kEnglish{"exercise", "seed", "lecture", "exact", " (accepted: ", " to ", ")", "## Exercise ", ": ", " (", ")"};
const Words kChinese{"练习", "种子", "讲义", "精确", "（", " 到 ", " 都算对）", "## 练习 ", "：", "（", "）"};

struct Options {
  std::string id = "all";
  bool has_seeds = false;
  std::uint64_t first = 0, last = 0;
  bool markdown = false;
  std::string lang = "en";
};

struct Failure {
  int status;
  std::string message;
};

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 16) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A seed as the page's ?seed=N takes it: a whole number from 0 to 2^53 - 1.
bool parse_seed(const std::string& s, std::uint64_t* out) {
  if (!all_digits(s)) return false;
  *out = std::stoull(s);
  return *out <= kMaxSeed;
}

void parse_seeds(const std::string& value, Options* o) {
  const std::string allowed =
      "; allowed: a seed N or a range A-B (A <= B, at most 10,000 seeds), seeds from 0 to 9007199254740991";
  const size_t dash = value.find('-');
  const std::string a = dash == std::string::npos ? value : value.substr(0, dash);
  const std::string b = dash == std::string::npos ? value : value.substr(dash + 1);
  if (!parse_seed(a, &o->first) || !parse_seed(b, &o->last))
    throw Failure{2, "--seeds: value " + in_quotes(value) + " is not a seed or a range of seeds" + allowed};
  if (o->last < o->first)
    throw Failure{2, "--seeds: value " + in_quotes(value) + " ends before it starts" + allowed};
  if (o->last - o->first >= kMaxSeeds)
    throw Failure{2, "--seeds: value " + in_quotes(value) + " is " +
                         format_quantity(static_cast<double>(o->last - o->first + 1), "", Dimension::count) +
                         " seeds" + allowed};
  o->has_seeds = true;
}

Options parse(const std::vector<std::string>& args) {
  Options o;
  std::vector<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i], value;
    bool has_value = false;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    if (flag != "--id" && flag != "--seeds" && flag != "--format" && flag != "--lang")
      throw Failure{2, "unknown argument " + in_quotes(args[i]) + "; allowed: --id, --seeds, --format, --lang"};
    for (const std::string& s : seen)
      if (s == flag) throw Failure{2, flag + ": given twice; allowed: once"};
    seen.push_back(flag);
    if (!has_value) {
      if (i + 1 >= args.size()) {
        const char* what = flag == "--id"      ? "all or an exercise's id"
                           : flag == "--seeds" ? "a seed N or a range A-B"
                           : flag == "--format" ? "csv, markdown"
                                                : "en, zh";
        throw Failure{2, flag + ": needs a value; allowed: " + what};
      }
      value = args[++i];
    }
    if (flag == "--id") {
      o.id = value;  // checked against the installed exercises (run)
    } else if (flag == "--seeds") {
      parse_seeds(value, &o);
    } else if (flag == "--format") {
      if (value != "csv" && value != "markdown")
        throw Failure{2, "--format: value " + in_quotes(value) + " is not allowed; allowed: csv, markdown"};
      o.markdown = value == "markdown";
    } else {
      if (value != "en" && value != "zh")
        throw Failure{2, "--lang: value " + in_quotes(value) + " is not allowed; allowed: en, zh"};
      o.lang = value;
    }
  }
  return o;
}

json ask(const json& request, const std::string& where) {
  json out = evaluate(request);
  if (out.contains("error")) throw Failure{1, where + ": " + out["error"].value("message", out["error"].dump())};
  return out;
}

// A text of the document in `lang` ({en, zh}), English where it has no Chinese.
std::string pick(const json& text, const std::string& lang) {
  if (text.is_string()) return text.get<std::string>();
  if (!text.is_object()) return "";
  if (text.contains(lang) && text[lang].is_string()) return text[lang].get<std::string>();
  return text.value("en", "");
}

// A choice answer's value in words, as the page's answer field offers it.
std::string choice_words(const json& def, const std::string& value, const std::string& lang) {
  const json labels = def.value("choice_labels", json::object());
  if (labels.is_object() && labels.contains(value)) return pick(labels[value], lang);
  for (const json& c : def.value("choices", json::array()))
    if (c.is_object() && c.value("id", "") == value && c.contains("label")) return pick(c["label"], lang);
  return value;
}

bool is_choice(const json& def) { return def.contains("choices") && def["choices"].is_array() && !def["choices"].empty(); }

// The column of an answer: its label and the tolerance the document judges it with.
std::string answer_heading(const json& def, const std::string& lang, const Words& w) {
  const std::string label = pick(def.value("label", json()), lang);
  if (is_choice(def)) return label;
  if (def.value("exact", false)) return label + w.paren_open + w.exact + w.paren_close;
  if (def.contains("tolerance_rel") && def["tolerance_rel"].is_number())
    return label + w.paren_open + "±" + format_quantity(def["tolerance_rel"].get<double>(), "%", Dimension::fraction) +
           w.paren_close;
  return label;
}

// One row: the seed, each param as the engine writes it, each answer as students are shown it.
std::vector<std::string> row(const json& doc, const json& solved, const std::string& seed, const std::string& lang,
                             const Words& w) {
  std::vector<std::string> cells{seed};
  const json shown = solved.value("params_display", json::object());
  for (const json& p : doc.at("params")) {
    const std::string id = p.at("id");
    cells.push_back(shown.contains(id) && shown[id].is_string() ? shown[id].get<std::string>() : "");
  }
  const json display = solved.value("display", json::object());
  const json ranges = solved.value("ranges", json::object());
  for (const json& a : doc.at("answers")) {
    const std::string id = a.at("id");
    std::string cell = display.contains(id) && display[id].is_string() ? display[id].get<std::string>() : "";
    if (is_choice(a)) cell = choice_words(a, cell, lang);
    // Where the lecture accepts a range, every value in it passes (exercises/SCHEMA.md "computed_ranges").
    const json& r = ranges.contains(id) ? ranges[id] : json();
    const std::optional<Dimension> dim = parse_dimension(a.value("dimension", ""));
    // A range whose ends read alike in four figures adds nothing to the value (exercise 8's 268.4 ms).
    if (r.is_array() && r.size() == 2 && r[0].is_number() && r[1].is_number() && dim) {
      const std::string unit = a.value("unit", "");
      const std::string lo = format_quantity(r[0].get<double>(), unit, *dim);
      const std::string hi = format_quantity(r[1].get<double>(), unit, *dim);
      if (lo != hi) cell += std::string(w.accepted_open) + lo + w.accepted_to + hi + w.accepted_close;
    }
    cells.push_back(cell);
  }
  return cells;
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

void write_table(std::ostream& out, const Options& o, const Words& w, int id, const std::string& title,
                 const std::vector<std::vector<std::string>>& grid) {
  if (o.markdown) {
    out << w.title_open << id << w.title_colon << markdown_cell(title) << "\n\n";
    for (size_t r = 0; r < grid.size(); ++r) {
      out << "|";
      for (const std::string& c : grid[r]) out << " " << markdown_cell(c) << " |";
      out << "\n";
      if (r == 0) {
        out << "|";
        for (size_t i = 0; i < grid[r].size(); ++i) out << (i == 0 ? " --- |" : " ---: |");
        out << "\n";
      }
    }
    return;
  }
  for (size_t r = 0; r < grid.size(); ++r) {
    out << csv_field(r == 0 ? w.exercise_column : std::to_string(id));
    for (const std::string& c : grid[r]) out << "," << csv_field(c);
    out << "\r\n";
  }
}

}  // namespace

int exercise_key(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::string who = "commlab exercise key: ";
  try {
    const Options o = parse(args);
    const Words& w = o.lang == "zh" ? kChinese : kEnglish;
    const json list = ask(json{{"op", "exercise.list"}}, "exercise.list");
    std::vector<int> ids;
    std::string allowed = "all";
    for (const json& ex : list.at("exercises")) {
      ids.push_back(ex.at("id").get<int>());
      allowed += ", " + std::to_string(ids.back());
    }
    if (o.id != "all") {
      int chosen = -1;
      // "3" or "03", as the files are named
      for (int id : ids)
        if (all_digits(o.id) && o.id.size() <= 9 && std::stoi(o.id) == id) chosen = id;
      if (chosen < 0) throw Failure{2, "--id: value " + in_quotes(o.id) + " names no exercise; allowed: " + allowed};
      ids = {chosen};
    }
    // Everything is computed before anything is written: an engine error leaves no half key.
    std::ostringstream key;
    for (size_t n = 0; n < ids.size(); ++n) {
      const int id = ids[n];
      const std::string ex = "exercise " + std::to_string(id);
      const json doc = ask(json{{"op", "exercise.get"}, {"id", id}}, ex);
      std::vector<std::vector<std::string>> grid;
      std::vector<std::string> head{w.seed_column};
      for (const json& p : doc.at("params")) head.push_back(pick(p.value("label", json()), o.lang));
      for (const json& a : doc.at("answers")) head.push_back(answer_heading(a, o.lang, w));
      grid.push_back(head);
      grid.push_back(row(doc, ask(json{{"op", "exercise.solve"}, {"id", id}}, ex), w.lecture, o.lang, w));
      if (o.has_seeds) {
        for (std::uint64_t s = o.first;; ++s) {
          const std::string at = ex + ", seed " + std::to_string(s);
          const json v = ask(json{{"op", "exercise.variant"}, {"id", id}, {"seed", s}}, at);
          const json solved = ask(json{{"op", "exercise.solve"}, {"id", id}, {"params", v.at("params")}}, at);
          grid.push_back(row(doc, solved, std::to_string(s), o.lang, w));
          if (s == o.last) break;
        }
      }
      if (n) key << (o.markdown ? "\n" : "\r\n");  // one table after another
      write_table(key, o, w, id, pick(doc.value("title", json()), o.lang), grid);
    }
    out << key.str();
    return 0;
  } catch (const Failure& f) {
    err << who << f.message << "\n";
    return f.status;
  } catch (const json::exception& e) {
    err << who << "an exercise document has a field of the wrong type: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace commlab
