// A line made ready to read: the launchers' prefixes taken off, then cut into tokens.
#include <cstring>

#include "measured/nccl_log_reader.hpp"

namespace commlab::log_reader {

namespace {

// Byte classes for the tokenizer: 1 a space, 2 the first byte of a no-break space (C2 A0).
struct SpaceTable {
  unsigned char c[256] = {};
  constexpr SpaceTable() {
    c[static_cast<unsigned char>(' ')] = c[static_cast<unsigned char>('\t')] = c[static_cast<unsigned char>('\r')] = 1;
    c[static_cast<unsigned char>('\v')] = c[static_cast<unsigned char>('\f')] = 1;
    c[0xC2] = 2;
  }
};
constexpr SpaceTable kSpaces;

}  // namespace

void Reader::tokenize(std::string_view s) {
  ntok_ = 0;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* const end = p + s.size();
  // A no-break space (C2 A0) is a space; C2 before anything else is part of a token.
  auto nbsp = [end](const unsigned char* q) { return q + 1 < end && q[1] == 0xA0; };
  while (ntok_ < kMaxTokens) {
    while (p < end && (kSpaces.c[*p] == 1 || (kSpaces.c[*p] == 2 && nbsp(p)))) p += kSpaces.c[*p];
    if (p == end) break;
    const unsigned char* const begin = p;
    while (p < end && (kSpaces.c[*p] == 0 || (kSpaces.c[*p] == 2 && !nbsp(p)))) ++p;
    tok_[ntok_++] = std::string_view(reinterpret_cast<const char*>(begin), static_cast<size_t>(p - begin));
  }
}

// Launchers' prefixes taken off: Open MPI's --tag-output "[1,0]<stdout>:" (anywhere: it repeats
// inside a row written in pieces), Intel MPI / MPICH "[0] ", Slurm srun -l " 0: " (at the start;
// read_values passes over them inside a row, as is_label says).
std::string_view Reader::clean(std::string_view s) {
  tags_.clear();
  if (std::memchr(s.data(), '<', s.size())) {
    buffer_.clear();
    size_t i = 0;
    while (i < s.size()) {
      if (s[i] == '[') {
        size_t j = i + 1;
        while (j < s.size() && is_digit(s[j])) ++j;
        if (j > i + 1 && j < s.size() && s[j] == ',') {
          size_t k = j + 1;
          while (k < s.size() && is_digit(s[k])) ++k;
          std::string_view tail = s.substr(k);
          if (k > j + 1 && (starts_with(tail, "]<stdout>:") || starts_with(tail, "]<stderr>:"))) {
            tags_.push_back(buffer_.size());
            buffer_ += ' ';
            i = k + 10;
            continue;
          }
        }
      }
      buffer_ += s[i++];
    }
    s = buffer_;
  }
  label_ = {};
  for (bool again = true; again;) {
    again = false;
    const size_t i = skip_spaces(s, 0);
    size_t j = i;
    if (j < s.size() && s[j] == '[') {
      ++j;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j > i + 1 && j < s.size() && s[j] == ']' && space_at(s, j + 1)) {
        if (label_.empty()) label_ = s.substr(i, j + 1 - i);
        s = s.substr(j + 1);
        again = true;
      }
    } else {
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j > i && j < s.size() && s[j] == ':' && (j + 1 == s.size() || space_at(s, j + 1))) {
        if (label_.empty()) label_ = s.substr(i, j + 1 - i);
        s = s.substr(j + 1);
        again = true;
      }
    }
  }
  return s;
}

}  // namespace commlab::log_reader
