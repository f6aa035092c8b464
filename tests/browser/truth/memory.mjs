// Why several GPUs (?view=memory, P5 §1 and §6.1) held against the engine's memory answer: the
// bytes each GPU holds (bars against the memory line), the GPUs needed, the longest context, the
// batch-1 decode bounds on one GPU and on n (bars in the order of their times), the replicas'
// throughput and the data table; the verdicts (fits, weights fit, one GPU fits) that pick the
// sentences, the facts and the "does not fit" labels are the engine's, and agree with its bytes.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick, pow2In } from './walk.mjs';

const VIEW = '[data-view="memory"]';
const PRESETS = engine({ op: 'presets' });
// At most this many GPUs are drawn (memory.js MAX_DRAWN_GPUS): every GPU of the split holds the same.
const MAX_DRAWN_GPUS = 16;
const BAR_ROUNDING = 0.0051; // bars are drawn at a share of the largest to 0.01 %

/** The engine's memory request of the view at `s`. */
export const request = (s) => ({ op: 'memory', model: s.model, gpu: s.gpu, gpus: s.gpus, context_tokens: s.context, batch: s.batch, replicas: s.replicas });

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `${VIEW}[data-model="${s.model}"][data-gpu="${s.gpu}"][data-gpus="${s.gpus}"][data-context="${s.context}"][data-batch="${s.batch}"][data-replicas="${s.replicas}"]`
  + ':not([aria-busy]) [data-role="drawn"]:not([hidden])', { timeout: 20000 });

export const first = { model: 'llama3_70b', gpu: 'h100', gpus: 1, context: 8192, batch: 1, replicas: 1 };

/**
 * Settings drawn from the view's domain: any preset on any GPU; 1-4,096 GPUs (log scale; powers of
 * two often, and half the time at the GPUs the weights, or weights and KV, need, or one fewer:
 * where "fits" flips); 0-1e8 tokens of context (log scale, 0 and the lecture's now and then, and
 * at the longest context that fits or one more); batch 1-1e6 and replicas 1-100,000 (log scale,
 * often 1).
 */
export function draw(rng, options) {
  const model = pick(rng, options.model);
  const gpu = pick(rng, options.gpu);
  const batch = rng() < 0.4 ? 1 : logInt(rng, 1, 1e6);
  const replicas = rng() < 0.4 ? 1 : logInt(rng, 1, 1e5);
  const c = rng();
  let context = c < 0.1 ? 0 : c < 0.25 ? pick(rng, [8192, 131072, 1e8]) : logInt(rng, 1, 1e8);
  const g = rng();
  let gpus = g < 0.3 ? pow2In(rng, 1, 4096) : logInt(rng, 1, 4096);
  if (g > 0.5) {
    const at = engine({ op: 'memory', model, gpu, gpus: 1, context_tokens: context, batch });
    const need = pick(rng, [at.min_gpus, at.min_gpus_with_kv, at.min_gpus_power_of_two]);
    gpus = Math.max(1, Math.min(4096, need - (rng() < 0.5 ? 1 : 0)));
  }
  if (rng() < 0.25) {
    // The longest context that fits at these GPUs and batch, or one token more.
    const longest = engine({ op: 'memory', model, gpu, gpus, context_tokens: 0, batch }).max_context_tokens;
    if (longest >= 1 && longest < 1e8) context = longest + (rng() < 0.5 ? 1 : 0);
  }
  return { model, gpu, gpus, context, batch, replicas };
}

/** What the view shows in figures and cases, in one trip to the page. */
const read = (page) => page.locator(VIEW).evaluate((root) => {
  const part = (role) => root.querySelector(`[data-role="${role}"]`);
  const pc = (e, p) => parseFloat(e.style[p]);
  return {
    data: { ...root.dataset },
    sentence: { ...part('fits-sentence').dataset },
    line: { bytes: Number(part('hbm-line').dataset.hbmBytes), bottom: pc(part('hbm-line'), 'bottom') },
    bars: [...root.querySelectorAll('.memory-bar')].map((e) => ({
      gpu: Number(e.dataset.gpu), used: Number(e.dataset.usedBytes), over: e.classList.contains('memory-over'),
      weights: Number(e.querySelector('.memory-weights').dataset.bytes), weightsHeight: pc(e.querySelector('.memory-weights'), 'height'),
      kv: Number(e.querySelector('.memory-kv').dataset.bytes), kvHeight: pc(e.querySelector('.memory-kv'), 'height'),
    })),
    facts: [...part('facts').querySelectorAll('li')].map((e) => ({ ...e.dataset })),
    rows: [...root.querySelectorAll('.memory-row')].map((e) => ({ ...e.dataset, width: pc(e.querySelector('.bar'), 'width') })),
    decodeNote: { ...part('decode-note').dataset },
    replicas: { ...part('replicas-sentence').dataset },
    table: [...root.querySelectorAll('details.chart-table tr[data-field]')].map((e) => [e.dataset.field, e.querySelector('td').dataset.value]),
    models: [...root.querySelectorAll('#memory-model option')].map((o) => ({ id: o.value, ...o.dataset })),
    gpus: [...root.querySelectorAll('#memory-gpu option')].map((o) => ({ id: o.value, ...o.dataset })),
    sources: [...root.querySelectorAll('[data-role="sources"] li')].map((e) => [e.dataset.preset, e.textContent]),
  };
});

/** Asserts what the view shows at `s` is the engine's; returns {want, got}. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const want = engine(request(s));
  assert.equal(want.error, undefined, `${at}: the engine answers (${JSON.stringify(want.error)})`);
  const got = await read(page);
  const d = got.data;

  // Every figure the view draws or words, the engine's.
  const figures = {
    gpus: 'gpus', context: 'context_tokens', batch: 'batch', replicas: 'replicas',
    weightBytes: 'weight_bytes', kvBytes: 'kv_bytes', weightBytesPerGpu: 'weight_bytes_per_gpu', kvBytesPerGpu: 'kv_bytes_per_gpu',
    usedBytesPerGpu: 'used_bytes_per_gpu', usedFraction: 'used_fraction', hbmBytes: 'hbm_bytes', kvRoomBytesPerGpu: 'kv_room_bytes_per_gpu',
    minGpus: 'min_gpus', minGpusWithKv: 'min_gpus_with_kv', minGpusPowerOfTwo: 'min_gpus_power_of_two', maxContextTokens: 'max_context_tokens',
    decodeTimeS: 'decode_time_s', decodeTimeEffectiveS: 'decode_time_effective_s', oneGpuDecodeTimeS: 'one_gpu_decode_time_s',
    oneGpuDecodeTimeEffectiveS: 'one_gpu_decode_time_effective_s', speedup: 'speedup', hbmEfficiency: 'hbm_efficiency',
    totalGpus: 'total_gpus', tokensPerS: 'tokens_per_s', tokensPerSEffective: 'tokens_per_s_effective',
    trafficBytesBetweenReplicas: 'traffic_bytes_between_replicas',
  };
  for (const [attr, key] of Object.entries(figures)) assert.equal(Number(d[attr]), want[key], `${at}: ${attr} against ${key}`);
  assert.deepEqual([d.model, d.gpu, Number(d.hbmBps)], [want.model.id, want.gpu.id, want.gpu.hbm_Bps], at);
  assert.deepEqual([d.fits, d.weightsFit, d.oneGpuFits], [want.fits, want.weights_fit, want.one_gpu_fits].map(String), at);
  // The table: each row the engine's figure under its field.
  assert.ok(got.table.length >= 17, at);
  for (const [key, value] of got.table) assert.equal(value, String(want[key]), `${at}: table ${key}`);
  assert.equal(got.table.some(([key]) => key === 'decode_time_s'), want.gpus > 1, `${at}: the n-GPU rows only for more than one GPU`);

  // The verdicts agree with the bytes, and pick the sentence and facts.
  const { hbm_bytes: hbm } = want;
  assert.equal(want.fits, want.used_bytes_per_gpu <= hbm, `${at}: fits, ${want.used_bytes_per_gpu} of ${hbm}`);
  assert.equal(want.weights_fit, want.weight_bytes_per_gpu <= hbm, `${at}: weights fit, ${want.weight_bytes_per_gpu} of ${hbm}`);
  assert.equal(want.one_gpu_fits, want.weight_bytes + want.kv_bytes <= hbm, at);
  const state = want.fits ? 'fits' : want.weights_fit ? 'kv' : 'weights';
  assert.deepEqual([d.state, got.sentence.state, got.sentence.fits], [state, state, String(want.fits)], at);
  // "The weights alone need {min} GPUs" / "It takes {minKv} GPUs, or at most {maxContext} tokens".
  if (state === 'weights') assert.ok(want.min_gpus > want.gpus, `${at}: weights need ${want.min_gpus} GPUs`);
  if (state === 'kv') assert.ok(want.min_gpus_with_kv > want.gpus && want.max_context_tokens < want.context_tokens, `${at}: ${want.min_gpus_with_kv} GPUs, ${want.max_context_tokens} tokens`);
  if (want.fits) assert.ok(want.min_gpus_with_kv <= want.gpus && want.max_context_tokens >= want.context_tokens, `${at}: fits on ${want.gpus}, needs ${want.min_gpus_with_kv}`);
  const p2 = want.min_gpus_power_of_two;
  assert.ok(p2 >= want.min_gpus_with_kv && p2 / 2 < want.min_gpus_with_kv && Number.isInteger(Math.log2(p2)), `${at}: ${p2} the least power of two from ${want.min_gpus_with_kv}`);
  assert.deepEqual(got.facts.map((f) => f.fact), ['min-gpus', 'kv-room', 'max-context'], at);
  assert.equal(got.facts[1].says, want.weights_fit ? 'room' : 'short', `${at}: room for KV, by the engine's weights_fit`);

  // One bar a GPU (at most 16 drawn): weights and KV at their share of the taller of the bar and
  // the memory line; outlined as over exactly when it does not fit.
  assert.equal(got.bars.length, Math.min(want.gpus, MAX_DRAWN_GPUS), at);
  const top = Math.max(want.used_bytes_per_gpu, hbm);
  const share = (b) => (b / top) * 100;
  assert.equal(got.line.bytes, hbm, at);
  assert.ok(Math.abs(got.line.bottom - share(hbm)) <= BAR_ROUNDING, `${at}: the memory line at ${got.line.bottom}%`);
  for (const b of got.bars) {
    assert.deepEqual([b.used, b.weights, b.kv, b.over], [want.used_bytes_per_gpu, want.weight_bytes_per_gpu, want.kv_bytes_per_gpu, !want.fits], `${at}: GPU ${b.gpu}`);
    assert.ok(Math.abs(b.weightsHeight - share(b.weights)) <= BAR_ROUNDING && Math.abs(b.kvHeight - share(b.kv)) <= BAR_ROUNDING, `${at}: GPU ${b.gpu} drawn ${b.weightsHeight}% + ${b.kvHeight}%`);
    // The stack reaches above the line exactly when it does not fit (beyond the drawing's rounding).
    const stack = b.weightsHeight + b.kvHeight;
    if (Math.abs(stack - got.line.bottom) > 2 * BAR_ROUNDING) assert.equal(stack > got.line.bottom, !want.fits, `${at}: a stack of ${stack}% against the line at ${got.line.bottom}%`);
  }

  // Batch-1 decode: one GPU, then n (drawn once when n is 1), nominal then effective, the engine's
  // times; bars at a share of the longest, in the order of their times; "does not fit" by the engine.
  const rows = [
    ['one', 'nominal', want.one_gpu_decode_time_s, want.one_gpu_fits], ['one', 'effective', want.one_gpu_decode_time_effective_s, want.one_gpu_fits],
    ...(want.gpus === 1 ? [] : [['n', 'nominal', want.decode_time_s, want.fits], ['n', 'effective', want.decode_time_effective_s, want.fits]]),
  ];
  assert.deepEqual(got.rows.map((r) => [r.gpus, r.bandwidth, Number(r.timeS), r.fits === 'true']), rows, at);
  const longest = Math.max(...rows.map((r) => r[2]));
  got.rows.forEach((r) => assert.ok(Math.abs(r.width - (Number(r.timeS) / longest) * 100) <= BAR_ROUNDING, `${at}: ${r.gpus} ${r.bandwidth} drawn at ${r.width}%`));
  for (const x of got.rows) for (const y of got.rows) if (Number(x.timeS) > Number(y.timeS)) assert.ok(x.width >= y.width, `${at}: ${x.gpus} ${x.bandwidth} drawn shorter than ${y.gpus} ${y.bandwidth}`);
  assert.ok(Math.abs(want.speedup - want.one_gpu_decode_time_s / want.decode_time_s) <= 1e-12 * want.speedup, `${at}: speed-up ${want.speedup}`);
  assert.deepEqual(got.decodeNote, { role: 'decode-note', gpus: want.gpus === 1 ? 'one' : 'n', oneGpuFits: String(want.one_gpu_fits), moe: String(want.model.experts > 0) }, at);

  // Replicas (§6.1): the sentence's number and the note that a replica does not fit.
  assert.deepEqual([got.replicas.replicas, got.replicas.fits], [want.replicas > 1 ? 'many' : 'one', String(want.fits)], at);
  assert.equal(want.total_gpus, want.replicas * want.gpus, at);

  // The choices and sources: the engine's presets.
  for (const m of got.models) {
    const p = PRESETS.models.find((x) => x.id === m.id);
    assert.deepEqual([Number(m.weightBytes), Number(m.bytesPerParam)], [p.weight_bytes, p.bytes_per_param], `${at}: ${m.id}`);
  }
  for (const g of got.gpus) {
    const p = PRESETS.gpus.find((x) => x.id === g.id);
    assert.deepEqual([Number(g.hbmBytes), Number(g.hbmBps)], [p.hbm_bytes, p.hbm_Bps], `${at}: ${g.id}`);
  }
  assert.deepEqual(got.models.map((m) => m.id), PRESETS.models.map((m) => m.id), at);
  assert.deepEqual(got.sources, [want.model.id, want.gpu.id].map((id) => [id, PRESETS.sources[id]]), `${at}: the presets' published sources`);
  return { want, got };
}
