// The table rows: a row's values as nccl-tests prints them (numbers, N/A, a timestamp), rows
// split by noise lines joined again, and each whole row checked and given its table.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "base/concat.hpp"
#include "measured/nccl_log_reader.hpp"

namespace commlab {

namespace {

using log_reader::is_digit;

// Powers of ten that are exact doubles (10^22 is the last), for the exact fast path.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// 10^e for |e| <= 22, the same on every platform (no libm).
double pow10_exact(int e) { return e >= 0 ? kPow10[e] : 1.0 / kPow10[-e]; }

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

namespace log_reader {

namespace {

// NCCL's "host:pid:tid" with a host name of digits: "10:4242:4300" (an address's first number,
// so without a leading zero; three short numbers).
bool host_pid_tid(std::string_view t) {
  if (t.size() > 32 || (t.size() > 1 && t[0] == '0' && t[1] != ':')) return false;
  int colons = 0;
  bool digit_before = false;
  for (char c : t) {
    if (c == ':') {
      if (!digit_before || ++colons > 2) return false;
      digit_before = false;
    } else if (is_digit(c)) {
      digit_before = true;
    } else {
      return false;
    }
  }
  return colons == 2 && digit_before;
}

}  // namespace

// Numbers and N/A from token `from` on; stops at the first token that is neither. A value
// glued to noise ("-1host:12:34 [0] NCCL INFO ...", a message printed inside a row) is kept and
// the rest of the line returned as `rest`, `glued` set; noise after a space is `rest` unglued.
// A launcher's label between a row's pieces ("-1[0]", "-1 0:") is passed over: values after it
// are the row's rest, noise after it is a piece of its own (as if glued).
size_t Reader::read_values(std::string_view s, size_t from, Values* out, std::string_view* rest, bool* glued) {
  *rest = {};
  *glued = false;
  size_t i = from;
  bool after_label = false;
  auto push = [out](double v, double h, bool na) {
    out->v[out->n] = na ? 0 : v;
    out->half[out->n] = na ? 0 : h;
    out->na[out->n] = na;
    out->integral[out->n++] = !na && h == 0.5;  // no fraction, no exponent: a whole number
  };
  for (; i < static_cast<size_t>(ntok_); ++i) {
    std::string_view t = tok_[i];
    double v, h;
    if (out->n == kMaxTokens) break;
    if (t == "N/A") {
      push(0, 0, true);
      after_label = false;
      continue;
    }
    if (parse_log_number(t, &v, &h)) {
      push(v, h, false);
      after_label = false;
      continue;
    }
    if (is_label(t)) {
      after_label = true;
      continue;
    }
    // A date and a time (-T 1): the row's last columns.
    if (i + 1 < static_cast<size_t>(ntok_) && t.size() == 10 && t[4] == '-' && t[7] == '-' && tok_[i + 1].size() == 8 &&
        tok_[i + 1][2] == ':' && tok_[i + 1][5] == ':') {
      out->timestamp = true;
      i += 2;
      break;
    }
    // The longest start of the token that is a value: the rest is glued noise, or a label. The
    // line's own label is cut first: srun's "0:" glued to a root of -1 reads "-10:".
    size_t cut = 0;
    bool na = false;
    if (label_.size() < t.size() && t.substr(t.size() - label_.size()) == label_ && !label_.empty() &&
        parse_log_number(t.substr(0, t.size() - label_.size()), &v, &h))
      cut = t.size() - label_.size();
    else if (starts_with(t, "N/A"))
      cut = 3, na = true;
    else
      for (size_t k = std::min<size_t>(t.size() - 1, 32); k > 0; --k)  // a value is short
        if (parse_log_number(t.substr(0, k), &v, &h)) {
          cut = k;
          break;
        }
    // A number before a colon is no value: NCCL's "host:pid:tid" where the host name is digits
    // (gethostname() up to its first '.', "10" of 10.0.1.5), alone or glued to the integer it
    // interrupts (a root of -1: "-110:4242:4300").
    if (cut > 0 && cut < t.size() && t[cut] == ':' && !is_label(t.substr(cut))) {
      const bool host_alone = host_pid_tid(t);
      cut = 0;
      for (size_t k = t[0] == '-' ? 2 : 1; !host_alone && k < t.size() && is_digit(t[k - 1]); ++k)
        if (host_pid_tid(t.substr(k)) && parse_log_number(t.substr(0, k), &v, &h)) {
          cut = k;
          break;
        }
    }
    if (cut > 0) {
      push(v, h, na);
      if (is_label(t.substr(cut))) {
        after_label = true;
        continue;
      }
      *rest = s.substr(static_cast<size_t>(t.data() - s.data()) + cut);
      *glued = true;
      return i + 1;
    }
    break;
  }
  if (i < static_cast<size_t>(ntok_)) {
    *rest = s.substr(static_cast<size_t>(tok_[i].data() - s.data()));
    *glued = after_label;
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
    // A row of size 0 (the small end of all-to-all, all-gather, reduce-scatter) has no bandwidth:
    // some print it N/A.
    const bool no_bandwidth = p.bytes == 0 && v.na[at + 1] && v.na[at + 2];
    if (v.na[at] || ((v.na[at + 1] || v.na[at + 2]) && !no_bandwidth) || v.v[at] <= 0 || v.v[at + 1] < 0 || v.v[at + 2] < 0) {
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
  // (-d all, -o all, -N cycles, a new run without a header). Sizes of 0 repeat at a table's small
  // end (sizes below one element a rank).
  LogTable* t = current_ >= 0 ? &out_.tables[current_] : nullptr;
  if (t && !t->rows.empty()) {
    const double last = t->rows.back().bytes;
    const bool restart = p.bytes < last || (p.bytes == last && p.bytes > 0);
    const bool other = restart || p.type != t->type || p.redop != t->redop ||
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

}  // namespace log_reader

}  // namespace commlab
