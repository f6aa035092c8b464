// Experts (?view=moe, P5 §6.4 and §4.3) held against the engine's moe answer: the bytes each GPU
// receives a layer (bars and table, the busiest marked where the bytes say so), the all-to-all's α
// and bytes (the split drawn in their order), the step's all-to-alls and the facts' figures; the
// routing case (local, even, hot, cold) and the bound (latency, bandwidth) that pick the sentence
// against what the engine's numbers say; the EP choices are the divisors of the preset's experts.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick } from './walk.mjs';

const VIEW = '[data-view="moe"]';
const PRESETS = engine({ op: 'presets' });
const experts = (model) => PRESETS.models.find((m) => m.id === model).experts;
// The expert-parallel degrees that place a model's experts evenly: its experts' divisors.
const divisors = (n) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
// Bars are drawn at a share of the largest to 0.01 %.
const BAR_ROUNDING = 0.0051;

/** The engine's moe request of the view at `s`. */
export const request = (s) => ({ op: 'moe', model: s.model, ep: Number(s.ep), batch_tokens: Number(s.tokens), hot_factor: Number(s.hot) });

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `${VIEW}[data-model="${s.model}"][data-ep="${s.ep}"][data-tokens="${s.tokens}"][data-hot="${s.hot}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 20000 });

export const first = { model: 'mixtral_8x7b', ep: '8', tokens: 64, hot: 4 };

/**
 * The tokens a step at which one all-to-all's bytes take as long as its α (the bound flips there):
 * the bytes grow with the tokens, the α does not. Null on one GPU (no all-to-all).
 */
function flipTokens(model, ep, hot) {
  if (ep === 1) return null;
  const one = engine({ op: 'moe', model, ep, batch_tokens: 1, hot_factor: hot });
  const bytesTime = one.alltoall_time_s - one.alltoall_alpha_time_s;
  return bytesTime > 0 ? one.alltoall_alpha_time_s / bytesTime : null;
}

/**
 * Settings drawn from the view's domain: either preset, an EP degree among its experts' divisors,
 * 1-1e8 tokens (log scale; half the time around the tokens where α and bytes take as long, the
 * decode and prefill presets and the edges now and then), a hot factor 0.1-1,000 (log scale; even
 * routing, 1, often; near 1 on either side, where hot turns cold, and the edges now and then).
 */
export function draw(rng, options) {
  const model = pick(rng, options.model);
  const eps = divisors(experts(model));
  const ep = rng() < 0.15 ? pick(rng, [1, eps.at(-1)]) : pick(rng, eps);
  const h = rng();
  const hot = h < 0.2 ? 1 : h < 0.3 ? pick(rng, [0.1, 1000]) : h < 0.5 ? Number((0.8 + 0.4 * rng()).toFixed(2)) : Number(Math.exp(Math.log(0.1) + rng() * Math.log(1e4)).toPrecision(3));
  let tokens = logInt(rng, 1, 1e8);
  const t = rng();
  const flip = flipTokens(model, ep, hot);
  if (t < 0.5 && flip) tokens = rng() < 0.4 ? pick(rng, [Math.floor(flip), Math.ceil(flip)]) : Math.round(flip * Math.exp((rng() - 0.5) * 1.4));
  else if (t < 0.65) tokens = pick(rng, [1, 64, 32768, 1e8]);
  return { model, ep: String(ep), tokens: Math.max(1, Math.min(1e8, tokens)), hot: Math.max(0.1, Math.min(1000, hot)) };
}

/** What the view shows in figures and cases, in one trip to the page. */
const read = (page) => page.locator(VIEW).evaluate((root) => ({
  data: { ...root.dataset },
  sentence: { ...root.querySelector('[data-role="sentence"]').dataset },
  bars: [...root.querySelectorAll('.moe-bar')].map((e) => ({ gpu: Number(e.dataset.gpu), bytes: Number(e.dataset.recvBytes), height: parseFloat(e.style.height), busiest: e.classList.contains('moe-busiest') })),
  split: [...root.querySelectorAll('[data-role="split"] > span')].map((e) => ({ part: e.className, timeS: Number(e.dataset.timeS), width: parseFloat(e.style.width) })),
  facts: [...root.querySelectorAll('[data-role="facts"] li')].map((e) => ({ ...e.dataset })),
  table: [...root.querySelectorAll('details.chart-table tbody tr')].map((tr) => ({ gpu: Number(tr.dataset.gpu), bytes: Number(tr.querySelector('td[data-recv-bytes]').dataset.recvBytes), busiest: tr.querySelector('th').dataset.busiest })),
  models: [...root.querySelectorAll('#moe-model option')].map((o) => ({ id: o.value, ...o.dataset })),
  eps: [...root.querySelectorAll('#moe-ep option')].map((o) => Number(o.value)),
  sources: [...root.querySelectorAll('[data-role="sources"] li')].map((e) => [e.dataset.preset, e.textContent]),
}));

/** Asserts what the view shows at `s` is the engine's; returns {want, got}. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const want = engine(request(s));
  assert.equal(want.error, undefined, `${at}: the engine answers (${JSON.stringify(want.error)})`);
  const got = await read(page);
  const d = got.data;
  const recv = want.recv_bytes_per_gpu_layer;

  // Every figure the view draws or words, the engine's.
  assert.deepEqual([d.model, Number(d.ep), Number(d.tokens), Number(d.hot)], [want.model.id, want.ep, want.batch_tokens, want.hot_factor], at);
  const figures = {
    skew: 'skew', alltoallTimeS: 'alltoall_time_s', alltoallAlphaTimeS: 'alltoall_alpha_time_s', stepTimeS: 'step_time_s',
    busiestRecvBytes: 'busiest_recv_bytes_layer', meanRecvBytes: 'mean_recv_bytes_layer', tokensPerGpu: 'tokens_per_gpu',
    remoteFraction: 'remote_fraction', dispatchBytesPerGpuLayer: 'dispatch_bytes_per_gpu_layer', combineBytesPerGpuLayer: 'combine_bytes_per_gpu_layer',
    bytesPerGpuStep: 'bytes_per_gpu_step', hotProbability: 'hot_probability', alltoallsPerStep: 'alltoalls_per_step',
  };
  for (const [attr, key] of Object.entries(figures)) assert.equal(Number(d[attr]), want[key], `${at}: ${attr} against ${key}`);
  assert.equal(Number(d.topK), want.model.top_k, at);
  const tokensFact = got.facts.find((f) => f.fact === 'tokens-per-gpu');
  assert.equal(Number(tokensFact?.tokensPerGpu), want.tokens_per_gpu, at);
  assert.deepEqual(got.facts.map((f) => f.fact), ['tokens-per-gpu', 'dispatch', 'step-bytes', 'hot'], at);

  // One bar a GPU at the engine's bytes, in their order; the table the same.
  assert.deepEqual(got.bars.map((b) => b.bytes), recv, `${at}: one bar a GPU, the engine's bytes`);
  assert.equal(got.bars.length, want.ep, at);
  const most = Math.max(...recv);
  for (const b of got.bars) assert.ok(Math.abs(b.height - (most > 0 ? (b.bytes / most) * 100 : 0)) <= BAR_ROUNDING, `${at}: GPU ${b.gpu} drawn at ${b.height}% for ${b.bytes} of ${most}`);
  for (const x of got.bars) for (const y of got.bars) if (x.bytes > y.bytes) assert.ok(x.height >= y.height, `${at}: GPU ${x.gpu} (${x.bytes}) drawn shorter than GPU ${y.gpu} (${y.bytes})`);
  assert.deepEqual(got.table.map((r) => r.bytes), recv, `${at}: the table has the same bytes`);
  assert.equal(want.busiest_recv_bytes_layer, most, `${at}: the engine's busiest is its largest receive`);

  // The routing case the sentence says, from the receive bytes: one GPU holds every expert; every
  // GPU receives the same; the hot expert's GPU (listed first) receives the most; or the least.
  const mean = want.mean_recv_bytes_layer;
  const spread = most - Math.min(...recv);
  const routing = want.ep === 1 ? 'local' : spread <= 1e-9 * mean ? 'even' : recv[0] === most ? 'hot' : 'cold';
  assert.equal(d.routing, routing, `${at}: routing from the bytes ${recv.slice(0, 2)}… against the mean ${mean}`);
  assert.equal(got.sentence.routing, routing, at);
  if (routing === 'hot') assert.ok(want.skew > 1 && recv[0] > mean, `${at}: a hot expert's GPU above the mean (skew ${want.skew})`);
  if (routing === 'cold') assert.ok(want.skew < 1 && recv[0] < mean && recv.slice(1).every((b) => b === most), `${at}: a cold expert's GPU below the mean, the others the busiest (skew ${want.skew})`);
  if (routing === 'even') assert.ok(Math.abs(want.skew - 1) < 1e-9, `${at}: even routing, skew ${want.skew}`);
  // The skew the sentence says is the expert's GPU against the mean.
  if (want.ep > 1) assert.ok(Math.abs(want.skew - recv[0] / mean) <= 1e-9 * want.skew, `${at}: skew ${want.skew} against ${recv[0]} / ${mean}`);
  // Marked busiest: every GPU that receives the most, when routing is uneven; none otherwise.
  const busiest = recv.map((b) => (routing === 'hot' || routing === 'cold') && b === most);
  assert.deepEqual(got.bars.map((b) => b.busiest), busiest, `${at}: the busiest marked (${routing})`);
  assert.deepEqual(got.table.map((r) => r.busiest), busiest.map(String), `${at}: the table's busiest (${routing})`);

  // One all-to-all: α against the bytes, drawn in their order; the bound from the two times.
  const alpha = want.alltoall_alpha_time_s;
  const bytes = want.alltoall_time_s - alpha;
  const share = want.alltoall_time_s > 0 ? alpha / want.alltoall_time_s : 0;
  assert.equal(Number(d.alphaShare), share, at);
  assert.deepEqual(got.split.map((p) => [p.part, p.timeS]), [['moe-alpha', alpha], ['moe-bytes', bytes]], at);
  assert.ok(Math.abs(got.split[0].width - share * 100) <= BAR_ROUNDING && Math.abs(got.split[1].width - (1 - share) * 100) <= BAR_ROUNDING, `${at}: split ${got.split.map((p) => p.width)} for share ${share}`);
  if (alpha > bytes) assert.ok(got.split[0].width >= got.split[1].width, at);
  if (bytes > alpha) assert.ok(got.split[1].width >= got.split[0].width, at);
  const bound = want.ep === 1 ? 'none' : alpha >= bytes ? 'latency' : 'bandwidth';
  assert.equal(d.bound, bound, `${at}: α ${alpha} s against bytes ${bytes} s`);
  assert.equal(got.sentence.bound, bound, at);
  assert.equal(want.step_time_s, want.alltoalls_per_step * want.alltoall_time_s, `${at}: a step is its all-to-alls`);

  // The choices: the MoE presets with the engine's experts and top-k; EP the divisors of the experts.
  for (const m of got.models) {
    const p = PRESETS.models.find((x) => x.id === m.id);
    assert.deepEqual([Number(m.experts), Number(m.topK)], [p.experts, p.top_k], `${at}: ${m.id}`);
  }
  assert.deepEqual(got.eps, divisors(want.model.experts), at);
  assert.deepEqual(got.sources, [[want.model.id, PRESETS.sources[want.model.id]]], `${at}: the preset's published source`);
  return { want, got };
}
