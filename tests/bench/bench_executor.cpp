// The step engine's budgets (tests/README.md "Budgets"): accounting mode ring all-reduce on 1,024 and
// 4,096 devices (messages a second; target under 0.1 s for 1,024 natively), and data mode on
// 64 devices beside a plain add loop over the same payload bytes (target: at least half).
// Rates are per CPU second: this machine is shared, and both loops are single-threaded.
// Run: build-steps/tests/bench_executor (add --benchmark_min_time=2 for steadier figures).
#include <benchmark/benchmark.h>

#include <vector>

#include "steps/executor.hpp"
#include "steps/schedule.hpp"
#include "steps/topology.hpp"

using namespace commlab;

namespace {

void BM_RingAccounting(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0));
  ScheduleSpec spec;
  spec.devices = k;
  spec.bytes = 1e9;
  const Topology topo = Topology::switched(k, catalogue_link("nvlink4"));
  int64_t messages = 0;
  for (auto _ : state) {
    ExecOptions opt;
    opt.max_work_units = 1e12;  // the request API's budget refuses 4,096 devices; the benchmark times it
    const ExecResult r = execute(spec, topo, opt);
    messages += r.messages;
    benchmark::DoNotOptimize(r.time_s);
  }
  state.SetItemsProcessed(messages);
  state.counters["messages/s"] = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RingAccounting)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

// Data mode: ring all-reduce on 64 devices; bytes processed = message payload per run.
void BM_RingData(benchmark::State& state) {
  const int k = 64;
  ScheduleSpec spec;
  spec.devices = k;
  spec.bytes = static_cast<double>(state.range(0)) * 1e6;
  const Topology topo = Topology::switched(k, catalogue_link("nvlink4"));
  ExecOptions opt;
  opt.data = true;
  opt.max_data_bytes = 8e9;  // the request API caps at 512 MB; the benchmark goes past it
  opt.max_work_units = 1e12;
  Executor ex(spec, topo, opt);
  ex.prepare();
  double payload = 0;
  for (auto _ : state) {
    ex.run();
    payload += ex.payload_bytes();
  }
  state.SetBytesProcessed(static_cast<int64_t>(payload));
  state.counters["peak_buffer_MB"] = ex.result().peak_buffer_bytes / 1e6;
}
BENCHMARK(BM_RingData)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

// The reference: dst[i] += src[i] over the same payload bytes, on buffers of one device's
// size (64 x the message size), so the data streams from memory like the engine's.
void BM_AddLoop(benchmark::State& state) {
  const int k = 64;
  const int64_t n = state.range(0) * 1000000 / 8;
  const int64_t block = n / k;
  const double payload_per_run = 2.0 * (k - 1) * k * block * 8;  // as the ring moves
  std::vector<std::vector<double>> bufs(k, std::vector<double>(n, 1.0));
  double payload = 0;
  for (auto _ : state) {
    // Same access pattern size as a ring step: k pairs of blocks, 2(k-1) times.
    for (int s = 0; s < 2 * (k - 1); ++s)
      for (int i = 0; i < k; ++i) {
        const double* __restrict src = bufs[i].data() + ((i + s) % k) * block;
        double* __restrict dst = bufs[(i + 1) % k].data() + ((i + s) % k) * block;
        for (int64_t j = 0; j < block; ++j) dst[j] += src[j];
      }
    benchmark::ClobberMemory();
    payload += payload_per_run;
  }
  state.SetBytesProcessed(static_cast<int64_t>(payload));
}
BENCHMARK(BM_AddLoop)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
