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
import { askMany, knownLinks } from '../engine/door.js';

const COLORS = ['#1f6fb2', '#d9480f', '#2b8a3e', '#7048e8', '#c2255c', '#0b7285', '#e67700', '#5c940d', '#495057'];
const BAND = ['rgba(31,111,178,.14)', 'rgba(217,72,15,.14)', 'rgba(43,138,62,.14)', 'rgba(112,72,232,.14)', 'rgba(194,37,92,.14)', 'rgba(11,114,133,.14)'];

/** Sizes 1 B to 1 GB, `perDecade` points a decade (powers of ten exact). */
export function sizes(perDecade = 4, from = 0, to = 9) {
  const out = [];
  for (let i = from * perDecade; i <= to * perDecade; ++i) out.push(Number((10 ** (i / perDecade)).toPrecision(6)));
  return out;
}

/**
 * A log-log (or log-x) chart in `root`: {xs, series: [{label, values}], xLabel, yLabel, logY,
 * bands: [{from, to, index}] shaded behind, marks: [{x, y?, label}] drawn on top}.
 */
// Log axes: ticks and grid only at powers of ten (every third decade on narrow charts).
const decade = (v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
function logFilter(every) {
  return (u, splits) => splits.map((v) => (decade(v) && Math.round(Math.log10(v)) % every === 0 ? v : null));
}

function plot(box, spec, holder) {
  const width = Math.max(280, Math.min(760, box.clientWidth || 640));
  const narrow = width < 480;
  const opts = {
    width,
    height: width < 480 ? 260 : 320,
    scales: { x: { distr: 3, log: 10 }, y: spec.logY ? { distr: 3, log: 10 } : { range: spec.yRange ?? [0, 1] } },
    axes: [
      {
        label: spec.xLabel, values: (u, ticks) => ticks.map((v) => (v == null ? '' : spec.xFormat(v))), stroke: '#333',
        ...(spec.xSplits ? { splits: () => spec.xSplits, grid: { stroke: '#e6e6e6' } }
          : { filter: logFilter(narrow ? 3 : 1), grid: { stroke: '#e6e6e6', filter: logFilter(1) }, ticks: { filter: logFilter(1) } }),
      },
      { label: spec.yLabel, ...(spec.logY ? { filter: logFilter(1), grid: { stroke: '#e6e6e6', filter: logFilter(1) }, ticks: { filter: logFilter(1) } } : { grid: { stroke: '#e6e6e6' } }), values: (u, ticks) => ticks.map((v) => (v == null ? '' : spec.yFormat(v))), stroke: '#333', size: 64 },
    ],
    series: [
      { label: spec.xLabel, value: (u, v) => (v == null ? '–' : spec.xFormat(v)) },
      ...spec.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: false }, value: (u, v) => (v == null ? '–' : spec.yFormat(v)) })),
    ],
    cursor: { drag: { x: false, y: false } },
    hooks: {
      drawClear: [(u) => {
        const spec = holder.spec;
        const { ctx } = u;
        const top = u.bbox.top;
        const hgt = u.bbox.height;
        for (const b of spec.bands ?? []) {
          const x0 = u.valToPos(b.from, 'x', true);
          const x1 = u.valToPos(b.to, 'x', true);
          ctx.fillStyle = BAND[b.index % BAND.length];
          ctx.fillRect(x0, top, x1 - x0, hgt);
        }
      }],
      draw: [(u) => {
        const spec = holder.spec;
        const { ctx } = u;
        ctx.save();
        for (const m of spec.marks ?? []) {
          const x = u.valToPos(m.x, 'x', true);
          ctx.strokeStyle = '#222';
          ctx.setLineDash([4, 3]);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
          ctx.setLineDash([]);
          if (m.y != null) {
            ctx.fillStyle = '#222';
            ctx.beginPath();
            ctx.arc(x, u.valToPos(m.y, 'y', true), 5 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.fill();
          }
          ctx.fillStyle = '#222';
          ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
          // The label beside the line, on its left when it would run past the plot.
          const w = ctx.measureText(m.label).width;
          const lx = x + 4 * devicePixelRatio + w > u.bbox.left + u.bbox.width ? x - 4 * devicePixelRatio - w : x + 4 * devicePixelRatio;
          ctx.fillText(m.label, Math.max(u.bbox.left, lx), u.bbox.top + 14 * devicePixelRatio);
        }
        ctx.restore();
      }],
    },
  };
  const data = [spec.xs, ...spec.series.map((s) => s.values)];
  box.replaceChildren();
  const u = new uPlot(opts, data, box);
  return u;
}

// Same axes and series: new data into the existing chart (no rebuild while a slider moves).
const shape = (spec) => JSON.stringify([spec.logY, spec.xLabel, spec.yLabel, spec.series.map((s) => s.label)]);

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

function chartShell(view, title, caption) {
  const root = h('figure', { class: 'chart', dataset: { view } });
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
    const w = Math.max(280, Math.min(760, box.clientWidth));
    if (Math.abs(w - u.width) > 8) u.setSize({ width: w, height: w < 480 ? 260 : 320 });
  }) : null;
  ro?.observe(box);
  let asked = 0;
  return {
    root, extra, tbl,
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
    /** Shows the first error among `out` under the chart; true when there was one. */
    showError(out) {
      const err = out.find((r) => r.error);
      if (err) extra.textContent = err.error.message;
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

/**
 * Shaded bands for the winner at each sampled size: runs of one winner, edges halfway (in log
 * scale) between sampled sizes; `indexOf(winner)` picks the band's colour.
 */
function winnerBands(xs, winners, indexOf) {
  const n = xs.length;
  const bands = [];
  for (let i = 0; i < n; ++i) {
    const from = i === 0 ? xs[0] : Math.sqrt(xs[i - 1] * xs[i]);
    const to = i === n - 1 ? xs[n - 1] : Math.sqrt(xs[i] * xs[i + 1]);
    if (bands.length && bands[bands.length - 1].name === winners[i]) bands[bands.length - 1].to = to;
    else bands.push({ from, to, index: indexOf(winners[i]), name: winners[i] });
  }
  return bands;
}

const ALLREDUCE = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree'];

/**
 * Exercise 3 and Explore: all-reduce time against message size for every algorithm on k
 * devices over `link` (id or {alpha_s, beta_Bps}), the engine's `auto` winner shaded, `bytes` marked.
 */
export function createCrossover(lang, key = 'crossover') {
  const t = viewStrings(lang);
  const shell = chartShell('crossover', t.crossover, t.crossoverCaption);
  return {
    root: shell.root,
    async update({ devices, link, bytes }) {
      const xs = sizes(4);
      const reqs = [];
      for (const a of ALLREDUCE) for (const x of xs) reqs.push({ op: 'allreduce', algorithm: a, devices, bytes: x, link });
      for (const x of xs) reqs.push({ op: 'allreduce', algorithm: 'auto', devices, bytes: x, link });
      if (bytes) reqs.push({ op: 'allreduce', algorithm: 'auto', devices, bytes, link });
      const out = await shell.answers(reqs, key, { busy: true });
      if (!out || shell.showError(out)) return false;
      const n = xs.length;
      const series = ALLREDUCE.map((a, i) => ({ id: a, label: t.algorithms[a], values: out.slice(i * n, (i + 1) * n).map((r) => r.time_s) }));
      const winners = out.slice(ALLREDUCE.length * n, (ALLREDUCE.length + 1) * n).map((r) => r.algorithm);
      const bands = winnerBands(xs, winners, (w) => {
        const index = ALLREDUCE.indexOf(w);
        return index < 0 ? 5 : index;
      });
      const point = bytes ? out[out.length - 1] : null;
      shell.draw({
        xs, series, xLabel: t.size, yLabel: t.time, logY: true, xFormat: formatBytes, yFormat: formatTime, bands,
        marks: point ? [{ x: bytes, y: point.time_s, label: `${t.exercisePoint}: ${t.algorithms[point.algorithm] ?? point.algorithm}` }] : [],
      });
      shell.root.dataset.devices = String(devices);
      shell.extra.textContent = `${t.winner}: ${bands.map((b) => `${t.algorithms[b.name] ?? b.name} ${formatBytes(b.from)}–${formatBytes(b.to)}`).join(' · ')}`;
      shell.tbl.replaceChildren(table(t, xs, series, formatBytes, formatTime, 'time-s'));
      return true;
    },
  };
}

/** Exercise 1: bandwidth fraction against size for the nine links, n_1/2 marked on `link`. */
export function createBandwidth(lang, key = 'bandwidth') {
  const t = viewStrings(lang);
  const shell = chartShell('bandwidth', t.bandwidth, t.bandwidthCaption);
  // The link picker: which link's n½ is marked (the exercise's own link first).
  const picker = h('select', { 'aria-label': t.link, 'data-role': 'link-picker' });
  shell.root.insertBefore(h('label', { class: 'view-pick' }, [h('span', { text: `${t.link} ` }), picker]), shell.root.children[1]);
  let lastArgs = null;
  picker.addEventListener('change', () => lastArgs && update(lastArgs));
  async function update(args) {
    lastArgs = args;
    const { alpha_s, beta_Bps } = args;
    const xs = sizes(4);
    // The catalogue the page already has (engine/door.js), else asked once.
    const links = knownLinks().length ? knownLinks() : (await askMany([{ op: 'links' }], `${key}-links`))?.[0]?.links ?? [];
    const own = alpha_s != null ? { alpha_s, beta_Bps } : null;
    const entries = links.map((l) => ({ id: l.id, label: l.label, link: l.id }));
    if (own) entries.unshift({ id: 'own', label: t.thisLink, link: own });
    if (picker.options.length !== entries.length) {
      const keep = picker.value;
      picker.replaceChildren(...entries.map((e) => h('option', { value: e.id, text: e.label })));
      if (entries.some((e) => e.id === keep)) picker.value = keep;
    }
    const reqs = [];
    for (const e of entries) for (const x of xs) reqs.push({ op: 'transfer', link: e.link, bytes: x });
    for (const e of entries) reqs.push({ op: 'transfer', link: e.link, bytes: 1 });
    const out = await shell.answers(reqs, key);
    if (!out) return false;
    const n = xs.length;
    const series = entries.map((e, i) => ({ id: e.id, label: e.label, values: out.slice(i * n, (i + 1) * n).map((r) => r.bandwidth_fraction) }));
    const halves = out.slice(entries.length * n).map((r) => r.n_half_bytes);
    const focus = Math.max(0, entries.findIndex((e) => e.id === picker.value));
    const marks = [{ x: halves[focus], y: 0.5, label: `${entries[focus].label}: n½ ${formatBytes(halves[focus])}` }];
    shell.draw({ xs, series, xLabel: t.size, yLabel: t.fraction, logY: false, yRange: [0, 1], xFormat: formatBytes, yFormat: (v) => `${Math.round(v * 100)}%`, marks });
    shell.root.dataset.link = entries[focus].id;
    shell.extra.textContent = entries.map((e, i) => `${e.label}: n½ = ${formatBytes(halves[i])}`).join(' · ');
    shell.tbl.replaceChildren(table(t, xs, series, formatBytes, (v) => `${(v * 100).toPrecision(3)}%`, 'fraction'));
    return true;
  }
  return { root: shell.root, update };
}

/**
 * NCCL's (algorithm, protocol) pairs: time against size from the engine's `nccl` op (one request
 * a size answers every pair), its choice shaded, `bytes` marked.
 */
export function createNccl(lang, key = 'nccl') {
  const t = viewStrings(lang);
  const shell = chartShell('nccl', t.nccl, t.ncclCaption);
  return {
    root: shell.root,
    async update({ devices, link, bytes }) {
      const xs = sizes(4);
      const reqs = xs.map((x) => ({ op: 'nccl', devices, bytes: x, link }));
      if (bytes) reqs.push({ op: 'nccl', devices, bytes, link });
      const out = await shell.answers(reqs, key);
      if (!out || shell.showError(out)) return false;
      const pairs = out[0].candidates.map((c) => `${c.algorithm}/${c.protocol}`);
      const name = (p) => `${t.algorithms[p.split('/')[0]] ?? p.split('/')[0]} · ${p.split('/')[1]}`;
      const series = pairs.map((p, i) => ({ id: p, label: name(p), values: out.slice(0, xs.length).map((r) => r.candidates[i]?.time_s ?? null) }));
      const winners = out.slice(0, xs.length).map((r) => `${r.algorithm}/${r.protocol}`);
      const bands = winnerBands(xs, winners, (w) => Math.max(0, pairs.indexOf(w)));
      const point = bytes ? out[out.length - 1] : null;
      shell.draw({
        xs, series, xLabel: t.size, yLabel: t.time, logY: true, xFormat: formatBytes, yFormat: formatTime, bands,
        marks: point ? [{ x: bytes, y: point.time_s, label: name(`${point.algorithm}/${point.protocol}`) }] : [],
      });
      shell.root.dataset.devices = String(devices);
      shell.extra.textContent = `${t.winner}: ${bands.map((b) => `${name(b.name)} ${formatBytes(b.from)}–${formatBytes(b.to)}`).join(' · ')}`;
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
  const shell = chartShell('ring-attention', t.ringAttention, t.ringAttentionCaption);
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
      shell.draw({
        xs, series, xLabel: t.tokensPerDevice, yLabel: t.time, logY: true, xFormat: tokens, yFormat: formatTime,
        xSplits: [64, 256, 1024, 4096, 16384, 65536],
        bands: [{ from: xs[0], to: own.threshold_tokens, index: 1 }, { from: own.threshold_tokens, to: xs[xs.length - 1], index: 2 }],
        marks: [{ x: own.threshold_tokens, label: `${t.threshold} ${tokens(own.threshold_tokens)}` },
          { x: own.tokens_per_device, y: own.compute_time_s, label: '' }],
      });
      shell.extra.textContent = t.ringAttentionNote(tokens(own.threshold_tokens), tokens(own.threshold_with_alpha_tokens));
      shell.tbl.replaceChildren(table(t, xs, series, tokens, formatTime, 'time-s', t.tokensPerDevice));
      return true;
    },
  };
}
