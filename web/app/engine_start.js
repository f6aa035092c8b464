// The engine at start-up: the first render's requests in one batch (answered by the build when
// its answers still hold), what the page says when no engine can be had, and the warm-up once
// the page is idle.

import { askMany, documentsChanged, documentsServed, engineFailure, engineMovedToPage, engineSlow, engineStarted, warmUp } from '../engine/door.js';
import { rememberSolve } from '../engine/remembered.js';
import { sameFingerprints } from '../engine/documents.js';
import { fullParams } from '../card/variant.js';
import { h } from '../util/dom.js';
import { strings } from '../util/i18n.js';

/**
 * The requests of the page's first render, in one batch: the list, the links, and for each of
 * `ids` its document and its answers at the lecture's values. web/tools/prerender.mjs asks the
 * same batch at build time and keeps the answers (engine/first.json).
 */
export function firstBatch(ids) {
  return [{ op: 'exercise.list' }, { op: 'links' },
    ...ids.flatMap((id) => [{ op: 'exercise.get', id }, { op: 'exercise.solve', id }])];
}

// The engine's answers to the first batch as the build computed them ({requests, responses}),
// or null (the page then asks the engine). start.js fetches them while the page parses.
export async function fetchAnsweredAtBuild() {
  if (location.protocol === 'file:') return null;
  if (globalThis.commlabBoot?.first) return globalThis.commlabBoot.first;
  try {
    const res = await fetch('engine/first.json');
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/**
 * The answers to the first batch for `guessed` ids: {first, built}, `built` when they are the
 * build's (engine/first.json) and the engine has yet to say it is running.
 * The build's answers to this very batch let the cards come alive before the engine has
 * loaded. Only for the build's very documents: an exercise file edited or added on the server
 * since makes the page ask the engine (the worker fingerprints what it fetched, documents.js).
 */
export async function answerFirst(guessed, keptAtBuild) {
  const requests = firstBatch(guessed);
  const kept = await keptAtBuild;
  const served = kept ? await documentsServed() : null;
  const built = guessed.length && kept && JSON.stringify(kept.requests) === JSON.stringify(requests) &&
    !served.problems.length && sameFingerprints(kept.documents, served.fingerprints) ? kept.responses : null;
  let first = built ?? await askMany(requests);
  // The worker stopped while it answered: its successor (or the main thread) is asked once more.
  if (first[0].error?.code === 'engine_stopped') first = await askMany(requests);
  return { first, built };
}

// The lecture-value answer (exercise.solve without parameters) is the one for the document's
// full parameters: remembered under them, so cards find it.
export function rememberLecture(doc, res) {
  if (res && !res.error) rememberSolve(doc.id, fullParams(doc, null), res);
}

// Once the page is ready and idle, the worker warms the engine up for the first heavy request.
export function warmUpWhenIdle() {
  (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 500)))(() => warmUp(), { timeout: 3000 });
}

/**
 * Once the page is ready: exercise files edited on the server since the build (the engine installed
 * the build's copies, engine/documents.js) are named, with a reload that fetches the served files
 * (start.js reads the flag this leaves in sessionStorage).
 */
export function watchServedDocuments(page) {
  documentsChanged().then((files) => {
    if (!files.length) return;
    page.say((t) => t.documentsChanged(files.map((f) => `exercises/${f}`).join(', ')), 'info', {
      topic: 'documents',
      action: {
        name: 'documents-reload',
        label: (t) => t.documentsReload,
        run: () => {
          try {
            sessionStorage.setItem('commlab.v2.documents', 'served');
          } catch {
            // no sessionStorage: the reload uses the copies again and says this again
          }
          location.reload();
        },
      },
    });
  });
}

// An engine that answered with an error: said in the status line.
export function engineFailed(page, text) {
  const { status } = page;
  status.hidden = false;
  status.textContent = text;
  status.dataset.kind = 'error';
  document.documentElement.dataset.engine = 'failed';
}

/**
 * No engine can be had (engine/door.js): said once, in plain words, with a Retry (a reload:
 * what was typed into a live card is saved) and the technical detail folded away. An engine
 * slow to arrive is said at SLOW_ENGINE_MS, naming its file, until it is up; one that moved to
 * the page (its workers stopped answering) is said in the notice line.
 * Returns the box's render (it follows the language).
 */
export function watchEngineFailure(page) {
  let problem = null;
  let box = null;
  let slow = null;
  let slowBox = null;
  function render() {
    const t = strings(page.lang);
    if (slow && !problem) {
      const made = h('p', { class: 'engine-slow', id: 'engine-slow', role: 'status', text: t.engineSlow(slow.file, slow.after_s) });
      if (slowBox) slowBox.replaceWith(made);
      else page.main.before(made);
      slowBox = made;
    } else if (slowBox) {
      slowBox.remove();
      slowBox = null;
    }
    if (!problem) return;
    const retry = h('button', { type: 'button', 'data-action': 'retry-engine', text: t.engineRetry });
    retry.addEventListener('click', () => location.reload());
    const made = h('div', { class: 'engine-problem', id: 'engine-problem', role: 'alert', dataset: { problemKind: problem.kind } }, [
      h('p', { 'data-role': 'what', text: t.engineProblem(problem) }),
      h('p', { text: t.engineProblemKept }),
      retry,
      h('details', {}, [h('summary', { text: t.engineDetails }), h('code', { text: problem.detail })]),
    ]);
    if (box) box.replaceWith(made);
    else page.main.before(made);
    box = made;
  }
  engineSlow().then((s) => {
    slow = s;
    render();
  });
  engineStarted().then(() => {
    slow = null;
    render();
  });
  engineMovedToPage().then(() => page.say((t) => t.engineOnPage, 'info', { topic: 'engine' }));
  engineFailure().then((p) => {
    problem = p;
    page.status.hidden = true;
    document.documentElement.dataset.engine = 'failed';
    render();
    // A check pressed on a prerendered card while the engine loaded (start.js) will not run.
    for (const el of page.main.querySelectorAll('section.card[data-prerendered] [data-state="engine-loading"]')) {
      el.textContent = strings(page.lang).checkNoEngine;
      el.dataset.state = 'engine-stopped';
    }
  });
  return render;
}
