// The schedule player (P5 §4-5): the `simulate` op's trace drawn step by step in SVG. Devices are
// laid out by topology, each step's messages are arrows (copy or reduce), each device's buffer is
// a row of chunk cells shaded by how many inputs the chunk already sums, found by replaying the
// engine's traced messages (a copy takes the sender's inputs, a reduce adds them). Step times,
// the running total and the closed form are the engine's. Hooks: SPEC "Views".

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Devices drawn one by one up to this count; beyond, an aggregated view per step. */
export const MAX_DRAWN = 64;
const MAX_CELLS = 16;
const W = 640;

function svg(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

const gcd = (a, b) => (b ? gcd(b, a % b) : a);

/** The simulate request for player settings (link: a catalogue id or {alpha_s, beta_Bps}). */
export function simulateRequest(s, extra = {}) {
  const req = { op: 'simulate', collective: s.collective ?? 'allreduce', algorithm: s.algorithm, bytes: s.bytes };
  if (s.topology === 'two_level' || s.algorithm === 'hierarchical') {
    Object.assign(req, { topology: 'two_level', nodes: s.nodes, gpus_per_node: s.gpus_per_node });
    if (s.intra_link) req.intra_link = s.intra_link;
    if (s.inter_link) req.inter_link = s.inter_link;
  } else {
    Object.assign(req, { devices: s.devices, topology: s.topology ?? 'switch' });
    if (s.link) req.link = s.link;
  }
  return Object.assign(req, extra);
}

/**
 * Replays the traced messages: for every step, how many inputs each cell of each buffer sums.
 * Presentation of the engine's trace: the messages and their order are the engine's.
 * Returns {cells, counts: [step][buffer * cells + cell]} (step 0 = before the first).
 */
function replay(res, drawnBuffers) {
  const k = res.devices;
  const steps = res.schedule.steps;
  let den = 1;
  for (const st of steps) for (const m of st.trace ?? []) {
    for (const c of [m.chunk, m.dst_chunk]) if (c) den = (den * c[2]) / gcd(den, c[2]);
    if (den > MAX_CELLS) break;
  }
  const cells = Math.min(den, MAX_CELLS);
  const n = drawnBuffers;
  // Each (buffer, cell) holds the set of inputs it sums as 64 bits in two words (k <= 64 here).
  let sets = new Uint32Array(n * cells * 2);
  const add = (i, input) => { sets[2 * i + (input >> 5)] |= 1 << (input & 31); };
  for (let d = 0; d < n; ++d) {
    for (let c = 0; c < cells; ++c) {
      const i = d * cells + c;
      if (res.collective === 'broadcast') {
        if (d === (res.root ?? 0)) for (let x = 0; x < k; ++x) add(i, x);
      } else if (res.collective === 'allgather') {
        if (d < k && Math.floor((c * k) / cells) === d) add(i, d);
      } else if (d < k) add(i, d);
    }
  }
  const pop = (x) => {
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  };
  const count = () => {
    const out = new Uint16Array(n * cells);
    for (let i = 0; i < out.length; ++i) out[i] = pop(sets[2 * i]) + pop(sets[2 * i + 1]);
    return out;
  };
  const counts = [count()];
  const range = (c) => {
    const a = Math.floor((c[0] / c[2]) * cells + 1e-9);
    const b = Math.max(a + 1, Math.ceil((c[1] / c[2]) * cells - 1e-9));
    return [a, Math.min(b, cells)];
  };
  for (const st of steps) {
    const next = sets.slice(); // messages of one step read the buffers as they were before it
    for (const m of st.trace ?? []) {
      if (m.src >= n || m.dst >= n) continue;
      const [sa, sb] = range(m.chunk);
      const [da] = range(m.dst_chunk ?? m.chunk);
      for (let c = sa; c < sb; ++c) {
        const dc = da + (c - sa);
        if (dc >= cells) break;
        const from = 2 * (m.src * cells + c);
        const to = 2 * (m.dst * cells + dc);
        if (m.op === 'reduce') {
          next[to] |= sets[from];
          next[to + 1] |= sets[from + 1];
        } else {
          next[to] = sets[from];
          next[to + 1] = sets[from + 1];
        }
      }
    }
    sets = next;
    counts.push(count());
  }
  return { cells, counts };
}

/** Positions of devices (and the switch, index k, if drawn) by topology. */
function layout(res, H) {
  const k = res.devices;
  const t = res.topology ?? { kind: 'switch' };
  const pos = [];
  const groups = [];
  let gap = 0; // room per device along a row, for its buffer strip
  if (t.kind === 'two_level') {
    const N = t.nodes;
    const G = t.gpus_per_node;
    const cols = Math.min(N, 4);
    const rows = Math.ceil(N / cols);
    const bw = (W - 20) / cols;
    const bh = (H - 20) / rows;
    for (let n = 0; n < N; ++n) {
      const x0 = 10 + (n % cols) * bw;
      const y0 = 10 + Math.floor(n / cols) * bh;
      groups.push({ x: x0 + 4, y: y0 + 4, w: bw - 8, h: bh - 8, node: n });
      const gc = Math.ceil(Math.sqrt(G));
      gap = bw / gc;
      const gr = Math.ceil(G / gc);
      for (let g = 0; g < G; ++g) {
        pos.push({ x: x0 + ((g % gc) + 0.5) * (bw / gc), y: y0 + 14 + (Math.floor(g / gc) + 0.5) * ((bh - 18) / gr) });
      }
    }
  } else {
    const R = Math.min(W, H) / 2 - 46;
    for (let i = 0; i < k; ++i) {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / k;
      pos.push({ x: W / 2 + R * Math.cos(a), y: H / 2 + R * Math.sin(a) });
    }
    pos.push({ x: W / 2, y: H / 2 }); // the switch (node k for in-switch reduction)
    gap = 96;
  }
  return { pos, groups, gap };
}

function shade(count, k) {
  if (count >= k) return 'hsl(140 55% 36%)';
  if (count === 0) return 'hsl(0 0% 97%)';
  const f = count / k;
  return `hsl(205 65% ${Math.round(90 - 50 * f)}%)`;
}

/** A schedule player. `update(settings)` asks the engine (in the worker) and redraws. */
export function createPlayer(lang, { key = 'player', heading = true } = {}) {
  const t = viewStrings(lang);
  const root = h('figure', { class: 'player', dataset: { view: 'schedule', steps: '0', step: '0', devices: '0' } });
  const caption = h('figcaption', {}, [heading ? h('strong', { text: `${t.player}. ` }) : null, t.playerCaption]);
  const mk = (action, label, text) => h('button', { type: 'button', 'data-action': action, 'aria-label': label, title: label, text });
  const bFirst = mk('first', t.first, '|◀');
  const bBack = mk('step-back', t.stepBack, '◀');
  const bPlay = mk('play', t.play, t.play);
  const bFwd = mk('step-forward', t.stepForward, '▶');
  const bLast = mk('last', t.last, '▶|');
  const slider = h('input', { type: 'range', min: '0', max: '0', step: '1', value: '0', 'aria-label': t.stepSlider, 'data-role': 'step-slider' });
  const speed = h('select', { 'aria-label': t.speed }, [0.5, 1, 2, 4].map((v) => h('option', { value: String(v), text: `${v}×` })));
  speed.value = '1';
  const controls = h('div', { class: 'player-controls', role: 'group', 'aria-label': t.player }, [bFirst, bBack, bPlay, bFwd, bLast, slider, speed]);
  const status = h('p', { class: 'player-status', 'aria-live': 'polite' });
  const stage = h('div', { class: 'player-stage' });
  const legend = h('p', { class: 'player-legend' });
  const note = h('p', { class: 'note player-note' });
  const tableBox = h('details', { class: 'player-table' }, [h('summary', { text: t.stepTable })]);
  root.append(caption, controls, status, stage, legend, note, tableBox);

  let res = null;
  let rep = null;
  let step = 0;
  let timer = 0;
  let drawn = null; // {arrows, cells, devices}
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches ?? false;

  const total = (s) => {
    let sum = 0;
    for (let i = 0; i < s; ++i) sum += res.schedule.steps[i].time_s;
    return sum;
  };

  function stop() {
    if (timer) clearTimeout(timer);
    timer = 0;
    bPlay.dataset.action = 'play';
    bPlay.textContent = t.play;
    bPlay.setAttribute('aria-label', t.play);
    bPlay.title = t.play;
  }
  function tick() {
    if (!res || step >= res.schedule.steps.length) return stop();
    show(step + 1);
    timer = setTimeout(tick, (reduced ? 1200 : 700) / Number(speed.value));
  }
  bPlay.addEventListener('click', () => {
    if (!res) return;
    if (timer) return stop();
    if (step >= res.schedule.steps.length) show(0);
    bPlay.dataset.action = 'pause';
    bPlay.textContent = t.pause;
    bPlay.setAttribute('aria-label', t.pause);
    bPlay.title = t.pause;
    timer = setTimeout(tick, 50);
  });
  bFirst.addEventListener('click', () => { stop(); show(0); });
  bLast.addEventListener('click', () => { stop(); show(res ? res.schedule.steps.length : 0); });
  bBack.addEventListener('click', () => { stop(); show(step - 1); });
  bFwd.addEventListener('click', () => { stop(); show(step + 1); });
  slider.addEventListener('input', () => { stop(); show(Number(slider.value)); });
  root.addEventListener('keydown', (e) => {
    if (e.target === slider || e.target.tagName === 'SELECT' || e.target.tagName === 'SUMMARY') return;
    const keys = { ArrowRight: 1, ArrowLeft: -1 };
    if (e.key in keys) { stop(); show(step + keys[e.key]); e.preventDefault(); }
    else if (e.key === 'Home') { stop(); show(0); e.preventDefault(); }
    else if (e.key === 'End') { stop(); show(res ? res.schedule.steps.length : 0); e.preventDefault(); }
  });

  function show(s) {
    if (!res) return;
    const n = res.schedule.steps.length;
    step = Math.max(0, Math.min(n, s));
    root.dataset.step = String(step);
    slider.value = String(step);
    const cur = step > 0 ? res.schedule.steps[step - 1] : null;
    const closed = res.closed_form?.time_s;
    status.textContent = step === 0 ? `${t.before} · ${t.stepOf(0, n)}`
      : `${t.stepOf(step, n)}${cur.phase ? ` (${t.phases[cur.phase] ?? cur.phase})` : ''} · ${t.stepTime} ${formatTime(cur.time_s)} · ${t.total} ${formatTime(total(step))}`
        + ` / ${formatTime(res.time_s)}${Number.isFinite(closed) ? ` · ${t.closedForm} ${formatTime(closed)}` : ''}`;
    if (!drawn) return;
    // Arrows of the step shown.
    drawn.arrows.replaceChildren();
    for (const m of cur?.trace ?? []) {
      const a = drawn.pos[m.src];
      const b = drawn.pos[m.dst];
      if (!a || !b) continue;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      const r = drawn.r + 2;
      drawn.arrows.append(svg('line', {
        x1: a.x + (dx / len) * r, y1: a.y + (dy / len) * r, x2: b.x - (dx / len) * (r + 3), y2: b.y - (dy / len) * (r + 3),
        class: `msg ${m.op}`, 'marker-end': `url(#${drawn.id}-${m.op})`,
      }));
    }
    // Buffer cells.
    const counts = rep.counts[step];
    const k = res.devices;
    let done = 0;
    drawn.deviceNodes.forEach((g, d) => {
      let complete = true;
      for (let c = 0; c < rep.cells; ++c) {
        const v = counts[d * rep.cells + c];
        if (v < k) complete = false;
        const cell = drawn.cells[d]?.[c];
        if (cell) {
          cell.setAttribute('fill', shade(v, k));
          cell.firstChild.textContent = t.cellTitle(d, c, v, k);
        }
      }
      if (!drawn.cells[d]) drawn.fills[d].setAttribute('fill', shade(Math.min(...Array.from({ length: rep.cells }, (_, c) => counts[d * rep.cells + c])), k));
      g.dataset.complete = String(complete);
      if (complete) done += 1;
    });
    root.dataset.complete = String(done);
  }

  function drawDevices() {
    const k = res.devices;
    const two = res.topology?.kind === 'two_level';
    const H = two ? Math.max(260, Math.ceil(res.topology.nodes / 4) * 150) : (k <= 16 ? 400 : 460);
    const { pos, groups, gap } = layout(res, H);
    const id = `p${Math.random().toString(36).slice(2, 8)}`;
    const r = k <= 8 ? 16 : k <= 16 ? 12 : k <= 32 ? 8 : 6;
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg', role: 'img', 'aria-label': `${t.player}: ${t.algorithms[res.algorithm] ?? res.algorithm}, ${k}` });
    const defs = svg('defs');
    for (const op of ['copy', 'reduce']) {
      const mk = svg('marker', { id: `${id}-${op}`, viewBox: '0 0 10 10', refX: '8', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' });
      mk.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `head ${op}` }));
      defs.append(mk);
    }
    chart.append(defs);
    for (const g of groups) {
      chart.append(svg('rect', { x: g.x, y: g.y, width: g.w, height: g.h, rx: 8, class: 'node-box' }));
      chart.append(svg('text', { x: g.x + 6, y: g.y + 13, class: 'node-label' }, t.nodeName(g.node)));
    }
    const kind = res.topology?.kind;
    if (!two) {
      const c = pos[k];
      if (kind === 'switch' || res.algorithm === 'in_switch') {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: pos[i].x, y1: pos[i].y, x2: c.x, y2: c.y, class: 'wire' }));
        const sw = svg('g', { class: 'switch', 'data-device': res.algorithm === 'in_switch' ? String(k) : null });
        sw.append(svg('rect', { x: c.x - 34, y: c.y - 14, width: 68, height: 28, rx: 5 }), svg('text', { x: c.x, y: c.y + 4, 'text-anchor': 'middle' }, t.switchName));
        chart.append(sw);
      } else if (kind === 'ring') {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: pos[i].x, y1: pos[i].y, x2: pos[(i + 1) % k].x, y2: pos[(i + 1) % k].y, class: 'wire' }));
      }
    }
    const arrows = svg('g', { class: 'arrows' });
    const deviceLayer = svg('g');
    const cells = [];
    const fills = [];
    const deviceNodes = [];
    const cw = Math.min(12, Math.max(2, gap - 6) / rep.cells);
    for (let d = 0; d < k; ++d) {
      const p = pos[d];
      const g = svg('g', { class: 'device', 'data-device': String(d) });
      g.append(svg('title', {}, t.device(d)));
      const circle = svg('circle', { cx: p.x, cy: p.y, r, class: 'dev' });
      g.append(circle);
      fills.push(circle);
      if (r >= 12) g.append(svg('text', { x: p.x, y: p.y + 4, 'text-anchor': 'middle', class: 'dev-label' }, String(d)));
      if (k <= 16) {
        const row = [];
        const total = cw * rep.cells;
        // The strip sits outward from the centre (below the device on two levels).
        let x0 = p.x - total / 2;
        let y0 = p.y + r + 3;
        if (!two) {
          const dx = p.x - W / 2;
          const dy = p.y - H / 2;
          const len = Math.hypot(dx, dy) || 1;
          const ux = dx / len;
          const uy = dy / len;
          const reach = r + 4 + Math.abs(ux) * (total / 2) + Math.abs(uy) * 5;
          x0 = p.x + ux * reach - total / 2;
          y0 = p.y + uy * reach - 5;
        }
        for (let c = 0; c < rep.cells; ++c) {
          const rect = svg('rect', { x: x0 + c * cw, y: y0, width: cw - 1, height: 10, class: 'cell' });
          rect.append(svg('title', {}, ''));
          g.append(rect);
          row.push(rect);
        }
        cells.push(row);
      } else cells.push(null);
      deviceLayer.append(g);
      deviceNodes.push(g);
    }
    chart.append(arrows, deviceLayer);
    stage.replaceChildren(chart);
    drawn = { pos, r, id, arrows, cells, fills, deviceNodes };
    legend.replaceChildren(
      h('span', { class: 'key copy', text: t.copy }), h('span', { class: 'key reduce', text: t.reduce }),
      h('span', { class: 'key cells', text: t.cellLegend }), h('span', { class: 'key complete', text: t.complete }),
    );
  }

  function drawAggregated() {
    drawn = null;
    const steps = res.schedule.steps;
    const H = 200;
    const max = Math.max(...steps.map((s) => s.time_s));
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg', role: 'img', 'aria-label': t.aggregated(res.devices) });
    const bw = (W - 20) / steps.length;
    // One path for all bars (thousands of steps); the step table holds each value.
    let d = '';
    steps.forEach((s, i) => {
      const hgt = max > 0 ? (s.time_s / max) * (H - 30) : 0;
      d += `M${(10 + i * bw).toFixed(2)} ${H - 20}v${(-hgt).toFixed(2)}h${Math.max(0.5, bw - (bw > 3 ? 1 : 0)).toFixed(2)}v${hgt.toFixed(2)}z`;
    });
    chart.append(svg('path', { d, class: 'agg-bar' }));
    chart.append(svg('text', { x: 10, y: H - 5, class: 'axis' }, `${t.colStep} 1 → ${steps.length}`));
    stage.replaceChildren(chart);
    legend.replaceChildren();
  }

  function drawTable() {
    const rows = res.schedule.steps.slice(0, 200).map((s, i) => {
      const msgs = s.trace ?? [];
      const text = msgs.slice(0, 12).map((m) => t.msgText(m, m.op === 'reduce' ? t.reduce : t.copy)).join(', ')
        + (s.messages > 12 ? ` ${t.moreMessages(s.messages - Math.min(12, msgs.length))}` : '');
      return h('tr', {}, [h('td', { text: String(i + 1) }), h('td', { text: t.phases[s.phase] ?? s.phase ?? '' }), h('td', { text })
        , h('td', { text: formatTime(s.time_s) }), h('td', { text: formatTime(total(i + 1)) })]);
    });
    const table = h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colStep, t.colPhase, t.colMessages, t.colTime, t.colTotal].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows),
    ]);
    tableBox.replaceChildren(h('summary', { text: t.stepTable }), table);
  }
  // The step table is built when opened, and rebuilt for a new schedule while open.
  tableBox.addEventListener('toggle', () => { if (tableBox.open && res && !tableBox.querySelector('table')) drawTable(); });

  let asked = 0;
  return {
    root,
    /** Asks the engine for the schedule of `settings` and draws it; resolves when drawn. */
    async update(settings) {
      const mine = ++asked;
      root.setAttribute('aria-busy', 'true');
      const k = settings.topology === 'two_level' || settings.algorithm === 'hierarchical' ? settings.nodes * settings.gpus_per_node : settings.devices;
      const small = k <= MAX_DRAWN;
      const reqs = [simulateRequest(settings, { mode: 'accounting', trace_limit: small ? 20000 : 0 })];
      // The same schedule on small real buffers, to show the engine's verification.
      if (small) reqs.push(simulateRequest({ ...settings, bytes: 64 * k * 16 }, { mode: 'data', trace_limit: 0 }));
      const out = await askMany(reqs, key);
      if (!out || mine !== asked) return false;
      // Draw in a frame of its own, apart from the task that received and parsed the answer.
      await new Promise((r) => requestAnimationFrame(r));
      if (mine !== asked) return false;
      stop();
      root.removeAttribute('aria-busy');
      if (out[0].error) {
        res = null;
        stage.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: out[0].error.message }));
        root.dataset.steps = '0';
        return false;
      }
      const t0 = performance.now();
      res = out[0];
      const n = res.schedule.steps.length;
      root.dataset.steps = String(res.steps);
      root.dataset.devices = String(res.devices);
      slider.max = String(n);
      if (res.devices <= MAX_DRAWN) {
        rep = replay(res, res.devices + (res.algorithm === 'in_switch' ? 1 : 0));
        drawDevices();
      } else {
        rep = null;
        drawAggregated();
      }
      note.textContent = small ? (out[1]?.verified ? t.verified(res.devices) : t.notVerified) : t.aggregated(res.devices);
      tableBox.replaceChildren(h('summary', { text: t.stepTable }));
      if (tableBox.open) drawTable();
      show(0);
      performance.measure('commlab-player-draw', { start: t0, end: performance.now() });
      return true;
    },
    stop,
  };
}
