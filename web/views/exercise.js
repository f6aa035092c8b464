// The pictures beside an exercise's calculator, fed by the engine at the calculator's
// parameters: 1 bandwidth fraction with a link picker, 2 the ring player, 3 the crossover chart
// and the player of a chosen algorithm, 4 the hierarchical schedule beside a flat ring. The card
// shows them only where it shows the calculator's results (the masking rule).

import { h } from '../util/dom.js';
import { viewProblem, viewStrings } from '../util/i18n.js';
import { createPlayer } from './player.js';
import { timeline } from './gantt.js';
import { askMany } from '../engine/door.js';
import { formatTime } from '../util/units.js';
import { createBandwidth, createCrossover, createRingAttention } from './chart.js';

// Exercise 3 asks about these four (exercises/03.json "best"): its chart and player offer no other,
// so the chart's fastest is the calculator's.
const ALGOS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree'];

function select(label, values, names, value) {
  const s = h('select', { 'aria-label': label }, values.map((v) => h('option', { value: v, text: names[v] ?? v })));
  s.value = value;
  return h('label', { class: 'view-pick' }, [h('span', { text: `${label} ` }), s]);
}

/** The visual of exercise `id`, or null: {root, update(params)}. */
export function exerciseVisual(id, lang) {
  const t = viewStrings(lang);
  const root = h('div', { class: 'visual', dataset: { visualOf: String(id) } });
  if (id === 1) {
    const chart = createBandwidth(lang, `ex${id}-bandwidth`);
    root.append(chart.root);
    return { root, update: (p) => chart.update({ alpha_s: p.alpha_s, beta_Bps: p.beta_Bps, bytes: p.bytes }) };
  }
  if (id === 2) {
    const player = createPlayer(lang, { key: `ex${id}-player` });
    root.append(player.root);
    return {
      root,
      update: (p) => player.update({ algorithm: 'ring', devices: p.devices, bytes: p.bytes, link: { alpha_s: p.alpha_s, beta_Bps: p.beta_Bps }, topology: 'switch' }),
    };
  }
  if (id === 3) {
    const chart = createCrossover(lang, `ex${id}-crossover`);
    const player = createPlayer(lang, { key: `ex${id}-player` });
    const pick = select(t.algorithm, ALGOS, t.algorithms, 'rabenseifner');
    let last = null;
    const play = () => last && player.update({ algorithm: pick.lastChild.value, devices: last.devices, bytes: last.bytes, link: { alpha_s: last.alpha_s, beta_Bps: last.beta_Bps }, topology: 'switch' });
    pick.lastChild.addEventListener('change', play);
    root.append(chart.root, pick, player.root);
    return {
      root,
      update: (p) => {
        last = p;
        const link = { alpha_s: p.alpha_s, beta_Bps: p.beta_Bps };
        return Promise.all([chart.update({ devices: p.devices, link, bytes: p.bytes, algorithms: ALGOS }), play()]);
      },
    };
  }
  if (id === 4) {
    const hier = createPlayer(lang, { key: `ex${id}-hier` });
    const flat = createPlayer(lang, { key: `ex${id}-flat`, heading: false });
    root.append(h('h4', { text: t.algorithms.hierarchical }), hier.root, h('h4', { text: `${t.algorithms.ring} (${t.topologies.two_level})` }), flat.root);
    return {
      root,
      update: (p) => {
        const s = { nodes: p.nodes, gpus_per_node: p.gpus_per_node, bytes: p.bytes, intra_link: p.intra_link, inter_link: p.inter_link, topology: 'two_level' };
        return Promise.all([hier.update({ ...s, algorithm: 'hierarchical' }), flat.update({ ...s, algorithm: 'ring' })]);
      },
    };
  }
  if (id === 5) {
    // TP prefill (P5 §7.2): one layer's compute and its two all-reduces, in turn and in four
    // chunks that overlap, from the engine's `overlap` op at the calculator's parameters.
    const box = h('div');
    root.append(box);
    let asked = 0;
    return {
      root,
      update: async (p, solved) => {
        const mine = ++asked;
        // The statement's model as the exercise's solver shapes it (its layers and hidden size,
        // Llama-3's proportions), so the layer drawn is the one the worked solution computes.
        const v = solved?.values ?? {};
        const model = { id: 'llama3_70b', hidden: p.hidden, activation_bytes: p.bytes_per_value, layers: p.layers };
        for (const k of ['ffn', 'q_heads', 'kv_heads', 'head_dim']) if (Number.isInteger(v[k])) model[k] = v[k];
        const base = { op: 'overlap', kind: 'tp_prefill', tokens: p.tokens, tp: p.tp, link: p.link, model };
        const out = await askMany([{ ...base, chunks: 1 }, { ...base, chunks: 4 }], `ex${id}-overlap`);
        if (!out || mine !== asked) return;
        const err = out.find((r) => r.error);
        if (err) { box.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: viewProblem(lang, err.error) })); return; }
        const [one, four] = out;
        const rows = [{ label: `${t.inTurn}: ${t.compute}` }, { label: `${t.inTurn}: ${t.allreduces}` }, { label: `${t.inChunks(4)}: ${t.compute}` }, { label: `${t.inChunks(4)}: ${t.allreduces}` }];
        const bars = [];
        for (const [k, res] of [[0, one], [2, four]]) {
          for (const e of res.intervals) bars.push({ row: k + (e.stream === 'comm' ? 1 : 0), start: e.start_s, end: e.end_s, cls: e.stream === 'comm' ? 'transfer' : 'mb0', title: `${e.stream === 'comm' ? t.allreduces : t.compute} ${e.index + 1}` });
        }
        box.replaceChildren(timeline(lang, {
          title: t.tpTitle, caption: t.tpCaption, rows, bars,
          legend: [{ cls: 'mb0', label: t.compute }, { cls: 'transfer', label: t.allreduces }],
          note: t.tpNote(formatTime(one.total_s), formatTime(four.total_s), formatTime(Math.abs(four.model_saved_s)), four.layers, four.model_outcome),
          data: { lecture: '7.2' },
        }));
      },
    };
  }
  if (id === 6) {
    // Pipeline decode (P5 §6.3): the engine's timeline for a micro-batch count picked here, three
    // tokens of each micro-batch: the fill, then the steady state the engine computes (its
    // interval bracketed between micro-batch 1's token ends, both the engine's).
    const range = h('input', { type: 'range', min: '1', max: '16', step: '1', value: '0', 'data-role': 'microbatches', 'aria-label': t.microbatches });
    const shown = h('output', { class: 'unit' });
    const box = h('div');
    let last = null;
    let chosen = null;
    let asked = 0;
    const TOKENS = 3;
    // The timeline op holds at most 20,000 intervals (stages x micro-batches x tokens).
    const most = (stages) => Math.max(2, Math.min(Math.max(16, 2 * stages), Math.floor(20000 / (TOKENS * stages))));
    const draw = async () => {
      const mine = ++asked;
      const p = last;
      if (chosen > most(p.stages)) chosen = most(p.stages);
      const req = { op: 'pipeline', stages: p.stages, stage_time_s: p.stage_time_s, transfer_time_s: p.transfer_time_s, tokens: TOKENS, timeline_tokens: TOKENS };
      if (chosen) req.microbatches = chosen;
      const [out] = (await askMany([req], `ex${id}-pipeline`)) ?? [];
      if (!out || mine !== asked) return;
      if (out.error) { box.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: viewProblem(lang, out.error) })); return; }
      range.max = String(most(p.stages));
      range.value = String(out.microbatches);
      range.setAttribute('aria-valuetext', t.microbatchCount(out.microbatches));
      shown.textContent = String(out.microbatches);
      const bars = out.timeline.filter((e) => e.stage < 64).map((e) => ({
        row: e.stage, start: e.start_s, end: e.end_s,
        cls: e.kind === 'transfer' ? 'transfer' : `mb${e.microbatch % 8}`, lane: e.kind === 'transfer' ? 'sub' : 'main',
        title: `${e.kind === 'transfer' ? t.stageLink(e.stage) : t.stageName(e.stage)} · ${e.kind === 'transfer' ? t.transfer : t.compute} · ${t.microbatchName(e.microbatch)} · ${t.tokenName(e.token)}`,
      }));
      const ends = out.microbatch0_token_ends_s;
      const legend = Array.from({ length: Math.min(8, out.microbatches) }, (_, c) => ({ cls: `mb${c}`, label: t.microbatchColour(c, out.microbatches) }));
      legend.push({ cls: 'transfer', label: t.transferBetween });
      box.replaceChildren(timeline(lang, {
        title: t.pipelineTitle, caption: t.pipelineCaption,
        rows: Array.from({ length: Math.min(64, p.stages) }, (_, i) => ({ label: t.stageName(i) })), bars,
        legend,
        bracket: ends.length >= 2 ? { from: ends[ends.length - 2], to: ends[ends.length - 1], label: t.steadyBracket(formatTime(out.steady_interval_s)) } : null,
        note: t.pipelineNote({
          m: out.microbatches, interval: formatTime(out.steady_interval_s), busy: Math.round(out.steady_utilisation * 100),
          fill: out.microbatches_to_fill, bound: out.steady_bound, trip: formatTime(out.trip_s),
          rate: Number(out.steady_tokens_per_s.toPrecision(3)).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en'),
        }),
        data: { lecture: '6.3', intervalS: out.steady_interval_s, utilisation: out.steady_utilisation, microbatches: out.microbatches },
      }));
    };
    range.addEventListener('input', () => { chosen = Number(range.value); if (last) draw(); });
    root.append(h('label', { class: 'view-pick' }, [h('span', { text: `${t.microbatches} ` }), range, shown]), box);
    return { root, update: (p) => { last = p; return draw(); } };
  }
  if (id === 8) {
    // Layer-by-layer KV transfer (P5 §7.3): 80 layers of compute with each layer's KV sent behind
    // it; a second panel on the end of the axis shows the exposed tail.
    const box = h('div');
    root.append(box);
    let asked = 0;
    return {
      root,
      update: async (p) => {
        const mine = ++asked;
        const [out] = (await askMany([{ op: 'kv_transfer', tokens: p.prompt_tokens, nics: p.nics, link: p.link }], `ex${id}-kv`)) ?? [];
        if (!out || mine !== asked) return;
        if (out.error) { box.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: viewProblem(lang, out.error) })); return; }
        const tl = out.timeline;
        const rows = [{ label: t.compute }, { label: t.transfer }];
        const bars = tl.intervals.map((e) => ({ row: e.stream === 'comm' ? 1 : 0, start: e.start_s, end: e.end_s, cls: e.stream === 'comm' ? 'transfer' : 'mb0', title: `${t.layerName(e.index)} · ${e.stream === 'comm' ? t.transfer : t.compute}` }));
        box.replaceChildren(timeline(lang, {
          title: t.kvTitle, caption: t.kvCaption, rows, bars,
          legend: [{ cls: 'mb0', label: t.compute }, { cls: 'transfer', label: t.transfer }],
          zoom: { from: tl.compute_end_s - 2 * tl.exposed_comm_s, to: tl.total_s, title: t.kvZoom(formatTime(tl.exposed_comm_s)) },
          note: t.kvNote(formatTime(tl.compute_end_s), formatTime(tl.total_s), formatTime(tl.exposed_comm_s)),
          data: { lecture: '7.3' },
        }));
      },
    };
  }
  if (id === 7) {
    const chart = createRingAttention(lang, `ex${id}-ring-attention`);
    root.append(chart.root);
    return { root, update: (p) => chart.update({ devices: p.devices, link: p.link, prompt_tokens: p.prompt_tokens }) };
  }
  return null;
}
