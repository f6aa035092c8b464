// RDMA and GPUDirect (?view=rdma, P5 §2.4) held against the engine's gpudirect answer: each path's
// time, host copies and memory, what paces it, every stage's link and interval, the bars where the
// intervals put them on the one time axis, NCCL's path marked, and the three sentences picked by
// the engine's cases (pipelined_case, nccl_path), each agreeing with the engine's numbers.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick } from './walk.mjs';

const LIMITS = { mb: [1e-6, 1e9], chunks: [1, 1048576] };

/** The engine's request of the view at `s`: the size typed in MB, as the view reads it. */
export const request = (s) => ({
  op: 'gpudirect', bytes: Number(String(s.mb)) * 1e6, chunks: Number(s.chunks), link: s.link, host_link: s.host_link, same_pcie_switch: Boolean(s.same_pcie_switch),
});

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="rdma"][data-mb="${s.mb}"][data-chunks="${s.chunks}"][data-link="${s.link}"][data-host-link="${s.host_link}"]`
  + `[data-same-pcie-switch="${Boolean(s.same_pcie_switch)}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 20000 });

/** A size in MB on a log scale over the whole range, three significant digits, the ends now and then. */
function sizeMb(rng) {
  const [lo, hi] = LIMITS.mb;
  const r = rng();
  if (r < 0.05) return lo;
  if (r > 0.95) return hi;
  return Math.min(hi, Math.max(lo, Number(Math.exp(Math.log(lo) + rng() * (Math.log(hi) - Math.log(lo))).toPrecision(3))));
}

/**
 * The chunk counts where the pipeline's case flips from overlapping to worse than not chunking
 * ([last overlaps, first worse]), or null: the pipeline's time is convex in the chunks.
 */
function flipChunks(s) {
  const worse = (chunks) => engine({ ...request(s), chunks }).pipelined_case === 'worse';
  if (worse(2)) return [1, 2];
  let [lo, hi] = [2, LIMITS.chunks[1]];
  if (!worse(hi)) return null;
  while (hi - lo > 1) {
    const mid = Math.floor(Math.sqrt(lo * hi)) > lo ? Math.floor(Math.sqrt(lo * hi)) : lo + 1;
    if (worse(mid)) hi = mid; else lo = mid;
  }
  return [lo, hi];
}

/**
 * Settings drawn from the view's domain: 1 byte to 1 PB (in MB, log scale), 1-1,048,576 chunks
 * (log scale; half the time at the count where the pipeline turns worse than no chunking), any
 * two links of the catalogue, the PCIe switch shared or not.
 */
export function draw(rng, options) {
  const s = { mb: sizeMb(rng), chunks: 1, link: pick(rng, options.link), host_link: pick(rng, options.host_link), same_pcie_switch: rng() < 0.5 };
  const flip = rng() < 0.5 ? flipChunks(s) : null;
  s.chunks = flip ? pick(rng, flip) : rng() < 0.1 ? pick(rng, [1, 2, 64, LIMITS.chunks[1]]) : logInt(rng, ...LIMITS.chunks);
  return s;
}
export const first = { mb: 1000, chunks: 64, link: 'ib_ndr', host_link: 'pcie5', same_pcie_switch: true };

/** What the view shows in figures, in one trip to the page. */
const read = (page) => page.locator('[data-view="rdma"]').evaluate((root) => ({
  data: { ...root.dataset },
  paths: [...root.querySelectorAll('.rdma-path')].map((e) => ({
    id: e.dataset.path, time_s: Number(e.dataset.timeS), host_copies: Number(e.dataset.hostCopies),
    host_memory_bytes: Number(e.dataset.hostMemoryBytes), paced_by: e.dataset.pacedBy,
    stages: [...e.querySelectorAll('.rdma-lane')].map((l) => ({ stage: l.dataset.stage, link: l.dataset.link, start_s: Number(l.dataset.startS), end_s: Number(l.dataset.endS), busy_s: Number(l.dataset.busyS) })),
  })),
  bars: [...root.querySelectorAll('.rdma-path')].map((e) => [...e.querySelectorAll('.rdma-bar')].map((b) => [parseFloat(b.style.left), parseFloat(b.style.width)])),
  nccl: [...root.querySelectorAll('.rdma-path.rdma-nccl')].map((e) => e.dataset.path),
  says: [...root.querySelectorAll('.rdma-sentences li')].map((e) => e.dataset.says),
  tableRows: [...root.querySelectorAll('details.chart-table tbody tr')].map((e) => `${e.dataset.path}/${e.dataset.stage}`),
}));

const near = (x, y, rel = 1e-12) => Math.abs(x - y) <= rel * Math.max(Math.abs(x), Math.abs(y));

/** Asserts what the view shows at `s` is the engine's; returns the engine's answer. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const want = engine(request(s));
  assert.ok(!want.error, `${at}: the engine answers (${JSON.stringify(want.error)})`);
  const got = await read(page);
  const d = got.data;
  assert.equal(Number(d.bytes), want.bytes, at);
  assert.equal(Number(d.chunks), want.chunks, at);
  assert.equal(d.fastest, want.fastest, at);
  assert.equal(d.ncclPath, want.nccl_path, at);
  assert.equal(Number(d.stagedOverGpudirect), want.staged_over_gpudirect, at);
  assert.equal(Number(d.pipelinedOverGpudirect), want.pipelined_over_gpudirect, at);
  assert.deepEqual(got.paths, want.paths.map((p) => ({
    id: p.id, time_s: p.time_s, host_copies: p.host_copies, host_memory_bytes: p.host_memory_bytes, paced_by: p.paced_by,
    stages: p.stages.map((x) => ({ stage: x.stage, link: x.link, start_s: x.start_s, end_s: x.end_s, busy_s: x.busy_s })),
  })), at);
  assert.deepEqual(got.tableRows, want.paths.flatMap((p) => p.stages.map((x) => `${p.id}/${x.stage}`)), at);
  // Bars: each stage from its start to its end on one linear axis to the slowest path's end (to
  // the view's 0.001 %), so a path that takes longer ends further right.
  const longest = Math.max(...want.paths.map((p) => p.time_s));
  want.paths.forEach((p, i) => {
    p.stages.forEach((x, j) => {
      const [left, width] = got.bars[i][j];
      assert.ok(Math.abs(left - (x.start_s / longest) * 100) <= 0.00051 && Math.abs(width - ((x.end_s - x.start_s) / longest) * 100) <= 0.00051,
        `${at} ${p.id} ${x.stage}: drawn ${left}% + ${width}% for ${x.start_s}-${x.end_s} s of ${longest} s`);
    });
    assert.equal(p.time_s, Math.max(...p.stages.map((x) => x.end_s)), `${at} ${p.id}: the path ends with its last stage`);
  });
  const ends = got.bars.map((bars) => Math.max(...bars.map(([l, w]) => l + w)));
  want.paths.forEach((p, i) => want.paths.forEach((q, j) => {
    if (p.time_s > q.time_s) assert.ok(ends[i] >= ends[j] - 0.0021, `${at}: ${p.id} (${p.time_s} s) drawn ending before ${q.id} (${q.time_s} s)`);
  }));
  // The sentences are the engine's cases, and the cases agree with its numbers.
  assert.deepEqual(got.says, ['direct', `pipelined-${want.pipelined_case}`, `nccl-${want.nccl_path}`], at);
  assert.deepEqual(got.nccl, [want.nccl_path], `${at}: NCCL's path marked`);
  const [staged, piped, direct] = ['host_staged', 'host_pipelined', 'gpudirect'].map((id) => want.paths.find((p) => p.id === id));
  assert.equal(want.fastest, want.paths.reduce((m, p) => (p.time_s < m.time_s ? p : m)).id, `${at}: the fastest path is the quickest`);
  // "GPUDirect RDMA moves it in T, the network alone; through host memory ... R as long."
  assert.deepEqual(direct.stages.map((x) => x.stage), ['network'], `${at}: GPUDirect is the network alone`);
  assert.ok(near(want.staged_over_gpudirect, staged.time_s / direct.time_s), `${at}: staged over GPUDirect`);
  assert.ok(near(want.pipelined_over_gpudirect, piped.time_s / direct.time_s), `${at}: pipelined over GPUDirect`);
  // "In 1 chunk nothing overlaps: ... it is the path above, one stage after another."
  if (want.pipelined_case === 'single_chunk') assert.deepEqual([want.chunks, piped.time_s], [1, staged.time_s], `${at}: one chunk is the staged path`);
  else assert.ok(want.chunks > 1, at);
  // "Longer than not chunking at all" exactly when the pipeline takes longer than the staged path.
  assert.equal(want.pipelined_case === 'worse', piped.time_s > staged.time_s, `${at}: ${want.pipelined_case}, pipelined ${piped.time_s} s, staged ${staged.time_s} s`);
  // "Paced by the {stage} stage": the stage busy longest.
  if (want.pipelined_case === 'overlaps') {
    const busiest = Math.max(...piped.stages.map((x) => x.busy_s));
    assert.equal(piped.stages.find((x) => x.stage === piped.paced_by)?.busy_s, busiest, `${at}: paced by ${piped.paced_by}`);
  }
  // NCCL takes GPUDirect only with a PCIe switch shared by the GPU and its NIC; else the chunked copies.
  assert.equal(want.nccl_path, s.same_pcie_switch ? 'gpudirect' : 'host_pipelined', at);
  return want;
}
