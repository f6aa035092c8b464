// NCCL (`?view=nccl`, P5 §5.6): the ring's three protocols against message size with the exact
// sizes where the cheapest changes (`nccl` and `crossover` ops, ring only), what each protocol
// is (`nccl.protocols`: the unit that carries a flag, the payload share, the latencies), NVLS as
// the `in_switch` all-reduce beside the ring (§5.4, `allreduce` and `crossover`), and NCCL's
// (algorithm, protocol) choice at a size the student picks. Devices, size and link are
// selectable and kept in the address (`devices`, `bytes`, `link`).

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { ncclStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { createCrossover, createNccl } from './chart.js';
import { formatRate } from './ladder.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

const LIMITS = { devices: [2, 1024], bytes: [1, 1e9] };
const DEFAULTS = { devices: 8, bytes: 1e6, link: 'nvlink4' };

/**
 * The view's settings from a query string: {settings, problems}; a value that cannot be read is
 * replaced by its default and named ({setting, value}).
 */
export function readNcclSettings(search, linkIds) {
  const q = new URLSearchParams(search);
  const s = { ...DEFAULTS };
  const problems = [];
  for (const k of ['devices', 'bytes']) {
    if (!q.has(k)) continue;
    const text = q.get(k);
    const v = Number(text);
    const [lo, hi] = LIMITS[k];
    const ok = text.trim() !== '' && Number.isFinite(v) && v >= lo && v <= hi && (k !== 'devices' || Number.isInteger(v));
    if (ok) s[k] = v; else problems.push({ setting: k, value: text });
  }
  if (q.has('link')) {
    if (linkIds.includes(q.get('link'))) s.link = q.get('link');
    else problems.push({ setting: 'link', value: q.get('link') });
  }
  return { settings: s, problems };
}

export function createNcclView(lang, links) {
  const t = ncclStrings(lang);
  const vt = viewStrings(lang);
  const read = readNcclSettings(location.search, links.map((l) => l.id));
  const s = read.settings;
  const root = h('section', { class: 'nccl-view card', dataset: { view: 'nccl-view', lecture: '5.6' }, 'aria-labelledby': 'nccl-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const devices = h('input', { id: 'nccl-devices', type: 'number', min: '2', max: '1024', step: '1', value: String(s.devices), 'data-setting': 'devices' });
  // The size as the address gives it, every digit: rounded for display (inputText's 6 figures), a
  // shared 8,820,942 B would be drawn at 8,820,940 B and written back so into the address.
  const bytes = h('input', { id: 'nccl-bytes', type: 'number', min: '1', max: '1000000000', step: 'any', value: String(s.bytes), 'data-setting': 'bytes' });
  const byteText = h('span', { class: 'unit', text: formatBytes(s.bytes) });
  const link = h('select', { id: 'nccl-link', 'data-setting': 'link' }, links.map((l) => h('option', { value: l.id, text: l.label })));
  link.value = s.link;
  // What the address asked for and could not have stays said; a typed value is said below it.
  const addressNote = h('p', { class: 'card-error', role: 'alert', 'data-role': 'address-problems', hidden: !read.problems.length, text: read.problems.map((p) => t.badSetting(p)).join(' ') });
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const chart = createNccl(lang, 'nccl-ring', { algorithms: ['ring'], title: t.chartTitle, caption: t.chartCaption });
  const protocols = h('div', { 'data-role': 'protocols' });
  const nvls = createCrossover(lang, 'nccl-nvls', { lecture: '5.4' });
  const nvlsNote = h('p', { class: 'note', 'data-role': 'nvls-note' });
  const choice = h('div', { 'data-role': 'choice' });
  root.append(
    h('h2', { id: 'nccl-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.devices, devices, 'nccl-devices'),
      h('div', { class: 'param' }, [h('label', { for: 'nccl-bytes', text: t.bytes }), h('div', { class: 'field' }, [bytes, byteText])]),
      field(t.link, link, 'nccl-link'),
    ]),
    addressNote,
    problem,
    drawn,
  );
  drawn.append(
    chart.root,
    h('h3', { text: t.protocolsTitle }), protocols,
    h('section', { id: 'nccl-nvls', class: 'nccl-nvls', 'aria-labelledby': 'nccl-nvls-title' }, [h('h3', { id: 'nccl-nvls-title', text: t.nvlsTitle }), nvlsNote, nvls.root]),
    h('h3', { text: t.choiceTitle }), choice,
  );

  const sayWrong = () => rangeProblem([
    { input: devices, range: LIMITS.devices, say: (v) => t.devicesRange(v) },
    { input: bytes, range: LIMITS.bytes, whole: false, say: (v) => t.bytesRange(v) },
  ]);

  const turns = settingsRefresh(problem, drawn);
  async function run() {
    const turn = turns.begin(sayWrong());
    if (!turn) return;
    s.devices = Number(devices.value);
    s.bytes = Number(bytes.value);
    s.link = link.value;
    byteText.textContent = formatBytes(s.bytes);
    history.replaceState(history.state, '', `?${new URLSearchParams({ view: 'nccl', devices: String(s.devices), bytes: String(s.bytes), link: s.link })}${location.hash}`);
    Object.assign(root.dataset, { devices: String(s.devices), bytes: String(s.bytes), link: s.link });
    root.setAttribute('aria-busy', 'true');
    // null when a later refresh superseded this one (door.js askMany): that one draws.
    const answers = await askMany([
      { op: 'nccl.protocols', link: s.link },
      { op: 'nccl', devices: s.devices, bytes: s.bytes, link: s.link },
      { op: 'nccl', devices: s.devices, bytes: s.bytes, link: s.link, algorithms: ['ring'] },
    ], 'nccl-view');
    if (turn.stale || !answers) return;
    const [proto, pick, ring] = answers;
    // The in-switch algorithm the engine gives this link's switch (links op: NVLS, CollNet), or
    // none: §5.4 gives in-switch reduction only to switches that reduce.
    const reducing = links.find((l) => l.id === s.link)?.reducing_switch ?? 'none';
    const charts = Promise.all([
      chart.update({ devices: s.devices, link: s.link, bytes: s.bytes }),
      nvls.update({ devices: s.devices, link: s.link, bytes: s.bytes, ...(reducing === 'none' ? { algorithms: ['ring'], selected: 'ring' } : { algorithms: ['ring', 'in_switch'], selected: 'in_switch' }) }),
    ]);
    await charts;
    if (turn.stale) return;
    root.removeAttribute('aria-busy');
    if ([proto, pick, ring].some((r) => r?.error)) {
      turns.say(t.failed);
      return;
    }
    drawProtocols(proto);
    drawChoice(pick, ring);
    root.dataset.reducingSwitch = reducing;
    const label = links.find((l) => l.id === s.link)?.label ?? s.link;
    nvlsNote.textContent = reducing === 'nvls' ? t.nvlsNote : reducing === 'collnet' ? t.collnetNote : t.noSwitch(label);
    nvlsNote.dataset.says = reducing;
    root.dataset.ready = 'true';
  }

  function drawProtocols(out) {
    const pct = (x) => `${Number((x * 100).toPrecision(4))}%`;
    // Every figure a protocol's sentence and its table row show, and which sentence (flag in the data or a fence).
    const figures = (p) => ({
      protocol: p.protocol, payloadShare: String(p.payload_share), unitBytes: String(p.unit_bytes), payloadBytes: String(p.payload_bytes), flagBytes: String(p.flag_bytes),
      bandwidthBps: String(p.bandwidth_Bps), stepLatencyS: String(p.step_latency_s), baseLatencyS: String(p.base_latency_s), flagInData: String(p.flag_in_data),
    });
    protocols.dataset.linkBetaBps = String(out.link.beta_Bps);
    const items = out.protocols.map((p) => h('li', {
      dataset: figures(p),
    }, [h('strong', { text: `${p.protocol}: ` }), (p.flag_in_data ? t.flagged : t.fenced)({
      unit: formatBytes(p.unit_bytes), payload: formatBytes(p.payload_bytes), flag: formatBytes(p.flag_bytes), share: pct(p.payload_share),
      bw: formatRate(p.bandwidth_Bps), beta: formatRate(out.link.beta_Bps), hop: formatTime(p.step_latency_s), base: formatTime(p.base_latency_s),
    })]));
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.protocolTable })]);
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colProtocol, t.colUnit, t.colPayload, t.colFlag, t.colShare, t.colBandwidth, t.colHop, t.colBase].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, out.protocols.map((p) => h('tr', { dataset: figures(p) }, [
        h('th', { scope: 'row', text: p.protocol }),
        ...[p.flag_in_data ? formatBytes(p.unit_bytes) : '–', p.flag_in_data ? formatBytes(p.payload_bytes) : '–', p.flag_in_data ? formatBytes(p.flag_bytes) : t.fence,
          pct(p.payload_share), formatRate(p.bandwidth_Bps), formatTime(p.step_latency_s), formatTime(p.base_latency_s)].map((v) => h('td', { text: v })),
      ]))),
    ]));
    protocols.replaceChildren(h('ul', { class: 'nccl-protocols' }, items), details);
  }

  function drawChoice(pick, ring) {
    const name = (c) => `${vt.algorithms[c.algorithm] ?? c.algorithm} · ${c.protocol}`;
    Object.assign(choice.dataset, { algorithm: pick.algorithm, protocol: pick.protocol, timeS: String(pick.time_s), ringProtocol: ring.protocol, ringTimeS: String(ring.time_s), bytes: String(pick.bytes), devices: String(pick.devices) });
    const rows = pick.candidates.map((c) => h('tr', { dataset: { pair: `${c.algorithm}/${c.protocol}`, timeS: String(c.time_s), latencyS: String(c.latency_s), bandwidthBps: String(c.bandwidth_Bps) }, class: c.algorithm === pick.algorithm && c.protocol === pick.protocol ? 'is-best' : null }, [
      h('th', { scope: 'row', text: name(c) }), h('td', { text: formatTime(c.time_s) }), h('td', { text: formatTime(c.latency_s) }), h('td', { text: formatRate(c.bandwidth_Bps) }),
    ]));
    const label = links.find((l) => l.id === s.link)?.label ?? s.link;
    const leftOut = pick.left_out.length === 0 ? null : h('p', {
      'data-role': 'left-out', 'data-algorithms': pick.left_out.map((x) => x.algorithm).join(' '), 'data-reasons': pick.left_out.map((x) => x.reason).join(' '),
      text: t.leftOut(label, pick.left_out.map((x) => t.leftOutWhy[x.reason] ?? x.reason).join('; ')),
    });
    choice.replaceChildren(
      h('p', { 'data-role': 'choice-note', text: t.choiceNote(formatBytes(pick.bytes), pick.devices, name(pick), formatTime(pick.time_s), ring.protocol, formatTime(ring.time_s)) }),
      ...(leftOut ? [leftOut] : []),
      h('table', { class: 'nccl-choice' }, [
        h('caption', { text: t.choiceCaption }),
        h('thead', {}, h('tr', {}, [t.colPair, t.colTime, t.colLatency, t.colBandwidth].map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', {}, rows),
      ]),
    );
  }

  devices.addEventListener('input', run);
  bytes.addEventListener('input', run);
  link.addEventListener('change', run);
  const ready = run();
  return { root, ready };
}
