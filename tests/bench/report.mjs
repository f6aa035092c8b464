#!/usr/bin/env node
// `./lab bench` in one report: native vs wasm per request, the 1,024-device ring cold vs warm in
// a fresh module, the engine's and the page's sizes (raw, gzip -9, brotli q11), and the page's
// cold load in headless Chromium (tests/bench/page_load.mjs). Needs build/, build-wasm/, dist/.
// Usage: node tests/bench/report.mjs [--runs N] [--json]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENCODINGS } from '../../web/tools/compress.mjs';
import { DIST } from '../browser/helpers.mjs';
import { CALCULATOR_CASES } from '../node/bench_cases.mjs';
import { chromiumTimes } from './chromium_requests.mjs';
import { bindingCost } from './binding.mjs';
import { formatPageLoad, median, pageLoad } from './page_load.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RING_1024 =
  '{"op":"simulate","collective":"allreduce","algorithm":"ring","devices":1024,"bytes":1e9,"mode":"accounting","trace_limit":0}';

// tests/node/bench_wasm.mjs's cases and the Google Benchmark that runs the same request
// (tests/bench/bench_evaluate.cpp). A result's own `native_name`, when it has one, wins.
const REQUESTS = [
  { wasm: 'transfer', native: 'BM_EvaluateTransfer', label: 'transfer' },
  { wasm: 'allreduce_ring', native: 'BM_EvaluateAllreduceRing', label: 'allreduce ring, 16 devices' },
  { wasm: 'allreduce_auto', native: 'BM_EvaluateAllreduceAuto', label: 'allreduce auto, 64 devices' },
  { wasm: 'hierarchical', native: 'BM_EvaluateHierarchical', label: 'allreduce hierarchical' },
  { wasm: 'bad_request', native: 'BM_EvaluateBadRequest', label: 'a bad request' },
  { wasm: 'simulate_ring_1024_accounting', native: 'BM_SimulateRing1024Accounting', label: 'simulate ring 1,024, accounting' },
  { wasm: 'simulate_ring_64x2MB_data', native: 'BM_SimulateRing64x2MBData', label: 'simulate ring 64 x 2 MB, data' },
  { wasm: 'exercise3_solve', native: 'BM_ExerciseSolve3', label: 'exercise.solve, exercise 3' },
  { wasm: 'exercise6_solve', native: 'BM_ExerciseSolve6', label: 'exercise.solve, exercise 6' },
  { wasm: 'ring_attention_check', native: 'BM_RingAttentionCheck', label: 'ring_attention_check, 352 tokens' },
  { wasm: 'sharding_check', native: 'BM_ShardingCheck', label: 'sharding_check, 64 tokens' },
  { wasm: 'fit_log_4MB', native: 'BM_FitLog4MB', label: 'fit, a 4 MB nccl-tests log' },
  { wasm: 'topology_1024', native: 'BM_Topology1024Ranks/16', label: 'nccl.topology, 1,024 ranks, 16 channels' },
];

const US_PER = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6 };

/** {benchmark name: us a request} from Google Benchmark's JSON, and the machine's load then. */
function nativeTimes() {
  const out = execFileSync(join(ROOT, 'build/tests/bench_evaluate'), ['--benchmark_format=json'],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = JSON.parse(out);
  const us = {};
  for (const b of report.benchmarks) {
    if (b.run_type === 'aggregate') continue;
    us[b.name] = b.real_time * US_PER[b.time_unit];
  }
  return { us, load_average: report.context.load_avg?.[0] ?? null };
}

/** {case: {us, native_name}} from tests/node/bench_wasm.mjs --json (results as a map or a list). */
function wasmTimes() {
  const out = execFileSync(process.execPath, [join(ROOT, 'tests/node/bench_wasm.mjs'), '--json'],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = JSON.parse(out.slice(out.indexOf('{')));
  const entries = Array.isArray(report.results)
    ? report.results.map((r) => [r.name, r])
    : Object.entries(report.results);
  const results = {};
  for (const [name, r] of entries) results[name] = { us: r.us_per_request ?? r.ms_per_request * 1e3, native_name: r.native_name };
  return { results, load_ms: report.load_ms };
}

/**
 * Pairs each wasm case with its native benchmark: the table's rows, ratio wasm / native, under
 * Node (`wasm`) and, for the cases it ran, in Chromium (`chromium`, {case: {us}}).
 */
export function pairRows(native, wasm, chromium = {}) {
  const rows = REQUESTS.map(({ wasm: name, native: nativeName, label }) => ({
    label, wasm_case: name, native_name: wasm[name]?.native_name ?? nativeName,
  }));
  for (const [name, r] of Object.entries(wasm)) {
    if (!rows.some((row) => row.wasm_case === name)) rows.push({ label: name, wasm_case: name, native_name: r.native_name });
  }
  for (const row of rows) {
    row.native_us = native[row.native_name] ?? null;
    row.wasm_us = wasm[row.wasm_case]?.us ?? null;
    row.ratio = row.native_us && row.wasm_us ? row.wasm_us / row.native_us : null;
    row.chromium_us = chromium[row.wasm_case]?.us ?? null;
    row.chromium_ratio = row.native_us && row.chromium_us ? row.chromium_us / row.native_us : null;
  }
  return rows;
}

// In a fresh Node process: load the shipped module, time the ring's first call, then warm ones.
// With --warmed, first as the page's worker does while idle (engine/warmup.js, then a pause in
// which V8 tiers up in the background).
async function coldRingChild(warmed) {
  const t0 = performance.now();
  const { loadCommlab } = await import(pathToFileURL(join(DIST, 'engine/commlab.js')).href);
  const lab = await loadCommlab();
  const load_ms = performance.now() - t0;
  const time = () => {
    const start = performance.now();
    const reply = JSON.parse(lab.evaluateText(RING_1024));
    if (reply.error) throw new Error(reply.error.message);
    return performance.now() - start;
  };
  if (warmed) {
    const { WARMUP_REQUESTS } = await import(pathToFileURL(join(ROOT, 'web/engine/warmup.js')).href);
    for (const r of WARMUP_REQUESTS) lab.evaluateText(r);
    await new Promise((r) => setTimeout(r, 300));
  }
  const first_ms = time();
  const warm_ms = median(Array.from({ length: 5 }, time));
  console.log(JSON.stringify({ load_ms, first_ms, warm_ms }));
}

function coldRing(processes = 3, warmed = false) {
  const runs = Array.from({ length: processes }, () => JSON.parse(execFileSync(process.execPath,
    [fileURLToPath(import.meta.url), '--cold-ring', ...(warmed ? ['--warmed'] : [])], { encoding: 'utf8' })));
  const med = (key) => median(runs.map((r) => r[key]));
  return { processes, load_ms: med('load_ms'), first_ms: med('first_ms'), warm_ms: med('warm_ms'),
    ratio: med('first_ms') / med('warm_ms') };
}

async function sizesOf(path) {
  const raw = readFileSync(path);
  return { raw: raw.length, gzip: (await ENCODINGS.gzip.compress(raw)).length, br: (await ENCODINGS.br.compress(raw)).length };
}

/** Sizes of the engine's three files and of every file the page requested (its first cold load). */
async function sizes(pageFiles) {
  const rows = await Promise.all(['engine/commlab_lean.wasm', 'engine/commlab_wasm.wasm', 'engine/commlab_wasm.mjs', 'engine/commlab.js']
    .map(async (file) => ({ label: file, ...(await sizesOf(join(DIST, file))) })));
  const paths = [...new Set(pageFiles.filter((f) => f.status === 200).map((f) => {
    const path = decodeURIComponent(new URL(f.url).pathname).slice(1);
    return path === '' || path.endsWith('/') ? `${path}index.html` : path;
  }))];
  const page = { label: `the page (${paths.length} files it requested)`, raw: 0, gzip: 0, br: 0 };
  for (const path of paths) {
    const s = await sizesOf(join(DIST, path));
    for (const key of ['raw', 'gzip', 'br']) page[key] += s[key];
  }
  return [...rows, page];
}

// Every calculator request (exercise.solve of every exercise included) at most 1 ms in
// Chromium's wasm; the lean .wasm at most 185 KB gzipped, its glue reported beside it; the
// embind binding's cost per request against the C binding it replaced, reported (the ratio to
// native is printed in the table, not budgeted): tests/README.md "Budgets".
const REQUEST_BUDGET_US = 1000;
const WASM_GZIP_BUDGET_BYTES = 185e3;
function budgets(report) {
  const calculator = report.requests.filter((row) => row.wasm_case in CALCULATOR_CASES);
  const over = calculator.filter((row) => row.chromium_us == null || row.chromium_us > REQUEST_BUDGET_US);
  const slowest = calculator.reduce((a, row) => (row.chromium_us > (a?.chromium_us ?? -1) ? row : a), null);
  // The exercise page's module is the lean one; a section view's is the full one (engine/worker.js).
  const wasm = report.sizes.find((s) => s.label === 'engine/commlab_lean.wasm');
  const full = report.sizes.find((s) => s.label === 'engine/commlab_wasm.wasm');
  const glue = report.sizes.find((s) => s.label === 'engine/commlab_wasm.mjs');
  const binding = report.binding;
  return [
    { what: `every calculator request at most ${fmtTime(REQUEST_BUDGET_US)} in Chromium's wasm (exercise.solve of 1-8 included)`,
      met: calculator.length > 0 && over.length === 0,
      measured: over.length ? `over: ${over.map((row) => `${row.label} ${fmtTime(row.chromium_us)}`).join(', ')}`
        : `${calculator.length} requests, the slowest ${slowest.label} ${fmtTime(slowest.chromium_us)}` },
    { what: `the exercise page's .wasm at most ${kb(WASM_GZIP_BUDGET_BYTES)} gzipped`, met: wasm.gzip <= WASM_GZIP_BUDGET_BYTES,
      measured: `${kb(wasm.gzip)} (commlab_lean.wasm; its JS glue ${glue ? kb(glue.gzip) : '-'}; the full module a section view loads: ${kb(full.gzip)})` },
    { what: 'the embind binding\'s cost per request, against the C binding it replaced (reported)', met: binding != null,
      measured: binding ? binding.map((r) => `${r.label} ${r.overhead_us >= 0 ? '+' : ''}${r.overhead_us.toFixed(2)} us`).join(', ')
        : 'not measured (cmake --build build-wasm --target commlab_cbind)' },
    topologyBudget(report),
    ...pageBudgets(report.page_load.summary),
  ];
}

// nccl.topology on a 1,024-rank log within 1 s natively and 2 s in wasm (Node): core/README.md.
function topologyBudget(report) {
  const row = report.requests.find((r) => r.wasm_case === 'topology_1024');
  const ok = row?.native_us != null && row.native_us <= 1e6 && row?.wasm_us != null && row.wasm_us <= 2e6;
  return { what: 'nccl.topology on a 1,024-rank log at most 1 s natively and 2 s in wasm', met: !!ok,
    measured: row ? `native ${row.native_us != null ? fmtTime(row.native_us) : '-'}, wasm ${row.wasm_us != null ? fmtTime(row.wasm_us) : '-'}` : 'not measured (the native nccl_synth is needed)' };
}

// The page's load (web/README.md "How the page starts"), medians of the cold runs.
const PAGE_BUDGETS = [
  ['fcp_ms', 'cold: statements readable (first contentful paint)', 150, 'ms'],
  ['ready_ms', 'cold: usable (html[data-ready])', 400, 'ms'],
  ['requests_before_ready', 'cold: requests before usable', 12, ''],
  ['repeat_ready_ms', 'repeat visit (service worker): usable', 150, 'ms'],
];
function pageBudgets(summary) {
  return PAGE_BUDGETS.map(([key, what, limit, unit]) => {
    const m = summary[key]?.median;
    return { what: `${what} at most ${limit}${unit ? ` ${unit}` : ''}`, met: m != null && m <= limit,
      measured: m == null ? 'not measured' : `${m.toFixed(0)}${unit ? ` ${unit}` : ''} (median)` };
  });
}

// Each run's report, naming its commit and machine: the next run prints its page figures beside.
const REPORT_FILE = fileURLToPath(new URL('../../build-wasm/bench-report.json', import.meta.url));
function readPrevious() {
  try {
    return JSON.parse(readFileSync(REPORT_FILE, 'utf8'));
  } catch {
    return null;
  }
}
function commitOf() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
}

function pageAgainst(report, previous) {
  const now = report.page_load.summary;
  const before = previous?.page_load?.summary ?? {};
  const ms = (s) => (s?.median == null ? '-' : `${s.median.toFixed(0)} ms`);
  const n = (s) => (s?.median == null ? '-' : String(s.median));
  const bytes = (s) => (s?.median == null ? '-' : kb(s.median));
  const rows = [
    ['cold: readable (first contentful paint)', ms(now.fcp_ms), ms(before.fcp_ms)],
    ['cold: usable', ms(now.ready_ms), ms(before.ready_ms)],
    ['cold: requests before usable', n(now.requests_before_ready), n(before.requests_before_ready)],
    ['cold: bytes transferred', bytes(now.transfer_bytes), bytes(before.transfer_bytes)],
    ['repeat visit: usable', ms(now.repeat_ready_ms), ms(before.repeat_ready_ms)],
  ];
  const title = previous ? `The page against the previous run (${previous.commit ?? '?'}, ${previous.date ?? '?'}, ${previous.machine ?? '?'})`
    : 'The page (no previous run in build-wasm/bench-report.json)';
  return [title, table(['medians', `now (${report.commit})`, 'previous'], rows)].join('\n');
}

const fmtTime = (us) => (us == null ? '-' : us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(1)} us`);
const ratio = (x) => (x == null ? '-' : `${x.toFixed(2)}x`);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const la = (x) => (x == null ? '-' : x.toFixed(2));

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main() {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const report = { date: new Date().toISOString(), load_average_start: loadavg()[0] };
  const native = nativeTimes();
  const wasm = wasmTimes();
  const chromium = await chromiumTimes();
  report.requests = pairRows(native.us, wasm.results, chromium.results);
  report.native_load_average = native.load_average;
  report.cold_ring = coldRing();
  report.warmed_ring = coldRing(3, true);
  report.binding = await bindingCost();
  report.page_load = await pageLoad({ runs: Number(arg('--runs', 7)) });
  report.sizes = await sizes(report.page_load.runs[0].files);
  report.load_average_end = loadavg()[0];
  report.budgets = budgets(report);
  // The previous run's report beside this one (the page's figures side by side), then this one kept.
  const previous = readPrevious();
  report.commit = commitOf();
  report.machine = `${hostname()}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`;
  mkdirSync(dirname(REPORT_FILE), { recursive: true });
  writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 1)}\n`);

  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const r = report.cold_ring;
  const w = report.warmed_ring;
  console.log([
    `commlab bench, ${report.date}, Node ${process.versions.node}, ${report.page_load.browser_version}; ` +
      `load average ${la(report.load_average_start)} at the start, ${la(native.load_average)} during the native run`,
    '',
    `Per request: native (Google Benchmark, real time) vs wasm in Node and in ${chromium.browser_version} ` +
      '(the calculator requests; tests/bench/chromium_requests.mjs)',
    table(['request', 'native', 'wasm Node', 'Node/native', 'wasm Chromium', 'Chromium/native'], report.requests.map((row) =>
      [row.label, fmtTime(row.native_us), fmtTime(row.wasm_us), ratio(row.ratio), fmtTime(row.chromium_us),
        ratio(row.chromium_ratio)])),
    '',
    `simulate ring 1,024 in a fresh wasm module (median of ${r.processes} processes): first call ` +
      `${r.first_ms.toFixed(1)} ms, warm ${r.warm_ms.toFixed(1)} ms, first/warm ${r.ratio.toFixed(2)}x; ` +
      `module load ${r.load_ms.toFixed(1)} ms`,
    `  after the worker's idle warm-up (engine/warmup.js) and 300 ms: first call ${w.first_ms.toFixed(1)} ms, ` +
      `warm ${w.warm_ms.toFixed(1)} ms, first/warm ${w.ratio.toFixed(2)}x`,
    '',
    'Sizes (dist/)',
    table(['file', 'raw', 'gzip -9', 'brotli q11'], report.sizes.map((s) => [s.label, kb(s.raw), kb(s.gzip), kb(s.br)])),
    '',
    formatPageLoad(report.page_load),
    '',
    pageAgainst(report, previous),
    '',
    'Budgets (tests/README.md "Budgets")',
    ...report.budgets.map((b) => `  ${b.met ? 'met    ' : 'NOT MET'} ${b.what}: ${b.measured}`),
    '',
    `load average at the end ${la(report.load_average_end)}`,
  ].join('\n'));
}

if (process.argv.includes('--cold-ring')) await coldRingChild(process.argv.includes('--warmed'));
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
