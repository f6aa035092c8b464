#include "base/request.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/heap_sort.hpp"
#include "base/quantity.hpp"

namespace commlab {

Range bytes_range() { return Range{0, kMaxBytes, true, "bytes"}; }
Range devices_range() { return Range{1, kMaxDevices, false, "devices"}; }

namespace {
// A scalar as JSON text; a long string is cut first so a 10 MB value costs nothing to quote.
COMMLAB_RARE std::string scalar_text(const json& v, size_t cap) {
  if (v.is_string() && v.get_ref<const std::string&>().size() > cap)
    return json(v.get_ref<const std::string&>().substr(0, cap)).dump(-1, ' ', false, json::error_handler_t::replace);
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}
}  // namespace

json parse_json(const std::string& text) {
  json result;
  auto input = nlohmann::detail::input_adapter(text);
  nlohmann::detail::json_sax_dom_parser<json> dom(result, true);
  nlohmann::detail::parser<json, decltype(input)>(std::move(input), nullptr, true, false).sax_parse(&dom, true);
  return result;
}

// Without recursion (json::dump recurses, and a value nested 100,000 deep overflows the stack),
// and stopping at the cap, so the cost of quoting does not grow with the value.
COMMLAB_RARE std::string show_value(const json& v) {
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
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const char c = *p++;
    if (c == '"') {
      // To the closing quote: one after an even number of backslashes (memchr: a 4 MB log in a
      // request is skipped at memory speed).
      for (;;) {
        const char* q = static_cast<const char*>(std::memchr(p, '"', static_cast<size_t>(end - p)));
        if (!q) return deepest;
        size_t slashes = 0;
        while (q - slashes > p && q[-1 - static_cast<ptrdiff_t>(slashes)] == '\\') ++slashes;
        p = q + 1;
        if (slashes % 2 == 0) break;
      }
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
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

COMMLAB_RARE std::string type_name(const json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

COMMLAB_RARE std::string describe(const Range& r) {
  std::string s = concat({"a finite number ", r.min_exclusive ? "> " : ">= ", num(r.min), " and <= ", num(r.max)});
  if (*r.unit) s += concat({" (", r.unit, ")"});
  return s;
}

Request::Request(const json& body, std::string where) : body_(body), where_(std::move(where)) {
  if (!body_.is_object())
    refuse("invalid_type",
           {(where_.empty() ? std::string("request") : concat({"field '", where_.substr(0, where_.size() - 1), "'"})),
            ": value ", show_value(body_), " is not allowed; allowed: a JSON object"});
  read_.reserve(96);
}

bool Request::has(std::string_view field) const { return body_.find(field) != body_.end(); }

void Request::mark_read(std::string_view field) {
  read_.append(field.data(), field.size());
  read_.push_back('\0');
}

const json* Request::find(std::string_view field) {
  mark_read(field);
  const auto it = body_.find(field);
  return it == body_.end() ? nullptr : &*it;
}

COMMLAB_RARE void Request::throw_missing(std::string_view field, const std::string& rule) const {
  refuse("missing_field", {"field '", path(field), "' is missing; allowed: ", rule});
}

COMMLAB_RARE void Request::throw_type(std::string_view field, const json& v, const std::string& rule) const {
  refuse("invalid_type",
         {"field '", path(field), "': value ", show_value(v), " is ", type_name(v), "; allowed: ", rule});
}

COMMLAB_RARE void Request::throw_value(std::string_view field, const json& v, const std::string& rule,
                                       const char* code) const {
  throw RequestError(code,
                     concat({"field '", path(field), "': value ", show_value(v), " is not allowed; allowed: ", rule}));
}

const json& Request::raw(std::string_view field) {
  return required(field, [] { return std::string("any JSON value"); });
}

double Request::number(std::string_view field, const Range& r) {
  const json* v = find(field);
  if (!v) throw_missing(field, describe(r));
  if (!v->is_number()) throw_type(field, *v, describe(r));
  const double x = v->get<double>();
  const bool below = r.min_exclusive ? !(x > r.min) : !(x >= r.min);
  if (!std::isfinite(x) || below || x > r.max) throw_value(field, *v, describe(r));
  return x;
}

double Request::number_or(std::string_view field, double fallback, const Range& r) {
  if (!has(field)) {
    mark_read(field);
    return fallback;
  }
  return number(field, r);
}

namespace {
COMMLAB_RARE std::string integer_rule(long long min, long long max) {
  return concat({"an integer from ", std::to_string(min), " to ", std::to_string(max)});
}
}  // namespace

int Request::integer(std::string_view field, long long min, long long max) {
  const json* v = find(field);
  if (!v) throw_missing(field, integer_rule(min, max));
  if (!v->is_number()) throw_type(field, *v, integer_rule(min, max));
  const double x = v->get<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(min) ||
      x > static_cast<double>(max))
    throw_value(field, *v, integer_rule(min, max),
                x != std::floor(x) && std::isfinite(x) ? "not_integer" : "out_of_range");
  return static_cast<int>(x);
}

int Request::integer_or(std::string_view field, int fallback, long long min, long long max) {
  if (!has(field)) {
    mark_read(field);
    return fallback;
  }
  return integer(field, min, max);
}

bool Request::boolean_or(std::string_view field, bool fallback) {
  const json* v = find(field);
  if (!v) return fallback;
  if (!v->is_boolean()) throw_type(field, *v, "true or false");
  return v->get<bool>();
}

namespace {
COMMLAB_RARE std::string one_of(const std::vector<std::string>& allowed) {
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  return "one of " + list;
}
}  // namespace

std::string Request::name(std::string_view field, const std::vector<std::string>& allowed) {
  const json* v = find(field);
  if (!v) throw_missing(field, one_of(allowed));
  if (!v->is_string()) throw_type(field, *v, one_of(allowed));
  const std::string& s = v->get_ref<const std::string&>();
  for (const std::string& a : allowed)
    if (a == s) return s;
  refuse("unknown_value",
         {"field '", path(field), "': unknown value ", show_value(*v), "; allowed: ", one_of(allowed)});
}

std::string Request::name_or(std::string_view field, const std::string& fallback,
                             const std::vector<std::string>& allowed) {
  if (!has(field)) {
    mark_read(field);
    return fallback;
  }
  return name(field, allowed);
}

double Request::bytes(std::string_view field) {
  const Range r = bytes_range();
  const json* v = find(field);
  if (!v) throw_missing(field, describe(r) + ", or a string with a unit such as \"256 KB\"");
  if (v->is_string()) {
    const std::optional<Parsed> p = parse_quantity(v->get_ref<const std::string&>(), Dimension::bytes, "B");
    if (!p)
      refuse("invalid_type", {"field '", path(field), "': value ", show_value(*v), " is not a byte count; allowed: ",
                              describe(r), ", or a string with a unit (", units_of(Dimension::bytes), ")"});
    if (!(p->value > 0) || p->value > kMaxBytes) throw_value(field, *v, describe(r));
    return p->value;
  }
  return number(field, r);
}

double Request::bytes_or(std::string_view field, double fallback) {
  if (!has(field)) {
    mark_read(field);
    return fallback;
  }
  return bytes(field);
}

const json& Request::object(std::string_view field) {
  const json* v = find(field);
  if (!v) throw_missing(field, "a JSON object");
  if (!v->is_object()) throw_type(field, *v, "a JSON object");
  return *v;
}

void Request::finish() const {
  for (auto it = body_.begin(); it != body_.end(); ++it) {
    const std::string& key = it.key();
    // A name in the buffer is a match when it is followed by '\0' and begins the buffer or a name.
    bool read = false;  // no reader asks for a name holding '\0'
    for (size_t at = key.find('\0') == std::string::npos ? read_.find(key) : std::string::npos;
         at != std::string::npos && !read; at = read_.find(key, at + 1))
      read = (at == 0 || read_[at - 1] == '\0') && at + key.size() < read_.size() && read_[at + key.size()] == '\0';
    if (!read) refuse_unknown(key);
  }
}

COMMLAB_RARE void Request::refuse_unknown(const std::string& key) const {
  // The names asked for, unique and sorted, as the message lists them.
  std::vector<std::string> names;
  for (size_t i = 0; i < read_.size();) {
    const size_t end = read_.find('\0', i);
    names.emplace_back(read_, i, end - i);
    i = end + 1;
  }
  heap_sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string known;
  for (const std::string& k : names) known += (known.empty() ? "" : ", ") + k;
  // The name quoted at most 60 bytes (cut on a UTF-8 boundary): a key can be kilobytes long.
  std::string shown = key;
  if (shown.size() > 60) {
    size_t cut = 60;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
    shown = shown.substr(0, cut) + "...";
  }
  refuse("unknown_field", {"field '", path(shown), "' is not known here; allowed fields: ", known});
}

}  // namespace commlab
