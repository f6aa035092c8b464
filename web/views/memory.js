// Why several GPUs (`?view=memory`, P5 §1 and §6.1): a model's weights and KV cache against one
// GPU's memory, split over n GPUs; how many GPUs the weights need; batch-1 decode's lower bound
// on 1 and n GPUs (nominal and effective bandwidth, both labelled); and replicas (§6.1): more
// throughput, all the weights in each, no traffic between them. Every figure is the engine's
// `memory` op's; the page draws shares of the engine's values and words the engine's verdicts.

import { h } from '../util/dom.js';
import { memoryStrings } from '../util/section_strings.js';
import { viewStrings } from '../util/i18n.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblems, settingsRefresh } from './settings_check.js';
import { sourcesNote } from './sources.js';

// The controls' ranges: the engine's memory op accepts gpus 1-4,096, context_tokens 0-1e8,
// batch 1-1e6, replicas 1-100,000.
export const MEMORY_RANGES = Object.freeze({
  gpus: { min: 1, max: 4096 },
  context: { min: 0, max: 100000000 },
  batch: { min: 1, max: 1000000 },
  replicas: { min: 1, max: 100000 },
});
// At most this many GPUs are drawn: every GPU of the split holds the same.
const MAX_DRAWN_GPUS = 16;

const ratio = (x) => String(Number(x.toPrecision(3)));
const percent = (x) => `${Number((x * 100).toPrecision(3))}%`;
const count = (x) => Number(x).toLocaleString('en');
const rate = (bps) => `${formatBytes(bps)}/s`;

export function createMemory(lang) {
  const t = memoryStrings(lang);
  const s = { model: 'llama3_70b', gpu: 'h100', gpus: 1, context: 8192, batch: 1, replicas: 1 };
  const root = h('section', { class: 'memory card', dataset: { view: 'memory', lecture: '1' }, 'aria-labelledby': 'memory-title' });
  const pickModel = h('select', { id: 'memory-model', 'data-setting': 'model' });
  const pickGpu = h('select', { id: 'memory-gpu', 'data-setting': 'gpu' });
  const number = (key, step = '1') => h('input', {
    id: `memory-in-${key}`, type: 'number', min: String(MEMORY_RANGES[key].min), max: String(MEMORY_RANGES[key].max),
    step, value: String(s[key]), 'data-setting': key,
  });
  const inputs = { gpus: number('gpus'), context: number('context'), batch: number('batch'), replicas: number('replicas') };
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const sentence = h('p', { class: 'memory-sentence', 'data-role': 'fits-sentence', 'aria-live': 'polite' });
  const bars = h('div', { class: 'memory-bars', 'data-role': 'gpus', role: 'img' });
  const barsNote = h('p', { class: 'note', 'data-role': 'gpus-note' });
  const facts = h('ul', { class: 'memory-facts', 'data-role': 'facts' });
  const decode = h('div', { class: 'memory-decode', 'data-role': 'decode' });
  const decodeNote = h('p', { class: 'note', 'data-role': 'decode-note' });
  const sourcesBox = h('div');
  const replicaSentence = h('p', { class: 'memory-sentence', 'data-role': 'replicas-sentence' });
  const replicaFacts = h('ul', { class: 'memory-facts', 'data-role': 'replica-facts' });
  const tableBox = h('div');
  const drawn = h('div', { 'data-role': 'drawn' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  root.append(
    h('h2', { id: 'memory-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, pickModel, 'memory-model'), field(t.gpu, pickGpu, 'memory-gpu'),
      field(t.gpus, inputs.gpus, 'memory-in-gpus'), field(t.context, inputs.context, 'memory-in-context'),
      field(t.batch, inputs.batch, 'memory-in-batch'), field(t.replicas, inputs.replicas, 'memory-in-replicas'),
    ]),
    problem,
    drawn,
  );
  drawn.append(
    sentence,
    h('figure', { class: 'memory-figure' }, [h('figcaption', { text: t.barsCaption }), bars, barsNote]),
    facts,
    h('figure', { class: 'memory-figure', id: 'memory-decode' }, [h('figcaption', { text: t.decodeCaption }), decode, decodeNote]),
    h('div', { class: 'memory-replicas', id: 'memory-replicas', dataset: { lecture: '6.1' } }, [
      h('h3', { text: t.replicasTitle }), replicaSentence, replicaFacts,
    ]),
    tableBox,
    sourcesBox,
  );

  let filled = false;
  const turns = settingsRefresh(problem, drawn);
  async function run() {
    const fields = Object.entries(inputs).map(([key, input]) => ({ input, range: MEMORY_RANGES[key], say: (v) => t.range(key, v) }));
    const turn = turns.begin(rangeProblems(fields).join(' '));
    if (!turn) return;
    for (const [key, input] of Object.entries(inputs)) s[key] = Number(input.value);
    root.setAttribute('aria-busy', 'true');
    const answers = await askMany([
      { op: 'memory', model: s.model, gpu: s.gpu, gpus: s.gpus, context_tokens: s.context, batch: s.batch, replicas: s.replicas },
      { op: 'presets' },
    ], 'memory');
    // null: a later change superseded this request (the door's key), and that one draws.
    if (turn.stale || !answers) return;
    const [out, presets] = answers;
    root.removeAttribute('aria-busy');
    if (out?.error || presets?.error) {
      turns.say(t.failed);
      return;
    }
    if (!filled) fill(presets);
    draw(out);
    sourcesBox.replaceChildren(sourcesNote(viewStrings(lang).presetSources, presets, [out.model.id, out.gpu.id]));
  }

  function fill(presets) {
    filled = true;
    pickModel.replaceChildren(...presets.models.map((m) => h('option', { value: m.id, dataset: { weightBytes: String(m.weight_bytes), bytesPerParam: String(m.bytes_per_param) }, text: t.modelOption(m.label, formatBytes(m.weight_bytes), m.bytes_per_param) })));
    pickGpu.replaceChildren(...presets.gpus.map((g) => h('option', { value: g.id, dataset: { hbmBytes: String(g.hbm_bytes), hbmBps: String(g.hbm_Bps) }, text: t.gpuOption(g.label, formatBytes(g.hbm_bytes), rate(g.hbm_Bps)) })));
    pickModel.value = s.model;
    pickGpu.value = s.gpu;
  }

  function draw(out) {
    // Which sentence: the engine's verdicts (weights alone, then weights and KV).
    const state = out.fits ? 'fits' : out.weights_fit ? 'kv' : 'weights';
    Object.assign(root.dataset, {
      model: out.model.id, gpu: out.gpu.id, gpus: String(out.gpus), context: String(out.context_tokens),
      batch: String(out.batch), replicas: String(out.replicas), fits: String(out.fits), weightsFit: String(out.weights_fit), state,
      weightBytesPerGpu: String(out.weight_bytes_per_gpu), kvBytesPerGpu: String(out.kv_bytes_per_gpu),
      usedBytesPerGpu: String(out.used_bytes_per_gpu), hbmBytes: String(out.hbm_bytes),
      kvRoomBytesPerGpu: String(out.kv_room_bytes_per_gpu), minGpus: String(out.min_gpus), minGpusWithKv: String(out.min_gpus_with_kv),
      maxContextTokens: String(out.max_context_tokens), decodeTimeS: String(out.decode_time_s),
      decodeTimeEffectiveS: String(out.decode_time_effective_s), oneGpuDecodeTimeS: String(out.one_gpu_decode_time_s),
      oneGpuDecodeTimeEffectiveS: String(out.one_gpu_decode_time_effective_s), totalGpus: String(out.total_gpus),
      tokensPerS: String(out.tokens_per_s), tokensPerSEffective: String(out.tokens_per_s_effective),
      trafficBytesBetweenReplicas: String(out.traffic_bytes_between_replicas),
      weightBytes: String(out.weight_bytes), kvBytes: String(out.kv_bytes), usedFraction: String(out.used_fraction),
      minGpusPowerOfTwo: String(out.min_gpus_power_of_two), hbmBps: String(out.gpu.hbm_Bps), hbmEfficiency: String(out.hbm_efficiency),
      speedup: String(out.speedup), oneGpuFits: String(out.one_gpu_fits),
    });
    const w = {
      model: out.model.label, gpu: out.gpu.label, n: out.gpus, weights: formatBytes(out.weight_bytes),
      weightsGpu: formatBytes(out.weight_bytes_per_gpu), kvGpu: formatBytes(out.kv_bytes_per_gpu), kv: formatBytes(out.kv_bytes),
      used: formatBytes(out.used_bytes_per_gpu), hbm: formatBytes(out.hbm_bytes), share: percent(out.used_fraction),
      min: count(out.min_gpus), minKv: count(out.min_gpus_with_kv), tp: count(out.min_gpus_power_of_two), maxContext: count(out.max_context_tokens), batch: count(out.batch),
      room: formatBytes(Math.abs(out.kv_room_bytes_per_gpu)),
      nominal: rate(out.gpu.hbm_Bps), eff: percent(out.hbm_efficiency),
      decode: formatTime(out.decode_time_s), decodeEff: formatTime(out.decode_time_effective_s),
      one: formatTime(out.one_gpu_decode_time_s), oneEff: formatTime(out.one_gpu_decode_time_effective_s), speedup: ratio(out.speedup),
      replicas: count(out.replicas), total: count(out.total_gpus), tps: ratio(out.tokens_per_s), tpsEff: ratio(out.tokens_per_s_effective),
      traffic: formatBytes(out.traffic_bytes_between_replicas),
    };
    sentence.dataset.state = state;
    sentence.dataset.fits = String(out.fits);
    sentence.textContent = t.fits[state](w);

    // One stacked bar a GPU: weights (blue) and KV (orange) against the GPU's memory (the line).
    const top = Math.max(out.used_bytes_per_gpu, out.hbm_bytes);
    const pct = (b) => `${((b / top) * 100).toFixed(2)}%`;
    const shown = Math.min(out.gpus, MAX_DRAWN_GPUS);
    const line = h('span', { class: 'memory-line', 'data-role': 'hbm-line', dataset: { hbmBytes: String(out.hbm_bytes) } }, h('span', { text: t.line(w.hbm) }));
    line.style.bottom = pct(out.hbm_bytes);
    bars.setAttribute('aria-label', t.barsLabel(w));
    bars.replaceChildren(line, ...Array.from({ length: shown }, (_, i) => {
      const weights = h('span', { class: 'memory-weights', dataset: { bytes: String(out.weight_bytes_per_gpu) } });
      weights.style.height = pct(out.weight_bytes_per_gpu);
      const kv = h('span', { class: 'memory-kv', dataset: { bytes: String(out.kv_bytes_per_gpu) } });
      kv.style.height = pct(out.kv_bytes_per_gpu);
      return h('span', { class: `memory-bar${out.fits ? '' : ' memory-over'}`, dataset: { gpu: String(i), usedBytes: String(out.used_bytes_per_gpu) }, title: t.gpuBar(i, w) }, [kv, weights]);
    }));
    barsNote.textContent = [t.legend, shown < out.gpus ? t.drawnOf(shown, count(out.gpus)) : ''].filter(Boolean).join(t.sep);

    // Room for KV, or none: the engine's weights_fit.
    facts.replaceChildren(...[
      ['min-gpus', t.factMin(w)],
      ['kv-room', out.weights_fit ? t.factRoom(w) : t.factShort(w), out.weights_fit ? 'room' : 'short'],
      ['max-context', t.factContext(w)],
    ].map(([k, text, says]) => h('li', { dataset: { fact: k, ...(says ? { says } : {}) }, text })));

    // Batch-1 decode: one GPU against n, nominal and effective bandwidth (P5 §1, §5.7).
    const longest = Math.max(out.one_gpu_decode_time_effective_s, out.decode_time_effective_s);
    const rows = [
      ['one', 'nominal', out.one_gpu_decode_time_s, t.rowOne(w.nominal), !out.one_gpu_fits],
      ['one', 'effective', out.one_gpu_decode_time_effective_s, t.rowOneEff(w.eff), !out.one_gpu_fits],
      // One GPU chosen: its rows are the n rows, drawn once.
      ...(out.gpus === 1 ? [] : [
        ['n', 'nominal', out.decode_time_s, t.rowN(out.gpus, w.nominal), !out.fits],
        ['n', 'effective', out.decode_time_effective_s, t.rowNEff(out.gpus, w.eff), !out.fits],
      ]),
    ];
    decode.replaceChildren(...rows.map(([gpus, bw, time, label, over]) => {
      const bar = h('span', { class: `bar memory-${bw}` });
      bar.style.width = `${((time / longest) * 100).toFixed(2)}%`;
      return h('div', { class: 'memory-row', dataset: { gpus, bandwidth: bw, timeS: String(time), fits: String(!over) } }, [
        h('span', { class: 'memory-row-label', text: label }),
        h('span', { class: 'memory-track' }, bar),
        h('span', { class: 'memory-value', text: over ? t.valueOver(formatTime(time)) : formatTime(time) }),
      ]);
    }));
    Object.assign(decodeNote.dataset, { gpus: out.gpus === 1 ? 'one' : 'n', oneGpuFits: String(out.one_gpu_fits), moe: String(out.model.experts > 0) });
    decodeNote.textContent = [out.gpus === 1 ? t.decodeNoteOne(w) : t.decodeNote(w), out.one_gpu_fits ? '' : t.oneDoesNotFit(w), out.model.experts > 0 ? t.moeNote(w) : ''].filter(Boolean).join(t.sep);

    // Replicas (§6.1).
    const plural = out.replicas > 1 ? 'many' : 'one';
    replicaSentence.dataset.replicas = plural;
    replicaSentence.dataset.fits = String(out.fits);
    replicaSentence.textContent = [t.replicasSentence[plural](w), out.fits ? '' : t.replicasOver(w)].filter(Boolean).join(t.sep);
    replicaFacts.replaceChildren(...[
      ['throughput', t.factThroughput(w)],
      ['traffic', t.factTraffic(w)],
      ['each-holds', t.factEachHolds(w)],
    ].map(([k, text]) => h('li', { dataset: { fact: k }, text })));
    tableBox.replaceChildren(dataTable(out, w));
  }

  function dataTable(out, w) {
    const rows = [
      ['weight_bytes', t.colWeights, w.weights],
      ['weight_bytes_per_gpu', t.colWeightsGpu, w.weightsGpu],
      ['kv_bytes', t.colKv, w.kv],
      ['kv_bytes_per_gpu', t.colKvGpu, w.kvGpu],
      ['used_bytes_per_gpu', t.colUsed, `${w.used} (${w.share})`],
      ['hbm_bytes', t.colHbm, w.hbm],
      ['fits', t.colFits, out.fits ? t.yes : t.no],
      ['kv_room_bytes_per_gpu', t.colRoom, formatBytes(out.kv_room_bytes_per_gpu)],
      ['min_gpus', t.colMin, w.min],
      ['min_gpus_with_kv', t.colMinKv, w.minKv],
      ['min_gpus_power_of_two', t.colMinTp, w.tp],
      ['max_context_tokens', t.colContext, w.maxContext],
      ['one_gpu_decode_time_s', t.rowOne(w.nominal), w.one],
      ['one_gpu_decode_time_effective_s', t.rowOneEff(w.eff), w.oneEff],
      ...(out.gpus === 1 ? [] : [
        ['decode_time_s', t.rowN(out.gpus, w.nominal), w.decode],
        ['decode_time_effective_s', t.rowNEff(out.gpus, w.eff), w.decodeEff],
      ]),
      ['total_gpus', t.colTotal, w.total],
      ['tokens_per_s', t.colTps(w.nominal), w.tps],
      ['tokens_per_s_effective', t.colTps(w.eff), w.tpsEff],
      ['traffic_bytes_between_replicas', t.colTraffic, w.traffic],
    ];
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    details.append(h('table', {}, [
      h('caption', { text: t.tableCaption }),
      h('thead', {}, h('tr', {}, [t.colQuantity, t.colValue].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows.map(([key, label, text]) => h('tr', { dataset: { field: key } }, [
        h('th', { scope: 'row', text: label }),
        h('td', { dataset: { value: String(out[key]) }, text }),
      ]))),
    ]));
    return details;
  }

  pickModel.addEventListener('change', () => { s.model = pickModel.value; run(); });
  pickGpu.addEventListener('change', () => { s.gpu = pickGpu.value; run(); });
  for (const input of Object.values(inputs)) input.addEventListener('input', run);
  const ready = run();
  return { root, ready };
}
