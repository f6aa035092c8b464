// Charts drawn with uPlot (bundled beside the page in util/vendor/, no CDN): axes, ticks and log
// scales are the library's. Every plotted value comes from engine responses, asked in one batch
// through the worker; the page computes none. Each chart has its values as a table beside it.


// uPlot is loaded with the first chart, not with the page: no chart is needed to read or check.
let uPlot = null;
let loadingUPlot = null;
function loadUPlot() {
  loadingUPlot ??= import('../util/vendor/uplot.js').then((m) => { uPlot = m.default; });
  return loadingUPlot;
}
import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { knownLinks } from '../engine/remembered.js';
import { simulateRequest } from './player.js';

// Ten distinct colours (category10), one a series; a chart with more series than ten is split
// rather than reusing a colour. Bands take their winner's colour, faint.
export const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
export const faint = (hex, a = 0.13) => `rgba(${parseInt(hex.slice(1, 3), 16)},${parseInt(hex.slice(3, 5), 16)},${parseInt(hex.slice(5, 7), 16)},${a})`;

/** Sizes 1 B to 1 GB, `perDecade` points a decade (powers of ten exact). */
export function sizes(perDecade = 4, from = 0, to = 9) {
  const out = [];
  for (let i = from * perDecade; i <= to * perDecade; ++i) out.push(Number((10 ** (i / perDecade)).toPrecision(6)));
  return out;
}

/**
 * A log-log (or log-x) chart in `root`: {xs, series: [{label, values, color?, width?, dash?}],
 * xLabel, yLabel, logY, bands: [{from, to, color}] shaded behind, marks drawn on top:
 * [{x, y?, label, kind?: 'point' | 'boundary'}] (a point: dashed line, dot; a boundary: a thin
 * line; their labels in rows above the plot, labelRows). `legendAt`
 * {x, values: [one a series]}: what the legend shows while the cursor is off the chart (the
 * engine's values at the asked point; without it, no value).
 */
// Log axes: ticks and grid only at powers of ten (every third decade on narrow charts).
const decade = (v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
function logFilter(every) {
  return (u, splits) => splits.map((v) => (decade(v) && Math.round(Math.log10(v)) % every === 0 ? v : null));
}
const seriesColor = (s, i) => s.color ?? COLORS[i % COLORS.length];
// A legend value: the value under the cursor; with the cursor off the chart (idx null), the
// value at the asked point (spec.legendAt), else none.
function legendValue(v, idx, asked, format) {
  const value = idx == null ? asked() : v;
  return value == null ? (idx == null ? '' : '–') : format(value);
}
const chartHeight = (w) => (w < 480 ? 280 : 320);
// Mark labels go in rows above the plot, never over its data: a row for each point label's row,
// then up to two for the boundaries' (more boundaries share the last).
const ROW_PX = 16;
function labelRows(spec) {
  const points = (spec.marks ?? []).filter((m) => m.kind !== 'boundary');
  const pointRows = points.length ? Math.max(...points.map((m) => m.row ?? 0)) + 1 : 0;
  const boundaries = (spec.marks ?? []).filter((m) => m.kind === 'boundary').length;
  return { pointRows, total: pointRows + Math.min(2, boundaries) };
}
const topPad = (spec) => {
  const { total } = labelRows(spec);
  return total ? total * ROW_PX + 6 : 0;
};

function plot(box, spec, holder) {
  const width = Math.max(260, Math.min(760, box.clientWidth || 640));
  const narrow = width < 480;
  const font = `${narrow ? 11 : 12}px system-ui, sans-serif`;
  const pad = topPad(spec);
  const opts = {
    width,
    height: chartHeight(width) + pad,
    ...(pad ? { padding: [pad, null, null, null] } : {}),
    scales: { x: { distr: 3, log: spec.xLog ?? 10 }, y: spec.logY ? { distr: 3, log: 10 } : { range: spec.yRange ?? [0, 1] } },
    axes: [
      {
        label: spec.xLabel, font, labelFont: font, values: (u, ticks) => ticks.map((v) => (v == null ? '' : spec.xFormat(v))), stroke: '#333',
        // Given splits are all labelled (uPlot's log filter would keep only powers of ten).
        ...(spec.xSplits ? { splits: () => spec.xSplits, filter: (u, splits) => splits, grid: { stroke: '#e6e6e6' } }
          : { filter: logFilter(narrow ? 3 : 1), grid: { stroke: '#e6e6e6', filter: logFilter(1) }, ticks: { filter: logFilter(1) } }),
      },
      { label: spec.yLabel, font, labelFont: font, ...(spec.logY ? { filter: logFilter(narrow ? 2 : 1), grid: { stroke: '#e6e6e6', filter: logFilter(1) }, ticks: { filter: logFilter(1) } } : { grid: { stroke: '#e6e6e6' } }), values: (u, ticks) => ticks.map((v) => (v == null ? '' : spec.yFormat(v))), stroke: '#333', size: narrow ? 56 : 64 },
    ],
    series: [
      { label: spec.xLabel, value: (u, v, sidx, idx) => legendValue(v, idx, () => holder.spec.legendAt?.x, spec.xFormat) },
      // `points: true`: markers only, no line (measured values, views/measured.js).
      ...spec.series.map((s, i) => ({ label: s.label, stroke: seriesColor(s, i), width: s.width ?? 2, dash: s.dash, value: (u, v, sidx, idx) => legendValue(v, idx, () => holder.spec.legendAt?.values[i], spec.yFormat),
        ...(s.points ? { paths: () => null, points: { show: true, size: s.size ?? 7, width: 1.5, fill: s.fill ?? seriesColor(s, i) } } : { points: { show: false } }) })),
    ],
    cursor: { drag: { x: false, y: false } },
    hooks: {
      drawClear: [(u) => {
        const { ctx } = u;
        for (const b of holder.spec.bands ?? []) {
          const x0 = u.valToPos(b.from, 'x', true);
          const x1 = u.valToPos(b.to, 'x', true);
          ctx.fillStyle = b.color;
          ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
        }
      }],
      draw: [(u) => {
        const { ctx } = u;
        if (!holder.spec) return;
        const px = devicePixelRatio;
        const left = u.bbox.left;
        const right = u.bbox.left + u.bbox.width;
        ctx.save();
        ctx.font = `${(narrow ? 11 : 12) * px}px system-ui, sans-serif`;
        ctx.textAlign = 'left'; // uPlot leaves the last axis's alignment set
        ctx.textBaseline = 'alphabetic';
        // A label beside x, in the rows above the plot (labelRows): on the line's left when it
        // would run past. Points' labels in their rows, then each boundary's in the first
        // boundary row where it overlaps no other (the last row when none is free).
        const { pointRows, total } = labelRows(holder.spec);
        const rows = [];
        const place = (text, x, boundary, row) => {
          const w = ctx.measureText(text).width;
          let lx = x + 4 * px + w > right ? x - 4 * px - w : x + 4 * px;
          lx = Math.max(left + 2 * px, Math.min(lx, right - w - 2 * px));
          if (boundary) {
            const free = (r) => !(rows[r] ?? []).some(([a, b]) => lx < b + 4 * px && a < lx + w + 4 * px);
            const choices = Array.from({ length: total - pointRows }, (_, i) => pointRows + i);
            row = choices.find(free) ?? total - 1;
            (rows[row] ??= []).push([lx, lx + w]);
          }
          const y = u.bbox.top - (ROW_PX * (total - row) - 12) * px;
          ctx.fillStyle = 'rgba(255,255,255,.8)';
          ctx.fillRect(lx - 2 * px, y - 11 * px, w + 4 * px, 14 * px);
          ctx.fillStyle = '#222';
          ctx.fillText(text, lx, y);
          drawn.push({ top: (y - 11 * px) / px, bottom: (y + 3 * px) / px });
        };
        const drawn = []; // the labels' boxes in CSS px (no words: a hook alike in both languages)
        for (const m of holder.spec.marks ?? []) {
          const x = u.valToPos(m.x, 'x', true);
          if (x < left - 1 || x > right + 1) continue;
          ctx.strokeStyle = '#222';
          ctx.lineWidth = px;
          ctx.setLineDash(m.kind === 'boundary' ? [] : [4 * px, 3 * px]);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.setLineDash([]);
          if (m.y != null) {
            ctx.fillStyle = '#222';
            ctx.beginPath();
            ctx.arc(x, u.valToPos(m.y, 'y', true), 4.5 * px, 0, 2 * Math.PI);
            ctx.fill();
          }
          if (m.label) place(m.label, x, m.kind === 'boundary', m.row ?? 0);
        }
        ctx.restore();
        Object.assign(u.root.dataset, { markLabels: JSON.stringify(drawn), plotTop: String(u.bbox.top / px) });
      }],
    },
  };
  const data = [spec.xs, ...spec.series.map((s) => s.values)];
  box.replaceChildren();
  const u = new uPlot(opts, data, box);
  return u;
}

// Same axes and series: new data into the existing chart (no rebuild while a slider moves).
const shape = (spec) => JSON.stringify([spec.logY, spec.yRange, spec.xLabel, spec.yLabel, spec.series.map((s) => [s.label, s.color]), topPad(spec)]);

// The values as a table, built when first opened (and rebuilt when open).
function table(t, xs, series, xFormat, yFormat, rawKey, xLabel = t.size) {
  const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.chartTable })]);
  const build = () => details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [h('th', { scope: 'col', text: xLabel }), ...series.map((s) => h('th', { scope: 'col', text: s.label }))])),
      h('tbody', {}, xs.map((x, i) => h('tr', { 'data-x': String(x) }, [
        h('th', { scope: 'row', text: xFormat(x) }),
        ...series.map((s) => h('td', { [`data-${rawKey}`]: String(s.values[i]), 'data-series': s.id, text: s.values[i] == null ? '–' : yFormat(s.values[i]) })),
      ]))),
  ]));
  details.addEventListener('toggle', () => { if (details.open && !details.querySelector('table')) build(); });
  return details;
}

export function chartShell(view, title, caption, lecture) {
  const root = h('figure', { class: 'chart', dataset: { view, lecture } });
  const box = h('div', { class: 'chart-box' });
  const cap = h('figcaption', {}, [h('strong', { text: `${title}. ` }), caption]);
  const extra = h('p', { class: 'chart-note' });
  const tbl = h('div');
  root.append(cap, box, extra, tbl);
  let u = null;
  let last = null;
  const holder = { spec: null };
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => {
    if (!u || !last) return;
    const w = Math.max(260, Math.min(760, box.clientWidth));
    if (Math.abs(w - u.width) > 8) u.setSize({ width: w, height: chartHeight(w) + topPad(last) });
  }) : null;
  ro?.observe(box);
  let asked = 0;
  return {
    root, box, extra, tbl,
    /**
     * The engine's answers to `reqs`, in an animation frame of their own (apart from the task
     * that parsed them); null when a later call superseded them. `busy`: aria-busy meanwhile.
     */
    async answers(reqs, key, { busy = false } = {}) {
      const mine = ++asked;
      if (busy) root.setAttribute('aria-busy', 'true');
      const out = await askMany(reqs, key);
      if (!out || mine !== asked) return null;
      await new Promise((r) => requestAnimationFrame(r));
      if (mine !== asked) return null;
      if (busy) root.removeAttribute('aria-busy');
      return out;
    },
    /** Drops the answers still awaited (the caller shows something else instead). */
    supersede() {
      ++asked;
      root.removeAttribute('aria-busy');
    },
    /** Shows the first error among `out` under the chart; true when there was one. */
    showError(out) {
      const err = out.find((r) => r.error);
      // No stale picture beside an error: the chart and its table go until the next answer.
      box.hidden = !!err;
      if (err) {
        extra.textContent = err.error.message;
        tbl.replaceChildren();
      }
      return !!err;
    },
    draw(spec) {
      if (!uPlot) {
        holder.spec = spec;
        loadUPlot().then(() => { if (holder.spec === spec) this.draw(spec); });
        return null;
      }
      const t0 = performance.now();
      const same = u && last && shape(last) === shape(spec) && box.isConnected && box.firstChild;
      last = spec;
      holder.spec = spec;
      if (same) u.setData([spec.xs, ...spec.series.map((s) => s.values)]);
      else {
        u?.destroy();
        u = plot(box, spec, holder);
      }
      performance.measure('commlab-chart-draw', { start: t0, end: performance.now() });
      return u;
    },
  };
}

/** Winner bands from the engine's `winners` ({name, from_bytes, to_bytes}), coloured by `colorOf`. */
function bandsOf(winners, colorOf) {
  return winners.map((w) => ({ from: w.from_bytes, to: w.to_bytes, name: w.name, color: faint(colorOf(w.name)) }));
}
/** The boundaries as the hook carries them (web/README.md "Views"): [{bytes, from, to}]. */
const boundaryHook = (bs) => JSON.stringify(bs.map((b) => ({ bytes: b.bytes, from: b.from, to: b.to })));

export const ALLREDUCE = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree'];
/** The engine's simulate runs a chart asks for at most, so on a non-switch topology up to this many devices. */
export const SIMULATED_MAX_DEVICES = 64;

/**
 * All-reduce time against message size (P5 §5.3) for `algorithms` on k devices over `link` (id
 * or {alpha_s, beta_Bps}). On a switch the curves are the closed forms and the shaded bands
 * and boundary lines are the engine's `crossover` answer (exact sizes, not samples); elsewhere
 * (`topology`: ring, two levels) the closed forms do not hold, so the chart plots the engine's
 * simulated schedule, the runs the player draws, with no bands. Marked: `selected` at `bytes`
 * (Explore), or the cheapest at `bytes` (exercise 3). Hooks: data-boundaries, data-fastest,
 * data-time-s (the marked time), data-devices, data-source.
 */
export function createCrossover(lang, key = 'crossover', { lecture = '5.3' } = {}) {
  const t = viewStrings(lang);
  const shell = chartShell('crossover', t.crossover, t.crossoverCaption, lecture);
  const name = (a) => t.algorithms[a] ?? a;
  const ds = shell.root.dataset;
  async function closedForms({ devices, link, bytes, algorithms, selected }) {
    const algos = [...algorithms];
    const xs = sizes(4);
    const reqs = [];
    for (const a of algos) for (const x of xs) reqs.push({ op: 'allreduce', algorithm: a, devices, bytes: x, link });
    reqs.push({ op: 'crossover', devices, link, algorithms: algos, ...(bytes ? { bytes } : {}) });
    // Each algorithm at the asked size: the legend's values there.
    if (bytes) for (const a of algos) reqs.push({ op: 'allreduce', algorithm: a, devices, bytes, link });
    const out = await shell.answers(reqs, key, { busy: true });
    if (!out || shell.showError(out)) return false;
    const n = xs.length;
    const atBytes = bytes ? out.slice(algos.length * n + 1, algos.length * n + 1 + algos.length) : [];
    const series = algos.map((a, i) => ({ id: a, label: name(a), values: out.slice(i * n, (i + 1) * n).map((r) => r.time_s) }));
    const cross = out[algos.length * n];
    const colorOf = (a) => COLORS[Math.max(0, algos.indexOf(a)) % COLORS.length];
    const marks = cross.boundaries.map((b) => ({ x: b.bytes, label: formatBytes(b.bytes), kind: 'boundary' }));
    const at = selected && bytes ? atBytes[algos.indexOf(selected)] ?? null : null;
    if (at) marks.push({ x: bytes, y: at.time_s, label: `${name(selected)}: ${formatTime(at.time_s)}` });
    else if (cross.cheapest) marks.push({ x: bytes, y: cross.cheapest.time_s, label: `${t.exercisePoint}: ${name(cross.cheapest.name)}` });
    const legendAt = bytes ? { x: bytes, values: atBytes.map((r) => r.time_s) } : null;
    shell.draw({ xs, series, xLabel: t.size, yLabel: t.time, logY: true, xFormat: formatBytes, yFormat: formatTime, bands: bandsOf(cross.winners, colorOf), marks, legendAt });
    Object.assign(ds, { devices: String(devices), bytes: String(bytes ?? ''), source: 'closed_form', boundaries: boundaryHook(cross.boundaries) });
    if (cross.cheapest) ds.fastest = cross.cheapest.name; else delete ds.fastest;
    const marked = at ?? cross.cheapest;
    if (marked) ds.timeS = String(marked.time_s); else delete ds.timeS;
    if (at) ds.algorithm = selected; else delete ds.algorithm;
    shell.extra.textContent = `${t.winner}: ${cross.winners.map((w) => `${name(w.name)} ${formatBytes(w.from_bytes)}–${formatBytes(w.to_bytes)}`).join(' · ')}`
      + (cross.cheapest ? ` · ${t.fastestAt(formatBytes(bytes), name(cross.cheapest.name), formatTime(cross.cheapest.time_s))}` : '');
    shell.tbl.replaceChildren(table(t, xs, series, formatBytes, formatTime, 'time-s'));
    return true;
  }
  async function simulated({ settings, bytes, algorithms, selected }) {
    const k = settings.topology === 'two_level' ? settings.nodes * settings.gpus_per_node : settings.devices;
    for (const x of ['boundaries', 'fastest', 'timeS', 'algorithm']) delete ds[x];
    ds.devices = String(k);
    if (k > SIMULATED_MAX_DEVICES) {
      shell.supersede();
      shell.box.hidden = true;
      shell.tbl.replaceChildren();
      ds.source = 'none';
      shell.extra.textContent = t.simulatedLimit(k, SIMULATED_MAX_DEVICES);
      return true;
    }
    const xs = sizes(2);
    const run = (a, b) => simulateRequest({ ...settings, collective: 'allreduce', algorithm: a, bytes: b }, { mode: 'accounting', trace_limit: 0 });
    const reqs = [];
    for (const a of algorithms) for (const x of xs) reqs.push(run(a, x));
    if (bytes) for (const a of algorithms) reqs.push(run(a, bytes));
    const out = await shell.answers(reqs, key, { busy: true });
    if (!out || shell.showError(out)) return false;
    const n = xs.length;
    const series = algorithms.map((a, i) => ({ id: a, label: name(a), values: out.slice(i * n, (i + 1) * n).map((r) => r.time_s) }));
    const atBytes = bytes ? out.slice(algorithms.length * n) : [];
    const at = selected && bytes ? atBytes[algorithms.indexOf(selected)] ?? null : null;
    const marks = at ? [{ x: bytes, y: at.time_s, label: `${name(selected)}: ${formatTime(at.time_s)}` }] : [];
    const legendAt = bytes ? { x: bytes, values: atBytes.map((r) => r.time_s) } : null;
    shell.draw({ xs, series, xLabel: t.size, yLabel: t.time, logY: true, xFormat: formatBytes, yFormat: formatTime, bands: [], marks, legendAt });
    Object.assign(ds, { devices: String(at?.devices ?? k), bytes: String(bytes ?? ''), source: 'simulate' });
    if (at) Object.assign(ds, { timeS: String(at.time_s), algorithm: selected });
    shell.extra.textContent = t.simulatedNote(t.topologies[settings.topology] ?? settings.topology);
    shell.tbl.replaceChildren(table(t, xs, series, formatBytes, formatTime, 'time-s'));
    return true;
  }
  return {
    root: shell.root,
    /**
     * {devices, link, bytes, algorithms?, selected?}; with `player` (simulateRequest settings on
     * a ring or two levels) the simulated times instead of the closed forms.
     */
    update(args) {
      const algorithms = args.algorithms ?? ALLREDUCE;
      if (args.player && args.player.topology !== 'switch') return simulated({ settings: args.player, bytes: args.bytes, algorithms, selected: args.selected });
      return closedForms({ ...args, algorithms });
    },
  };
}

/**
 * Exercise 1: bandwidth fraction against size for the exercise's link (black, first) and the nine
 * catalogue links (one colour each), the asked size and the chosen link's n½ marked.
 */
export function createBandwidth(lang, key = 'bandwidth') {
  const t = viewStrings(lang);
  const shell = chartShell('bandwidth', t.bandwidth, t.bandwidthCaption, '3');
  // The link picker: which link's n½ is marked (the exercise's own link first).
  const picker = h('select', { 'aria-label': t.link, 'data-role': 'link-picker' });
  shell.root.insertBefore(h('label', { class: 'view-pick' }, [h('span', { text: `${t.link} ` }), picker]), shell.root.children[1]);
  let lastArgs = null;
  picker.addEventListener('change', () => lastArgs && update(lastArgs));
  async function update(args) {
    lastArgs = args;
    const { alpha_s, beta_Bps, bytes } = args;
    const xs = sizes(4);
    // The catalogue the page already has (engine/door.js), else asked once.
    const links = knownLinks().length ? knownLinks() : (await askMany([{ op: 'links' }], `${key}-links`))?.[0]?.links ?? [];
    const own = alpha_s != null ? { alpha_s, beta_Bps } : null;
    const entries = links.map((l, i) => ({ id: l.id, label: l.label, link: l.id, color: COLORS[i % COLORS.length] }));
    if (own) entries.unshift({ id: 'own', label: t.thisLink, link: own, color: '#000000', width: 3 });
    if (picker.options.length !== entries.length) {
      const keep = picker.value;
      picker.replaceChildren(...entries.map((e) => h('option', { value: e.id, text: e.label })));
      if (entries.some((e) => e.id === keep)) picker.value = keep;
    }
    const reqs = [];
    for (const e of entries) for (const x of xs) reqs.push({ op: 'transfer', link: e.link, bytes: x });
    for (const e of entries) reqs.push({ op: 'transfer', link: e.link, bytes: 1 });
    // Every link at the asked size: the legend's values there (the exercise's own link first).
    if (bytes) for (const e of entries) reqs.push({ op: 'transfer', link: e.link, bytes });
    const out = await shell.answers(reqs, key);
    if (!out || shell.showError(out)) return false;
    const n = xs.length;
    const series = entries.map((e, i) => ({ id: e.id, label: e.label, color: e.color, width: e.width, values: out.slice(i * n, (i + 1) * n).map((r) => r.bandwidth_fraction) }));
    const halves = out.slice(entries.length * n, entries.length * (n + 1)).map((r) => r.n_half_bytes);
    const focus = Math.max(0, entries.findIndex((e) => e.id === picker.value));
    const pct = (v) => `${Math.round(v * 100)}%`;
    const marks = [{ x: halves[focus], y: 0.5, label: `${entries[focus].label}: n½ ${formatBytes(halves[focus])}`, row: 1 }];
    const atBytes = bytes ? out.slice(entries.length * (n + 1)) : [];
    const asked = own && bytes ? atBytes[0] : null;
    if (asked) marks.unshift({ x: bytes, y: asked.bandwidth_fraction, label: `${t.askedSize} ${formatBytes(bytes)}: ${pct(asked.bandwidth_fraction)}` });
    const legendAt = bytes ? { x: bytes, values: atBytes.map((r) => r.bandwidth_fraction) } : null;
    shell.draw({ xs, series, xLabel: t.size, yLabel: t.fraction, logY: false, yRange: [0, 1], xFormat: formatBytes, yFormat: pct, marks, legendAt });
    shell.root.dataset.link = entries[focus].id;
    if (asked) Object.assign(shell.root.dataset, { bytes: String(bytes), fraction: String(asked.bandwidth_fraction) });
    shell.extra.textContent = entries.map((e, i) => `${e.label}: n½ = ${formatBytes(halves[i])}`).join(' · ');
    shell.tbl.replaceChildren(table(t, xs, series, formatBytes, (v) => `${(v * 100).toPrecision(3)}%`, 'fraction'));
    return true;
  }
  return { root: shell.root, update };
}

/**
 * NCCL's (algorithm, protocol) pairs (P5 §5.6): time against size from the engine's `nccl` op
 * (one request a size answers every pair); the pair its tuner picks shaded between the exact
 * boundaries of the `crossover` op; `bytes` marked.
 */
export function createNccl(lang, key = 'nccl', { algorithms = null, title = null, caption = null } = {}) {
  const t = viewStrings(lang);
  // `algorithms` (['ring']: the protocols of one algorithm, ?view=nccl) narrows the pairs.
  const shell = chartShell('nccl', title ?? t.nccl, caption ?? t.ncclCaption, '5.6');
  const ds = shell.root.dataset;
  const only = algorithms ? { algorithms } : {};
  return {
    root: shell.root,
    async update({ devices, link, bytes }) {
      const xs = sizes(4);
      const reqs = xs.map((x) => ({ op: 'nccl', devices, bytes: x, link, ...only }));
      reqs.push({ op: 'crossover', kind: 'nccl', devices, link, ...only, ...(bytes ? { bytes } : {}) });
      if (bytes) reqs.push({ op: 'nccl', devices, bytes, link, ...only }); // the legend's values there
      const out = await shell.answers(reqs, key);
      if (!out || shell.showError(out)) return false;
      const cross = out[xs.length];
      const pairs = cross.candidates;
      const name = (p) => `${t.algorithms[p.split('/')[0]] ?? p.split('/')[0]} · ${p.split('/')[1]}`;
      const timeOf = (r, p) => r.candidates.find((c) => `${c.algorithm}/${c.protocol}` === p)?.time_s ?? null;
      const series = pairs.map((p, i) => ({ id: p, label: name(p), values: out.slice(0, xs.length).map((r) => timeOf(r, p)) }));
      const legendAt = bytes ? { x: bytes, values: pairs.map((p) => timeOf(out[xs.length + 1], p)) } : null;
      const colorOf = (p) => COLORS[Math.max(0, pairs.indexOf(p)) % COLORS.length];
      const marks = cross.boundaries.map((b) => ({ x: b.bytes, label: formatBytes(b.bytes), kind: 'boundary' }));
      if (cross.cheapest) marks.push({ x: bytes, y: cross.cheapest.time_s, label: name(cross.cheapest.name) });
      shell.draw({ xs, series, xLabel: t.size, yLabel: t.time, logY: true, xFormat: formatBytes, yFormat: formatTime, bands: bandsOf(cross.winners, colorOf), marks, legendAt });
      Object.assign(ds, { devices: String(devices), boundaries: boundaryHook(cross.boundaries) });
      if (cross.cheapest) ds.fastest = cross.cheapest.name;
      shell.extra.textContent = `${t.winner}: ${cross.winners.map((w) => `${name(w.name)} ${formatBytes(w.from_bytes)}–${formatBytes(w.to_bytes)}`).join(' · ')}`;
      shell.tbl.replaceChildren(table(t, xs, series, formatBytes, formatTime, 'time-s'));
      return true;
    },
  };
}

/**
 * Ring attention (P5 §6.5): a step's compute and its KV transfer against tokens per device, from
 * the engine's `ring_attention` op over prompts of 64 to 65,536 tokens a device; the threshold
 * where compute hides the transfer marked, and the calculator's point.
 */
export function createRingAttention(lang, key = 'ring-attention') {
  const t = viewStrings(lang);
  const shell = chartShell('ring-attention', t.ringAttention, t.ringAttentionCaption, '6.5');
  return {
    root: shell.root,
    async update({ devices, link, prompt_tokens: prompt }) {
      const per = [];
      for (let e = 6; e <= 16; e += 0.25) per.push(Math.round(2 ** e));
      const reqs = per.map((n) => ({ op: 'ring_attention', devices, prompt_tokens: n * devices, link }));
      reqs.push({ op: 'ring_attention', devices, prompt_tokens: prompt, link });
      const out = await shell.answers(reqs, key);
      if (!out || shell.showError(out)) return false;
      const xs = out.slice(0, per.length).map((r) => r.tokens_per_device);
      const series = [
        { id: 'compute', label: t.computeStep, values: out.slice(0, per.length).map((r) => r.compute_time_s) },
        { id: 'transfer', label: t.transferStep, values: out.slice(0, per.length).map((r) => r.transfer_time_s) },
      ];
      const own = out[out.length - 1];
      const tokens = (v) => `${Math.round(v)}`;
      const ticks = [64, 256, 1024, 4096, 16384, 65536];
      shell.draw({
        xs, series, xLabel: t.tokensPerDevice, yLabel: t.time, logY: true, xFormat: (v) => (v >= 1024 && v % 1024 === 0 ? `${v / 1024}K` : tokens(v)), yFormat: formatTime,
        xLog: 2, xSplits: ticks,
        bands: [{ from: xs[0], to: own.threshold_tokens, color: faint(COLORS[1], 0.1) }, { from: own.threshold_tokens, to: xs[xs.length - 1], color: faint(COLORS[2], 0.1) }],
        marks: [{ x: own.threshold_tokens, label: `${t.threshold} ${tokens(own.threshold_tokens)}`, kind: 'boundary' },
          { x: own.tokens_per_device, y: own.compute_time_s, label: `${t.exercisePoint}: ${tokens(own.tokens_per_device)}` }],
        legendAt: { x: own.tokens_per_device, values: [own.compute_time_s, own.transfer_time_s] },
      });
      shell.extra.textContent = t.ringAttentionNote(tokens(own.threshold_tokens), tokens(own.threshold_with_alpha_tokens));
      shell.tbl.replaceChildren(table(t, xs, series, tokens, formatTime, 'time-s', t.tokensPerDevice));
      return true;
    },
  };
}
