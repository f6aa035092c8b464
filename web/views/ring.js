// Context parallelism and ring attention (`?view=ring`, P5 §6.5): a ring step's attention grows with
// the square of the block, its KV block only linearly, so above a block size the KV's transfer hides
// behind the compute (Llama-3-70B: about 240 tokens a device on NVLink, 2,163 on InfiniBand); with a
// causal mask the devices' work is uneven, and the zig-zag layout evens it. Everything is the
// engine's `ring_attention` op, asked on two links; the page draws its figures.

import { h } from '../util/dom.js';
import { ringStrings } from '../util/section_strings.js';
import { formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';
import { sourcesNote } from './sources.js';
import { viewStrings } from '../util/i18n.js';

const LIMITS = { devices: [1, 1024], tokens: [1, 2e9] };
/** A count as the page shows it ("2,163"). Presentation only. */
const count = (x, lang) => Math.round(x).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US');
const ratio = (x) => Number(x.toPrecision(3));

export function createRingView(lang, links) {
  const t = ringStrings(lang);
  const root = h('section', { class: 'ring-view card', dataset: { view: 'ring', lecture: '6.5' }, 'aria-labelledby': 'ring-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const model = h('select', { id: 'ring-model', 'data-setting': 'model' });
  const devices = h('input', { id: 'ring-devices', type: 'number', min: '1', max: '1024', step: '1', value: '8', 'data-setting': 'devices' });
  const tokens = h('input', { id: 'ring-tokens', type: 'number', min: '1', max: '2000000000', step: '1', value: '131072', 'data-setting': 'prompt_tokens' });
  const linkPick = (id, fallback) => {
    const s = h('select', { id, 'data-setting': id }, links.map((l) => h('option', { value: l.id, text: l.label })));
    s.value = links.some((l) => l.id === fallback) ? fallback : links[0]?.id ?? '';
    return s;
  };
  const linkA = linkPick('ring-link-a', 'nvlink4');
  const linkB = linkPick('ring-link-b', 'ib_ndr');
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const hiding = h('div', { class: 'ring-hiding', 'data-role': 'hiding', role: 'img', 'aria-label': t.hidingLabel });
  const hidingSaid = h('ul', { class: 'ring-sentences', 'data-role': 'hiding-sentences' });
  const causal = h('div', { class: 'ring-causal', id: 'ring-causal', 'data-role': 'causal' });
  const tableBox = h('div');
  const sourcesBox = h('div');
  root.append(
    h('h2', { id: 'ring-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, model, 'ring-model'), field(t.devices, devices, 'ring-devices'), field(t.tokens, tokens, 'ring-tokens'),
      field(t.linkA, linkA, 'ring-link-a'), field(t.linkB, linkB, 'ring-link-b'),
    ]),
    problem,
    drawn,
  );
  drawn.append(h('h3', { text: t.hidingTitle }), h('figure', { class: 'ring-figure' }, [h('figcaption', { text: t.hidingCaption }), hiding]), hidingSaid, causal, tableBox, sourcesBox);

  const sayWrong = () => rangeProblem([
    { input: devices, range: LIMITS.devices, say: (v) => t.range.devices(v) },
    { input: tokens, range: LIMITS.tokens, say: (v) => t.range.tokens(v) },
  ]);

  let presets = null;
  const turns = settingsRefresh(problem, drawn);
  async function refresh() {
    const turn = turns.begin(sayWrong());
    if (!turn) return;
    root.setAttribute('aria-busy', 'true');
    const base = { op: 'ring_attention', devices: Number(devices.value), prompt_tokens: Number(tokens.value) };
    if (model.value) base.model = model.value;
    const out = await askMany([{ op: 'presets' }, { ...base, link: linkA.value }, { ...base, link: linkB.value }], 'ring');
    if (turn.stale) return;
    root.removeAttribute('aria-busy');
    const bad = out?.find((a) => !a || a.error);
    if (!out || bad !== undefined) {
      turns.say(bad?.error ? t.refused(bad.error.message) : t.failed);
      return;
    }
    const [p, a, b] = out;
    if (!presets) {
      presets = p;
      model.replaceChildren(...p.models.map((m) => h('option', { value: m.id, text: m.label })));
      model.value = 'llama3_70b';
    }
    Object.assign(root.dataset, { model: model.value, devices: String(a.devices), promptTokens: String(base.prompt_tokens), tokensPerDevice: String(a.tokens_per_device), linkA: linkA.value, linkB: linkB.value });
    draw([a, b]);
  }

  const linkName = (id) => links.find((l) => l.id === id)?.label ?? id;

  function draw(answers) {
    const ids = [linkA.value, linkB.value];
    const longest = Math.max(...answers.flatMap((r) => [r.compute_time_s, r.transfer_time_s]));
    const pct = (x) => `${(longest > 0 ? (x / longest) * 100 : 0).toFixed(3)}%`;
    const bar = (cls, x) => { const b = h('span', { class: `ring-bar ${cls}` }); b.style.width = pct(x); return b; };
    hiding.replaceChildren(
      h('div', { class: 'ring-legend', 'aria-hidden': 'true' }, [h('span', { class: 'swatch ring-compute' }), h('span', { text: t.computeLegend }), h('span', { class: 'swatch ring-transfer' }), h('span', { text: t.transferLegend })]),
      ...answers.map((r, i) => h('div', {
        class: 'ring-link-row',
        dataset: { link: ids[i], computeTimeS: String(r.compute_time_s), transferTimeS: String(r.transfer_time_s), thresholdTokens: String(r.threshold_tokens), thresholdWithAlphaTokens: String(r.threshold_with_alpha_tokens), hidden: String(r.hidden), hiddenWithAlpha: String(r.hidden_with_alpha) },
      }, [
        h('strong', { text: linkName(ids[i]) }),
        h('span', { class: 'ring-track' }, bar('ring-compute', r.compute_time_s)), h('span', { class: 'ring-value', text: `${t.computeShort} ${formatTime(r.compute_time_s)}` }),
        h('span', { class: 'ring-track' }, bar('ring-transfer', r.transfer_time_s)), h('span', { class: 'ring-value', text: `${t.transferShort} ${formatTime(r.transfer_time_s)}` }),
      ])),
    );
    // The case is the engine's (alpha included); the sentence names both thresholds it compared.
    hidingSaid.replaceChildren(...answers.map((r, i) => h('li', { dataset: { link: ids[i], says: r.hiding_case } },
      t.hiding({ link: linkName(ids[i]), n: count(r.tokens_per_device, lang), threshold: count(r.threshold_tokens, lang), thresholdAlpha: count(r.threshold_with_alpha_tokens, lang), case: r.hiding_case, compute: formatTime(r.compute_time_s), transfer: formatTime(r.transfer_time_s) }))));
    drawCausal(answers[0]);
    tableBox.replaceChildren(dataTable(answers, ids));
    sourcesBox.replaceChildren(sourcesNote(viewStrings(lang).presetSources, presets, [model.value]));
  }

  // The causal mask: each device's work in (query, key) pairs, contiguous against zig-zag (the engine's causal).
  function drawCausal(r) {
    const parts = [h('h3', { text: t.causalTitle })];
    const layouts = ['contiguous', 'zigzag'];
    const shown = layouts.filter((l) => r.causal[l]);
    if (!shown.length) {
      parts.push(h('p', { 'data-role': 'causal-none', text: t.causalNone }));
      causal.replaceChildren(...parts);
      return;
    }
    const most = Math.max(...shown.flatMap((l) => r.causal[l].work_pairs));
    for (const l of layouts) {
      const c = r.causal[l];
      if (!c) {
        parts.push(h('p', { dataset: { layout: l, role: 'causal-none' }, text: t.zigzagOdd }));
        continue;
      }
      const cols = c.work_pairs.map((w, i) => {
        const col = h('span', { class: 'ring-col', title: t.deviceWork(i, count(w, lang)), dataset: { device: String(i), workPairs: String(w) } });
        col.style.height = `${(most > 0 ? (w / most) * 100 : 0).toFixed(2)}%`;
        return col;
      });
      parts.push(h('figure', { class: 'ring-layout', dataset: { layout: l, imbalance: String(c.imbalance), ringPairs: String(c.ring_pairs), ringPairsIdeal: String(c.ring_pairs_ideal) } }, [
        h('figcaption', { text: t.layoutCaption[l](ratio(c.imbalance)) }),
        h('div', { class: 'ring-cols', role: 'img', 'aria-label': t.colsLabel(t.layouts[l]) }, cols),
      ]));
    }
    const even = r.causal.zigzag && r.causal.contiguous;
    if (even) parts.push(h('p', { 'data-role': 'causal-sentence', text: t.causalSentence({ contiguous: ratio(r.causal.contiguous.imbalance), zigzag: ratio(r.causal.zigzag.imbalance), devices: r.devices }) }));
    causal.replaceChildren(...parts);
  }

  function dataTable(answers, ids) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    const cols = [t.colLink, t.colTokens, t.colThreshold, t.colThresholdAlpha, t.colCompute, t.colTransfer, t.colHidden];
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, answers.map((r, i) => h('tr', { dataset: { link: ids[i] } }, [
        h('th', { scope: 'row', text: linkName(ids[i]) }),
        ...[count(r.tokens_per_device, lang), count(r.threshold_tokens, lang), count(r.threshold_with_alpha_tokens, lang), formatTime(r.compute_time_s), formatTime(r.transfer_time_s), r.hidden_with_alpha ? t.yes : t.no].map((v) => h('td', { text: v })),
      ]))),
    ]));
    return details;
  }

  for (const c of [devices, tokens]) c.addEventListener('input', refresh);
  for (const c of [model, linkA, linkB]) c.addEventListener('change', refresh);
  const ready = refresh();
  return { root, ready };
}
