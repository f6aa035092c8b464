// Timelines (Gantt charts) from the engine's intervals: one row per stage or stream, a time axis
// with ticks at round values, a legend, and the intervals as a table for screen readers. The
// intervals and their times are the engine's; the page only places them.

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { formatTime } from '../util/units.js';

const SVG = 'http://www.w3.org/2000/svg';
function svg(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

/** Round tick values over [a, b]: steps of 1, 2 or 5 times a power of ten, about `n` of them. */
function ticks(a, b, n = 6) {
  const raw = (b - a) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/**
 * One timeline panel as SVG: rows [{label}], bars [{row, start, end, cls, title, lane}], the time
 * window [from, to] (a zoom shows part of the whole), and an optional bracket {from, to, label}
 * over the rows (the engine's interval, placed at the engine's times). A bar on lane 'sub' is a
 * thin strip at the foot of its row, so a transfer shows beside the compute that follows it.
 */
function panel(t, rows, bars, from, to, title, bracket) {
  // On phones the drawing is as wide as the screen leaves it (the card's margins off), so its
  // 11 px text is drawn at about 11 px, not scaled down.
  const screen = globalThis.innerWidth ?? 1280;
  const W = screen < 600 ? Math.max(280, screen - 48) : 720;
  // Room for the longest row label (11 px text, about 6.5 px a character; CJK wider).
  const chars = Math.max(...rows.map((r) => [...r.label].reduce((n, c) => n + (c.charCodeAt(0) > 0x2e80 ? 1.8 : 1), 0)));
  const left = Math.min(240, Math.max(70, 16 + 6.5 * chars));
  const right = 12;
  const row = 22;
  const top = bracket ? 26 : 6;
  const H = top + rows.length * row + 34;
  const x = (v) => left + ((v - from) / (to - from)) * (W - left - right);
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'gantt', role: 'img', 'aria-label': title });
  rows.forEach((r, i) => {
    s.append(svg('text', { x: left - 6, y: top + i * row + 15, 'text-anchor': 'end', class: 'row-label' }, r.label));
    s.append(svg('line', { x1: left, x2: W - right, y1: top + (i + 1) * row, y2: top + (i + 1) * row, class: 'row-line' }));
  });
  const lanes = bars.some((o) => o.lane === 'sub');
  for (const b of bars) {
    if (b.end < from || b.start > to) continue;
    const x0 = x(Math.max(from, b.start));
    const x1 = x(Math.min(to, b.end));
    const sub = b.lane === 'sub';
    const y = top + b.row * row + (sub ? row - 7 : 3);
    const rect = svg('rect', { x: x0, y, width: Math.max(0.8, x1 - x0 - 0.5), height: sub ? 5 : row - (lanes ? 11 : 6), class: `bar ${b.cls}` });
    if (b.title) rect.append(svg('title', {}, b.title));
    s.append(rect);
  }
  if (bracket && bracket.to > from && bracket.from < to) {
    const a = x(Math.max(from, bracket.from));
    const b = x(Math.min(to, bracket.to));
    const g = svg('g', { class: 'bracket', 'data-role': 'interval-bracket' });
    g.append(svg('path', { d: `M${a} ${top + rows.length * row}V${top - 14}H${b}V${top + rows.length * row}` }));
    g.append(svg('text', { x: (a + b) / 2, y: top - 17, 'text-anchor': 'middle' }, bracket.label));
    s.append(g);
  }
  const axisY = top + rows.length * row;
  const scale = to - from >= 1 ? [1, 's'] : to - from >= 1e-3 ? [1e-3, 'ms'] : [1e-6, 'µs'];
  s.append(svg('line', { x1: left, x2: W - right, y1: axisY, y2: axisY, class: 'axis-line' }));
  const marks = ticks(from, to);
  const step = marks.length > 1 ? marks[1] - marks[0] : to - from;
  const decimals = Math.max(0, -Math.floor(Math.log10(step / scale[0]) + 1e-9));
  for (const v of marks) {
    const tx = x(v);
    s.append(svg('line', { x1: tx, x2: tx, y1: axisY, y2: axisY + 4, class: 'axis-line' }));
    s.append(svg('text', { x: tx, y: axisY + 15, 'text-anchor': 'middle', class: 'tick' }, (v / scale[0]).toFixed(decimals)));
  }
  s.append(svg('text', { x: W - right, y: axisY + 30, 'text-anchor': 'end', class: 'axis-title' }, `${t.timeAxis} (${scale[1]})`));
  return s;
}

/**
 * A timeline figure: {title, caption, rows, bars, legend: [{cls, label}], note, zoom?: {from, to,
 * title}, bracket?: {from, to, label}, data?: {dataset key: value}} — the zoom is a second panel on
 * part of the time axis (a broken axis for a short tail); `data` becomes the figure's hooks
 * (data-lecture, data-interval-s, ...).
 */
export function timeline(lang, spec) {
  const t = viewStrings(lang);
  const end = Math.max(...spec.bars.map((b) => b.end));
  const fig = h('figure', { class: 'timeline-view', dataset: { view: 'timeline' } });
  fig.append(h('figcaption', {}, [h('strong', { text: `${spec.title}. ` }), spec.caption]));
  for (const [k, v] of Object.entries(spec.data ?? {})) fig.dataset[k] = String(v);
  fig.append(h('div', { class: 'gantt-box' }, panel(t, spec.rows, spec.bars, 0, end, spec.title, spec.bracket)));
  if (spec.zoom) {
    fig.append(h('p', { class: 'chart-note', text: spec.zoom.title }));
    fig.append(h('div', { class: 'gantt-box' }, panel(t, spec.rows, spec.bars, spec.zoom.from, spec.zoom.to, spec.zoom.title)));
  }
  fig.append(h('p', { class: 'player-legend' }, spec.legend.map((l) => h('span', { class: `key gkey ${l.cls}`, text: l.label }))));
  if (spec.note) fig.append(h('p', { class: 'chart-note', 'data-role': 'timeline-note', text: spec.note }));
  const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.timelineTable })]);
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colRow, t.colWhat, t.colStart, t.colEnd].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, spec.bars.slice(0, 300).map((b) => h('tr', {}, [
        h('td', { text: spec.rows[b.row].label }), h('td', { text: b.title ?? '' }),
        h('td', { text: formatTime(b.start) }), h('td', { text: formatTime(b.end) }),
      ]))),
    ]));
  });
  fig.append(details);
  return fig;
}
