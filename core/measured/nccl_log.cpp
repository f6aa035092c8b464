// A log read line by line: each line to what reads its format (nccl_log_reader.hpp); the
// tables and every skipped line with its reason kept.
#include "measured/nccl_log.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "base/concat.hpp"
#include "measured/nccl_log_reader.hpp"

namespace commlab {

namespace log_reader {

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
    // Rank numbers are global and from 0: a list pasted from its middle ("#  Rank 71 ...") ran at
    // least the highest one plus one ranks.
    uint32_t highest = 0;
    for (uint32_t id : rank_ids_.ids) highest = std::max(highest, id);
    t.ranks = static_cast<int>(std::max<size_t>(rank_ids_.size(), size_t{highest} + 1));
    t.ranks_from = ranks_from_;
    if (static_cast<size_t>(t.ranks) > rank_ids_.size())
      t.ranks_from.how = concat({"Rank lines (", std::to_string(rank_ids_.size()), " of them, the highest rank ",
                                 std::to_string(highest), ")"});
  }
  ranks_closed_ = true;
  t.format = layout.format;
  t.cpu_time = layout.cpu_time;
  t.header = layout_from_header_;
  t.skipped = std::move(pending_skips_);
  pending_skips_.clear();
  return t;
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

}  // namespace log_reader

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
  log_reader::Reader r;
  return r.run(text);
}

}  // namespace commlab
