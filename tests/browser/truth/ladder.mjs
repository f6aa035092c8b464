// The bandwidth ladder (?view=ladder, P5 §2.1, §2.3) held against the engine's ladder answers: every
// rung's level, β, α, nominal rate and n½ (the picture and the table), the bars on log axes in the
// order of their figures, the lecture's comparisons and the student's pair (which is faster, by how
// much, or equal: the cases that pick the sentences), and the node's inside against outside.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { pick } from './walk.mjs';

const EFFICIENCY = [0.01, 1];
const rungs = engine({ op: 'ladder' }).rungs;
/** Pairs of rungs equally fast (the sentence turns to "equally fast" there): RoCE 400G and InfiniBand NDR. */
const TIES = rungs.flatMap((x) => rungs.filter((y) => y.id !== x.id && y.beta_Bps === x.beta_Bps).map((y) => [x.id, y.id]));

/** The engine's two requests of the view at `s`: the lecture's pairs with the node, and the student's pair. */
export const requests = (s) => ({
  lecture: { op: 'ladder', efficiency: Number(s.efficiency), node: s.node },
  mine: { op: 'ladder', efficiency: Number(s.efficiency), pairs: [[s.a, s.b]] },
});

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="ladder"][data-efficiency="${s.efficiency}"][data-a="${s.a}"][data-b="${s.b}"][data-node="${s.node}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 20000 });

/**
 * Settings drawn from the view's domain: an efficiency from 0.01 to 1 (two decimals; the ends and
 * the lecture's 0.8 now and then), any two rungs (the same one, or two equally fast, at times), a node.
 */
export function draw(rng, options) {
  const r = rng();
  const efficiency = r < 0.15 ? pick(rng, [EFFICIENCY[0], EFFICIENCY[1], 0.8]) : Math.max(EFFICIENCY[0], Number((EFFICIENCY[0] + rng() * (EFFICIENCY[1] - EFFICIENCY[0])).toFixed(2)));
  const q = rng();
  const [a, b] = q < 0.15 ? pick(rng, TIES) : q < 0.25 ? Array(2).fill(pick(rng, options.a)) : [pick(rng, options.a), pick(rng, options.b)];
  return { efficiency, a, b, node: pick(rng, options.node) };
}
export const first = { efficiency: 0.8, a: 'nvlink4', b: 'pcie5', node: 'dgx_h100' };

/** What the view shows in figures, in one trip to the page. */
const read = (page) => page.locator('[data-view="ladder"]').evaluate((root) => {
  const comparison = (e) => ({ comparison: e.dataset.comparison, faster: e.dataset.faster, slower: e.dataset.slower, ratio: Number(e.dataset.ratio), equal: e.dataset.equal, faster_Bps: Number(e.dataset.fasterBps), slower_Bps: Number(e.dataset.slowerBps) });
  const node = root.querySelector('#ladder-node');
  return {
    data: { ...root.dataset },
    levels: [...root.querySelectorAll('.ladder-level')].map((e) => e.dataset.level),
    rows: [...root.querySelectorAll('.ladder-row[data-link]')].map((e) => ({
      id: e.dataset.link, level: e.dataset.level, beta_Bps: Number(e.dataset.betaBps), alpha_s: Number(e.dataset.alphaS),
      beta: parseFloat(e.querySelector('.bar-beta').style.width), alpha: parseFloat(e.querySelector('.bar-alpha').style.width),
    })),
    table: [...root.querySelectorAll('details.chart-table tbody tr')].map((e) => ({
      id: e.dataset.link, nominal_Bps: Number(e.querySelector('[data-nominal-bps]').dataset.nominalBps), beta_Bps: Number(e.querySelector('[data-beta-bps]').dataset.betaBps),
      alpha_s: Number(e.querySelector('[data-alpha-s]').dataset.alphaS), n_half_bytes: Number(e.querySelector('[data-n-half-bytes]').dataset.nHalfBytes),
    })),
    claims: [...root.querySelectorAll('[data-role="claims"] [data-comparison]')].map(comparison),
    yours: [...root.querySelectorAll('[data-role="yours"] [data-comparison]')].map(comparison),
    node: { ...node.dataset },
  };
});

const near = (x, y, rel = 1e-12) => Math.abs(x - y) <= rel * Math.max(Math.abs(x), Math.abs(y));

/** Bars on a log axis: each at the same length a decade (to the view's 0.01 %), so in the order of their figures. */
function onLogAxis(rows, key, bar, at) {
  const lo = rows.reduce((m, r) => (r[key] < m[key] ? r : m));
  const hi = rows.reduce((m, r) => (r[key] > m[key] ? r : m));
  const perDecade = (hi[bar] - lo[bar]) / Math.log10(hi[key] / lo[key]);
  assert.ok(perDecade > 0, `${at}: ${bar} bars grow with ${key}`);
  for (const r of rows) {
    const want = lo[bar] + perDecade * Math.log10(r[key] / lo[key]);
    assert.ok(Math.abs(r[bar] - want) <= 0.02, `${at}: ${r.id}'s ${bar} bar ${r[bar]}% where its ${r[key]} puts it at ${want}%`);
    for (const o of rows) if (r[key] > o[key]) assert.ok(r[bar] >= o[bar], `${at}: ${r.id}'s ${bar} bar shorter than ${o.id}'s`);
  }
}

/** A comparison as the view marks it, after checking that it says what the engine's figures say. */
function compared(c, byId, at) {
  const [fa, sl] = [byId[c.faster], byId[c.slower]];
  assert.deepEqual([c.faster, c.slower].sort(), [c.a, c.b].sort(), `${at}: ${c.a}/${c.b} names both`);
  assert.deepEqual([c.faster_Bps, c.slower_Bps], [fa.beta_Bps, sl.beta_Bps], `${at}: ${c.a}/${c.b} compares the rungs' β`);
  assert.ok(c.faster_Bps >= c.slower_Bps, `${at}: ${c.faster} is the faster`);
  assert.equal(c.equal, c.faster_Bps === c.slower_Bps, `${at}: ${c.a}/${c.b} equal`);
  assert.ok(near(c.ratio, c.faster_Bps / c.slower_Bps), `${at}: ${c.a}/${c.b} ratio ${c.ratio}`);
  return { comparison: `${c.a}/${c.b}`, faster: c.faster, slower: c.slower, ratio: c.ratio, equal: String(c.equal), faster_Bps: c.faster_Bps, slower_Bps: c.slower_Bps };
}

/** Asserts what the view shows at `s` is the engine's; returns the engine's two answers. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const asks = requests(s);
  const lecture = engine(asks.lecture);
  const mine = engine(asks.mine);
  assert.ok(!lecture.error && !mine.error, `${at}: the engine answers`);
  const got = await read(page);
  assert.equal(Number(got.data.efficiency), lecture.efficiency, at);
  assert.deepEqual(got.levels, lecture.levels.filter((l) => lecture.rungs.some((r) => r.level === l)), at);
  assert.deepEqual(got.rows.map(({ id, level, beta_Bps, alpha_s }) => ({ id, level, beta_Bps, alpha_s })), lecture.rungs.map((r) => ({ id: r.id, level: r.level, beta_Bps: r.beta_Bps, alpha_s: r.alpha_s })), at);
  assert.deepEqual(got.table, lecture.rungs.map((r) => ({ id: r.id, nominal_Bps: r.nominal_Bps, beta_Bps: r.beta_Bps, alpha_s: r.alpha_s, n_half_bytes: r.n_half_bytes })), at);
  for (const r of lecture.rungs) assert.ok(near(r.beta_Bps, r.nominal_Bps * lecture.efficiency), `${at}: ${r.id}'s effective rate is nominal × efficiency`);
  onLogAxis(got.rows, 'beta_Bps', 'beta', at);
  onLogAxis(got.rows, 'alpha_s', 'alpha', at);
  const byId = Object.fromEntries(lecture.rungs.map((r) => [r.id, r]));
  assert.deepEqual(got.claims, lecture.comparisons.map((c) => compared(c, byId, at)), `${at}: the lecture's comparisons`);
  assert.deepEqual(mine.comparisons.map((c) => [c.a, c.b]), [[s.a, s.b]], at);
  assert.deepEqual(got.yours, mine.comparisons.map((c) => compared(c, byId, at)), `${at}: the student's pair`);
  // The node: the engine's figures and the case that picks the verdict, agreeing with them.
  const n = lecture.node;
  assert.deepEqual(got.node, {
    lecture: '2.3', node: n.id, ratio: String(n.ratio), faster: n.faster, equal: String(n.equal), gpus: String(n.gpus), nics: String(n.nics),
    insideBps: String(n.inside_Bps), outsideBps: String(n.outside_Bps), insideNominalBps: String(n.inside_nominal_Bps), outsideNominalBps: String(n.outside_nominal_Bps),
  }, at);
  assert.equal(n.id, s.node, at);
  assert.equal(n.equal, n.inside_Bps === n.outside_Bps, at);
  if (!n.equal) assert.equal(n.faster, n.inside_Bps > n.outside_Bps ? 'inside' : 'outside', at);
  assert.ok(near(n.ratio, Math.max(n.inside_Bps, n.outside_Bps) / Math.min(n.inside_Bps, n.outside_Bps)), `${at}: node ratio ${n.ratio}`);
  assert.ok(near(n.inside_Bps, n.gpus * byId[n.intra_link].beta_Bps) && near(n.outside_Bps, n.nics * byId[n.nic_link].beta_Bps), `${at}: the node's totals are its links' β`);
  return { lecture, mine };
}
