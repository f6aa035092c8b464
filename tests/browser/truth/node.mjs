// Inside a node and between nodes (?view=node, P5 §2.2, §2.3) held against the engine: the
// preset's GPUs, NICs and rails (its presets op) drawn once a node, each link's α, β and nominal
// rate (its links op) on the picture and in the table, the node's inside against outside (its
// ladder op: the figures, the total of each part, and the case that picks the verdict), and the
// traffic highlighted where the chosen parallelism's goes.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { intIn, pick } from './walk.mjs';

const presets = engine({ op: 'presets' });
const links = engine({ op: 'links' }).links;

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="node"][data-node="${s.node}"][data-nodes="${s.nodes}"][data-traffic="${s.traffic}"]:not([aria-busy]) [data-role="drawn"]:not([hidden]) .node-svg`, { timeout: 20000 });

/** Settings drawn from the view's domain: a node preset, 1-8 nodes (one and two, where PP's path appears, often), a traffic. */
export function draw(rng, options) {
  return { node: pick(rng, options.node), nodes: rng() < 0.4 ? pick(rng, [1, 2, 8]) : intIn(rng, 1, 8), traffic: pick(rng, options.traffic) };
}
export const first = { node: 'dgx_h100', nodes: 2, traffic: 'none' };

/** What the view shows in figures, in one trip to the page. */
const read = (page) => page.locator('[data-view="node"]').evaluate((root) => {
  const link = (e) => ({ id: e.dataset.link, alpha_s: Number(e.dataset.alphaS), beta_Bps: Number(e.dataset.betaBps), nominal_Bps: Number(e.dataset.nominalBps) });
  return {
    data: { ...root.dataset },
    gpus: root.querySelectorAll('.node-gpu').length,
    nics: root.querySelectorAll('.node-nic-box').length,
    rails: root.querySelectorAll('.node-rail').length,
    edges: ['node-nvlink', 'node-nic'].map((c) => link(root.querySelector(`g.${c}`))),
    hot: { nvlink: root.querySelectorAll('.node-nvlink line.node-hot').length, nic: root.querySelectorAll('.node-nic line.node-hot').length, rails: root.querySelectorAll('.node-hot-rails').length },
    rows: [...root.querySelectorAll('details.chart-table tbody tr')].map((e) => ({ ...link(e), count: Number(e.dataset.count), total_Bps: Number(e.dataset.totalBps) })),
    faster: root.querySelector('[data-role="ratio"]').dataset.faster,
    placement: root.querySelector('[data-role="placement"]').dataset.traffic,
  };
});

const near = (x, y, rel = 1e-12) => Math.abs(x - y) <= rel * Math.max(Math.abs(x), Math.abs(y));

/** Asserts what the view shows at `s` is the engine's; returns the engine's ladder answer. */
export async function check(page, s) {
  await settled(page, s);
  const at = JSON.stringify(s);
  const preset = presets.nodes.find((p) => p.id === s.node);
  assert.ok(preset, `${at}: a preset of the engine`);
  const ladder = engine({ op: 'ladder', node: s.node });
  const inside = ladder.node;
  const n = Number(s.nodes);
  const got = await read(page);
  const d = got.data;
  assert.deepEqual([d.gpus, d.nics, d.ratio, d.insideBps, d.outsideBps].map(Number), [preset.gpus, preset.nics, inside.ratio, inside.inside_Bps, inside.outside_Bps], at);
  assert.equal(inside.id, preset.id, at);
  assert.deepEqual([inside.gpus, inside.nics, inside.intra_link, inside.nic_link], [preset.gpus, preset.nics, preset.intra_link, preset.nic_link], `${at}: the ladder's node is the preset`);
  // The picture: every node's GPUs and NICs, one rail switch a NIC.
  assert.deepEqual([got.gpus, got.nics, got.rails], [preset.gpus * n, preset.nics * n, preset.nics], at);
  // Each link's α, β and nominal rate (its hover title and its table row) are the catalogue's.
  const intra = links.find((l) => l.id === preset.intra_link);
  const nic = links.find((l) => l.id === preset.nic_link);
  const figs = (l) => ({ id: l.id, alpha_s: l.alpha_s, beta_Bps: l.beta_Bps, nominal_Bps: l.nominal_Bps });
  assert.deepEqual(got.edges, [figs(intra), figs(nic)], at);
  assert.deepEqual(got.rows, [
    { ...figs(intra), count: preset.gpus, total_Bps: inside.inside_Bps },
    { ...figs(nic), count: preset.nics, total_Bps: inside.outside_Bps },
  ], at);
  // A part's total is its count of links at the catalogue's β (the table puts them side by side).
  assert.ok(near(inside.inside_Bps, preset.gpus * intra.beta_Bps), `${at}: inside ${inside.inside_Bps} against ${preset.gpus} × ${intra.beta_Bps}`);
  assert.ok(near(inside.outside_Bps, preset.nics * nic.beta_Bps), `${at}: outside ${inside.outside_Bps} against ${preset.nics} × ${nic.beta_Bps}`);
  // "Inside is {ratio}× outside": the engine's case, and the faster side by that ratio.
  assert.equal(got.faster, inside.faster, at);
  assert.equal(inside.faster, inside.inside_Bps >= inside.outside_Bps ? 'inside' : 'outside', `${at}: faster ${inside.faster}`);
  assert.ok(!inside.equal, `${at}: the view's verdict has no words for equal`);
  assert.ok(near(inside.ratio, Math.max(inside.inside_Bps, inside.outside_Bps) / Math.min(inside.inside_Bps, inside.outside_Bps)), `${at}: ratio ${inside.ratio}`);
  // Where the traffic goes: TP and EP on the first node's NVSwitch, PP on the NICs and rails across nodes.
  assert.equal(got.placement, s.traffic, at);
  const pp = s.traffic === 'pp' && n > 1;
  assert.deepEqual(got.hot, { nvlink: ['tp', 'ep'].includes(s.traffic) ? preset.gpus : 0, nic: pp ? preset.nics * n : 0, rails: pp ? 1 : 0 }, at);
  return ladder;
}
