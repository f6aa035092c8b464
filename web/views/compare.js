// The comparison table of parallelisms (`?view=compare`, P5 §6.6, §6.1-§6.5): for a chosen model and
// node, each parallelism's traffic a step, its pattern, its time on the node's NVLink and on its NIC,
// against the compute it runs beside, and where it belongs: every figure and the placement are the
// engine's `parallelisms` op (core/parallel/compare.cpp); the page draws its rows.

import { h } from '../util/dom.js';
import { compareStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

// The engine's limits (its errors name them): tp, ep 1-4096, ring devices 1-1024, tokens 1-1e8;
// pipeline stages at most the model's layers (one layer a stage at the finest).
const LIMITS = { tp: [1, 4096], ep: [1, 4096], cp: [1, 1024], tokens: [1, 1e8] };

export const ROWS = ['dp', 'tp', 'sp', 'pp', 'ep', 'cp'];
const ROW_SECTIONS = { dp: '6.1', tp: '6.2', sp: '6.2', pp: '6.3', ep: '6.4', cp: '6.5' };

/** A share as a percentage ("80.5%"). Presentation only. */
const percent = (x) => `${Number((x * 100).toPrecision(3))}%`;

// The engine's placement words as the page's keys (the i18n `belongs` table).
const BELONGS = { anywhere: 'anywhere', none: 'none', no_experts: 'noExperts', nvlink_domain: 'nvlink', across_nodes: 'cross' };

/**
 * The rows of the engine's `parallelisms` answer as the page draws them: each {id, bytes, messages,
 * time_s: {nvlink, nic}, compute_s, share: {nvlink, nic} or null, belongs, raw (the engine's
 * per-message figures)}. Renaming only.
 */
export function compareRows(answer) {
  return answer.rows.map((r) => ({
    id: r.id, bytes: r.bytes_per_gpu_step, messages: r.messages_per_step, time_s: { nvlink: r.intra_time_s, nic: r.nic_time_s },
    compute_s: r.compute_time_s ?? null, share: r.intra_share === undefined ? null : { nvlink: r.intra_share, nic: r.nic_share },
    belongs: BELONGS[r.belongs_on] ?? r.belongs_on,
    raw: r.pattern === 'none' ? {} : { messageBytes: r.message_bytes, messageNvlinkS: r.intra_message_time_s, messageNicS: r.nic_message_time_s, hiddenNic: r.hidden_on_nic },
  }));
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
  const rule = h('p', { class: 'note compare-rule', 'data-role': 'rule' });
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
    sentences, rule);

  let presets = null;
  const picked = () => presets.models.find((m) => m.id === model.value);

  const sayWrong = () => {
    const limits = { ...LIMITS, pp: [1, picked().layers] };
    return rangeProblem(Object.entries({ tokens, tp, pp, ep, cp }).map(([k, input]) => (
      { input, range: limits[k], say: (v, lo, hi) => t.range(k, v, lo, hi) })));
  };

  const turns = settingsRefresh(problem, drawn);
  async function run() {
    const turn = turns.turn();
    if (!presets) {
      const [p] = (await askMany([{ op: 'presets' }], 'compare-presets')) ?? [];
      if (turn.stale) return;
      if (!p || p.error) { turns.say(t.failed); return; }
      presets = p;
      model.replaceChildren(...p.models.map((m) => h('option', { value: m.id, text: m.label })));
      model.value = p.models.some((m) => m.id === 'mixtral_8x7b') ? 'mixtral_8x7b' : p.models[0].id;
      node.replaceChildren(...p.nodes.map((n) => h('option', { value: n.id, text: n.label })));
      node.value = p.nodes.some((n) => n.id === 'dgx_h100') ? 'dgx_h100' : p.nodes[0].id;
    }
    if (!turns.check(sayWrong())) return;
    root.setAttribute('aria-busy', 'true');
    const m = picked();
    const n = presets.nodes.find((x) => x.id === node.value);
    const s = { tokens: Number(tokens.value), tp: Number(tp.value), pp: Number(pp.value), ep: Number(ep.value), cp: Number(cp.value), phase: phase.value };
    const out = await askMany([{ op: 'parallelisms', model: m.id, node: n.id, phase: s.phase, tokens: s.tokens, tp: s.tp, pp: s.pp, ep: s.ep, cp: s.cp }], 'compare');
    if (turn.stale) return;
    root.removeAttribute('aria-busy');
    const answer = out?.[0];
    if (!answer || answer.error) {
      turns.say(answer?.error ? t.refused(answer.error.message) : t.failed);
      return;
    }
    rule.textContent = t.rule(percent(answer.cross_share));
    Object.assign(root.dataset, { model: m.id, node: n.id, phase: s.phase, tokens: String(s.tokens), tp: String(s.tp), pp: String(s.pp), ep: String(s.ep), cp: String(s.cp), nvlink: n.intra_link, nic: n.nic_link, nodeGpus: String(n.gpus), crossShare: String(answer.cross_share) });
    draw(compareRows(answer), { m, n, s });
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
    if (times.length) box.append(h('div', { class: 'compare-axis', 'aria-hidden': 'true', dataset: { fromS: String(10 ** lo), toS: String(10 ** hi) } }, [h('span', { text: formatTime(10 ** lo) }), h('span', { text: t.logAxis }), h('span', { text: formatTime(10 ** hi) })]));
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
    // The lecture's combination puts TP inside a node: offered only when TP fits in one.
    if (row('tp').belongs === 'nvlink' && s.tp <= n.gpus && row('pp').belongs === 'cross') list.push({ key: 'combine', text: t.combine(s.tp, s.pp) });
    return list;
  }

  for (const c of [tokens, tp, pp, ep, cp]) c.addEventListener('input', run);
  for (const c of [model, node, phase]) c.addEventListener('change', run);
  const ready = run();
  return { root, ready };
}
