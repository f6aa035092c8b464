// Exercises as data: the "compute" section of an exercise file (declared.hpp).
//   "compute": {
//     "values": [{"id": "time_s", "request": {"op": "allreduce", "devices": "$devices", ...},
//                 "field": "time_s"},
//                {"id": "share", "expr": "2 * ($devices - 1) / $devices"},
//                {"id": "note", "text": {"en": " ({label})", "zh": "（{label}）"}, "if": "label"}],
//     "answers": {"time": "$time_s", "best": {"argmin": ["ring", "tree"]}},
//     "ranges": {"time": {"lo": "$time_no_alpha_s", "hi": "$time_s",
//                         "when": {"left": "values.share", "op": "<", "right": 1}}}}
// A "$name" names a param or a figure computed above it; answers may also name values.
#include "exercises/declared.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/heap_sort.hpp"
#include "base/request.hpp"
#include "base/work_meter.hpp"
#include "exercises/conclusions.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using json = nlohmann::json;
using namespace detail;

namespace {

RequestEvaluator& evaluator() {
  static RequestEvaluator f;
  return f;
}

// A name from the document in a message: at most 60 characters, so messages stay short.
std::string clip(const std::string& s) { return s.size() <= 60 ? s : s.substr(0, 57) + "..."; }

// Recursive descent over the expression text; names resolve in `scope` (numbers only).
class Parser {
 public:
  Parser(const std::string& text, const json& scope) : s_(text), scope_(scope) {}

  double parse() {
    if (s_.size() > kMaxExpressionBytes)
      fail(concat(
          {"is ", std::to_string(s_.size()), " bytes long; allowed: at most ", std::to_string(kMaxExpressionBytes)}));
    const double v = sum();
    skip();
    if (i_ != s_.size()) fail(concat({"unexpected '", s_.substr(i_, 1), "'"}));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { reject({"expression ", quoted(s_), ": ", what}); }
  // One more level of parentheses, function call, unary '-' or '^': bounded, so an expression
  // cannot overflow the stack (natively or, sooner, in wasm) and both answer alike.
  struct Deeper {
    Parser& p;
    explicit Deeper(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxExpressionDepth)
        p.fail(concat({"nests more than ", std::to_string(kMaxExpressionDepth),
                       " levels (parentheses, calls, unary '-', '^'); allowed: at most ",
                       std::to_string(kMaxExpressionDepth)}));
    }
    ~Deeper() { --p.depth_; }
  };
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (eat('+')) v += product();
      else if (eat('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (eat('*')) v *= unary();
      else if (eat('/')) v /= unary();
      else return v;
    }
  }
  double unary() {
    if (eat('-')) {
      Deeper d(*this);
      return -unary();
    }
    const double base = primary();
    if (eat('^')) {
      Deeper d(*this);
      return std::pow(base, unary());
    }
    return base;
  }
  std::string word() {
    const size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(start, i_ - start);
  }
  double primary() {
    skip();
    if (i_ >= s_.size()) fail("ends too early");
    if (eat('(')) {
      Deeper d(*this);
      const double v = sum();
      if (!eat(')')) fail("a '(' is not closed");
      return v;
    }
    if (eat('$')) {
      const std::string name = word();
      if (name.empty()) fail("'$' names nothing");
      if (!scope_.contains(name)) fail(clip("$" + name) + " is not bound (a param, or a figure computed above)");
      const json& v = scope_.at(name);
      if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
      if (!v.is_number()) fail(clip("$" + name) + " is not a number");
      return v.get<double>();
    }
    const char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      size_t used = 0;
      double v = 0;
      try {
        v = std::stod(s_.substr(i_), &used);
      } catch (const std::exception&) {
        fail("bad number");
      }
      i_ += used;
      return v;
    }
    const std::string f = word();
    if (f.empty()) fail(concat({"unexpected '", std::string(1, c), "'"}));
    if (!eat('(')) fail(concat({"function ", clip(f), " needs '('"}));
    Deeper d(*this);
    std::vector<double> args{sum()};
    while (eat(',')) args.push_back(sum());
    if (!eat(')')) fail(concat({"function ", clip(f), ": ')' missing"}));
    auto one = [&](double (*g)(double)) {
      if (args.size() != 1) fail(concat({"function ", clip(f), " takes one argument"}));
      return g(args[0]);
    };
    if (f == "min" || f == "max") {
      double v = args[0];
      for (double a : args) v = f == "min" ? std::min(v, a) : std::max(v, a);
      return v;
    }
    if (f == "nth_smallest") {  // nth_smallest(2, a, b, c): the runner-up of a, b, c
      const size_t count = args.size() - 1;
      if (count == 0) fail("function nth_smallest takes n and at least one figure: nth_smallest(n, a, b, ...)");
      const double n = args[0];
      if (!(n >= 1 && n <= static_cast<double>(count) && n == std::floor(n)))
        fail(concat({"function nth_smallest: n is ", num(n), "; allowed: a whole number from 1 to ",
                     std::to_string(count), " (the figures listed after it)"}));
      std::vector<double> rest(args.begin() + 1, args.end());
      // NaN has no place in an order (and breaks a sort's): the result is NaN, which lint reports.
      for (double x : rest)
        if (std::isnan(x)) return x;
      heap_sort(rest.begin(), rest.end());
      return rest[static_cast<size_t>(n) - 1];
    }
    if (f == "ceil") return one([](double x) { return std::ceil(x); });
    if (f == "floor") return one([](double x) { return std::floor(x); });
    if (f == "round") return one([](double x) { return std::round(x); });
    if (f == "log2") return one([](double x) { return std::log2(x); });
    if (f == "sqrt") return one([](double x) { return std::sqrt(x); });
    if (f == "abs") return one([](double x) { return std::fabs(x); });
    fail(concat(
        {"unknown function ", clip(f), " (allowed: min, max, nth_smallest, ceil, floor, round, log2, sqrt, abs)"}));
  }

  const std::string& s_;
  const json& scope_;
  size_t i_ = 0;
  int depth_ = 0;
};

// Every "$name" string in a request replaced by its value; `path` names where for errors.
json bind_names(const json& j, const json& scope, const std::string& path) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s.empty() || s[0] != '$') return j;
    const std::string name = s.substr(1);
    if (!scope.contains(name)) reject({path, ": ", clip(s), " is not bound (a param, or a figure computed above)"});
    return scope.at(name);
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it)
      out[it.key()] = bind_names(it.value(), scope, concat({path, ".", it.key()}));
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (size_t i = 0; i < j.size(); ++i)
      out.push_back(bind_names(j[i], scope, concat({path, "[", std::to_string(i), "]"})));
    return out;
  }
  return j;
}

// Replaces {name} in a text by the string value of `name` (a figure computed above).
std::string fill_names(const std::string& text, const json& scope, const std::string& path) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i), close = text.find('}', open == std::string::npos ? i : open);
    if (open == std::string::npos || close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    out += text.substr(i, open - i);
    if (scope.contains(name) && scope.at(name).is_string()) out += scope.at(name).get<std::string>();
    else if (scope.contains(name) && scope.at(name).is_number()) out += num(scope.at(name).get<double>());
    else
      out += concat({"{", name, "}"});
    i = close + 1;
    if (out.size() > kMaxFilledTextBytes) break;
  }
  out += text.substr(i);
  if (out.size() > kMaxFilledTextBytes)
    reject({path, ": the filled text passes ", std::to_string(kMaxFilledTextBytes), " bytes; allowed: at most 16 KB"});
  return out;
}

bool truthy(const json& v) {
  if (v.is_null()) return false;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get<std::string>().empty();
  return true;
}

// An expression's value; a problem names the expression's path in the file.
double expression_at(const std::string& text, const json& scope, const std::string& path) {
  try {
    return eval_expression(text, scope);
  } catch (const std::invalid_argument& e) {
    reject({path, ": ", e.what()});
  }
}

// A declared request the engine refuses as out of range or too large at these params: the
// params ask for more than the engine computes (a simulation too large), not a broken document,
// so the engine's code stays (at the defaults it is the document's fault: invalid_exercise).
class RefusedAtParams : public std::invalid_argument {
 public:
  RefusedAtParams(const std::string& code, const std::string& what) : std::invalid_argument(what), code_(code) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// What a run has computed so far: `scope` for $names (params, values, answers), `solved` for
// conditions ({"params", "values", "answers"}, as conclusions and constraints read them), and
// the last request with its response: the next figure asking the same request (another field
// of one all-reduce) reuses it. One response only, so a run never holds many timelines.
struct Run {
  json scope;
  json solved;
  const json* last_request = nullptr;  // as written in the document, $names unbound
  json last_response;
};

const char* const kFigureKinds[] = {"expr", "request", "text", "argmin", "cases"};

std::string kind_of(const json& v) {
  return v.is_boolean() ? "true/false" : v.is_number() ? "number" : v.is_string() ? "text" : "other";
}

// A response field by path: "time_s", or into arrays and objects, "phases[1].time_s"; an
// array's element also by its id, "gpus[h100].flops" (a preset's figure wherever the list puts it).
const json& take_field(const json& res, const std::string& field, const std::string& at) {
  const json* node = &res;
  std::string walked;
  size_t i = 0;
  auto bad_path = [&] {
    reject({at, ": ", detail::quoted(field),
            " is not a field path; allowed: names joined by '.', each with "
            "optional [index] or [id] (\"time_s\", \"phases[1].time_s\", \"gpus[h100].flops\")"});
  };
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i <= field.size()) {
    size_t j = i;
    while (j < field.size() && word_char(field[j])) ++j;
    const std::string name = field.substr(i, j - i);
    if (name.empty()) bad_path();
    if (!node->is_object() || !node->contains(name)) {
      std::vector<std::string> names;
      if (node->is_object())
        for (auto it = node->begin(); it != node->end(); ++it) names.push_back(it.key());
      reject({at, ": the response has no field '", clip(walked.empty() ? name : concat({walked, ".", name})), "'",
              (names.empty() ? "" : "; " + nearest_or_allowed(name, names))});
    }
    node = &node->at(name);
    walked += (walked.empty() ? "" : ".") + name;
    while (j < field.size() && field[j] == '[') {
      size_t k = j + 1;
      while (k < field.size() && word_char(field[k])) ++k;
      if (k == j + 1 || k >= field.size() || field[k] != ']' || k - j > 61) bad_path();
      const std::string key = field.substr(j + 1, k - j - 1);
      const bool index_given = key.find_first_not_of("0123456789") == std::string::npos;
      if (!node->is_array())
        reject({at, ": the response's ", detail::quoted(walked),
                " is not an array; allowed: [index] or [id] after an array's name only"});
      if (index_given) {
        const size_t index = key.size() > 7 ? node->size() : std::stoul(key);
        if (index >= node->size())
          reject({at, ": the response's ", detail::quoted(walked), " has ", std::to_string(node->size()),
                  " entries; allowed: ",
                  (node->empty() ? "none" : "an index from 0 to " + std::to_string(node->size() - 1))});
        node = &node->at(index);
      } else {
        const json* found = nullptr;
        std::vector<std::string> ids;
        for (const json& e : *node) {
          const json* id = e.is_object() && e.contains("id") && e.at("id").is_string() ? &e.at("id") : nullptr;
          if (!id) continue;
          if (id->get_ref<const std::string&>() == key) {
            found = &e;
            break;
          }
          ids.push_back(id->get<std::string>());
        }
        if (!found)
          reject({at, ": the response's ", detail::quoted(walked), " has no entry of id ", detail::quoted(key), "; ",
                  (ids.empty() ? std::string("allowed: [index] (its entries have no id)")
                               : nearest_or_allowed(key, ids))});
        node = found;
      }
      walked += field.substr(j, k - j + 1);
      j = k + 1;
    }
    if (j == field.size()) break;
    if (field[j] != '.') bad_path();
    i = j + 1;
  }
  return *node;
}

json compute(const json& spec, Run& run, const std::string& path);

// "cases": the first case whose "when" holds gives the figure, a literal "value" or an "expr";
// the last case has no "when". Every case is checked at every run, not only the one taken: a
// mistake in a case the defaults do not reach would otherwise first show in front of a student.
json compute_cases(const json& spec, Run& run, const std::string& path) {
  const json& cases = spec.at("cases");
  const std::string at = path + ".cases";
  if (!cases.is_array() || cases.empty())
    reject({at, ": must be a non-empty array of cases {\"when\", \"value\"}, the last without \"when\""});
  size_t pick = cases.size();
  json picked;
  std::string first_kind;
  for (size_t j = 0; j < cases.size(); ++j) {
    const std::string cat = concat({at, "[", std::to_string(j), "]"});
    const json& k = cases[j];
    if (!k.is_object()) reject({cat, ": must be an object {\"when\", \"value\"} or {\"when\", \"expr\"}"});
    const bool last = j + 1 == cases.size();
    if (last && k.contains("when")) reject({cat, ".when: the last case is the otherwise case and has no \"when\""});
    if (!last && !k.contains("when")) reject({cat, ".when: is missing; only the last case (otherwise) may have none"});
    if (k.contains("value") == k.contains("expr"))
      reject({cat, ": needs either \"value\" (a number, a text or true/false) or \"expr\" (an expression)"});
    json v;
    if (k.contains("value")) {
      v = k.at("value");
      if (!v.is_number() && !v.is_string() && !v.is_boolean())
        reject({cat, ".value: is ", show_value(v), "; allowed: a number, a text or true/false"});
    } else {
      if (!k.at("expr").is_string()) reject({cat, ".expr: must be a string (an expression)"});
      v = expression_at(k.at("expr").get<std::string>(), run.scope, cat + ".expr");
    }
    if (j == 0) first_kind = kind_of(v);
    else if (kind_of(v) != first_kind)
      reject({cat, ": gives a ", kind_of(v), ", cases[0] a ", first_kind,
              "; allowed: one kind (a number, a text or true/false) in every case"});
    if (last) {
      if (pick == cases.size()) picked = std::move(v);
      continue;
    }
    const json& w = k.at("when");
    if (w.is_array() && w.empty()) reject({cat, ".when: must hold at least one condition"});
    const size_t count = w.is_array() ? w.size() : 1;
    for (size_t n = 0; n < count; ++n) {
      const json& one = w.is_array() ? w[n] : w;
      const std::vector<std::string> problems = condition_problems(
          run.solved, one, concat({cat, ".when", (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")}));
      if (problems.empty()) continue;
      std::string problem = problems.front();
      const std::string generic = " names no figure (params.x, answers.x or values.x)";
      const size_t g = problem.find(generic);
      if (g != std::string::npos)  // here a figure must also come before: say so
        problem.replace(g, generic.size(),
                        " names no figure computed before it; allowed: params.x, values.x of a value above it, "
                        "answers.x of an answer before it");
      reject({problem});
    }
    if (pick == cases.size() && condition_holds(run.solved, w)) {
      pick = j;
      picked = std::move(v);
    }
  }
  return picked;
}

// One declared figure: an expression, a request's field, a text, the name of the smallest, or a
// figure chosen by conditions.
json compute(const json& spec, Run& run, const std::string& path) {
  const json& scope = run.scope;
  if (spec.is_number()) return spec;
  if (spec.is_string()) return expression_at(spec.get<std::string>(), scope, path);
  if (!spec.is_object()) reject({path, ": must be an expression, a request, a text or cases"});
  const char* kind = nullptr;
  for (const char* k : kFigureKinds)
    if (spec.contains(k)) {
      if (kind)
        reject({path, ": holds both \"", kind, "\" and \"", k,
                "\"; allowed: one of \"expr\", \"request\", \"text\", \"argmin\", \"cases\""});
      kind = k;
    }
  if (spec.contains("expr")) {
    if (!spec.at("expr").is_string()) reject({path, ".expr: must be a string"});
    return expression_at(spec.at("expr").get<std::string>(), scope, path);
  }
  if (spec.contains("request")) {
    const json& req = spec.at("request");
    if (!req.is_object() || !req.contains("op") || !req.at("op").is_string())
      reject({path, ".request: must be a request object with an \"op\""});
    const std::string op = req.at("op");
    if (op.rfind("exercise.", 0) == 0) reject({path, ".request.op: an exercise cannot ask for ", op});
    if (!spec.contains("field") || !spec.at("field").is_string())
      reject({path, ".field: must name the response field to take"});
    if (!evaluator()) reject({path, ": no request evaluator is installed"});
    // The same text asks the same request while no $name it may hold is rebound (run() resets).
    if (!run.last_request || req != *run.last_request) {
      run.last_request = nullptr;
      run.last_response = json();
      charge_work(kDeclaredRequestUnits);  // the document's one budget (base/work_meter.hpp)
      json res = evaluator()(bind_names(req, scope, path + ".request"));
      if (res.contains("error")) {
        const std::string code = res.at("error").value("code", std::string()),
                          why = concat({path, ".request: the engine refused it: ",
                                        res.at("error").value("message", std::string("?"))});
        if (code == "out_of_range" || code == "too_large") throw RefusedAtParams(code, why);
        reject({why});
      }
      run.last_request = &req;
      run.last_response = std::move(res);
    }
    // The field only, copied out of the response: kept figures are numbers, words or flags,
    // never a response's timeline (50 kept pipeline timelines held 2.77 GB).
    const json& taken = take_field(run.last_response, spec.at("field").get<std::string>(), path + ".field");
    if (taken.is_structured() || (taken.is_string() && taken.get_ref<const std::string&>().size() > kMaxFilledTextBytes))
      reject({path, ".field: the response's ", quoted(spec.at("field").get<std::string>()),
              " is an array, an object or a long text; allowed: a field that is a "
              "number, a short text or true/false"});
    return taken;
  }
  if (spec.contains("text")) {
    const json& t = spec.at("text");
    if (!is_text_pair(t)) reject({path, ".text: needs en and zh"});
    if (spec.contains("if") && !spec.at("if").is_string())
      reject({path, ".if: must name a param or a figure computed above (a string)"});
    if (spec.contains("if") && !truthy(bind_names(json("$" + spec.at("if").get<std::string>()), scope, path + ".if")))
      return message("", "");
    std::string en = fill_names(t.at("en"), scope, path + ".text.en");  // en first, as its message
    return message(std::move(en), fill_names(t.at("zh"), scope, path + ".text.zh"));
  }
  if (spec.contains("argmin")) {
    const json& names = spec.at("argmin");
    if (!names.is_array() || names.empty()) reject({path, ".argmin: must list names"});
    std::string best;
    double best_v = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string n = names[i].is_string() ? names[i].get<std::string>() : "";
      const json v = bind_names(json("$" + n), scope, concat({path, ".argmin[", std::to_string(i), "]"}));
      if (!v.is_number()) reject({path, ".argmin[", std::to_string(i), "]: not a number"});
      if (best.empty() || v.get<double>() < best_v) {
        best = n;
        best_v = v.get<double>();
      }
    }
    return best;
  }
  if (spec.contains("cases")) return compute_cases(spec, run, path);
  reject({path, ": must hold \"expr\", \"request\", \"text\", \"argmin\" or \"cases\""});
}

// A choice answer chosen by cases gives one of its choices in every case, a number answer a
// number: checked for every case, not only the one these params take.
void check_answer_cases(const json& def, const json& spec, const std::string& path) {
  if (!spec.is_object() || !spec.contains("cases") || !spec.at("cases").is_array()) return;
  const json& cases = spec.at("cases");
  const bool choice = is_choice_answer(def);
  const std::vector<std::string> choices = choice ? choices_of(def) : std::vector<std::string>{};
  for (size_t j = 0; j < cases.size(); ++j) {
    const std::string cat = concat({path, ".cases[", std::to_string(j), "]"});
    if (!cases[j].is_object()) continue;  // compute_cases says what is wrong
    if (choice && cases[j].contains("expr"))
      reject({cat, ".expr: a choice answer gives a name; allowed: \"value\": one of ", join(choices, ", ")});
    if (!cases[j].contains("value")) continue;
    const json& v = cases[j].at("value");
    if (choice && (!v.is_string() || std::find(choices.begin(), choices.end(), v.get<std::string>()) == choices.end()))
      reject({cat, ".value: ", show_value(v), " is not one of the answer's choices; ",
              nearest_or_allowed(v.is_string() ? v.get<std::string>() : v.dump(), choices)});
    if (!choice && !v.is_number())
      reject({cat, ".value: is ", show_value(v), "; allowed: a number (the answer is a ",
              def.value("dimension", std::string("number")), ")"});
  }
}

// The ranges the lecture accepts (answer id -> [lo, hi]), after every answer: "when" is a
// condition of the kind conclusions use, over params, answers and values; lo and hi are figures.
json ranges_of(const json& doc, const json& c, const json& params, const ExerciseSolution& s, Run& run) {
  json out = json::object();
  if (!c.contains("ranges")) return out;
  const json& ranges = c.at("ranges");
  if (!ranges.is_object()) reject({"compute.ranges: must be an object {answer id: {lo, hi, when}}"});
  const json solved = figures_of(params, s.answers, s.values);
  for (auto it = ranges.begin(); it != ranges.end(); ++it) {
    const std::string id = it.key(), at = "compute.ranges." + clip(id);
    const json* def = find_def(doc.at("answers"), id);
    if (!def) reject({at, ": no answer with this id in 'answers'"});
    if (is_choice_answer(*def))
      reject({at, ": answer '", clip(id), "' is a choice; allowed: a range of a number answer"});
    const json& r = it.value();
    if (!r.is_object()) reject({at, ": must be an object {lo, hi, when}"});
    for (const char* f : {"lo", "hi"})
      if (!r.contains(f))
        reject({at, ".", f, ": is missing; allowed: a figure (\"$name\", an expression or a request)"});
    if (r.contains("when")) {
      const json& w = r.at("when");
      if (!w.is_object() && !(w.is_array() && !w.empty()))
        reject({at, ".when: must be a condition {left, op, right} or a non-empty array of them"});
      const json conds = w.is_array() ? w : json::array({w});
      for (size_t n = 0; n < conds.size(); ++n) {
        const std::vector<std::string> problems = condition_problems(
            solved, conds[n], concat({at, ".when", (w.is_array() ? concat({"[", std::to_string(n), "]"}) : "")}));
        if (!problems.empty()) reject({problems.front()});
      }
      if (!condition_holds(solved, w)) continue;  // the lecture's range does not apply here
    }
    double ends[2];
    for (int i = 0; i < 2; ++i) {
      const char* f = i == 0 ? "lo" : "hi";
      const json x = compute(r.at(f), run, concat({at, ".", f}));
      if (!x.is_number())
        reject({at, ".", f, ": gives ", x.dump().substr(0, 60),
                "; allowed: a number (\"$name\", an expression or a request's number field)"});
      ends[i] = x.get<double>();
      if (!std::isfinite(ends[i]))
        reject({at, ".", f, ": is ", (std::isnan(ends[i]) ? "not a number (NaN)" : "infinite"),
                "; allowed: a finite number"});
    }
    if (ends[0] > ends[1])
      reject({at, ": lo (", num(ends[0]), ") is above hi (", num(ends[1]), "); allowed: lo <= hi"});
    out[id] = {ends[0], ends[1]};
  }
  return out;
}

// Runs the section; a problem throws std::invalid_argument naming its path in the file.
ExerciseSolution run(const json& doc, const json& params) {
  const json& c = doc.at("compute");
  Run r;
  r.scope = params;
  r.solved = figures_of(params, kNoMembers, kNoMembers);
  json& solved_values = r.solved["values"];
  json& solved_answers = r.solved["answers"];
  size_t kept = 0;
  // The section is read in place, not copied: a solve runs for every variant lint draws.
  static const json kNone = json::array(), kNoAnswers = json::object();
  // Params a template or a page view reads among the values (values.layers), kept as they are.
  const json& keep = c.contains("keep_params") ? c.at("keep_params") : kNone;
  if (!keep.is_array()) reject({"compute.keep_params: must be an array of param ids"});
  for (size_t i = 0; i < keep.size(); ++i) {
    const std::string at = concat({"compute.keep_params[", std::to_string(i), "]"});
    if (!keep[i].is_string() || !find_def(doc.at("params"), keep[i].get<std::string>()))
      reject({at, ": ", (keep[i].is_string() ? detail::quoted(keep[i].get<std::string>()) : show_value(keep[i])),
              " is not a param; allowed: a param's id"});
    const std::string id = keep[i];
    if (solved_values.contains(id))
      reject({at, ": ", detail::quoted(id), " is listed twice; allowed: each param once"});
    solved_values[id] = params.at(id);
  }
  const json& values = c.contains("values") ? c.at("values") : kNone;
  if (!values.is_array()) reject({"compute.values: must be an array"});
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string at = concat({"compute.values[", std::to_string(i), "]"});
    const json& v = values[i];
    if (!v.is_object() || !v.contains("id") || !v.at("id").is_string()) reject({at, ".id: must be a string"});
    const std::string& id = v.at("id").get_ref<const std::string&>();
    json x = compute(v, r, at);
    kept += x.is_string() ? x.get_ref<const std::string&>().size()
                          : x.is_object() ? x.value("en", std::string()).size() + x.value("zh", std::string()).size() : 8;
    if (kept > kMaxKeptBytes)
      reject({at, ": the figures computed so far hold ", std::to_string(kept), " bytes; allowed: at most 1 MB in all"});
    if (r.scope.contains(id)) r.last_request = nullptr;  // a name rebound: the same text may ask anew
    r.scope[id] = x;
    solved_values[id] = std::move(x);
  }
  const json& answers = c.contains("answers") ? c.at("answers") : kNoAnswers;
  if (!answers.is_object()) reject({"compute.answers: must be an object"});
  for (const json& def : doc.at("answers")) {
    const std::string id = def.at("id");
    if (!answers.contains(id)) reject({"compute.answers.", id, ": missing: how is this answer computed?"});
    check_answer_cases(def, answers.at(id), "compute.answers." + id);
    json x = compute(answers.at(id), r, "compute.answers." + id);
    if (r.scope.contains(id)) r.last_request = nullptr;
    r.scope[id] = x;
    solved_answers[id] = std::move(x);
  }
  for (auto it = answers.begin(); it != answers.end(); ++it)
    if (!find_def(doc.at("answers"), it.key()))
      reject({"compute.answers.", it.key(), ": no answer with this id in 'answers'"});
  ExerciseSolution s;
  s.values = std::move(solved_values);
  s.answers = std::move(solved_answers);
  s.ranges = ranges_of(doc, c, params, s, r);
  return s;
}

}  // namespace

void set_request_evaluator(RequestEvaluator f) { evaluator() = std::move(f); }

double eval_expression(const std::string& text, const json& scope) { return Parser(text, scope).parse(); }

void check_compute(const std::string& file, const json& doc) {
  if (!doc.at("compute").is_object()) bad_doc(file, "field 'compute' must be an object");
  // Binding is checked by running the section at the lecture's params: every name must then
  // resolve and every request must be one the engine accepts.
  json params = json::object();
  for (const json& p : doc.at("params")) params[p.at("id").get<std::string>()] = p.at("default");
  if (!evaluator()) return;  // checked again when solved
  try {
    run(doc, params);
  } catch (const std::invalid_argument& e) {
    bad_doc(file, e.what());
  } catch (const json::exception& e) {
    bad_doc(file, {"a field of 'compute' has the wrong type: ", e.what()});
  }
}

namespace {
// solve_declared's refusal: what run() found, after the exercise's number (capped).
[[noreturn]] COMMLAB_RARE void refuse_solving(const std::string& code, const json& doc, const char* sep,
                                              const char* what) {
  throw RequestError(code, capped_message(concat({"exercise ", std::to_string(doc.at("id").get<int>()), sep, what})));
}
}  // namespace

ExerciseSolution solve_declared(const json& doc, const json& params) {
  try {
    return run(doc, params);
  } catch (const RefusedAtParams& e) {
    refuse_solving(e.code(), doc, ", ", e.what());
  } catch (const std::invalid_argument& e) {
    refuse_solving("invalid_exercise", doc, ", ", e.what());
  } catch (const json::exception& e) {
    refuse_solving("invalid_exercise", doc, ": a field of its compute section has the wrong type: ", e.what());
  }
}

}  // namespace commlab
