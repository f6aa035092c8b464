// The comparison table of parallelisms (`?view=compare`, P5 §6.6, §6.1-§6.5): for a chosen model and
// node, each parallelism's traffic a step, its pattern, its time on the node's NVLink and on its NIC,
// against the compute it runs beside, and where it belongs. Every figure is the engine's, asked in one
// batch (tp, transfer, moe, ring_attention, each on both links); the page only multiplies an engine
// per-message figure by the count of such messages in a step (stated beside each row, P5 §6.3, §6.5).

import { h } from '../util/dom.js';
import { compareStrings } from '../util/i18n.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';

// The engine's limits (its errors name them): tp, ep 1-4096, ring devices 1-1024, tokens 1-1e8;
// pipeline stages at most the model's layers (one layer a stage at the finest).
const LIMITS = { tp: [1, 4096], ep: [1, 4096], cp: [1, 1024], tokens: [1, 1e8] };

// The rule of "belongs on" (P5 §6.2, §6.3, §9 item 5): traffic on the critical path whose time on the
// NIC is more than this share of the step's compute stays inside the NVLink domain; less may cross
// nodes. Ring attention overlaps its KV with the attention itself (§6.5): it may cross when the
// engine says the NIC hides it.
export const CROSS_SHARE = 0.1;

export const ROWS = ['dp', 'tp', 'sp', 'pp', 'ep', 'cp'];
const ROW_SECTIONS = { dp: '6.1', tp: '6.2', sp: '6.2', pp: '6.3', ep: '6.4', cp: '6.5' };

/** A share as a percentage ("80.5%"). Presentation only. */
const percent = (x) => `${Number((x * 100).toPrecision(3))}%`;

/**
 * The rows from the engine's answers: each {id, bytes, messages, time_s: {nvlink, nic}, compute_s,
 * share: {nvlink, nic} (the engine's ratio or null), belongs, raw (the engine's per-message figures)}.
 */
export function compareRows({ model, pp, cp }, ans) {
  const none = (id, why) => ({ id, bytes: 0, messages: 0, time_s: { nvlink: 0, nic: 0 }, compute_s: null, share: null, belongs: why, raw: {} });
  const rows = [none('dp', 'anywhere')];
  // §6.2: 2 all-reduces a layer; sequence parallelism sends the same bytes as reduce-scatter + all-gather.
  for (const id of ['tp', 'sp']) {
    const [a, b] = ans.tp;
    const bytes = id === 'tp' ? a.bytes_sent_per_gpu : a.sequence_parallel.bytes_sent_per_gpu;
    if (bytes === 0) { rows.push(none(id, 'none')); continue; }
    rows.push({
      id, bytes, messages: a.allreduces, time_s: { nvlink: a.comm_time_s, nic: b.comm_time_s }, compute_s: a.compute_time_s,
      share: { nvlink: a.comm_to_compute, nic: b.comm_to_compute }, belongs: b.comm_to_compute > CROSS_SHARE ? 'nvlink' : 'cross',
      raw: { allreduces: a.allreduces },
    });
  }
  // §6.3: each of the pp − 1 stage boundaries sends the activation once a step, one after another.
  if (pp <= 1) rows.push(none('pp', 'none'));
  else {
    const [a, b] = ans.pp;
    const hops = pp - 1;
    const compute = ans.whole.compute_time_s; // the step's compute: every stage in turn, the whole model
    rows.push({
      id: 'pp', bytes: a.bytes, messages: hops, time_s: { nvlink: hops * a.time_s, nic: hops * b.time_s }, compute_s: compute, share: null,
      belongs: hops * b.time_s > CROSS_SHARE * compute ? 'nvlink' : 'cross', raw: { hops, hopNvlinkS: a.time_s, hopNicS: b.time_s },
    });
  }
  // §6.4: 2 all-to-alls a layer (dispatch, combine), only for a model with experts.
  if (model.experts === 0) rows.push(none('ep', 'noExperts'));
  else {
    const [a, b] = ans.ep;
    const compute = ans.epCompute.compute_time_s; // a GPU's 1/ep share of the weights read
    rows.push(a.bytes_per_gpu_step === 0 ? none('ep', 'none') : {
      id: 'ep', bytes: a.bytes_per_gpu_step, messages: a.alltoalls_per_step, time_s: { nvlink: a.step_time_s, nic: b.step_time_s }, compute_s: compute,
      share: null, belongs: b.step_time_s > CROSS_SHARE * compute ? 'nvlink' : 'cross', raw: { alltoalls: a.alltoalls_per_step },
    });
  }
  // §6.5: a layer's KV blocks go round the ring, cp − 1 sends a layer, beside cp blocks of attention.
  if (cp <= 1) rows.push(none('cp', 'none'));
  else {
    const [a, b] = ans.cp;
    const sends = model.layers * (cp - 1);
    rows.push({
      id: 'cp', bytes: sends * a.tokens_per_device * a.kv_bytes_per_token, messages: sends,
      time_s: { nvlink: sends * a.transfer_time_s, nic: sends * b.transfer_time_s }, compute_s: model.layers * cp * a.compute_time_s, share: null,
      belongs: b.hidden ? 'cross' : 'nvlink',
      raw: { sends, tokensPerDevice: a.tokens_per_device, kvBytesPerToken: a.kv_bytes_per_token, ringStepNvlinkS: a.transfer_time_s, ringStepNicS: b.transfer_time_s, ringComputeS: a.compute_time_s, hiddenNic: b.hidden, hiddenNvlink: a.hidden, thresholdNicTokens: b.threshold_tokens },
    });
  }
  return rows;
}

export function createCompareView(lang, links = []) {
  const t = compareStrings(lang);
  const root = h('section', { class: 'compare card', dataset: { view: 'compare', lecture: '6.6' }, 'aria-labelledby': 'compare-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const num = (id, setting, value, [lo, hi]) => h('input', { id, type: 'number', min: String(lo), max: String(hi), step: '1', value, 'data-setting': setting });
  const model = h('select', { id: 'compare-model', 'data-setting': 'model' });
  const node = h('select', { id: 'compare-node', 'data-setting': 'node' });
  const phase = h('select', { id: 'compare-phase', 'data-setting': 'phase' }, ['decode', 'prefill'].map((p) => h('option', { value: p, text: t.phases[p] })));
  const tokens = num('compare-tokens', 'tokens', '64', LIMITS.tokens);
  const tp = num('compare-tp', 'tp', '8', LIMITS.tp);
  const pp = num('compare-pp', 'pp', '2', [1, 4096]);
  const ep = num('compare-ep', 'ep', '8', LIMITS.ep);
  const cp = num('compare-cp', 'cp', '8', LIMITS.cp);
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const summary = h('p', { class: 'compare-summary', 'data-role': 'summary' });
  const tableBox = h('div', { class: 'compare-table-box' });
  const picture = h('div', { class: 'compare-picture', 'data-role': 'picture', role: 'img', 'aria-label': t.pictureLabel });
  const sentences = h('ul', { class: 'compare-sentences', 'data-role': 'sentences' });
  root.append(
    h('h2', { id: 'compare-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, model, 'compare-model'), field(t.node, node, 'compare-node'), field(t.phase, phase, 'compare-phase'), field(t.tokens, tokens, 'compare-tokens'),
      field(t.tp, tp, 'compare-tp'), field(t.pp, pp, 'compare-pp'), field(t.ep, ep, 'compare-ep'), field(t.cp, cp, 'compare-cp'),
    ]),
    problem,
    drawn,
  );
  drawn.append(summary, h('div', { class: 'compare-body' }, [tableBox, h('figure', { class: 'compare-figure' }, [h('figcaption', { text: t.caption }), picture])]),
    sentences, h('p', { class: 'note compare-rule', 'data-role': 'rule', text: t.rule(percent(CROSS_SHARE)) }));

  let presets = null;
  const picked = () => presets.models.find((m) => m.id === model.value);

  function sayWrong() {
    const m = picked();
    const limits = { ...LIMITS, pp: [1, m.layers] };
    for (const [k, input] of [['tokens', tokens], ['tp', tp], ['pp', pp], ['ep', ep], ['cp', cp]]) {
      const v = Number(input.value);
      const [lo, hi] = limits[k];
      if (input.value.trim() === '' || !Number.isInteger(v) || v < lo || v > hi) return t.range(k, input.value, lo, hi);
    }
    return '';
  }

  let asked = 0;
  async function run() {
    const mine = ++asked;
    if (!presets) {
      const [p] = (await askMany([{ op: 'presets' }], 'compare-presets')) ?? [];
      if (mine !== asked) return;
      if (!p || p.error) { problem.hidden = false; problem.textContent = t.failed; drawn.hidden = true; return; }
      presets = p;
      model.replaceChildren(...p.models.map((m) => h('option', { value: m.id, text: m.label })));
      model.value = p.models.some((m) => m.id === 'mixtral_8x7b') ? 'mixtral_8x7b' : p.models[0].id;
      node.replaceChildren(...p.nodes.map((n) => h('option', { value: n.id, text: n.label })));
      node.value = p.nodes.some((n) => n.id === 'dgx_h100') ? 'dgx_h100' : p.nodes[0].id;
    }
    const wrong = sayWrong();
    problem.hidden = !wrong;
    problem.textContent = wrong;
    drawn.hidden = !!wrong;
    if (wrong) return;
    root.setAttribute('aria-busy', 'true');
    const m = picked();
    const n = presets.nodes.find((x) => x.id === node.value);
    const s = { tokens: Number(tokens.value), tp: Number(tp.value), pp: Number(pp.value), ep: Number(ep.value), cp: Number(cp.value), phase: phase.value };
    const pair = [n.intra_link, n.nic_link];
    const requests = [];
    const at = {};
    const add = (key, reqs) => { at[key] = [requests.length, reqs.length]; requests.push(...reqs); };
    const onBoth = (r) => pair.map((link) => ({ ...r, link }));
    add('tp', onBoth({ op: 'tp', model: m.id, gpu: n.gpu, tp: s.tp, tokens: s.tokens, phase: s.phase }));
    add('whole', [{ op: 'tp', model: m.id, gpu: n.gpu, tp: 1, tokens: s.tokens, phase: s.phase, link: n.intra_link }]);
    // §6.3: the activation a boundary sends, tokens × hidden × bytes a value (the engine's tp allreduce_bytes).
    if (s.pp > 1) add('pp', onBoth({ op: 'transfer', bytes: s.tokens * m.hidden * m.activation_bytes }));
    if (m.experts > 0) {
      add('ep', onBoth({ op: 'moe', model: m.id, ep: s.ep, batch_tokens: s.tokens }));
      add('epCompute', [{ op: 'tp', model: m.id, gpu: n.gpu, tp: s.ep, tokens: s.tokens, phase: s.phase, link: n.intra_link }]);
    }
    if (s.cp > 1) add('cp', onBoth({ op: 'ring_attention', model: m.id, gpu: n.gpu, devices: s.cp, prompt_tokens: s.tokens }));
    const out = await askMany(requests, 'compare');
    if (mine !== asked) return;
    root.removeAttribute('aria-busy');
    const bad = !out ? null : out.find((r) => r?.error);
    if (!out || bad) {
      problem.hidden = false;
      problem.textContent = bad ? t.refused(bad.error.message) : t.failed;
      drawn.hidden = true;
      return;
    }
    const ans = {};
    for (const [k, [i, len]] of Object.entries(at)) ans[k] = len === 1 ? out[i] : out.slice(i, i + len);
    Object.assign(root.dataset, { model: m.id, node: n.id, phase: s.phase, tokens: String(s.tokens), tp: String(s.tp), pp: String(s.pp), ep: String(s.ep), cp: String(s.cp), nvlink: n.intra_link, nic: n.nic_link });
    draw(compareRows({ model: m, ...s }, ans), { m, n, s });
  }

  const linkLabel = (id) => links.find((l) => l.id === id)?.label ?? id;

  function draw(rows, { m, n, s }) {
    summary.textContent = t.summary({ model: m.label, node: n.label, gpus: n.gpus, nvlink: linkLabel(n.intra_link), nic: linkLabel(n.nic_link), tokens: s.tokens.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US'), phase: t.phases[s.phase] });
    tableBox.replaceChildren(table(rows, n));
    picture.replaceChildren(bars(rows, n));
    sentences.replaceChildren(...said(rows, s, n).map((x) => h('li', { dataset: { says: x.key } }, x.text)));
  }

  // The engine's ratio where it gives one (tp comm_to_compute); otherwise the compute column beside
  // the time columns shows both numbers.
  const cellShare = (r, which) => (r.share ? percent(r.share[which]) : '—');

  function table(rows, n) {
    const cols = [t.colRow, t.colPattern, t.colBytes, t.colMessages, t.colTime(linkLabel(n.intra_link)), t.colTime(linkLabel(n.nic_link)),
      t.colCompute, t.colShare(linkLabel(n.intra_link)), t.colShare(linkLabel(n.nic_link)), t.colBelongs];
    return h('table', { class: 'compare-table' }, [
      h('caption', { text: t.tableCaption }),
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      // Each row carries the section that describes it (§6.1-§6.5); the data-parallel row is §6.1's link.
      h('tbody', {}, rows.map((r) => h('tr', {
        id: `compare-row-${r.id}`,
        dataset: {
          lecture: ROW_SECTIONS[r.id],
          row: r.id, bytes: String(r.bytes), messages: String(r.messages), nvlinkTimeS: String(r.time_s.nvlink), nicTimeS: String(r.time_s.nic),
          computeS: r.compute_s === null ? '' : String(r.compute_s), shareNvlink: r.share ? String(r.share.nvlink) : '', shareNic: r.share ? String(r.share.nic) : '',
          belongs: r.belongs, ...Object.fromEntries(Object.entries(r.raw).map(([k, v]) => [k, String(v)])),
        },
      }, [
        h('th', { scope: 'row', text: t.rows[r.id] }),
        // data-col: the column's name, shown beside each cell when the phone stacks a row.
        ...[
          t.patterns[r.id], r.bytes === 0 ? t.noTraffic[r.belongs] ?? formatBytes(0) : formatBytes(r.bytes), t.messages(r),
          formatTime(r.time_s.nvlink), formatTime(r.time_s.nic), r.compute_s === null ? '—' : formatTime(r.compute_s),
          cellShare(r, 'nvlink'), cellShare(r, 'nic'),
        ].map((text, i) => h('td', { text, 'data-col': cols[i + 1] })),
        h('td', { class: `compare-belongs compare-${r.belongs}`, text: t.belongs[r.belongs], 'data-col': cols[cols.length - 1] }),
      ]))),
    ]);
  }

  // Time on each link per row on one log axis (decades from the least to the most time shown).
  function bars(rows, n) {
    const times = rows.flatMap((r) => [r.time_s.nvlink, r.time_s.nic]).filter((x) => x > 0);
    const box = h('div', { class: 'compare-bars' });
    // Nothing sent (every degree 1): the rows stay, empty, without an axis.
    const lo = times.length ? Math.ceil(Math.log10(Math.min(...times))) - 1 : 0; // the least time a visible bar
    const hi = times.length ? Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...times)))) : 1;
    const width = (x) => `${x > 0 ? (((Math.log10(x) - lo) / (hi - lo)) * 100).toFixed(2) : 0}%`;
    for (const r of rows) {
      const lane = (which, link) => {
        const bar = h('span', { class: `compare-bar compare-bar-${which}` });
        bar.style.width = width(r.time_s[which]);
        return h('div', { class: 'compare-lane', dataset: { link: which, timeS: String(r.time_s[which]) } }, [
          h('span', { class: 'compare-lane-name', text: linkLabel(link) }), h('span', { class: 'compare-track' }, bar),
          h('span', { class: 'compare-lane-value', text: r.time_s[which] > 0 ? formatTime(r.time_s[which]) : '—' }),
        ]);
      };
      box.append(h('div', { class: 'compare-bar-row', dataset: { row: r.id } }, [h('strong', { text: t.rows[r.id] }), lane('nvlink', n.intra_link), lane('nic', n.nic_link)]));
    }
    if (times.length) box.append(h('div', { class: 'compare-axis', 'aria-hidden': 'true' }, [h('span', { text: formatTime(10 ** lo) }), h('span', { text: t.logAxis }), h('span', { text: formatTime(10 ** hi) })]));
    return box;
  }

  // The sentences, each chosen by the rows' figures.
  function said(rows, s, n) {
    const list = [];
    const moving = rows.filter((r) => r.bytes > 0);
    if (!moving.length) return [{ key: 'nothing', text: t.nothingMoves }];
    const most = moving.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    list.push({ key: `most-${most.id}`, text: t.most({ row: t.rows[most.id], bytes: formatBytes(most.bytes), nic: formatTime(most.time_s.nic), nvlink: formatTime(most.time_s.nvlink) }) });
    const inside = moving.filter((r) => r.belongs === 'nvlink').map((r) => t.rows[r.id]);
    const cross = moving.filter((r) => r.belongs === 'cross').map((r) => t.rows[r.id]);
    if (inside.length) list.push({ key: 'inside', text: t.inside(inside, n.gpus) });
    if (cross.length) list.push({ key: 'cross', text: t.cross(cross) });
    const row = (id) => rows.find((r) => r.id === id);
    if (row('tp').belongs === 'nvlink' && s.tp > n.gpus) list.push({ key: 'tp-wider', text: t.tpWider(s.tp, n.gpus) });
    if (row('tp').belongs === 'nvlink' && row('pp').belongs === 'cross') list.push({ key: 'combine', text: t.combine(s.tp, s.pp) });
    return list;
  }

  for (const c of [tokens, tp, pp, ep, cp]) c.addEventListener('input', run);
  for (const c of [model, node, phase]) c.addEventListener('change', run);
  const ready = run();
  return { root, ready };
}
