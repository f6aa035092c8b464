// Compute and communication overlapping (P5 §7.1, §7.4): the engine's chunked-overlap and
// two-batch-overlap timelines for a compute time, a communication time, a chunk count and a
// per-chunk alpha picked here.

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { timeline } from './gantt.js';

export function createOverlap(lang, key = 'overlap') {
  const t = viewStrings(lang);
  const s = { compute_ms: 1, comm_ms: 1, chunks: 8, alpha_us: 10 };
  const field = (id, label, attrs) => {
    const input = h('input', { id: `ov-${id}`, type: 'number', 'data-overlap': id, ...attrs });
    input.value = String(s[id]);
    input.addEventListener('input', () => {
      const v = Number(input.value);
      if (!(v >= Number(attrs.min)) || !(v <= Number(attrs.max))) return;
      s[id] = id === 'chunks' ? Math.round(v) : v;
      run();
    });
    return h('div', { class: 'param' }, [h('label', { for: `ov-${id}`, text: label }), input]);
  };
  const box = h('div');
  const root = h('section', { class: 'overlap-view', 'aria-labelledby': 'ov-title' }, [
    h('h3', { id: 'ov-title', text: t.overlapTitle }),
    h('div', { class: 'params explore-params' }, [
      field('compute_ms', t.computeMs, { min: '0', max: '10000', step: 'any' }),
      field('comm_ms', t.commMs, { min: '0', max: '10000', step: 'any' }),
      field('chunks', t.chunks, { min: '1', max: '256', step: '1' }),
      field('alpha_us', t.alphaPerChunk, { min: '0', max: '10000', step: 'any' }),
    ]),
    box,
  ]);
  let asked = 0;
  async function run() {
    const mine = ++asked;
    const base = { op: 'overlap', compute_s: s.compute_ms / 1e3, comm_s: s.comm_ms / 1e3 };
    const out = await askMany([
      { ...base, kind: 'chunked', chunks: s.chunks, alpha_per_chunk_s: s.alpha_us / 1e6 },
      { ...base, kind: 'two_batch' },
    ], key);
    if (!out || mine !== asked) return;
    const err = out.find((r) => r.error);
    if (err) { box.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: err.error.message })); return; }
    const figure = (res, title, caption, kind) => timeline(lang, {
      title, caption,
      rows: [{ label: t.compute }, { label: t.communication }],
      bars: res.intervals.map((e) => ({ row: e.stream === 'comm' ? 1 : 0, start: e.start_s, end: e.end_s, cls: e.stream === 'comm' ? 'transfer' : 'mb0', title: `${e.stream === 'comm' ? t.communication : t.compute} ${e.index + 1}` })),
      legend: [{ cls: 'mb0', label: t.compute }, { cls: 'transfer', label: t.communication }],
      note: t.overlapNote({
        serial: formatTime(res.serial_s), total: formatTime(res.total_s), exposed: formatTime(res.exposed_comm_s),
        outcome: res.outcome, speedup: Number(res.speedup.toPrecision(3)), slowdown: Number(res.slowdown.toPrecision(3)),
      }),
      data: { lecture: kind === 'two_batch' ? '7.4' : '7.1' },
    });
    box.replaceChildren(
      figure(out[0], t.chunkedTitle(s.chunks), t.chunkedCaption, 'chunked'),
      figure(out[1], t.twoBatchTitle, t.twoBatchCaption, 'two_batch'),
    );
  }
  run();
  return { root };
}
