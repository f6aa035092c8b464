// The page's own words in English and Chinese (util/strings/en.json and zh.json; the section
// views' apart, util/section_strings.js); exercise texts come from the engine's documents.
// Each table is compiled once (util/messages.js): a template becomes a function of the
// arguments its form below names, in the order the callers pass them.

import EN from './strings/en.json' with { type: 'json' };
import ZH from './strings/zh.json' with { type: 'json' };
import { compile, count, oneOf, ordinal } from './messages.js';
import { own, shownValue } from './own.js';

/** The words of a table by language ({en, zh, ...}) in `lang`; English for a language it lacks. */
export function wordsIn(words, lang) {
  return own(words, lang) ?? words.en;
}

// The engine's refusal of a document, without the file name it starts with (said before it).
const refusal = (p) => String(p.message).replace(/^exercises\/[^:]*: /, '');
const pctOff = (ratio) => `${Number((Math.abs(ratio - 1) * 100).toPrecision(2))}%`;
// `outcome` is the engine's: faster, slower (every chunk pays its α) or same.
const outcome = (o) => (o === 'faster' || o === 'slower' ? o : 'same');

/** How each message is called (util/messages.js compile); exported for tests/node/strings.test.mjs. */
export const FORMS = {
  page: {
    paramNotNumber: 'label', paramOutOfRange: 'label typed lo hi', paramNotWhole: 'label typed',
    progress: 'n total', importNothingFor: 'id', carryRefused: 'm', judgeFailed: 'm', judgingNamed: 'labels text', fileNotJson: 'm', fileVersion: 'v',
    fileUnknownExercise: 'id known', fileExercise: 'id title', fileVariant: 'key', fileUnknownAnswer: 'k',
    fileUnknownParam: 'k', fileAnswer: 'label k', fileParam: 'label k', fileBadValue: 'k v',
    fileNotCount: 'v', fileNotBoolean: 'v', fileNoSuchVariant: 'k', restoreDropped: 'list',
    leaveUnchecked: 'list', variantName: 'n', restoreRefused: 'm', importTooLarge: 'size',
    importRefusedStorage: 'm', restoreTrimmed: 'list', timelineTitle: 'p m', timelineAxis: 'x',
    engineProblem: (m, p) => m(oneOf(m, p.kind, 'other'), p), engineSlow: 'file after_s', documentsChanged: 'files',
    documentProblems: count,
    documentProblem: (m, p) => m(oneOf(m, p.kind, 'other'), { ...p, refusal: refusal(p) }),
    engineRefused: (m, label) => (label ? m('named', { label }) : m('none')),
    variantState: (m, solved, revealed, attempts) => [solved ? m('solved') : '', revealed ? m('revealed') : '',
      !solved && attempts ? count(m, attempts) : ''].filter(Boolean).join(m('sep')),
    saveFailed: (m, quota) => m('text', { why: m(quota ? 'quota' : 'refused') }),
    corruptStates: (m, keys) => m('text', { keys: keys.map((key) => m('key', { key })).join(m('sep')) }),
    attempts: count,
    linkProblems: count,
    linkProblem: (m, p) => m('text', {
      problem: p.value == null ? m('missing', { setting: p.setting }) : m('refused', { setting: p.setting, value: shownValue(p.value) }),
      allowed: allowedText(p.allowed, m.lang),
      instead: p.fallback != null ? m('instead', { fallback: fallbackText(p.fallback, m.lang) }) : '',
    }),
  },
  // What a setting of the address allows (allowedText below).
  allowed: { whole: 'lo hi', number: 'lo hi', bytes: 'lo hi', seconds: 'with', rate: 'with', contrast: '{}' },
  view: {
    chunkedTitle: 'n', inChunks: 'n', steadyBracket: 'x', kvZoom: 'x', kvNote: 'c total x',
    ringAttentionNote: 'a b', stepOf: 's n', msgsOf: 'n size', verified: 'k', moreMessages: 'n',
    aggregated: 'k', device: 'i', deviceAt: 'i n g', nodeName: 'n', localName: 'g',
    fastestAt: 'size name time', simulatedNote: 'topo', simulatedLimit: 'k max', devicesValue: 'n',
    devicesRange: 'v min max', gpusRange: 'v min max', alphaRange: 'v', betaRange: 'v',
    overlapNote: (m, o) => m('text', { ...o, outcome: m(outcome(o.outcome), o) }),
    tpNote: (m, a, b, saved, n, o) => m('text', { a, b, n, outcome: m(outcome(o), { saved }) }),
    stageName: ordinal, microbatchName: ordinal, layerName: ordinal, tokenName: ordinal,
    stageLink: (m, i) => m({ from: i + 1, to: i + 2 }),
    // The micro-batches drawn in colour c of 8.
    microbatchColour: (m, c, n) => m('text', { list: Array.from({ length: Math.ceil((n - c) / 8) }, (_, j) => c + 1 + 8 * j).join(m('sep')) }),
    microbatchCount: count,
    // Chosen by the engine's steady_bound: the trip sets the interval, or the stages do (P5 §6.3).
    pipelineNote: (m, o) => (o.bound === 'trip'
      ? m('trip', { ...o, batches: m.plural(o.m, { m: o.m }), busyNote: o.busy >= 100 ? m('busy') : m('notBusy', o) })
      : m('stages', o)),
    phaseText: (m, p, detail, group) => m('text', { p, detail: detail ? m('detail', { detail }) : '', group: group ? m('group', { group }) : '' }),
    cellTitle: (m, d, c, who, p) => m('text', {
      d, c: c + 1, who: who ? m('who', { who }) : m('none'), part: p >= 0 ? m('part', { pct: Math.round(p * 100) }) : '',
    }),
    msgText: (m, msg, op, size, level) => m('text', { src: msg.src, dst: msg.dst, op, size, level: level ? m('level', { level }) : '' }),
    runsIn: (m, w) => m(w === 'worker' ? 'worker' : 'main'),
    devicesMultiple: (m, v, g) => m({ v, g, g2: 2 * g, g3: 3 * g }),
  },
  author: {
    startExercise: 'n title', syntax: 'line column', previewStale: 'm', loadFailed: 'm', variantsCaption: 'n',
    tryItLabel: 'seed', noVariant: 'm', fileTooLarge: 'name kb', startFailed: 'm',
    problems: count,
  },
  worksheet: {
    seed: 'n',
  },
  scorm: {
    initFailed: 'why', refusedSaved: 'what', refusedExercise: 'ex what',
    recorded: (m, score, status) => m('text', { score, status: m(status === 'passed' || status === 'completed' ? status : 'other') }),
    notRecorded: (m, score, status) => m('text', { score, status: m(status === 'passed' || status === 'completed' ? status : 'other') }),
    refused: (m, call, element, code, text) => m('sentence', { call, code, of: element ? m('of', { element }) : '', said: text ? m('said', { text }) : '' }),
    threw: (m, call, element, message) => m('sentence', { call, message, of: element ? m('of', { element }) : '' }),
    savedProblem: (m, p) => (typeof p.field === 'string' && m.has(p.field)
      ? m(p.field, { value: p.value, record: p.record, json: JSON.stringify(p.value) }) : String(p.field)),
    // What did not fit, each kind counted.
    dropped: (m, d) => m('text', {
      list: ['variants', 'unchecked', 'wrong', 'correctText', 'exercises'].filter((k) => d[k]).map((k) => m(d[k] === 1 ? `${k}1` : k, { n: d[k] })).join(m('sep')),
      score: m(d.exercises || d.correctText ? 'lower' : 'same'),
    }),
  },
  measured: {
    sampleNote: 'd', tableSample: 'shown total', tooBigToKeep: 'size max', fileTooLarge: 'name size max', betaAlone: 'beta',
    nHalf: 'size', exceeds: 'best label nominal', seriesLink: 'label', exploreOtherModel: 'alg',
    sampleName: (m, file) => m({ name: file.replace(/^synthetic_/, '').replace(/\.txt$/, '').replace(/_/g, ' ') }),
    fitted: (m, lines, tables, skipped) => m('text', {
      lines: lines.toLocaleString('en'), tables: m(tables === 1 ? 'table1' : 'table', { n: tables }),
      skipped: m(skipped === 1 ? 'line1' : 'line', { n: skipped.toLocaleString('en') }),
    }),
    plateauVsLink: (m, plateau, rows, from, ratio, label, eff, nominal, chosen) => m(Math.abs(ratio - 1) < 0.005 ? 'about' : ratio > 1 ? 'above' : 'below', {
      plateau, rows: rows > 1 ? m('rows', { n: rows, from }) : m('alone', { from }), label, eff, nominal, pct: pctOff(ratio),
      chosen: chosen === true ? m('chosen') : chosen === false ? m('nearest') : '',
    }),
    plateauAlone: (m, plateau, rows, from) => m('text', { plateau, rows: rows > 1 ? m('rows', { n: rows, from }) : m('alone', { from }) }),
    bestRow: 'best size line',
    regimes: (m, bends, runs, label) => m(runs.length > 1 ? 'runs' : 'bends', {
      bends: bends.length > 1 ? `${bends.slice(0, -1).join(m('sep'))}${m('and')}${bends.at(-1)}` : bends[0], label,
      runs: runs.map((r) => m(r.to ? 'span' : 'at', r)).join(m('sep')),
    }),
    betaVsLink: (m, beta, ratio, label, eff, nominal, chosen) => m(Math.abs(ratio - 1) < 0.005 ? 'about' : ratio > 1 ? 'above' : 'below', {
      beta, label, eff, nominal, pct: pctOff(ratio), chosen: chosen === true ? m('chosen') : chosen === false ? m('nearest') : '',
    }),
    latency: (m, collective, latency, steps, alpha, link) => m('text', {
      cost: latency ? m('empty', { collective, latency, per: steps ? m('steps', { steps, alpha }) : m('perStep', { alpha }) }) : m('alone', { alpha }),
      link: link ? m('link', { label: link.label, alpha: link.alpha }) : '',
    }),
    relRms: (m, pct, sizes, good) => m('text', { pct, sizes: sizes ? m('these', { n: sizes.toLocaleString('en') }) : m('all'), verdict: m(good ? 'good' : 'rough') }),
    model: (m, steps, factor) => m({ steps, factor: Number(factor.toPrecision(6)) }),
    tableTitle: (m, n, count, first, last, collective, ranks, typeop) => m('text', {
      table: count > 1 ? m('many', { n, count }) : m('single'), first, last, collective,
      ranks: ranks > 0 ? m('ranks', { ranks }) : '', typeop: typeop ? m('typeop', { typeop }) : '',
    }),
    collapse: (m, from, to, single, worst) => m('text', { worst, range: single ? m('at', { from }) : m('span', { from, to }) }),
    chartNote: (m, steps, factor) => m({ steps, factor: Number(factor.toPrecision(6)) }),
    colLink: (m, label) => m('text', { label: label || m('none') }),
    lineNo: (m, n) => m({ n: n.toLocaleString('en') }),
    skipped: (m, n) => m.plural(n, { n: n.toLocaleString('en') }),
    noExplore: (m, c) => m('text', { c: c === 'sendrecv' ? m('sendrecv') : c }),
    exploreDevices: (m, k, min, max) => m('text', { min, max, ran: k > 0 ? m('ranks', { k }) : m('unknown') }),
    sharedTitle: (m, collective, ranks) => m('text', { collective, ranks: ranks > 0 ? m('ranks', { ranks }) : '' }),
  },
  topics: {
    exerciseLink: 'n title', cardLink: 'section',
  },
};

const WORDS = { en: compile(EN, FORMS, 'en'), zh: compile(ZH, FORMS, 'zh') };
const words = (lang) => wordsIn(WORDS, lang);

// What is shown instead of a bad setting: its default value as the address writes it, or in words.
function fallbackText(fallback, lang) {
  return typeof fallback === 'object' ? own(words(lang).fallback, fallback.word) : String(fallback);
}

// What a setting of the address allows, in words: a list of names, a range of whole numbers,
// bytes, or one of the custom link's two figures.
function allowedText(allowed, lang) {
  const t = words(lang).allowed;
  const n = (v) => v.toLocaleString('en');
  if (allowed.list) return allowed.list.join(t.sep);
  if (allowed.word) return own(words(lang).fallback, allowed.word);
  if (allowed.whole) return t.whole(n(allowed.whole[0]), n(allowed.whole[1]));
  // A view's number setting (app/view_settings.js): its bounds written whole, 0.000001 included.
  const x = (v) => v.toLocaleString('en', { maximumFractionDigits: 12 });
  if (allowed.number) return t.number(x(allowed.number[0]), x(allowed.number[1]));
  if (allowed.bytes) return t.bytes(n(allowed.bytes[0]), n(allowed.bytes[1]));
  if (allowed.seconds) return t.seconds(allowed.seconds);
  if (allowed.rate) return t.rate(allowed.rate);
  // A colour refused because some text would be unreadable on it (app/theme.js).
  if (allowed.contrast) {
    const c = allowed.contrast;
    return t.contrast({ ...c, what: own(words(lang).contrastWith, c.against) ?? c.against });
  }
  return '';
}

/** The UI strings of `lang` ("en" or "zh"). */
export function strings(lang) {
  return words(lang).page;
}

/** The browser's preferred language, narrowed to the two the page speaks. */
export function browserLanguage(nav = globalThis.navigator) {
  const list = nav?.languages?.length ? nav.languages : [nav?.language ?? 'en'];
  for (const tag of list) {
    const t = String(tag).toLowerCase();
    if (t.startsWith('zh')) return 'zh';
    if (t.startsWith('en')) return 'en';
  }
  return 'en';
}

/** An engine error in a picture's place, in the page's words: no codes, no work units. */
export function viewProblem(lang, err) {
  const t = viewStrings(lang);
  return err?.code === 'too_large' || err?.code === 'out_of_memory' ? t.viewTooLarge : t.viewFailed;
}

/** Picks `text[lang]` from a {en, zh} object, falling back to the other language. */
export function pick(text, lang) {
  if (text == null || typeof text !== 'object' || Array.isArray(text)) return text ?? '';
  return text[lang] ?? text.en ?? text.zh ?? '';
}


/** The views' words (schedule player, charts, Explore) in `lang`. */
export function viewStrings(lang) {
  return words(lang).view;
}

/** The authoring view's words in `lang`. */
export function authorStrings(lang) {
  return words(lang).author;
}

/** The worksheets' words in `lang`. */
export function worksheetStrings(lang) {
  return words(lang).worksheet;
}

/** The SCORM session's words in `lang`. */
export function scormStrings(lang) {
  return words(lang).scorm;
}

/** The measured view's words in `lang`. */
export function measuredStrings(lang) {
  return words(lang).measured;
}

/** The Topics page's words in `lang`. */
export function topicStrings(lang) {
  return words(lang).topics;
}
