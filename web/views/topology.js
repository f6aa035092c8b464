// What NCCL built, from its NCCL_DEBUG=INFO lines (the engine's `nccl.topology` op, core/OPS.md;
// P5 §4-5): the nodes as boxes holding their GPUs, one channel's ring drawn on them (a hop across
// nodes marked with the transport NCCL printed for it), or the channel's tree, and the engine's
// explanation beside: which hops cross nodes, the slowest class of link on the ring, the bus
// bandwidth that bound predicts, and the measured one when the log has an nccl-tests table.
// The page computes nothing: it places what the answer lists and says the engine's figures.
// Each channel's element carries its ring as `data-ring` (rank order, space separated), each
// tree's as `data-tree` ("rank:parent" pairs), so tests read what is drawn.

import { h } from '../util/dom.js';
import { topologyStrings } from '../util/section_strings.js';
import { formatBytes } from '../util/units.js';
import { formatRate } from './measured_data.js';

const SVG = 'http://www.w3.org/2000/svg';
function svg(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  for (const c of [].concat(children)) if (c != null) node.append(c);
  return node;
}

/** Above this many ranks the GPUs are dots without numbers (the compact drawing). */
export const COMPACT_RANKS = 64;
let figures = 0; // marker ids, unique on the page

// Where each rank is drawn: node boxes in a grid, GPUs in rows of at most 8 inside their box,
// with room above and below each row for the hops that bridge over it.
function layout(comm, width_px) {
  const compact = comm.ranks > COMPACT_RANKS;
  const cell = compact ? 7 : 34; // across
  const rowH = compact ? 7 : 26 + 2 * BRIDGE; // down
  const gpu = compact ? 5 : 26;
  const perRow = 8;
  const pad = compact ? 4 : 8;
  const label = compact ? 0 : 14;
  // Ranks on no printed host are one box of their own.
  const seen = new Set(comm.nodes.flatMap((n) => n.ranks));
  const drawnRanks = new Set([...comm.channels.flatMap((c) => c.rebuilt_ring ?? c.ring), ...comm.trees.flatMap((t) => [t.rank, ...t.children])]);
  const loose = [...drawnRanks].filter((r) => r >= 0 && !seen.has(r)).sort((a, b) => a - b);
  const boxes = [...comm.nodes.map((n) => ({ host: n.host, ranks: n.ranks })), ...(loose.length ? [{ host: null, ranks: loose }] : [])];
  const widest = Math.max(1, ...boxes.map((b) => Math.min(perRow, b.ranks.length)));
  const boxW = 2 * pad + widest * cell;
  const gap = compact ? 6 : 16;
  const columns = Math.max(1, Math.min(boxes.length, Math.floor((width_px + gap) / (boxW + gap))));
  const height = (b) => 2 * pad + label + Math.ceil(b.ranks.length / perRow) * rowH;
  const at = new Map(); // rank -> {x, y, box}
  let y = 0;
  const placed = [];
  for (let i = 0; i < boxes.length; i += columns) {
    const row = boxes.slice(i, i + columns);
    row.forEach((b, j) => {
      const x = j * (boxW + gap);
      placed.push({ ...b, x, y, w: boxW, h: height(b), index: i + j });
      b.ranks.forEach((r, k) => at.set(r, { x: x + pad + (k % perRow) * cell + cell / 2, y: y + pad + label + Math.floor(k / perRow) * rowH + rowH / 2, box: i + j }));
    });
    y += Math.max(...row.map(height)) + gap;
  }
  return { compact, cell, gpu, boxes: placed, at, width: columns * (boxW + gap) - gap, height: Math.max(0, y - gap) };
}

const BRIDGE = 18; // the most a hop along a row rises above it (or dips below), in drawing units

// A hop: along a row, a bridge above it (rightwards) or below it (leftwards) from GPU edge to GPU
// edge, so hops never run over the GPUs between; otherwise a curve that bows to one side.
function hopPath(a, b, L) {
  if (!L.compact && a.y === b.y) {
    const up = b.x > a.x ? -1 : 1;
    const e = (L.gpu / 2) * up;
    const rise = Math.min(BRIDGE, 6 + Math.abs(b.x - a.x) * 0.08) * up;
    const y0 = a.y + e;
    return { d: `M${a.x} ${y0}C${a.x} ${y0 + rise * 1.3} ${b.x} ${y0 + rise * 1.3} ${b.x} ${y0}`, mid: { x: (a.x + b.x) / 2, y: y0 + rise } };
  }
  const bow = L.compact ? 0.2 : 0.15;
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const c = { x: mx - dy * bow, y: my + dx * bow };
  const at = (t) => ({ x: (1 - t) ** 2 * a.x + 2 * (1 - t) * t * c.x + t * t * b.x, y: (1 - t) ** 2 * a.y + 2 * (1 - t) * t * c.y + t * t * b.y });
  return { d: `M${a.x} ${a.y}Q${c.x} ${c.y} ${b.x} ${b.y}`, mid: at(0.5), at, steep: Math.abs(dy) > Math.abs(dx) };
}

// The NIC a transport names ("NET/IB/0/GDRDMA" -> "IB/0"), or the transport's first parts.
export function transportLabel(transport) {
  const parts = String(transport).split('/');
  if (parts[0] === 'NET') return parts.slice(1, 3).join('/');
  return parts.slice(0, 2).join('/');
}

/**
 * The topology section of the measured view for the engine's answer `topo`. `state` keeps the
 * reader's choices ({comm, channel, show}) across language switches and resizes.
 */
export function topologySection(topo, lang, state, width_px) {
  const t = topologyStrings(lang);
  const comms = topo.communicators;
  // The largest communicator first: the one a reader came for.
  if (state.comm == null || state.comm >= comms.length) {
    state.comm = comms.reduce((best, c, i) => (c.ranks > comms[best].ranks ? i : best), 0);
  }
  const comm = comms[state.comm];
  const channels = comm.channels.map((c) => c.channel);
  const treeChannels = [...new Set(comm.trees.map((x) => x.channel))];
  const allChannels = [...new Set([...channels, ...treeChannels])].sort((a, b) => a - b);
  if (!allChannels.includes(state.channel)) state.channel = allChannels[0] ?? 0;
  if (state.show !== 'tree' || !treeChannels.length) state.show = channels.length ? 'ring' : 'tree';

  const sec = h('section', { class: 'measured-table measured-topology', 'data-role': 'topology', 'aria-labelledby': 'm-topo-title',
    dataset: { communicators: String(comms.length), comm: String(state.comm), ranks: String(comm.ranks), nodes: String(comm.nodes.length) } });
  sec.append(h('h3', { id: 'm-topo-title', text: t.title }));
  sec.append(h('p', { class: 'note', text: t.intro }));

  // The choices: communicator, channel, ring or tree.
  const pick = h('div', { class: 'measured-pick topo-pick' });
  if (comms.length > 1) {
    const sel = h('select', { id: 'm-topo-comm', 'data-role': 'topo-comm-pick' }, comms.map((c, i) =>
      h('option', { value: String(i), text: t.commOption(i + 1, c.ranks, c.nodes.length, c.comm_id ?? '') })));
    sel.value = String(state.comm);
    sel.addEventListener('change', () => { state.comm = Number(sel.value); state.channel = null; state.redraw(); });
    pick.append(h('div', { class: 'param' }, [h('label', { for: 'm-topo-comm', text: t.commLabel }), sel]));
  }
  const chSel = h('select', { id: 'm-topo-channel', 'data-role': 'topo-channel-pick' }, allChannels.map((c) => h('option', { value: String(c), text: t.channelOption(c) })));
  chSel.value = String(state.channel);
  chSel.addEventListener('change', () => { state.channel = Number(chSel.value); state.redraw(); });
  pick.append(h('div', { class: 'param' }, [h('label', { for: 'm-topo-channel', text: t.channelLabel }), chSel]));
  const show = h('select', { id: 'm-topo-show', 'data-role': 'topo-show-pick' }, [
    channels.length ? h('option', { value: 'ring', text: t.showRing }) : null,
    treeChannels.length ? h('option', { value: 'tree', text: t.showTree }) : null,
  ]);
  show.value = state.show;
  show.addEventListener('change', () => { state.show = show.value; state.redraw(); });
  pick.append(h('div', { class: 'param' }, [h('label', { for: 'm-topo-show', text: t.showLabel }), show]));
  sec.append(pick);

  const body = h('div', { class: 'topo-body' });
  body.append(drawing(comm, state, t, width_px), explanation(comm, topo, state, t, lang));
  sec.append(body);
  return sec;
}

function drawing(comm, state, t, width_px) {
  const L = layout(comm, Math.max(240, width_px));
  const id = `topo-arrow-${++figures}`;
  const margin = L.compact ? 4 : 10;
  const s = svg('svg', {
    viewBox: `${-margin} ${-margin} ${L.width + 2 * margin} ${L.height + 2 * margin}`, class: `topo-svg${L.compact ? ' compact' : ''}`,
    role: 'img', 'aria-label': t.drawingLabel(comm.ranks, comm.nodes.length), width: L.width + 2 * margin,
  });
  s.append(svg('defs', {}, svg('marker', { id, viewBox: '0 0 6 6', refX: 5, refY: 3, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
    svg('path', { d: 'M0 0L6 3L0 6z', fill: '#1f2933' }))));
  for (const b of L.boxes) {
    const g = svg('g', { class: 'topo-node', 'data-host': b.host ?? '', 'data-ranks': b.ranks.join(' ') });
    g.append(svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: L.compact ? 2 : 6, fill: '#f4f6f8', stroke: '#9aa4b1' }));
    if (!L.compact) g.append(svg('text', { x: b.x + 8, y: b.y + 17, class: 'topo-host' }, b.host ?? t.unknownHost));
    else g.append(svg('title', {}, b.host ?? t.unknownHost));
    for (const r of b.ranks) {
      const p = L.at.get(r);
      g.append(svg('rect', { x: p.x - L.gpu / 2, y: p.y - L.gpu / 2, width: L.gpu, height: L.gpu, rx: L.compact ? 1 : 3, fill: '#ffffff', stroke: '#52606d', 'data-rank': r }));
      if (!L.compact) g.append(svg('text', { x: p.x, y: p.y + 4, 'text-anchor': 'middle', class: 'topo-rank' }, String(r)));
    }
    s.append(g);
  }
  // Every channel's element carries its ring; only the chosen one is drawn.
  const transportOf = new Map(comm.connections.filter((k) => k.direction !== 'receive').map((k) => [`${k.channel}:${k.from}:${k.to}`, k.transport]));
  const hostOf = new Map();
  comm.nodes.forEach((n, i) => n.ranks.forEach((r) => hostOf.set(r, i)));
  const cross = (a, b, transport) => (hostOf.has(a) && hostOf.has(b) ? hostOf.get(a) !== hostOf.get(b) : /^NET\//.test(transport ?? ''));
  for (const c of comm.channels) {
    const ring = c.rebuilt_ring ?? c.ring;
    const g = svg('g', { class: 'topo-ring', 'data-channel': c.channel, 'data-ring': ring.join(' '), 'data-complete': String(c.complete || !!c.rebuilt_ring) });
    if (state.show === 'ring' && c.channel === state.channel) {
      const hops = ring.map((r, i) => [r, ring[i + 1]]).filter(([, b]) => b != null);
      if (c.complete || c.rebuilt_ring) hops.push([ring[ring.length - 1], ring[0]]);
      let inside = '';
      for (const [a, b] of hops) {
        const pa = L.at.get(a);
        const pb = L.at.get(b);
        if (!pa || !pb) continue;
        const transport = transportOf.get(`${c.channel}:${a}:${b}`);
        if (cross(a, b, transport)) {
          const k = hopPath(pa, pb, L);
          const hop = svg('g', { class: 'topo-hop-net', 'data-from': a, 'data-to': b, 'data-transport': transport ?? '' });
          hop.append(svg('path', { d: k.d, fill: 'none', stroke: '#c0392b', 'stroke-width': L.compact ? 1 : 2, 'stroke-dasharray': '5 3', 'marker-end': `url(#${id})` }));
          const said = t.hopTitle(a, b, transport ?? t.transportUnknown);
          // Between stacked boxes, hops each way run side by side: each label sits beside its
          // line a third of the way from the GPU that sends, so two never share a spot.
          const spot = k.steep ? k.at(0.3) : null;
          if (!L.compact && transport) {
            hop.append(svg('text', spot ? { x: spot.x + 5, y: spot.y + 4, 'text-anchor': 'start', class: 'topo-nic' }
              : { x: k.mid.x, y: k.mid.y + (k.mid.y < pa.y ? -3 : 11), 'text-anchor': 'middle', class: 'topo-nic' }, transportLabel(transport)));
          }
          hop.append(svg('title', {}, said));
          g.append(hop);
        } else {
          inside += hopPath(pa, pb, L).d;
        }
      }
      g.prepend(svg('path', { d: inside, fill: 'none', stroke: '#2e6da4', 'stroke-width': L.compact ? 0.8 : 1.6, 'marker-end': L.compact ? null : `url(#${id})`, class: 'topo-hop-local' }));
    }
    s.append(g);
  }
  // The trees: "rank:parent" pairs for tests; the chosen one drawn child to parent.
  for (const ch of [...new Set(comm.trees.map((x) => x.channel))]) {
    const nodes = comm.trees.filter((x) => x.channel === ch);
    const g = svg('g', { class: 'topo-tree', 'data-channel': ch, 'data-tree': nodes.map((x) => `${x.rank}:${x.parent}`).join(' ') });
    if (state.show === 'tree' && ch === state.channel) {
      for (const x of nodes) {
        const p = L.at.get(x.rank);
        if (!p) continue;
        if (x.parent < 0) {
          g.append(svg('circle', { cx: p.x, cy: p.y, r: L.gpu * 0.75, fill: 'none', stroke: '#c0392b', 'stroke-width': 2, class: 'topo-root' }, svg('title', {}, t.treeRoot(x.rank))));
          continue;
        }
        const q = L.at.get(x.parent);
        if (!q) continue;
        const across = cross(x.rank, x.parent);
        g.append(svg('path', { d: hopPath(p, q, L).d, fill: 'none', stroke: across ? '#c0392b' : '#2e6da4', 'stroke-width': L.compact ? 1 : 1.6,
          'stroke-dasharray': across ? '5 3' : null, 'marker-end': `url(#${id})` }, svg('title', {}, t.treeEdge(x.rank, x.parent))));
      }
    }
    s.append(g);
  }
  const legend = h('p', { class: 'chart-note topo-legend', text: state.show === 'tree' ? t.legendTree : t.legendRing });
  const chosen = comm.channels.find((c) => c.channel === state.channel);
  const cut = state.show === 'ring' && chosen && !chosen.complete && !chosen.rebuilt_ring
    ? h('p', { class: 'note', 'data-role': 'topo-cut', text: t.ringCut(chosen.ring.length, comm.ranks) }) : null;
  return h('figure', { class: 'topo-figure', 'data-role': 'topo-drawing', dataset: { show: state.show, channel: String(state.channel), compact: String(L.compact) } },
    [h('div', { class: 'topo-scroll' }, s), legend, cut]);
}

function explanation(comm, topo, state, t, lang) {
  const x = comm.explanation;
  const box = h('div', { class: 'topo-explain', 'data-role': 'topo-explanation', dataset: { bottleneck: x.bottleneck ?? '', rings: String(x.rings) } });
  const line = (role, text, data = {}) => box.append(h('p', { class: `measured-figure topo-${role}`, 'data-role': `topo-${role}`, dataset: data, text }));
  line('summary', t.summary(comm.ranks, comm.nodes.length, comm.channels.length, comm.version ?? ''));
  const ch = x.channels.find((c) => c.channel === state.channel);
  if (ch) {
    line('channel', t.channelHops(ch.channel, ch.hops, ch.cross_node_hops, ch.by_class, t.hopClass[ch.bottleneck] ?? ch.bottleneck),
      { channel: String(ch.channel), hops: String(ch.hops), crossNodeHops: String(ch.cross_node_hops), bottleneck: ch.bottleneck });
  }
  if (x.rings > 0) line('bottleneck', t.bottleneck(x.rings, t.hopClass[x.bottleneck] ?? x.bottleneck), { bottleneck: x.bottleneck });
  if (x.bounds?.length) {
    box.append(h('ul', { class: 'topo-bounds', 'data-role': 'topo-bounds' }, x.bounds.map((b) => h('li', {
      dataset: { kind: b.kind, busbwBps: String(b.busbw_Bps) },
      text: t.bound(t.hopClass[b.kind] ?? b.kind, linkLabel(x, b.link), formatRate(b.beta_Bps), Number(b.links_in_parallel.toPrecision(3)), formatRate(b.busbw_Bps)),
    }))));
  }
  if (x.predicted_busbw_Bps != null) line('predicted', t.predicted(formatRate(x.predicted_busbw_Bps)), { busbwBps: String(x.predicted_busbw_Bps) });
  if (x.measured) {
    const m = x.measured;
    line('measured', t.measured(formatRate(m.busbw_Bps), formatBytes(m.bytes), m.table, formatRate(m.best_busbw_Bps)), { busbwBps: String(m.busbw_Bps), table: String(m.table) });
  }
  if (x.verdict) {
    line('verdict', t.verdict(x.verdict, Number(Math.abs(x.deviation_percent ?? 0).toPrecision(2)), x.in_switch ?? ''), { verdict: x.verdict, deviationPercent: String(x.deviation_percent ?? '') });
  } else if (x.predicted_busbw_Bps != null) {
    line('no-table', t.noTable);
  }
  const assumptions = [...(x.assumptions ?? []), ...(comm.notes ?? [])];
  if (assumptions.length) {
    box.append(h('details', { class: 'measured-notes', 'data-role': 'topo-assumptions' }, [
      h('summary', { text: t.assumptions }), h('ul', {}, assumptions.map((a) => h('li', { lang: 'en', text: a }))),
    ]));
  }
  if (topo.skipped_lines) box.append(h('p', { class: 'note', 'data-role': 'topo-skipped', dataset: { count: String(topo.skipped_lines) }, text: t.skipped(topo.skipped_lines.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en')) }));
  return box;
}

const linkLabel = (x, id) => x.links?.find((l) => l.id === id)?.label ?? id;
