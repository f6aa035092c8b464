#include "base/json_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace commlab {

JsonTextWriter::JsonTextWriter(std::string_view root_key, std::string_view root_value)
    : out_(512, '\0'), root_key_(root_key), root_value_(root_value), root_member_done_(root_key.empty()) {}

void JsonTextWriter::put(const char* p, size_t n) {
  if (size_ + n > out_.size()) out_.resize(std::max(2 * out_.size(), size_ + n));
  std::memcpy(&out_[size_], p, n);
  size_ += n;
}

void JsonTextWriter::before_value() {
  if (depth_ == 0) return;
  Level& l = levels_[depth_ - 1];
  if (!l.object && l.count++ > 0) put(',');
}

void JsonTextWriter::begin_object() {
  before_value();
  if (depth_ == kMaxLevels) throw std::logic_error("answer nests too deep for the text writer");
  put('{');
  levels_[depth_++] = {true, true, 0, n_members_};
}

void JsonTextWriter::begin_array() {
  before_value();
  if (depth_ == kMaxLevels) throw std::logic_error("answer nests too deep for the text writer");
  put('[');
  levels_[depth_++] = {false, true, 0, n_members_};
}

void JsonTextWriter::end_object() {
  if (depth_ == 1) root_member_before({});
  const Level& l = levels_[depth_ - 1];
  if (!l.sorted) sort_members(l);
  n_members_ = l.first_member;
  --depth_;
  put('}');
}

void JsonTextWriter::end_array() {
  --depth_;
  put(']');
}

// The root's extra member goes before the first key above it, or last.
void JsonTextWriter::root_member_before(std::string_view k) {
  if (root_member_done_ || (!k.empty() && k < root_key_)) return;
  root_member_done_ = true;
  key(root_key_);
  value(root_value_);
}

// Keys are the engine's own literals (letters, digits, '_'): written without escaping.
void JsonTextWriter::key(std::string_view k) {
  if (depth_ == 1 && !root_member_done_ && k != root_key_) root_member_before(k);
  Level& l = levels_[depth_ - 1];
  if (n_members_ == kMaxMembers) throw std::logic_error("answer has too many members for the text writer");
  if (l.count > 0) {
    if (!(members_[n_members_ - 1].key < k)) l.sorted = false;
    put(',');
  }
  ++l.count;
  members_[n_members_++] = {k, size_};
  put('"');
  put(k.data(), k.size());
  put('"');
  put(':');
}

// Members written out of key order are moved into it, as a std::map holds them.
void JsonTextWriter::sort_members(const Level& l) {
  // Each member's text runs from its key to the comma before the next one (or the end).
  // Insertion sort (an object has a dozen members or so), then the sorted text is assembled
  // in the room after the answer and copied back: no allocation.
  struct Span {
    std::string_view key;
    size_t start, end;
  };
  Span spans[kMaxMembers];
  const size_t n = n_members_ - l.first_member;
  for (size_t i = 0; i < n; ++i) {
    const size_t m = l.first_member + i;
    const Span span{members_[m].key, members_[m].start, m + 1 == n_members_ ? size_ : members_[m + 1].start - 1};
    size_t j = i;
    for (; j > 0 && span.key < spans[j - 1].key; --j) spans[j] = spans[j - 1];
    spans[j] = span;
  }
  for (size_t i = 1; i < n; ++i)  // a tree holds one member a key: a writer bug
    if (spans[i].key == spans[i - 1].key)
      throw std::logic_error("answer member written twice: " + std::string(spans[i].key));
  const size_t begin = members_[l.first_member].start, length = size_ - begin;
  if (out_.size() < size_ + length) out_.resize(std::max(2 * out_.size(), size_ + length));
  size_t at = size_;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out_[at++] = ',';
    std::memcpy(&out_[at], &out_[spans[i].start], spans[i].end - spans[i].start);
    at += spans[i].end - spans[i].start;
  }
  std::memcpy(&out_[begin], &out_[size_], length);
}

void JsonTextWriter::value(double x) {
  before_value();
  if (!std::isfinite(x)) {
    non_finite_ = true;
    put("null", 4);
    return;
  }
  char buf[64];
  const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
  put(buf, static_cast<size_t>(end - buf));
}

void JsonTextWriter::value(long long x) {
  before_value();
  char buf[24];
  char* p = buf + sizeof buf;
  unsigned long long u = x < 0 ? 0ULL - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  if (x < 0) *--p = '-';
  put(p, static_cast<size_t>(buf + sizeof buf - p));
}

void JsonTextWriter::value(bool b) {
  before_value();
  if (b) put("true", 4);
  else put("false", 5);
}

void JsonTextWriter::value(std::nullptr_t) {
  before_value();
  put("null", 4);
}

void JsonTextWriter::value(std::string_view s) {
  before_value();
  bool plain = true;
  for (const char c : s)
    plain = plain && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f && c != '"' &&
            c != '\\';
  if (plain) {
    put('"');
    put(s.data(), s.size());
    put('"');
  } else {  // escaped exactly as the tree's dump escapes it
    const std::string escaped =
        nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    put(escaped.data(), escaped.size());
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
