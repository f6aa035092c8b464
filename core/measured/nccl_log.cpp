#include "measured/nccl_log.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "base/concat.hpp"

namespace commlab {

namespace {

constexpr int kMaxTokens = 48;
constexpr size_t kQuoteBytes = 40;
constexpr double kMaxRowBytes = 1e15;  // 1 PB: no nccl-tests size comes near it
constexpr uint32_t kMaxRankId = (1u << 20) - 1;  // the engine's largest device count, less one

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Whitespace, with the no-break space (UTF-8 C2 A0) that pages copied from the web carry.
size_t space_at(std::string_view s, size_t i) {
  if (i < s.size() && is_space(s[i])) return 1;
  if (i + 1 < s.size() && s[i] == '\xC2' && s[i + 1] == '\xA0') return 2;
  return 0;
}

size_t skip_spaces(std::string_view s, size_t i) {
  for (size_t w; (w = space_at(s, i)) != 0;) i += w;
  return i;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_alpha(s[0])) return false;
  for (char c : s)
    if (!is_alpha(c) && !is_digit(c)) return false;
  return true;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Digits (at most 16) as a number: exact below 2^53.
double whole_number(std::string_view digits) {
  uint64_t v = 0;
  for (char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
  return static_cast<double>(v);
}

// Powers of ten that are exact doubles (10^22 is the last), for the exact fast path.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// 10^e for |e| <= 22, the same on every platform (no libm).
double pow10_exact(int e) { return e >= 0 ? kPow10[e] : 1.0 / kPow10[-e]; }

// A line's text up to kQuoteBytes, not cut inside a UTF-8 character.
std::string quoted(std::string_view s) {
  size_t start = skip_spaces(s, 0);
  s = s.substr(start);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  if (s.size() <= kQuoteBytes) return concat({"'", s, "'"});
  size_t cut = kQuoteBytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return concat({"'", s.substr(0, cut), "...'"});
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

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

 private:
  void line(std::string_view raw, int n);
  void tokenize(std::string_view s);
  std::string_view clean(std::string_view raw);
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

void Reader::skip(int n, std::string reason) {
  ++out_.skipped_lines;
  if (current_ >= 0)
    out_.tables[current_].skipped.push_back({n, std::move(reason)});
  else
    pending_skips_.push_back({n, std::move(reason)});
}

void Reader::reject(int n, std::string reason) {
  if (out_.rejected_rows++ == 0) out_.first_rejected = {n, reason};
  skip(n, std::move(reason));
}

LogTable& Reader::new_table(int first_line, const Layout& layout) {
  out_.tables.emplace_back();
  LogTable& t = out_.tables.back();
  current_ = static_cast<int>(out_.tables.size()) - 1;
  t.first_line = first_line;
  t.collective = collective_;
  t.collective_from = collective_from_;
  if (!rank_ids_.empty()) {
    t.ranks = static_cast<int>(rank_ids_.size());
    t.ranks_from = ranks_from_;
  }
  ranks_closed_ = true;
  t.format = layout.format;
  t.cpu_time = layout.cpu_time;
  t.header = layout_from_header_;
  t.skipped = std::move(pending_skips_);
  pending_skips_.clear();
  return t;
}

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
// inside a row written in pieces), Intel MPI / MPICH "[0] ", Slurm srun -l " 0: ".
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
  for (bool again = true; again;) {
    again = false;
    const size_t i = skip_spaces(s, 0);
    size_t j = i;
    if (j < s.size() && s[j] == '[') {
      ++j;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j > i + 1 && j < s.size() && s[j] == ']' && space_at(s, j + 1)) {
        s = s.substr(j + 1);
        again = true;
      }
    } else {
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j > i && j < s.size() && s[j] == ':' && (j + 1 == s.size() || space_at(s, j + 1))) {
        s = s.substr(j + 1);
        again = true;
      }
    }
  }
  return s;
}

// The column header, with or without '#': size count type [redop] [root] then out-of-place and
// in-place groups (time algbw busbw #wrong|error [i_min i_max i_p99 i_cv%]) [timestamp]; or the
// 2017 one: bytes N type op time algbw busbw res (time in ms).
bool Reader::header_line(int n) {
  if (ntok_ < 7 || tok_[2] != "type") return false;
  Layout l;
  const bool y2017 = tok_[0] == "bytes" && tok_[1] == "N";
  if (!y2017 && !(tok_[0] == "size" && tok_[1] == "count")) return false;
  int i = 3;
  l.redop = i < ntok_ && (tok_[i] == "redop" || tok_[i] == "op");
  if (l.redop) ++i;
  l.root = i < ntok_ && tok_[i] == "root";
  if (l.root) ++i;
  int groups = 0;
  bool error_column = false;
  while (i < ntok_ && (tok_[i] == "time" || tok_[i] == "cputime")) {
    l.cpu_time = l.cpu_time || tok_[i] == "cputime";
    if (i + 3 >= ntok_ || tok_[i + 1] != "algbw" || tok_[i + 2] != "busbw") return false;
    const std::string_view w = tok_[i + 3];
    if (w != "#wrong" && w != "wrong" && w != "error" && w != "res") return false;
    error_column = w == "error" || w == "res";
    i += 4;
    int fields = 4;
    if (i + 3 < ntok_ && tok_[i] == "i_min" && tok_[i + 1] == "i_max" && tok_[i + 2] == "i_p99" && tok_[i + 3] == "i_cv%") {
      fields = 8;
      i += 4;
    }
    if (groups > 0 && fields != l.group_fields) return false;
    l.group_fields = fields;
    ++groups;
  }
  if (groups != 2) return false;
  l.timestamp = i < ntok_ && tok_[i] == "timestamp";
  if (l.timestamp) ++i;
  if (i != ntok_) return false;
  if (y2017) {
    l.time_to_us = 1000;
    l.format = "2017 (time in ms)";
  } else {
    l.format = l.root ? (error_column ? "root, error" : "root, #wrong") : "no root, error";
  }
  flush_partial("a header");
  close_table();
  header_ = l;
  header_pending_ = true;
  header_line_ = n;
  return true;
}

const char* const kTests[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "reduce",
                              "sendrecv",   "gather",     "scatter",        "hypercube", "alltoallv"};

// "all_reduce_perf", "./build/all_reduce_perf_mpi": the test's name, "" when it is none.
std::string test_name(std::string_view program) {
  const size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
  if (program.size() > 4 && program.substr(program.size() - 4) == "_mpi") program.remove_suffix(4);
  if (program.size() <= 5 || program.substr(program.size() - 5) != "_perf") return "";
  program.remove_suffix(5);
  for (const char* t : kTests)
    if (program == t) return t;
  return "";
}

// A shell command that runs a test (`mpirun -np 8 ./build/all_reduce_perf -b 8 ...`): a new run.
bool Reader::command_line(std::string_view s, int n) {
  if (s.find("_perf") == std::string_view::npos) return false;  // most noise lines: at once
  for (int i = 0; i < ntok_; ++i) {
    if (tok_[i] == "NCCL") return false;  // a message that names the program
    const std::string name = test_name(tok_[i]);
    if (name.empty()) continue;
    flush_partial("a command line");
    close_table();
    collective_ = name;
    collective_from_ = {n, "command line"};
    rank_ids_.clear();
    ranks_closed_ = false;
    header_pending_ = false;
    return true;
  }
  return false;
}

// Lines of nccl-tests' own output other than rows, with or without '#'.
bool Reader::known_line(bool hashed, int n) {
  const std::string_view t0 = tok_[0], t1 = ntok_ > 1 ? tok_[1] : std::string_view(),
                         t2 = ntok_ > 2 ? tok_[2] : std::string_view();
  if (t0 == "Collective" && t1 == "test" && (t2 == "starting:" || t2 == "concluded:")) {
    flush_partial("the end of a test");
    close_table();
    header_pending_ = false;
    if (t2 == "starting:") {
      const std::string name = ntok_ > 3 ? test_name(tok_[3]) : "";
      // A program the model does not know is named in the error: its first 40 bytes.
      collective_ = name.empty() && ntok_ > 3 ? std::string(tok_[3].substr(0, 40)) : name;
      collective_from_ = {n, "Collective test starting"};
      rank_ids_.clear();
      ranks_closed_ = false;
    }
    return true;
  }
  if (t0 == "Rank" && all_digits(t1) && t1.size() <= 7 && whole_number(t1) <= kMaxRankId) {
    if (ranks_closed_) {
      rank_ids_.clear();
      ranks_closed_ = false;
    }
    if (rank_ids_.empty()) ranks_from_ = {n, "Rank lines"};
    rank_ids_.insert(static_cast<uint32_t>(whole_number(t1)));
    return true;
  }
  if (header_line(n)) return true;
  if (t0 == "Avg" && t1 == "bus" && t2 == "bandwidth") {
    flush_partial("the footer");
    for (int i = 3; i + 1 < ntok_; ++i)
      if (tok_[i] == ":") {
        double v, h;
        if (current_ >= 0 && parse_log_number(tok_[i + 1], &v, &h)) {
          out_.tables[current_].has_avg_busbw = true;
          out_.tables[current_].avg_busbw_GBps = v;
        }
        break;
      }
    close_table();
    header_pending_ = false;
    return true;
  }
  if ((t0 == "nccl-tests" && t1 == "version") || t0 == "nThread" || (t0 == "Using" && t1 == "devices") ||
      t0 == "out-of-place" || t0 == "(B)" || (t0 == "Out" && t1 == "of" && t2 == "bounds") ||
      (t0 == "Blocking" && t1 == "Enabled:") || (t0 == "Parallel" && t1 == "Init") || t0 == "Per-Iteration" ||
      (t0 == "Reducing" && t1 == "maxBytes") || (t0 == "GPU" && t1 == "memory") ||
      (t0 == "Writing" && t1 == "JSON") || (t0 == "skipping" && t1 == "json") ||
      (t0 == "NCCL" && t1 == "Tests" && t2 == "compiled") || (hashed && t0 == "error:"))
    return true;
  return false;
}

// Numbers and N/A from token `from` on; stops at the first token that is neither. A value
// glued to noise ("-1host:12:34 [0] NCCL INFO ...", a message printed inside a row) is kept and
// the rest of the line returned as `rest`, `glued` set; noise after a space is `rest` unglued.
size_t Reader::read_values(std::string_view s, size_t from, Values* out, std::string_view* rest, bool* glued) {
  *rest = {};
  *glued = false;
  size_t i = from;
  for (; i < static_cast<size_t>(ntok_); ++i) {
    std::string_view t = tok_[i];
    double v, h;
    if (out->n == kMaxTokens) break;
    if (t == "N/A") {
      out->v[out->n] = 0;
      out->half[out->n] = 0;
      out->na[out->n] = true;
      out->integral[out->n++] = false;
      continue;
    }
    if (parse_log_number(t, &v, &h)) {
      out->v[out->n] = v;
      out->half[out->n] = h;
      out->na[out->n] = false;
      out->integral[out->n++] = h == 0.5;  // no fraction, no exponent: a whole number
      continue;
    }
    // A date and a time (-T 1): the row's last columns.
    if (i + 1 < static_cast<size_t>(ntok_) && t.size() == 10 && t[4] == '-' && t[7] == '-' && tok_[i + 1].size() == 8 &&
        tok_[i + 1][2] == ':' && tok_[i + 1][5] == ':') {
      out->timestamp = true;
      i += 2;
      break;
    }
    // The longest start of the token that is a value: the rest is glued noise.
    size_t cut = 0;
    if (starts_with(t, "N/A")) cut = 3;
    else
      for (size_t k = std::min<size_t>(t.size() - 1, 32); k > 0; --k)  // a value is short
        if (parse_log_number(t.substr(0, k), &v, &h)) {
          cut = k;
          break;
        }
    if (cut > 0) {
      if (cut == 3 && starts_with(t, "N/A")) {
        out->v[out->n] = 0;
        out->half[out->n] = 0;
        out->na[out->n] = true;
        out->integral[out->n++] = false;
      } else {
        out->v[out->n] = v;
        out->half[out->n] = h;
        out->na[out->n] = false;
        out->integral[out->n++] = h == 0.5;
      }
      *rest = s.substr(static_cast<size_t>(t.data() - s.data()) + cut);
      *glued = true;
      return i + 1;
    }
    break;
  }
  if (i < static_cast<size_t>(ntok_)) {
    *rest = s.substr(static_cast<size_t>(tok_[i].data() - s.data()));
    // Noise after an Open MPI tag is a piece of its own, as if glued: the row's pieces around it.
    const char* prev_end = i > 0 ? tok_[i - 1].data() + tok_[i - 1].size() : s.data();
    for (size_t t : tags_) {
      const char* at = buffer_.data() + t;
      *glued = *glued || (at >= prev_end && at < rest->data());
    }
  }
  return i;
}

// Whether the values so far make a whole row: of the table's layout when it has one, else of
// one of nccl-tests' shapes (8 values without root, 9 with it, 17 with -I 1's columns).
bool Reader::complete(const Partial& p, const Layout* known, Layout* shape, bool* too_many) const {
  const int n = p.values.n;
  *too_many = false;
  if (known) {
    *shape = *known;
    *too_many = n > known->values() || (n == known->values() && p.has_redop != known->redop);
    return n == known->values() && p.has_redop == known->redop;
  }
  Layout l;
  l.redop = p.has_redop;
  if (n == 8) l.root = false;
  else if (n == 9) l.root = true;
  else if (n == 17) {
    l.root = true;
    l.group_fields = 8;
  } else {
    *too_many = n > 17;
    return false;
  }
  l.format = l.root ? "root, #wrong" : "no root, error";
  *shape = l;
  return true;
}

void Reader::flush_partial(const char* why) {
  if (!partial_.open) return;
  partial_.open = false;
  reject(partial_.line,
         concat({"incomplete row (size ", num(partial_.bytes), "): ", why, " came before the rest of its values"}));
}

// A row's first line: size count type [redop] and values.
bool Reader::row_line(std::string_view s, int n) {
  if (ntok_ < 3 || !all_digits(tok_[0]) || !all_digits(tok_[1]) || !is_identifier(tok_[2]) || tok_[0].size() > 16 ||
      tok_[1].size() > 16)
    return false;
  flush_partial("the next row");
  Partial& p = partial_;
  p.open = false;
  p.has_redop = false;
  p.redop.clear();
  p.values.n = 0;
  p.values.timestamp = false;
  p.line = p.last_line = n;
  p.bytes = whole_number(tok_[0]);
  p.count = whole_number(tok_[1]);
  p.type = std::string(tok_[2]);
  size_t i = 3;
  if (i < static_cast<size_t>(ntok_) && is_identifier(tok_[i])) {
    p.has_redop = true;
    p.redop = std::string(tok_[i++]);
  }
  std::string_view rest;
  bool glued;
  read_values(s, i, &p.values, &rest, &glued);
  if (!rest.empty() && !glued) {
    reject(n, "not a row: " + quoted(s));
    return true;
  }
  if (!rest.empty()) skip(n, "message inside a row: " + quoted(rest));
  if (p.bytes > kMaxRowBytes) {
    reject(n, concat({"row of size ", num(p.bytes), " B: larger than any nccl-tests run (1 PB)"}));
    return true;
  }
  p.open = true;
  take_row(p, n);
  return true;
}

// The rest of a row whose start came before the noise lines.
bool Reader::continuation_line(std::string_view s, int n) {
  Values more;
  std::string_view rest;
  bool glued;
  const size_t used = read_values(s, 0, &more, &rest, &glued);
  if (used == 0 || more.n == 0 || (!rest.empty() && !glued)) return false;
  if (!partial_.open) {
    reject(n, "values without a row: " + quoted(s));
    return true;
  }
  Partial joined = partial_;
  if (joined.values.n + more.n > kMaxTokens) return false;
  for (int k = 0; k < more.n; ++k) {
    const int j = joined.values.n++;
    joined.values.v[j] = more.v[k];
    joined.values.half[j] = more.half[k];
    joined.values.na[j] = more.na[k];
    joined.values.integral[j] = more.integral[k];
  }
  joined.values.timestamp = more.timestamp;
  Layout shape;
  bool too_many;
  const Layout* known = current_ >= 0 ? &layout_ : header_pending_ ? &header_ : nullptr;
  if (!complete(joined, known, &shape, &too_many) && too_many) {
    flush_partial("a line of values that do not fit it");
    reject(n, "values without a row: " + quoted(s));
    return true;
  }
  if (!rest.empty()) skip(n, "message inside a row: " + quoted(rest));
  partial_ = joined;
  partial_.last_line = n;
  take_row(partial_, n);
  return true;
}

// A row with all its values goes to its table; one that is not yet whole waits.
void Reader::take_row(Partial& p, int n) {
  Layout shape;
  bool too_many;
  const bool in_table = current_ >= 0 && !out_.tables[current_].rows.empty();
  const Layout* known = in_table && layout_from_header_ ? &layout_ : header_pending_ ? &header_ : in_table ? &layout_ : nullptr;
  bool whole = complete(p, known, &shape, &too_many);
  if (!whole && known && !header_pending_ && !layout_from_header_ && in_table) {
    // Another shape of row than the table's (a header-less table of another test): its own.
    whole = complete(p, nullptr, &shape, &too_many);
  }
  if (!whole) {
    if (too_many) {
      p.open = false;
      const Layout* k = known ? known : nullptr;
      reject(p.line,
             concat({"row with ", std::to_string(p.values.n), " values after its type",
                     (k ? concat({"; its table has ", std::to_string(k->values()), (k->redop ? ", after a redop" : "")})
                        : "; nccl-tests prints 8 (no root), 9 (with root) or 17 (with -I 1)")}));
    }
    return;  // waits for the rest
  }
  p.open = false;
  const Values& v = p.values;
  // Root: an integer (-1 for collectives without one).
  const int base = shape.root ? 1 : 0;
  if (shape.root && (!v.integral[0] || v.na[0])) {
    reject(p.line, concat({"row whose root column ", num(v.v[0]), " is not an integer"}));
    return;
  }
  LogGroup g[2];
  for (int k = 0; k < 2; ++k) {
    const int at = base + k * shape.group_fields;
    if (v.na[at] || v.na[at + 1] || v.na[at + 2] || v.v[at] <= 0 || v.v[at + 1] < 0 || v.v[at + 2] < 0) {
      reject(p.line, "row whose time, algbw or busbw is not a positive number");
      return;
    }
    const double t_us = v.v[at] * shape.time_to_us, dt_us = v.half[at] * shape.time_to_us;
    g[k] = {t_us, v.v[at + 1], v.v[at + 2]};
    if (shape.cpu_time) continue;  // -C 1: time is the CPU's, algbw the GPU's
    // algbw = size / time (GB/s from B and us), both as printed: within their rounding.
    const double lo = p.bytes / ((t_us + dt_us) * 1e3);
    const double hi = t_us - dt_us > 0 ? p.bytes / ((t_us - dt_us) * 1e3) : 1e300;
    const double a = v.v[at + 1], da = v.half[at + 1];
    const double slack = 1e-9 * (a + hi);
    if (a + da + slack < lo || a - da - slack > hi) {
      reject(p.line, concat({"row whose algbw ", num(a), " GB/s is not size / time (", num(p.bytes), " B / ", num(t_us),
                             " us = ", num(p.bytes / (t_us * 1e3)), " GB/s): not as nccl-tests prints a row"}));
      return;
    }
  }
  // Its table: the open one, unless the sizes start again or the type, op or root changes
  // (-d all, -o all, -N cycles, a new run without a header).
  LogTable* t = current_ >= 0 ? &out_.tables[current_] : nullptr;
  if (t && !t->rows.empty()) {
    const bool other = p.bytes <= t->rows.back().bytes || p.type != t->type || p.redop != t->redop ||
                       shape.root != t->has_root || (shape.root && static_cast<long long>(v.v[0]) != t->root) ||
                       !shape.same_shape(layout_);
    if (other) t = nullptr;
  }
  if (!t) {
    const bool from_header = header_pending_ || (current_ >= 0 && layout_from_header_);
    const int first = header_pending_ ? header_line_ : p.line;
    layout_ = shape;
    layout_from_header_ = from_header;
    header_pending_ = false;
    t = &new_table(first, shape);
    t->type = p.type;
    t->redop = p.redop;
    t->has_root = shape.root;
    t->root = shape.root ? static_cast<long long>(v.v[0]) : 0;
  }
  LogRow row;
  row.line = p.line;
  row.last_line = n;
  row.bytes = p.bytes;
  row.count = p.count;
  row.out_of_place = g[0];
  row.in_place = g[1];
  t->rows.push_back(row);
  t->last_line = n;
}

void Reader::line(std::string_view raw, int n) {
  const std::string_view s = clean(raw);
  const size_t start = skip_spaces(s, 0);
  if (start == s.size()) return;  // blank
  const bool hashed = s[start] == '#';
  tokenize(hashed ? s.substr(start + 1) : s);
  if (ntok_ == 0) return;  // "#" alone
  if (hashed) {
    if (!known_line(true, n)) skip(n, "comment: " + quoted(s));
    return;
  }
  if (is_digit(tok_[0][0]) && row_line(s, n)) return;
  if ((is_digit(tok_[0][0]) || tok_[0][0] == '-' || tok_[0][0] == '.' || tok_[0] == "N/A") && continuation_line(s, n)) return;
  if (known_line(false, n) || command_line(s, n)) return;
  if (s.find("NCCL INFO") != std::string_view::npos) skip(n, "NCCL INFO message: " + quoted(s));
  else if (s.find("NCCL WARN") != std::string_view::npos) skip(n, "NCCL WARN message: " + quoted(s));
  else if (starts_with(s.substr(start), "libfabric:")) skip(n, "libfabric message: " + quoted(s));
  else skip(n, "not part of a table: " + quoted(s));
}

ParsedLog Reader::run(std::string_view text) {
  int n = 0;
  size_t at = 0;
  while (at < text.size()) {
    const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    line(text.substr(at, end - at), ++n);
    at = end + 1;
  }
  out_.lines = n;
  flush_partial("the end of the text");
  if (!out_.tables.empty()) {
    auto& last = out_.tables.back().skipped;
    for (LogSkip& s : pending_skips_) last.push_back(std::move(s));
  }
  // An incomplete row is reported when the line that ends it comes: back in line order.
  for (LogTable& t : out_.tables)
    std::stable_sort(t.skipped.begin(), t.skipped.end(), [](const LogSkip& a, const LogSkip& b) { return a.line < b.line; });
  return std::move(out_);
}

}  // namespace

bool parse_log_number(std::string_view s, double* value, double* half_unit) {
  size_t i = 0;
  const size_t n = s.size();
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  uint64_t m = 0;
  int kept = 0, dropped = 0, fraction = 0;
  bool any = false;
  auto digit = [&](char c, bool after_point) {
    any = true;
    if (kept < 18) {
      m = m * 10 + static_cast<uint64_t>(c - '0');
      if (m) ++kept;
      if (after_point) ++fraction;
    } else if (!after_point) {
      ++dropped;
    }
  };
  int printed_fraction = 0;
  while (i < n && is_digit(s[i])) digit(s[i++], false);
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && is_digit(s[i])) {
      ++printed_fraction;
      digit(s[i++], true);
    }
  }
  if (!any) return false;
  int exponent = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i == n || !is_digit(s[i])) return false;
    for (int digits = 0; i < n && is_digit(s[i]); ++i, ++digits) {
      if (digits == 3) return false;
      exponent = exponent * 10 + (s[i] - '0');
    }
    if (exp_negative) exponent = -exponent;
  }
  if (i != n) return false;
  const int e10 = exponent - fraction + dropped, half_e10 = exponent - printed_fraction;
  if (e10 < -22 || e10 > 22 || half_e10 < -22 || half_e10 > 22) return false;
  // m < 10^18 < 2^63 and an exact power of ten: one correctly rounded operation, the same
  // natively and in wasm. Past 2^53 the mantissa itself rounds first (no nccl-tests value).
  const double mantissa = static_cast<double>(m);
  double v = e10 >= 0 ? mantissa * kPow10[e10] : mantissa / kPow10[-e10];
  *value = negative ? -v : v;
  *half_unit = 0.5 * pow10_exact(half_e10);
  return std::isfinite(v);
}

long long log_line_count(std::string_view text) {
  long long n = 0;
  for (size_t at = 0; at < text.size(); ++n) {
    const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
    if (!nl) return n + 1;
    at = static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1;
  }
  return n;
}

ParsedLog parse_nccl_log(std::string_view text) {
  Reader r;
  return r.run(text);
}

}  // namespace commlab
