// The least each device must send (`?view=bound`, P5 §4.2, code 02 demo 2): an all-reduce's
// result depends on every device's data, so each device sends at least 2(k-1)/k × D bytes. Every
// all-reduce algorithm is run by the engine's step engine (`simulate`: on real buffers where they
// fit, verified; counted where the engine finds them too large for buffers), its bytes a device drawn against the engine's `lower_bound_bytes`;
// the bound for growing k comes from the engine's `collective` op. The page compares the engine's
// two numbers to say which algorithms meet the bound; it computes no figure.

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { boundStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

export const BOUND_ALGORITHMS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
// The device counts of the growth row (the lecture: the bound hardly grows with k).
export const BOUND_DEVICES = [2, 4, 8, 16, 64, 256, 1024];
const LIMITS = { devices: [2, 256], mb: [1e-6, 1e6] };

/** The engine's verdict on a run's bytes against the bound (simulate's against_bound): meets, above, below (the switch sums). */
export const againstBound = (sim) => sim.against_bound;

export function createBoundView(lang, links) {
  const t = boundStrings(lang);
  const vt = viewStrings(lang);
  const root = h('section', { class: 'bound card', dataset: { view: 'bound', lecture: '4.2' }, 'aria-labelledby': 'bound-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const devices = h('input', { id: 'bound-devices', type: 'number', min: '2', max: '256', step: '1', value: '8', 'data-setting': 'devices' });
  const mb = h('input', { id: 'bound-mb', type: 'number', min: '0.000001', max: '1000000', step: 'any', value: '8', 'data-setting': 'mb' });
  const link = h('select', { id: 'bound-link', 'data-setting': 'link' }, links.map((l) => h('option', { value: l.id, text: l.label })));
  link.value = links.some((l) => l.id === 'nvlink4') ? 'nvlink4' : links[0]?.id ?? '';
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const picture = h('div', { class: 'bound-picture', 'data-role': 'picture', role: 'img', 'aria-label': t.pictureLabel });
  const sentences = h('ul', { class: 'bound-sentences', 'data-role': 'sentences' });
  const growth = h('div', { class: 'bound-growth', 'data-role': 'growth' });
  const tableBox = h('div');
  root.append(
    h('h2', { id: 'bound-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [field(t.devices, devices, 'bound-devices'), field(t.mb, mb, 'bound-mb'), field(t.link, link, 'bound-link')]),
    problem,
    drawn,
  );
  drawn.append(h('figure', { class: 'bound-figure' }, [h('figcaption', { text: t.caption }), picture]), sentences, tableBox, growth);

  const sayWrong = () => rangeProblem([
    { input: devices, range: LIMITS.devices, say: (v) => t.range.devices(v) },
    { input: mb, range: LIMITS.mb, whole: false, say: (v) => t.range.mb(v) },
  ]);

  const turns = settingsRefresh(problem, drawn);
  async function refresh() {
    const turn = turns.begin(sayWrong());
    if (!turn) return;
    root.setAttribute('aria-busy', 'true');
    const k = Number(devices.value);
    // MB to bytes by moving the decimal point (Number('0.00204e6') is 2040), not by multiplying
    // (0.00204 * 1e6 is 2040.0000000000002, which data mode refuses as not whole 8-byte elements).
    const [mantissa, exponent = '0'] = mb.value.trim().toLowerCase().split('e');
    const bytes = Number(`${mantissa}e${Number(exponent) + 6}`);
    // One batch: every algorithm run by the step engine on buffers, then the ring's bound at each
    // k of the growth row.
    const run = (algorithm, mode) => ({ op: 'simulate', collective: 'allreduce', algorithm, devices: k, bytes, link: link.value, mode, trace_limit: 0 });
    // In-switch reduction only where the link's switch reduces (the links op's reducing_switch:
    // NVLS, SHARP; §5.4): on the others it is left out and the sentences say why.
    const reducing = links.find((l) => l.id === link.value)?.reducing_switch ?? 'none';
    const algorithms = BOUND_ALGORITHMS.filter((a) => a !== 'in_switch' || reducing !== 'none');
    const runs = algorithms.map((algorithm) => run(algorithm, 'data'));
    const bounds = BOUND_DEVICES.map((n) => ({ op: 'collective', collective: 'allreduce', algorithm: 'ring', devices: n, bytes, link: link.value }));
    const answers = await askMany([...runs, ...bounds], 'bound');
    if (turn.stale || !answers) return; // superseded (door.js askMany): the later one draws
    // A run refused on buffers (too large, or less than one 8-byte element) is counted instead;
    // a refusal of the counted run too is said.
    const large = algorithms.filter((a, i) => answers?.[i]?.error);
    if (large.length) {
      const counted = await askMany(large.map((a) => run(a, 'accounting')), 'bound');
      if (turn.stale) return;
      // Each counted run keeps the engine's reason for not running it on buffers (its error code).
      large.forEach((a, j) => {
        const i = algorithms.indexOf(a);
        const code = answers[i].error.code;
        answers[i] = counted?.[j] ? { ...counted[j], data_refused: code } : null;
      });
    }
    root.removeAttribute('aria-busy');
    const refused = answers?.find((a) => a?.error);
    if (!answers || refused) {
      turns.say(refused ? t.refused(refused.error.message) : t.failed);
      return;
    }
    const sims = answers.slice(0, runs.length);
    const growthAnswers = answers.slice(runs.length);
    Object.assign(root.dataset, { devices: String(k), mb: mb.value, bytes: String(bytes), link: link.value, reducingSwitch: reducing, lowerBoundBytes: String(sims[0].lower_bound_bytes) });
    draw(sims, growthAnswers, reducing);
  }

  const algoName = (a) => vt.algorithms[a] ?? a;

  function draw(sims, growthAnswers, reducing) {
    const bound = sims[0].lower_bound_bytes;
    const longest = Math.max(bound, ...sims.map((s) => s.bytes_sent_per_device));
    const pct = (x) => `${(longest > 0 ? (x / longest) * 100 : 0).toFixed(3)}%`;
    const line = h('span', { class: 'bound-line', 'aria-hidden': 'true' });
    line.style.left = pct(bound);
    const rows = sims.map((s) => {
      const where = againstBound(s);
      const bar = h('span', { class: `bound-bar bound-${where}` });
      bar.style.width = pct(s.bytes_sent_per_device);
      const mark = h('span', { class: 'bound-line', 'aria-hidden': 'true' });
      mark.style.left = pct(s.lower_bound_bytes);
      return h('div', {
        class: 'bound-row',
        dataset: { algorithm: s.algorithm, bytesSentPerDevice: String(s.bytes_sent_per_device), lowerBoundBytes: String(s.lower_bound_bytes), steps: String(s.steps), timeS: String(s.time_s), verified: String(s.verified === true), mode: s.mode, against: where },
      }, [
        h('span', { class: 'bound-name', text: algoName(s.algorithm) }),
        h('span', { class: 'bound-track' }, [bar, mark]),
        h('span', { class: 'bound-value', text: `${formatBytes(s.bytes_sent_per_device)} · ${t.steps(s.steps)}` }),
      ]);
    });
    picture.replaceChildren(
      h('div', { class: 'bound-legend', 'aria-hidden': 'true' }, [
        h('span', { class: 'swatch bound-meets' }), h('span', { text: t.legendMeets }),
        h('span', { class: 'swatch bound-above' }), h('span', { text: t.legendAbove }),
        h('span', { class: 'swatch bound-below' }), h('span', { text: t.legendBelow }),
        h('span', { class: 'swatch bound-swatch-line' }), h('span', { text: t.legendBound(formatBytes(bound)) }),
      ]),
      ...rows,
    );
    sentences.replaceChildren(...said(sims, reducing).map((s) => h('li', { dataset: { says: s.key, ...(s.stepsAgainstRing ? { stepsAgainstRing: s.stepsAgainstRing } : {}), ...(s.countedBecause ? { countedBecause: s.countedBecause } : {}) } }, s.text)));
    tableBox.replaceChildren(dataTable(sims));
    growth.replaceChildren(
      h('h3', { text: t.growthTitle }),
      h('table', { class: 'bound-growth-table' }, [
        h('thead', {}, h('tr', {}, [h('th', { scope: 'col', text: t.colDevices }), h('th', { scope: 'col', text: t.colBound })])),
        h('tbody', {}, growthAnswers.map((g) => h('tr', { dataset: { devices: String(g.devices), lowerBoundBytes: String(g.lower_bound_bytes) } }, [
          h('th', { scope: 'row', text: String(g.devices) }), h('td', { text: formatBytes(g.lower_bound_bytes) }),
        ]))),
      ]),
      h('p', { class: 'note', 'data-role': 'growth-sentence', text: t.growthSentence({ first: formatBytes(growthAnswers[0].lower_bound_bytes), firstK: growthAnswers[0].devices, last: formatBytes(growthAnswers.at(-1).lower_bound_bytes), lastK: growthAnswers.at(-1).devices, bytes: formatBytes(growthAnswers[0].bytes) }) }),
    );
  }

  // Sentences chosen by the engine's figures: verification, who meets the bound, who is above, the switch below.
  function said(sims, reducing) {
    const by = (w) => sims.filter((s) => againstBound(s) === w);
    const names = (list) => list.map((s) => algoName(s.algorithm)).join(t.and);
    const list = [];
    const verified = sims.filter((s) => s.verified === true);
    list.push(verified.length === sims.length
      ? { key: 'verified-all', text: t.verifiedAll(sims.length) }
      : (() => {
        // Counted, grouped by the engine's reason: too large for buffers, or not whole 8-byte elements.
        const counted = sims.filter((s) => s.verified !== true);
        const why = (s) => (s.data_refused === 'too_large' ? 'tooLarge' : 'notElements');
        const groups = ['tooLarge', 'notElements'].map((w) => [w, names(counted.filter((s) => why(s) === w))]).filter(([, n]) => n);
        return { key: 'verified-some', countedBecause: counted.map((s) => s.data_refused ?? 'none').join(' '), text: t.verifiedSome({ verified: names(verified), counted: groups }) };
      })());
    const meets = by('meets');
    if (meets.length) list.push({ key: 'meets', text: t.meets({ n: meets.length, names: names(meets), bound: formatBytes(sims[0].lower_bound_bytes) }) });
    // Above the bound buys fewer alphas only when the engine finds fewer steps than the ring's.
    for (const s of by('above')) {
      list.push({ key: `above-${s.algorithm}`, stepsAgainstRing: s.steps_against_ring, text: t.above({ name: algoName(s.algorithm), sent: formatBytes(s.bytes_sent_per_device), bound: formatBytes(s.lower_bound_bytes), steps: s.steps, ringSteps: s.ring_steps, against: s.steps_against_ring }) });
    }
    for (const s of by('below')) list.push({ key: `below-${s.algorithm}`, text: t.below({ name: algoName(s.algorithm), sent: formatBytes(s.bytes_sent_per_device), bound: formatBytes(s.lower_bound_bytes) }) });
    if (reducing === 'none') list.push({ key: 'no-switch', text: t.noSwitch(links.find((l) => l.id === link.value)?.label ?? link.value) });
    return list;
  }

  function dataTable(sims) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    const cols = [t.colAlgorithm, t.colSent, t.colLower, t.colSteps, t.colTime, t.colRun];
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, sims.map((s) => h('tr', { dataset: { algorithm: s.algorithm, bytesSentPerDevice: String(s.bytes_sent_per_device), lowerBoundBytes: String(s.lower_bound_bytes), steps: String(s.steps), timeS: String(s.time_s), verified: String(s.verified === true) } }, [
        h('th', { scope: 'row', text: algoName(s.algorithm) }),
        ...[formatBytes(s.bytes_sent_per_device), formatBytes(s.lower_bound_bytes), String(s.steps), formatTime(s.time_s), s.verified === true ? t.runVerified : t.runCounted].map((v) => h('td', { text: v })),
      ]))),
    ]));
    return details;
  }

  for (const c of [devices, mb]) c.addEventListener('input', refresh);
  link.addEventListener('change', refresh);
  const ready = refresh();
  return { root, ready };
}
