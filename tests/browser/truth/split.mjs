// Tensor and sequence parallelism (?view=split, P5 §6.2) held against the engine's answers: the
// sharding_check op (the shapes the view sends, errors, bytes, the engine's refusals), the tp op's
// decode step on both links (bytes sent, activations with and without sequence parallelism, each
// link's all-reduce time against the weight read), every bar in the order of its figure, and the
// conclusions (the splits agree with one device, where tensor parallelism belongs) against the
// engine's numbers.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick, pow2In } from './walk.mjs';

const VIEW = '[data-view="split"]';
// The engine's sharding_check limit (its out_of_range error): tokens × hidden × ffn at most 4e6.
const CHECK_CELLS = 4e6;
// Errors within this of one device are rounding: the view says the splits "agree" (split.js AGREE_ABS).
const AGREE_ABS = 1e-9;

/**
 * The shapes the view sends for `k` shards, as split.js documents them: the engine's default
 * (hidden 32, ffn 3.5 × hidden, 16 query / 4 KV heads, head_dim 8), widened so k divides them.
 */
function shapeFor(k) {
  const hidden = Math.max(32, 2 * k);
  return { hidden, ffn: (hidden * 7) / 2, q_heads: Math.max(16, k), kv_heads: Math.max(4, k), head_dim: 8 };
}

/** The engine's two requests of the view at `s`. */
export const requests = (s) => {
  const k = Number(s.shards);
  const tp = (link) => ({ op: 'tp', model: s.model, tp: Number(s.tp), tokens: Number(s['tp-tokens']), phase: 'decode', link });
  return { check: { op: 'sharding_check', shards: k, tokens: Number(s.tokens), ...shapeFor(k) }, inside: tp(s.inside), across: tp(s.across) };
};

/** Waits until the view has drawn `s` (both parts: the split check and the tp op on two links). */
export const settled = (page, s) => page.waitForSelector(
  `${VIEW}[data-shards="${s.shards}"][data-tokens="${s.tokens}"][data-model="${s.model}"][data-tp="${s.tp}"][data-tp-tokens="${s['tp-tokens']}"]`
  + `[data-inside="${s.inside}"][data-across="${s.across}"]:not([aria-busy]) [data-role="tp-drawn"]:not([hidden])`, { timeout: 20000 });

/**
 * The decode batch at which the all-reduces on `link` come to take as long as the weight read (the
 * place sentence flips there), as [last tokens under, first tokens at or over]; null when it does
 * not flip within 1 - 1e8 tokens.
 */
function flipTokens(model, tp, link) {
  const ratio = (tokens) => engine({ op: 'tp', model, tp, tokens, phase: 'decode', link }).comm_to_compute;
  let [lo, hi] = [1, 1e8];
  if (!(ratio(lo) < 1) || ratio(hi) < 1) return null;
  while (hi - lo > 1) {
    const mid = Math.floor(Math.sqrt(lo * hi));
    const m = mid > lo && mid < hi ? mid : Math.floor((lo + hi) / 2);
    if (ratio(m) < 1) lo = m; else hi = m;
  }
  return [lo, hi];
}

/**
 * Settings drawn from the view's domain: 1-64 shards (its select) and 1-256 tokens, mostly a
 * multiple of the shards (else the engine refuses: not a multiple, or past the quick check's size);
 * a preset model on 1-4,096 GPUs (powers of two to 64 often) with 1-1e8 tokens (log scale), half
 * the time at the batch where a link's all-reduces cross the weight read; any two links.
 */
export function draw(rng, options) {
  const shards = Number(pick(rng, options.shards));
  const most = Math.floor(256 / shards);
  // The most tokens the quick check takes at these shapes (64 shards: 69), and the multiples around it.
  const { hidden, ffn } = shapeFor(shards);
  const limit = Math.floor(Math.floor(CHECK_CELLS / (hidden * ffn)) / shards) * shards;
  const edges = [shards, most * shards, limit, limit + shards, limit + 1].filter((x) => x >= 1 && x <= 256);
  const r = rng();
  const tokens = r < 0.55 ? shards * logInt(rng, 1, most) : r < 0.75 ? pick(rng, edges) : logInt(rng, 1, 256);
  const model = pick(rng, options.model);
  const t = rng();
  const tp = t < 0.4 ? pow2In(rng, 1, 64) : t < 0.5 ? pick(rng, [1, 2, 4096]) : logInt(rng, 1, 4096);
  const inside = pick(rng, options.inside);
  const across = rng() < 0.15 ? inside : pick(rng, options.across);
  let tpTokens = rng() < 0.5 ? logInt(rng, 1, 1024) : logInt(rng, 1, 1e8);
  if (rng() < 0.5 && tp > 1) {
    const flip = flipTokens(model, tp, pick(rng, [inside, across]));
    if (flip) tpTokens = rng() < 0.7 ? pick(rng, flip) : Math.max(1, Math.min(1e8, Math.round(flip[1] * (0.9 + 0.2 * rng()))));
  }
  return { shards: String(shards), tokens: Math.max(1, Math.min(256, tokens)), model, tp, 'tp-tokens': tpTokens, inside, across };
}
export const first = { shards: '4', tokens: 16, model: 'llama3_70b', tp: 8, 'tp-tokens': 1, inside: 'nvlink4', across: 'ib_ndr' };

/** What the view shows in figures, in one trip to the page. */
const read = (page) => page.locator(VIEW).evaluate((root) => {
  const bars = (role) => [...root.querySelectorAll(`[data-role="${role}"] .split-row`)].map((e) => ({ bar: e.dataset.bar, value: Number(e.dataset.value), width: parseFloat(e.querySelector('.split-fill').style.width) }));
  const table = (drawn) => Object.fromEntries([...root.querySelectorAll(`[data-role="${drawn}"] tbody tr`)].map((tr) => [tr.dataset.row, [...tr.querySelectorAll('td')].map((td) => (td.dataset.value === undefined ? null : Number(td.dataset.value)))]));
  return {
    data: { ...root.dataset },
    checkHidden: root.querySelector('[data-role="check-drawn"]').hidden,
    checkErrorShown: !root.querySelector('[data-role="check-error"]').hidden,
    agree: root.querySelector('[data-role="check-sentence"]').dataset.agree,
    svgs: [...root.querySelectorAll('.split-svg')].map((e) => ({ split: e.dataset.split, shards: Number(e.dataset.shards), tokens: Number(e.dataset.tokens), hidden: Number(e.dataset.hidden), ffn: Number(e.dataset.ffn) })),
    bytes: bars('bytes'),
    checkTable: table('check-drawn'),
    sp: bars('sp'),
    place: bars('place'),
    placeSays: root.querySelector('[data-role="place-sentence"]').dataset.place,
    tpTable: table('tp-drawn'),
  };
});

/** Bars drawn at each figure's share of the largest (to the view's 0.01 %), so in the order of their figures. */
function barsInOrder(bars, values, at) {
  assert.deepEqual(bars.map((b) => b.value), values, at);
  const most = Math.max(...values);
  bars.forEach((b) => assert.ok(Math.abs(b.width - (most > 0 ? (b.value / most) * 100 : 0)) <= 0.0051, `${at}: ${b.bar} drawn at ${b.width}% for ${b.value} of ${most}`));
  for (const x of bars) for (const y of bars) if (x.value > y.value) assert.ok(x.width >= y.width, `${at}: ${x.bar} (${x.value}) drawn shorter than ${y.bar} (${y.value})`);
}

/** Asserts what the view shows at `s` is the engine's; returns the engine's three answers. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const asks = requests(s);
  const want = engine(asks.check);
  const a = engine(asks.inside);
  const b = engine(asks.across);
  const got = await read(page);
  const d = got.data;

  // (1) The split check: the engine's refusal, or its figures.
  if (want.error) {
    assert.equal(d.checkError, want.error.code, `${at}: the engine refuses the check (${want.error.message})`);
    assert.equal(got.checkHidden, true, `${at}: nothing drawn for a refused check`);
    assert.equal(got.checkErrorShown, true, at);
    assert.deepEqual([d.correctBytes || undefined, d.bytesRatio || undefined, got.agree, got.bytes.length, got.svgs.length], [undefined, undefined, undefined, 0, 0], `${at}: no figures of an earlier check left`);
  } else {
    assert.equal(d.checkError, undefined, at);
    assert.equal(got.checkHidden, false, at);
    const { mlp, attention: att } = want;
    assert.deepEqual([d.hidden, d.ffn, d.qHeads, d.kvHeads].map(Number), [mlp.hidden, mlp.ffn, att.q_heads, att.kv_heads], `${at}: the shapes sent`);
    assert.equal(Number(d.correctBytes), mlp.correct_bytes, at);
    assert.equal(Number(d.wrongBytes), mlp.wrong_bytes, at);
    assert.equal(Number(d.bytesRatio), mlp.bytes_ratio, at);
    assert.equal(Number(d.maxAbsError), mlp.max_abs_error, at);
    assert.equal(Number(d.wrongMaxAbsError), mlp.wrong_max_abs_error, at);
    assert.equal(Number(d.spMaxAbsError), mlp.sp_max_abs_error, at);
    assert.equal(Number(d.attentionMaxAbsError), att.max_abs_error, at);
    // "The wrong split sends {ratio}× the bytes": the engine's ratio is its bytes' ratio.
    assert.ok(Math.abs(mlp.bytes_ratio - mlp.wrong_bytes / mlp.correct_bytes) <= 1e-12 * mlp.bytes_ratio, `${at}: ratio ${mlp.bytes_ratio} against ${mlp.wrong_bytes} / ${mlp.correct_bytes}`);
    // "Both splits equal one device" only when every error is rounding.
    const worst = Math.max(mlp.max_abs_error, mlp.wrong_max_abs_error, mlp.sp_max_abs_error, att.max_abs_error);
    assert.equal(got.agree, worst <= AGREE_ABS ? 'agree' : 'differ', `${at}: worst error ${worst}`);
    assert.deepEqual(got.svgs, ['megatron', 'wrong'].map((split) => ({ split, shards: want.shards, tokens: want.tokens, hidden: mlp.hidden, ffn: mlp.ffn })), at);
    barsInOrder(got.bytes, [mlp.correct_bytes, mlp.wrong_bytes], at);
    assert.deepEqual(got.checkTable, {
      megatron: [null, mlp.correct_bytes, mlp.max_abs_error], wrong: [null, mlp.wrong_bytes, mlp.wrong_max_abs_error],
      sp: [null, mlp.correct_bytes, mlp.sp_max_abs_error], attention: [null, null, att.max_abs_error],
    }, at);
  }

  // (2) Tensor against sequence parallelism, and (3) where tensor parallelism belongs.
  assert.ok(!a.error && !b.error, `${at}: the engine answers tp (${JSON.stringify(a.error ?? b.error)})`);
  const sp = a.sequence_parallel;
  assert.equal(d.model, a.model.id, at);
  assert.equal(Number(d.allreduces), a.allreduces, at);
  assert.equal(Number(d.bytesSentPerGpu), a.bytes_sent_per_gpu, at);
  assert.equal(Number(d.spBytesSentPerGpu), sp.bytes_sent_per_gpu, at);
  assert.equal(Number(d.activationBytesPerGpu), sp.activation_bytes_per_gpu, at);
  assert.equal(Number(d.tpActivationBytesPerGpu), sp.tp_activation_bytes_per_gpu, at);
  assert.equal(Number(d.insideCommTimeS), a.comm_time_s, at);
  assert.equal(Number(d.acrossCommTimeS), b.comm_time_s, at);
  assert.equal(Number(d.weightReadTimeS), a.weight_read_time_s, at);
  assert.equal(Number(d.insideCommToCompute), a.comm_to_compute, at);
  assert.equal(Number(d.acrossCommToCompute), b.comm_to_compute, at);
  assert.deepEqual(got.tpTable, {
    allreduces: [a.allreduces, b.allreduces], sent: [a.bytes_sent_per_gpu, b.bytes_sent_per_gpu],
    'sp-sent': [sp.bytes_sent_per_gpu, b.sequence_parallel.bytes_sent_per_gpu],
    'tp-activation': [sp.tp_activation_bytes_per_gpu, b.sequence_parallel.tp_activation_bytes_per_gpu],
    'sp-activation': [sp.activation_bytes_per_gpu, b.sequence_parallel.activation_bytes_per_gpu],
    comm: [a.comm_time_s, b.comm_time_s], 'weight-read': [a.weight_read_time_s, b.weight_read_time_s], ratio: [a.comm_to_compute, b.comm_to_compute],
  }, at);
  // The SP sentence: "both send {sent}" (tensor and sequence parallelism the same bytes).
  assert.equal(sp.bytes_sent_per_gpu, a.bytes_sent_per_gpu, `${at}: SP sends what TP sends`);
  barsInOrder(got.sp, [sp.tp_activation_bytes_per_gpu, sp.activation_bytes_per_gpu], at);
  // One weight-read bar stands for both links: the weight read does not depend on the link.
  assert.equal(b.weight_read_time_s, a.weight_read_time_s, `${at}: one weight read for both links`);
  barsInOrder(got.place, [a.comm_time_s, b.comm_time_s, a.weight_read_time_s], at);
  // Where tensor parallelism belongs, from the times the bars show: a link is "under" the weight
  // read when its all-reduces take less; the ratio the sentence prints is those two times'.
  for (const w of [a, b]) assert.ok(Math.abs(w.comm_to_compute - w.comm_time_s / w.weight_read_time_s) <= 1e-12 * Math.max(1, w.comm_to_compute), `${at}: comm_to_compute ${w.comm_to_compute} against ${w.comm_time_s} / ${w.weight_read_time_s}`);
  const under = [a, b].map((w) => w.comm_time_s < w.weight_read_time_s);
  // "One GPU: no all-reduce": nothing sent, no time (the engine still counts a.allreduces, 2 a layer).
  if (Number(s.tp) === 1) for (const w of [a, b]) assert.deepEqual([w.comm_time_s, w.bytes_sent_per_gpu], [0, 0], `${at}: one GPU sends nothing`);
  const place = Number(s.tp) === 1 ? 'none' : under[0] && under[1] ? 'both' : under[0] ? 'inside' : under[1] ? 'across' : 'neither';
  assert.equal(got.placeSays, place, `${at}: ${s.inside} ${a.comm_time_s} s, ${s.across} ${b.comm_time_s} s against the weight read ${a.weight_read_time_s} s`);
  return { want, a, b };
}
