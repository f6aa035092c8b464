#include "base/json_writer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace commlab {

JsonTextWriter::JsonTextWriter() {
  out_.reserve(512);
  levels_.reserve(8);
  members_.reserve(32);
}

void JsonTextWriter::before_value() {
  if (levels_.empty()) return;
  Level& l = levels_.back();
  if (!l.object && l.count++ > 0) out_ += ',';
}

void JsonTextWriter::begin_object() {
  before_value();
  out_ += '{';
  levels_.push_back({true, 0, members_.size()});
}

void JsonTextWriter::begin_array() {
  before_value();
  out_ += '[';
  levels_.push_back({false, 0, members_.size()});
}

void JsonTextWriter::end_object() {
  sort_members(levels_.back());
  members_.resize(levels_.back().first_member);
  levels_.pop_back();
  out_ += '}';
}

void JsonTextWriter::end_array() {
  levels_.pop_back();
  out_ += ']';
}

void JsonTextWriter::key(std::string_view k) {
  if (members_.size() > levels_.back().first_member) out_ += ',';
  members_.push_back({k, out_.size()});
  value(k);
  out_ += ':';
}

// Members written out of key order are moved into it, as a std::map holds them; the common
// case (written in order) costs one pass.
void JsonTextWriter::sort_members(const Level& l) {
  const auto first = members_.begin() + static_cast<std::ptrdiff_t>(l.first_member);
  const auto by_key = [](const Member& a, const Member& b) { return a.key < b.key; };
  const auto same_key = [](const Member& a, const Member& b) { return a.key == b.key; };
  const auto last = members_.end() - (members_.size() > l.first_member ? 1 : 0);
  if (std::is_sorted(first, last, by_key) && std::adjacent_find(first, last, same_key) == last) {
    if (last == members_.end()) return;
    // All but the last member in order (an answer's "op", added last): move its text before
    // the first member above it, in place. The text there is A + "," + M; it becomes M + "," + A.
    const auto above = std::upper_bound(first, last, *last, by_key);
    if (above == last) return;
    if (above == first || (above - 1)->key != last->key) {
      const auto text = out_.begin();
      const size_t a = above->start, m = last->start, e = out_.size();
      std::rotate(text + a, text + m, text + e);         // M + A + ","
      std::rotate(text + a + (e - m), text + e - 1, text + e);  // M + "," + A
      return;
    }
  }
  // Each member's text runs from its key to the comma before the next one (or the end).
  struct Span {
    std::string_view key;
    size_t start, end;
  };
  std::vector<Span> spans;
  for (auto it = first; it != members_.end(); ++it) {
    const size_t end = it + 1 == members_.end() ? out_.size() : (it + 1)->start - 1;
    spans.push_back({it->key, it->start, end});
  }
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.key < b.key; });
  for (size_t i = 1; i < spans.size(); ++i)  // a tree holds one member a key: a writer bug
    if (spans[i].key == spans[i - 1].key)
      throw std::logic_error("answer member written twice: " + std::string(spans[i].key));
  std::string sorted;
  sorted.reserve(out_.size() - first->start);
  for (const Span& s : spans) {
    if (!sorted.empty()) sorted += ',';
    sorted.append(out_, s.start, s.end - s.start);
  }
  out_.replace(first->start, std::string::npos, sorted);
}

void JsonTextWriter::value(double x) {
  before_value();
  if (!std::isfinite(x)) {
    non_finite_ = true;
    out_ += "null";
    return;
  }
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
  out_.append(buf, static_cast<size_t>(end - buf));
}

void JsonTextWriter::value(long long x) {
  before_value();
  out_ += std::to_string(x);
}

void JsonTextWriter::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
}

void JsonTextWriter::value(std::string_view s) {
  before_value();
  bool plain = true;
  for (const char c : s)
    plain = plain && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x80 && c != '"' &&
            c != '\\' && c != 0x7f;
  if (plain) {
    out_ += '"';
    out_.append(s.data(), s.size());
    out_ += '"';
  } else {  // escaped exactly as the tree's dump escapes it
    out_ += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

nlohmann::json* JsonTreeWriter::place(nlohmann::json v) {
  if (stack_.empty()) {
    root_ = std::move(v);
    return &root_;
  }
  nlohmann::json& parent = *stack_.back();
  if (parent.is_object()) return &(parent[key_] = std::move(v));
  parent.push_back(std::move(v));
  return &parent.back();
}

}  // namespace commlab
