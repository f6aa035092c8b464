// What a table measured when the text does not name it (internal to the layer; fit.cpp asks):
// the collective from the redop and root columns and busbw / algbw, nccl-tests' bus factor
// (doc/PERFORMANCE.md: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and
// all-to-all, 1 for broadcast, reduce and send/recv), and the rank counts that factor allows.
#pragma once
#include <string>
#include <vector>

#include "measured/nccl_log.hpp"

namespace commlab {

/// busbw / algbw over a table's rows, as an interval: each row's printed values within their
/// rounding, intersected. `any` false when no row says anything (bandwidths of 0.1 GB/s and
/// below are too coarse) or the rows disagree.
struct BusRatio {
  double lo = 0, hi = 1e300;
  bool any = false;
};
BusRatio bus_ratio(const LogTable& t, bool in_place);

/// The rank counts n >= 2 whose factor (2(n-1)/n, or (n-1)/n) lies in `r`: [*first, *last],
/// empty (first > last) when none does; *last is up to 1e18 when every larger count does.
void ranks_in(const BusRatio& r, bool all_reduce, long long* first, long long* last);

/// The collectives a table's columns and busbw / algbw allow, each with what showed it.
struct CollectiveFit {
  std::string collective;
  std::string how;  // "busbw / algbw 1.75 = 2(n-1)/n with n = 8, redop sum, root -1"
};
/// `ranks`: the run's rank count where the text gives it (Rank lines), else 0.
std::vector<CollectiveFit> collectives_fitting(const LogTable& t, const BusRatio& r, int ranks);

}  // namespace commlab
