// The exercise cards: documents read from the first batch, saved progress checked, each live
// card put in its prerendered twin's place, and kept current when other pages of the origin
// write progress.

import { Card } from '../card/card.js';
import { LECTURE, fullParams, studentSeed, variantKey } from '../card/variant.js';
import { askMany, engineStarted } from '../engine/door.js';
import { solveAll } from '../engine/remembered.js';
import { h } from '../util/dom.js';
import { strings } from '../util/i18n.js';
import { exerciseProblem } from './address.js';
import { renderProgress, renderToc } from './chrome.js';
import { firstBatch, rememberLecture } from './engine_start.js';
import { tellHost } from './frame.js';
import { judgeHeld, restoreSaved } from './progress.js';
import { takeCarried } from './transfer.js';

/**
 * The prerendered cards of the page's language when index.html holds another's: start.js fetched
 * them (web/tools/prerender.mjs writes them beside the page); put in place here (start() runs
 * once) before the live cards look for their twins. None when the file could not be had.
 */
export async function placePrerendered(page) {
  const boot = globalThis.commlabBoot;
  const html = await boot?.cards;
  if (!html) return;
  const holder = document.createElement('div');
  holder.innerHTML = html;
  boot.fillTyped?.(holder); // index.html's cards were filled when it was parsed
  page.main.append(...[...holder.children].filter((el) => el.matches('section.card[data-prerendered]')));
}

// The cards prerendered into index.html, by exercise id, in the page's language; their ids let
// the first batch ask for every document at once (without them, the list comes first).
export function prerenderedCards(page) {
  return new Map([...page.main.querySelectorAll('section.card[data-prerendered]')]
    .filter((el) => el.lang === (page.lang === 'zh' ? 'zh-CN' : 'en') || !el.lang)
    .map((el) => [Number(el.dataset.exercise), el]));
}

/**
 * Documents and lecture-value answers by id: from the first batch (`first`, which asked for
 * `guessed`), else asked now. Sets the page's listing (drawn in the contents) and its documents.
 */
export async function readDocuments(page, list, first, guessed) {
  const answered = new Map(guessed.map((id, i) => [id, { doc: first[2 + 2 * i], lecture: first[3 + 2 * i] }]));
  const missing = list.exercises.map((ex) => ex.id).filter((id) => !answered.has(id));
  if (missing.length) {
    const more = await askMany(firstBatch(missing).slice(2));
    missing.forEach((id, i) => answered.set(id, { doc: more[2 * i], lecture: more[2 * i + 1] }));
  }
  page.listing = list.exercises.filter((ex) => page.only === null || ex.id === page.only);
  renderToc(page);
  page.docs = new Map();
  for (const ex of list.exercises) {
    const { doc, lecture } = answered.get(ex.id);
    if (doc.error) continue;
    page.docs.set(String(ex.id), doc);
    rememberLecture(doc, lecture);
  }
  return answered;
}

/** Saved, kept and carried progress taken into the store; false when the engine is needed for it and cannot be had. */
export async function restoreProgress(page, list) {
  const { store, docs } = page;
  // Saved variants are checked by the engine: without one they stay as saved (never set aside
  // for its absence), and so do the prerendered cards.
  const variantsSaved = store.legacy || list.exercises.some((ex) => store.variants(ex.id).some((k) => k !== LECTURE));
  if (variantsSaved && !(await engineStarted()).ok) return false;
  // Saved progress is checked like an imported file (leniently: what fails is set aside).
  const dropped = await restoreSaved(store, docs, page.lang);
  if (dropped) {
    // Added to what was said of set-aside keys; the records' own words are in the language of the load.
    const said = page.notices.said();
    const before = said?.topic === 'restore' ? said.words : null;
    page.say(before ? (t) => `${typeof before === 'function' ? before(t) : before} ${dropped}` : dropped, 'error', { topic: 'restore' });
  }
  await page.lms?.restore(store, docs, page.listing.map((ex) => ex.id)); // what the course platform kept
  await takeCarried(page);
  return true;
}

// seed=N: the variant that seed draws, the same for a whole class; student=KEY: the student's
// own variant of each exercise (the seed, if any, salts it: card/variant.js studentSeed).
export async function fixedVariants(page) {
  const { options, docs } = page;
  const fixedOf = new Map();
  if (options.seed === null && options.student === null) return fixedOf;
  const shown = page.listing.filter((ex) => docs.has(String(ex.id)));
  const seedOf = (id) => (options.student !== null ? studentSeed(options.student, id, options.seed ?? 0) : options.seed);
  const drawn = await askMany(shown.map((ex) => ({ op: 'exercise.variant', id: ex.id, seed: seedOf(ex.id) })));
  shown.forEach((ex, i) => {
    const doc = docs.get(String(ex.id));
    const v = drawn[i];
    if (!v.error) fixedOf.set(ex.id, { key: variantKey(doc, v.params), params: fullParams(doc, v.params), seed: seedOf(ex.id) });
  });
  return fixedOf;
}

/** The listing's cards (page.cards), and in their places the errors of exercises that could not be read. */
export function makeCards(page, answered, fixedOf) {
  const { options, embedded } = page;
  // A worksheet without a seed is the lecture's, whatever variant this browser last showed.
  const worksheetLecture = options.print ? { key: LECTURE, params: null } : null;
  const made = [];
  for (const ex of page.listing) {
    const doc = page.docs.get(String(ex.id));
    if (!doc) {
      // One broken exercise shows its error in its own place; the others still load.
      const err = answered.get(ex.id).doc.error;
      made.push({ id: ex.id, root: h('section', { class: 'card', id: `ex${ex.id}`, dataset: { exercise: String(ex.id) } }, [
        h('p', { class: 'card-error', role: 'alert', text: `${strings(page.lang).engineError}${err.code}: ${err.message}` }),
      ]) });
      continue;
    }
    const card = new Card(doc, page.store, page.lang, {
      confirmLeave: page.confirmLeave, fixed: fixedOf.get(ex.id) ?? worksheetLecture, calculator: options.calculator, hints: options.hints, reveal: options.reveal,
      onEvent: (type, detail) => {
        if (!embedded) return;
        if (type === 'checked') page.hostState?.flush(); // the checked state first, at once
        tellHost({ type: `commlab:${type}`, exercise: ex.id, ...detail });
      },
    });
    page.cards.push(card);
    made.push(card);
  }
  return made;
}

/**
 * Each live card takes its prerendered twin's place, one card a task (the page stays
 * responsive; the twin shows meanwhile), with what was typed into the twin and the focus.
 * The cards on screen come first: resolves once they are live, with a function that makes the
 * others live, each in a background task (null when none is left). The page is usable once
 * the first are (app/main.js says ready): on a two-core machine the eight cards took ~200 ms
 * of the main thread, and the engine's answer to the page waited behind them.
 */
export async function showCards(page, made, prerendered, list) {
  // Everything the cards show first, in one more batch (nothing, for the lecture's values).
  await solveAll(page.cards.flatMap((c) => c.needs()));
  const onScreen = (el) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight;
  };
  let first = made.filter((item) => prerendered.has(item.id) && onScreen(prerendered.get(item.id)));
  if (!first.length) first = made.slice(0, 1);
  for (const item of first) {
    const twin = prerendered.get(item.id);
    takePlace(page, item, twin);
    if (twin) await nextTask();
  }
  page.status.textContent = '';
  page.status.hidden = true;
  if (page.only !== null && !page.listing.length) {
    page.links.add([exerciseProblem(page.query, list.exercises.map((ex) => ex.id))]);
  }
  renderProgress(page);
  const others = made.filter((item) => !first.includes(item));
  const rest = async () => {
    for (const item of others) {
      await backgroundTask();
      takePlace(page, item, prerendered.get(item.id));
    }
    for (const el of page.main.querySelectorAll('section.card[data-prerendered]')) el.remove();
  };
  if (others.length) return rest;
  await rest();
  return null;
}

// One live card (or an exercise's error) in its twin's place, or after the others.
function takePlace(page, item, twin) {
  if (item instanceof Card) {
    carryTyped(item, twin);
    item.render();
  }
  const focused = twin?.contains(document.activeElement) ? document.activeElement : null;
  if (twin) twin.replaceWith(item.root);
  else page.main.append(item.root);
  if (focused?.id) {
    // The ids of the second language's copies end in -zh (web/tools/prerender.mjs).
    const again = document.getElementById(focused.id.replace(/-zh$/, ''));
    again?.focus();
    if (focused.selectionStart != null && again?.setSelectionRange) again.setSelectionRange(focused.selectionStart, focused.selectionEnd);
  }
}

// Other pages of this origin (frames of the same course page) change their own keys: take
// what is newer, show it. A reset elsewhere removes keys, and that shows too.
// Each event is taken at once (the store stays current); the cards it touched redraw once a
// frame (or after 100 ms, for a page out of view), so a flood of writes elsewhere costs one.
export function followOtherPages(page) {
  const { store } = page;
  const touched = new Set();
  let redraw = false;
  const redrawTouched = async () => {
    if (!redraw) return;
    redraw = false;
    const shown = page.cards.filter((c) => touched.has('*') || touched.has(String(c.id)));
    touched.clear();
    // Another page's records claim no more than their answers earn either.
    await judgeHeld(store, page.docs, shown.map((c) => String(c.id)));
    for (const c of shown) c.reload();
    renderProgress(page);
  };
  window.addEventListener('storage', (e) => {
    if (e.storageArea !== store.storage) return;
    const id = store.external(e.key, e.newValue);
    if (id === null) return;
    touched.add(id);
    if (redraw) return;
    redraw = true;
    requestAnimationFrame(redrawTouched);
    setTimeout(redrawTouched, 100);
  });
}

// A task after every other the page has queued: the engine's answer that makes the page ready
// is never kept waiting behind the cards below the screen.
function backgroundTask() {
  if (globalThis.scheduler?.postTask) return globalThis.scheduler.postTask(() => {}, { priority: 'background' });
  return new Promise((resolve) => { setTimeout(resolve, 0); });
}

// Lets the page handle input and paint between two pieces of start-up work.
function nextTask() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

// Answers typed into a prerendered card before the engine was there: kept, as if typed into the
// live card (which shows the lecture's values, like the prerendered one).
// What start.js kept of it in this tab (a reload after an engine failure) is gone once saved.
function carryTyped(card, twin) {
  if (!twin) return;
  globalThis.commlabBoot?.forgetTyped?.(card.id);  // the twin's fields hold it (start.js)
  if (card.variant !== LECTURE) return;
  const typed = {};
  for (const input of twin.querySelectorAll('[data-answer]')) if (input.value.trim()) typed[input.dataset.answer] = input.value;
  if (Object.keys(typed).length) card.change((r) => { Object.assign(r.answers, typed); });
}
