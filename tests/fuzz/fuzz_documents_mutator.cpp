// Structure-aware mutations of exercise documents for fuzz_documents.cpp (libFuzzer's custom
// mutator and cross-over). The input is parsed as JSON (key order kept) and one to four of these
// are applied: a value replaced by another type or an edge number (0, -1, 1e300, 2^31, 2^53 + 1,
// NaN and 1e999 as raw text, ...); a field deleted, duplicated (twice in the text) or renamed
// (near misspellings, other field names); nesting deepened; array elements swapped or repeated;
// a text or an expression lengthened (placeholders, parentheses, unary minus, powers, 4 KB);
// a field spliced from another shipped document (or the cross-over's other input); an id
// changed (a built-in, out of range, another id, renamed everywhere); a `$name`, a request's op
// or `field`, a condition's op or sides, an expression's operators, a kind, dimension or unit,
// a param's range; and gentle ones (a number halved or doubled, a condition's op among the valid
// ones) that often keep a document lint calls ok, where lint's promise is checked. Input that does not parse, and one mutation in eight anyway, go to
// libFuzzer's byte mutation (LLVMFuzzerMutate). A built-in id (1-8) is mostly moved to 100 + id
// (with `"solver": id` where the file has no compute section), so copies of the shipped documents
// get past the id check and reach solving; the id mutation itself is left as it chose.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "api/api.hpp"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using Doc = nlohmann::ordered_json;

struct Rng {
  std::mt19937_64 g;
  explicit Rng(unsigned seed) : g(seed) {}
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(g() % n); }
  bool one_in(size_t n) { return below(n) == 0; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

// Raw text in the output where JSON has no value for it (NaN, 1e999), and a key written twice.
const char kRaw = '\x01', kTwice = '\x02';
Doc raw(const std::string& token) { return Doc(std::string(1, kRaw) + "R" + token + std::string(1, kRaw)); }

const std::vector<std::string> kFieldNames = {
    "id", "title", "statement", "solution", "hints", "params", "answers", "variant", "compute", "conclusions",
    "solver", "en", "zh", "kind", "label", "default", "min", "max", "unit", "nice", "one_of", "choices",
    "dimension", "exact", "about", "aliases", "choice_labels", "tolerance_rel", "min_significant_figures",
    "range_rule", "presets", "constraints", "distinct", "left", "op", "right", "why", "values", "expr",
    "request", "field", "text", "if", "argmin", "cases", "when"};
const std::vector<std::string> kResponseFields = {
    "time_s", "label", "n_half_bytes", "bandwidth_fraction", "alpha_time_s", "beta_time_s", "steps",
    "bytes_sent_per_device", "matched", "id", "algorithm", "candidates", "boundaries", "winners", "cheapest",
    "timeline", "closed_form", "verified", "error", "token_interval_s", "utilisation", "ops", "links", "name", ""};
const std::vector<std::string> kConditionOps = {"<", "<=", ">", ">=", "==", "!=", "=", "<>", "=>", "", "lt", " <"};
const std::vector<std::string> kUnits = {"", "s", "ms", "us", "µs", "ns", "B", "KB", "MB", "GB", "TB", "KiB",
                                         "MiB", "GiB", "GB/s", "B/s", "%", "x", "tokens", "count", "furlong", "秒"};
const std::vector<std::string> kDimensions = {"time", "bytes", "fraction", "count", "plain", "choice", "bandwidth", "", "Time"};
const std::vector<std::string> kKinds = {"number", "integer", "choice", "text", "", "Number"};
const std::vector<std::string> kFunctions = {"min", "max", "ceil", "floor", "round", "log2", "sqrt", "abs", "exp", "pow", "", "$"};

// The shipped documents (exercises/, tests/fixtures/exercises/) to splice from, and the API's ops.
std::vector<Doc>& pool() {
  static std::vector<Doc> p;
  return p;
}
std::vector<std::string>& op_names() {
  static std::vector<std::string> ops = {"exercise.solve", "exercise.load", "exercise.lint", "nope", ""};
  return ops;
}

struct Node {
  Doc* value;
  Doc* parent;      // null for the root
  std::string key;  // the member's name (the array's own name for an element)
  size_t index;     // the element's position in an array parent
};

void collect(Doc& v, Doc* parent, const std::string& key, size_t index, std::vector<Node>& out, int depth) {
  out.push_back({&v, parent, key, index});
  if (depth > 200) return;
  if (v.is_object())
    for (auto it = v.begin(); it != v.end(); ++it) collect(it.value(), &v, it.key(), 0, out, depth + 1);
  else if (v.is_array())
    for (size_t i = 0; i < v.size(); ++i) collect(v[i], &v, key, i, out, depth + 1);
}

std::vector<Node> nodes_of(Doc& doc) {
  std::vector<Node> out;
  collect(doc, nullptr, "", 0, out, 0);
  return out;
}

// The $name scope and the figures conditions name.
struct Names {
  std::vector<std::string> params, answers, values, conclusions;
  std::vector<std::string> all() const {
    std::vector<std::string> a = params;
    a.insert(a.end(), answers.begin(), answers.end());
    a.insert(a.end(), values.begin(), values.end());
    if (a.empty()) a.push_back("x");
    return a;
  }
};

void ids_into(const Doc& list, std::vector<std::string>& out) {
  if (!list.is_array()) return;
  for (const Doc& x : list)
    if (x.is_object() && x.contains("id") && x.at("id").is_string()) out.push_back(x.at("id").get<std::string>());
}

Names names_of(const Doc& doc) {
  Names n;
  if (!doc.is_object()) return n;
  if (doc.contains("params")) ids_into(doc.at("params"), n.params);
  if (doc.contains("answers")) ids_into(doc.at("answers"), n.answers);
  if (doc.contains("compute") && doc.at("compute").is_object() && doc.at("compute").contains("values"))
    ids_into(doc.at("compute").at("values"), n.values);
  if (doc.contains("conclusions")) ids_into(doc.at("conclusions"), n.conclusions);
  return n;
}

std::string misspell(const std::string& s, Rng& r) {
  if (s.empty()) return r.one_in(2) ? "x" : " ";
  std::string t = s;
  switch (r.below(9)) {
    case 0:  // two letters swapped
      if (t.size() >= 2) {
        const size_t i = r.below(t.size() - 1);
        std::swap(t[i], t[i + 1]);
      }
      break;
    case 1: t.erase(r.below(t.size()), 1); break;  // one dropped
    case 2: {
      const size_t i = r.below(t.size());
      t.insert(i, 1, t[i]);  // one doubled
      break;
    }
    case 3: t[r.below(t.size())] = "aeiosnrtlk_"[r.below(11)]; break;
    case 4: t = t.substr(0, 1 + r.below(t.size())); break;  // cut short
    case 5: t += r.pick(std::vector<std::string>{"s", "_s", "_bytes", "_", "2", " ", ".x"}); break;
    case 6: t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0]))); break;
    case 7: t = std::string(1 + r.below(200), 'a') + t; break;  // long
    default: t = r.pick(kFieldNames); break;
  }
  return t;
}

std::string repeat(const std::string& s, size_t k) {
  std::string out;
  out.reserve(s.size() * k);
  for (size_t i = 0; i < k; ++i) out += s;
  return out;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Every whole-word `from` in `s` replaced by `to`.
std::string replace_word(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  std::string out;
  size_t i = 0;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + from.size())) {
    const bool start = at == 0 || !is_word(s[at - 1]);
    const bool end = at + from.size() == s.size() || !is_word(s[at + from.size()]);
    if (!start || !end) continue;
    out += s.substr(i, at - i) + to;
    i = at + from.size();
  }
  return out + s.substr(i);
}

// An id renamed everywhere it is used: references, placeholders, figures, keys.
void rename_everywhere(Doc& v, const std::string& from, const std::string& to, int depth = 0) {
  if (depth > 200) return;
  if (v.is_string()) {
    v = replace_word(v.get<std::string>(), from, to);
  } else if (v.is_array()) {
    for (Doc& x : v) rename_everywhere(x, from, to, depth + 1);
  } else if (v.is_object()) {
    Doc out = Doc::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      Doc x = it.value();
      rename_everywhere(x, from, to, depth + 1);
      out[it.key() == from ? to : it.key()] = std::move(x);
    }
    v = std::move(out);
  }
}

std::vector<Doc> edge_values() {
  return {0, -1, 1, 2, 3, 0.5, 1.5, -0.0, 1e300, -1e300, 1e-300, 5e-324, 1e15, 1e16,
          static_cast<std::int64_t>(1000000000000001LL), static_cast<std::int64_t>(2147483647LL),
          static_cast<std::int64_t>(2147483648LL), static_cast<std::int64_t>(-2147483649LL),
          static_cast<std::int64_t>(4294967297LL), static_cast<std::int64_t>(9007199254740992LL),
          static_cast<std::uint64_t>(9007199254740993ULL), static_cast<std::uint64_t>(18446744073709551615ULL),
          static_cast<std::int64_t>(INT64_MIN), 999, 1000, 9, 100, 0.01, 1e-9, nullptr, true, false, "", "x", "0",
          "64 KB", "1 GB/s", "2 us", "$", Doc::array(), Doc::object(), Doc::array({1, 2}),
          Doc{{"en", ""}, {"zh", ""}}, raw("NaN"), raw("Infinity"), raw("-Infinity"), raw("1e999"), raw("-1e999"),
          raw("1e-999"), raw("-0"), raw("1E400"), raw("123456789012345678901234567890")};
}

Doc tweak(const Doc& v, Rng& r) {
  if (v.is_number()) {
    const double x = v.get<double>();
    switch (r.below(8)) {
      case 0: return x * 10;
      case 1: return x / 10;
      case 2: return x + 1;
      case 3: return x - 1;
      case 4: return -x;
      case 5: return x * (1 + 1e-12);
      case 6: return x * 1e6;
      default: return std::floor(x) + 0.5;
    }
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    switch (r.below(4)) {
      case 0: return misspell(s, r);
      case 1: return s.substr(0, s.size() / 2);
      case 2: return s + s;
      default: return "";
    }
  }
  if (v.is_boolean()) return !v.get<bool>();
  if (v.is_array() && !v.empty()) return Doc::array({v.front()});
  return Doc();
}

bool is_expression(const Node& n, const Doc& doc) {
  if (!n.value->is_string()) return false;
  if (n.key == "expr") return true;
  if (doc.is_object() && doc.contains("compute") && doc.at("compute").is_object() &&
      doc.at("compute").contains("answers") && n.parent == &doc.at("compute").at("answers"))
    return true;
  const std::string& s = n.value->get_ref<const std::string&>();
  return !s.empty() && s[0] == '$';
}

std::string grow_expression(const std::string& e, const Names& names, Rng& r) {
  const std::string ref = "$" + r.pick(names.all());
  switch (r.below(9)) {
    case 0: {
      const size_t k = r.pick(std::vector<size_t>{1, 8, 32, 63, 64, 65, 100, 2100});
      return repeat("(", k) + e + repeat(")", k);
    }
    case 1: return repeat("-", r.pick(std::vector<size_t>{1, 2, 63, 64, 65, 1000})) + e;
    case 2: return e + repeat(" ^ 2", r.pick(std::vector<size_t>{1, 2, 63, 64, 65}));
    case 3: {  // long, past 4 KB sometimes
      std::string out = e;
      const size_t target = r.pick(std::vector<size_t>{64, 1000, 4090, 4097, 8000});
      while (out.size() < target) out += " + " + (e.empty() ? ref : e);
      return out;
    }
    case 4: return r.pick(kFunctions) + "(" + e + (r.one_in(2) ? ", " + ref : "") + ")";
    case 5:
      return e + r.pick(std::vector<std::string>{" / 0", " / (" + ref + " - " + ref + ")", " * 1e308 * 10", " ^ 0.5",
                                                 " - " + e, " ^ -1", " / " + ref, "+", " 2", ")", ",", " $"});
    case 6:
      return r.pick(std::vector<std::string>{"sqrt(-1)", "log2(0)", "0/0", "1e999", "-" + ref, "min()", "max(" + ref + ")",
                                             "ceil(" + ref + ", 1)", ref + ref, "$" + ref, ".", "1e", "--1", "2^2^2^2^2^2^2^2^2^2"});
    case 7: return "  " + e + "\t";
    default: return ref + " * " + e;
  }
}

std::string grow_text(const std::string& t, const Names& names, Rng& r) {
  std::vector<std::string> frag = {"{", "}", "{}", "{nope}", "$", "$\\beta_\\text{NIC}$", "{{x}}", "{values.nope:us}",
                                   "{params.x:furlong}", "\n", "{conclusions.nope}"};
  for (const std::string& n : names.params) frag.insert(frag.end(), {"{" + n + "}", "{params." + n + "}", "{" + n + ":us}"});
  for (const std::string& n : names.answers) frag.push_back("{answers." + n + "}");
  for (const std::string& n : names.values) frag.insert(frag.end(), {"{values." + n + "}", "{values." + n + ":KB}", "{" + n + "}"});
  for (const std::string& n : names.conclusions) frag.push_back("{conclusions." + n + "}");
  switch (r.below(4)) {
    case 0: return repeat(t.empty() ? r.pick(frag) : t, r.pick(std::vector<size_t>{2, 10, 100, 1000, 3000}));
    case 1: return repeat(r.pick(frag), r.pick(std::vector<size_t>{1, 1, 2, 50, 2000}));
    default: {
      std::string out = t;
      const size_t at = r.below(out.size() + 1);
      out.insert(at, r.pick(frag));
      return out;
    }
  }
}

void set_at(const Node& n, Doc v) { *n.value = std::move(v); }

// An object's member renamed in place (the order kept).
void rename_member(Doc& obj, const std::string& from, const std::string& to) {
  Doc out = Doc::object();
  for (auto it = obj.begin(); it != obj.end(); ++it) out[it.key() == from ? to : it.key()] = it.value();
  obj = std::move(out);
}

std::vector<Node> where(const std::vector<Node>& nodes, bool (*keep)(const Node&)) {
  std::vector<Node> out;
  for (const Node& n : nodes)
    if (keep(n)) out.push_back(n);
  return out;
}

// One mutation (`choice`, or any when it is -1); false when it found nothing to change.
bool mutate_once(Doc& doc, Rng& r, const Doc& donor, bool& id_changed, int choice = -1) {
  std::vector<Node> nodes = nodes_of(doc);
  const Names names = names_of(doc);
  const std::vector<Node> inner = where(nodes, [](const Node& n) { return n.parent != nullptr; });
  if (inner.empty()) {
    if (!doc.is_object()) doc = pool().empty() ? Doc::object() : r.pick(pool());
    return true;
  }
  const Node& any = r.pick(inner);
  switch (choice >= 0 ? static_cast<size_t>(choice) : r.below(20)) {
    case 0: {  // another type, an edge number, a tweak of the value
      if (r.one_in(3)) set_at(any, tweak(*any.value, r));
      else set_at(any, r.pick(edge_values()));
      return true;
    }
    case 1: {  // delete
      if (any.parent->is_object()) any.parent->erase(any.key);
      else any.parent->erase(any.index);
      return true;
    }
    case 2: {  // duplicate: an element repeated, a member written twice
      if (any.parent->is_array()) {
        const Doc copy = *any.value;
        const size_t k = r.one_in(8) ? r.pick(std::vector<size_t>{10, 100, 1000}) : 1;
        for (size_t i = 0; i < k; ++i) any.parent->insert(any.parent->begin() + static_cast<long>(r.below(any.parent->size() + 1)), copy);
      } else {
        (*any.parent)[std::string(1, kTwice) + any.key] = r.one_in(2) ? *any.value : r.pick(edge_values());
      }
      return true;
    }
    case 3: {  // rename a field: a near misspelling, another field's name, an id
      const std::vector<Node> members = where(inner, [](const Node& n) { return n.parent->is_object(); });
      if (members.empty()) return false;
      const Node& m = r.pick(members);
      const std::string to = r.one_in(4) ? r.pick(kFieldNames) : r.one_in(5) ? r.pick(names.all()) : misspell(m.key, r);
      rename_member(*m.parent, m.key, to);
      return true;
    }
    case 4: {  // deepen
      const size_t k = r.pick(std::vector<size_t>{1, 1, 2, 3, 8, 30, 62, 63, 64, 65, 70});
      Doc v = *any.value;
      const size_t how = r.below(3);
      for (size_t i = 0; i < k; ++i) v = how == 0 ? Doc::array({v}) : how == 1 ? Doc{{"en", v}} : Doc{{any.key, v}};
      set_at(any, std::move(v));
      return true;
    }
    case 5: {  // swap array elements
      const std::vector<Node> arrays = where(nodes, [](const Node& n) { return n.value->is_array() && n.value->size() >= 2; });
      if (arrays.empty()) return false;
      Doc& a = *r.pick(arrays).value;
      if (r.one_in(4)) std::reverse(a.begin(), a.end());
      else std::swap(a[r.below(a.size())], a[r.below(a.size())]);
      return true;
    }
    case 6:
    case 7: {  // lengthen a text or an expression
      const std::vector<Node> strings = where(inner, [](const Node& n) { return n.value->is_string(); });
      if (strings.empty()) return false;
      const Node& s = r.pick(strings);
      const std::string t = s.value->get<std::string>();
      set_at(s, is_expression(s, doc) ? grow_expression(t, names, r) : grow_text(t, names, r));
      return true;
    }
    case 8: {  // splice a field of another document: where the same name is, or anywhere
      Doc other = donor;
      std::vector<Node> theirs = nodes_of(other);
      theirs.erase(theirs.begin());
      if (theirs.empty()) return false;
      const Node& t = r.pick(theirs);
      std::vector<Node> same;
      for (const Node& n : inner)
        if (n.key == t.key && n.parent->is_object() == t.parent->is_object()) same.push_back(n);
      if (!same.empty() && !r.one_in(4)) {
        set_at(r.pick(same), *t.value);
      } else {
        const std::vector<Node> containers = where(nodes, [](const Node& n) { return n.value->is_structured(); });
        Doc& c = *r.pick(containers).value;
        if (c.is_object()) c[t.key.empty() ? "x" : t.key] = *t.value;
        else c.push_back(*t.value);
      }
      return true;
    }
    case 9: {  // the document's id: a built-in, out of range, another type
      if (!doc.is_object()) return false;
      doc["id"] = r.pick(std::vector<Doc>{1, 2, 3, 8, 0, -1, 999, 1000, 9, 10, 41, static_cast<int>(9 + r.below(991)),
                                          static_cast<std::int64_t>(2147483648LL),
                                          static_cast<std::uint64_t>(9007199254740993ULL), 1e300, "9", 9.5,
                                          nullptr, raw("NaN"), raw("1e999"), raw("9.0"), raw("-0")});
      if (r.one_in(3)) doc["solver"] = r.pick(std::vector<Doc>{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1000, "3", 3.5});
      id_changed = true;
      return true;
    }
    case 10: {  // a param's, answer's, value's or conclusion's id: taken, misspelt, renamed everywhere
      const std::vector<Node> ids = where(inner, [](const Node& n) { return n.key == "id" && n.value->is_string(); });
      if (ids.empty()) return false;
      const Node& n = r.pick(ids);
      const std::string from = n.value->get<std::string>();
      const std::string to = r.one_in(3) ? r.pick(names.all())
                             : r.one_in(2) ? misspell(from, r)
                                           : r.pick(std::vector<std::string>{"x", std::string(300, 'a'), "values", "a.b",
                                                                             "", "$x", "params", "答案", "if", "1x"});
      if (r.one_in(2)) set_at(n, to);
      else rename_everywhere(doc, from, to);
      return true;
    }
    case 11: {  // a $name: another name in scope, a later one, a misspelling
      const std::vector<Node> refs = where(inner, [](const Node& n) {
        return n.value->is_string() && n.value->get_ref<const std::string&>().find('$') != std::string::npos;
      });
      if (refs.empty()) return false;
      const Node& n = r.pick(refs);
      std::string s = n.value->get<std::string>();
      std::vector<size_t> at;
      for (size_t i = s.find('$'); i != std::string::npos; i = s.find('$', i + 1)) at.push_back(i);
      const size_t start = r.pick(at) + 1;
      size_t end = start;
      while (end < s.size() && is_word(s[end])) ++end;
      const std::string old = s.substr(start, end - start);
      const std::string to = r.one_in(3) ? misspell(old, r) : r.one_in(6) ? std::string() : r.pick(names.all());
      set_at(n, s.substr(0, start) + to + s.substr(end));
      return true;
    }
    case 12: {  // an op: a request's, or a condition's
      const std::vector<Node> ops = where(inner, [](const Node& n) { return n.key == "op" && n.parent->is_object(); });
      if (ops.empty()) return false;
      const Node& n = r.pick(ops);
      const bool condition = n.parent->contains("left") || n.parent->contains("right");
      set_at(n, r.one_in(8) ? Doc(r.pick(edge_values())) : Doc(r.pick(condition ? kConditionOps : op_names())));
      return true;
    }
    case 13: {  // a request's field, an if, an argmin name
      const std::vector<Node> fs = where(inner, [](const Node& n) { return n.key == "field" || n.key == "if" || n.key == "argmin"; });
      if (fs.empty()) return false;
      const Node& n = r.pick(fs);
      if (n.key == "field") set_at(n, r.one_in(3) ? misspell(n.value->is_string() ? n.value->get<std::string>() : "", r) : r.pick(kResponseFields));
      else set_at(n, r.one_in(3) ? Doc(misspell(r.pick(names.all()), r)) : Doc(r.pick(names.all())));
      return true;
    }
    case 14: {  // a condition's side: another figure, a number, a literal
      const std::vector<Node> sides = where(inner, [](const Node& n) { return n.key == "left" || n.key == "right"; });
      if (sides.empty()) return false;
      std::vector<Doc> to = {0, -1, 1e300, true, false, "yes", "params.", "values.nope", "conclusions.x", "answers", nullptr};
      for (const std::string& p : names.params) to.push_back("params." + p);
      for (const std::string& a : names.answers) to.push_back("answers." + a);
      for (const std::string& v : names.values) to.push_back("values." + v);
      set_at(r.pick(sides), r.pick(to));
      return true;
    }
    case 15: {  // an expression's operators and numbers
      std::vector<Node> exprs;
      for (const Node& n : inner)
        if (is_expression(n, doc)) exprs.push_back(n);
      if (exprs.empty()) return false;
      const Node& n = r.pick(exprs);
      std::string e = n.value->get<std::string>();
      std::vector<size_t> ops;
      for (size_t i = 0; i < e.size(); ++i)
        if (std::strchr("+-*/^(),", e[i]) || std::isdigit(static_cast<unsigned char>(e[i]))) ops.push_back(i);
      if (ops.empty() || r.one_in(4)) {
        e = grow_expression(e, names, r);
      } else {
        const size_t i = r.pick(ops);
        if (std::isdigit(static_cast<unsigned char>(e[i])))
          e.replace(i, 1, r.pick(std::vector<std::string>{"0", "0.0", "1e308", "1e-320", "9007199254740993", "."}));
        else
          e[i] = "+-*/^(),"[r.below(8)];
      }
      set_at(n, e);
      return true;
    }
    case 17:
    case 18: {  // gentle: a number nudged, so the document often still lints ok (lint's promise)
      const std::vector<Node> numbers = where(inner, [](const Node& n) { return n.value->is_number(); });
      if (numbers.empty()) return false;
      const Node& n = r.pick(numbers);
      const double x = n.value->get<double>();
      const double y = r.pick(std::vector<double>{x * 2, x / 2, x + 1, x - 1, x * 10, x / 10, x * (1 + 1e-9), x * 0.999});
      if (n.value->is_number_integer() && std::fabs(y) < 9e15) set_at(n, static_cast<std::int64_t>(std::llround(y)));
      else set_at(n, y);
      return true;
    }
    case 19: {  // gentle: a condition's op among the valid ones
      const std::vector<Node> ops = where(inner, [](const Node& n) {
        return n.key == "op" && n.parent->is_object() && (n.parent->contains("left") || n.parent->contains("right"));
      });
      if (ops.empty()) return false;
      set_at(r.pick(ops), r.pick(std::vector<std::string>{"<", "<=", ">", ">=", "==", "!="}));
      return true;
    }
    default: {  // a kind, a dimension, a unit, a param's range
      const std::vector<Node> enums = where(inner, [](const Node& n) {
        return n.parent->is_object() && (n.key == "kind" || n.key == "dimension" || n.key == "unit" || n.key == "min" || n.key == "max" ||
               n.key == "default" || n.key == "nice" || n.key == "one_of" || n.key == "exact" || n.key == "about" ||
               n.key == "tolerance_rel" || n.key == "min_significant_figures");
      });
      if (enums.empty()) return false;
      const Node& n = r.pick(enums);
      if (n.key == "kind") set_at(n, r.pick(kKinds));
      else if (n.key == "dimension") set_at(n, r.pick(kDimensions));
      else if (n.key == "unit") set_at(n, r.pick(kUnits));
      else if (n.key == "exact" || n.key == "about") set_at(n, r.pick(std::vector<Doc>{true, false, "yes", 1}));
      else if (n.key == "nice" || n.key == "one_of") {
        Doc list = n.value->is_array() ? *n.value : Doc::array();
        list.push_back(r.pick(edge_values()));
        if (r.one_in(3)) list = Doc::array();
        set_at(n, list);
      } else {
        Doc& param = *n.parent;  // min above max, the default outside, a zero-width range
        const Doc lo = param.value("min", Doc(0)), hi = param.value("max", Doc(1));
        switch (r.below(4)) {
          case 0: param["min"] = hi; param["max"] = lo; break;
          case 1: param["default"] = hi.is_number() ? Doc(hi.get<double>() * 10) : Doc(1e300); break;
          case 2: param["min"] = param.value("default", Doc(0)); param["max"] = param.value("default", Doc(0)); break;
          default: set_at(n, r.pick(edge_values())); break;
        }
      }
      return true;
    }
  }
}

// Copies of the shipped documents keep built-in ids, which lint and load refuse at once: most
// mutants move to a free id, with the solver they had.
void free_id(Doc& doc) {
  if (!doc.is_object() || !doc.contains("id") || !doc.at("id").is_number_integer()) return;
  const std::int64_t id = doc.at("id").get<std::int64_t>();
  if (id < 1 || id > 8) return;
  doc["id"] = 100 + id;
  if (!doc.contains("compute") && !doc.contains("solver")) doc["solver"] = id;
}

std::string written(const Doc& doc, Rng& r) {
  std::string s = doc.dump(r.one_in(4) ? -1 : 2, ' ', false, Doc::error_handler_t::replace);
  // "\u0001R<token>\u0001" -> <token>, raw; "\u0002<key>" -> "<key>", a second member of that name.
  std::string out;
  out.reserve(s.size());
  const std::string open = "\"\\u0001R", close = "\\u0001\"", twice = "\"\\u0002";
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, open.size(), open) == 0) {
      const size_t end = s.find(close, i + open.size());
      if (end != std::string::npos) {
        out += s.substr(i + open.size(), end - i - open.size());
        i = end + close.size();
        continue;
      }
    }
    if (s.compare(i, twice.size(), twice) == 0) {
      out += '"';
      i += twice.size();
      continue;
    }
    out += s[i++];
  }
  return out;
}

// Nesting of the text, stopped past `limit`: deeper inputs are left to byte mutation.
bool shallow(const uint8_t* data, size_t size, int limit) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

size_t mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  Rng r(seed);
  if (r.one_in(8) || !shallow(data, size, 150)) return LLVMFuzzerMutate(data, size, max_size);
  const std::string before(reinterpret_cast<const char*>(data), size);
  for (int attempt = 0; attempt < 4; ++attempt) try {
    Doc doc = Doc::parse(data, data + size, nullptr, false);
    if (doc.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);
    bool id_changed = false;
    const size_t n = r.one_in(3) ? 2 + r.below(3) : 1;
    for (size_t i = 0; i < n; ++i) {
      mutate_once(doc, r, pool().empty() ? doc : r.pick(pool()), id_changed);
    }
    if (!id_changed && !r.one_in(4)) free_id(doc);
    const std::string out = written(doc, r);
    if (out.size() <= max_size && out != before) {
      std::memcpy(data, out.data(), out.size());
      return out.size();
    }
  } catch (const std::exception&) {
    // a mutation the document's shape did not allow (a bug here, not in the engine): try again
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

void read_pool(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    Doc d = Doc::parse(text.str(), nullptr, false);
    if (!d.is_discarded()) pool().push_back(std::move(d));
  }
}

}  // namespace

// Called from fuzz_documents.cpp's LLVMFuzzerInitialize (the replay links no mutator).
extern "C" int commlab_documents_mutator_init(int*, char***) {
#ifdef COMMLAB_SOURCE_DIR
  read_pool(std::filesystem::path(COMMLAB_SOURCE_DIR) / "exercises");
  read_pool(std::filesystem::path(COMMLAB_SOURCE_DIR) / "tests" / "fixtures" / "exercises");
#endif
  const nlohmann::json ops = commlab::evaluate(nlohmann::json{{"op", "ops"}});
  for (const auto& op : ops.value("ops", nlohmann::json::array()))
    if (op.contains("op") && op.at("op").is_string()) op_names().push_back(op.at("op").get<std::string>());
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return mutate(data, size, max_size, seed);
}

// The second input's fields spliced into the first; two texts that do not parse are cut and joined.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  Rng r(seed);
  const Doc donor = shallow(data2, size2, 150) ? Doc::parse(data2, data2 + size2, nullptr, false) : Doc(Doc::value_t::discarded);
  if (!donor.is_discarded() && shallow(data1, size1, 150)) try {
    Doc doc = Doc::parse(data1, data1 + size1, nullptr, false);
    if (!doc.is_discarded()) {
      bool id_changed = false;
      const size_t n = 1 + r.below(3);
      for (size_t i = 0; i < n; ++i) mutate_once(doc, r, donor, id_changed, 8);
      const std::string text = written(doc, r);
      if (text.size() <= max_out_size) {
        std::memcpy(out, text.data(), text.size());
        return text.size();
      }
    }
  } catch (const std::exception&) {
    // cut and joined below
  }
  const size_t cut1 = r.below(size1 + 1), cut2 = r.below(size2 + 1);
  const size_t n = std::min(max_out_size, cut1 + (size2 - cut2));
  std::memcpy(out, data1, std::min(cut1, n));
  if (n > cut1) std::memcpy(out + cut1, data2 + cut2, n - cut1);
  return n;
}
