// The page's own settings in its address (web/README.md "Embedding in a course site", "Views"): view,
// exercise, embed, lang, seed, student, calculator, hints, reveal, print, scorm. Each is checked
// against what is allowed; a bad value is replaced by the default (an instructor's control by its
// strictest value) and named in `problems` ({setting, value, allowed, fallback}), which the page
// shows (showLinkProblems) in its language.

import { h } from '../util/dom.js';
import { strings } from '../util/i18n.js';
import { isRecord, own } from '../util/own.js';

// measured: an nccl-tests log against the model (views/measured.js).
// topics, ladder, nccl, moe, decode, split, rdma, bound, memory, compare, node, ring: Topics and its section views (views/topics.js).
export const VIEWS = ['explore', 'author', 'measured', 'topics', 'ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];
export const REVEAL_MODES = ['never', 'after-attempt', 'after-solve'];
const LANGS = ['en', 'zh'];
const SWITCH = ['on', 'off'];
const MAX_SEED = Number.MAX_SAFE_INTEGER; // a seed JSON carries exactly: 0 .. 2^53 - 1

/**
 * The address's settings, checked. `exercise` is a whole number, NaN for a value that names no
 * exercise (the page then says so, with the exercises there are), or null (all exercises).
 */
export function pageOptions(query) {
  const problems = [];
  const bad = (setting, value, allowed, fallback) => problems.push({ setting, value, allowed, fallback });
  // A name from `list`; else `fallback`, said as `said` (its words) when it is not a name. A
  // misspelled instructor's control takes `strict` instead (web/README.md "Course platforms": controls
  // hold): `reveal=nevr` hides the answers rather than showing them, and is named.
  const listed = (setting, list, fallback, said = fallback, strict = fallback) => {
    if (!query.has(setting)) return fallback;
    const v = query.get(setting);
    if (list.includes(v)) return v;
    bad(setting, v, { list }, strict === fallback ? said : strict);
    return strict;
  };

  let exercise = null;
  if (query.has('exercise')) {
    const text = query.get('exercise');
    exercise = /^[1-9]\d{0,8}$/.test(text) ? Number(text) : NaN;
  }
  // The view is the exercises' page unless it names one of VIEWS; `exercise` wins over it.
  const view = listed('view', VIEWS, null, { word: 'exercises' });
  const embedText = listed('embed', ['1'], null, null);
  const lang = listed('lang', LANGS, null, { word: 'language' });
  const calculator = listed('calculator', SWITCH, 'on', 'on', 'off') !== 'off';
  const hints = listed('hints', SWITCH, 'on', 'on', 'off') !== 'off';
  const reveal = listed('reveal', REVEAL_MODES, 'after-solve', 'after-solve', 'never');
  // print=1: the worksheet layout on screen too (app/worksheet.js).
  const print = listed('print', ['1'], null, null) === '1';
  let seed = null;
  if (query.has('seed')) {
    const text = query.get('seed');
    if (/^\d{1,16}$/.test(text) && Number(text) <= MAX_SEED) seed = Number(text);
    else bad('seed', text, { whole: [0, MAX_SEED] }, { word: 'noSeed' });
  }
  // student=KEY: the host's key for this student (one variant each, card/variant.js studentSeed).
  let student = null;
  if (query.has('student')) {
    const text = query.get('student');
    if (studentKey(text)) student = text;
    else bad('student', text, { word: 'studentKey' }, { word: 'noStudent' });
  }
  // carry=...: an exercise's state brought from a frame by "Open in the full lab" (encodeCarry);
  // its records are checked later against the exercise, like a restore.
  let carry = null;
  if (query.has('carry')) {
    const text = query.get('carry');
    carry = decodeCarry(text);
    if (!carry) bad('carry', text.length > 40 ? `${text.slice(0, 40)}…` : text, { word: 'carry' }, { word: 'noCarry' });
  }
  // scorm=1: a SCORM 1.2 activity of a course platform (app/scorm.js); scorm=student also gives
  // each student a variant of their own, from the platform's cmi.core.student_id. Any other value
  // is refused by name: the page keeps its own storage and reports to no platform.
  const scorm = listed('scorm', ['1', 'student'], null, { word: 'noScorm' });
  const look = lookOptions(query, listed, bad);
  return { view, exercise, embed: embedText === '1', lang, calculator, hints, reveal, seed, student, carry, print, scorm, ...look, problems };
}

const MAX_CARRY_CHARS = 65536;

/** `{exercise, state}` as an address's value: base64url of its JSON (UTF-8). */
export function encodeCarry(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** encodeCarry's value back, or null when it is not one: {exercise: whole number, state: object}. */
export function decodeCarry(text) {
  if (typeof text !== 'string' || text.length > MAX_CARRY_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    const exercise = isRecord(value) ? own(value, 'exercise') : undefined;
    const state = isRecord(value) ? own(value, 'state') : undefined;
    if (!Number.isInteger(exercise) || exercise < 1 || exercise > 999999999 || !isRecord(state)) return null;
    return { exercise, state };
  } catch {
    return null;
  }
}

// The frame's look, for a course site with its own (web/README.md "Embedding in a course site"):
// theme=light|dark over the browser's setting, and a few colours, #rgb or #rrggbb only (a value
// becomes a CSS variable: nothing else may reach a stylesheet). app/theme.js applies them and
// refuses a colour that would make text unreadable.
export const THEMES = ['light', 'dark'];
export const COLOUR_OPTIONS = ['accent', 'background', 'text'];
const COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
function lookOptions(query, listed, bad) {
  const theme = listed('theme', THEMES, null, { word: 'systemTheme' });
  const colours = {};
  for (const name of COLOUR_OPTIONS) {
    if (!query.has(name)) continue;
    const v = query.get(name);
    if (COLOUR.test(v)) colours[name] = v.toLowerCase();
    else bad(name, v, { word: 'colour' }, { word: 'themeColour' });
  }
  return { theme, colours };
}

/** True for a usable student key: 1 to 200 characters, none of them a control character. */
export function studentKey(text) {
  return typeof text === 'string' && text.length >= 1 && text.length <= 200 && !/[\u0000-\u001f\u007f]/.test(text);
}

/** The problem of an `exercise` that names none of `ids` (the exercises there are). */
export function exerciseProblem(query, ids) {
  const text = query.get('exercise');
  return { setting: 'exercise', value: text, allowed: { list: ids.map(String) }, fallback: null };
}

/**
 * Shows `problems` in `box` (a list under a sentence, in `lang`), or hides it when there are
 * none. Text only (textContent): the values come from the address.
 */
export function showLinkProblems(box, problems, lang) {
  if (!box) return;
  const t = strings(lang);
  box.hidden = !problems.length;
  box.replaceChildren(...(problems.length ? [
    h('p', { text: t.linkProblems(problems.length) }),
    h('ul', {}, problems.map((p) => h('li', { dataset: { setting: p.setting }, text: t.linkProblem(p) }))),
  ] : []));
}
