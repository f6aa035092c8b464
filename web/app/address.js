// The page's own settings in its address (README "Embedding in a course site", "Views"): view,
// exercise, embed, lang, seed, calculator, hints, reveal, print. Each is checked against what is
// allowed; a bad value is replaced by the default and named in `problems` ({setting, value,
// allowed, fallback}), which the page shows (showLinkProblems) in its language.

import { h } from '../util/dom.js';
import { strings } from '../util/i18n.js';

export const VIEWS = ['explore', 'author'];
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
  // A name from `list`; else `fallback`, said as `said` (its words) when it is not a name.
  const listed = (setting, list, fallback, said = fallback) => {
    if (!query.has(setting)) return fallback;
    const v = query.get(setting);
    if (list.includes(v)) return v;
    bad(setting, v, { list }, said);
    return fallback;
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
  const calculator = listed('calculator', SWITCH, 'on') !== 'off';
  const hints = listed('hints', SWITCH, 'on') !== 'off';
  const reveal = listed('reveal', REVEAL_MODES, 'after-solve');
  // print=1: the worksheet layout on screen too (app/worksheet.js).
  const print = listed('print', ['1'], null, null) === '1';
  let seed = null;
  if (query.has('seed')) {
    const text = query.get('seed');
    if (/^\d{1,16}$/.test(text) && Number(text) <= MAX_SEED) seed = Number(text);
    else bad('seed', text, { whole: [0, MAX_SEED] }, { word: 'noSeed' });
  }
  return { view, exercise, embed: embedText === '1', lang, calculator, hints, reveal, seed, print, problems };
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
