// Explore (`?view=explore`): the schedule player and the crossover chart with every control:
// collective, algorithm, devices (2 - 1,024), bytes, a catalogue link or custom alpha (µs) and
// beta (GB/s), topology, and on two levels GPUs per node and the intra-node link. The settings live in the address (web/README.md "Views"), so a link reproduces the view.

import { h } from '../util/dom.js';
import { table } from '../util/own.js';
import { viewStrings } from '../util/i18n.js';
import { formatBytes, inputText } from '../util/units.js';
import { createPlayer } from './player.js';
import { ALLREDUCE, createCrossover, createNccl } from './chart.js';
import { createOverlap } from './overlap.js';

/**
 * Schedule algorithms of each collective, as the engine names them (core/steps/schedule.cpp). A
 * table without a prototype: a link's `collective=constructor` names nothing in it.
 */
export const ALGORITHMS = table({
  allreduce: ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch', 'hierarchical'],
  reduce_scatter: ['ring'],
  allgather: ['ring'],
  broadcast: ['binomial_tree', 'scatter_allgather'],
  reduce: ['binomial_tree', 'reduce_scatter_gather'],
  alltoall: ['pairwise', 'direct'],
});
const TOPOLOGIES = ['switch', 'ring', 'two_level'];
export const DEFAULTS = Object.freeze({ collective: 'allreduce', algorithm: 'ring', devices: 8, bytes: 1e6, link: 'nvlink4', topology: 'switch', gpus_per_node: 8, intra_link: 'nvlink4' });
export const MIN_DEVICES = 2;
export const MAX_DEVICES = 1024;
const MAX_GPUS_PER_NODE = 64;
export const MAX_BYTES = 1e9;

/**
 * Settings from a query string: {settings, problems}. Each setting is checked against what is
 * allowed (names against their lists, links against the catalogue's ids `linkIds`, numbers
 * against being numbers); a bad one is replaced by its default and named in `problems`
 * ({setting, value, allowed, fallback}: app/address.js shows them). Device and GPU counts are
 * kept as given (whole) when they are numbers, and settingsProblem says when one is out of range,
 * so a page opened with `devices=1` says so rather than showing 2.
 */
export function readSettings(search, linkIds = null) {
  const q = new URLSearchParams(search);
  const s = { ...DEFAULTS };
  const problems = [];
  const bad = (setting, value, allowed, fallback) => problems.push({ setting, value, allowed, fallback: String(fallback) });
  const num = (k) => (q.get(k).trim() !== '' && Number.isFinite(Number(q.get(k))) ? Number(q.get(k)) : null);
  const listed = (k, list) => {
    if (!q.has(k)) return;
    if (list.includes(q.get(k))) s[k] = q.get(k);
    else bad(k, q.get(k), { list }, s[k]);
  };
  listed('collective', Object.keys(ALGORITHMS));
  const algos = ALGORITHMS[s.collective];
  s.algorithm = algos[0];
  listed('algorithm', algos);
  const whole = (k, min, max) => {
    if (!q.has(k)) return;
    if (num(k) != null) s[k] = Math.round(num(k));
    else bad(k, q.get(k), { whole: [min, max] }, s[k]);
  };
  whole('devices', MIN_DEVICES, MAX_DEVICES);
  if (q.has('bytes')) {
    if (num('bytes') != null && num('bytes') >= 1 && num('bytes') <= MAX_BYTES) s.bytes = num('bytes');
    else bad('bytes', q.get('bytes'), { bytes: [1, MAX_BYTES] }, s.bytes);
  }
  listed('topology', TOPOLOGIES);
  whole('gpus_per_node', 1, MAX_GPUS_PER_NODE);
  // A link is one of the catalogue's (any plain name while the catalogue is not known).
  const links = linkIds ?? (q.has('link') && /^[a-z0-9_]+$/.test(q.get('link')) ? [q.get('link')] : []);
  const intraLinks = linkIds ?? (q.has('intra_link') && /^[a-z0-9_]+$/.test(q.get('intra_link')) ? [q.get('intra_link')] : []);
  // Custom alpha and beta come as a pair, both numbers; else the link (catalogue) is used.
  if (q.has('alpha_s') || q.has('beta_Bps')) {
    const alpha = q.has('alpha_s') ? num('alpha_s') : null;
    const beta = q.has('beta_Bps') ? num('beta_Bps') : null;
    const alphaOk = alpha != null && alpha >= 0;
    const betaOk = beta != null && beta > 0;
    if (alphaOk && betaOk) {
      s.link = null;
      s.alpha_s = alpha;
      s.beta_Bps = beta;
    } else {
      listed('link', links);
      if (!alphaOk) bad('alpha_s', q.has('alpha_s') ? q.get('alpha_s') : null, { seconds: 'beta_Bps' }, s.link);
      if (!betaOk) bad('beta_Bps', q.has('beta_Bps') ? q.get('beta_Bps') : null, { rate: 'alpha_s' }, s.link);
    }
  } else listed('link', links);
  listed('intra_link', intraLinks);
  // As the controls do: hierarchical runs on two levels, in-switch reduction on the switch.
  if (s.algorithm === 'hierarchical') s.topology = 'two_level';
  if (s.algorithm === 'in_switch') s.topology = 'switch';
  return { settings: s, problems };
}

/** The settings of a query string (readSettings without the problems). */
export function parseSettings(search, linkIds = null) {
  return readSettings(search, linkIds).settings;
}

/** What is not allowed in settings `s`, in words naming the control and the range; '' when all is. */
export function settingsProblem(s, t) {
  if (!(s.devices >= MIN_DEVICES && s.devices <= MAX_DEVICES)) return t.devicesRange(s.devices, MIN_DEVICES, MAX_DEVICES.toLocaleString('en'));
  if (s.topology === 'two_level') {
    if (!(s.gpus_per_node >= 1 && s.gpus_per_node <= MAX_GPUS_PER_NODE)) return t.gpusRange(s.gpus_per_node, 1, MAX_GPUS_PER_NODE);
    if (s.devices % s.gpus_per_node !== 0) return t.devicesMultiple(s.devices, s.gpus_per_node);
  }
  return '';
}

/** The query string of settings (only what differs from nothing: every setting is written). */
export function settingsQuery(s) {
  const q = new URLSearchParams({ view: 'explore', collective: s.collective, algorithm: s.algorithm, devices: String(s.devices), bytes: String(s.bytes), topology: s.topology });
  if (s.link) q.set('link', s.link);
  else {
    q.set('alpha_s', String(s.alpha_s));
    q.set('beta_Bps', String(s.beta_Bps));
  }
  if (s.topology === 'two_level') {
    q.set('gpus_per_node', String(s.gpus_per_node));
    q.set('intra_link', s.intra_link);
  }
  return `?${q}`;
}

/**
 * The player's settings for explore settings (allowed ones: settingsProblem is ''). On two levels
 * the devices are nodes of gpus_per_node, the link field is the inter-node link.
 */
function playerSettings(s) {
  const link = s.link ?? { alpha_s: s.alpha_s, beta_Bps: s.beta_Bps };
  if (s.topology === 'two_level') {
    return { collective: s.collective, algorithm: s.algorithm, bytes: s.bytes, topology: 'two_level', nodes: s.devices / s.gpus_per_node, gpus_per_node: s.gpus_per_node, intra_link: s.intra_link, inter_link: link };
  }
  return { collective: s.collective, algorithm: s.algorithm, devices: s.devices, bytes: s.bytes, link, topology: s.topology };
}

// Custom alpha and beta are typed in µs and GB/s, the exercises' units; the address keeps SI.
const toUs = (alpha_s) => Number((alpha_s * 1e6).toPrecision(12));
const toGBps = (beta_Bps) => Number((beta_Bps / 1e9).toPrecision(12));

// A log slider over [min, max] with `steps` positions.
function logScale(min, max, steps) {
  return {
    to: (v) => Math.round((Math.log(v / min) / Math.log(max / min)) * steps),
    from: (p) => min * (max / min) ** (p / steps),
  };
}

/**
 * The Explore view. `links` are the engine's catalogue ({id, label}); `onChange(settings)` is
 * told of every change (the app writes the address). The player and the charts always show the
 * same devices on the same topology; settings that are not allowed show what is, not a picture.
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
  const devScale = logScale(MIN_DEVICES, MAX_DEVICES, 1000);
  const devices = h('input', { id: 'x-devices', type: 'number', min: String(MIN_DEVICES), max: String(MAX_DEVICES), step: '1', 'data-setting': 'devices' });
  const devSlider = h('input', { type: 'range', min: '0', max: '1000', step: '1', 'aria-label': t.devices, 'data-slider': 'devices' });
  const byteScale = logScale(1, 1e9, 900);
  const bytes = h('input', { id: 'x-bytes', type: 'number', min: '1', max: '1000000000', step: 'any', 'data-setting': 'bytes' });
  const byteSlider = h('input', { type: 'range', min: '0', max: '900', step: '1', 'aria-label': t.bytes, 'data-slider': 'bytes' });
  const byteText = h('span', { class: 'unit' });
  const linkOptions = (custom) => [...links.map((l) => h('option', { value: l.id, text: l.label })), ...(custom ? [h('option', { value: '', text: t.customLink })] : [])];
  const link = h('select', { id: 'x-link', 'data-setting': 'link' }, linkOptions(true));
  const linkLabel = h('label', { for: 'x-link' });
  const intra = h('select', { id: 'x-intra-link', 'data-setting': 'intra_link' }, linkOptions(false));
  const intraField = field(t.intraLink, intra, 'x-intra-link');
  // data-setting names the address's setting; the control shows it in µs and GB/s.
  const alpha = h('input', { id: 'x-alpha', type: 'number', min: '0', step: 'any', 'data-setting': 'alpha_s', 'data-unit': 'us' });
  const beta = h('input', { id: 'x-beta', type: 'number', min: '0', step: 'any', 'data-setting': 'beta_Bps', 'data-unit': 'GB/s' });
  const custom = h('div', { class: 'params custom-link' }, [field(t.alphaUs, alpha, 'x-alpha'), field(t.betaGBps, beta, 'x-beta')]);
  const topology = h('select', { id: 'x-topology', 'data-setting': 'topology' }, TOPOLOGIES.map((v) => h('option', { value: v, text: t.topologies[v] })));
  const gpus = h('input', { id: 'x-gpus', type: 'number', min: '1', max: String(MAX_GPUS_PER_NODE), step: '1', 'data-setting': 'gpus_per_node' });
  const gpusField = field(t.gpusPerNode, gpus, 'x-gpus');
  const problem = h('p', { class: 'card-error settings-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const share = h('a', { href: settingsQuery(s), 'data-role': 'share', text: t.share });

  function fill() {
    collective.value = s.collective;
    fillAlgorithms();
    if (document.activeElement !== devices) devices.value = String(s.devices);
    devSlider.value = String(devScale.to(Math.min(MAX_DEVICES, Math.max(MIN_DEVICES, s.devices))));
    devSlider.setAttribute('aria-valuetext', t.devicesValue(s.devices));
    byteSlider.setAttribute('aria-valuetext', formatBytes(s.bytes));
    bytes.value = inputText(s.bytes);
    byteSlider.value = String(byteScale.to(s.bytes));
    byteText.textContent = formatBytes(s.bytes);
    link.value = s.link ?? '';
    linkLabel.textContent = s.topology === 'two_level' ? t.interLink : t.link;
    intra.value = s.intra_link;
    intraField.hidden = s.topology !== 'two_level';
    custom.hidden = !!s.link;
    if (document.activeElement !== alpha) alpha.value = String(toUs(s.alpha_s ?? 5e-6));
    if (document.activeElement !== beta) beta.value = String(toGBps(s.beta_Bps ?? 4e10));
    topology.value = s.topology;
    if (document.activeElement !== gpus) gpus.value = String(s.gpus_per_node);
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
  // A typed value the settings cannot take: said beside the controls, nothing drawn meanwhile.
  let typed = '';
  function run() {
    const wrong = typed || settingsProblem(s, t);
    problem.hidden = !wrong;
    problem.textContent = wrong ? `${wrong} ${t.settingsHidden}` : '';
    for (const v of [player, chart, nccl]) v.root.hidden = !!wrong;
    if (wrong) return;
    const ps = playerSettings(s);
    player.update(ps);
    const allreduce = s.collective === 'allreduce';
    const link = ps.link ?? ps.inter_link;
    chart.root.hidden = !allreduce;
    // NCCL's tuning model is of k GPUs on one link: drawn for the switch, where it applies.
    nccl.root.hidden = !allreduce || s.topology !== 'switch';
    if (!allreduce) return;
    if (s.topology === 'switch') {
      const algorithms = [...ALLREDUCE, ...(s.algorithm === 'in_switch' ? ['in_switch'] : [])];
      chart.update({ devices: s.devices, link, bytes: s.bytes, algorithms, selected: s.algorithm });
      nccl.update({ devices: s.devices, link, bytes: s.bytes });
    } else {
      const algorithms = ALGORITHMS.allreduce.filter((a) => a !== 'in_switch' && (a !== 'hierarchical' || s.topology === 'two_level'));
      chart.update({ player: ps, bytes: s.bytes, algorithms, selected: s.algorithm });
    }
  }

  collective.addEventListener('change', () => { s.collective = collective.value; s.algorithm = ALGORITHMS[s.collective][0]; changed(); });
  algorithm.addEventListener('change', () => { s.algorithm = algorithm.value; changed(); });
  // A typed number goes into the settings as it is (whole), and settingsProblem says if it is not allowed.
  const whole = (input) => (input.value.trim() === '' || !Number.isFinite(Number(input.value)) ? null : Math.round(Number(input.value)));
  devices.addEventListener('input', () => {
    const v = whole(devices);
    if (v == null) return;
    s.devices = v;
    changed();
  });
  devSlider.addEventListener('input', () => {
    let v = Math.round(devScale.from(Number(devSlider.value)));
    // On two levels the slider moves in whole nodes.
    if (s.topology === 'two_level' && s.gpus_per_node >= 1) v = Math.max(1, Math.round(v / s.gpus_per_node)) * s.gpus_per_node;
    s.devices = Math.min(MAX_DEVICES, v);
    devices.value = String(s.devices);
    changed();
  });
  // Arrow keys move to the next device count (the next node on two levels), not the next of the
  // slider's 1,000 log positions.
  devSlider.addEventListener('keydown', (e) => {
    const dir = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
    if (!dir) return;
    e.preventDefault();
    const step = s.topology === 'two_level' && s.gpus_per_node >= 1 ? s.gpus_per_node : 1;
    const v = Math.min(MAX_DEVICES, Math.max(step === 1 ? MIN_DEVICES : step, s.devices + dir * step));
    if (v === s.devices) return;
    s.devices = v;
    devices.value = String(v);
    changed();
  });
  bytes.addEventListener('input', () => {
    const v = Number(bytes.value);
    if (!(v >= 1 && v <= 1e9)) return;
    s.bytes = v;
    changed();
  });
  byteSlider.addEventListener('input', () => { s.bytes = Number(byteScale.from(Number(byteSlider.value)).toPrecision(3)); changed(); });
  link.addEventListener('change', () => {
    s.link = link.value || null;
    typed = '';
    if (!s.link) { s.alpha_s ??= 5e-6; s.beta_Bps ??= 4e10; }
    changed();
  });
  intra.addEventListener('change', () => { s.intra_link = intra.value; changed(); });
  alpha.addEventListener('input', () => {
    const v = Number(alpha.value);
    typed = alpha.value.trim() !== '' && v >= 0 ? '' : t.alphaRange(alpha.value);
    if (!typed) s.alpha_s = v / 1e6;
    changed();
  });
  beta.addEventListener('input', () => {
    const v = Number(beta.value);
    typed = beta.value.trim() !== '' && v > 0 ? '' : t.betaRange(beta.value);
    if (!typed) s.beta_Bps = v * 1e9;
    changed();
  });
  topology.addEventListener('change', () => { s.topology = topology.value; if (s.algorithm === 'in_switch' && s.topology !== 'switch') s.algorithm = 'ring'; if (s.algorithm === 'hierarchical' && s.topology !== 'two_level') s.algorithm = 'ring'; changed(); });
  gpus.addEventListener('input', () => {
    const v = whole(gpus);
    if (v == null) return;
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
      field(t.topology, topology, 'x-topology'),
      gpusField,
      intraField,
      h('div', { class: 'param' }, [linkLabel, link]),
    ]),
    custom,
    problem,
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
