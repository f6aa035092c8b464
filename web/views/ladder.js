// The bandwidth ladder (`?view=ladder`, P5 §2.1): HBM, NVLink, PCIe, the NICs (InfiniBand,
// RoCE), Ethernet and NVMe on their levels, each with its effective bandwidth and α on log
// scales, from the engine's `ladder` op; the lecture's ratios and a pair the student picks are
// the engine's comparisons (which is faster, by how much), and a node's NVLink inside against its
// NICs outside (§2.3). The page draws: bar lengths are positions on the log axes, never figures.

import { h } from '../util/dom.js';
import { ladderStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';

/** Bytes per second as a reading ("360 GB/s"). Presentation only. */
export function formatRate(Bps) {
  if (!Number.isFinite(Bps)) return '–';
  const [f, u] = Bps >= 1e12 ? [1e12, 'TB/s'] : Bps >= 1e9 ? [1e9, 'GB/s'] : Bps >= 1e6 ? [1e6, 'MB/s'] : [1, 'B/s'];
  return `${Number((Bps / f).toPrecision(3))} ${u}`;
}
/** A ratio as printed ("7.44"; the words add × or 倍). */
export const formatRatio = (x) => String(Number(x.toPrecision(3)));

// Where v sits on a log axis over [lo, hi], as a share of its width (drawing only).
const along = (v, lo, hi) => Math.max(0, Math.min(1, Math.log10(v / lo) / Math.log10(hi / lo)));
// The decades around values: [10^floor(log10 min), 10^ceil(log10 max)].
function decades(values) {
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)) - 1e-9); // a value on a decade gets a bar
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)) - 1e-9);
  return [lo, hi > lo ? hi : lo * 10];
}

const EFFICIENCY = { min: 0.01, max: 1, lecture: 0.8 };

export function createLadder(lang) {
  const t = ladderStrings(lang);
  const s = { efficiency: EFFICIENCY.lecture, a: 'nvlink4', b: 'pcie5', node: 'dgx_h100' };
  const root = h('section', { class: 'ladder card', dataset: { view: 'ladder', lecture: '2.1' }, 'aria-labelledby': 'ladder-title' });
  const eff = h('input', { id: 'ladder-efficiency', type: 'number', min: String(EFFICIENCY.min), max: String(EFFICIENCY.max), step: '0.05', value: String(s.efficiency), 'data-setting': 'efficiency' });
  const pickA = h('select', { id: 'ladder-a', 'data-setting': 'a' });
  const pickB = h('select', { id: 'ladder-b', 'data-setting': 'b' });
  const pickNode = h('select', { id: 'ladder-node-pick', 'data-setting': 'node' });
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const picture = h('div', { class: 'ladder-picture', 'data-role': 'ladder', role: 'img' });
  const claims = h('ul', { class: 'ladder-claims', 'data-role': 'claims' });
  const yours = h('p', { class: 'ladder-yours', 'data-role': 'yours' });
  const node = h('section', { class: 'ladder-node', id: 'ladder-node', dataset: { lecture: '2.3' }, 'aria-labelledby': 'ladder-node-title' });
  const nodeText = h('p', { 'data-role': 'node-note' });
  const tableBox = h('div');
  // Everything drawn from the engine's answer: hidden while a setting cannot be read.
  const drawn = h('div', { 'data-role': 'drawn' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  node.append(h('h3', { id: 'ladder-node-title', text: t.nodeTitle }), field(t.node, pickNode, 'ladder-node-pick'), nodeText);
  root.append(
    h('h2', { id: 'ladder-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [field(t.efficiency, eff, 'ladder-efficiency')]),
    problem,
    drawn,
  );
  drawn.append(
    h('figure', { class: 'ladder-figure' }, [h('figcaption', { text: t.caption }), picture]),
    h('h3', { text: t.claimsTitle }),
    claims,
    h('div', { class: 'params explore-params' }, [field(t.compareA, pickA, 'ladder-a'), field(t.compareB, pickB, 'ladder-b')]),
    yours,
    node,
    tableBox,
  );

  let asked = 0;
  async function run() {
    const mine = ++asked;
    const e = Number(eff.value);
    const wrong = eff.value.trim() === '' || !(e >= EFFICIENCY.min && e <= EFFICIENCY.max);
    problem.hidden = !wrong;
    problem.textContent = wrong ? t.efficiencyRange(eff.value) : '';
    drawn.hidden = wrong;
    if (wrong) return;
    s.efficiency = e;
    root.setAttribute('aria-busy', 'true');
    // The lecture's pairs (the engine's default), then the student's, in one batch with the nodes.
    // null when a later refresh superseded this one (door.js askMany): that one draws.
    const answers = await askMany([
      { op: 'ladder', efficiency: s.efficiency, node: s.node },
      { op: 'ladder', efficiency: s.efficiency, pairs: [[s.a, s.b]] },
      { op: 'presets' },
    ], 'ladder');
    if (mine !== asked || !answers) return;
    const [lecture, picked, presets] = answers;
    root.removeAttribute('aria-busy');
    const err = [lecture, picked, presets].find((r) => r?.error);
    if (err) {
      problem.hidden = false;
      problem.textContent = t.failed;
      drawn.hidden = true;
      return;
    }
    draw(lecture, picked.comparisons[0], presets.nodes);
  }

  function fillPickers(rungs, nodes) {
    if (!pickA.options.length) {
      for (const p of [pickA, pickB]) p.replaceChildren(...rungs.map((r) => h('option', { value: r.id, text: r.label })));
      pickA.value = s.a;
      pickB.value = s.b;
    }
    if (!pickNode.options.length) {
      pickNode.replaceChildren(...nodes.map((n) => h('option', { value: n.id, text: n.label })));
      pickNode.value = s.node;
    }
  }

  const sentence = (c) => (c.equal ? t.same(c.faster_label, c.slower_label, formatRate(c.faster_Bps))
    : t.faster(c.faster_label, c.slower_label, formatRatio(c.ratio), formatRate(c.faster_Bps), formatRate(c.slower_Bps)));
  const figures = (c) => ({ comparison: `${c.a}/${c.b}`, faster: c.faster, slower: c.slower, ratio: String(c.ratio), equal: String(c.equal), fasterBps: String(c.faster_Bps), slowerBps: String(c.slower_Bps) });
  const claim = (c, role) => h('li', { dataset: { ...figures(c), role } }, sentence(c));

  function draw(out, mine, nodes) {
    fillPickers(out.rungs, nodes);
    Object.assign(root.dataset, { efficiency: String(out.efficiency), a: mine.a, b: mine.b, node: out.node.id });
    const [blo, bhi] = decades(out.rungs.map((r) => r.beta_Bps));
    const [alo, ahi] = decades(out.rungs.map((r) => r.alpha_s));
    const axis = (lo, hi, fmt, cls) => {
      const ticks = [];
      for (let v = lo; v <= hi * 1.0001; v *= 10) {
        const tick = h('span', { class: 'tick', text: fmt(v) });
        tick.style.left = `${(along(v, lo, hi) * 100).toFixed(2)}%`;
        ticks.push(tick);
      }
      return h('div', { class: `ladder-axis ${cls}`, 'aria-hidden': 'true' }, ticks);
    };
    const rows = [];
    for (const level of out.levels) {
      const rungs = out.rungs.filter((r) => r.level === level);
      if (!rungs.length) continue;
      rows.push(h('div', { class: 'ladder-level', dataset: { level }, text: t.levels[level] ?? level }));
      for (const r of rungs) {
        const bw = h('span', { class: 'bar bar-beta' });
        bw.style.width = `${(along(r.beta_Bps, blo, bhi) * 100).toFixed(2)}%`;
        const al = h('span', { class: 'bar bar-alpha' });
        al.style.width = `${(along(r.alpha_s, alo, ahi) * 100).toFixed(2)}%`;
        rows.push(h('div', { class: 'ladder-row', dataset: { link: r.id, level, betaBps: String(r.beta_Bps), alphaS: String(r.alpha_s) } }, [
          h('span', { class: 'ladder-name', text: r.label }),
          h('span', { class: 'ladder-track' }, [bw, h('span', { class: 'ladder-value', text: formatRate(r.beta_Bps) })]),
          h('span', { class: 'ladder-track' }, [al, h('span', { class: 'ladder-value', text: `α ${formatTime(r.alpha_s)}` })]),
        ]));
      }
    }
    picture.setAttribute('aria-label', t.pictureLabel);
    picture.replaceChildren(
      h('div', { class: 'ladder-row ladder-head', 'aria-hidden': 'true' }, [h('span'), h('span', { text: t.betaAxis }), h('span', { text: t.alphaAxis })]),
      ...rows,
      h('div', { class: 'ladder-row', 'aria-hidden': 'true' }, [h('span'), axis(blo, bhi, formatRate, 'axis-beta'), axis(alo, ahi, formatTime, 'axis-alpha')]),
    );
    claims.replaceChildren(...out.comparisons.map((c) => claim(c, 'lecture')));
    yours.replaceChildren(h('span', { dataset: { ...figures(mine), role: 'yours' } }, sentence(mine)));
    const n = out.node;
    Object.assign(node.dataset, {
      node: n.id, ratio: String(n.ratio), faster: n.faster, equal: String(n.equal), gpus: String(n.gpus), nics: String(n.nics), insideBps: String(n.inside_Bps), outsideBps: String(n.outside_Bps),
      insideNominalBps: String(n.inside_nominal_Bps), outsideNominalBps: String(n.outside_nominal_Bps),
    });
    nodeText.textContent = t.nodeNote({
      label: n.label, gpus: n.gpus, intra: n.intra_label, nics: n.nics, nic: n.nic_label,
      inside: formatRate(n.inside_nominal_Bps), insideEff: formatRate(n.inside_Bps),
      outside: formatRate(n.outside_nominal_Bps), outsideEff: formatRate(n.outside_Bps),
      faster: n.faster, equal: n.equal, ratio: formatRatio(n.ratio),
    });
    tableBox.replaceChildren(dataTable(out));
  }

  function dataTable(out) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colLink, t.colLevel, t.colNominal, t.colEffective, t.colAlpha, t.colHalf].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, out.rungs.map((r) => h('tr', { dataset: { link: r.id } }, [
        h('th', { scope: 'row', text: r.label }),
        h('td', { text: t.levels[r.level] ?? r.level }),
        h('td', { 'data-nominal-bps': String(r.nominal_Bps), text: formatRate(r.nominal_Bps) }),
        h('td', { 'data-beta-bps': String(r.beta_Bps), text: formatRate(r.beta_Bps) }),
        h('td', { 'data-alpha-s': String(r.alpha_s), text: formatTime(r.alpha_s) }),
        h('td', { 'data-n-half-bytes': String(r.n_half_bytes), text: formatBytes(r.n_half_bytes) }),
      ]))),
    ]));
    return details;
  }

  eff.addEventListener('input', run);
  pickA.addEventListener('change', () => { s.a = pickA.value; run(); });
  pickB.addEventListener('change', () => { s.b = pickB.value; run(); });
  pickNode.addEventListener('change', () => { s.node = pickNode.value; run(); });
  const ready = run();
  return { root, ready };
}
