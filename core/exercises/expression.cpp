// The arithmetic of a compute section: an expression over "$name"s ("2 * ($devices - 1) /
// $devices"), evaluated by recursive descent.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "base/concat.hpp"
#include "base/heap_sort.hpp"
#include "exercises/declared.hpp"
#include "exercises/exercises.hpp"
#include "exercises/internal.hpp"

namespace commlab {

using json = nlohmann::json;
using namespace detail;

namespace {

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

}  // namespace

double eval_expression(const std::string& text, const json& scope) { return Parser(text, scope).parse(); }

}  // namespace commlab
