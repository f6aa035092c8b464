// The least each device must send (?view=bound, P5 §4.2) held against the engine: every
// algorithm's run by the step engine (simulate: on buffers where the engine takes them, counted
// where it refuses), its bytes a device against the lower bound, the engine's verdict (meets,
// above, below) and steps against the ring's that pick the sentences, bars and the bound's line
// on one axis at the engine's bytes, and the bound for growing k (collective).
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { intIn, logInt, pick, pow2In } from './walk.mjs';

const ALL = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
const LINKS = engine({ op: 'links' }).links;
/** The switch on `link` that reduces (the links op's reducing_switch), or 'none'. */
const reducingOn = (link) => LINKS.find((l) => l.id === link)?.reducing_switch ?? 'none';
/** The algorithms drawn on `link`: in-switch only where its switch reduces (§5.4). */
const algorithmsOn = (link) => ALL.filter((a) => a !== 'in_switch' || reducingOn(link) !== 'none');
const GROWTH = [2, 4, 8, 16, 64, 256, 1024];

/** The bytes a device of `mb` MB as typed: the decimal point moved, as the view does (no float product). */
export const bytesOf = (mb) => {
  const [mantissa, exponent = '0'] = String(mb).toLowerCase().split('e');
  return Number(`${mantissa}e${Number(exponent) + 6}`);
};
/** `bytes` as MB the way a student would type them (2040 B: 0.00204). */
const mbOf = (bytes) => Number(`${bytes}e-6`);

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="bound"][data-devices="${s.devices}"][data-mb="${s.mb}"][data-link="${s.link}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 30000 });

export const first = { devices: 8, mb: 8, link: 'nvlink4' };

/**
 * Settings drawn from the view's domain: 2-256 devices (powers of two, where the ring and
 * Rabenseifner meet the bound, and others, where Rabenseifner does not and a tree may take the
 * ring's steps), 1 B to 1 TB a device on a log scale (whole bytes; now and then a fraction of a
 * byte, under 8 B or not whole 8-byte elements, which the engine counts instead of running).
 * Runs on buffers are drawn up to 16 MB of inputs in all: a run near the engine's 256 MB limit
 * takes seconds (in the page and again here), so the flip from runs on buffers to counted runs
 * is walked at the sizes the engine refuses quickly, not at the memory limit.
 */
export function draw(rng, options) {
  const r = rng();
  const devices = r < 0.35 ? pow2In(rng, 2, 256) : r < 0.55 ? intIn(rng, 2, 9) : logInt(rng, 2, 256);
  const q = rng();
  let bytes;
  if (q < 0.4) bytes = 8 * logInt(rng, 1, Math.floor(2e6 / devices)); // on buffers
  else if (q < 0.5) bytes = intIn(rng, 1, 24); // under 8 B, and not whole 8-byte elements
  else {
    bytes = logInt(rng, 1, 1e12);
    if (bytes % 8 === 0 && devices * bytes > 16e6 && devices * bytes < 1e9) bytes += 1; // counted, not a slow run on buffers
  }
  let mb = mbOf(bytes);
  if (rng() < 0.05) mb = pick(rng, [0.0000015, 0.0000095, 1.0000005, 123.4567891]); // a fraction of a byte
  return { devices, mb, link: pick(rng, options.link) };
}

/** The run the view draws for `algorithm`: on buffers, or counted where the engine refuses buffers. */
function run(algorithm, s) {
  const request = { op: 'simulate', collective: 'allreduce', algorithm, devices: s.devices, bytes: bytesOf(s.mb), link: s.link, mode: 'data', trace_limit: 0 };
  const data = engine(request);
  return data.error ? { ...engine({ ...request, mode: 'accounting' }), data_refused: data.error.code } : data;
}

/** Asserts what the view shows at `s` is the engine's; returns {rows, wants} (what is drawn, the engine's runs). */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const bytes = bytesOf(s.mb);
  const ALGORITHMS = algorithmsOn(s.link);
  const wants = ALGORITHMS.map((a) => run(a, s));
  for (const w of wants) assert.equal(w.error, undefined, `${at}: ${JSON.stringify(w.error)}`);
  const got = await page.evaluate(() => {
    const root = document.querySelector('[data-view="bound"]');
    const data = (e) => (e ? { ...e.dataset } : null);
    return {
      root: data(root),
      rows: [...root.querySelectorAll('.bound-row')].map((e) => ({
        ...e.dataset, bar: e.querySelector('.bound-bar').style.width, barClass: e.querySelector('.bound-bar').className, line: e.querySelector('.bound-line').style.left,
      })),
      says: [...root.querySelectorAll('.bound-sentences li')].map(data),
      table: [...root.querySelectorAll('details.chart-table tbody tr')].map(data),
      growth: [...root.querySelectorAll('.bound-growth-table tbody tr')].map(data),
    };
  });
  assert.deepEqual([Number(got.root.bytes), Number(got.root.lowerBoundBytes)], [bytes, wants[0].lower_bound_bytes], `${at}: the view asks for the bytes typed`);

  // Each algorithm's run: the engine's figures and its verdict against the bound.
  const tol = (w) => 1e-9 * Math.max(w.bytes_sent_per_device, w.lower_bound_bytes); // the engine's rounding (ops_simulate.cpp)
  assert.deepEqual(got.rows.map((r) => r.algorithm), ALGORITHMS, at);
  got.rows.forEach((r, i) => {
    const w = wants[i];
    const where = `${at} ${w.algorithm}`;
    assert.deepEqual(
      [Number(r.bytesSentPerDevice), Number(r.lowerBoundBytes), Number(r.steps), Number(r.timeS), r.verified, r.mode, r.against],
      [w.bytes_sent_per_device, w.lower_bound_bytes, w.steps, w.time_s, String(w.verified === true), w.mode, w.against_bound], where);
    assert.equal(r.barClass, `bound-bar bound-${w.against_bound}`, where);
    const gap = w.bytes_sent_per_device - w.lower_bound_bytes;
    assert.equal(w.against_bound, Math.abs(gap) <= tol(w) ? 'meets' : gap > 0 ? 'above' : 'below', `${where}: ${w.bytes_sent_per_device} against ${w.lower_bound_bytes}`);
    if (w.mode === 'data') assert.equal(w.verified, true, `${where}: a run on buffers ends with every device holding the sum`);
  });
  // Bars and the bound's line on one linear axis, at the engine's bytes: longer bars for more bytes.
  const longest = Math.max(wants[0].lower_bound_bytes, ...wants.map((w) => w.bytes_sent_per_device));
  const at100 = (x) => (longest > 0 ? (x / longest) * 100 : 0);
  got.rows.forEach((r, i) => {
    const w = wants[i];
    assert.ok(Math.abs(parseFloat(r.bar) - at100(w.bytes_sent_per_device)) <= 0.00051, `${at} ${w.algorithm}: bar ${r.bar} for ${w.bytes_sent_per_device} of ${longest}`);
    assert.ok(Math.abs(parseFloat(r.line) - at100(w.lower_bound_bytes)) <= 0.00051, `${at} ${w.algorithm}: line at ${r.line} for ${w.lower_bound_bytes} of ${longest}`);
    if (w.against_bound === 'above') assert.ok(parseFloat(r.bar) >= parseFloat(r.line), `${at} ${w.algorithm}: above the bound, its bar reaches past the line`);
    if (w.against_bound === 'below') assert.ok(parseFloat(r.bar) <= parseFloat(r.line), `${at} ${w.algorithm}: below the bound, its bar stops short of the line`);
  });
  for (const [i, a] of got.rows.entries()) for (const [j, b] of got.rows.entries()) {
    if (wants[i].bytes_sent_per_device < wants[j].bytes_sent_per_device) assert.ok(parseFloat(a.bar) <= parseFloat(b.bar), `${at}: ${a.algorithm} ${a.bar} against ${b.algorithm} ${b.bar}`);
  }

  // The sentences: picked by the engine's verification, verdicts and steps against the ring's.
  const ring = wants[0];
  // Counted runs say why, by the engine's refusal of buffers: too_large, or not whole elements.
  const says = [wants.every((w) => w.verified === true) ? { says: 'verified-all' }
    : { says: 'verified-some', countedBecause: wants.filter((w) => w.verified !== true).map((w) => w.data_refused ?? 'none').join(' ') }];
  if (wants.some((w) => w.against_bound === 'meets')) says.push({ says: 'meets' });
  for (const w of wants.filter((x) => x.against_bound === 'above')) {
    says.push({ says: `above-${w.algorithm}`, stepsAgainstRing: w.steps_against_ring });
    assert.equal(w.ring_steps, ring.steps, `${at} ${w.algorithm}: the ring's steps`);
    assert.equal(w.steps_against_ring, w.steps < ring.steps ? 'fewer' : w.steps === ring.steps ? 'same' : 'more', `${at} ${w.algorithm}: ${w.steps} steps against ${ring.steps}`);
  }
  for (const w of wants.filter((x) => x.against_bound === 'below')) says.push({ says: `below-${w.algorithm}` });
  if (reducingOn(s.link) === 'none') says.push({ says: 'no-switch' });
  assert.equal(got.root.reducingSwitch, reducingOn(s.link), at);
  assert.deepEqual(got.says, says, at);

  // The table: the same figures.
  assert.deepEqual(got.table, wants.map((w) => ({
    algorithm: w.algorithm, bytesSentPerDevice: String(w.bytes_sent_per_device), lowerBoundBytes: String(w.lower_bound_bytes), steps: String(w.steps), timeS: String(w.time_s), verified: String(w.verified === true),
  })), at);
  // The bound as devices are added: the engine's collective op, at the same bytes.
  const growth = GROWTH.map((n) => engine({ op: 'collective', collective: 'allreduce', algorithm: 'ring', devices: n, bytes, link: s.link }));
  assert.deepEqual(got.growth.map((g) => [Number(g.devices), Number(g.lowerBoundBytes)]), growth.map((g) => [g.devices, g.lower_bound_bytes]), at);
  assert.equal(growth[0].bytes, bytes, at);
  return { rows: got.rows, wants };
}
