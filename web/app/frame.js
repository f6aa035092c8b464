// The page inside a course site's frame (SPEC "Embedding in a course site"): the messages to the
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
