#include "parallel/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <tuple>

#include "base/heap_sort.hpp"

namespace commlab {

PipelineResult simulate_pipeline_decode(int p, int m, double s, double t, int tokens, int timeline_tokens) {
  PipelineResult r;
  // (ready time, micro-batch, stage, token): popping the earliest ready job serves each stage's
  // queue in arrival order (FIFO), ties to the lower micro-batch.
  using Job = std::tuple<double, int, int, int>;
  std::priority_queue<Job, std::vector<Job>, std::greater<Job>> ready;
  for (int b = 0; b < m; ++b) ready.emplace(0.0, b, 0, 0);
  std::vector<double> stage_free(p, 0.0);
  double busy = 0;
  double last_done = 0, before_last = 0;  // micro-batch 0's token completions
  while (!ready.empty()) {
    const auto [at, b, stage, token] = ready.top();
    ready.pop();
    const double start = std::max(at, stage_free[stage]);
    const double end = start + s;
    stage_free[stage] = end;
    busy += s;
    const bool record = token < timeline_tokens;
    if (record) r.timeline.push_back({"compute", stage, b, token, start, end});
    if (stage + 1 < p) {
      if (record && t > 0) r.timeline.push_back({"transfer", stage, b, token, end, end + t});
      ready.emplace(end + t, b, stage + 1, token);
    } else {
      r.makespan_s = std::max(r.makespan_s, end);
      if (b == 0) {
        before_last = last_done;
        last_done = end;
        if (record) r.token_ends_s.push_back(end);
      }
      if (token + 1 < tokens) ready.emplace(end, b, 0, token + 1);
    }
  }
  r.token_interval_s = r.makespan_s / tokens;
  r.trip_s = p * s + (p - 1) * t;  // P5 §11 ex. 6: 8 x 1 + 7 x 0.1 = 8.7 ms
  r.steady_interval_s = std::max(r.trip_s, m * s);
  r.steady_utilisation = r.steady_interval_s > 0 ? m * s / r.steady_interval_s : 0;
  r.steady_tokens_per_s = r.steady_interval_s > 0 ? m / r.steady_interval_s : 0;
  r.measured_interval_s = tokens > 1 ? last_done - before_last : 0;
  r.utilisation = r.makespan_s > 0 ? busy / (p * r.makespan_s) : 0;
  // Converted only when it fits an int (the op rejects such inputs first, with a message).
  const double fill = s > 0 ? std::ceil(r.trip_s / s - 1e-12) : 1;
  r.microbatches_to_fill = fill <= 2147483647.0 ? static_cast<int>(fill) : 2147483647;
  r.tokens_per_s = r.makespan_s > 0 ? double(m) * tokens / r.makespan_s : 0;
  // A total order: sorts are not stable and libstdc++ and libc++ order ties differently, so
  // ordering by start time alone made the native and wasm timelines differ.
  heap_sort(r.timeline.begin(), r.timeline.end(), [](const PipelineInterval& a, const PipelineInterval& b) {
    return std::tie(a.start_s, a.end_s, a.kind, a.stage, a.microbatch, a.token) <
           std::tie(b.start_s, b.end_s, b.kind, b.stage, b.microbatch, b.token);
  });
  return r;
}

}  // namespace commlab
