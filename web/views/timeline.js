// The engine's pipeline timeline (P5 §6.3) as an SVG chart: one row per stage, blocks per micro-batch.

import { strings } from '../util/i18n.js';
import { ask } from '../engine/door.js';
import { h } from '../util/dom.js';
import { prettyUnits } from '../util/units.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attrs = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The engine's pipeline timeline (P5 §6.3) as a chart: one row per stage, blocks per micro-batch. */
export function pipelineView(params, res, lang) {
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
