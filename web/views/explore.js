// Explore (`?view=explore`): the schedule player and the crossover chart with every control:
// collective, algorithm, devices (2 - 1,024), bytes, a catalogue link or custom alpha/beta,
// topology. The settings live in the address (SPEC "Views"), so a link reproduces the view.

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { formatBytes, inputText } from '../util/units.js';
import { createPlayer } from './player.js';
import { createCrossover, createNccl } from './chart.js';
import { createOverlap } from './overlap.js';

/** Schedule algorithms of each collective, as the engine names them (core/steps/schedule.cpp). */
export const ALGORITHMS = {
  allreduce: ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch', 'hierarchical'],
  reduce_scatter: ['ring'],
  allgather: ['ring'],
  broadcast: ['binomial_tree', 'scatter_allgather'],
  reduce: ['binomial_tree', 'reduce_scatter_gather'],
  alltoall: ['pairwise', 'direct'],
};
const TOPOLOGIES = ['switch', 'ring', 'two_level'];
export const DEFAULTS = { collective: 'allreduce', algorithm: 'ring', devices: 8, bytes: 1e6, link: 'nvlink4', topology: 'switch', gpus_per_node: 8 };
const MAX_DEVICES = 1024;

/** Settings from a query string, every value checked; unknown or bad values fall back. */
export function parseSettings(search) {
  const q = new URLSearchParams(search);
  const s = { ...DEFAULTS };
  const num = (k) => (q.has(k) && Number.isFinite(Number(q.get(k))) ? Number(q.get(k)) : null);
  if (ALGORITHMS[q.get('collective')]) s.collective = q.get('collective');
  const algos = ALGORITHMS[s.collective];
  s.algorithm = algos.includes(q.get('algorithm')) ? q.get('algorithm') : algos[0];
  if (num('devices') != null) s.devices = Math.min(MAX_DEVICES, Math.max(2, Math.round(num('devices'))));
  if (num('bytes') != null && num('bytes') >= 1) s.bytes = Math.min(1e9, num('bytes'));
  if (TOPOLOGIES.includes(q.get('topology'))) s.topology = q.get('topology');
  if (num('gpus_per_node') != null) s.gpus_per_node = Math.min(64, Math.max(1, Math.round(num('gpus_per_node'))));
  if (num('alpha_s') != null && num('beta_Bps') != null && num('alpha_s') >= 0 && num('beta_Bps') > 0) {
    s.link = null;
    s.alpha_s = num('alpha_s');
    s.beta_Bps = num('beta_Bps');
  } else if (q.has('link') && /^[a-z0-9_]+$/.test(q.get('link'))) s.link = q.get('link');
  if (s.algorithm === 'hierarchical') s.topology = 'two_level';
  return s;
}

/** The query string of settings (only what differs from nothing: every setting is written). */
export function settingsQuery(s) {
  const q = new URLSearchParams({ view: 'explore', collective: s.collective, algorithm: s.algorithm, devices: String(s.devices), bytes: String(s.bytes), topology: s.topology });
  if (s.link) q.set('link', s.link);
  else {
    q.set('alpha_s', String(s.alpha_s));
    q.set('beta_Bps', String(s.beta_Bps));
  }
  if (s.topology === 'two_level') q.set('gpus_per_node', String(s.gpus_per_node));
  return `?${q}`;
}

/** The player's settings for explore settings (two levels: nodes of gpus_per_node). */
function playerSettings(s) {
  const link = s.link ?? { alpha_s: s.alpha_s, beta_Bps: s.beta_Bps };
  if (s.topology === 'two_level') {
    const g = Math.min(s.gpus_per_node, s.devices);
    const nodes = Math.max(1, Math.round(s.devices / g));
    return { collective: s.collective, algorithm: s.algorithm, bytes: s.bytes, topology: 'two_level', nodes, gpus_per_node: g, intra_link: 'nvlink4', inter_link: s.link ?? { alpha_s: s.alpha_s, beta_Bps: s.beta_Bps } };
  }
  return { collective: s.collective, algorithm: s.algorithm, devices: s.devices, bytes: s.bytes, link, topology: s.topology };
}

// A log slider over [min, max] with `steps` positions.
function logScale(min, max, steps) {
  return {
    to: (v) => Math.round((Math.log(v / min) / Math.log(max / min)) * steps),
    from: (p) => min * (max / min) ** (p / steps),
  };
}

/**
 * The Explore view. `links` are the engine's catalogue ({id, label}); `onChange(settings)` is
 * told of every change (the app writes the address).
 */
export function createExplore(lang, settings, links, onChange) {
  const t = viewStrings(lang);
  const s = { ...settings };
  const root = h('section', { class: 'explore card', 'data-view': 'explore', 'aria-labelledby': 'explore-title' });
  const player = createPlayer(lang, { key: 'explore-player' });
  const chart = createCrossover(lang, 'explore-crossover');
  const nccl = createNccl(lang, 'explore-nccl');
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);

  const collective = h('select', { id: 'x-collective', 'data-setting': 'collective' }, Object.keys(ALGORITHMS).map((c) => h('option', { value: c, text: t.collectives[c] })));
  const algorithm = h('select', { id: 'x-algorithm', 'data-setting': 'algorithm' });
  const fillAlgorithms = () => {
    algorithm.replaceChildren(...ALGORITHMS[s.collective].map((a) => h('option', { value: a, text: t.algorithms[a] ?? a })));
    algorithm.value = s.algorithm;
  };
  const devScale = logScale(2, MAX_DEVICES, 1000);
  const devices = h('input', { id: 'x-devices', type: 'number', min: '2', max: String(MAX_DEVICES), step: '1', 'data-setting': 'devices' });
  const devSlider = h('input', { type: 'range', min: '0', max: '1000', step: '1', 'aria-label': t.devices, 'data-slider': 'devices' });
  const byteScale = logScale(1, 1e9, 900);
  const bytes = h('input', { id: 'x-bytes', type: 'number', min: '1', max: '1000000000', step: 'any', 'data-setting': 'bytes' });
  const byteSlider = h('input', { type: 'range', min: '0', max: '900', step: '1', 'aria-label': t.bytes, 'data-slider': 'bytes' });
  const byteText = h('span', { class: 'unit' });
  const link = h('select', { id: 'x-link', 'data-setting': 'link' }, [...links.map((l) => h('option', { value: l.id, text: l.label })), h('option', { value: '', text: t.customLink })]);
  const alpha = h('input', { id: 'x-alpha', type: 'number', min: '0', step: 'any', 'data-setting': 'alpha_s' });
  const beta = h('input', { id: 'x-beta', type: 'number', min: '1', step: 'any', 'data-setting': 'beta_Bps' });
  const custom = h('div', { class: 'params custom-link' }, [field(t.alpha, alpha, 'x-alpha'), field(t.beta, beta, 'x-beta')]);
  const topology = h('select', { id: 'x-topology', 'data-setting': 'topology' }, TOPOLOGIES.map((v) => h('option', { value: v, text: t.topologies[v] })));
  const gpus = h('input', { id: 'x-gpus', type: 'number', min: '1', max: '64', step: '1', 'data-setting': 'gpus_per_node' });
  const gpusField = field(t.gpusPerNode, gpus, 'x-gpus');
  const share = h('a', { href: settingsQuery(s), 'data-role': 'share', text: t.share });

  function fill() {
    collective.value = s.collective;
    fillAlgorithms();
    devices.value = String(s.devices);
    devSlider.value = String(devScale.to(s.devices));
    bytes.value = inputText(s.bytes);
    byteSlider.value = String(byteScale.to(s.bytes));
    byteText.textContent = formatBytes(s.bytes);
    link.value = s.link ?? '';
    custom.hidden = !!s.link;
    alpha.value = String(s.alpha_s ?? 5e-6);
    beta.value = String(s.beta_Bps ?? 4e10);
    topology.value = s.topology;
    gpus.value = String(s.gpus_per_node);
    gpusField.hidden = s.topology !== 'two_level';
  }

  let frame = 0;
  function changed() {
    if (s.algorithm === 'hierarchical') s.topology = 'two_level';
    if (s.algorithm === 'in_switch' && s.topology !== 'switch') s.topology = 'switch';
    fill();
    share.href = settingsQuery(s);
    onChange({ ...s });
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      run();
    });
  }
  function run() {
    player.update(playerSettings(s));
    chart.root.hidden = s.collective !== 'allreduce';
    nccl.root.hidden = s.collective !== 'allreduce';
    if (s.collective === 'allreduce') chart.update({ devices: s.devices, link: s.link ?? { alpha_s: s.alpha_s, beta_Bps: s.beta_Bps }, bytes: s.bytes });
    if (!nccl.root.hidden) nccl.update({ devices: s.devices, link: s.link ?? { alpha_s: s.alpha_s, beta_Bps: s.beta_Bps }, bytes: s.bytes });
  }

  collective.addEventListener('change', () => { s.collective = collective.value; s.algorithm = ALGORITHMS[s.collective][0]; changed(); });
  algorithm.addEventListener('change', () => { s.algorithm = algorithm.value; changed(); });
  devices.addEventListener('input', () => {
    const v = Math.round(Number(devices.value));
    if (!(v >= 2 && v <= MAX_DEVICES)) return;
    s.devices = v;
    changed();
  });
  devSlider.addEventListener('input', () => { s.devices = Math.round(devScale.from(Number(devSlider.value))); changed(); });
  bytes.addEventListener('input', () => {
    const v = Number(bytes.value);
    if (!(v >= 1 && v <= 1e9)) return;
    s.bytes = v;
    changed();
  });
  byteSlider.addEventListener('input', () => { s.bytes = Number(byteScale.from(Number(byteSlider.value)).toPrecision(3)); changed(); });
  link.addEventListener('change', () => {
    s.link = link.value || null;
    if (!s.link) { s.alpha_s = Number(alpha.value) || 5e-6; s.beta_Bps = Number(beta.value) || 4e10; }
    changed();
  });
  for (const [input, keyName] of [[alpha, 'alpha_s'], [beta, 'beta_Bps']]) {
    input.addEventListener('input', () => {
      const v = Number(input.value);
      if (!(v >= 0) || (keyName === 'beta_Bps' && !(v > 0))) return;
      s[keyName] = v;
      changed();
    });
  }
  topology.addEventListener('change', () => { s.topology = topology.value; if (s.algorithm === 'in_switch' && s.topology !== 'switch') s.algorithm = 'ring'; if (s.algorithm === 'hierarchical' && s.topology !== 'two_level') s.algorithm = 'ring'; changed(); });
  gpus.addEventListener('input', () => {
    const v = Math.round(Number(gpus.value));
    if (!(v >= 1 && v <= 64)) return;
    s.gpus_per_node = v;
    changed();
  });

  root.append(
    h('h2', { id: 'explore-title', text: t.exploreTitle }),
    h('p', { class: 'note', text: t.exploreIntro }),
    h('div', { class: 'params explore-params' }, [
      field(t.collective, collective, 'x-collective'),
      field(t.algorithm, algorithm, 'x-algorithm'),
      h('div', { class: 'param' }, [h('label', { for: 'x-devices', text: t.devices }), devices, devSlider]),
      h('div', { class: 'param' }, [h('label', { for: 'x-bytes', text: t.bytes }), h('div', { class: 'field' }, [bytes, byteText]), byteSlider]),
      field(t.link, link, 'x-link'),
      field(t.topology, topology, 'x-topology'),
      gpusField,
    ]),
    custom,
    h('p', {}, [share]),
    player.root,
    chart.root,
    nccl.root,
    createOverlap(lang, 'explore-overlap').root,
  );
  fill();
  run();
  return { root, settings: () => ({ ...s }) };
}
