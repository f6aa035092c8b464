// The schedule player's replay model: what the engine's traced schedule means step by step
// (which step is shown, what each device holds then, whether it plays), apart from any drawing.
// Pure: it runs under Node (tests/node/player_model.test.mjs).

/** Devices drawn one by one up to this count; beyond, an aggregated view per step. */
export const MAX_DRAWN = 64;
const MAX_CELLS = 16;
/** Blocks tracked per buffer at most (finer schedules are tracked at this grain). */
const MAX_UNITS = 4096;

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
export function members(w0, w1) {
  const out = [];
  for (let d = 0; d < 64; ++d) if (((d < 32 ? w0 : w1) >>> (d & 31)) & 1) out.push(d);
  return out;
}

/** "0-3, 5": a sorted list of ids, runs shortened. */
export function runs(ids) {
  const parts = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j += 1;
    parts.push(j > i + 1 ? `${ids[i]}–${ids[j]}` : j === i + 1 ? `${ids[i]}, ${ids[j]}` : `${ids[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * One schedule replayed: `step` is the step shown (0 = before the first, up to the step count),
 * `playing` whether it advances by itself. Devices are replayed one by one only up to MAX_DRAWN.
 */
export class ReplayModel {
  res = null;
  replayed = null;
  step = 0;
  playing = false;

  /** A new schedule (the engine's `simulate` answer), shown from before its first step; null for none. */
  load(res) {
    this.res = res;
    this.replayed = res && res.devices <= MAX_DRAWN ? replay(res) : null;
    this.step = 0;
  }

  get count() { return this.res ? this.res.schedule.steps.length : 0; }
  get atEnd() { return this.step >= this.count; }
  /** Too many devices to draw one by one: steps are shown as bars. */
  get aggregated() { return Boolean(this.res) && this.res.devices > MAX_DRAWN; }

  /** Shows step `s`, kept within 0..count; false without a schedule. */
  go(s) {
    if (!this.res) return false;
    this.step = Math.max(0, Math.min(this.count, s));
    return true;
  }
  first() { return this.go(0); }
  last() { return this.go(this.count); }
  forward() { return this.go(this.step + 1); }
  back() { return this.go(this.step - 1); }

  /** The step shown (the engine's), null before the first. */
  get current() { return this.step > 0 ? this.res.schedule.steps[this.step - 1] : null; }
  /** Time from the start to the end of step `s` (the engine's step times added). */
  elapsed(s = this.step) {
    let sum = 0;
    for (let i = 0; i < s; ++i) sum += this.res.schedule.steps[i].time_s;
    return sum;
  }

  /** Starts playing; from the first step again when at the end. False without a schedule. */
  play() {
    if (!this.res) return false;
    if (this.atEnd) this.go(0);
    this.playing = true;
    return true;
  }
  pause() { this.playing = false; }
  /** One step on while playing; at the end (or without a schedule) it stops and says false. */
  advance() {
    if (!this.res || this.atEnd) {
      this.playing = false;
      return false;
    }
    return this.go(this.step + 1);
  }
  /** Milliseconds between two steps at `speed` (a long aggregated schedule plays faster). */
  delay(speed, reducedMotion = false) {
    return (reducedMotion ? 1200 : 700) / speed / (this.aggregated ? Math.max(1, this.count / 60) : 1);
  }

  /** Buffer cells per device (0 when not replayed). */
  get cells() { return this.replayed?.cells ?? 0; }
  /**
   * Device `d` at the step shown: `complete` (null when it owes no result), and each cell's
   * `progress` (share of its final result held, -1: owes none) and `holders` (whose data it
   * carries); `progress` is the cells' mean, -1 when none owes anything.
   */
  device(d) {
    const fr = this.replayed.frames[this.step];
    const n = this.replayed.cells;
    const cells = [];
    let sum = 0;
    let cnt = 0;
    for (let j = 0; j < n; ++j) {
      const p = fr.progress[d * n + j];
      if (p >= 0) { sum += p; cnt += 1; }
      cells.push({ progress: p, holders: members(fr.held[2 * (d * n + j)], fr.held[2 * (d * n + j) + 1]) });
    }
    return { complete: fr.complete[d], cells, progress: cnt ? sum / cnt : -1 };
  }
  /** Some device owes no final result for this collective (its cells show so). */
  someOweNone() {
    const k = this.res.devices;
    return this.replayed.frames[0].progress.subarray(0, k * this.replayed.cells).some((p) => p < 0);
  }
}
