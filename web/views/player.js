// The schedule player (P5 §4-5): the `simulate` op's trace drawn step by step in SVG. Devices are
// laid out by the topology the engine ran (nodes as boxes with local ranks aligned; devices round
// a switch or a ring), each step's messages are drawn from source to destination around the other
// devices with their size, and each device's buffer is a row of cells showing whose data it holds,
// found by replaying the engine's traced messages block by block. A device is complete once it
// holds its final result for the collective shown. Step times, phases, levels, sizes and the
// closed form are the engine's. Hooks: SPEC "Views".

import { h } from '../util/dom.js';
import { viewProblem, viewStrings } from '../util/i18n.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Devices drawn one by one up to this count; beyond, an aggregated view per step. */
export const MAX_DRAWN = 64;
const MAX_CELLS = 16;
/** Blocks tracked per buffer at most (finer schedules are tracked at this grain). */
const MAX_UNITS = 4096;
/** Message labels (sizes) drawn when a step has at most this many messages. */
const MAX_LABELS = 16;

function svg(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}

const gcd = (a, b) => (b ? gcd(b, a % b) : a);
const lcm = (a, b) => (a / gcd(a, b)) * b;
const pop = (x) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** The lecture section a schedule illustrates (P5 §4.1-4.3, §5.1-5.5; the trees are §5.2's). */
export function lectureSection(res) {
  if (res.algorithm === 'hierarchical' || res.topology?.kind === 'two_level') return '5.5';
  if (res.collective === 'alltoall') return '4.3';
  if (res.collective !== 'allreduce') return '4.1';
  return { ring: '5.1', recursive_doubling: '5.2', rabenseifner: '5.2', binary_tree: '5.2', double_binary_tree: '5.2', in_switch: '5.4' }[res.algorithm] ?? '5.1';
}

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
 * Replays the traced messages block by block and records, after every step, what each device
 * holds. A block's content is the set of devices whose input it carries (a reduce adds the
 * sender's set, a copy replaces it) and, for all-to-all, which block of the sender it was. What
 * each device must end with (its final result) follows the collective's definition (P5 §4.1):
 * all-reduce every block summed over all devices; reduce-scatter its own block summed;
 * all-gather block j from device j; all-to-all block j of device j addressed to it; broadcast
 * the root's data; reduce the sum at the root; send/recv the sender's data at the receiver.
 * Returns {cells, frames: [{progress, held, complete}]} (frame 0 = before the first step).
 */
export function replay(res) {
  const k = res.devices;
  const coll = res.collective;
  const steps = res.schedule.steps;
  const n = k + (res.algorithm === 'in_switch' ? 1 : 0);
  let den = ['allgather', 'alltoall', 'reduce_scatter', 'broadcast', 'reduce'].includes(coll) ? k : 1;
  for (const st of steps) for (const m of st.trace ?? []) {
    for (const c of [m.chunk, m.dst_chunk]) if (c && den <= MAX_UNITS) den = lcm(den, c[2]);
  }
  den = Math.min(den, MAX_UNITS);
  let cells = Math.min(den, MAX_CELLS);
  while (den % cells) cells -= 1;
  const per = den / cells;
  const owner = (u) => Math.floor((u * k) / den); // the device block u belongs to
  const root = res.root ?? 0;
  const sender = coll === 'sendrecv' ? root : null;
  const S = new Uint32Array(n * den * 2); // each block's set of inputs, 64 bits in two words
  const O = new Int32Array(n * den); // all-to-all: the sender's block this one came from
  const E = new Uint32Array(n * den * 2); // what the block must hold at the end
  const bit = (arr, i, d) => { arr[2 * i + (d >> 5)] |= (1 << (d & 31)) >>> 0; };
  for (let d = 0; d < n; ++d) {
    for (let u = 0; u < den; ++u) {
      const i = d * den + u;
      O[i] = u;
      if (d >= k) continue; // the switch's buffer holds nothing at first and owes nothing
      const b = owner(u);
      if (coll === 'allgather' || coll === 'alltoall') { if (b === d) bit(S, i, d); }
      else if (coll === 'broadcast') { if (d === root) bit(S, i, d); }
      else if (coll === 'sendrecv') { if (d === sender) bit(S, i, d); }
      else bit(S, i, d);
      if (coll === 'allreduce' || (coll === 'reduce_scatter' && b === d) || (coll === 'reduce' && d === root)) {
        for (let x = 0; x < k; ++x) bit(E, i, x);
      } else if (coll === 'allgather' || coll === 'alltoall') bit(E, i, b);
      else if (coll === 'broadcast') bit(E, i, root);
      else if (coll === 'sendrecv' && d === res.peer) bit(E, i, sender);
      if (coll === 'alltoall') O[i] = b === d ? u : -1;
    }
  }
  // All-to-all: block u of device d's result must be block d of sender owner(u).
  const wantOrigin = (d, u) => d * (den / k) + (u - owner(u) * (den / k));
  const need = new Uint8Array(n * den);
  for (let i = 0; i < n * den; ++i) need[i] = pop(E[2 * i]) + pop(E[2 * i + 1]);
  const score = (i) => { // blocks of the final result held, 0..need
    if (!need[i]) return 0;
    if (coll === 'alltoall' && O[i] !== wantOrigin(Math.floor(i / den), i % den)) return 0;
    return pop(S[2 * i] & E[2 * i]) + pop(S[2 * i + 1] & E[2 * i + 1]);
  };
  const owes = new Uint8Array(n); // devices that owe a final result at all
  const missing = new Int32Array(n); // blocks not yet final, per device
  for (let i = 0; i < n * den; ++i) {
    const d = Math.floor(i / den);
    if (need[i]) { owes[d] = 1; if (score(i) < need[i]) missing[d] += 1; }
  }
  const progress = new Float32Array(n * cells); // share of the final result held; -1: owes none
  const held = new Uint32Array(n * cells * 2); // whose data each cell carries
  const summarise = (d, c) => {
    let got = 0;
    let want = 0;
    let w0 = 0;
    let w1 = 0;
    for (let u = c * per; u < (c + 1) * per; ++u) {
      const i = d * den + u;
      got += score(i);
      want += need[i];
      w0 |= S[2 * i];
      w1 |= S[2 * i + 1];
    }
    progress[d * cells + c] = want ? got / want : -1;
    held[2 * (d * cells + c)] = w0;
    held[2 * (d * cells + c) + 1] = w1;
  };
  for (let d = 0; d < n; ++d) for (let c = 0; c < cells; ++c) summarise(d, c);
  const frame = () => ({
    progress: progress.slice(),
    held: held.slice(),
    complete: Array.from(missing, (m, d) => (owes[d] ? m === 0 : null)),
  });
  const frames = [frame()];
  const units = (c) => [Math.floor((c[0] * den) / c[2]), Math.max(Math.floor((c[0] * den) / c[2]) + 1, Math.ceil((c[1] * den) / c[2]))];
  for (const st of steps) {
    // Messages of one step read the buffers as they were before it; writes land together.
    const writes = new Map(); // block index -> [w0, w1, origin]
    for (const m of st.trace ?? []) {
      if (m.src >= n || m.dst >= n) continue;
      const [sa, sb] = units(m.chunk);
      const [da] = units(m.dst_chunk ?? m.chunk);
      for (let u = sa; u < Math.min(sb, den); ++u) {
        const du = da + (u - sa);
        if (du >= den) break;
        const to = m.dst * den + du;
        let w0; let w1; let origin;
        if (coll === 'alltoall') { // sent from the sender's input, which never changes
          w0 = m.src < 32 ? (1 << m.src) >>> 0 : 0;
          w1 = m.src >= 32 ? (1 << (m.src - 32)) >>> 0 : 0;
          origin = u;
        } else {
          const from = m.src * den + u;
          w0 = S[2 * from];
          w1 = S[2 * from + 1];
          origin = O[from];
        }
        if (m.op === 'reduce') {
          const cur = writes.get(to) ?? [S[2 * to], S[2 * to + 1], O[to]];
          writes.set(to, [(cur[0] | w0) >>> 0, (cur[1] | w1) >>> 0, cur[2]]);
        } else writes.set(to, [w0, w1, origin]);
      }
    }
    const touched = new Set();
    for (const [i, [w0, w1, origin]] of writes) {
      const d = Math.floor(i / den);
      const before = need[i] && score(i) < need[i];
      S[2 * i] = w0;
      S[2 * i + 1] = w1;
      O[i] = origin;
      const after = need[i] && score(i) < need[i];
      missing[d] += (after ? 1 : 0) - (before ? 1 : 0);
      touched.add(d * cells + Math.floor((i % den) / per));
    }
    for (const dc of touched) summarise(Math.floor(dc / cells), dc % cells);
    frames.push(frame());
  }
  return { cells, frames };
}

/** The set in two words as a list of device ids. */
function members(w0, w1) {
  const out = [];
  for (let d = 0; d < 64; ++d) if (((d < 32 ? w0 : w1) >>> (d & 31)) & 1) out.push(d);
  return out;
}

/** "0-3, 5": a sorted list of ids, runs shortened. */
function runs(ids) {
  const parts = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j += 1;
    parts.push(j > i + 1 ? `${ids[i]}–${ids[j]}` : j === i + 1 ? `${ids[i]}, ${ids[j]}` : `${ids[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function progressFill(p) {
  if (p < 0) return 'hsl(0 0% 88%)';
  if (p >= 1 - 1e-9) return 'hsl(140 55% 36%)';
  if (p <= 0) return 'hsl(0 0% 98%)';
  return `hsl(205 65% ${Math.round(88 - 48 * p)}%)`;
}

/**
 * Two levels (P5 §2.3, §5.5): a grid, one box per node, the GPUs of one local rank in one column
 * (or row, when there are more nodes than GPUs per node, so the long side runs across the page).
 * Every route runs in the gutters between rows and columns, so by construction it touches no
 * device but its two ends.
 */
function gridLayout(res, W) {
  const N = res.topology.nodes;
  const G = res.topology.gpus_per_node;
  const nodesAreRows = G >= N;
  const rows = nodesAreRows ? N : G;
  const cols = nodesAreRows ? G : N;
  const left = nodesAreRows ? 58 : 14;
  const top = nodesAreRows ? 10 : 26;
  const pitchX = (W - left - 10) / cols;
  const dw = Math.max(14, Math.min(64, pitchX * 0.62));
  const gx = pitchX - dw;
  const dh = res.devices <= 16 ? 30 : 24;
  const gy = Math.max(34, Math.min(56, 18 + 2.5 * Math.max(cols, rows)));
  const pitchY = dh + gy;
  const H = top + rows * pitchY + 6;
  const pos = [];
  for (let d = 0; d < res.devices; ++d) {
    const node = Math.floor(d / G);
    const local = d % G;
    const row = nodesAreRows ? node : local;
    const col = nodesAreRows ? local : node;
    const x = left + col * pitchX + gx / 2;
    const y = top + row * pitchY + gy / 2;
    pos.push({ row, col, node, local, x, y, w: dw, h: dh, cx: x + dw / 2, cy: y + dh / 2 });
  }
  const groups = [];
  for (let n = 0; n < N; ++n) {
    if (nodesAreRows) groups.push({ node: n, x: left - 50, y: top + n * pitchY + 4, w: W - left + 50 - 6, h: pitchY - 8, lx: left - 46, ly: top + n * pitchY + gy / 2 + dh / 2 + 4 });
    else groups.push({ node: n, x: left + n * pitchX + 2, y: 4, w: pitchX - 4, h: H - 8, lx: left + n * pitchX + pitchX / 2, ly: 18, anchor: 'middle' });
  }
  const labels = [];
  for (let g = 0; g < G; ++g) {
    if (nodesAreRows) labels.push({ g, x: left + g * pitchX + pitchX / 2, y: H - 1, anchor: 'middle' });
  }
  /** Points of the route from device a to device b, in the gutters. */
  function route(a, b, lane) {
    const A = pos[a];
    const B = pos[b];
    const inset = Math.min(A.w, B.w) * 0.22;
    const laneY = (span) => Math.min(gy / 2 - 3, 5 + 3 * Math.min(span - 1, 4) + (lane % 2) * 1.5);
    if (A.row === B.row) {
      // Along the row: rightward above it, leftward below, higher for longer spans.
      const up = B.col > A.col;
      const off = laneY(Math.abs(B.col - A.col));
      const y = up ? A.y - off : A.y + A.h + off;
      const ya = up ? A.y : A.y + A.h;
      return [[A.cx + (up ? inset : -inset), ya], [A.cx + (up ? inset : -inset), y], [B.cx - (up ? inset : -inset), y], [B.cx - (up ? inset : -inset), ya]];
    }
    if (A.col === B.col) {
      // Along the column: downward in the gutter to its right, upward in the gutter to its left.
      const down = B.row > A.row;
      const off = Math.min(gx / 2 - 2, 4 + 2.5 * Math.min(Math.abs(B.row - A.row) - 1, 3) + (lane % 2) * 1.5);
      const x = down ? A.x + A.w + off : A.x - off;
      const xa = down ? A.x + A.w : A.x;
      if (Math.abs(B.row - A.row) === 1) { // neighbours: straight across the gutter between them
        const dx = down ? inset : -inset;
        return [[A.cx + dx, down ? A.y + A.h : A.y], [B.cx + dx, down ? B.y : B.y + B.h]];
      }
      return [[xa, A.cy + (down ? 4 : -4)], [x, A.cy + (down ? 4 : -4)], [x, B.cy + (down ? -4 : 4)], [xa, B.cy + (down ? -4 : 4)]];
    }
    // Elsewhere: out into the gutter beside the source's row on the destination's side, across
    // to the destination's column, along its gutter, then in.
    const down = B.row > A.row;
    const yOut = down ? A.y + A.h + gy / 2 + (lane % 3 - 1) * 2 : A.y - gy / 2 + (lane % 3 - 1) * 2;
    const yIn = down ? B.y - gy / 2 + (lane % 3 - 1) * 2 : B.y + B.h + gy / 2 + (lane % 3 - 1) * 2;
    const sx = A.cx + (down ? 0.4 : -0.4) * inset;
    const tx = B.cx - (down ? 0.4 : -0.4) * inset;
    if (Math.abs(B.row - A.row) === 1) return [[sx, down ? A.y + A.h : A.y], [sx, yOut], [tx, yOut], [tx, down ? B.y : B.y + B.h]];
    const gxPos = B.col > A.col ? B.x - gx / 2 : B.x + B.w + gx / 2; // the gutter beside B, on A's side
    return [[sx, down ? A.y + A.h : A.y], [sx, yOut], [gxPos, yOut], [gxPos, yIn], [tx, yIn], [tx, down ? B.y : B.y + B.h]];
  }
  return { pos, groups, labels, H, route, nodesAreRows, rect: true };
}

/** Flat topologies: devices round a circle (the switch, or the in-switch reducer, in the middle). */
function circleLayout(res, W, H) {
  const k = res.devices;
  const R = Math.min(W, H) / 2 - (k <= 16 ? 52 : 30);
  const pos = [];
  for (let i = 0; i < k; ++i) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / k;
    pos.push({ x: W / 2 + R * Math.cos(a), y: H / 2 + R * Math.sin(a), a });
  }
  pos.push({ x: W / 2, y: H / 2 }); // the switch (node k of in-switch reduction)
  const c = { x: W / 2, y: H / 2 };
  /** A curve bowing towards the centre: it stays inside the wedge of its two ends, where no other device stands. */
  function route(a, b) {
    const A = pos[a];
    const B = pos[b];
    if (a === k || b === k) return { line: [A, B] };
    const mx = (A.x + B.x) / 2;
    const my = (A.y + B.y) / 2;
    // Control point between the centre and the chord's middle; a little to the side per
    // direction so that a -> b and b -> a do not coincide.
    const f = 0.25;
    let qx = c.x + (mx - c.x) * f;
    let qy = c.y + (my - c.y) * f;
    const dx = B.x - A.x;
    const dy = B.y - A.y;
    const len = Math.hypot(dx, dy) || 1;
    const side = Math.min(10, len * 0.08);
    qx += (-dy / len) * side;
    qy += (dx / len) * side;
    return { quad: [A, { x: qx, y: qy }, B] };
  }
  return { pos, H, route, R };
}

/** An SVG path through points with rounded corners. */
function roundedPath(pts, r = 5) {
  let d = `M${pts[0][0].toFixed(1)} ${pts[0][1].toFixed(1)}`;
  for (let i = 1; i < pts.length; ++i) {
    const [x, y] = pts[i];
    if (i < pts.length - 1) {
      const [px, py] = pts[i - 1];
      const [nx, ny] = pts[i + 1];
      const l1 = Math.hypot(x - px, y - py) || 1;
      const l2 = Math.hypot(nx - x, ny - y) || 1;
      const rr = Math.min(r, l1 / 2, l2 / 2);
      d += ` L${(x - ((x - px) / l1) * rr).toFixed(1)} ${(y - ((y - py) / l1) * rr).toFixed(1)}`;
      d += ` Q${x.toFixed(1)} ${y.toFixed(1)} ${(x + ((nx - x) / l2) * rr).toFixed(1)} ${(y + ((ny - y) / l2) * rr).toFixed(1)}`;
    } else d += ` L${x.toFixed(1)} ${y.toFixed(1)}`;
  }
  return d;
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
  let drawn = null; // devices drawn one by one
  let agg = null; // the aggregated view
  let width = 0;
  const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches ?? false;

  const total = (s) => {
    let sum = 0;
    for (let i = 0; i < s; ++i) sum += res.schedule.steps[i].time_s;
    return sum;
  };
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
    timer = setTimeout(tick, (reduced ? 1200 : 700) / Number(speed.value) / (agg ? Math.max(1, res.schedule.steps.length / 60) : 1));
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

  function drawMessages(cur) {
    drawn.arrows.replaceChildren();
    const msgs = cur?.trace ?? [];
    const label = msgs.length <= MAX_LABELS;
    const labels = svg('g', { class: 'msg-labels' });
    const placed = [];
    msgs.forEach((m, i) => {
      if (!drawn.pos[m.src] || !drawn.pos[m.dst]) return;
      const r = drawn.route(m.src, m.dst, i);
      let d;
      let mid;
      if (Array.isArray(r)) {
        d = roundedPath(r);
        // The label sits on the longest segment.
        let best = 0;
        for (let j = 1; j < r.length; ++j) {
          const l = Math.hypot(r[j][0] - r[j - 1][0], r[j][1] - r[j - 1][1]);
          if (l > best) { best = l; mid = { x: (r[j][0] + r[j - 1][0]) / 2, y: (r[j][1] + r[j - 1][1]) / 2 }; }
        }
      } else {
        const [A, Q, B] = r.quad ?? [r.line[0], null, r.line[1]];
        // Start and end on the devices' rims.
        const rad = drawn.r + 1;
        const towards = (P, T) => { const l = Math.hypot(T.x - P.x, T.y - P.y) || 1; return { x: P.x + ((T.x - P.x) / l) * rad, y: P.y + ((T.y - P.y) / l) * rad }; };
        const a = m.src === res.devices ? towards(A, Q ?? B) : towards(A, Q ?? B);
        const b = towards(B, Q ?? A);
        if (m.src === res.devices) Object.assign(a, { x: A.x + (b.x - A.x) * 0.18, y: A.y + (b.y - A.y) * 0.18 });
        if (m.dst === res.devices) Object.assign(b, { x: B.x + (a.x - B.x) * 0.18, y: B.y + (a.y - B.y) * 0.18 });
        if (Q) {
          d = `M${a.x.toFixed(1)} ${a.y.toFixed(1)} Q${Q.x.toFixed(1)} ${Q.y.toFixed(1)} ${b.x.toFixed(1)} ${b.y.toFixed(1)}`;
          mid = { x: 0.25 * a.x + 0.5 * Q.x + 0.25 * b.x, y: 0.25 * a.y + 0.5 * Q.y + 0.25 * b.y };
        } else {
          d = `M${a.x.toFixed(1)} ${a.y.toFixed(1)} L${b.x.toFixed(1)} ${b.y.toFixed(1)}`;
          mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        }
      }
      const path = svg('path', {
        d, class: `msg ${m.op}${m.level ? ` ${m.level}` : ''}`, 'marker-end': `url(#${drawn.id}-${m.op})`,
        'data-message': '', 'data-from': m.src, 'data-to': m.dst, 'data-bytes': m.bytes, 'data-level': m.level ?? null,
      });
      path.append(svg('title', {}, t.msgText(m, m.op === 'reduce' ? t.reduce : t.copy, formatBytes(m.bytes), m.level ? t.levels[m.level] : '')));
      drawn.arrows.append(path);
      if (label && mid) {
        // A label that would cover a device or another label is left out (the status line and
        // the step table give every size).
        const text = formatBytes(m.bytes);
        const bw = text.length * 5.6 + 2;
        const box = { x: mid.x - bw / 2, y: mid.y - 6, w: bw, h: 11 };
        const hits = (o) => box.x < o.x + o.w && o.x < box.x + box.w && box.y < o.y + o.h && o.y < box.y + box.h;
        if (!drawn.boxes.some(hits) && !placed.some(hits)) {
          placed.push(box);
          labels.append(svg('text', { x: mid.x.toFixed(1), y: (mid.y + 3.5).toFixed(1), 'text-anchor': 'middle', class: 'msg-size' }, text));
        }
      }
    });
    drawn.arrows.append(labels);
  }

  function show(s) {
    if (!res) return;
    const n = res.schedule.steps.length;
    step = Math.max(0, Math.min(n, s));
    root.dataset.step = String(step);
    slider.value = String(step);
    const cur = step > 0 ? res.schedule.steps[step - 1] : null;
    const closed = res.closed_form?.time_s;
    const sizes = cur ? sizesText(cur) : '';
    status.textContent = step === 0 ? `${t.before} · ${t.stepOf(0, n)}`
      : `${t.stepOf(step, n)}${cur.phase ? ` — ${phaseText(cur)}` : ''}${sizes ? ` · ${sizes}` : ''} · ${t.stepTime} ${formatTime(cur.time_s)} · ${t.total} ${formatTime(total(step))}`
        + ` / ${formatTime(res.time_s)}${Number.isFinite(closed) ? ` · ${t.closedForm} ${formatTime(closed)}` : ''}`
        // The engine marks a cut-through step (in-switch multicast, P5 §5.4): say why it is short.
        + (cur?.cut_through ? `. ${t.cutThrough}` : '');
    root.dataset.phase = cur?.phase ?? '';
    if (agg) {
      // The marker follows the step shown.
      const x = step === 0 ? agg.x0 : agg.x0 + (step - 0.5) * agg.bw;
      agg.marker.setAttribute('x1', x.toFixed(1));
      agg.marker.setAttribute('x2', x.toFixed(1));
      agg.marker.setAttribute('visibility', step === 0 ? 'hidden' : 'visible');
      agg.markerLabel.setAttribute('x', Math.min(Math.max(x, agg.x0 + 30), agg.x1 - 30).toFixed(1));
      agg.markerLabel.textContent = step === 0 ? '' : `${t.colStep} ${step}: ${formatTime(cur.time_s)}`;
      return;
    }
    if (!drawn) return;
    drawMessages(cur);
    const fr = rep.frames[step];
    let done = 0;
    drawn.deviceNodes.forEach((g, d) => {
      const c = fr.complete[d];
      if (c == null) delete g.dataset.complete;
      else g.dataset.complete = String(c);
      if (c) done += 1;
      let sum = 0;
      let cnt = 0;
      for (let j = 0; j < rep.cells; ++j) {
        const p = fr.progress[d * rep.cells + j];
        if (p >= 0) { sum += p; cnt += 1; }
        const cell = drawn.cells[d]?.[j];
        if (cell) {
          cell.style.fill = progressFill(p);
          const who = members(fr.held[2 * (d * rep.cells + j)], fr.held[2 * (d * rep.cells + j) + 1]);
          cell.firstChild.textContent = t.cellTitle(d, j, who.length ? runs(who) : '', p);
        }
      }
      // Without cells the device itself takes the colour (inline: the stylesheet cannot override it).
      if (!drawn.cells[d]) drawn.fills[d].style.fill = progressFill(cnt ? sum / cnt : -1);
    });
    root.dataset.complete = String(done);
  }

  function drawDevices() {
    const k = res.devices;
    const two = res.topology?.kind === 'two_level';
    const phone = width < 560;
    const W = phone ? 380 : 640;
    const lay = two ? gridLayout(res, W) : circleLayout(res, W, phone ? (k <= 16 ? 360 : 380) : (k <= 16 ? 400 : 460));
    const H = lay.H;
    const id = `p${Math.random().toString(36).slice(2, 8)}`;
    const r = two ? 0 : k <= 8 ? 16 : k <= 16 ? 13 : k <= 32 ? 10 : 7;
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg', role: 'img', 'aria-label': `${t.player}: ${t.algorithms[res.algorithm] ?? res.algorithm}, ${k}` });
    const defs = svg('defs');
    for (const op of ['copy', 'reduce']) {
      const mk = svg('marker', { id: `${id}-${op}`, viewBox: '0 0 10 10', refX: '8', refY: '5', markerWidth: '5', markerHeight: '5', orient: 'auto-start-reverse' });
      mk.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `head ${op}` }));
      defs.append(mk);
    }
    chart.append(defs);
    if (two) {
      for (const g of lay.groups) {
        chart.append(svg('rect', { x: g.x, y: g.y, width: g.w, height: g.h, rx: 8, class: 'node-box', 'data-node-box': g.node }));
        chart.append(svg('text', { x: g.lx, y: g.ly, class: 'node-label', 'text-anchor': g.anchor ?? 'start' }, t.nodeName(g.node)));
      }
    } else {
      const c = lay.pos[k];
      const kind = res.topology?.kind;
      if (kind === 'ring') {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: lay.pos[i].x, y1: lay.pos[i].y, x2: lay.pos[(i + 1) % k].x, y2: lay.pos[(i + 1) % k].y, class: 'wire' }));
      } else {
        for (let i = 0; i < k; ++i) chart.append(svg('line', { x1: lay.pos[i].x, y1: lay.pos[i].y, x2: c.x, y2: c.y, class: 'wire' }));
        const sw = svg('g', { class: `switch${res.algorithm === 'in_switch' ? ' reducer' : ''}`, 'data-device': res.algorithm === 'in_switch' ? String(k) : null });
        sw.append(svg('rect', { x: c.x - 32, y: c.y - 13, width: 64, height: 26, rx: 5 }), svg('text', { x: c.x, y: c.y + 4, 'text-anchor': 'middle' }, t.switchName));
        chart.append(sw);
      }
    }
    const arrows = svg('g', { class: 'arrows' });
    const deviceLayer = svg('g');
    const cells = [];
    const fills = [];
    const deviceNodes = [];
    const withCells = k <= 16;
    for (let d = 0; d < k; ++d) {
      const p = lay.pos[d];
      const g = svg('g', { class: 'device', 'data-device': String(d), 'data-node': two ? p.node : null, 'data-local': two ? p.local : null });
      g.append(svg('title', {}, two ? t.deviceAt(d, p.node, p.local) : t.device(d)));
      let body;
      let stripX; let stripY; let stripW;
      if (two) {
        body = svg('rect', { x: p.x, y: p.y, width: p.w, height: p.h, rx: 4, class: 'dev' });
        g.append(body);
        const fs = p.w >= 26 ? 12 : 10;
        g.append(svg('text', { x: p.cx, y: withCells ? p.y + 12 : p.cy + fs / 2 - 1, 'text-anchor': 'middle', class: 'dev-label', 'font-size': fs }, String(d)));
        stripX = p.x + 3; stripW = p.w - 6; stripY = p.y + p.h - 12;
      } else {
        body = svg('circle', { cx: p.x, cy: p.y, r, class: 'dev' });
        g.append(body);
        g.append(svg('text', { x: p.x, y: p.y + 4, 'text-anchor': 'middle', class: 'dev-label', 'font-size': r >= 12 ? 12 : r >= 10 ? 11 : 9 }, String(d)));
        // The strip sits outward from the centre, clear of the messages inside the circle.
        stripW = Math.min(rep.cells * 10, phone ? 64 : 96);
        const dx = p.x - W / 2;
        const dy = p.y - H / 2;
        const len = Math.hypot(dx, dy) || 1;
        const ux = dx / len;
        const uy = dy / len;
        const reach = r + 4 + Math.abs(ux) * (stripW / 2) + Math.abs(uy) * 5;
        stripX = p.x + ux * reach - stripW / 2;
        stripY = p.y + uy * reach - 5;
      }
      fills.push(body);
      if (withCells) {
        const row = [];
        const cw = stripW / rep.cells;
        for (let c = 0; c < rep.cells; ++c) {
          const rect = svg('rect', { x: (stripX + c * cw).toFixed(2), y: stripY.toFixed(2), width: Math.max(0.8, cw - (cw > 3 ? 0.8 : 0.3)).toFixed(2), height: 9, class: 'cell' });
          rect.append(svg('title', {}, ''));
          g.append(rect);
          row.push(rect);
        }
        cells.push(row);
      } else cells.push(null);
      deviceLayer.append(g);
      deviceNodes.push(g);
    }
    if (two) for (const l of lay.labels) chart.append(svg('text', { x: l.x, y: l.y, 'text-anchor': l.anchor, class: 'local-label' }, t.localName(l.g)));
    chart.append(deviceLayer, arrows);
    stage.replaceChildren(chart);
    // Boxes that message labels keep clear of: devices with their cells, the switch.
    const boxes = two ? lay.pos.map((p) => ({ x: p.x, y: p.y, w: p.w, h: p.h }))
      : lay.pos.slice(0, k).map((p) => ({ x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r }));
    if (!two && res.topology?.kind !== 'ring') boxes.push({ x: W / 2 - 32, y: H / 2 - 13, w: 64, h: 26 });
    drawn = { pos: two ? lay.pos.map((p) => ({ ...p, x: p.cx, y: p.cy })) : lay.pos, r, id, arrows, cells, fills, deviceNodes, route: lay.route, boxes };
    const keys = [h('span', { class: 'key copy', text: t.copy }), h('span', { class: 'key reduce', text: t.reduce })];
    if (two) keys.push(h('span', { class: 'key intra', text: t.levels.intra }), h('span', { class: 'key inter', text: t.levels.inter }));
    keys.push(h('span', { class: 'key cells', text: t.cellLegend[res.collective] ?? t.cellLegend.allreduce }), h('span', { class: 'key complete', text: t.complete }));
    if (rep.frames[0].progress.subarray(0, k * rep.cells).some((p) => p < 0)) keys.push(h('span', { class: 'key owes-none', text: t.owesNone }));
    legend.replaceChildren(...keys);
  }

  function drawAggregated() {
    drawn = null;
    const steps = res.schedule.steps;
    const W = width < 560 ? 380 : 640;
    const H = 230;
    const x0 = 58;
    const x1 = W - 12;
    const yTop = 26;
    const yBase = H - 34;
    const max = Math.max(...steps.map((s) => s.time_s));
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'player-svg agg', role: 'img', 'aria-label': t.aggregated(res.devices) });
    const bw = (x1 - x0) / steps.length;
    // One path for all bars (thousands of steps); the step table holds each value.
    let d = '';
    steps.forEach((s, i) => {
      const hgt = max > 0 ? (s.time_s / max) * (yBase - yTop) : 0;
      d += `M${(x0 + i * bw).toFixed(2)} ${yBase}v${(-hgt).toFixed(2)}h${Math.max(0.4, bw - (bw > 3 ? 1 : 0)).toFixed(2)}v${hgt.toFixed(2)}z`;
    });
    chart.append(svg('path', { d, class: 'agg-bar' }));
    // Axes: time per step (the engine's seconds, shown in their unit) and step numbers.
    chart.append(svg('line', { x1: x0, y1: yBase, x2: x1, y2: yBase, class: 'axis-line' }), svg('line', { x1: x0, y1: yTop, x2: x0, y2: yBase, class: 'axis-line' }));
    for (const f of [0, 0.5, 1]) {
      const y = yBase - f * (yBase - yTop);
      chart.append(svg('line', { x1: x0 - 4, y1: y, x2: x0, y2: y, class: 'axis-line' }), svg('text', { x: x0 - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, formatTime(f * max)));
    }
    chart.append(svg('text', { x: 4, y: 14, class: 'axis' }, t.timePerStep));
    const ticks = [1];
    const stride = 10 ** Math.floor(Math.log10(Math.max(1, steps.length / 4)));
    const inc = [1, 2, 5, 10].map((m) => m * stride).find((v) => steps.length / v <= (W < 500 ? 4 : 7)) ?? stride * 10;
    for (let v = inc; v < steps.length; v += inc) if (v - 1 > steps.length * 0.06 && steps.length - v > steps.length * 0.08) ticks.push(v);
    if (steps.length > 1) ticks.push(steps.length);
    for (const v of ticks) {
      const x = x0 + (v - 0.5) * bw;
      chart.append(svg('line', { x1: x, y1: yBase, x2: x, y2: yBase + 4, class: 'axis-line' }), svg('text', { x, y: yBase + 16, 'text-anchor': 'middle', class: 'axis' }, String(v)));
    }
    chart.append(svg('text', { x: (x0 + x1) / 2, y: H - 3, 'text-anchor': 'middle', class: 'axis' }, t.colStep));
    const marker = svg('line', { x1: x0, y1: yTop - 6, x2: x0, y2: yBase, class: 'step-marker', 'data-role': 'step-marker', visibility: 'hidden' });
    const markerLabel = svg('text', { x: x0, y: yTop - 10, 'text-anchor': 'middle', class: 'axis marker-label' }, '');
    chart.append(marker, markerLabel);
    stage.replaceChildren(chart);
    agg = { x0, x1, bw, marker, markerLabel };
    legend.replaceChildren();
  }

  function drawTable() {
    const rows = res.schedule.steps.slice(0, 200).map((s, i) => {
      const msgs = s.trace ?? [];
      const text = msgs.slice(0, 12).map((m) => t.msgText(m, m.op === 'reduce' ? t.reduce : t.copy, formatBytes(m.bytes), m.level ? t.levels[m.level] : '')).join(', ')
        + (s.messages > 12 ? ` ${t.moreMessages(s.messages - Math.min(12, msgs.length))}` : '');
      return h('tr', {}, [h('td', { text: String(i + 1) }), h('td', { text: phaseText(s) }), h('td', { text: sizesText(s) || String(s.messages) }), h('td', { text })
        , h('td', { text: formatTime(s.time_s) }), h('td', { text: formatTime(total(i + 1)) })]);
    });
    const table = h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colStep, t.colPhase, t.colSizes, t.colMessages, t.colTime, t.colTotal].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows),
    ]);
    tableBox.replaceChildren(h('summary', { text: t.stepTable }), table);
  }
  // The step table is built when opened, and rebuilt for a new schedule while open.
  tableBox.addEventListener('toggle', () => { if (tableBox.open && res && !tableBox.querySelector('table')) drawTable(); });

  function draw() {
    width = stage.clientWidth || root.clientWidth || 640;
    agg = null;
    if (res.devices <= MAX_DRAWN) drawDevices();
    else drawAggregated();
    show(step);
  }
  // A phone and a desktop get layouts of their own (readable labels at 390 px).
  if (globalThis.ResizeObserver) {
    new ResizeObserver(() => {
      const w = stage.clientWidth;
      if (res && w && (w < 560) !== (width < 560)) draw();
    }).observe(stage);
  }

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
        stage.replaceChildren(h('p', { class: 'card-error', role: 'alert', text: viewProblem(lang, out[0].error) }));
        root.dataset.steps = '0';
        return false;
      }
      const t0 = performance.now();
      res = out[0];
      const n = res.schedule.steps.length;
      root.dataset.steps = String(res.steps);
      root.dataset.devices = String(res.devices);
      root.dataset.collective = res.collective;
      root.dataset.algorithm = res.algorithm;
      root.dataset.topology = res.topology?.kind ?? '';
      root.dataset.lecture = lectureSection(res);
      slider.max = String(n);
      rep = res.devices <= MAX_DRAWN ? replay(res) : null;
      step = 0;
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
