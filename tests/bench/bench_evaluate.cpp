// Google Benchmark of the request API: a typical calculator request, as text in and out
// (what the wasm binding does), and the cost functions alone.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "api/api.hpp"
#include "exercise_folder.hpp"
#include "measured/fit.hpp"
#include "model/collectives.hpp"
#include "../nccl_synth.hpp"
#include "../nccl_synth_topology.hpp"

namespace {

const std::string kTransfer = R"({"op":"transfer","link":"nvlink4","bytes":65536})";
const std::string kAllreduce = R"({"op":"allreduce","algorithm":"ring","devices":16,"bytes":262144,"link":"ib_ndr"})";
const std::string kAuto = R"({"op":"allreduce","algorithm":"auto","devices":64,"bytes":1000000,"link":"ib_ndr"})";
const std::string kHier =
    R"({"op":"allreduce","algorithm":"hierarchical","nodes":4,"gpus_per_node":8,"bytes":1e9,"intra_link":"nvlink4","inter_link":"ib_ndr"})";

void run(benchmark::State& state, const std::string& request) {
  size_t out_bytes = 0;
  for (auto _ : state) {
    const std::string out = commlab::evaluate(request);
    out_bytes += out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["out_bytes"] = static_cast<double>(out_bytes) / state.iterations();
}

void BM_EvaluateTransfer(benchmark::State& s) { run(s, kTransfer); }
void BM_EvaluateAllreduceRing(benchmark::State& s) { run(s, kAllreduce); }
void BM_EvaluateAllreduceAuto(benchmark::State& s) { run(s, kAuto); }
void BM_EvaluateHierarchical(benchmark::State& s) { run(s, kHier); }
void BM_EvaluateBadRequest(benchmark::State& s) { run(s, R"({"op":"transfer","link":"warp","bytes":-1})"); }

// The step engine through the API, the same requests as tests/node/bench_wasm.mjs runs in wasm.
const std::string kSimRing1024 =
    R"({"op":"simulate","collective":"allreduce","algorithm":"ring","devices":1024,"bytes":1e9,"mode":"accounting","trace_limit":0})";
const std::string kSimData64 =
    R"({"op":"simulate","collective":"allreduce","algorithm":"ring","devices":64,"bytes":2e6,"mode":"data","trace_limit":0})";
void BM_SimulateRing1024Accounting(benchmark::State& s) { run(s, kSimRing1024); }
void BM_SimulateRing64x2MBData(benchmark::State& s) {
  run(s, kSimData64);
  // Bytes moved: every device sends and receives 2(k-1)/k D.
  s.SetBytesProcessed(s.iterations() * static_cast<int64_t>(64 * 2 * 63.0 / 64 * 2e6));
}

// The request behind every calculator move of an exercise card: its compute section run, the
// answers judged and the texts filled (the same as exercise3_solve, exercise6_solve in wasm).
void BM_ExerciseSolve3(benchmark::State& s) { run(s, R"({"op":"exercise.solve","id":3})"); }
void BM_ExerciseSolve6(benchmark::State& s) { run(s, R"({"op":"exercise.solve","id":6})"); }

// The two checks on random matrices at sizes near their limits (core/README.md "Limits"): the same
// requests as ring_attention_check and sharding_check in tests/node/bench_wasm.mjs.
void BM_RingAttentionCheck(benchmark::State& s) {
  run(s, R"({"op":"ring_attention_check","devices":16,"tokens_per_device":22,"head_dim":128})");
}
void BM_ShardingCheck(benchmark::State& s) {
  run(s, R"({"op":"sharding_check","tokens":64,"hidden":128,"ffn":448,"q_heads":16,"head_dim":32})");
}

void BM_AllreduceCostOnly(benchmark::State& state) {
  const commlab::Link ib = commlab::catalogue_link("ib_ndr");
  double bytes = 1e3;
  for (auto _ : state) {
    bytes = bytes < 1e12 ? bytes * 1.01 : 1e3;
    benchmark::DoNotOptimize(commlab::allreduce_auto(64, bytes, ib, true));
  }
  state.SetItemsProcessed(state.iterations());
}

// `fit` on the benchmark's nccl-tests log (tests/nccl_synth.hpp synth_bench_log: all-reduce rows a
// MiB apart and 3,000 noise lines, just over 4 MB): the whole request, text in and text out, as
// tests/node/bench_wasm.mjs runs it; then the reader alone, and the reader with the fit.
const commlab_test::SynthLog& fit_log() {
  static const commlab_test::SynthLog log = commlab_test::synth_bench_log();
  return log;
}
void BM_FitLog4MB(benchmark::State& s) {
  static const std::string request = nlohmann::json{{"op", "fit"}, {"log", fit_log().text}}.dump();
  run(s, request);
  s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * fit_log().text.size()));
}
void BM_FitLog4MBParse(benchmark::State& s) {
  for (auto _ : s) benchmark::DoNotOptimize(commlab::parse_nccl_log(fit_log().text).tables.size());
  s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * fit_log().text.size()));
}
void BM_FitLog4MBFit(benchmark::State& s) {
  for (auto _ : s) benchmark::DoNotOptimize(commlab::fit_nccl_log(fit_log().text, commlab::FitRequest()).tables.size());
  s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * fit_log().text.size()));
}

// `nccl.topology` on a 1,024-rank job's NCCL_DEBUG=INFO output (tests/nccl_synth_topology.hpp):
// 128 nodes of 8 GPUs, 16 or 32 channels, every rank's lines (comm, Trees, Ring and connection
// lines; 4.2 MB and 7.4 MB) and an nccl-tests table: the whole request, text in and text out.
const std::string& topology_request(int channels) {
  static std::string requests[2];
  std::string& r = requests[channels == 32];
  if (r.empty()) {
    commlab_test::TopoSynthRun run;
    run.comms[0].ranks = 1024;
    run.comms[0].nodes = 128;
    run.comms[0].channels = channels;
    run.table_busbw_Bps = 300e9;
    r = nlohmann::json{{"op", "nccl.topology"}, {"log", commlab_test::topo_synth_log(run)}}.dump();
  }
  return r;
}
void BM_Topology1024Ranks(benchmark::State& s) {
  const std::string& request = topology_request(static_cast<int>(s.range(0)));
  run(s, request);
  s.SetBytesProcessed(static_cast<int64_t>(s.iterations() * request.size()));
}

}  // namespace

BENCHMARK(BM_EvaluateTransfer);
BENCHMARK(BM_EvaluateAllreduceRing);
BENCHMARK(BM_EvaluateAllreduceAuto);
BENCHMARK(BM_EvaluateHierarchical);
BENCHMARK(BM_EvaluateBadRequest);
BENCHMARK(BM_AllreduceCostOnly);
BENCHMARK(BM_SimulateRing1024Accounting)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulateRing64x2MBData)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExerciseSolve3);
BENCHMARK(BM_ExerciseSolve6);
BENCHMARK(BM_RingAttentionCheck)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ShardingCheck)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitLog4MB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitLog4MBParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitLog4MBFit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Topology1024Ranks)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);

// The exercises are installed from the source tree first, as the CLI and the tests do.
int main(int argc, char** argv) {
  const nlohmann::json installed = commlab::install_exercise_folder(COMMLAB_SOURCE_DIR "/exercises");
  if (installed.contains("error") || !installed.at("problems").empty()) {
    std::fprintf(stderr, "the exercises do not install: %s\n", installed.dump().c_str());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
