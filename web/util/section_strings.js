// The section views' own words in English and Chinese (?view=ladder ... ?view=ring:
// util/strings/sections.en.json and sections.zh.json), apart from util/i18n.js so that a page
// loads them only with a view that needs them. Compiled like the page's (util/messages.js).

import EN from './strings/sections.en.json' with { type: 'json' };
import ZH from './strings/sections.zh.json' with { type: 'json' };
import { wordsIn } from './i18n.js';
import { compile, count, oneOf } from './messages.js';
import { own } from './own.js';

// An input out of its range, or empty: "Devices: nothing typed; ..." or "Devices: 0 is not allowed; ...".
const range = (m, v) => m(v === '' ? 'empty' : 'refused', { v });

/** How each message is called (util/messages.js compile); exported for tests/node/strings.test.mjs. */
export const FORMS = {
  ladder: {
    faster: 'a b r x y', same: 'a b x', efficiencyRange: range,
    nodeNote: (m, n) => m('text', { ...n, verdict: n.equal ? m('equal', n) : m(n.faster === 'inside' ? 'inside' : 'outside', n) }),
  },
  nccl: {
    flagged: '{}', fenced: '{}', bytesRange: range, devicesRange: range,
    choiceNote: 'size k pair time ringProtocol ringTime', leftOut: 'link list', noSwitch: 'link',
    badSetting: (m, p) => m('text', { setting: p.setting, value: p.value, allowed: ['devices', 'bytes', 'link'].includes(p.setting) ? m(p.setting) : undefined }),
  },
  moe: {
    modelOption: 'label experts k', recvLabel: '{}', gpuBar: 'i b', splitLabel: '{}', splitNote: '{}',
    factTokens: 'n', factDispatch: 'd c r', factStep: 'b', factHot: 'p k', gpu: 'i', gpuBusiest: 'i',
    hotRange: range, tokensRange: range,
    phase: {
      decode: 'n',
      prefill: (m, n) => m({ n: n.toLocaleString('en') }),
    },
    routing: {
      hot: '{}', even: '{}', cold: '{}', local: '',
    },
    bound: {
      latency: '{}', bandwidth: '{}', none: '',
    },
  },
  decode: {
    summary: '{}', vllmPicks: 'bytes tp', kvAll: 'n', allNics: 'n', coldHost: 'n', host: 'n',
    sentence: (m, x) => (x.bound === 'none' ? m('none') : m('text', {
      ratio: x.ratio >= 10 ? m('times', { times: x.times }) : x.ratioText, against: x.against, share: x.share,
      steps: m.plural(x.steps, { n: x.steps }), bound: m(x.bound === 'latency' ? 'latency' : 'bandwidth'),
    })),
    notHere: (m, x) => m('text', { why: m(['link', 'devices', 'switch'].includes(x.limit) ? x.limit : 'bytes', x) }),
    transfersSentence: (m, x) => m('text', { ...x, than: m(x.hidden ? 'less' : 'more') }),
    range: {
      tokens: range, tp: range,
    },
  },
  rdma: {
    refused: 'm', direct: '{}',
    pipelined: {
      single_chunk: '{}', overlaps: '{}', worse: '{}',
    },
    nccl: {
      direct: '{}', host: '',
    },
    range: {
      chunks: range, mb: range,
    },
  },
  split: {
    tokensMultiple: 'tok k', tooLarge: 'tok hidden ffn', allreduce: 'shape', allreduceTwice: 'shape',
    attentionNote: '{}', bytesLabel: '{}', spSentence: '{}', spLabel: '{}', placeLabel: '{}', commOn: 'link',
    tpTable: '{}', colInside: 'l', colAcross: 'l', tokensRange: range, tpRange: range, tpTokensRange: range,
    placeSentence: {
      inside: '{}', across: '{}', both: '{}', neither: '{}', none: '{}',
    },
    checkSentence: (m, w) => m(w.agree === 'agree' ? 'agree' : 'differ', w),
  },
  bound: {
    refused: 'm', legendBound: 'b', verifiedAll: 'n', meets: (m, x) => m(x.n === 1 ? 'one' : 'many', x), below: '{}',
    above: (m, x) => m('text', { ...x, verdict: m(x.against, x) /* simulate's steps_against_ring: fewer, same or more */ }),
    growthSentence: '{}', steps: count, noSwitch: 'link',
    verifiedSome: (m, x) => m('text', { verified: x.verified || m('none'), counted: x.counted.map(([why, names]) => m(why, { names })).join(m('and')) }),
    range: {
      devices: range, mb: range,
    },
  },
  memory: {
    gpuOption: 'label hbm bw', line: 'hbm', gpuBar: (m, i, w) => m({ ...w, i }), drawnOf: 'shown n', factMin: '{}', factRoom: '{}',
    factShort: '{}', factContext: '{}', rowOne: 'bw', rowOneEff: 'eff', valueOver: 'time',
    decodeNoteOne: '{}', decodeNote: '{}', oneDoesNotFit: '{}', moeNote: '{}', factThroughput: '{}',
    factTraffic: '{}', factEachHolds: '{}', colTps: 'bw', replicasOver: '',
    modelOption: (m, label, bytes, b) => m('text', { label, bytes, type: b === 1 ? m('fp8') : b === 2 ? m('bf16') : m('bytes', { b }) }),
    range: (m, key, v) => m(v === '' ? 'empty' : 'refused', { v, name: own(m.group, key), allowed: own(m.group.allowed, key) }),
    fits: {
      fits: (m, w) => m('text', { ...w, holder: m.plural(w.n, w) }),
      kv: (m, w) => m('text', { ...w, where: m.plural(w.n, w), needs: m(w.n === 1 ? 'needsOne' : 'needsOther') }),
      weights: (m, w) => m('text', { ...w, where: m.plural(w.n, w) }),
    },
    barsLabel: (m, w) => m('text', { ...w, who: m.plural(w.n, w) }),
    rowN: (m, n, bw) => m('text', { bw, gpus: count(m, n) }),
    rowNEff: (m, n, eff) => m('text', { eff, gpus: count(m, n) }),
    replicasSentence: {
      one: (m, w) => m('text', { ...w, gpus: count(m, w.n) }),
      many: (m, w) => m('text', { ...w, gpus: count(m, w.n) }),
    },
  },
  compare: {
    refused: 'm', summary: '{}', colTime: 'l', colShare: 'l', rule: 'share', most: '{}', tpWider: 'tp gpus',
    combine: 'tp pp',
    range: (m, k, v, lo, hi) => {
      const locale = m.lang === 'zh' ? 'zh-CN' : 'en-US';
      return m(v === '' ? 'empty' : 'refused', { v, name: ['tokens', 'tp', 'pp', 'ep', 'cp'].includes(k) ? m(k) : undefined, lo: lo.toLocaleString(locale), hi: hi.toLocaleString(locale) });
    },
    messages: (m, r) => (r.messages === 0 ? m('none') : m(r.id, { n: r.messages })),
    inside: (m, rows, gpus) => m('text', { gpus, rows: rows.join(m('sep')) }),
    cross: (m, rows) => m('text', { rows: rows.join(m('sep')) }),
  },
  node: {
    pictureLabel: '{}', linkTitle: '{}', nvswitch: 'l', rail: 'i', railsLabel: 'n', range: range,
    placement: {
      tp: '{}', ep: '{}', none: '', dp: '',
      pp: (m, x) => (x.nodes > 1 ? m('nodes', x) : m('one')),
    },
    ratio: (m, x) => m('text', { ...x, verdict: m(x.faster === 'inside' ? 'inside' : 'outside', x) }),
  },
  ring: {
    refused: 'm', colsLabel: 'l', deviceWork: 'i w', causalSentence: '{}',
    layoutCaption: {
      contiguous: 'r', zigzag: 'r',
    },
    hiding: (m, x) => m(x.case, x), // the engine's hiding_case
    range: {
      devices: range, tokens: range,
    },
  },
  // The measured view's drawing of what NCCL built (views/topology.js).
  topology: {
    channelOption: 'c', hopTitle: 'a b transport', treeRoot: 'r', treeEdge: 'r p', ringCut: 'shown ranks',
    bound: 'cls link beta parallel busbw', predicted: 'busbw', measured: 'busbw size table best', skipped: 'n',
    commOption: (m, n, ranks, nodes, id) => m('text', { n, ranks, nodes: nodes ? m('nodes', { nodes }) : '', id: id ? m('id', { id }) : '' }),
    drawingLabel: (m, ranks, nodes) => m('text', { ranks, nodes: nodes ? m('nodes', { nodes }) : '' }),
    summary: (m, ranks, nodes, channels, version) => m('text', {
      ranks, channels, nodes: nodes ? m('nodes', { nodes }) : m('noHosts'), version: version ? m('version', { version }) : '',
    }),
    // The hops of a channel by class, those it has, in the engine's classes.
    channelHops: (m, c, hops, cross, byClass, bottleneck) => m('text', {
      c, hops, cross, bottleneck,
      classes: ['network', 'nvlink', 'shm', 'unknown'].filter((k) => byClass[k] > 0).map((k) => m(k, { n: byClass[k] })).join(m('sep')),
    }),
    bottleneck: (m, rings, cls) => m.plural(rings, { n: rings, cls }),
    read: (m, n, lines) => m.plural(n, { n, lines: lines.toLocaleString('en') }),
    // The engine's verdict (matches, below, above), with the in-switch reduction it names.
    verdict: (m, v, pct, inSwitch) => m(oneOf(m, v, 'other'), { pct, how: inSwitch ? m('how', { what: String(inSwitch).toUpperCase() }) : '' }),
  },
};

const WORDS = { en: compile(EN, FORMS, 'en'), zh: compile(ZH, FORMS, 'zh') };
const words = (lang) => wordsIn(WORDS, lang);

/** The bandwidth ladder's words in `lang`. */
export function ladderStrings(lang) {
  return words(lang).ladder;
}

/** The NCCL view's words in `lang`. */
export function ncclStrings(lang) {
  return words(lang).nccl;
}

/** The decode view's words in `lang`. */
export function decodeStrings(lang) {
  return words(lang).decode;
}

/** The RDMA view's words in `lang`. */
export function rdmaStrings(lang) {
  return words(lang).rdma;
}

/** The §6.2 split view's words in `lang`. */
export function splitStrings(lang) {
  return words(lang).split;
}

/** The §4.2 bound view's words in `lang`. */
export function boundStrings(lang) {
  return words(lang).bound;
}

/** The memory view's words in `lang` (§1 memory view). */
export function memoryStrings(lang) {
  return words(lang).memory;
}

/** The §2.2 node view's words in `lang`. */
export function nodeStrings(lang) {
  return words(lang).node;
}

/** The §6.5 ring view's words in `lang`. */
export function ringStrings(lang) {
  return words(lang).ring;
}

/** The comparison table's words in `lang`. */
export function compareStrings(lang) {
  return words(lang).compare;
}

/** The experts view's words in `lang`. */
export function moeStrings(lang) {
  return words(lang).moe;
}

/** The measured view's words for what NCCL built (views/topology.js) in `lang`. */
export function topologyStrings(lang) {
  return words(lang).topology;
}
