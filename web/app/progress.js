// Progress records checked against the engine's exercise documents: the export file (one JSON
// document, version 2; version-1 files still import), the import check (the whole file before
// anything is applied: every exercise known, every field's type, every variant's parameters
// accepted by the engine) and the lenient check of what was saved in this browser.
// The engine answers asynchronously: each check runs twice, first to learn which parameters it
// asks the engine about (one batch), then for real with the answers at hand (withEngine).

import { askMany } from '../engine/door.js';
import { solveAll } from '../engine/remembered.js';
import { pick, strings } from '../util/i18n.js';
import { LECTURE, fullParams, variantKey } from '../card/variant.js';
import { emptyRecord, isVariantKey } from './store.js';

export const FORMAT = 'commlab-progress';
export const VERSION = 2;
const VERDICTS = ['correct', 'incorrect', 'format-error'];
const FIELDS = ['params', 'answers', 'verdicts', 'messages', 'attempts', 'solved', 'solvedWith', 'hints',
  'solutionOpen', 'revealed', 'created', 'updated'];

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// A value quoted in a message: JSON, cut short (a file may hold megabytes in one field).
const shown = (v) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};
// Longest text a record field may hold: typed answers (200), the engine's verdict messages
// (kept in both languages), the ISO time stamps "created" and "updated".
const MESSAGE_CHARS = 4000;
const TIME_CHARS = 40;
const isTime = (v) => typeof v === 'string' && v.length <= TIME_CHARS && !Number.isNaN(Date.parse(v));

/** A problem found in a file: where (exercise, field) and what, in the page's words. */
class Problem extends Error {}

let engineCheck = null; // (id, params) -> the engine's complaint or null; set by withEngine

/** The engine's complaint about `params` for exercise `id`, or null when it solves them. */
function paramsError(id, params) {
  return engineCheck ? engineCheck(id, params) : null;
}

/**
 * Runs the synchronous check `run` with the engine's answers: a first run collects the
 * parameters it asks about (and ignores its result: a check stops at its first problem, and every
 * question asked before that point is collected), one batch asks the engine, a second run
 * answers from it. Resolves to (or rejects with) what the second run returns (or throws).
 */
async function withEngine(run) {
  const asked = [];
  engineCheck = (id, params) => {
    asked.push({ id: Number(id), params });
    return null;
  };
  try {
    run();
  } catch {
    // the second run throws it again, or an earlier complaint of the engine
  } finally {
    engineCheck = null;
  }
  const out = asked.length ? await solveAll(asked) : [];
  const answers = new Map(asked.map((x, i) => [`${x.id} ${JSON.stringify(x.params)}`, out?.[i]]));
  engineCheck = (id, params) => {
    const res = answers.get(`${Number(id)} ${JSON.stringify(params)}`);
    if (!res) return 'the engine did not answer';
    return res.error ? res.error.message : null;
  };
  try {
    return run();
  } finally {
    engineCheck = null;
  }
}

/**
 * Judges restored records again (web/README.md "A grade is earned, never imported"). In
 * `exercises` ({id: {current, variants}}, records already checked; `docs`: id -> document) each
 * answer that claims a verdict is checked by the engine for its variant, and the engine's verdict
 * and message replace the record's; a verdict without its text goes; "solved" stands only where
 * the answers it was earned with (`solvedWith`, else the answers) are all correct now. Typed
 * answers are never changed. Returns {changed: [[id, variant key]], judged}. When the engine
 * cannot answer, throws an Error in `lang` (`lenient`: the claims are dropped, judged false).
 */
export async function judgeProgress(docs, exercises, { lang = 'en', lenient = false } = {}) {
  const asks = [];
  const records = [];
  for (const [id, ex] of Object.entries(exercises)) {
    const doc = docs.get(String(id));
    if (!doc) continue; // another build's exercise: kept as it is, and counted nowhere
    for (const [key, rec] of Object.entries(ex.variants ?? {})) {
      const texts = (from, ids) => Object.fromEntries(ids.map((k) => [k, from?.[k]?.trim() ?? '']).filter(([, v]) => v));
      const checked = texts(rec.answers, Object.keys(rec.verdicts ?? {}));
      const solving = rec.solved ? texts(rec.solvedWith ?? rec.answers, doc.answers.map((a) => a.id)) : {};
      const ask = (answers) => {
        if (!Object.keys(answers).length) return -1;
        asks.push({ op: 'exercise.check', id: doc.id, params: fullParams(doc, rec.params), answers });
        return asks.length - 1;
      };
      records.push({ id, key, doc, rec, checked: ask(checked), solving: Object.keys(solving).length === doc.answers.length ? ask(solving) : -1 });
    }
  }
  const out = asks.length ? await askMany(asks) : [];
  const failed = out?.find((r) => r?.error) ?? (out ? null : { message: 'no answer' });
  if (failed && !lenient) throw new Error(strings(lang).judgeFailed(failed.error?.message ?? failed.message));
  const verdictOf = (i, k) => (i >= 0 && !out?.[i]?.error ? out[i].verdicts?.[k] ?? null : null);
  const changed = [];
  for (const { id, key, doc, rec, checked, solving } of records) {
    // Changed: a claim cut (a verdict, solved); the engine's messages alone are no reason to write.
    const before = JSON.stringify([rec.verdicts, rec.solved]);
    const verdicts = {};
    const messages = {};
    for (const k of Object.keys(rec.verdicts ?? {})) {
      const v = verdictOf(checked, k);
      if (!v?.verdict) continue;
      verdicts[k] = v.verdict;
      if (v.message) messages[k] = v.message;
    }
    rec.verdicts = verdicts;
    rec.messages = messages;
    rec.solved = doc.answers.every((a) => verdictOf(solving, a.id)?.verdict === 'correct');
    if (rec.solved) rec.solvedWith = asks[solving].answers;
    else delete rec.solvedWith;
    if (JSON.stringify([rec.verdicts, rec.solved]) !== before) changed.push([id, key]);
  }
  return { changed, judged: !failed };
}

/**
 * Judges again what the store holds of exercises `ids` (written by another page of the origin)
 * and saves each record whose claims changed, unless a newer one replaced it meanwhile.
 */
export async function judgeHeld(store, docs, ids) {
  const exercises = Object.fromEntries(ids.filter((id) => docs.has(String(id))).map((id) => [id, store.snapshot(id)]));
  const { changed, judged } = await judgeProgress(docs, exercises, { lenient: true });
  if (!judged) return;
  for (const [id, key] of changed) {
    const rec = exercises[id].variants[key];
    if (store.record(id, key) === rec) store.saveRecord(id, key, rec);
  }
}

/**
 * Checks one record. strict: the first problem throws a Problem naming the field; else bad
 * fields are dropped. Returns a clean record with every field present.
 */
export function cleanRecord(doc, raw, { strict = false, lang = 'en', where = '', engine = true, problems = null } = {}) {
  const t = strings(lang);
  const fail = (field, what) => {
    if (strict) throw new Problem(`${where}${field}: ${what}`);
    problems?.push(`${where}${field}: ${what}`); // lenient: the field is dropped, and said
  };
  const rec = emptyRecord();
  if (!isObject(raw)) {
    fail(t.fileRecord, t.fileNotObject);
    return rec;
  }
  for (const k of Object.keys(raw)) if (!FIELDS.includes(k)) fail(`"${k}"`, t.fileUnknownField);
  const answerOf = (k) => doc.answers.find((a) => a.id === k);
  const answerName = (k) => t.fileAnswer(pick(answerOf(k)?.label, lang) || k, k);
  const map = (name, check) => {
    const out = {};
    const v = raw[name];
    if (v === undefined) return out;
    if (!isObject(v)) {
      fail(`"${name}"`, t.fileNotObject);
      return out;
    }
    for (const [k, x] of Object.entries(v)) {
      if (!answerOf(k)) fail(`"${name}"`, t.fileUnknownAnswer(shown(k).slice(1, -1)));
      else if (!check(x)) fail(answerName(k), t.fileBadValue(name, shown(x)));
      else out[k] = x;
    }
    return out;
  };
  const typed = (x) => typeof x === 'string' && x.length <= 200;
  rec.answers = map('answers', typed);
  if (raw.solvedWith !== undefined) rec.solvedWith = map('solvedWith', typed);
  rec.verdicts = map('verdicts', (x) => VERDICTS.includes(x));
  const message = (s) => typeof s === 'string' && s.length <= MESSAGE_CHARS;
  rec.messages = map('messages', (x) => message(x)
    || (isObject(x) && Object.entries(x).every(([l, s]) => (l === 'en' || l === 'zh') && message(s))));
  for (const name of ['attempts', 'hints']) {
    const v = raw[name];
    if (v === undefined) continue;
    if (Number.isInteger(v) && v >= 0) rec[name] = v;
    else fail(`"${name}"`, t.fileNotCount(shown(v)));
  }
  for (const name of ['solved', 'solutionOpen', 'revealed']) {
    const v = raw[name];
    if (v === undefined) continue;
    if (typeof v === 'boolean') rec[name] = v;
    else fail(`"${name}"`, t.fileNotBoolean(shown(v)));
  }
  for (const name of ['created', 'updated']) {
    if (isTime(raw[name])) rec[name] = raw[name];
    else if (raw[name] !== undefined) fail(`"${name}"`, `${t.fileBadValue(name, shown(raw[name]))}${t.fileNotTime}`);
  }
  // A worked solution left open before solving has shown the answers (version-1 files kept no
  // "revealed"): count it as a reveal, so the calculator never hides what the solution shows.
  if (rec.solutionOpen && rec.attempts > 0 && !rec.solved) rec.revealed = true;
  if (raw.params != null) {
    if (!isObject(raw.params)) {
      fail('"params"', t.fileNotObject);
    } else {
      const params = {};
      let ok = true;
      for (const [k, v] of Object.entries(raw.params)) {
        const p = doc.params.find((q) => q.id === k);
        if (!p) {
          fail('"params"', t.fileUnknownParam(shown(k).slice(1, -1)));
          ok = false;
          continue;
        }
        const want = p.kind === 'choice' ? 'string' : 'number';
        if (typeof v !== want || (want === 'number' && !Number.isFinite(v))) {
          fail(t.fileParam(pick(p.label, lang), k), t.fileBadValue(k, shown(v)));
          ok = false;
          continue;
        }
        params[k] = v;
      }
      if (ok && engine) {
        const err = paramsError(doc.id, fullParams(doc, params));
        if (err) {
          const named = doc.params.find((p) => err.includes(`'${p.id}'`) || err.includes(`.${p.id}'`));
          fail(named ? t.fileParam(pick(named.label, lang), named.id) : '"params"', err);
          ok = false;
        }
      }
      if (ok) rec.params = variantKey(doc, params) === LECTURE ? null : fullParams(doc, params);
      else if (!strict) return null; // a variant the engine refuses cannot be shown at all
    }
  }
  return rec;
}

function exerciseName(doc, lang) {
  return strings(lang).fileExercise(doc.id, pick(doc.title, lang));
}

/**
 * Checks one exercise's saved progress {current, variants}: each record's key is recomputed from
 * its parameters. strict: throws a Problem; else drops what fails (returning what was dropped).
 */
function cleanExercise(doc, raw, { strict, lang }) {
  const t = strings(lang);
  const where = `${exerciseName(doc, lang)}: `;
  const out = { current: null, variants: {} };
  const dropped = []; // variant keys whose record is refused whole ('*': the entry itself)
  const trimmed = []; // [variant key, key recomputed, problems]: records kept without some fields
  if (!isObject(raw) || !isObject(raw.variants ?? {})) {
    if (strict) throw new Problem(`${where}${t.fileNotObject}`);
    dropped.push('*');
    return { out, dropped, trimmed };
  }
  const keys = Object.create(null); // key in the file -> key recomputed from the parameters
  for (const [key, rec] of Object.entries(raw.variants ?? {})) {
    const problems = [];
    const clean = cleanRecord(doc, rec, { strict, lang, problems, where: `${where}${key === LECTURE ? t.fileLecture : t.fileVariant(shown(key).slice(1, -1))}, ` });
    if (!clean) {
      dropped.push(key);
      continue;
    }
    const k = variantKey(doc, clean.params);
    keys[key] = k;
    out.variants[k] = clean;
    if (problems.length) trimmed.push([key, k, problems]);
  }
  const cur = raw.current;
  if (cur != null && typeof cur !== 'string') {
    if (strict) throw new Problem(`${where}"current": ${t.fileBadValue('current', shown(cur))}`);
  } else if (cur != null) {
    if (Object.hasOwn(keys, cur)) out.current = keys[cur];
    else if (cur === LECTURE) out.current = LECTURE;
    else if (strict) throw new Problem(`${where}"current": ${t.fileNoSuchVariant(shown(cur).slice(1, -1))}`);
  }
  return { out, dropped, trimmed };
}

/** A version-1 exercise entry (one record, its params the variant) as a version-2 one. */
function fromV1(raw) {
  if (!isObject(raw)) return raw;
  const key = raw.params ? 'v1' : LECTURE;
  return { current: key, variants: { [key]: raw } };
}

/**
 * Reads an export file whole; returns {lang, exercises} or throws an Error whose message names
 * the exercise and the field at fault (in `lang`). Nothing is applied here.
 */
export async function parseProgressFile(text, docs, lang) {
  const parsed = await withEngine(() => parseProgressFileNow(text, docs, lang));
  await judgeProgress(docs, parsed.exercises, { lang });
  return parsed;
}

function parseProgressFileNow(text, docs, lang) {
  const t = strings(lang);
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${t.fileNotProgress} ${t.fileNotJson(e.message)}`);
  }
  if (!isObject(raw) || raw.format !== FORMAT) throw new Error(t.fileNotProgress);
  if (raw.version !== 1 && raw.version !== VERSION) throw new Error(t.fileVersion(JSON.stringify(raw.version)));
  if (!isObject(raw.exercises)) throw new Error(`"exercises": ${t.fileNotObject}`);
  if (raw.lang != null && raw.lang !== 'en' && raw.lang !== 'zh') throw new Error(`"lang": ${t.fileBadValue('lang', shown(raw.lang))}`);
  const exercises = {};
  for (const [id, ex] of Object.entries(raw.exercises)) {
    const doc = docs.get(id);
    if (!doc) throw new Error(t.fileUnknownExercise(shown(id).slice(1, -1), [...docs.keys()].join(', ')));
    const entry = raw.version === 1 ? fromV1(ex) : ex;
    exercises[id] = cleanExercise(doc, entry, { strict: true, lang }).out;
  }
  return { lang: raw.lang ?? null, exercises };
}

/**
 * Checks what this browser saved (and moves a version-1 state over): a record the engine refuses
 * is set aside, never shown. Returns the words for a notice, or null when all was well.
 */
export async function restoreSaved(store, docs, lang) {
  const t = strings(lang);
  // A record read back before each write: its types checked, its parameters were checked on load.
  store.clean = (id, raw) => (docs.get(id) ? cleanRecord(docs.get(id), raw, { engine: false }) : raw);
  const { source, exercises, setAside, legacyAside, trimmed, problems, fields } = await withEngine(() => planRestore(store, docs, lang));
  // What a record claims is judged again; a record that claimed more is saved as its answers earn.
  const judging = await judgeProgress(docs, exercises, { lenient: true });
  for (const [id, key] of setAside) store.setAsideRecord(id, key);
  // A record kept without fields it could not use: the original is copied aside, then the
  // record is rewritten without them (under its recomputed key; the old key goes once it is saved).
  for (const [id, key, k] of trimmed) {
    if (!store.copyRecordAside(id, key)) continue;
    store.saveRecord(id, k, exercises[id].variants[k], key);
  }
  // A refused version-1 record is copied aside before the old key may go (dropLegacy).
  let legacyKept = true;
  for (const id of legacyAside) if (!store.setAsideLegacy(id, store.legacy.exercises[id])) legacyKept = false;
  store.adopt(exercises);
  if (judging.judged) for (const [id, key] of judging.changed) if (!source[id]?.legacy) store.saveRecord(id, key, exercises[id].variants[key]);
  if (store.legacy) {
    for (const [id, ex] of Object.entries(source)) if (ex.legacy && docs.has(id)) store.persist(id);
    if (legacyKept) store.dropLegacy();
    else store.legacy = null; // the old key stays: what could not be copied is still there
  }
  const said = [];
  if (problems.length) said.push(t.restoreDropped(problems.join('; ')));
  if (fields.length) said.push(t.restoreTrimmed(fields.join('; ')));
  return said.length ? said.join(' ') : null;
}

/** What restoreSaved keeps, sets aside and says, without changing the store. */
function planRestore(store, docs, lang) {
  const legacy = store.legacy;
  // Version 1 fills in only exercises the per-key layout does not have yet.
  const source = Object.assign(Object.create(null), store.data);
  for (const [id, ex] of Object.entries(legacy?.exercises ?? {})) {
    if (!Object.hasOwn(source, id)) source[id] = { ...fromV1(ex), legacy: true };
  }
  const exercises = Object.create(null);
  const problems = [];
  const setAside = [];
  const legacyAside = [];
  const trimmed = [];
  const fields = [];
  for (const [id, ex] of Object.entries(source)) {
    const doc = docs.get(id);
    if (!doc && ex.legacy) {
      // A version-1 entry of no exercise this page has: copied aside (the old key goes).
      legacyAside.push(id);
      problems.push(strings(lang).fileExercise(shown(id).slice(1, -1), '?'));
      continue;
    }
    if (!doc) {
      exercises[id] = ex; // another build's exercise: kept as it is, in storage and in exports
      continue;
    }
    const { out, dropped, trimmed: cut } = cleanExercise(doc, ex, { strict: false, lang });
    for (const key of dropped) {
      if (!ex.legacy) setAside.push([id, key]);
      problems.push(exerciseName(doc, lang));
    }
    for (const [key, k, said] of cut) {
      if (!ex.legacy) trimmed.push([id, key, k]);
      fields.push(...said);
    }
    if (ex.legacy && (dropped.length || cut.length)) legacyAside.push(id);
    exercises[id] = out;
  }
  return { source, exercises, setAside, legacyAside, trimmed, problems, fields };
}

/**
 * The export file: one JSON document holding every (exercise, variant) record, and under
 * "setAside" every value this browser set aside ({<commlab.corrupt.* key>: the text found}), so
 * that nothing set aside is only in this browser. Import reads "exercises" and ignores "setAside".
 */
export function exportText(store) {
  const exercises = {};
  for (const [id, ex] of Object.entries(store.data)) {
    if (!Object.keys(ex.variants).length && !ex.current) continue;
    exercises[id] = { current: ex.current ?? LECTURE, variants: ex.variants };
  }
  const doc = { format: FORMAT, version: VERSION, lang: store.lang, exported: new Date().toISOString(), exercises };
  const aside = store.setAsideRecords?.() ?? {};
  if (Object.keys(aside).length) doc.setAside = aside;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * Checks one exercise's progress as a host page sends it back ({current, variants}, what the
 * frame posted, a carried record, suspend_data): like an imported file, every record, field and
 * variant, then judged again (judgeProgress); throws an Error naming the field at fault (in
 * `lang`). null or an empty object is no progress.
 */
export async function parseExerciseState(doc, raw, lang) {
  if (raw == null) return { current: null, variants: {} };
  let state;
  try {
    state = await withEngine(() => cleanExercise(doc, raw, { strict: true, lang }).out);
  } catch (e) {
    throw new Error(e.message);
  }
  await judgeProgress(new Map([[String(doc.id), doc]]), { [doc.id]: state }, { lang });
  return state;
}
