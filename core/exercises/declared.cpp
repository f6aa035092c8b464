// Exercises as data: the "compute" section of an exercise file (declared.hpp).
//   "compute": {
//     "values": [{"id": "time_s", "request": {"op": "allreduce", "devices": "$devices", ...},
//                 "field": "time_s"},
//                {"id": "share", "expr": "2 * ($devices - 1) / $devices"},
//                {"id": "note", "text": {"en": " ({label})", "zh": "（{label}）"}, "if": "label"}],
//     "answers": {"time": "$time_s", "best": {"argmin": ["ring", "tree"]}}}
// A "$name" names a param or a figure computed above it; answers may also name values.
#include "exercises/declared.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/error.hpp"
#include "base/work_meter.hpp"
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
      fail("is " + std::to_string(s_.size()) + " bytes long; allowed: at most " + std::to_string(kMaxExpressionBytes));
    const double v = sum();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_, 1) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("expression " + quoted(s_) + ": " + what);
  }
  // One more level of parentheses, function call, unary '-' or '^': bounded, so an expression
  // cannot overflow the stack (natively or, sooner, in wasm) and both answer alike.
  struct Deeper {
    Parser& p;
    explicit Deeper(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxExpressionDepth)
        p.fail("nests more than " + std::to_string(kMaxExpressionDepth) +
               " levels (parentheses, calls, unary '-', '^'); allowed: at most " +
               std::to_string(kMaxExpressionDepth));
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
    if (f.empty()) fail("unexpected '" + std::string(1, c) + "'");
    if (!eat('(')) fail("function " + clip(f) + " needs '('");
    Deeper d(*this);
    std::vector<double> args{sum()};
    while (eat(',')) args.push_back(sum());
    if (!eat(')')) fail("function " + clip(f) + ": ')' missing");
    auto one = [&](double (*g)(double)) {
      if (args.size() != 1) fail("function " + clip(f) + " takes one argument");
      return g(args[0]);
    };
    if (f == "min" || f == "max") {
      double v = args[0];
      for (double a : args) v = f == "min" ? std::min(v, a) : std::max(v, a);
      return v;
    }
    if (f == "ceil") return one([](double x) { return std::ceil(x); });
    if (f == "floor") return one([](double x) { return std::floor(x); });
    if (f == "round") return one([](double x) { return std::round(x); });
    if (f == "log2") return one([](double x) { return std::log2(x); });
    if (f == "sqrt") return one([](double x) { return std::sqrt(x); });
    if (f == "abs") return one([](double x) { return std::fabs(x); });
    fail("unknown function " + clip(f) + " (allowed: min, max, ceil, floor, round, log2, sqrt, abs)");
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
    if (!scope.contains(name))
      throw std::invalid_argument(path + ": " + clip(s) + " is not bound (a param, or a figure computed above)");
    return scope.at(name);
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = bind_names(it.value(), scope, path + "." + it.key());
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (size_t i = 0; i < j.size(); ++i) out.push_back(bind_names(j[i], scope, path + "[" + std::to_string(i) + "]"));
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
    else out += "{" + name + "}";
    i = close + 1;
    if (out.size() > kMaxFilledTextBytes) break;
  }
  out += text.substr(i);
  if (out.size() > kMaxFilledTextBytes)
    throw std::invalid_argument(path + ": the filled text passes " + std::to_string(kMaxFilledTextBytes) +
                                " bytes; allowed: at most 16 KB");
  return out;
}

// A response field by its path: a top-level name ("time_s"), or names joined by dots into
// nested objects ("per_allreduce.time_s") and through arrays by an element's "id" or its index
// ("gpus.h100.flops", "phases.0.time_s"). A missing part is named with what was there.
const json* field_at(const json& res, const std::string& field, const std::string& path) {
  if (res.contains(field)) return &res.at(field);
  const json* at = &res;
  std::string walked;
  for (size_t start = 0;;) {
    const size_t dot = field.find('.', start);
    const std::string part = field.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const json* next = nullptr;
    if (at->is_object() && at->contains(part)) next = &at->at(part);
    if (at->is_array()) {
      for (const json& x : *at)
        if (x.is_object() && x.contains("id") && x.at("id") == part) {
          next = &x;
          break;
        }
      const bool digits = !part.empty() && part.size() < 10 &&
                          part.find_first_not_of("0123456789") == std::string::npos;
      if (!next && digits && std::stoul(part) < at->size()) next = &(*at)[std::stoul(part)];
    }
    if (!next) {
      const std::string where = walked.empty() ? "the response" : "the response's " + detail::quoted(walked);
      const std::string what = at->is_array() ? " (an array of " + std::to_string(at->size()) +
                                                    ": name an element by its id or index)"
                               : at->is_object() ? "" : " (a single value)";
      throw std::invalid_argument(path + ": " + where + what + " has no field " + detail::quoted(part) +
                                  "; allowed: a field of the response, or fields joined by dots "
                                  "(\"per_allreduce.time_s\", \"gpus.h100.flops\")");
    }
    at = next;
    walked += (walked.empty() ? "" : ".") + part;
    if (dot == std::string::npos) return at;
    start = dot + 1;
  }
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
    throw std::invalid_argument(path + ": " + e.what());
  }
}

// The last request a section asked and its answer: the figures of one request declared one after
// another (five fields of a tp request) ask the engine once. One answer is held at a time, as
// before; a repeat charges what the first asking charged, so the work budget reads the same.
struct LastRequest {
  json request, response;
  double work_units = 0;
  bool held = false;
};

// One declared figure: an expression, a request's field, a text, or the name of the smallest.
json compute(const json& spec, const json& scope, const std::string& path, LastRequest& last) {
  if (spec.is_number()) return spec;
  if (spec.is_string()) return expression_at(spec.get<std::string>(), scope, path);
  if (!spec.is_object()) throw std::invalid_argument(path + ": must be an expression, a request or a text");
  if (spec.contains("expr")) {
    if (!spec.at("expr").is_string()) throw std::invalid_argument(path + ".expr: must be a string");
    return expression_at(spec.at("expr").get<std::string>(), scope, path);
  }
  if (spec.contains("request")) {
    const json& req = spec.at("request");
    if (!req.is_object() || !req.contains("op") || !req.at("op").is_string())
      throw std::invalid_argument(path + ".request: must be a request object with an \"op\"");
    const std::string op = req.at("op");
    if (op.rfind("exercise.", 0) == 0)
      throw std::invalid_argument(path + ".request.op: an exercise cannot ask for " + op);
    if (!spec.contains("field") || !spec.at("field").is_string())
      throw std::invalid_argument(path + ".field: must name the response field to take");
    if (!evaluator()) throw std::invalid_argument(path + ": no request evaluator is installed");
    json bound = bind_names(req, scope, path + ".request");
    if (last.held && last.request == bound) {
      charge_work(last.work_units);
    } else {
      last.held = false;
      last.response = json();  // the answer before is dropped before the next is computed
      const double before = document_work_used();
      charge_work(kDeclaredRequestUnits);  // the document's one budget (base/work_meter.hpp)
      last.response = evaluator()(bound);
      last.request = std::move(bound);
      last.work_units = document_work_used() - before;
      last.held = true;
    }
    const json& res = last.response;
    if (res.contains("error"))
      throw std::invalid_argument(path + ".request: the engine refused it: " +
                                  res.at("error").value("message", std::string("?")));
    const std::string field = spec.at("field");
    // The field only: kept figures are numbers, words or flags, never a response's timeline (50
    // kept pipeline timelines held 2.77 GB).
    const json& taken = *field_at(res, field, path + ".field");
    if (taken.is_structured() || (taken.is_string() && taken.get_ref<const std::string&>().size() > kMaxFilledTextBytes))
      throw std::invalid_argument(path + ".field: the response's " + quoted(field) +
                                  " is an array, an object or a long text; allowed: a field that is a "
                                  "number, a short text or true/false");
    return taken;
  }
  if (spec.contains("text")) {
    const json& t = spec.at("text");
    if (!is_text_pair(t)) throw std::invalid_argument(path + ".text: needs en and zh");
    if (spec.contains("if") && !spec.at("if").is_string())
      throw std::invalid_argument(path + ".if: must name a param or a figure computed above (a string)");
    if (spec.contains("if") && !truthy(bind_names(json("$" + spec.at("if").get<std::string>()), scope, path + ".if")))
      return {{"en", ""}, {"zh", ""}};
    return {{"en", fill_names(t.at("en"), scope, path + ".text.en")},
            {"zh", fill_names(t.at("zh"), scope, path + ".text.zh")}};
  }
  if (spec.contains("argmin")) {
    const json& names = spec.at("argmin");
    if (!names.is_array() || names.empty()) throw std::invalid_argument(path + ".argmin: must list names");
    std::string best;
    double best_v = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string n = names[i].is_string() ? names[i].get<std::string>() : "";
      const json v = bind_names(json("$" + n), scope, path + ".argmin[" + std::to_string(i) + "]");
      if (!v.is_number()) throw std::invalid_argument(path + ".argmin[" + std::to_string(i) + "]: not a number");
      if (best.empty() || v.get<double>() < best_v) {
        best = n;
        best_v = v.get<double>();
      }
    }
    return best;
  }
  throw std::invalid_argument(path + ": must hold \"expr\", \"request\", \"text\" or \"argmin\"");
}

// Runs the section; a problem throws std::invalid_argument naming its path in the file.
ExerciseSolution run(const json& doc, const json& params) {
  const json& c = doc.at("compute");
  json scope = params;
  size_t kept = 0;
  LastRequest last;
  ExerciseSolution s;
  s.values = json::object();
  s.answers = json::object();
  // Params a template or a page view reads among the values (values.layers), kept as they are.
  // The section is read in place, not copied: a solve runs for every variant lint draws.
  static const json kNone = json::array(), kNoAnswers = json::object();
  const json& keep = c.contains("keep_params") ? c.at("keep_params") : kNone;
  if (!keep.is_array()) throw std::invalid_argument("compute.keep_params: must be an array of param ids");
  for (size_t i = 0; i < keep.size(); ++i) {
    const std::string at = "compute.keep_params[" + std::to_string(i) + "]";
    if (!keep[i].is_string() || !find_def(doc.at("params"), keep[i].get<std::string>()))
      throw std::invalid_argument(at + ": " + (keep[i].is_string() ? detail::quoted(keep[i].get<std::string>()) : keep[i].dump()) +
                                  " is not a param; allowed: a param's id");
    if (s.values.contains(keep[i].get<std::string>()))
      throw std::invalid_argument(at + ": " + detail::quoted(keep[i].get<std::string>()) + " is listed twice; allowed: each param once");
    s.values[keep[i].get<std::string>()] = params.at(keep[i].get<std::string>());
  }
  const json& values = c.contains("values") ? c.at("values") : kNone;
  if (!values.is_array()) throw std::invalid_argument("compute.values: must be an array");
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string at = "compute.values[" + std::to_string(i) + "]";
    const json& v = values[i];
    if (!v.is_object() || !v.contains("id") || !v.at("id").is_string())
      throw std::invalid_argument(at + ".id: must be a string");
    const std::string id = v.at("id");
    const json x = compute(v, scope, at, last);
    kept += x.is_string() ? x.get_ref<const std::string&>().size()
                          : x.is_object() ? x.value("en", std::string()).size() + x.value("zh", std::string()).size() : 8;
    if (kept > kMaxKeptBytes)
      throw std::invalid_argument(at + ": the figures computed so far hold " + std::to_string(kept) +
                                  " bytes; allowed: at most 1 MB in all");
    s.values[id] = x;
    scope[id] = x;
  }
  const json& answers = c.contains("answers") ? c.at("answers") : kNoAnswers;
  if (!answers.is_object()) throw std::invalid_argument("compute.answers: must be an object");
  for (const json& def : doc.at("answers")) {
    const std::string id = def.at("id");
    if (!answers.contains(id)) throw std::invalid_argument("compute.answers." + id + ": missing: how is this answer computed?");
    s.answers[id] = compute(answers.at(id), scope, "compute.answers." + id, last);
    scope[id] = s.answers[id];
  }
  for (auto it = answers.begin(); it != answers.end(); ++it)
    if (!find_def(doc.at("answers"), it.key()))
      throw std::invalid_argument("compute.answers." + it.key() + ": no answer with this id in 'answers'");
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
    bad_doc(file, std::string("a field of 'compute' has the wrong type: ") + e.what());
  }
}

ExerciseSolution solve_declared(const json& doc, const json& params) {
  try {
    return run(doc, params);
  } catch (const std::invalid_argument& e) {
    throw RequestError("invalid_exercise",
                       capped_message("exercise " + std::to_string(doc.at("id").get<int>()) + ", " + e.what()));
  } catch (const json::exception& e) {
    throw RequestError("invalid_exercise",
                       capped_message("exercise " + std::to_string(doc.at("id").get<int>()) +
                                      ": a field of its compute section has the wrong type: " + e.what()));
  }
}

}  // namespace commlab
