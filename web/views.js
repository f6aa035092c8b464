// Richer calculator views drawn from engine responses: bars comparing an exercise's times
// (all-reduce algorithms, hierarchical vs flat, KV transfer paths). Bar lengths are the engine's
// values scaled to the longest one; no figure is computed here.

import { h } from './dom.js';
import { ask } from './engine.js';
import { pick, strings } from './i18n.js';
import { prettyUnits } from './units.js';

/** Horizontal bars for rows [{label, value, text, best}], lengths relative to the largest. */
export function bars(rows, caption) {
  const max = Math.max(...rows.map((r) => r.value));
  const figure = h('figure', { class: 'bars' });
  figure.append(h('figcaption', { text: caption }));
  const list = h('ul');
  for (const r of rows) {
    const li = h('li', { class: r.best ? 'best' : null });
    li.append(h('span', { class: 'bar-label', text: r.label }));
    const track = h('span', { class: 'bar-track' });
    const fill = h('span', { class: 'bar-fill' });
    // CSSOM, not a style attribute: allowed under style-src 'self'.
    fill.style.setProperty('--w', String(max > 0 ? r.value / max : 0));
    track.append(fill);
    li.append(track, h('span', { class: 'bar-value', text: prettyUnits(r.text) }));
    list.append(li);
  }
  figure.append(list);
  return figure;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The engine's pipeline timeline (P5 §6.3) as a chart: one row per stage, blocks per micro-batch. */
function pipelineView(params, res, lang) {
  const t = strings(lang);
  if (!(params.stages <= 32)) return null;
  const out = ask({
    op: 'pipeline', stages: params.stages, stage_time_s: params.stage_time_s,
    transfer_time_s: params.transfer_time_s, microbatches: res.answers.microbatches, tokens: 2,
  });
  if (out.error || !Array.isArray(out.timeline)) return null;
  const W = 600;
  const row = 14;
  const H = params.stages * row + 18;
  const end = Math.max(...out.timeline.map((e) => e.end_s));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'timeline' });
  chart.append(Object.assign(svg('title'), { textContent: t.timelineTitle(params.stages, res.answers.microbatches) }));
  for (const e of out.timeline) {
    if (e.kind !== 'compute') continue;
    const rect = svg('rect', {
      x: (e.start_s / end) * W, y: e.stage * row + 1, width: Math.max(1, ((e.end_s - e.start_s) / end) * W - 1),
      height: row - 2, class: `mb mb${e.microbatch % 8}${e.token ? ' later' : ''}`,
    });
    rect.append(Object.assign(svg('title'), { textContent: `stage ${e.stage}, micro-batch ${e.microbatch}, token ${e.token}` }));
    chart.append(rect);
  }
  const axis = svg('text', { x: 0, y: H - 4, class: 'axis' });
  axis.textContent = t.timelineAxis(prettyUnits(res.display.token_interval));
  chart.append(axis);
  const figure = h('figure', { class: 'pipeline' });
  figure.append(h('figcaption', { text: t.timelineCaption }), chart);
  return figure;
}

/** The extra view of exercise `id` for a solve response, or null. */
export function extraView(id, doc, res, params, lang) {
  if (id === 6 && typeof res.answers?.microbatches === 'number') return pipelineView(params, res, lang);
  const timed = doc.answers.filter((a) => a.dimension === 'time'
    && typeof res.answers?.[a.id] === 'number' && res.display?.[a.id] != null);
  if (timed.length < 2) return null;
  const best = res.answers?.best;
  const fastest = Math.min(...timed.map((a) => res.answers[a.id]));
  const rows = timed.map((a) => ({
    label: pick(a.label, lang),
    value: res.answers[a.id],
    text: res.display[a.id],
    best: best !== undefined ? best === a.id : res.answers[a.id] === fastest,
  }));
  return bars(rows, strings(lang).bars);
}
