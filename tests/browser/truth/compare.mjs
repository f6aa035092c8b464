// The parallelisms side by side (?view=compare, P5 §6.6) held against the engine: every row of the
// parallelisms answer (bytes, messages, time on the node's NVLink and on its NIC, compute, shares,
// one message's figures, where it belongs), each also what the parallelism's own op says (tp,
// transfer, moe, ring_attention on the same settings and links); "belongs on" against the rule
// and the numbers; the bars on their log axis in the order of their times; and the sentences the
// rows pick (who moves the most, what stays inside, what may cross, TP wider than the node, the
// lecture's combination) against the rows' figures.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { intIn, logInt, pick, pow2In } from './walk.mjs';

const VIEW = '[data-view="compare"]';
const PRESETS = engine({ op: 'presets' });
export const ROWS = ['dp', 'tp', 'sp', 'pp', 'ep', 'cp'];
// The engine's placement words as the view's keys (compare.js BELONGS).
const BELONGS = { anywhere: 'anywhere', none: 'none', no_experts: 'noExperts', nvlink_domain: 'nvlink', across_nodes: 'cross' };
const BAR_ROUNDING = 0.0051; // bars are drawn to 0.01 % of the axis
const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

const modelOf = (id) => PRESETS.models.find((m) => m.id === id);
const nodeOf = (id) => PRESETS.nodes.find((n) => n.id === id);

/** The engine's parallelisms request of the view at `s`. */
export const request = (s) => ({ op: 'parallelisms', model: s.model, node: s.node, phase: s.phase, tokens: s.tokens, tp: s.tp, pp: s.pp, ep: s.ep, cp: s.cp });

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `${VIEW}[data-model="${s.model}"][data-node="${s.node}"][data-phase="${s.phase}"][data-tokens="${s.tokens}"][data-tp="${s.tp}"][data-pp="${s.pp}"][data-ep="${s.ep}"][data-cp="${s.cp}"]`
  + ':not([aria-busy]) [data-role="drawn"]:not([hidden])', { timeout: 20000 });

export const first = { model: 'mixtral_8x7b', node: 'dgx_h100', phase: 'decode', tokens: 64, tp: 8, pp: 2, ep: 8, cp: 8 };

const rowOf = (answer, id) => answer.rows.find((r) => r.id === id);

/** The tokens at which the TP row's NIC time comes to a tenth of its compute (where it flips), or null. */
function tpFlipTokens(s) {
  const over = (tokens) => {
    const r = rowOf(engine(request({ ...s, tokens, pp: 1, cp: 1 })), 'tp');
    return r.nic_time_s > 0.1 * r.compute_time_s;
  };
  let [lo, hi] = [1, 1e8];
  if (over(lo) === over(hi)) return null;
  const start = over(lo);
  while (hi - lo > 1) {
    const mid = Math.floor(Math.sqrt(lo * hi));
    const m = mid > lo && mid < hi ? mid : Math.floor((lo + hi) / 2);
    if (over(m) === start) lo = m; else hi = m;
  }
  return [lo, hi];
}

/**
 * Settings drawn from the view's domain: any preset on either node, decode or prefill, 1-1e8 tokens
 * (log scale; the lecture's sizes now and then, and at the batch where TP's NIC time crosses a tenth
 * of its compute); TP 1-4,096 (powers of two often, the node's width and twice it); 1 to the
 * model's layers of pipeline stages (and where the stage boundaries' NIC time crosses a tenth of
 * the compute); EP among the divisors of a MoE model's experts (1-4,096 for a dense one, which
 * ignores it); CP 1-1,024 (and where a ring step's compute comes to cover the NIC's transfer).
 */
export function draw(rng, options) {
  const model = pick(rng, options.model);
  const node = pick(rng, options.node);
  const phase = pick(rng, options.phase);
  const m = modelOf(model);
  const n = nodeOf(node);
  const t = rng();
  const tp = t < 0.4 ? pow2In(rng, 1, 64) : t < 0.55 ? pick(rng, [1, n.gpus, 2 * n.gpus, 4096]) : logInt(rng, 1, 4096);
  let tokens = rng() < 0.2 ? pick(rng, [1, 64, 4096, 32768, 131072, 1e8]) : logInt(rng, 1, 1e8);
  if (tp > 1 && rng() < 0.3) {
    const flip = tpFlipTokens({ model, node, phase, tp, ep: 1 });
    if (flip) tokens = pick(rng, flip);
  }
  const divisors = Array.from({ length: m.experts }, (_, i) => i + 1).filter((d) => m.experts % d === 0);
  const ep = m.experts > 0 ? (rng() < 0.2 ? pick(rng, [1, divisors.at(-1)]) : pick(rng, divisors)) : logInt(rng, 1, 4096);
  const base = { model, node, phase, tokens, tp: 1, pp: 2, ep, cp: 2 };
  const p = rng();
  let pp = p < 0.25 ? pick(rng, [1, 2, m.layers]) : intIn(rng, 1, m.layers);
  if (p > 0.6) {
    // (pp - 1) NIC hops against a tenth of the whole model's compute.
    const r = rowOf(engine(request(base)), 'pp');
    const x = Math.floor((0.1 * r.compute_time_s) / r.nic_message_time_s) + 1 + (rng() < 0.5 ? 0 : 1);
    if (x >= 2 && x <= m.layers) pp = x;
  }
  const c = rng();
  let cp = c < 0.2 ? 1 : c < 0.45 ? pow2In(rng, 2, 1024) : logInt(rng, 1, 1024);
  if (c > 0.7) {
    // Tokens a device at the NIC's threshold, α included: the ring's KV hides above it.
    const threshold = engine({ op: 'ring_attention', model, gpu: n.gpu, link: n.nic_link, devices: 2, prompt_tokens: 2 }).threshold_with_alpha_tokens;
    const at = Math.round((tokens / threshold) * Math.exp((rng() - 0.5) * 0.6));
    if (at >= 1 && at <= 1024) cp = at;
  }
  return { model, node, phase, tokens: Math.max(1, Math.min(1e8, tokens)), tp, pp, ep, cp };
}

/**
 * What each row must show, from each parallelism's own op for the same settings on the node's
 * NVLink and on its NIC (tp, transfer, moe, ring_attention), by the rule the view states.
 */
export function expected(s) {
  const m = modelOf(s.model);
  const n = nodeOf(s.node);
  const share = engine(request(s)).cross_share;
  const both = (r) => [n.intra_link, n.nic_link].map((link) => engine({ ...r, link }));
  const base = { model: m.id, gpu: n.gpu, tokens: s.tokens, phase: s.phase };
  const rows = { dp: { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'anywhere' } };
  const [tpN, tpI] = both({ op: 'tp', ...base, tp: s.tp });
  for (const id of ['tp', 'sp']) {
    const bytes = id === 'tp' ? tpN.bytes_sent_per_gpu : tpN.sequence_parallel.bytes_sent_per_gpu;
    rows[id] = bytes === 0 ? { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'none' } : {
      bytes, messages: tpN.allreduces, nvlinkTimeS: tpN.comm_time_s, nicTimeS: tpI.comm_time_s, computeS: tpN.compute_time_s,
      shareNvlink: tpN.comm_to_compute, shareNic: tpI.comm_to_compute, belongs: tpI.comm_time_s > share * tpN.compute_time_s ? 'nvlink' : 'cross',
    };
  }
  if (s.pp === 1) rows.pp = { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'none' };
  else {
    // The activation a stage boundary sends is the engine's own activation size (tp allreduce_bytes).
    const [a, b] = both({ op: 'transfer', bytes: tpN.allreduce_bytes });
    const whole = engine({ op: 'tp', ...base, tp: 1, link: n.intra_link }).compute_time_s;
    rows.pp = { bytes: a.bytes, messages: s.pp - 1, messageNvlinkS: a.time_s, messageNicS: b.time_s, nvlinkTimeS: (s.pp - 1) * a.time_s, nicTimeS: (s.pp - 1) * b.time_s, computeS: whole,
      belongs: (s.pp - 1) * b.time_s > share * whole ? 'nvlink' : 'cross' };
  }
  if (m.experts === 0) rows.ep = { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'noExperts' };
  else {
    const [a, b] = both({ op: 'moe', model: m.id, ep: s.ep, batch_tokens: s.tokens });
    const compute = engine({ op: 'tp', ...base, tp: s.ep, link: n.intra_link }).compute_time_s;
    rows.ep = a.bytes_per_gpu_step === 0 ? { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'none' } : {
      bytes: a.bytes_per_gpu_step, messages: a.alltoalls_per_step, messageBytes: a.dispatch_bytes_per_gpu_layer, messageNvlinkS: a.alltoall_time_s, messageNicS: b.alltoall_time_s,
      nvlinkTimeS: a.step_time_s, nicTimeS: b.step_time_s, computeS: compute, belongs: b.step_time_s > share * compute ? 'nvlink' : 'cross' };
  }
  if (s.cp === 1) rows.cp = { bytes: 0, nvlinkTimeS: 0, nicTimeS: 0, belongs: 'none' };
  else {
    const [a, b] = both({ op: 'ring_attention', model: m.id, gpu: n.gpu, devices: s.cp, prompt_tokens: s.tokens });
    const sends = m.layers * (s.cp - 1);
    rows.cp = { bytes: sends * a.tokens_per_device * a.kv_bytes_per_token, messages: sends, messageNvlinkS: a.transfer_time_s, messageNicS: b.transfer_time_s,
      nvlinkTimeS: sends * a.transfer_time_s, nicTimeS: sends * b.transfer_time_s, computeS: m.layers * s.cp * a.compute_time_s,
      hiddenNic: String(b.hidden_with_alpha), belongs: b.hidden_with_alpha ? 'cross' : 'nvlink' };
  }
  return rows;
}

/** What the view shows in figures and cases, in one trip to the page. */
const read = (page) => page.locator(VIEW).evaluate((root) => ({
  data: { ...root.dataset },
  rows: [...root.querySelectorAll('.compare-table tbody tr')].map((e) => ({ ...e.dataset })),
  lanes: [...root.querySelectorAll('.compare-bar-row')].map((e) => ({
    row: e.dataset.row,
    lanes: [...e.querySelectorAll('.compare-lane')].map((l) => ({ link: l.dataset.link, timeS: Number(l.dataset.timeS), width: parseFloat(l.querySelector('.compare-bar').style.width) })),
  })),
  axis: root.querySelector('.compare-axis') ? { ...root.querySelector('.compare-axis').dataset } : null,
  says: [...root.querySelectorAll('[data-role="sentences"] li')].map((e) => e.dataset.says),
}));

/** The sentences the rows pick (compare.js said), from the engine's rows and the node. */
function sentences(answer, s, n) {
  const moving = answer.rows.filter((r) => r.bytes_per_gpu_step > 0);
  if (!moving.length) return ['nothing'];
  const most = Math.max(...moving.map((r) => r.bytes_per_gpu_step));
  const list = [`most-${moving.find((r) => r.bytes_per_gpu_step === most).id}`];
  if (moving.some((r) => r.belongs_on === 'nvlink_domain')) list.push('inside');
  if (moving.some((r) => r.belongs_on === 'across_nodes')) list.push('cross');
  const tp = rowOf(answer, 'tp').belongs_on;
  // TP wider than the node cannot stay inside it: said, and the lecture's combination not offered.
  if (tp === 'nvlink_domain' && s.tp > n.gpus) list.push('tp-wider');
  if (tp === 'nvlink_domain' && s.tp <= n.gpus && rowOf(answer, 'pp').belongs_on === 'across_nodes') list.push('combine');
  return list;
}

/** Asserts what the view shows at `s` is the engine's; returns {answer, want} (the engine's answer, the rows from each op). */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const answer = engine(request(s));
  assert.equal(answer.error, undefined, `${at}: the engine answers (${JSON.stringify(answer.error)})`);
  const n = nodeOf(s.node);
  const got = await read(page);
  const d = got.data;
  assert.deepEqual([d.nvlink, d.nic, Number(d.nodeGpus), Number(d.crossShare)], [answer.node.intra_link, answer.node.nic_link, answer.node.gpus, answer.cross_share], at);
  assert.deepEqual([answer.node.gpus, answer.node.intra_link, answer.node.nic_link], [n.gpus, n.intra_link, n.nic_link], `${at}: the node is the preset's`);

  // The table: each row the engine's figures and placement, in the engine's order.
  assert.deepEqual(got.rows.map((r) => r.row), answer.rows.map((r) => r.id), at);
  assert.deepEqual(answer.rows.map((r) => r.id), ROWS, at);
  answer.rows.forEach((r, i) => {
    const g = got.rows[i];
    const want = {
      bytes: String(r.bytes_per_gpu_step), messages: String(r.messages_per_step), nvlinkTimeS: String(r.intra_time_s), nicTimeS: String(r.nic_time_s),
      computeS: r.compute_time_s === undefined ? '' : String(r.compute_time_s),
      shareNvlink: r.intra_share === undefined ? '' : String(r.intra_share), shareNic: r.nic_share === undefined ? '' : String(r.nic_share),
      belongs: BELONGS[r.belongs_on],
      ...(r.pattern === 'none' ? {} : { messageBytes: String(r.message_bytes), messageNvlinkS: String(r.intra_message_time_s), messageNicS: String(r.nic_message_time_s), hiddenNic: String(r.hidden_on_nic) }),
    };
    for (const [k, v] of Object.entries(want)) assert.equal(g[k], v, `${at}: ${r.id} ${k}`);
    // Where it belongs, by the rule the view states, from the row's own numbers.
    const place = r.bytes_per_gpu_step === 0 ? null : r.id === 'cp' ? (r.hidden_on_nic ? 'across_nodes' : 'nvlink_domain')
      : r.nic_time_s > answer.cross_share * r.compute_time_s ? 'nvlink_domain' : 'across_nodes';
    if (place) assert.equal(r.belongs_on, place, `${at}: ${r.id} NIC ${r.nic_time_s} s against compute ${r.compute_time_s} s`);
    else assert.equal(r.nic_time_s + r.intra_time_s, 0, `${at}: ${r.id} sends nothing, takes no time`);
  });
  // Each row is also what its parallelism's own op says for the same settings.
  const want = expected(s);
  for (const [id, w] of Object.entries(want)) {
    const g = got.rows.find((r) => r.row === id);
    for (const [k, v] of Object.entries(w)) {
      if (typeof v === 'number') assert.ok(close(Number(g[k]), v), `${at}: ${id} ${k}: page ${g[k]}, its own op ${v}`);
      else assert.equal(g[k], v, `${at}: ${id} ${k}`);
    }
  }

  // The bars: one NVLink and one NIC lane a row at its time, on one log axis, in the order of the times.
  assert.deepEqual(got.lanes.map((r) => [r.row, ...r.lanes.map((l) => l.link)]), ROWS.map((id) => [id, 'nvlink', 'nic']), at);
  const lanes = got.lanes.flatMap((r) => r.lanes.map((l) => ({ ...l, row: r.row })));
  lanes.forEach((l) => {
    const r = rowOf(answer, l.row);
    assert.equal(l.timeS, l.link === 'nvlink' ? r.intra_time_s : r.nic_time_s, `${at}: ${l.row} ${l.link} bar`);
  });
  const shownTimes = lanes.map((l) => l.timeS).filter((x) => x > 0);
  if (shownTimes.length) {
    const [from, to] = [Number(got.axis.fromS), Number(got.axis.toS)];
    assert.ok(from <= Math.min(...shownTimes) && Math.max(...shownTimes) <= to * (1 + 1e-12), `${at}: times ${Math.min(...shownTimes)}-${Math.max(...shownTimes)} on an axis ${from}-${to}`);
    const [lo, hi] = [Math.log10(from), Math.log10(to)];
    for (const l of lanes) assert.ok(Math.abs(l.width - (l.timeS > 0 ? ((Math.log10(l.timeS) - lo) / (hi - lo)) * 100 : 0)) <= BAR_ROUNDING + 1e-9, `${at}: ${l.row} ${l.link} drawn at ${l.width}% for ${l.timeS} s`);
  } else assert.equal(got.axis, null, `${at}: no axis when nothing is sent`);
  for (const x of lanes) for (const y of lanes) if (x.timeS > y.timeS) assert.ok(x.width >= y.width, `${at}: ${x.row} ${x.link} (${x.timeS} s) drawn shorter than ${y.row} ${y.link} (${y.timeS} s)`);

  // The sentences, from the rows' figures.
  assert.deepEqual(got.says, sentences(answer, s, n), `${at}: the sentences`);
  return { answer, want };
}
