// A SCORM package's progress in cmi.suspend_data (web/README.md "Course platforms", web/HOOKS.md "SCORM"): a compact text of the store's records for the package's exercises, at most
// 4,096 characters (SCORM 1.2's CMIString4096), what is dropped first when it would not fit, and
// the score and status the LMS is told. Pure: no DOM, no engine; app/scorm.js talks to the LMS.
//
// The text is JSON: {"v":1,"<exercise>":[current,record,...],...}. `current` is the index of the
// variant the exercise shows among its records (-1: none). A record is an array, trailing
// defaults left off: [params, answers, verdicts, attempts, hints, flags, credit, solvedWith]:
//   params   0 for the lecture's values, else the values in the document's parameter order
//   answers  the typed texts in the document's answer order ("" none)
//   verdicts one letter an answer: c correct, i incorrect, f format error, - none
//   flags    1 solved, 2 revealed, 4 worked solution open
//   credit   the answers correct when the answers were shown (a bit an answer, by position)
//   solvedWith the texts that solved it, by position, where they differ from `answers`
// The engine's messages and the times are not kept: the page asks the engine again on restore.
// What is read back is rebuilt as the store's records and checked by app/progress.js like an
// imported file and judged again by the engine: a hostile text is refused, never trusted, and a
// flag or verdict its answers do not earn is dropped.

import { LECTURE, fullParams, variantKey } from '../card/variant.js';

export const SUSPEND_CHARS = 4096;
export const FORMAT_VERSION = 1;
// Longer than anything this page writes, and than a later build would (the 4,096 of SCORM 1.2
// times 16): refused before it is parsed.
const READ_CHARS = 65536;
const LETTER = { correct: 'c', incorrect: 'i', 'format-error': 'f' };
const VERDICT = { c: 'correct', i: 'incorrect', f: 'format-error' };
const SOLVED = 1;
const REVEALED = 2;
const SOLUTION_OPEN = 4;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * True when the answers of `rec` have been shown before it was solved: revealed (the reveal
 * button, or the worked solution opened before solving), or with reveal=after-attempt shown by
 * the first check.
 */
export function shownEarly(rec, reveal) {
  return !!rec.revealed || (reveal === 'after-attempt' && rec.attempts > 0);
}

/** The answers of `rec` correct now, a bit an answer by position (a solved record: all). */
export function correctMask(doc, rec) {
  let mask = 0;
  doc.answers.forEach((a, i) => {
    if (rec.solved || rec.verdicts?.[a.id] === 'correct') mask |= 1 << i;
  });
  return mask;
}

const bits = (mask) => {
  let n = 0;
  for (let m = mask; m; m >>>= 1) n += m & 1;
  return n;
};

/**
 * The answers of `rec` that earn credit: those correct now, but where the answers were shown
 * before it was solved (shownEarly), only those that were correct when they were shown
 * (`credit`, the mask kept then). A revealed answer typed in afterwards earns nothing.
 */
export function creditOf(doc, rec, credit, reveal) {
  const correct = correctMask(doc, rec);
  return bits(shownEarly(rec, reveal) ? correct & (credit ?? 0) : correct);
}

/**
 * The score and status of a package (what the LMS is told). `exercises`: [{doc, records: [{rec,
 * credit}]}] with only the records that count (a fixed variant: that one alone); `complete`:
 * false when an exercise of the package could not be shown. Each exercise counts its best
 * record; the score is the share of all the package's answers that earn credit, 0-100 to two
 * decimals. Status: passed when every answer earns credit; completed when every exercise is
 * solved but some answers were shown before they were found; else incomplete.
 */
export function summary(exercises, reveal, complete = true) {
  let total = 0;
  let earned = 0;
  let solvedAll = complete && exercises.length > 0;
  for (const { doc, records } of exercises) {
    total += doc.answers.length;
    earned += Math.max(0, ...records.map(({ rec, credit }) => creditOf(doc, rec, credit, reveal)));
    if (!records.some(({ rec }) => rec.solved)) solvedAll = false;
  }
  const score = total ? Math.round((10000 * earned) / total) / 100 : 0;
  const status = solvedAll && earned === total ? 'passed' : solvedAll ? 'completed' : 'incomplete';
  return { score, status, earned, total };
}

// One record as the text keeps it (an array, trailing defaults left off).
function packRecord(doc, r) {
  const params = r.params ? doc.params.map((p) => r.params[p.id]) : 0;
  const answers = doc.answers.map((a, i) => r.answers[i] ?? '');
  const verdicts = doc.answers.map((a, i) => r.verdicts[i] ?? '-').join('');
  const solving = r.solvedWith && r.solvedWith.some((x, i) => x !== answers[i].trim()) ? r.solvedWith : 0;
  const out = [params, answers, verdicts.replace(/-+$/, ''), r.attempts, r.hints, r.flags, r.credit, solving];
  while (answers.length && answers.at(-1) === '') answers.pop();
  // Trailing defaults: solved with the answers, credit 0, flags 0, hints 0, attempts 0, no
  // verdict, no answer.
  const empty = [null, [], '', 0, 0, 0, 0, 0];
  while (out.length > 1 && JSON.stringify(out.at(-1)) === JSON.stringify(empty[out.length - 1])) out.pop();
  return JSON.stringify(out);
}

/**
 * The records of exercise `doc`'s progress `state` ({current, variants}) as the text keeps them:
 * [{key, params, answers: [text], verdicts: [letter], attempts, hints, flags, credit, solvedWith, updated}],
 * answers by position; `credits(key)` is the credit kept for a variant.
 */
function planExercise(doc, state, credits) {
  const records = [];
  for (const [key, rec] of Object.entries(state.variants ?? {})) {
    records.push({
      key,
      params: rec.params ? fullParams(doc, rec.params) : null,
      answers: doc.answers.map((a) => rec.answers?.[a.id] ?? ''),
      verdicts: doc.answers.map((a) => LETTER[rec.verdicts?.[a.id]] ?? '-'),
      attempts: rec.attempts ?? 0,
      hints: rec.hints ?? 0,
      flags: (rec.solved ? SOLVED : 0) | (rec.revealed ? REVEALED : 0) | (rec.solutionOpen ? SOLUTION_OPEN : 0),
      credit: credits(key) ?? 0,
      solvedWith: rec.solved && rec.solvedWith ? doc.answers.map((a) => rec.solvedWith[a.id] ?? '') : null,
      updated: rec.updated ?? '',
    });
  }
  return records;
}

/**
 * The text of the package's progress, at most `limit` characters. `exercises`: [{doc, state,
 * credits(key), value(key, rec), counted(key)}] — `value` ranks what a record is worth to the
 * score (the best one counted is kept to the last). Returns {text, dropped: {variants,
 * unchecked, wrong, correctText, exercises}} — what had to be left out to fit, in the order it
 * goes: variants that are neither shown nor the best counted one (the least recently changed
 * first), then typed answers not yet checked, then answers checked wrong (text and verdict), then
 * correct answers of records not solved (text and verdict: a restore judges answers, not
 * verdicts), then the best variants that are not shown, and last whole exercises. The score only
 * suffers from the last three, which a package of eight exercises never reaches
 * (tests/node/suspend.test.mjs builds the worst case).
 */
export function encodeProgress(exercises, limit = SUSPEND_CHARS) {
  const dropped = { variants: 0, unchecked: 0, wrong: 0, correctText: 0, exercises: 0 };
  const plan = exercises.map(({ doc, state, credits, value }) => {
    const records = planExercise(doc, state, credits);
    for (const r of records) r.value = value(r.key, state.variants[r.key]);
    const best = records.filter((r) => r.value >= 0).sort((a, b) => b.value - a.value)[0];
    for (const r of records) r.keep = r.key === state.current || r === best;
    for (const r of records) r.text = packRecord(doc, r);
    return { doc, state, records };
  });
  const exerciseText = (ex) => {
    const cur = ex.records.findIndex((r) => r.key === ex.state.current);
    return `"${ex.doc.id}":[${[cur, ...ex.records.map((r) => r.text)].join(',')}]`;
  };
  const text = () => `{${[`"v":${FORMAT_VERSION}`, ...plan.map(exerciseText)].join(',')}}`;
  // text().length without building it (the drops below ask it after each step).
  const head = `{"v":${FORMAT_VERSION}}`.length;
  const length = () => plan.reduce((sum, ex) => {
    const cur = String(ex.records.findIndex((r) => r.key === ex.state.current)).length;
    return sum + `,"${ex.doc.id}":[]`.length + cur + ex.records.reduce((n, r) => n + 1 + r.text.length, 0);
  }, head);
  const repack = (ex, r) => { r.text = packRecord(ex.doc, r); };
  if (length() <= limit) return { text: text(), dropped };  // the usual case: nothing to drop

  // 1. Variants neither shown nor the best counted one, least recently changed first.
  const others = plan.flatMap((ex) => ex.records.filter((r) => !r.keep).map((r) => ({ ex, r })))
    .sort((a, b) => a.r.updated.localeCompare(b.r.updated));
  for (const { ex, r } of others) {
    if (length() <= limit) break;
    ex.records.splice(ex.records.indexOf(r), 1);
    dropped.variants += 1;
  }
  // 2-4. Answer texts, longest first: not checked; checked wrong; correct (the verdict stays).
  const answers = (which) => plan.flatMap((ex) => ex.records.flatMap((r) => r.answers.map((a, i) => ({ ex, r, i, a }))
    .filter(({ a, i }) => a !== '' && which(r.verdicts[i], r))))
    .sort((x, y) => y.a.length - x.a.length);
  const steps = [
    ['unchecked', (v) => v === '-', (r, i) => { r.answers[i] = ''; }],
    ['wrong', (v) => v === 'i' || v === 'f', (r, i) => { r.answers[i] = ''; r.verdicts[i] = '-'; }],
    ['correctText', (v, r) => v === 'c' && !(r.flags & SOLVED), (r, i) => { r.answers[i] = ''; r.verdicts[i] = '-'; }],
  ];
  for (const [name, which, clear] of steps) {
    for (const { ex, r, i } of answers(which)) {
      if (length() <= limit) break;
      clear(r, i);
      repack(ex, r);
      dropped[name] += 1;
    }
  }
  // 5. The best variants that are not shown, the least worth first.
  const kept = plan.flatMap((ex) => ex.records.filter((r) => r.key !== ex.state.current).map((r) => ({ ex, r })))
    .sort((a, b) => a.r.value - b.r.value);
  for (const { ex, r } of kept) {
    if (length() <= limit) break;
    ex.records.splice(ex.records.indexOf(r), 1);
    dropped.variants += 1;
  }
  // 6. Whole exercises, the last first (cannot happen with the shipped eight; kept as a bound).
  while (length() > limit && plan.length) {
    plan.pop();
    dropped.exercises += 1;
  }
  const out = text();
  if (out.length !== length()) throw new Error(`suspend_data: ${out.length} characters where ${length()} were counted`);
  return { text: out, dropped };
}

/** A problem in the text read back, said by app/scorm.js: {exercise, record, field, value}. */
export class SuspendProblem extends Error {
  constructor(detail) {
    super(JSON.stringify(detail));
    this.detail = detail;
  }
}

/**
 * Reads the text back for the exercises `docs` (id string -> document) of the package. Returns
 * {exercises: {id: {current, variants}} (the store's records, not yet checked: app/progress.js
 * parseExerciseState checks each like an imported file), credits: {id: {key: mask}},
 * problems: [detail]} — an exercise whose entry cannot be read is left out and named in
 * `problems`; a text that is not this format throws a SuspendProblem. Nothing is trusted here:
 * every value is handed on as found for the check to refuse, or refused here by its shape.
 */
export function decodeProgress(text, docs) {
  if (typeof text !== 'string' || text === '') return { exercises: {}, credits: {}, problems: [] };
  if (text.length > READ_CHARS) throw new SuspendProblem({ field: 'length', value: text.length });
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SuspendProblem({ field: 'json', value: e.message });
  }
  if (!isObject(raw) || raw.v !== FORMAT_VERSION) throw new SuspendProblem({ field: 'format', value: isObject(raw) ? raw.v : raw });
  const exercises = {};
  const credits = {};
  const problems = [];
  for (const [id, entry] of Object.entries(raw)) {
    if (id === 'v') continue;
    const doc = docs.get(id);
    try {
      if (!doc) throw new SuspendProblem({ exercise: id, field: 'exercise', value: id });
      const read = readExercise(doc, entry);
      exercises[id] = read.state;
      credits[id] = read.credits;
    } catch (err) {
      if (!(err instanceof SuspendProblem)) throw err;
      problems.push({ exercise: id, ...err.detail });
    }
  }
  return { exercises, credits, problems };
}

function readExercise(doc, entry) {
  const fail = (detail) => { throw new SuspendProblem({ exercise: String(doc.id), ...detail }); };
  if (!Array.isArray(entry) || entry.length < 1) fail({ field: 'entry', value: entry });
  const [cur, ...records] = entry;
  if (!Number.isInteger(cur) || cur < -1 || cur >= records.length) fail({ field: 'current', value: cur });
  const variants = {};
  const credits = {};
  let current = null;
  records.forEach((r, n) => {
    const where = { record: n + 1 };
    if (!Array.isArray(r) || r.length < 1 || r.length > 8) fail({ ...where, field: 'record', value: r });
    const [params, answers = [], verdicts = '', attempts = 0, hints = 0, flags = 0, credit = 0, solving = 0] = r;
    let full = null;
    if (params !== 0) {
      if (!Array.isArray(params) || params.length !== doc.params.length) fail({ ...where, field: 'params', value: params });
      full = Object.fromEntries(doc.params.map((p, i) => [p.id, params[i]]));
    }
    if (!Array.isArray(answers) || answers.length > doc.answers.length) fail({ ...where, field: 'answers', value: answers });
    if (typeof verdicts !== 'string' || verdicts.length > doc.answers.length) fail({ ...where, field: 'verdicts', value: verdicts });
    if (!Number.isInteger(flags) || flags < 0 || flags > 7) fail({ ...where, field: 'flags', value: flags });
    if (!Number.isInteger(credit) || credit < 0 || credit >= 2 ** doc.answers.length) fail({ ...where, field: 'credit', value: credit });
    if (solving !== 0 && (!Array.isArray(solving) || solving.length !== doc.answers.length || !(flags & SOLVED))) fail({ ...where, field: 'solvedWith', value: solving });
    const rec = {
      params: full, answers: {}, verdicts: {}, attempts, hints,
      solved: !!(flags & SOLVED), revealed: !!(flags & REVEALED), solutionOpen: !!(flags & SOLUTION_OPEN),
    };
    // Values handed on as found: the record check (app/progress.js) names what is wrong.
    answers.forEach((a, i) => { if (a !== '') rec.answers[doc.answers[i].id] = a; });
    if (solving !== 0) rec.solvedWith = Object.fromEntries(solving.map((a, i) => [doc.answers[i].id, a]));
    [...verdicts].forEach((letter, i) => {
      if (letter !== '-') rec.verdicts[doc.answers[i].id] = VERDICT[letter] ?? letter;
    });
    // The key as the page computes it (the check computes it again from the checked params);
    // two records of one variant are refused (this page writes each once).
    const key = full ? variantKey(doc, full) : LECTURE;
    if (Object.hasOwn(variants, key)) fail({ ...where, field: 'duplicate', value: n + 1 });
    variants[key] = rec;
    credits[key] = credit;
    if (n === cur) current = key;
  });
  return { state: { current, variants }, credits };
}
