// What the page tells the student above the cards: the notice line (#notice), the exercise
// files that could not be used, and the address's settings that could not be. Each is drawn
// again in the page's language on a switch (app/chrome.js).

import { h } from '../util/dom.js';
import { strings } from '../util/i18n.js';
import { showLinkProblems } from './address.js';

/**
 * The notice line. `topic` names what the notice is about, so that news on the same matter
 * replaces it ('save', 'restore'); `action` adds a button {name, label, run} after the text.
 * `words` is the text, or a function of the page's strings giving it: then the notice follows
 * a language switch (render); so may `action.label`.
 */
export function createNotice(page) {
  const { notice } = page;
  let said = null;
  function render() {
    const t = strings(page.lang);
    const text = said ? (typeof said.words === 'function' ? said.words(t) : said.words) : '';
    notice.hidden = !text;
    notice.textContent = text ?? '';
    notice.dataset.kind = said?.kind ?? 'info';
    notice.dataset.topic = said?.topic ?? '';
    const action = said?.action;
    if (action) {
      const label = typeof action.label === 'function' ? action.label(t) : action.label;
      const button = h('button', { type: 'button', 'data-action': action.name, text: label });
      button.addEventListener('click', action.run);
      notice.append(' ', button);
    }
  }
  function say(words, kind = 'info', { topic = '', action = null } = {}) {
    said = words ? { words, kind, topic, action } : null;
    render();
  }
  const unsay = (topic) => { if (notice.dataset.topic === topic) say(null); };
  return { say, unsay, render, said: () => said };
}

// Storage full (or refusing): said at once, with Export; the changes wait in memory
// (app/store.js tries again) and the notice says when they are saved after all.
export function watchSaving(page) {
  let quotaFull = false;
  page.store.onSave(({ saved, quota }) => {
    quotaFull = quota;
    if (!saved) {
      page.say((t) => t.saveFailed(quotaFull), 'error',
        { topic: 'save', action: { name: 'save-export', label: (t) => t.saveExport, run: page.exportProgress } });
    } else if (page.notice.dataset.topic === 'save') page.say((t) => t.saveRecovered, 'info', { topic: 'saved' });
  });
}

// What the store could not read, or could not keep, said once the page has its words.
export function sayStorageState(page) {
  const { store } = page;
  if (store.setAsideKeys.length) {
    const keys = [...store.setAsideKeys];
    page.say((t) => t.corruptStates(keys), 'error', { topic: 'restore' });
  } else if (!store.available && !page.embedded && !page.authoring && !page.measuring) page.say((t) => t.storageUnavailable);
}

// Exercise files that could not be used (missing, unreadable, refused by the engine): named
// in plain words; the other exercises work. Returns the box's render.
export function documentProblems(page, installed) {
  let problems = [];
  const box = page.$('#document-problems');
  function render() {
    if (!box) return;
    const t = strings(page.lang);
    box.hidden = !problems.length;
    box.replaceChildren(...(problems.length ? [
      h('p', { text: t.documentProblems(problems.length) }),
      h('ul', {}, problems.map((p) => h('li', { dataset: { problemFile: p.file, problemKind: p.kind }, text: t.documentProblem(p) }))),
    ] : []));
  }
  installed.then((r) => {
    problems = r?.problems ?? [];
    render();
  });
  return render;
}

// The address's settings that cannot be used: those of app/address.js at once, later ones (a
// view's settings, an exercise the page does not have) added to them. Said to the instructor's
// console too, with what is allowed (web/README.md "Course platforms").
export function linkProblems(page, first) {
  const list = [...first];
  for (const p of first) console.error(`commlab: ${strings('en').linkProblem(p)}`);
  const render = () => showLinkProblems(page.$('#link-problems'), list, page.lang);
  const add = (problems) => {
    list.push(...problems);
    render();
  };
  return { list, add, render };
}
