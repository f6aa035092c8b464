// NCCL (?view=nccl, P5 §5.6, §5.4) held against the engine: the ring chart's protocol boundaries
// and its cheapest protocol (crossover, kind nccl), what each protocol is (nccl.protocols), the
// tuner's pick and every pair it weighs (nccl), what it leaves out and why, the in-switch chart
// beside the ring (allreduce, crossover) with the switch that reduces on the link (links), and
// every conclusion (the cheapest, the pick, the fastest) against the engine's times.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { intIn, logInt, pick, pow2In } from './walk.mjs';

const LINKS = engine({ op: 'links' }).links;

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="nccl-view"][data-devices="${s.devices}"][data-bytes="${s.bytes}"][data-link="${s.link}"]:not([aria-busy]) [data-role="drawn"]:not([hidden]) [data-role="choice"][data-time-s]`,
  { timeout: 20000 });

export const first = { devices: 8, bytes: 1e6, link: 'nvlink4' };

/**
 * Settings drawn from the view's domain: 2-1,024 GPUs, 1 B to 1 GB (whole bytes on a log scale,
 * now and then a fraction), any link; half the time the size sits next to a size where the
 * engine's cheapest choice changes (a protocol of the ring, the tuner's pair, or in-switch
 * against the ring).
 */
export function draw(rng, options) {
  const devices = rng() < 0.3 ? pow2In(rng, 2, 1024) : logInt(rng, 2, 1024);
  const link = pick(rng, options.link);
  let bytes = logInt(rng, 1, 1e9);
  if (rng() < 0.5) {
    const reducing = LINKS.find((l) => l.id === link)?.reducing_switch ?? 'none';
    const ask = pick(rng, [
      { op: 'crossover', kind: 'nccl', devices, link, algorithms: ['ring'] },
      { op: 'crossover', kind: 'nccl', devices, link },
      ...(reducing === 'none' ? [] : [{ op: 'crossover', devices, link, algorithms: ['ring', 'in_switch'] }]),
    ]);
    const edges = engine(ask).boundaries ?? [];
    if (edges.length) bytes = Math.round(pick(rng, edges).bytes * (1 + (rng() - 0.5) * (rng() < 0.5 ? 1e-3 : 0.2)));
  }
  if (rng() < 0.1) bytes += intIn(rng, 1, 99) / 100; // a size typed with a fraction of a byte
  return { devices, bytes: Math.min(1e9, Math.max(1, bytes)), link };
}

/** The in-switch algorithm the tuner weighs on `link` (the links op's reducing_switch). */
const reducingOn = (link) => LINKS.find((l) => l.id === link).reducing_switch;

/** Asserts what the view shows at `s` is the engine's; returns the engine's answers. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const { devices, bytes, link } = s;
  const view = page.locator('[data-view="nccl-view"]');
  const proto = engine({ op: 'nccl.protocols', link });
  const pickAnswer = engine({ op: 'nccl', devices, bytes, link });
  const ring = engine({ op: 'nccl', devices, bytes, link, algorithms: ['ring'] });
  const cross = engine({ op: 'crossover', kind: 'nccl', devices, link, algorithms: ['ring'], bytes });
  const reducing = reducingOn(link);
  const algorithms = reducing === 'none' ? ['ring'] : ['ring', 'in_switch'];
  const selected = reducing === 'none' ? 'ring' : 'in_switch';
  const nvlsCross = engine({ op: 'crossover', devices, link, algorithms, bytes });
  const times = algorithms.map((algorithm) => engine({ op: 'allreduce', algorithm, devices, bytes, link }).time_s);
  for (const w of [proto, pickAnswer, ring, cross, nvlsCross]) assert.equal(w.error, undefined, `${at}: ${JSON.stringify(w.error)}`);

  const got = await page.evaluate(() => {
    const root = document.querySelector('[data-view="nccl-view"]');
    const data = (e) => (e ? { ...e.dataset } : null);
    const all = (sel) => [...root.querySelectorAll(sel)].map(data);
    return {
      root: data(root),
      chart: data(root.querySelector('[data-view="nccl"]')),
      nvls: data(root.querySelector('[data-view="crossover"]')),
      note: data(root.querySelector('[data-role="nvls-note"]')),
      protocols: data(root.querySelector('[data-role="protocols"]')),
      items: all('[data-role="protocols"] li[data-protocol]'),
      tableRows: all('[data-role="protocols"] tr[data-protocol]'),
      choice: data(root.querySelector('[data-role="choice"]')),
      pairs: [...root.querySelectorAll('[data-role="choice"] tr[data-pair]')].map((e) => ({ ...e.dataset, best: e.classList.contains('is-best') })),
      leftOut: data(root.querySelector('[data-role="left-out"]')),
    };
  });

  // The switch that reduces on this link: the engine's, which picks the in-switch note and chart.
  assert.equal(got.root.reducingSwitch, reducing, at);
  assert.equal(got.note.says, reducing, at);

  // The ring's chart: the exact boundaries and the cheapest protocol at this size, the ring's pick.
  assert.equal(got.chart.lecture, '5.6', at);
  assert.equal(Number(got.chart.devices), devices, at);
  const boundaries = JSON.parse(got.chart.boundaries);
  assert.deepEqual(boundaries, cross.boundaries.map((x) => ({ bytes: x.bytes, from: x.from, to: x.to })), at);
  boundaries.forEach((b, i) => { if (i) assert.ok(b.bytes > boundaries[i - 1].bytes, `${at}: boundaries in order`); });
  assert.equal(got.chart.fastest, cross.cheapest.name, at);
  assert.equal(got.chart.fastest, `ring/${ring.protocol}`, `${at}: the chart's cheapest is the ring's pick`);

  // What each protocol is.
  const figures = (p) => ({
    protocol: p.protocol, payloadShare: String(p.payload_share), unitBytes: String(p.unit_bytes), payloadBytes: String(p.payload_bytes), flagBytes: String(p.flag_bytes),
    bandwidthBps: String(p.bandwidth_Bps), stepLatencyS: String(p.step_latency_s), baseLatencyS: String(p.base_latency_s), flagInData: String(p.flag_in_data),
  });
  assert.deepEqual(got.items, proto.protocols.map(figures), at);
  assert.deepEqual(got.tableRows, proto.protocols.map(figures), at);
  assert.equal(Number(got.protocols.linkBetaBps), proto.link.beta_Bps, at);

  // The tuner's pick, the ring's cheapest, every pair weighed (in the engine's order), the pick marked.
  const c = got.choice;
  assert.deepEqual([c.algorithm, c.protocol, Number(c.timeS), Number(c.bytes), Number(c.devices)], [pickAnswer.algorithm, pickAnswer.protocol, pickAnswer.time_s, bytes, devices], at);
  assert.deepEqual([c.ringProtocol, Number(c.ringTimeS)], [ring.protocol, ring.time_s], at);
  assert.deepEqual(got.pairs.map((r) => ({ pair: r.pair, timeS: Number(r.timeS), latencyS: Number(r.latencyS), bandwidthBps: Number(r.bandwidthBps) })),
    pickAnswer.candidates.map((x) => ({ pair: `${x.algorithm}/${x.protocol}`, timeS: x.time_s, latencyS: x.latency_s, bandwidthBps: x.bandwidth_Bps })), at);
  assert.deepEqual(got.pairs.filter((r) => r.best).map((r) => r.pair), [`${pickAnswer.algorithm}/${pickAnswer.protocol}`], `${at}: one pair marked, the pick`);
  assert.equal(pickAnswer.time_s, Math.min(...pickAnswer.candidates.map((x) => x.time_s)), `${at}: the pick is the cheapest pair`);
  assert.equal(ring.time_s, Math.min(...pickAnswer.candidates.filter((x) => x.algorithm === 'ring').map((x) => x.time_s)), `${at}: the ring's cheapest protocol`);
  if (reducing !== 'none') assert.ok(pickAnswer.candidates.some((x) => x.algorithm === reducing), `${at}: the tuner weighs ${reducing}`);
  // What the tuner leaves out on this link, and why.
  if (pickAnswer.left_out.length) {
    assert.deepEqual([got.leftOut?.algorithms, got.leftOut?.reasons], [pickAnswer.left_out.map((x) => x.algorithm).join(' '), pickAnswer.left_out.map((x) => x.reason).join(' ')], at);
  } else assert.equal(got.leftOut, null, at);

  // In-switch reduction beside the ring (§5.4): the engine's boundaries, its fastest, the time marked.
  const n = got.nvls;
  assert.equal(n.lecture, '5.4', at);
  assert.deepEqual([Number(n.devices), Number(n.bytes), n.source, n.algorithm], [devices, bytes, 'closed_form', selected], at);
  assert.deepEqual(JSON.parse(n.boundaries), nvlsCross.boundaries.map((x) => ({ bytes: x.bytes, from: x.from, to: x.to })), at);
  assert.equal(n.fastest, nvlsCross.cheapest.name, at);
  assert.equal(Number(n.timeS), times[algorithms.indexOf(selected)], at);
  const fastest = algorithms[times.indexOf(Math.min(...times))]; // a tie goes to the earlier, as the engine breaks it
  assert.equal(n.fastest, fastest, `${at}: the fastest drawn is the cheaper of ${algorithms.join(', ')}: ${times.join(', ')} s`);
  return { proto, pick: pickAnswer, ring, cross, reducing, nvls: nvlsCross };
}
