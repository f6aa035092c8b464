// The nccl-tests reader's parts (internal to the layer): the Reader class, whose methods are
// defined by the format each reads (nccl_log.cpp the lines and tables, nccl_log_clean.cpp the
// launchers' prefixes and the tokens, nccl_log_header.cpp the header and nccl-tests' other
// lines, nccl_log_rows.cpp the table rows), and the character tests they share, inline: the
// reader runs them on every byte of a log.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "measured/nccl_log.hpp"

namespace commlab::log_reader {

constexpr int kMaxTokens = 48;
constexpr size_t kQuoteBytes = 40;
constexpr double kMaxRowBytes = 1e15;  // 1 PB: no nccl-tests size comes near it
constexpr uint32_t kMaxRankId = (1u << 20) - 1;  // the engine's largest device count, less one

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Whitespace, with the no-break space (UTF-8 C2 A0) that pages copied from the web carry.
inline size_t space_at(std::string_view s, size_t i) {
  if (i < s.size() && is_space(s[i])) return 1;
  if (i + 1 < s.size() && s[i] == '\xC2' && s[i + 1] == '\xA0') return 2;
  return 0;
}

inline size_t skip_spaces(std::string_view s, size_t i) {
  for (size_t w; (w = space_at(s, i)) != 0;) i += w;
  return i;
}

inline bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

inline bool is_identifier(std::string_view s) {
  if (s.empty() || !is_alpha(s[0])) return false;
  for (char c : s)
    if (!is_alpha(c) && !is_digit(c)) return false;
  return true;
}

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A launcher's label as it repeats inside a row written in pieces: Intel MPI / MPICH "[3]", Slurm
// srun -l "3:" (any rank's: another rank's line may land inside rank 0's row).
inline bool is_label(std::string_view t) {
  if (t.size() < 2 || t.size() > 9) return false;
  const bool bracket = t[0] == '[' && t.back() == ']';
  const std::string_view digits = bracket ? t.substr(1, t.size() - 2) : t.back() == ':' ? t.substr(0, t.size() - 1) : t.substr(0, 0);
  if (digits.empty() || (digits[0] == '0' && digits.size() > 1)) return false;  // "00:" is a 0 glued to "0:"
  for (char c : digits)
    if (!is_digit(c)) return false;
  return true;
}

// Digits (at most 16) as a number: exact below 2^53.
inline double whole_number(std::string_view digits) {
  uint64_t v = 0;
  for (char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
  return static_cast<double>(v);
}

// A line's text up to kQuoteBytes, not cut inside a UTF-8 character.
std::string quoted(std::string_view s);
// A number in a message: %.6g.
std::string num(double x);

// How the columns of a table are laid out after size, count and type.
struct Layout {
  bool redop = true;
  bool root = true;
  int group_fields = 4;  // time, algbw, busbw, #wrong; 8 with -I 1's i_min, i_max, i_p99, i_cv%
  bool timestamp = false;
  double time_to_us = 1;  // 1000 for the 2017 format, which printed milliseconds
  bool cpu_time = false;
  const char* format = "root, #wrong";
  int values() const { return (root ? 1 : 0) + 2 * group_fields; }
  bool same_shape(const Layout& o) const {
    return redop == o.redop && root == o.root && group_fields == o.group_fields;
  }
};

// The values of a row (or of the rest of a row) after its size, count, type and redop.
struct Values {
  int n = 0;
  double v[kMaxTokens];
  double half[kMaxTokens];
  bool na[kMaxTokens];
  bool integral[kMaxTokens];
  bool timestamp = false;
};

// A row's start, kept while noise lines pass until the rest of its values comes.
struct Partial {
  bool open = false;
  int line = 0, last_line = 0;
  double bytes = 0, count = 0;
  std::string type, redop;
  bool has_redop = false;
  Values values;
};

class Reader {
 public:
  ParsedLog run(std::string_view text);
  /// A line with the launchers' prefixes taken off (nccl_log_clean.cpp); the NCCL topology
  /// reader cleans its lines with it too. The view lives until the next call.
  std::string_view clean(std::string_view raw);

 private:
  void line(std::string_view raw, int n);
  void tokenize(std::string_view s);
  bool known_line(bool hashed, int n);
  bool header_line(int n);
  bool command_line(std::string_view s, int n);
  bool row_line(std::string_view s, int n);
  bool continuation_line(std::string_view s, int n);
  size_t read_values(std::string_view s, size_t from_token, Values* out, std::string_view* rest, bool* glued);
  void take_row(Partial& p, int n);
  bool complete(const Partial& p, const Layout* known, Layout* shape, bool* too_many) const;
  void flush_partial(const char* why);
  void close_table() { current_ = -1; }
  void skip(int n, std::string reason);
  void reject(int n, std::string reason);
  LogTable& new_table(int first_line, const Layout& layout);

  ParsedLog out_;
  std::string_view tok_[kMaxTokens];
  int ntok_ = 0;
  std::string buffer_;        // a line with Open MPI's tags taken out
  std::vector<size_t> tags_;  // where they were in it: each piece after one is a new write
  std::string_view label_;    // the line's leading Intel MPI or srun label ("[0]", "0:"), "" without one

  // The run being read: what the text said before its table.
  std::string collective_;
  LogSource collective_from_;
  // The distinct rank numbers of the run's Rank lines: a bitmap over 0..kMaxRankId and the
  // numbers set, to clear it in time proportional to them (a text may start many runs).
  struct RankSet {
    std::vector<uint64_t> bits;
    std::vector<uint32_t> ids;
    bool empty() const { return ids.empty(); }
    size_t size() const { return ids.size(); }
    void clear() {
      for (uint32_t id : ids) bits[id / 64] &= ~(uint64_t{1} << (id % 64));
      ids.clear();
    }
    void insert(uint32_t id) {
      if (bits.empty()) bits.assign(kMaxRankId / 64 + 1, 0);
      uint64_t& w = bits[id / 64];
      const uint64_t b = uint64_t{1} << (id % 64);
      if (w & b) return;
      w |= b;
      ids.push_back(id);
    }
  } rank_ids_;
  LogSource ranks_from_;
  bool ranks_closed_ = false;  // a table came after these Rank lines: the next ones are a new run's
  bool header_pending_ = false;
  Layout header_;
  int header_line_ = 0;
  // The table rows go to, -1 between tables.
  int current_ = -1;
  Layout layout_;          // the current table's
  bool layout_from_header_ = false;
  std::vector<LogSkip> pending_skips_;  // lines before the next table
  Partial partial_;
};

}  // namespace commlab::log_reader
