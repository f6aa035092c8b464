// Where one ring line through a table bends, and what NCCL does there: the runs of sizes under
// each (algorithm, protocol) the engine's NCCL model picks (model/nccl.cpp, P5 §5.6), and the sizes
// where the fit's residuals change sign.
#include <cmath>
#include <cstdio>

#include "base/concat.hpp"
#include "measured/fit.hpp"
#include "model/nccl.hpp"

namespace commlab {

namespace {

// A size as the notes write it: decimal SI, three digits.
std::string size_text(double bytes) {
  const char* unit[] = {"B", "KB", "MB", "GB", "TB"};
  int i = 0;
  while (bytes >= 1000 && i < 4) {
    bytes /= 1000;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g %s", bytes, unit[i]);
  return buf;
}

}  // namespace

void find_regimes(TableFit* f) {
  // Bends: runs of residuals off the line by kBendResidual or more, one sign each; rows nearer the
  // line (noise) neither start nor end a run.
  int sign = 0;
  for (const FitRow& r : f->rows) {
    if (*r.not_fitted || std::fabs(r.residual) < kBendResidual) continue;
    const int s = r.residual > 0 ? 1 : -1;
    if (sign != 0 && s != sign) f->bend_bytes.push_back(r.bytes);
    sign = s;
  }
  const LinkComparison& line = f->compared.spec ? f->compared : f->nearest;
  if (f->collective == "all_reduce" && f->ranks >= 2 && line.spec) {
    const Link link = effective_link(*line.spec);
    const NcclTransport transport = transport_of(link);
    // Ring and tree: in-switch reduction shows as a bus bandwidth above the link (exceeds_link).
    // The cheapest pair at each size, as nccl_select picks it (the first of equals), without its
    // list of candidates: a 4 MB log has thousands of rows.
    const auto pairs = nccl_pairs({NcclAlgorithm::ring, NcclAlgorithm::tree});
    std::pair<NcclAlgorithm, NcclProtocol> last{};
    for (const FitRow& r : f->rows) {
      if (*r.not_fitted) continue;
      std::pair<NcclAlgorithm, NcclProtocol> pick = pairs.front();
      double best = 0;
      for (size_t i = 0; i < pairs.size(); ++i) {
        const double t = nccl_allreduce_estimate(pairs[i].first, pairs[i].second, f->ranks, r.bytes, link, transport).time_s;
        if (i == 0 || t < best) best = t, pick = pairs[i];
      }
      if (f->regimes.empty() || pick != last)
        f->regimes.push_back({nccl_algorithm_name(pick.first), protocol_name(pick.second), r.bytes, r.bytes, 0, 0});
      last = pick;
      FitRegime& g = f->regimes.back();
      g.to_bytes = r.bytes;
      g.mean_residual += (r.residual - g.mean_residual) / ++g.rows;
    }
  }
  if (f->bend_bytes.empty()) return;
  std::string at;
  for (size_t i = 0; i < f->bend_bytes.size(); ++i)
    at += concat({(i == 0 ? "" : i + 1 == f->bend_bytes.size() ? " and " : ", "), size_text(f->bend_bytes[i])});
  if (f->regimes.size() < 2) {
    f->notes.push_back(concat({"the residuals change sign at ", at,
                               ": the measured curve bends where one line cannot (a protocol or algorithm switch, P5 §5.6)"}));
    return;
  }
  std::string spans;
  for (size_t i = 0; i < f->regimes.size(); ++i) {
    const FitRegime& g = f->regimes[i];
    spans += concat({(i == 0 ? "" : i + 1 == f->regimes.size() ? " and " : ", "), g.algorithm, "/", g.protocol, " (",
                     size_text(g.from_bytes), (g.rows > 1 ? concat({" to ", size_text(g.to_bytes)}) : std::string()), ")"});
  }
  f->notes.push_back(concat({"one line through NCCL's ", spans, ", as the engine's NCCL model picks them on ", line.spec->label,
                             " (P5 §5.6), bends: its residuals change sign at ", at}));
}

}  // namespace commlab
