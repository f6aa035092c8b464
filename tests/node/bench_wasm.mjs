// Benchmark of the wasm module under Node: the same requests as tests/bench/bench_evaluate.cpp,
// requests per second and microseconds a request, plus the module size gzipped.
// Usage: node tests/node/bench_wasm.mjs [--json]
// With --json each result carries `native_name`, the Google Benchmark case of the same request
// (the `name` in `build/tests/bench_evaluate --benchmark_format=json`), and `request`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { CALCULATOR_CASES, timeRequest } from './bench_cases.mjs';
import { loadLab } from './exercises.mjs';
import { NCCL_SYNTH } from './native.mjs';

const root = new URL('../../', import.meta.url).pathname;
const cases = CALCULATOR_CASES;

// Case name here -> BM_ name in tests/bench/bench_evaluate.cpp (the same request text).
const nativeNames = {
  transfer: 'BM_EvaluateTransfer',
  allreduce_ring: 'BM_EvaluateAllreduceRing',
  allreduce_auto: 'BM_EvaluateAllreduceAuto',
  hierarchical: 'BM_EvaluateHierarchical',
  bad_request: 'BM_EvaluateBadRequest',
  exercise3_solve: 'BM_ExerciseSolve3',
  exercise6_solve: 'BM_ExerciseSolve6',
  simulate_ring_1024_accounting: 'BM_SimulateRing1024Accounting',
  simulate_ring_64x2MB_data: 'BM_SimulateRing64x2MBData',
  ring_attention_check: 'BM_RingAttentionCheck',
  sharding_check: 'BM_ShardingCheck',
  fit_log_4MB: 'BM_FitLog4MB',
  topology_1024: 'BM_Topology1024Ranks/16',
};

// The step engine: the same requests as BM_Simulate* in tests/bench/bench_evaluate.cpp.
const heavy = {
  simulate_ring_1024_accounting:
    '{"op":"simulate","collective":"allreduce","algorithm":"ring","devices":1024,"bytes":1e9,"mode":"accounting","trace_limit":0}',
  simulate_ring_64x2MB_data:
    '{"op":"simulate","collective":"allreduce","algorithm":"ring","devices":64,"bytes":2e6,"mode":"data","trace_limit":0}',
  // The two checks on random matrices near their limits (the same as BM_RingAttentionCheck and
  // BM_ShardingCheck).
  ring_attention_check: '{"op":"ring_attention_check","devices":16,"tokens_per_device":22,"head_dim":128}',
  sharding_check: '{"op":"sharding_check","tokens":64,"hidden":128,"ffn":448,"q_heads":16,"head_dim":32}',
};
// `fit` on the 4 MB nccl-tests log that BM_FitLog4MB reads (3,000 noise lines among the rows),
// written by the native helper (tests/nccl_synth.cpp) when it is built.
const synth = NCCL_SYNTH;
if (existsSync(synth)) {
  const log = execFileSync(synth, ['bench'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  heavy.fit_log_4MB = JSON.stringify({ op: 'fit', log });
  // nccl.topology on BM_Topology1024Ranks/16's log: 1,024 ranks on 128 nodes, 16 channels.
  const topo = execFileSync(synth, ['topology', '--ranks', '1024', '--nodes', '128', '--channels', '16', '--busbw', '300'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  heavy.topology_1024 = JSON.stringify({ op: 'nccl.topology', log: topo });
}

const t0 = performance.now();
const lab = await loadLab();
const loadMs = performance.now() - t0;

const results = {};
for (const [name, req] of Object.entries(cases)) {
  // CPU time as well as wall time, as Google Benchmark reports both (its "CPU" column and
  // cpu_time): on a shared, loaded machine wall time measures the other jobs too.
  const { us_per_request: usPerRequest, cpu_us_per_request: cpuUsPerRequest } = timeRequest(lab, req, process.cpuUsage);
  results[name] = {
    native_name: nativeNames[name], request: req, us_per_request: usPerRequest,
    cpu_us_per_request: cpuUsPerRequest, requests_per_s: 1e6 / usPerRequest,
  };
}

for (const [name, req] of Object.entries(heavy)) {
  const check = JSON.parse(lab.evaluateText(req));
  if (check.error) throw new Error(`${name}: ${check.error.message}`);
  lab.evaluateText(req);  // warm up
  const runs = 5;
  const start = performance.now();
  // CPU time too (the machine is shared), as Google Benchmark's cpu_time.
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < runs; i++) lab.evaluateText(req);
  const cpu = process.cpuUsage(cpuStart);
  const ms = (performance.now() - start) / runs;
  results[name] = {
    native_name: nativeNames[name], request: req.length > 2000 ? `${req.slice(0, 60)}... (${req.length} bytes)` : req,
    ms_per_request: ms, us_per_request: ms * 1000, requests_per_s: 1000 / ms, cpu_ms_per_request: (cpu.user + cpu.system) / 1000 / runs,
  };
  if (name.includes('data')) results[name].moved_GBps = (64 * 2 * (63 / 64) * 2e6) / (ms / 1000) / 1e9;
}

const gz = (name) => gzipSync(readFileSync(`${root}build-wasm/wasm/${name}`), { level: 9 }).length;
const size = {
  wasm_bytes: readFileSync(`${root}build-wasm/wasm/commlab_wasm.wasm`).length,
  wasm_gzip_bytes: gz('commlab_wasm.wasm'),
  glue_gzip_bytes: gz('commlab_wasm.mjs'),
  wrapper_gzip_bytes: gz('commlab.js'),
};
size.total_gzip_bytes = size.wasm_gzip_bytes + size.glue_gzip_bytes + size.wrapper_gzip_bytes;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ load_ms: loadMs, results, size }, null, 2));
} else {
  console.log(`wasm module load: ${loadMs.toFixed(1)} ms`);
  for (const [name, r] of Object.entries(results)) {
    const extra = r.moved_GBps ? `  ${r.moved_GBps.toFixed(2)} GB/s moved` : '';
    const cpu = r.cpu_us_per_request ? ` (CPU ${r.cpu_us_per_request.toFixed(2)} us)`
      : r.cpu_ms_per_request ? ` (CPU ${(r.cpu_ms_per_request * 1000).toFixed(0)} us)` : '';
    console.log(`${name.padEnd(30)} ${r.us_per_request.toFixed(2).padStart(10)} us/request${cpu}  ${Math.round(r.requests_per_s).toLocaleString('en').padStart(10)} requests/s${extra}`);
  }
  const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
  console.log(`size gzipped: .wasm ${kb(size.wasm_gzip_bytes)} (raw ${kb(size.wasm_bytes)}), glue ${kb(size.glue_gzip_bytes)}, commlab.js ${kb(size.wrapper_gzip_bytes)}; total ${kb(size.total_gzip_bytes)}`);
}
