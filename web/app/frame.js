// The page inside a course site's frame (web/README.md "Embedding in a course site"): the messages to the
// host (ready, height, checked, solved, state), the few it obeys (restore, set-lang, reset: from
// the parent window only, checked field by field, anything else ignored). The URL options are
// app/address.js's.

import { isRecord, own } from '../util/own.js';

/** Posts to the host. Nothing here is secret (the host embeds the exercise), so any origin may hear. */
export function tellHost(message) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

/**
 * A message from the host, checked: {kind, ...fields} with only the fields its kind allows, each
 * of its type, or null (ignored). Fields are read as own properties only; `exercise` is the
 * frame's own exercise, so a reset or restore for another is ignored too.
 */
export function hostMessage(data, exercise) {
  if (!isRecord(data)) return null;
  const type = own(data, 'type');
  const field = (k) => own(data, k);
  const mine = (v) => Number.isInteger(v) && v === exercise;
  switch (type) {
    case 'commlab:set-lang': {
      const lang = field('lang');
      return lang === 'en' || lang === 'zh' ? { kind: 'lang', lang } : null;
    }
    case 'commlab:reset': {
      const ex = field('exercise');
      return ex == null || mine(ex) ? { kind: 'reset' } : null;
    }
    case 'commlab:restore': {
      const state = field('state');
      return mine(field('exercise')) && (state === null || state === undefined || isRecord(state)) ? { kind: 'restore', state: state ?? null } : null;
    }
    default:
      return null;
  }
}

/**
 * What a batch of host messages comes to, in the order it is applied: the last language asked
 * for; a reset when there was one (one, however many were sent: each erases the same records);
 * and the last restore sent after the last reset (a restore is the host's whole copy of the
 * exercise, so the last one holds what the earlier ones did; one before a reset is erased by it).
 */
export function coalesce(batch) {
  const out = [];
  const lang = batch.findLast((m) => m.kind === 'lang');
  if (lang) out.push(lang);
  const lastReset = batch.findLastIndex((m) => m.kind === 'reset');
  if (lastReset >= 0) out.push(batch[lastReset]);
  const restore = batch.slice(lastReset + 1).findLast((m) => m.kind === 'restore');
  if (restore) out.push(restore);
  return out;
}

/**
 * Listens to the host: only the parent window's messages, checked by hostMessage. Messages are
 * gathered and handled once per animation frame (or after 100 ms, when the frame is hidden and
 * draws none), coalesced (coalesce): a flood of 2,000 resets costs one reset, and the frame
 * answers what follows at once. `apply` = {lang(lang), reset(), restore(state)}: the language is
 * applied when its batch is handled; resets and restores (which may return a promise) run one
 * after another, in order.
 */
export function listenToHost(exercise, apply) {
  let queue = [];
  let scheduled = false;
  let running = Promise.resolve();
  const flush = () => {
    if (!scheduled) return;
    scheduled = false;
    const batch = coalesce(queue);
    queue = [];
    // The language at once: it needs no engine, so it never waits behind a restore that does.
    for (const m of batch) {
      if (m.kind !== 'lang') continue;
      try {
        apply.lang(m.lang);
      } catch (err) {
        console.warn('commlab: a host message could not be applied', err);
      }
    }
    running = running.then(async () => {
      for (const m of batch) {
        try {
          if (m.kind === 'reset') await apply.reset();
          else if (m.kind === 'restore') await apply.restore(m.state);
        } catch (err) {
          console.warn('commlab: a host message could not be applied', err);
        }
      }
    });
  };
  window.addEventListener('message', (e) => {
    if (window.parent === window || e.source !== window.parent) return;
    const m = hostMessage(e.data, exercise);
    if (!m) return;
    queue.push(m);
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(flush);
    setTimeout(flush, 100);
  });
}

/**
 * Reports the content's own height (not the frame's: it shrinks as well as grows) whenever
 * `elements` change size: {type: 'commlab:height', exercise, height}.
 */
export function reportHeight(exercise, elements, bottom) {
  let last = -1;
  const post = () => {
    const end = bottom();
    const height = Math.ceil(end.getBoundingClientRect().bottom + window.scrollY
      + parseFloat(getComputedStyle(document.body).paddingBottom || '0') + 1);
    if (height === last) return;
    last = height;
    tellHost({ type: 'commlab:height', exercise, height });
  };
  const observer = new ResizeObserver(post);
  for (const el of elements) if (el) observer.observe(el);
  post();
}

/** How long typing may go on before the host hears the state (it is posted at once on flush()). */
export const STATE_DELAY_MS = 400;

/**
 * commlab:state for the host, from `snapshot()` (the exercise's progress as the host keeps it):
 * soon() posts it within STATE_DELAY_MS (every keystroke changes a record: twenty keystrokes are
 * one or two messages, not twenty), flush() at once (a check, a reset, a restore, and the page
 * hidden or left: beforeunload, pagehide, visibilitychange).
 * Nothing is posted when the state did not change since the last post.
 */
export function stateReporter(exercise, snapshot, { delay_ms = STATE_DELAY_MS } = {}) {
  let last = null;
  let timer = null;
  const flush = () => {
    clearTimeout(timer);
    timer = null;
    const text = JSON.stringify(snapshot());
    if (text === last) return;
    last = text;
    tellHost({ type: 'commlab:state', exercise, state: JSON.parse(text) });
  };
  const soon = () => {
    if (timer === null) timer = setTimeout(flush, delay_ms);
  };
  // beforeunload too: when the course page reloads, the frame's pagehide comes after that page
  // has gone (in Chromium, measured: its message was not heard), while beforeunload's still is.
  window.addEventListener('beforeunload', flush);
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flush(); });
  return { soon, flush };
}

/**
 * The host's view of exercise `id`'s progress in `store`: all of it, or for a frame fixed to one
 * variant (a seed or a student's key) only that variant's record, so that the host's copy of a
 * fixed frame never carries another frame's variant (and never offers it after a reload).
 */
export function frameSnapshot(store, id, fixedKey = null) {
  const all = store.snapshot(id);
  if (!fixedKey) return all;
  const rec = Object.hasOwn(all.variants, fixedKey) ? all.variants[fixedKey] : null;
  return { current: fixedKey, variants: rec ? { [fixedKey]: rec } : {} };
}

/**
 * A host's state for a frame fixed to `fixedKey`: that variant's record alone (the rest is another
 * frame's), and no shown variant: a fixed frame shows its own anyway, and one it wrote to the
 * storage it may share with the lab's other frames would be what they show after a reload.
 */
export function fixedState(raw, fixedKey) {
  if (!fixedKey || !isRecord(raw)) return raw;
  const variants = own(raw, 'variants');
  const rec = isRecord(variants) ? own(variants, fixedKey) : undefined;
  return { current: null, variants: rec === undefined ? {} : { [fixedKey]: rec } };
}
