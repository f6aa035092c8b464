#include "base/request.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/error.hpp"
#include "base/quantity.hpp"

namespace commlab {

Range bytes_range() { return Range{0, kMaxBytes, true, "bytes"}; }
Range devices_range() { return Range{1, kMaxDevices, false, "devices"}; }

namespace {
// A scalar as JSON text; a long string is cut first so a 10 MB value costs nothing to quote.
std::string scalar_text(const json& v, size_t cap) {
  if (v.is_string() && v.get_ref<const std::string&>().size() > cap)
    return json(v.get_ref<const std::string&>().substr(0, cap)).dump(-1, ' ', false, json::error_handler_t::replace);
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}
}  // namespace

// Without recursion (json::dump recurses, and a value nested 100,000 deep overflows the stack),
// and stopping at the cap, so the cost of quoting does not grow with the value.
std::string show_value(const json& v) {
  constexpr size_t kCap = 60;
  std::string s;
  struct Frame {
    const json* value;
    json::const_iterator next;
  };
  std::vector<Frame> stack;
  const json* pending = &v;
  while (s.size() <= kCap) {
    if (pending) {
      const json& x = *pending;
      pending = nullptr;
      if (x.is_array() || x.is_object()) {
        s += x.is_array() ? '[' : '{';
        stack.push_back({&x, x.begin()});
      } else {
        s += scalar_text(x, kCap);
      }
      continue;
    }
    if (stack.empty()) break;
    Frame& f = stack.back();
    if (f.next == f.value->end()) {
      s += f.value->is_array() ? ']' : '}';
      stack.pop_back();
      continue;
    }
    if (f.next != f.value->begin()) s += ',';
    if (f.value->is_object()) s += scalar_text(json(f.next.key()), kCap) + ':';
    pending = &f.next.value();
    ++f.next;
  }
  if (s.size() > kCap) s = s.substr(0, kCap - 3) + "...";
  return s;
}

int nesting_depth(const json& v, int limit) {
  // Iterative, and stops once past the limit.
  struct Frame {
    const json* value;
    json::const_iterator next;
  };
  std::vector<Frame> stack;
  int deepest = 0;
  if (v.is_array() || v.is_object()) stack.push_back({&v, v.begin()});
  while (!stack.empty()) {
    deepest = std::max(deepest, static_cast<int>(stack.size()));
    if (deepest > limit) return deepest;
    Frame& f = stack.back();
    if (f.next == f.value->end()) {
      stack.pop_back();
      continue;
    }
    const json& child = *f.next;
    ++f.next;
    if (child.is_array() || child.is_object()) stack.push_back({&child, child.begin()});
  }
  return deepest;
}

int text_nesting_depth(const std::string& text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    else if (c == ']' || c == '}') --depth;
    if (deepest > limit) return deepest;
  }
  return deepest;
}

namespace {
std::string num(double x) {  // as "%g"; no iostreams in the wasm module
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}
}  // namespace

std::string format_number(double x) { return num(x); }

std::string type_name(const json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string describe(const Range& r) {
  std::string s = "a finite number " + std::string(r.min_exclusive ? "> " : ">= ") + num(r.min) +
                  " and <= " + num(r.max);
  if (!r.unit.empty()) s += " (" + r.unit + ")";
  return s;
}

Request::Request(const json& body, std::string where) : body_(body), where_(std::move(where)) {
  if (!body_.is_object())
    throw RequestError("invalid_type", (where_.empty() ? std::string("request")
                                                        : "field '" + where_.substr(0, where_.size() - 1) + "'") +
                                           ": value " + show_value(body_) +
                                           " is not allowed; allowed: a JSON object");
}

bool Request::has(const std::string& field) const { return body_.contains(field); }

const json& Request::at(const std::string& field, const std::string& rule) {
  read_.insert(field);
  if (!body_.contains(field))
    throw RequestError("missing_field", "field '" + path(field) + "' is missing; allowed: " + rule);
  return body_.at(field);
}

const json& Request::raw(const std::string& field) { return at(field, "any JSON value"); }

double Request::number(const std::string& field, const Range& r) {
  const json& v = at(field, describe(r));
  const std::string rule = "allowed: " + describe(r);
  if (!v.is_number())
    throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                           " is " + type_name(v) + "; " + rule);
  const double x = v.get<double>();
  const bool below = r.min_exclusive ? !(x > r.min) : !(x >= r.min);
  if (!std::isfinite(x) || below || x > r.max)
    throw RequestError("out_of_range",
                       "field '" + path(field) + "': value " + show_value(v) + " is not allowed; " + rule);
  return x;
}

double Request::number_or(const std::string& field, double fallback, const Range& r) {
  if (!has(field)) {
    read_.insert(field);
    return fallback;
  }
  return number(field, r);
}

int Request::integer(const std::string& field, long long min, long long max) {
  const std::string allowed = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  const json& v = at(field, allowed);
  const std::string rule = "allowed: " + allowed;
  if (!v.is_number())
    throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                           " is " + type_name(v) + "; " + rule);
  const double x = v.get<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(min) ||
      x > static_cast<double>(max))
    throw RequestError(x != std::floor(x) && std::isfinite(x) ? "not_integer" : "out_of_range",
                       "field '" + path(field) + "': value " + show_value(v) + " is not allowed; " + rule);
  return static_cast<int>(x);
}

int Request::integer_or(const std::string& field, int fallback, long long min, long long max) {
  if (!has(field)) {
    read_.insert(field);
    return fallback;
  }
  return integer(field, min, max);
}

bool Request::boolean_or(const std::string& field, bool fallback) {
  if (!has(field)) {
    read_.insert(field);
    return fallback;
  }
  const json& v = at(field, "true or false");
  if (!v.is_boolean())
    throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                           " is " + type_name(v) + "; allowed: true or false");
  return v.get<bool>();
}

std::string Request::name(const std::string& field, const std::vector<std::string>& allowed) {
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  const json& v = at(field, "one of " + list);
  if (!v.is_string())
    throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                           " is " + type_name(v) + "; allowed: one of " + list);
  const std::string s = v.get<std::string>();
  for (const std::string& a : allowed)
    if (a == s) return s;
  throw RequestError("unknown_value", "field '" + path(field) + "': unknown value " + show_value(v) +
                                          "; allowed: one of " + list);
}

std::string Request::name_or(const std::string& field, const std::string& fallback,
                             const std::vector<std::string>& allowed) {
  if (!has(field)) {
    read_.insert(field);
    return fallback;
  }
  return name(field, allowed);
}

double Request::bytes(const std::string& field) {
  const Range r = bytes_range();
  const json& v = at(field, describe(r) + ", or a string with a unit such as \"256 KB\"");
  if (v.is_string()) {
    const std::optional<Parsed> p = parse_quantity(v.get<std::string>(), Dimension::bytes, "B");
    if (!p)
      throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                             " is not a byte count; allowed: " + describe(r) +
                                             ", or a string with a unit (" + units_of(Dimension::bytes) + ")");
    if (!(p->value > 0) || p->value > kMaxBytes)
      throw RequestError("out_of_range", "field '" + path(field) + "': value " + show_value(v) +
                                             " is not allowed; allowed: " + describe(r));
    return p->value;
  }
  return number(field, r);
}

double Request::bytes_or(const std::string& field, double fallback) {
  if (!has(field)) {
    read_.insert(field);
    return fallback;
  }
  return bytes(field);
}

const json& Request::object(const std::string& field) {
  const json& v = at(field, "a JSON object");
  if (!v.is_object())
    throw RequestError("invalid_type", "field '" + path(field) + "': value " + show_value(v) +
                                           " is " + type_name(v) + "; allowed: a JSON object");
  return v;
}

void Request::finish() const {
  for (auto it = body_.begin(); it != body_.end(); ++it) {
    if (read_.count(it.key())) continue;
    std::string known;
    for (const std::string& k : read_) known += (known.empty() ? "" : ", ") + k;
    throw RequestError("unknown_field", "field '" + path(it.key()) +
                                            "' is not known here; allowed fields: " + known);
  }
}

}  // namespace commlab
