// What a table measured, from what nccl-tests prints in it: which collectives put "none" in the
// redop column (all-gather, all-to-all, broadcast: src/*.cu's RunTest), which have a root (broadcast,
// reduce), and each one's bus factor.
#include "measured/nccl_log_infer.hpp"

#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "measured/fit.hpp"

namespace commlab {

namespace {


// The bus factor as a function of n for the collectives whose factor depends on it.
double factor_of(bool all_reduce, double n) { return all_reduce ? 2.0 * (n - 1) / n : (n - 1) / n; }

}  // namespace

BusRatio bus_ratio(const LogTable& t, bool in_place) {
  BusRatio r;
  for (const LogRow& row : t.rows) {
    const LogGroup& g = in_place ? row.in_place : row.out_of_place;
    // Half a unit of the last printed digit: nccl-tests prints two decimals below 1000 GB/s.
    const double da = g.algbw_GBps < 999.995 ? 0.005 : g.algbw_GBps < 9999.95 ? 0.05 : 0.5;
    const double db = g.busbw_GBps < 999.995 ? 0.005 : g.busbw_GBps < 9999.95 ? 0.05 : 0.5;
    if (g.algbw_GBps - da <= 0.1) continue;  // 0.1 GB/s and below: too coarse to say anything
    r.lo = std::max(r.lo, (g.busbw_GBps - db) / (g.algbw_GBps + da));
    r.hi = std::min(r.hi, (g.busbw_GBps + db) / (g.algbw_GBps - da));
    r.any = true;
  }
  if (r.any && r.lo > r.hi) r.any = false;  // rows that disagree (not one run's factor)
  return r;
}

void ranks_in(const BusRatio& r, bool all_reduce, long long* first, long long* last) {
  *first = 1;
  *last = 0;
  const double top = all_reduce ? 2.0 : 1.0;
  if (!r.any || r.hi <= factor_of(all_reduce, 2) - 1e-12 || r.lo >= top) return;
  // factor(n) = top - top/n is increasing: n = top / (top - factor).
  const double n_lo = r.lo <= 0 ? 2 : top / (top - r.lo), n_hi = r.hi >= top ? 1e18 : top / (top - r.hi);
  long long a = std::max<long long>(2, static_cast<long long>(std::floor(n_lo)) - 1);
  long long b = static_cast<long long>(std::min(std::ceil(n_hi) + 1, 1e18));
  const double eps = 1e-12;
  while (a <= b && factor_of(all_reduce, static_cast<double>(a)) < r.lo - eps) ++a;
  while (b >= a && factor_of(all_reduce, static_cast<double>(b)) > r.hi + eps) --b;
  *first = a;
  *last = b;
}

namespace {

std::vector<CollectiveFit> fitting(const LogTable& t, const BusRatio& r, int ranks) {
  const bool no_op = t.redop == "none", op = !t.redop.empty() && !no_op;
  std::string columns;
  // A redop is any identifier a line had: its first 40 bytes (nccl-tests' are a few letters).
  if (!t.redop.empty()) columns += concat({", redop ", std::string_view(t.redop).substr(0, 40)});
  if (t.has_root) columns += concat({", root ", std::to_string(t.root)});
  const std::string lo = fit_number(r.lo), hi = fit_number(r.hi), ratio = lo == hi ? lo : concat({lo, " to ", hi});
  std::vector<CollectiveFit> out;
  for (const std::string& c : fit_collectives()) {
    // The columns: an operation reduces (all-reduce, reduce-scatter, reduce, send/recv carry
    // one, the others print "none"); a root is -1 but for broadcast and reduce.
    const bool reduces = c == "all_reduce" || c == "reduce_scatter" || c == "reduce" || c == "sendrecv";
    if ((no_op && reduces) || (op && !reduces)) continue;
    if (t.has_root && (t.root >= 0) != (c == "broadcast" || c == "reduce")) continue;
    const bool all_reduce = c == "all_reduce";
    const bool one = c == "broadcast" || c == "reduce" || c == "sendrecv";
    const char* formula = all_reduce ? "2(n-1)/n" : one ? "1" : "(n-1)/n";
    std::string how;
    if (!r.any) {
      how = concat({"busbw and algbw too small to tell the factor", columns});
    } else if (one) {
      if (r.lo > 1 + 1e-9 || r.hi < 1 - 1e-9) continue;
      how = concat({"busbw / algbw 1 = ", formula, columns});
    } else {
      long long first = ranks, last = ranks;
      if (ranks < 2) ranks_in(r, all_reduce, &first, &last);
      const double f = factor_of(all_reduce, static_cast<double>(first));
      if (first > last || (ranks >= 2 && (f < r.lo - 1e-9 || f > r.hi + 1e-9))) continue;
      // One rank count: its factor, which the printed ratio holds; several: the ratio as printed.
      how = first == last ? concat({"busbw / algbw ", fit_number(f), " = ", formula, " with n = ", std::to_string(first), columns})
                          : concat({"busbw / algbw ", ratio, " = ", formula, " with n = ", std::to_string(first),
                                    (last >= 1000000 ? std::string(" or more") : concat({" to ", std::to_string(last)})),
                                    columns});
    }
    out.push_back({c, how});
  }
  return out;
}

}  // namespace

std::vector<CollectiveFit> collectives_fitting(const LogTable& t, const BusRatio& r, int ranks) {
  std::vector<CollectiveFit> out = fitting(t, r, ranks);
  // Rank lines that disagree with the factor (another run's, or a partial list): the ratio alone.
  if (out.empty() && ranks >= 2) out = fitting(t, r, 0);
  return out;
}

}  // namespace commlab
