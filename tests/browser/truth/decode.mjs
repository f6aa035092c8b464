// Small messages in inference (?view=decode, P5 §5.7, §2.5) held against the engine: the step of
// every all-reduce algorithm and §5.7 kernel (tp), where vLLM's kernel does not run and why, the
// shot vLLM launches, bars on one linear axis at the engine's times, the latency/bandwidth verdict
// against the engine's α and β parts, and §2.5's transfers (kv_transfer, memory, transfer).
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick } from './walk.mjs';

// As the view asks them (web/views/decode.js DECODE_ALGORITHMS, DECODE_KERNELS), in its order.
const ALGORITHMS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
const KERNELS = [{ algorithm: 'ring', protocol: 'LL' }, { algorithm: 'one_shot' }, { algorithm: 'two_shot' }];
export const ROWS = [...ALGORITHMS.map((algorithm) => ({ algorithm })), ...KERNELS];
const PRESETS = engine({ op: 'presets' });
const NODE_GPUS = 8;

/** Waits until the view has drawn `s` (its settings, by data-setting), §2.5's transfers included. */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="decode"][data-model="${s.model}"][data-gpu="${s.gpu}"][data-tp="${s.tp}"][data-link="${s.link}"][data-phase="${s.phase}"][data-tokens="${s.tokens}"]`
  + `:not([aria-busy]) [data-role="drawn"]:not([hidden]) #decode-transfers[data-model="${s.model}"]`, { timeout: 20000 });

export const first = { model: 'llama3_70b', gpu: 'h100', tp: 8, link: 'nvlink4', phase: 'decode', tokens: 1 };

// The phase is set before the tokens (a new phase first fills in the engine's count for it, then
// the count drawn is typed). A count equal to the one already typed would not be typed again and
// the engine's count for the new phase would stay, so after a change of phase the count differs.
let last = first;

/**
 * Settings drawn from the view's domain: a model and a GPU, 1-4,096 GPUs (often vLLM's 2, 4, 6 or
 * 8, or one), any link, either phase, 1 to 1e8 tokens on a log scale; often next to where the
 * verdict flips (an algorithm's α part equal to its β part), where vLLM's kernel stops running
 * (8 MiB an all-reduce) or switches shots (256 and 512 KiB), or the engine's own count for the phase.
 */
export function draw(rng, options) {
  const models = options.model?.length ? options.model : PRESETS.models.map((m) => m.id);
  const gpus = options.gpu?.length ? options.gpu : PRESETS.gpus.map((g) => g.id);
  const s = {
    model: pick(rng, models), gpu: pick(rng, gpus),
    tp: rng() < 0.4 ? pick(rng, [1, 2, 4, 6, 8, 16]) : logInt(rng, 1, 4096),
    link: pick(rng, options.link), phase: pick(rng, options.phase ?? ['decode', 'prefill']), tokens: logInt(rng, 1, 1e8),
  };
  const r = rng();
  const near = (x) => Math.round(x * (1 + (rng() - 0.5) * (rng() < 0.5 ? 0.02 : 0.5)));
  const hidden = PRESETS.models.find((m) => m.id === s.model)?.hidden;
  if (r < 0.35) {
    // Where one row's α part equals its β part: the β part grows with the tokens, the α part does not.
    const one = engine({ op: 'tp', ...s, tokens: 1, ...pick(rng, ROWS) }).per_allreduce;
    if (one?.beta_time_s > 0) s.tokens = near(one.alpha_time_s / one.beta_time_s);
  } else if (r < 0.55 && hidden) {
    s.tokens = near(pick(rng, [8388608, 524288, 262144]) / (hidden * 2)); // all-reduce bytes: tokens × hidden × 2
  } else if (r < 0.65) {
    s.tokens = engine({ op: 'tp', model: s.model, tp: 8, phase: s.phase, algorithm: 'ring', link: 'nvlink4' }).tokens;
  }
  s.tokens = Math.min(1e8, Math.max(1, s.tokens));
  if (s.phase !== last.phase && s.tokens === last.tokens) s.tokens = s.tokens > 1 ? s.tokens - 1 : 2;
  last = s;
  return s;
}

/** The step's α and β parts, the α share and the verdict, from the engine's figures for one row. */
function expected(w) {
  const p = w.per_allreduce;
  const share = p.time_s > 0 ? p.alpha_time_s / p.time_s : 0;
  // The verdict is the engine's (tp's bound); it agrees with the figures it stands beside.
  assert.equal(w.bound, w.comm_time_s === 0 ? 'none' : share >= 0.5 ? 'latency' : 'bandwidth', `bound against α share ${share}`);
  return { share, alphaPart: w.allreduces * p.alpha_time_s, betaPart: w.allreduces * p.beta_time_s, bound: w.bound };
}

/** Asserts what the view shows at `s` is the engine's; returns the engine's answers ({want, transfers}). */
export async function check(page, s) {
  if (last !== s) last = s; // a setting checked (not drawn here) is what the walk goes on from
  await settled(page, s);
  const at = JSON.stringify(s);
  const want = ROWS.map((row) => engine({ op: 'tp', ...s, ...row }));
  for (const w of want) assert.equal(w.error, undefined, `${at}: ${JSON.stringify(w.error)}`);
  const got = await page.evaluate(() => {
    const root = document.querySelector('[data-view="decode"]');
    const data = (e) => (e ? { ...e.dataset } : null);
    const all = (sel) => [...root.querySelectorAll(sel)].map(data);
    return {
      summary: data(root.querySelector('[data-role="summary"]')),
      rows: [...root.querySelectorAll('.decode-row')].map((e) => ({
        ...e.dataset, bars: [...e.querySelectorAll('.bar')].map((b) => ({ kind: b.className.replace(/^bar /, ''), width: b.style.width })),
      })),
      items: all('[data-role="sentences"] li'),
      table: all('details.chart-table tbody tr'),
      transfers: data(root.querySelector('#decode-transfers')),
      transferRows: all('#decode-transfers tr[data-transfer]'),
      says: data(root.querySelector('[data-role="transfers-sentence"]')),
    };
  });

  // The step: the engine's count of all-reduces, their size, the weight read (or compute) it is set against.
  const w0 = want[0];
  assert.deepEqual([Number(got.summary.allreduces), Number(got.summary.allreduceBytes), Number(got.summary.computeTimeS)], [w0.allreduces, w0.allreduce_bytes, w0.compute_time_s], at);
  assert.deepEqual([w0.model.id, w0.tp, w0.phase, w0.tokens], [s.model, s.tp, s.phase, s.tokens], `${at}: the engine was asked for these settings`);

  // Each row: the engine's figures; where vLLM's kernel (or in-switch reduction) cannot run, the engine's limit and no bars.
  assert.deepEqual(got.rows.map((r) => r.algorithm), want.map((w) => w.per_allreduce.algorithm), at);
  const longest = Math.max(...want.map((w) => Math.max(w.comm_time_s, w.compute_time_s)));
  got.rows.forEach((r, i) => {
    const w = want[i];
    const p = w.per_allreduce;
    const where = `${at} ${p.algorithm}`;
    if (p.applies === false) {
      assert.deepEqual([r.applies, r.limit, r.bound, r.bars.length], ['false', p.limit, 'none', 0], where);
      assert.notEqual(p.limit, '', where);
      return;
    }
    const e = expected(w);
    assert.deepEqual({
      comm: Number(r.commTimeS), compute: Number(r.computeTimeS), ratio: Number(r.commToCompute), alpha: Number(r.alphaTimeS), beta: Number(r.betaTimeS),
      time: Number(r.allreduceTimeS), steps: Number(r.steps), share: Number(r.alphaShare), applies: r.applies, picks: r.vllmPicks,
    }, {
      comm: w.comm_time_s, compute: w.compute_time_s, ratio: w.comm_to_compute, alpha: p.alpha_time_s, beta: p.beta_time_s,
      time: p.time_s, steps: p.steps, share: e.share, applies: p.applies === undefined ? undefined : 'true', picks: p.vllm_picks === undefined ? undefined : String(p.vllm_picks),
    }, where);
    // The verdict (chosen in the view from the engine's α share) agrees with the α and β parts.
    assert.equal(r.bound, e.bound, `${where}: α ${p.alpha_time_s} s, β ${p.beta_time_s} s`);
    // Bars on one linear axis: α part, β part, then the weight read or compute, each at its time.
    assert.deepEqual(r.bars.map((b) => b.kind), ['bar-alpha', 'bar-beta', 'bar-compute'], where);
    [e.alphaPart, e.betaPart, w.compute_time_s].forEach((x, j) => {
      const drawn = parseFloat(r.bars[j].width);
      assert.ok(Math.abs(drawn - (longest > 0 ? (x / longest) * 100 : 0)) <= 0.0051, `${where}: bar ${r.bars[j].kind} at ${drawn}% for ${x} s of ${longest} s`);
    });
    assert.ok(Math.abs(w.allreduces * p.time_s - w.comm_time_s) <= 1e-9 * w.comm_time_s, `${where}: the step's communication is its all-reduces`);
  });
  // Bars in the order of their times, across every row.
  const bars = got.rows.flatMap((r, i) => (r.applies === 'false' ? [] : (() => { const e = expected(want[i]); return [e.alphaPart, e.betaPart, want[i].compute_time_s].map((x, j) => [x, parseFloat(r.bars[j].width)]); })()));
  for (const [x, wx] of bars) for (const [y, wy] of bars) if (x < y) assert.ok(wx <= wy, `${at}: a bar for ${x} s (${wx}%) longer than one for ${y} s (${wy}%)`);

  // The sentences: one a row, its verdict the row's, vLLM's launch said where the engine says vLLM picks it.
  assert.deepEqual(got.items, want.map((w) => {
    const p = w.per_allreduce;
    if (p.applies === false) return { algorithm: p.algorithm, bound: 'none', applies: 'false' };
    return { algorithm: p.algorithm, bound: expected(w).bound, ...(p.vllm_picks === undefined ? {} : { vllmPicks: String(p.vllm_picks) }) };
  }), at);
  // The table: the same figures.
  assert.deepEqual(got.table, want.map((w) => {
    const p = w.per_allreduce;
    if (p.applies === false) return { algorithm: p.algorithm, applies: 'false', limit: p.limit };
    return {
      algorithm: p.algorithm, steps: String(p.steps), allreduceTimeS: String(p.time_s), alphaTimeS: String(p.alpha_time_s), betaTimeS: String(p.beta_time_s),
      commTimeS: String(w.comm_time_s), computeTimeS: String(w.compute_time_s), commToCompute: String(w.comm_to_compute), alphaShare: String(expected(w).share),
    };
  }), at);

  // §2.5: a 4,096-token prompt's KV over one NIC and the node's NICs, a cold start from NVMe and from CPU memory.
  const kv = engine({ op: 'kv_transfer', model: s.model, tokens: 4096 });
  const mem = engine({ op: 'memory', model: s.model, gpus: NODE_GPUS });
  const ssd = engine({ op: 'transfer', link: 'nvme', bytes: mem.weight_bytes });
  const host = engine({ op: 'transfer', link: 'pcie5', bytes: mem.weight_bytes_per_gpu });
  const t = got.transfers;
  assert.deepEqual([t.lecture, t.model, t.nics, t.kvBytes, t.oneNicS, t.allNicsS, t.prefillS, t.ssdS, t.hostS].map((x, i) => (i < 2 ? x : Number(x))),
    ['2.5', s.model, kv.nics, kv.kv_bytes, kv.one_nic_s, kv.all_nics_s, kv.prefill_s, ssd.time_s, host.time_s], at);
  assert.deepEqual(got.transferRows.map((r) => [r.transfer, Number(r.bytes), Number(r.timeS)]), [
    ['kv-one-nic', kv.kv_bytes, kv.one_nic_s], ['kv-all-nics', kv.kv_bytes, kv.all_nics_s], ['cold-ssd', mem.weight_bytes, ssd.time_s], ['cold-host', mem.weight_bytes, host.time_s],
  ], at);
  // "less than" / "more than" the prefill: the engine's case, which agrees with its two times.
  assert.equal(got.says.says, kv.against_prefill, at);
  assert.equal(kv.against_prefill, kv.all_nics_s < kv.prefill_s ? 'less' : 'more', at);
  return { want, transfers: { kv, mem, ssd, host } };
}
