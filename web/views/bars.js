// Horizontal bars comparing an exercise's times (all-reduce algorithms, hierarchical vs flat, KV
// transfer paths). Bar lengths are the engine's values scaled to the longest one.

import { h } from '../util/dom.js';
import { prettyUnits } from '../util/units.js';

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
