// Inside a node and between nodes (`?view=node`, P5 §2.2 and §2.3): a node preset's GPUs on one
// NVSwitch (any to any at the NVLink's full rate), a NIC beside each GPU, and a rail-optimised
// network of several nodes (NIC i of every node on rail switch i, the rails joined by a spine).
// The shapes come from the engine's `presets` (gpus, nics, links), each link's α and β from its
// `links` catalogue, the node's inside against outside from its `ladder` op (§2.3: 9× for a DGX
// H100). Where each parallelism's traffic goes is drawn on the same picture (§2.3's placement).

import { h } from '../util/dom.js';
import { nodeStrings } from '../util/section_strings.js';
import { formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { formatRate, formatRatio } from './ladder.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

const SVG = 'http://www.w3.org/2000/svg';
const LIMITS = { nodes: [1, 8] };
export const TRAFFIC = ['none', 'tp', 'ep', 'pp', 'dp'];

function s(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  for (const c of [].concat(children)) if (c != null) el.append(c);
  return el;
}
const titled = (el, text) => { el.prepend(s('title', {}, text)); return el; };

export function createNodeView(lang) {
  const t = nodeStrings(lang);
  const root = h('section', { class: 'node-view card', dataset: { view: 'node', lecture: '2.2' }, 'aria-labelledby': 'node-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const pick = h('select', { id: 'node-pick', 'data-setting': 'node' });
  const nodes = h('input', { id: 'node-count', type: 'number', min: '1', max: '8', step: '1', value: '2', 'data-setting': 'nodes' });
  const traffic = h('select', { id: 'node-traffic', 'data-setting': 'traffic' }, TRAFFIC.map((k) => h('option', { value: k, text: t.traffic[k] })));
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const picture = h('div', { class: 'node-picture', 'data-role': 'picture', tabindex: '0' }); // scrolls on a phone
  const ratio = h('p', { class: 'node-ratio', id: 'node-between', 'data-role': 'ratio', dataset: { lecture: '2.3' } });
  const placement = h('p', { class: 'node-placement', 'data-role': 'placement', 'aria-live': 'polite' });
  const tableBox = h('div');
  root.append(
    h('h2', { id: 'node-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [field(t.node, pick, 'node-pick'), field(t.nodes, nodes, 'node-count'), field(t.trafficLabel, traffic, 'node-traffic')]),
    problem,
    drawn,
  );
  drawn.append(h('figure', { class: 'node-figure' }, [h('figcaption', { text: t.caption }), picture]), ratio, placement, tableBox);

  let presets = null;
  let links = null;
  const turns = settingsRefresh(problem, drawn);
  async function refresh() {
    const turn = turns.begin(rangeProblem([{ input: nodes, range: LIMITS.nodes, say: (v) => t.range(v) }]));
    if (!turn) return;
    const n = Number(nodes.value);
    root.setAttribute('aria-busy', 'true');
    const answers = await askMany([{ op: 'presets' }, { op: 'links' }, { op: 'ladder', node: pick.value || 'dgx_h100' }], 'node');
    if (turn.stale) return;
    root.removeAttribute('aria-busy');
    if (!answers || answers.some((a) => !a || a.error)) {
      turns.say(t.failed);
      return;
    }
    [presets, links] = [answers[0], answers[1].links];
    if (!pick.options.length) {
      pick.replaceChildren(...presets.nodes.map((p) => h('option', { value: p.id, text: p.label })));
      pick.value = 'dgx_h100';
    }
    const preset = presets.nodes.find((p) => p.id === (pick.value || 'dgx_h100'));
    const inside = answers[2].node;
    Object.assign(root.dataset, { node: preset.id, gpus: String(preset.gpus), nics: String(preset.nics), nodes: String(n), traffic: traffic.value, ratio: String(inside.ratio), insideBps: String(inside.inside_Bps), outsideBps: String(inside.outside_Bps) });
    draw(preset, inside, n);
  }

  const linkOf = (id) => links.find((l) => l.id === id);
  const linkWords = (l) => t.linkTitle({ label: l.label, alpha: formatTime(l.alpha_s), beta: formatRate(l.beta_Bps), nominal: formatRate(l.nominal_Bps) });

  function draw(preset, inside, n) {
    const intra = linkOf(preset.intra_link);
    const nic = linkOf(preset.nic_link);
    const g = preset.gpus;
    const perRow = Math.min(g, 18);
    const rows = Math.ceil(g / perRow);
    const cell = 14;
    const nodeW = perRow * cell + 16;
    const gap = 18;
    const L = 84; // the left margin holds the row labels (11 px)
    const W = Math.max(L + n * nodeW + (n - 1) * gap + 8, 320);
    const top = 8;
    const switchY = top + 22;
    const gpuY = switchY + 30;
    const nicY = gpuY + rows * (cell + 14) + 10;
    const nodeH = nicY + 16 - top;
    const railY = top + nodeH + 40;
    const spineY = railY + 46;
    const H = spineY + 28;
    const show = traffic.value;
    const svg = s('svg', { class: 'node-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'node-svg-title' });
    // A phone scrolls the picture rather than shrink its text; a wide screen enlarges it at most 1.4x.
    svg.style.minWidth = `${W}px`;
    svg.style.maxWidth = `${Math.round(1.4 * W)}px`;
    svg.append(s('title', { id: 'node-svg-title' }, t.pictureLabel({ nodes: n, label: preset.label, gpus: g, nics: preset.nics })));
    const linkData = (l) => ({ 'data-link': l.id, 'data-alpha-s': l.alpha_s, 'data-beta-bps': l.beta_Bps, 'data-nominal-bps': l.nominal_Bps });
    const nvEdges = s('g', { class: 'node-edges node-nvlink', ...linkData(intra) });
    titled(nvEdges, linkWords(intra));
    const nicEdges = s('g', { class: 'node-edges node-nic', ...linkData(nic) });
    titled(nicEdges, linkWords(nic));
    const parts = s('g');
    const gpuAt = (x0, i) => [x0 + 8 + (i % perRow) * cell + cell / 2, gpuY + Math.floor(i / perRow) * (cell + 14) + cell / 2];
    const railX = (i) => L + (i + 0.5) * ((W - L - 8) / preset.nics);
    const pcie = s('g', { class: 'node-edges node-pcie' });
    for (let k = 0; k < n; k++) {
      const x0 = L + k * (nodeW + gap);
      parts.append(s('rect', { class: 'node-box', x: x0, y: top, width: nodeW, height: nodeH, rx: 6 }));
      parts.append(s('text', { class: 'node-label', x: x0 + 6, y: top + 12 }, `${preset.label} ${k + 1}`));
      parts.append(titled(s('rect', { class: 'node-switch', x: x0 + 8, y: switchY, width: nodeW - 16, height: 10, rx: 2 }), t.nvswitch(intra.label)));
      for (let i = 0; i < g; i++) {
        const [cx, cy] = gpuAt(x0, i);
        // TP and EP traffic: GPU to GPU through the node's NVSwitch (the first node's domain).
        const hot = (show === 'tp' || show === 'ep') && k === 0;
        nvEdges.append(s('line', { class: hot ? 'node-hot' : null, x1: cx, y1: cy - cell / 2, x2: cx, y2: switchY + 10 }));
        parts.append(s('rect', { class: 'node-gpu', x: cx - cell / 2 + 1, y: cy - cell / 2, width: cell - 2, height: cell - 2, rx: 2 }));
      }
      for (let i = 0; i < preset.nics; i++) {
        const [cx] = gpuAt(x0, i % g);
        // PP traffic: stage k to stage k + 1 (one node each), GPU i to GPU i of the next node on rail i.
        const hot = show === 'pp' && n > 1;
        const [, gy] = gpuAt(x0, i % g);
        pcie.append(s('line', { x1: cx, y1: gy + cell / 2 - 1, x2: cx, y2: nicY }));
        parts.append(s('rect', { class: 'node-nic-box', x: cx - 4, y: nicY, width: 8, height: 6 }));
        nicEdges.append(s('line', { class: hot ? 'node-hot' : null, x1: cx, y1: nicY + 6, x2: railX(i), y2: railY }));
      }
    }
    const rails = s('g', { class: `node-rails${show === 'pp' && n > 1 ? ' node-hot-rails' : ''}` });
    for (let i = 0; i < preset.nics; i++) rails.append(titled(s('rect', { class: 'node-rail', x: railX(i) - 5, y: railY, width: 10, height: 8 }), t.rail(i + 1)));
    const spine = s('g', { class: 'node-spine' });
    for (let i = 0; i < preset.nics; i++) spine.append(s('line', { x1: railX(i), y1: railY + 8, x2: railX(i), y2: spineY }));
    spine.append(titled(s('rect', { class: 'node-spine-box', x: L, y: spineY, width: W - L - 8, height: 10, rx: 2 }), t.spine));
    const label = (y, text) => s('text', { class: 'node-row-label', x: 4, y }, text);
    svg.append(pcie, nvEdges, nicEdges, parts, rails, spine,
      label(switchY + 8, t.rowLabels.nvswitch), label(gpuY + cell / 2 + 3, t.rowLabels.gpus), label(nicY + 6, t.rowLabels.nics),
      label(railY + 7, t.railsLabel(preset.nics)), label(spineY + 8, t.spine));
    picture.replaceChildren(svg);
    ratio.dataset.faster = inside.faster; // the engine's case that picks the verdict
    ratio.textContent = t.ratio({ label: preset.label, gpus: g, intra: intra.label, inside: formatRate(inside.inside_Bps), nics: preset.nics, nic: nic.label, outside: formatRate(inside.outside_Bps), ratio: formatRatio(inside.ratio), faster: inside.faster });
    placement.dataset.traffic = show;
    placement.textContent = t.placement[show]({ gpus: g, intra: intra.label, nic: nic.label, label: preset.label, nodes: n });
    tableBox.replaceChildren(dataTable(preset, intra, nic, inside));
  }

  function dataTable(preset, intra, nic, inside) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    const row = (name, l, count, totalBps) => h('tr', { dataset: { link: l.id, count: String(count), alphaS: String(l.alpha_s), betaBps: String(l.beta_Bps), nominalBps: String(l.nominal_Bps), totalBps: String(totalBps) } }, [
      h('th', { scope: 'row', text: name }),
      ...[l.label, String(count), formatTime(l.alpha_s), formatRate(l.beta_Bps), formatRate(l.nominal_Bps), formatRate(totalBps)].map((v) => h('td', { text: v })),
    ]);
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colPart, t.colLink, t.colCount, t.colAlpha, t.colBeta, t.colNominal, t.colTotal].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, [
        row(t.rowNvlink, intra, preset.gpus, inside.inside_Bps),
        row(t.rowNic, nic, preset.nics, inside.outside_Bps),
      ]),
    ]));
    return details;
  }

  nodes.addEventListener('input', refresh);
  pick.addEventListener('change', refresh);
  traffic.addEventListener('change', refresh);
  const ready = refresh();
  return { root, ready };
}
