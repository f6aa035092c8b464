// The command-line door to the engine: eval one request, a batch on stdin, a demo table,
// nccl-tests logs fitted to the model, or what NCCL built (topology.cpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "api/api.hpp"
#include "exercises/exercises.hpp"
#include "demos/demo_table.hpp"
#include "answer_key.hpp"
#include "bounded_read.hpp"
#include "exercise_folder.hpp"
#include "topology.hpp"

using nlohmann::json;

namespace {

const char* kUsage =
    "commlab: the P5 communication cost engine\n"
    "\n"
    "  commlab eval '<json>'        answer one request, e.g.\n"
    "                               commlab eval '{\"op\":\"transfer\",\"link\":\"nvlink4\",\"bytes\":65536}'\n"
    "  commlab eval < requests      one request per line (NDJSON), one answer per line\n"
    "  commlab demo <id> [--json]   a lecture table with the lecture's figure beside the engine's;\n"
    "                               id is 01..05 or all\n"
    "  commlab exercise lint FILE.. check exercise files (schema, both languages, placeholders,\n"
    "                               default answers, variants); each problem names its path\n"
    "  commlab exercise key [--id N|all] [--seeds A-B|N] [--format csv|markdown] [--lang en|zh]\n"
    "                               an answer key: the lecture's values, then one row per seed\n"
    "                               (the variant the page's ?seed=N shows): params and answers\n"
    "                               as students see them, with the judging tolerance; default\n"
    "                               every exercise, no seed, csv, en; at most 10,000 seeds\n"
    "  commlab --exercise FILE ...  add an exercise written as JSON before the command\n"
    "                               (e.g. commlab --exercise 09.json eval '{\"op\":\"exercise.solve\",\"id\":9}')\n"
    "  commlab --exercises DIR ...  read the exercises from DIR (its index.json, else every *.json);\n"
    "                               default: $COMMLAB_EXERCISES_DIR, else " COMMLAB_EXERCISES_DIR_DEFAULT "\n"
    "  commlab fit [options] FILE.. fit each nccl-tests log (- reads stdin) to the ring model: per table\n"
    "                               alpha, bus bandwidth, residuals, collapses, the nearest link;\n"
    "                               --collective NAME, --ranks N (when the log does not say), --link ID\n"
    "                               (compare with), --in-place, --rows (every row), --skipped (every\n"
    "                               skipped line), --json (the answer as JSON)\n"
    "  commlab topology [options] FILE..  what NCCL built, from each log of a run with NCCL_DEBUG=INFO\n"
    "                               (- reads stdin): per communicator its ranks and hosts, rings, trees\n"
    "                               and transports, the hops that cross nodes, the bus bandwidth the\n"
    "                               lecture's model predicts beside nccl-tests' measurement; --gpu ID,\n"
    "                               --nvlink ID (P2P hops' link), --nic ID (NET hops' link), --rings\n"
    "                               (every ring), --json (the answer as JSON)\n"
    "  commlab ops                  the request ops\n"
    "  commlab links                the link catalogue\n";

std::string cell(const json& v, const std::string& unit) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) {
    const double x = v.get<double>();
    char buf[64];
    if (x != 0 && (std::fabs(x) >= 1e6 || std::fabs(x) < 1e-3))
      std::snprintf(buf, sizeof buf, "%.3e", x);
    else if (std::fabs(x - std::round(x)) < 1e-9 && std::fabs(x) < 1e6)
      std::snprintf(buf, sizeof buf, "%.0f", x);
    else
      std::snprintf(buf, sizeof buf, "%.4g", x);
    (void)unit;
    return buf;
  }
  return v.dump();
}

void print_table(const json& t) {
  std::cout << "\n== " << t.at("id").get<std::string>() << "  " << t.at("title").get<std::string>() << "\n";
  const json& cols = t.at("columns");
  std::vector<std::vector<std::string>> grid;
  std::vector<std::string> head;
  for (const json& c : cols) {
    std::string label = c.at("label");
    const std::string unit = c.at("unit");
    if (!unit.empty()) label += " (" + unit + ")";
    head.push_back(label);
  }
  grid.push_back(head);
  for (const json& row : t.at("rows")) {
    std::vector<std::string> line;
    for (size_t i = 0; i < row.size(); ++i)
      line.push_back(cell(row[i], i < cols.size() ? cols[i].at("unit").get<std::string>() : ""));
    grid.push_back(line);
  }
  std::vector<size_t> width(head.size(), 0);
  for (const auto& line : grid)
    for (size_t i = 0; i < line.size() && i < width.size(); ++i) width[i] = std::max(width[i], line[i].size());
  for (size_t r = 0; r < grid.size(); ++r) {
    std::cout << "  ";
    for (size_t i = 0; i < grid[r].size() && i < width.size(); ++i) {
      const std::string& s = grid[r][i];
      std::cout << (i == 0 ? s + std::string(width[i] - s.size(), ' ') : std::string(width[i] - s.size(), ' ') + s)
                << (i + 1 < grid[r].size() ? "  " : "");
    }
    std::cout << "\n";
  }
  for (const json& c : t.at("checks")) {
    const std::string status = c.at("status");
    const char* mark = status == "match" ? "ok    " : status == "close" ? "close " : "DIFFERS";
    std::cout << "  [" << mark << "] " << c.at("what").get<std::string>() << ": engine "
              << cell(c.at("engine"), "") << ", lecture " << c.at("lecture").get<std::string>();
    const std::string unit = c.at("unit");
    if (!unit.empty()) std::cout << " " << unit;
    if (c.contains("note")) std::cout << " (" << c.at("note").get<std::string>() << ")";
    std::cout << "\n";
  }
  for (const json& a : t.at("assumptions")) std::cout << "  assumed: " << a.get<std::string>() << "\n";
  for (const json& n : t.at("notes")) std::cout << "  note: " << n.get<std::string>() << "\n";
}

int run_demo(const std::string& id, bool as_json) {
  const json out = commlab::evaluate(json{{"op", "demo"}, {"id", id}});
  if (out.contains("error")) {
    std::cerr << "commlab: " << out["error"]["message"].get<std::string>() << "\n";
    return 2;
  }
  if (as_json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const json& d : out.at("demos")) {
    std::cout << "\n#### code " << d.at("id").get<std::string>() << ": " << d.at("title").get<std::string>() << "\n";
    for (const json& t : d.at("tables")) print_table(t);
  }
  const json& s = out.at("summary");
  std::cout << "\nchecks: " << s.at("match") << " match the lecture's rounding, " << s.at("close")
            << " within the lecture's \"about\", " << s.at("differs") << " differ\n";
  return s.at("differs").get<int>() == 0 ? 0 : 1;
}

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// commlab exercise lint FILE...: every problem, "FILE: path: what", exit 1 if any.
int lint(int argc, char** argv, int first) {
  if (first >= argc) {
    std::cerr << "commlab exercise lint: give one or more exercise files\n";
    return 2;
  }
  int bad = 0;
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> paths;
  for (int i = first; i < argc; ++i) {
    std::string text, error;
    if (!commlab::read_file_bounded(argv[i], commlab::kDocumentLimit, &text, &error)) {
      std::cerr << error << "\n";
      ++bad;
      continue;
    }
    files.push_back({base_name(argv[i]), std::move(text)});
    paths.push_back(argv[i]);
  }
  // One call for all: an id used by two files is a problem of the later one.
  const std::vector<std::vector<std::string>> problems = commlab::lint_exercise_files(files);
  for (size_t i = 0; i < problems.size(); ++i) {
    for (const std::string& p : problems[i]) std::cerr << paths[i] << ": " << p << "\n";
    if (problems[i].empty()) std::cout << paths[i] << ": ok\n";
    bad += problems[i].empty() ? 0 : 1;
  }
  return bad ? 1 : 0;
}

// The engine's "exercises/03.json: ..." names the file as installed: say `path` instead.
std::string as_given(const std::string& message, const std::string& path) {
  const std::string head = "exercises/" + base_name(path);
  return message.rfind(head, 0) == 0 ? path + message.substr(head.size()) : message;
}

// The same for a file of the folder `dir`: DIR/03.json.
std::string at_path(const std::string& message, const std::string& dir, const std::string& file) {
  return as_given(message, dir + (dir.empty() || dir.back() == '/' ? "" : "/") + file);
}

// Installs the exercises of `dir` (core reads no files). `strict`: a bad file or an empty folder
// is an error (eval); lint installs what it can and checks the files it is given itself.
bool install(const std::string& dir, bool strict) {
  const json out = commlab::install_exercise_folder(dir);
  if (out.contains("error")) {
    std::cerr << "commlab: " << out["error"]["message"].get<std::string>() << "\n";
    return false;
  }
  if (!strict) return true;
  for (const json& p : out.at("problems"))
    std::cerr << "commlab: " << at_path(p.at("message"), dir, p.at("file")) << "\n";
  if (!out.at("problems").empty()) {
    std::cerr << "commlab: fix the exercise files above (commlab exercise lint lists every problem), or give "
                 "another folder with --exercises DIR\n";
    return false;
  }
  if (out.at("exercises").empty()) {
    std::cerr << "commlab: the exercises folder " << dir << " holds no exercise document (*.json)\n";
    return false;
  }
  return true;
}

// commlab fit: the `fit` op on each file, printed as a short table a table.
std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string sig(double x, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

// Bytes in decimal SI (P5 §0.4), as the README and the page write them.
std::string si_bytes(double b) {
  const char* unit[] = {"B", "KB", "MB", "GB", "TB"};
  int i = 0;
  while (b >= 1000 && i < 4) {
    b /= 1000;
    ++i;
  }
  return sig(b, 3) + " " + unit[i];
}

// A time in us as nccl-tests prints one: two decimals, fewer as it grows.
std::string time_us(double us) { return fixed(us, us < 1000 ? 2 : us < 10000 ? 1 : 0); }

std::string pad_left(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

void print_fit_table(const json& t, size_t index, bool all_rows, bool all_skipped) {
  const json& f = t.at("fit");
  std::cout << "table " << index + 1 << " (lines " << t.at("first_line") << "-" << t.at("last_line")
            << "): " << t.at("collective").get<std::string>();
  if (t.at("ranks").get<int>() > 0) std::cout << " on " << t.at("ranks") << " ranks";
  std::cout << ", " << t.at("type").get<std::string>();
  if (!t.at("redop").get<std::string>().empty()) std::cout << " " << t.at("redop").get<std::string>();
  std::cout << ", " << (t.at("columns") == "in_place" ? "in-place" : "out-of-place") << "; collective from "
            << t.at("collective_from").get<std::string>()
            << (t.at("ranks").get<int>() > 0 ? ", ranks from " : ", rank count ") << t.at("ranks_from").get<std::string>()
            << "\n";
  // The headline: the bandwidth-bound rows' level, what a link is compared with; the best row beside it.
  const int plateau_rows = t.at("plateau_rows");
  const json& best = t.at("best_row");
  const json& compared = t.contains("link") ? t.at("link") : t.at("nearest_link");
  std::cout << "  bus bandwidth plateau " << sig(t.at("plateau_busbw_Bps").get<double>() / 1e9) << " GB/s ("
            << (plateau_rows == 1 ? "the largest size, " + si_bytes(t.at("plateau_from_bytes")) +
                                        ", alone: the sweep may end before the bandwidth-bound sizes"
                                  : std::to_string(plateau_rows) + " sizes from " + si_bytes(t.at("plateau_from_bytes")))
            << "; " << fixed(compared.at("plateau_ratio").get<double>(), 2) << " of " << compared.at("id").get<std::string>()
            << "'s " << sig(compared.at("beta_Bps").get<double>() / 1e9) << " GB/s effective); best row "
            << sig(best.at("busbw_Bps").get<double>() / 1e9) << " GB/s at "
            << si_bytes(best.at("bytes")) << " (line " << best.at("line") << ")\n";
  const int steps = f.at("steps");
  std::cout << "  T = " << steps << " x alpha + " << sig(t.at("factor").get<double>()) << " x S / beta:  alpha "
            << sig(f.at("alpha_s").get<double>() * 1e6) << " us a step (latency " << sig(f.at("latency_s").get<double>() * 1e6)
            << " us), beta " << sig(f.at("beta_Bps").get<double>() / 1e9) << " GB/s bus bandwidth, n_1/2 "
            << si_bytes(t.at("n_half_bytes"));
  if (f.contains("caveat"))  // two sizes: the line passes through both, a residual tests nothing
    std::cout << "\n  caveat (" << f.at("caveat").get<std::string>()
              << "): alpha and beta fit any two sizes exactly, so this says nothing of how well the model "
                 "fits; measure three sizes or more (nccl-tests -b and -e apart)\n";
  else
    std::cout << "; relative RMS " << fixed(f.at("rel_rms").get<double>() * 100, 1) << "% over " << f.at("rows")
              << " sizes\n";
  const json& n = t.at("nearest_link");
  std::cout << "  nearest link " << n.at("id").get<std::string>() << " (" << n.at("label").get<std::string>() << ", "
            << sig(n.at("beta_Bps").get<double>() / 1e9) << " GB/s effective): beta / effective = "
            << fixed(n.at("ratio").get<double>(), 2);
  if (t.contains("link")) {
    const json& l = t.at("link");
    std::cout << "; " << l.at("id").get<std::string>() << " (asked): " << fixed(l.at("ratio").get<double>(), 2);
  }
  std::cout << "\n  "
            << (t.at("exceeds_link").get<bool>() ? "a row above the link's nominal bandwidth (exceeds_link); " : "")
            << "collapses: ";
  if (t.at("collapses").empty()) std::cout << "none";
  for (size_t i = 0; i < t.at("collapses").size(); ++i) {
    const json& c = t.at("collapses")[i];
    std::cout << (i ? ", " : "") << si_bytes(c.at("from_bytes")) << " to " << si_bytes(c.at("to_bytes")) << " (down to "
              << fixed(c.at("worst_ratio").get<double>(), 2) << " of the best before)";
  }
  std::cout << "\n";
  for (const json& note : t.at("notes")) std::cout << "  note: " << note.get<std::string>() << "\n";
  const json& rows = t.at("rows");
  std::cout << "  " << pad_left("size (B)", 13) << pad_left("time (us)", 12) << pad_left("busbw (GB/s)", 14)
            << pad_left("model (us)", 12) << pad_left("residual", 12) << "\n";
  const size_t shown = 20;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!all_rows && rows.size() > 2 * shown && i == shown) {
      std::cout << "  ... " << rows.size() - 2 * shown << " rows more (--rows prints them all)\n";
      i = rows.size() - shown;
    }
    const json& r = rows[i];
    const double res = r.at("residual").get<double>() * 100;
    const bool fitted = !r.contains("not_fitted");
    std::cout << "  " << pad_left(fixed(r.at("bytes").get<double>(), 0), 13)
              << pad_left(time_us(r.at("time_s").get<double>() * 1e6), 12)
              << pad_left(fixed(r.at("busbw_Bps").get<double>() / 1e9, 2), 14)
              << pad_left(time_us(r.at("model_time_s").get<double>() * 1e6), 12)
              << pad_left(!fitted ? "not fitted" : std::fabs(res) < 0.05 ? "0.0%" : (res > 0 ? "+" : "") + fixed(res, 1) + "%", 12)
              << "\n";
  }
  const json& skipped = t.at("skipped");
  if (!skipped.empty()) {
    std::cout << "  skipped " << skipped.size() << (skipped.size() == 1 ? " line" : " lines") << ":";
    const size_t limit = all_skipped ? skipped.size() : std::min<size_t>(skipped.size(), 3);
    for (size_t i = 0; i < limit; ++i)
      std::cout << "\n    line " << skipped[i].at("line") << ": " << skipped[i].at("reason").get<std::string>();
    if (limit < skipped.size()) std::cout << "\n    ... " << skipped.size() - limit << " more (--skipped lists them all)";
    std::cout << "\n";
  }
}

// The op names its request fields ("field 'collective': ...", "give 'ranks': ..."); the command
// line has flags for them, so its messages name the flags.
std::string as_flags(std::string message) {
  static const std::pair<const char*, const char*> kFlags[] = {
      {"collective", "--collective"}, {"ranks", "--ranks"}, {"link", "--link"}, {"columns", "--in-place"}};
  for (const auto& [field, flag] : kFlags)
    for (const std::string& said : {std::string("field '") + field + "'", std::string("'") + field + "'"})
      for (size_t at = message.find(said); at != std::string::npos; at = message.find(said, at + std::strlen(flag)))
        message.replace(at, said.size(), flag);
  return message;
}

int fit_files(int argc, char** argv, int first) {
  json base = {{"op", "fit"}};
  bool as_json = false, all_rows = false, all_skipped = false;
  std::vector<std::string> files;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--collective" && has_value) base["collective"] = argv[++i];
    else if (a == "--ranks" && has_value) {
      char* end = nullptr;
      const double r = std::strtod(argv[++i], &end);
      if (!end || *end) {
        std::cerr << "commlab fit: --ranks takes a number, not '" << argv[i] << "'\n";
        return 2;
      }
      base["ranks"] = r;
    } else if (a == "--link" && has_value) base["link"] = argv[++i];
    else if (a == "--in-place") base["columns"] = "in_place";
    else if (a == "--json") as_json = true;
    else if (a == "--rows") all_rows = true;
    else if (a == "--skipped") all_skipped = true;
    else if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "commlab fit: unknown option '" << a << "' (or it needs a value)\n\n" << kUsage;
      return 2;
    } else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "commlab fit: give one or more nccl-tests logs (- reads stdin)\n";
    return 2;
  }
  int bad = 0;
  for (const std::string& file : files) {
    std::string text, error;
    const bool read = file == "-" ? commlab::read_bounded(std::cin, "stdin", commlab::kLogLimit, &text, &error)
                                  : commlab::read_file_bounded(file, commlab::kLogLimit, &text, &error);
    if (!read) {
      std::cerr << error << "\n";
      ++bad;
      continue;
    }
    json request = base;
    request["log"] = std::move(text);
    const json out = commlab::evaluate(request);
    const std::string name = file == "-" ? "stdin" : file;
    if (out.contains("error")) {
      std::cerr << name << ": " << as_flags(out["error"]["message"]) << "\n";
      ++bad;
      continue;
    }
    if (as_json) {
      std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
      continue;
    }
    const json& tables = out.at("tables");
    std::cout << name << ": " << out.at("lines") << " lines, " << tables.size() << (tables.size() == 1 ? " table" : " tables")
              << ", " << out.at("skipped_lines") << " skipped\n";
    for (size_t i = 0; i < tables.size(); ++i) print_fit_table(tables[i], i, all_rows, all_skipped);
  }
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  commlab::add_demo_op();  // the lecture's tables: native only
  std::ios::sync_with_stdio(false);
  // Where the exercises are: --exercises DIR, else $COMMLAB_EXERCISES_DIR, else the source tree's.
  const char* env_dir = std::getenv("COMMLAB_EXERCISES_DIR");
  std::string dir = env_dir && *env_dir ? env_dir : COMMLAB_EXERCISES_DIR_DEFAULT;
  // --exercise FILE (repeatable): exercises written as JSON, added before the command runs.
  std::vector<std::string> extra;
  while (argc > 1 && (std::string(argv[1]) == "--exercise" || std::string(argv[1]) == "--exercises")) {
    if (argc == 2) {
      std::cerr << "commlab: " << argv[1] << " needs " << (std::string(argv[1]) == "--exercise" ? "a file" : "a folder")
                << " after it (commlab " << argv[1] << (std::string(argv[1]) == "--exercise" ? " FILE" : " DIR")
                << " COMMAND ...)\n\n" << kUsage;
      return 2;
    }
    if (std::string(argv[1]) == "--exercises") dir = argv[2];
    else extra.push_back(argv[2]);
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
  }
  const std::string cmd = argc > 1 ? argv[1] : "help";
  const bool linting = cmd == "exercise" && argc > 2 && std::string(argv[2]) == "lint";
  const bool keying = cmd == "exercise" && argc > 2 && std::string(argv[2]) == "key";
  // The commands that answer exercise requests read the folder; help, ops, links and demo do not.
  if (linting || keying || cmd == "eval" || !extra.empty()) {
    if (!install(dir, !linting)) return 2;
  }
  for (const std::string& file : extra) {
    std::string text, error;
    if (!commlab::read_file_bounded(file, commlab::kDocumentLimit, &text, &error)) {
      std::cerr << "commlab: --exercise " << error << "\n";
      return 2;
    }
    const json out = commlab::evaluate(json{{"op", "exercise.load"}, {"text", text}, {"file", base_name(file)}});
    if (out.contains("error")) {
      std::cerr << "commlab: --exercise " << as_given(out["error"]["message"], file) << "\n";
      return 2;
    }
  }
  if (linting) return lint(argc, argv, 3);
  if (keying) return commlab::exercise_key(std::vector<std::string>(argv + 3, argv + argc), std::cout, std::cerr);
  if (cmd == "eval") {
    if (argc > 2) {
      const std::string out = commlab::evaluate(std::string(argv[2]));
      std::cout << out << "\n";
      return out.rfind("{\"error\"", 0) == 0 ? 1 : 0;
    }
    // One answer a line, a blank line included (an invalid_json error), so line n of the
    // output always answers line n of the input.
    std::string line;
    bool too_long = false;
    for (long long n = 1; commlab::read_line_bounded(std::cin, commlab::kMaxRequestLineBytes, &line, &too_long); ++n) {
      if (too_long) {  // its end may never come: the batch stops here
        std::cout << json{{"error", {{"code", "too_large"},
                                     {"message", "line " + std::to_string(n) + " is over " +
                                                     std::to_string(commlab::kMaxRequestLineBytes) +
                                                     " bytes, not read, and the lines after it neither; allowed: a "
                                                     "request of at most 64 MB a line"}}}}
                  << "\n";
        return 1;
      }
      std::cout << commlab::evaluate(line) << "\n";
    }
    return 0;
  }
  if (cmd == "demo") {
    if (argc < 3) {
      std::cerr << "commlab demo: give a demo id (01..05 or all)\n";
      return 2;
    }
    bool as_json = false;
    for (int i = 3; i < argc; ++i) as_json |= std::string(argv[i]) == "--json";
    return run_demo(argv[2], as_json);
  }
  if (cmd == "fit") return fit_files(argc, argv, 2);
  if (cmd == "topology") return commlab::topology_files(argc, argv, 2);
  if (cmd == "ops" || cmd == "links") {
    std::cout << commlab::evaluate(json{{"op", cmd}}).dump(2) << "\n";
    return 0;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "commlab: unknown command '" << cmd << "'\n\n" << kUsage;
  return 2;
}
