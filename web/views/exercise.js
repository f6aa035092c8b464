// The pictures beside an exercise's calculator, fed by the engine at the calculator's
// parameters: 1 bandwidth fraction with a link picker, 2 the ring player, 3 the crossover chart
// and the player of a chosen algorithm, 4 the hierarchical schedule beside a flat ring. The card
// shows them only where it shows the calculator's results (the masking rule).

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { createPlayer } from './player.js';
import { createBandwidth, createCrossover } from './chart.js';

const ALGOS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree'];

function select(label, values, names, value) {
  const s = h('select', { 'aria-label': label }, values.map((v) => h('option', { value: v, text: names[v] ?? v })));
  s.value = value;
  return h('label', { class: 'view-pick' }, [h('span', { text: `${label} ` }), s]);
}

/** The visual of exercise `id`, or null: {root, update(params)}. */
export function exerciseVisual(id, lang) {
  const t = viewStrings(lang);
  const root = h('div', { class: 'visual', dataset: { visualOf: String(id) } });
  if (id === 1) {
    const chart = createBandwidth(lang, `ex${id}-bandwidth`);
    root.append(chart.root);
    return { root, update: (p) => chart.update({ alpha_s: p.alpha_s, beta_Bps: p.beta_Bps, bytes: p.bytes }) };
  }
  if (id === 2) {
    const player = createPlayer(lang, { key: `ex${id}-player` });
    root.append(player.root);
    return {
      root,
      update: (p) => player.update({ algorithm: 'ring', devices: p.devices, bytes: p.bytes, link: { alpha_s: p.alpha_s, beta_Bps: p.beta_Bps }, topology: 'switch' }),
    };
  }
  if (id === 3) {
    const chart = createCrossover(lang, `ex${id}-crossover`);
    const player = createPlayer(lang, { key: `ex${id}-player` });
    const pick = select(t.algorithm, ALGOS, t.algorithms, 'rabenseifner');
    let last = null;
    const play = () => last && player.update({ algorithm: pick.lastChild.value, devices: last.devices, bytes: last.bytes, link: { alpha_s: last.alpha_s, beta_Bps: last.beta_Bps }, topology: 'switch' });
    pick.lastChild.addEventListener('change', play);
    root.append(chart.root, pick, player.root);
    return {
      root,
      update: (p) => {
        last = p;
        const link = { alpha_s: p.alpha_s, beta_Bps: p.beta_Bps };
        return Promise.all([chart.update({ devices: p.devices, link, bytes: p.bytes }), play()]);
      },
    };
  }
  if (id === 4) {
    const hier = createPlayer(lang, { key: `ex${id}-hier` });
    const flat = createPlayer(lang, { key: `ex${id}-flat`, heading: false });
    root.append(h('h4', { text: t.algorithms.hierarchical }), hier.root, h('h4', { text: `${t.algorithms.ring} (${t.topologies.two_level})` }), flat.root);
    return {
      root,
      update: (p) => {
        const s = { nodes: p.nodes, gpus_per_node: p.gpus_per_node, bytes: p.bytes, intra_link: p.intra_link, inter_link: p.inter_link, topology: 'two_level' };
        return Promise.all([hier.update({ ...s, algorithm: 'hierarchical' }), flat.update({ ...s, algorithm: 'ring' })]);
      },
    };
  }
  return null;
}
