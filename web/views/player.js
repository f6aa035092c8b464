// The schedule player (P5 §4-5): the `simulate` op's trace drawn step by step in SVG. Devices are
// laid out by the topology the engine ran (nodes as boxes with local ranks aligned; devices round
// a switch or a ring), each step's messages are drawn from source to destination around the other
// devices with their size, and each device's buffer is a row of cells showing whose data it holds,
// found by replaying the engine's traced messages block by block. A device is complete once it
// holds its final result for the collective shown. Step times, phases, levels, sizes and the
// closed form are the engine's. Hooks: web/README.md "Views".

// The replay (which step, what each device holds, playing or not) is views/player_model.js,
// where things go is views/player_layout.js; this module draws them and takes the controls.

import { h } from '../util/dom.js';
import { viewProblem, viewStrings } from '../util/i18n.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { MAX_DRAWN, ReplayModel, lectureSection, runs, simulateRequest } from './player_model.js';
import { aggregatedLayout, deviceLayout, labelBox, messagePath, overlaps } from './player_layout.js';

// Asked of this module by the views that draw a player's settings otherwise (views/chart.js).
export { simulateRequest };

const SVG = 'http://www.w3.org/2000/svg';
/** Message labels (sizes) drawn when a step has at most this many messages. */
const MAX_LABELS = 16;

function svg(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

function progressFill(p) {
  if (p < 0) return 'hsl(0 0% 88%)';
  if (p >= 1 - 1e-9) return 'hsl(140 55% 36%)';
  if (p <= 0) return 'hsl(0 0% 98%)';
  return `hsl(205 65% ${Math.round(88 - 48 * p)}%)`;
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

  const model = new ReplayModel();
  let timer = 0;
  let drawn = null; // devices drawn one by one
  let agg = null; // the aggregated view
  let width = 0;
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches ?? false;

  const phaseText = (st) => {
    const name = (x) => t.phases[x] ?? x;
    return t.phaseText(name(st.phase ?? ''), st.detail ? name(st.detail) : '', st.group ? t.groups[st.group] ?? st.group : '');
  };
  /** "8 × 125 KB", or the sizes of a step whose messages differ. */
  const sizesText = (st) => {
    const msgs = st.trace ?? [];
    if (!msgs.length) return '';
    const sizes = [...new Set(msgs.map((m) => m.bytes))];
    return sizes.length === 1 ? t.msgsOf(st.messages, formatBytes(sizes[0])) : t.msgsOf(st.messages, sizes.slice(0, 3).map(formatBytes).join(' / ') + (sizes.length > 3 ? ' …' : ''));
  };
  const msgText = (m) => t.msgText(m, m.op === 'reduce' ? t.reduce : t.copy, formatBytes(m.bytes), m.level ? t.levels[m.level] : '');

  const playButton = (action) => {
    bPlay.dataset.action = action;
    bPlay.textContent = t[action];
    bPlay.setAttribute('aria-label', t[action]);
    bPlay.title = t[action];
  };
  function stop() {
    if (timer) clearTimeout(timer);
    timer = 0;
    model.pause();
    playButton('play');
  }
  function tick() {
    if (!model.advance()) return stop();
    show();
    timer = setTimeout(tick, model.delay(Number(speed.value), reduced));
  }
  bPlay.addEventListener('click', () => {
    if (!model.res) return;
    if (timer) return stop();
    const again = model.atEnd; // played to the end: from the start again
    model.play();
    if (again) show();
    playButton('pause');
    timer = setTimeout(tick, 50);
  });
  // Each control stops the playing and moves the model; what it shows is then drawn.
  const move = (go) => { stop(); if (go()) show(); };
  bFirst.addEventListener('click', () => move(() => model.first()));
  bLast.addEventListener('click', () => move(() => model.last()));
  bBack.addEventListener('click', () => move(() => model.back()));
  bFwd.addEventListener('click', () => move(() => model.forward()));
  slider.addEventListener('input', () => move(() => model.go(Number(slider.value))));
  root.addEventListener('keydown', (e) => {
    if (e.target === slider || e.target.tagName === 'SELECT' || e.target.tagName === 'SUMMARY') return;
    const keys = { ArrowRight: () => model.forward(), ArrowLeft: () => model.back(), Home: () => model.first(), End: () => model.last() };
    if (e.key in keys) { move(keys[e.key]); e.preventDefault(); }
  });

  function drawMessages(cur) {
    drawn.arrows.replaceChildren();
    const msgs = cur?.trace ?? [];
    const label = msgs.length <= MAX_LABELS;
    const labels = svg('g', { class: 'msg-labels' });
    const placed = [];
    msgs.forEach((m, i) => {
      const path = messagePath(drawn.layout, m, i, model.res.devices);
      if (!path) return;
      const arrow = svg('path', {
        d: path.d, class: `msg ${m.op}${m.level ? ` ${m.level}` : ''}`, 'marker-end': `url(#${drawn.id}-${m.op})`,
        'data-message': '', 'data-from': m.src, 'data-to': m.dst, 'data-bytes': m.bytes, 'data-level': m.level ?? null,
      });
      arrow.append(svg('title', {}, msgText(m)));
      drawn.arrows.append(arrow);
      if (label && path.mid) {
        // A label that would cover a device or another label is left out (the status line and
        // the step table give every size).
        const text = formatBytes(m.bytes);
        const box = labelBox(path.mid, text);
        const hits = (o) => overlaps(box, o);
        if (!drawn.layout.boxes.some(hits) && !placed.some(hits)) {
          placed.push(box);
          labels.append(svg('text', { x: path.mid.x.toFixed(1), y: (path.mid.y + 3.5).toFixed(1), 'text-anchor': 'middle', class: 'msg-size' }, text));
        }
      }
    });
    drawn.arrows.append(labels);
  }

  // The model's step, drawn: the slider, the status line, the marker or the devices.
  function show() {
    const { res, step } = model;
    if (!res) return;
    const n = model.count;
    root.dataset.step = String(step);
    slider.value = String(step);
    const cur = model.current;
    const closed = res.closed_form?.time_s;
    const sizes = cur ? sizesText(cur) : '';
    status.textContent = step === 0 ? `${t.before} · ${t.stepOf(0, n)}`
      : `${t.stepOf(step, n)}${cur.phase ? ` — ${phaseText(cur)}` : ''}${sizes ? ` · ${sizes}` : ''} · ${t.stepTime} ${formatTime(cur.time_s)} · ${t.total} ${formatTime(model.elapsed())}`
        + ` / ${formatTime(res.time_s)}${Number.isFinite(closed) ? ` · ${t.closedForm} ${formatTime(closed)}` : ''}`
        // The engine marks a cut-through step (in-switch multicast, P5 §5.4): say why it is short.
        + (cur?.cut_through ? `. ${t.cutThrough}` : '');
    root.dataset.phase = cur?.phase ?? '';
    if (agg) {
      // The marker follows the step shown.
      const x = agg.markerX(step);
      agg.marker.setAttribute('x1', x.toFixed(1));
      agg.marker.setAttribute('x2', x.toFixed(1));
      agg.marker.setAttribute('visibility', step === 0 ? 'hidden' : 'visible');
      agg.markerLabel.setAttribute('x', Math.min(Math.max(x, agg.x0 + 30), agg.x1 - 30).toFixed(1));
      agg.markerLabel.textContent = step === 0 ? '' : `${t.colStep} ${step}: ${formatTime(cur.time_s)}`;
      return;
    }
    if (!drawn) return;
    drawMessages(cur);
    let done = 0;
    drawn.deviceNodes.forEach((g, d) => {
      const dev = model.device(d);
      if (dev.complete == null) delete g.dataset.complete;
      else g.dataset.complete = String(dev.complete);
      if (dev.complete) done += 1;
      dev.cells.forEach((c, j) => {
        const cell = drawn.cells[d]?.[j];
        if (!cell) return;
        cell.style.fill = progressFill(c.progress);
        cell.firstChild.textContent = t.cellTitle(d, j, c.holders.length ? runs(c.holders) : '', c.progress);
      });
      // Without cells the device itself takes the colour (inline: the stylesheet cannot override it).
      if (!drawn.cells[d]) drawn.fills[d].style.fill = progressFill(dev.progress);
    });
    root.dataset.complete = String(done);
  }

  function drawDevices() {
    const { res } = model;
    const k = res.devices;
    const lay = deviceLayout(res, width, model.cells);
    const { W, H, two, r } = lay;
    const id = `p${Math.random().toString(36).slice(2, 8)}`;
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg', role: 'img', 'aria-label': `${t.player}: ${t.algorithms[res.algorithm] ?? res.algorithm}, ${k}` });
    const defs = svg('defs');
    for (const op of ['copy', 'reduce']) {
      const marker = svg('marker', { id: `${id}-${op}`, viewBox: '0 0 10 10', refX: '8', refY: '5', markerWidth: '5', markerHeight: '5', orient: 'auto-start-reverse' });
      marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `head ${op}` }));
      defs.append(marker);
    }
    chart.append(defs);
    if (two) {
      for (const g of lay.groups) {
        chart.append(svg('rect', { x: g.x, y: g.y, width: g.w, height: g.h, rx: 8, class: 'node-box', 'data-node-box': g.node }));
        chart.append(svg('text', { x: g.lx, y: g.ly, class: 'node-label', 'text-anchor': g.anchor ?? 'start' }, t.nodeName(g.node)));
      }
    } else {
      const c = lay.hub;
      const pos = lay.devices;
      if (res.topology?.kind === 'ring') {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: pos[i].x, y1: pos[i].y, x2: pos[(i + 1) % k].x, y2: pos[(i + 1) % k].y, class: 'wire' }));
      } else {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: pos[i].x, y1: pos[i].y, x2: c.x, y2: c.y, class: 'wire' }));
        const sw = svg('g', { class: `switch${res.algorithm === 'in_switch' ? ' reducer' : ''}`, 'data-device': res.algorithm === 'in_switch' ? String(k) : null });
        sw.append(svg('rect', { x: c.box.x, y: c.box.y, width: c.box.w, height: c.box.h, rx: 5 }), svg('text', { x: c.x, y: c.y + 4, 'text-anchor': 'middle' }, t.switchName));
        chart.append(sw);
      }
    }
    const arrows = svg('g', { class: 'arrows' });
    const deviceLayer = svg('g');
    const cells = [];
    const fills = [];
    const deviceNodes = [];
    lay.devices.forEach((p, d) => {
      const g = svg('g', { class: 'device', 'data-device': String(d), 'data-node': two ? p.node : null, 'data-local': two ? p.local : null });
      g.append(svg('title', {}, two ? t.deviceAt(d, p.node, p.local) : t.device(d)));
      const body = two ? svg('rect', { x: p.x, y: p.y, width: p.w, height: p.h, rx: 4, class: 'dev' }) : svg('circle', { cx: p.x, cy: p.y, r, class: 'dev' });
      g.append(body, svg('text', { x: p.label.x, y: p.label.y, 'text-anchor': 'middle', class: 'dev-label', 'font-size': p.label.size }, String(d)));
      fills.push(body);
      cells.push(p.cells?.map((c) => {
        const rect = svg('rect', { x: c.x.toFixed(2), y: c.y.toFixed(2), width: c.w.toFixed(2), height: c.h, class: 'cell' });
        rect.append(svg('title', {}, ''));
        g.append(rect);
        return rect;
      }) ?? null);
      deviceLayer.append(g);
      deviceNodes.push(g);
    });
    for (const l of lay.labels) chart.append(svg('text', { x: l.x, y: l.y, 'text-anchor': l.anchor, class: 'local-label' }, l.caption ? t.localTitle : l.short ? String(l.g) : t.localName(l.g)));
    chart.append(deviceLayer, arrows);
    stage.replaceChildren(chart);
    drawn = { layout: lay, id, arrows, cells, fills, deviceNodes };
    const keys = [h('span', { class: 'key copy', text: t.copy }), h('span', { class: 'key reduce', text: t.reduce })];
    if (two) keys.push(h('span', { class: 'key intra', text: t.levels.intra }), h('span', { class: 'key inter', text: t.levels.inter }));
    keys.push(h('span', { class: 'key cells', text: t.cellLegend[res.collective] ?? t.cellLegend.allreduce }), h('span', { class: 'key complete', text: t.complete }));
    if (model.someOweNone()) keys.push(h('span', { class: 'key owes-none', text: t.owesNone }));
    legend.replaceChildren(...keys);
  }

  function drawAggregated() {
    drawn = null;
    const { res } = model;
    const lay = aggregatedLayout(res.schedule.steps, width);
    const { W, H, x0, x1, yTop, yBase } = lay;
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg agg', role: 'img', 'aria-label': t.aggregated(res.devices) });
    // One path for all bars (thousands of steps); the step table holds each value.
    chart.append(svg('path', { d: lay.bars, class: 'agg-bar' }));
    // Axes: time per step (the engine's seconds, shown in their unit) and step numbers.
    chart.append(svg('line', { x1: x0, y1: yBase, x2: x1, y2: yBase, class: 'axis-line' }), svg('line', { x1: x0, y1: yTop, x2: x0, y2: yBase, class: 'axis-line' }));
    for (const { y, value } of lay.yTicks) {
      chart.append(svg('line', { x1: x0 - 4, y1: y, x2: x0, y2: y, class: 'axis-line' }), svg('text', { x: x0 - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, formatTime(value)));
    }
    chart.append(svg('text', { x: 4, y: 14, class: 'axis' }, t.timePerStep));
    for (const { x, step } of lay.xTicks) {
      chart.append(svg('line', { x1: x, y1: yBase, x2: x, y2: yBase + 4, class: 'axis-line' }), svg('text', { x, y: yBase + 16, 'text-anchor': 'middle', class: 'axis' }, String(step)));
    }
    chart.append(svg('text', { x: (x0 + x1) / 2, y: H - 3, 'text-anchor': 'middle', class: 'axis' }, t.colStep));
    const marker = svg('line', { x1: x0, y1: yTop - 6, x2: x0, y2: yBase, class: 'step-marker', 'data-role': 'step-marker', visibility: 'hidden' });
    const markerLabel = svg('text', { x: x0, y: yTop - 10, 'text-anchor': 'middle', class: 'axis marker-label' }, '');
    chart.append(marker, markerLabel);
    stage.replaceChildren(chart);
    agg = { x0, x1, markerX: lay.markerX, marker, markerLabel };
    legend.replaceChildren();
  }

  function drawTable() {
    const rows = model.res.schedule.steps.slice(0, 200).map((s, i) => {
      const msgs = s.trace ?? [];
      const text = msgs.slice(0, 12).map(msgText).join(', ')
        + (s.messages > 12 ? ` ${t.moreMessages(s.messages - Math.min(12, msgs.length))}` : '');
      return h('tr', {}, [h('td', { text: String(i + 1) }), h('td', { text: phaseText(s) }), h('td', { text: sizesText(s) || String(s.messages) }), h('td', { text })
        , h('td', { text: formatTime(s.time_s) }), h('td', { text: formatTime(model.elapsed(i + 1)) })]);
    });
    const table = h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colStep, t.colPhase, t.colSizes, t.colMessages, t.colTime, t.colTotal].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows),
    ]);
    tableBox.replaceChildren(h('summary', { text: t.stepTable }), table);
  }
  // The step table is built when opened, and rebuilt for a new schedule while open.
  tableBox.addEventListener('toggle', () => { if (tableBox.open && model.res && !tableBox.querySelector('table')) drawTable(); });

  function draw() {
    width = stage.clientWidth || root.clientWidth || 640;
    agg = null;
    if (model.aggregated) drawAggregated();
    else drawDevices();
    show();
  }
  // A phone and a desktop get layouts of their own (readable labels at 390 px).
  if (globalThis.ResizeObserver) {
    new ResizeObserver(() => {
      const w = stage.clientWidth;
      if (model.res && w && (w < 560) !== (width < 560)) draw();
    }).observe(stage);
  }

  let asked = 0;
  return {
    root,
    /** Asks the engine for the schedule of `settings` and draws it; resolves when drawn. */
    async update(settings) {
      const mine = ++asked;
      root.setAttribute('aria-busy', 'true');
      // The section it shows is named from the settings at once, before the engine answers.
      root.dataset.lecture = lectureSection({ algorithm: settings.algorithm, collective: settings.collective ?? 'allreduce', topology: { kind: settings.topology } });
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
        model.load(null);
        stage.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: viewProblem(lang, out[0].error) }));
        root.dataset.steps = '0';
        return false;
      }
      const t0 = performance.now();
      const res = out[0];
      model.load(res);
      root.dataset.steps = String(res.steps);
      root.dataset.devices = String(res.devices);
      root.dataset.collective = res.collective;
      root.dataset.algorithm = res.algorithm;
      root.dataset.topology = res.topology?.kind ?? '';
      root.dataset.lecture = lectureSection(res);
      slider.max = String(model.count);
      note.textContent = small ? (out[1]?.verified ? t.verified(res.devices) : t.notVerified) : t.aggregated(res.devices);
      tableBox.replaceChildren(h('summary', { text: t.stepTable }));
      if (tableBox.open) drawTable();
      draw();
      performance.measure('commlab-player-draw', { start: t0, end: performance.now() });
      return true;
    },
    stop,
  };
}
