// The authoring view, `index.html?view=author` (exercises/README.md "Exercise documents are untrusted input"):
// an instructor writes an exercise as one JSON document and sees what the engine makes of it
// as they type, with no build. The text goes to the engine (in its worker) as text: lint
// (`exercise.lint`, every problem with its JSON path), then `exercise.load` for this session,
// then the page's usual card for the loaded document (Check, hints, solution, calculator) and a
// table of the variants the first seeds draw. Nothing of the document reaches innerHTML: every
// word of it is a text node (util/dom.js).
// The draft is kept in localStorage under DRAFT_KEY (restored on reload); the preview card's
// progress lives in memory only, in a store of its own, so it never mixes with the lecture's.

import { askMany } from '../engine/door.js';
import { forgetExercise } from '../engine/remembered.js';
import { h } from '../util/dom.js';
import { authorStrings, pick } from '../util/i18n.js';
import { locate, problemPath, syntaxPlace } from '../util/jsonpath.js';
import { createPreview } from './author_preview.js';

/** Where the draft is kept: the document's text, as typed. */
export const DRAFT_KEY = 'commlab.author.v1.draft';
const LINT_DELAY_MS = 300; // typing pauses this long before the engine checks the text
const MAX_FILE_BYTES = 1024 * 1024; // opened into the editor at most; the engine allows 256 KB
const EXAMPLE_URL = 'author/example.json'; // tests/fixtures/exercises/09.json, copied by ./lab build

// A complete document that lints clean: one message over one link (P5 §0.4).
const BLANK = (id) => `{
  "id": ${id},
  "title": {"en": "A new exercise", "zh": "新练习"},
  "statement": {
    "en": "A message of {bytes} crosses one link with α = {alpha_s} and β = {beta_Bps}. How long does it take?",
    "zh": "一条消息 {bytes}，经过一条 α = {alpha_s}、β = {beta_Bps} 的链路，需要多久？"
  },
  "params": [
    {"id": "bytes", "label": {"en": "Message size D", "zh": "消息大小 D"}, "kind": "number", "default": 1000000, "unit": "MB", "min": 1, "max": 1000000000000},
    {"id": "alpha_s", "label": {"en": "Latency α", "zh": "延迟 α"}, "kind": "number", "default": 5e-06, "unit": "us", "min": 1e-07, "max": 0.001},
    {"id": "beta_Bps", "label": {"en": "Effective bandwidth β", "zh": "有效带宽 β"}, "kind": "number", "default": 40000000000, "unit": "GB/s", "min": 100000000, "max": 10000000000000}
  ],
  "answers": [
    {"id": "time", "label": {"en": "Transfer time", "zh": "传输时间"}, "unit": "us", "dimension": "time", "tolerance_rel": 0.01}
  ],
  "hints": {
    "en": ["One message: α + D/β (§0.4)."],
    "zh": ["一条消息：α + D/β（§0.4）。"]
  },
  "compute": {
    "values": [
      {"id": "transfer_s", "expr": "$bytes / $beta_Bps"}
    ],
    "answers": {"time": "$alpha_s + $transfer_s"}
  },
  "solution": {
    "en": "α + D/β = {params.alpha_s} + {values.transfer_s:us} = {answers.time}.",
    "zh": "α + D/β = {params.alpha_s} + {values.transfer_s:us} = {answers.time}。"
  }
}
`;

/**
 * A lecture exercise's file as a new one: the same text (its compute section and all) under id
 * `id`, so it solves as the lecture's does.
 */
export function copyOfExercise(text, id) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return text;
  }
  const out = text.replace(/("id"\s*:\s*)\d+/, `$1${id}`);
  return out === text ? JSON.stringify({ ...doc, id }, null, 2) : out;
}

/**
 * The view. `builtIns` are the engine's exercises ({id, title}), `storage` the page's
 * localStorage (or a blocked stand-in), `confirmLeave` the page's leave dialog for the card.
 * Returns {root, setLang(lang)}.
 */
export function createAuthor({ lang, builtIns, storage, confirmLeave }) {
  const freeId = Math.max(8, ...builtIns.map((e) => e.id)) + 1;
  // From file:// (the single-file build) the page fetches nothing (its CSP says so): no example
  // or lecture file to start from, only the blank template.
  const canFetch = location.protocol !== 'file:';
  let t = authorStrings(lang);

  // --- the editor ------------------------------------------------------------------------
  const title = h('h2', { id: 'author-title' });
  const intro = h('p', { class: 'note author-intro' });
  const startLabel = h('label', { for: 'author-start' });
  const startSelect = h('select', { id: 'author-start', 'data-role': 'start' });
  const startButton = h('button', { type: 'button', 'data-action': 'start' });
  const fileText = h('span');
  const fileInput = h('input', { type: 'file', id: 'author-file', accept: 'application/json,.json', 'data-action': 'open' });
  const fileButton = h('label', { class: 'button' }, [fileText, fileInput]);
  const downloadButton = h('button', { type: 'button', 'data-action': 'download' });
  const tools = h('div', { class: 'author-tools' }, [
    h('div', { class: 'author-start' }, [startLabel, startSelect, startButton]),
    h('div', { class: 'author-files' }, [fileButton, downloadButton]),
  ]);
  const draftStatus = h('p', { class: 'draft-status', 'data-role': 'draft-status', role: 'status' });
  const docLabel = h('label', { for: 'author-document', class: 'author-label' });
  const textarea = h('textarea', {
    id: 'author-document', 'data-role': 'document', spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', rows: '26', 'aria-describedby': 'author-drop-hint',
  });
  const dropHint = h('p', { class: 'note', id: 'author-drop-hint' });
  const lintTitle = h('h3', { id: 'author-lint-title' });
  const lintStatus = h('p', { class: 'lint-status', 'data-role': 'lint-status', 'aria-live': 'polite' });
  const problemList = h('ol', { class: 'problems', 'data-role': 'problems', 'aria-labelledby': 'author-lint-title' });
  const editor = h('section', { class: 'card author-editor', 'aria-labelledby': 'author-title' }, [
    title, intro, tools, draftStatus,
    h('div', { class: 'author-grid' }, [
      h('div', { class: 'author-text' }, [docLabel, textarea, dropHint]),
      h('div', { class: 'author-lint', role: 'region', 'aria-labelledby': 'author-lint-title' }, [lintTitle, lintStatus, problemList]),
    ]),
  ]);

  const preview = createPreview({ lang, confirmLeave, current: () => textarea.value, words: () => t });

  const dialog = h('dialog', { class: 'author-dialog', 'aria-labelledby': 'author-replace-title', 'aria-describedby': 'author-replace-text' });
  const root = h('section', { class: 'author', 'data-view': 'author', 'data-lecture': '11' }, [editor, preview.root, dialog]);

  // --- the draft in localStorage ---------------------------------------------------------
  let saveFailed = false;
  let saveTimer = 0;
  function saveNow() {
    clearTimeout(saveTimer);
    saveTimer = 0;
    try {
      storage.setItem(DRAFT_KEY, textarea.value);
      saveFailed = false;
    } catch {
      saveFailed = true;
    }
    renderDraftStatus();
  }
  function renderDraftStatus() {
    draftStatus.dataset.state = saveFailed ? 'not-saved' : 'saved';
    if (!saveFailed) {
      draftStatus.replaceChildren(t.saved);
      return;
    }
    const again = h('button', { type: 'button', 'data-action': 'download', text: t.download });
    again.addEventListener('click', download);
    draftStatus.replaceChildren(t.notSaved, ' ', again);
  }
  function readDraft() {
    try {
      return storage.getItem(DRAFT_KEY);
    } catch {
      saveFailed = true;
      return null;
    }
  }
  // Leaving with a draft the browser could not keep: the browser asks first.
  window.addEventListener('beforeunload', (e) => {
    if (saveTimer) saveNow();
    if (saveFailed && textarea.value.trim()) e.preventDefault();
  });
  window.addEventListener('pagehide', () => { if (saveTimer) saveNow(); });

  // --- lint and preview, in the engine's worker ------------------------------------------
  let lintTimer = 0;
  let linted = null; // the text the problems shown belong to
  let lastLint = null; // and the engine's answer for it

  function scheduleLint() {
    clearTimeout(lintTimer);
    lintStatus.dataset.state = 'checking';
    lintStatus.textContent = t.checking;
    lintTimer = setTimeout(runLint, LINT_DELAY_MS);
  }

  async function runLint() {
    lintTimer = 0;
    const text = textarea.value;
    const file = 'draft.json';
    root.setAttribute('aria-busy', 'true');
    // A load may run even when its answer is dropped (a newer text came): forget what the
    // engine said about the last document before it changes.
    preview.forget();
    const out = await askMany([{ op: 'exercise.lint', text, file }, { op: 'exercise.load', text, file }], 'author-lint');
    if (!out || text !== textarea.value) return; // a newer text is on its way
    const [lint, load] = out;
    linted = text;
    lastLint = lint;
    renderProblems(lint);
    if (load.error) {
      root.removeAttribute('aria-busy');
      preview.forget(); // an earlier version may still be the engine's
      preview.failed(load.error.message);
      return;
    }
    forgetExercise(load.id);
    await preview.show(load.id, text, !lint.error && lint.ok);
    if (textarea.value === text && !lintTimer) root.removeAttribute('aria-busy');
  }

  function renderProblems(lint) {
    if (lint.error) {
      lintStatus.dataset.state = 'failed';
      lintStatus.textContent = `${t.lintFailed}${lint.error.message}`;
      problemList.replaceChildren();
      return;
    }
    const problems = lint.problems ?? [];
    const places = problems.map((p) => syntaxPlace(linted, p));
    lintStatus.dataset.state = places.some(Boolean) ? 'syntax' : problems.length ? 'problems' : 'clean';
    lintStatus.textContent = problems.length ? t.problems(problems.length) : t.clean;
    problemList.replaceChildren(...problems.map((p, i) => {
      const item = h('li');
      const syntax = places[i];
      let button;
      if (syntax) {
        // The engine's line and column, and the place: the character it stopped at.
        button = h('button', {
          type: 'button', class: 'problem', title: t.goTo,
          dataset: { problem: 'syntax', path: '', line: String(syntax.line), column: String(syntax.column) },
        }, [h('strong', { text: t.syntax(syntax.line, syntax.column) }), syntax.message]);
        button.addEventListener('click', () => select(syntax.offset, Math.min(textarea.value.length, syntax.offset + 1)));
      } else {
        const path = problemPath(p);
        const what = path ? p.slice(path.length + 2) : p;
        button = h('button', { type: 'button', class: 'problem', title: t.goTo, dataset: { problem: 'lint', path } }, [
          h('code', { text: path || t.wholeDocument }), ' ', what,
        ]);
        button.addEventListener('click', () => {
          const at = path ? locate(textarea.value, path) : null;
          if (at) select(at.start, at.end);
          else select(0, 0);
        });
      }
      item.append(button);
      return item;
    }));
  }

  /** Selects [start, end) of the text and scrolls the editor to it. */
  function select(start, end) {
    textarea.focus({ preventScroll: true });
    textarea.setSelectionRange(start, end);
    const before = textarea.value.slice(0, start);
    const line = before.split('\n').length - 1;
    const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
    textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
    const column = start - (before.lastIndexOf('\n') + 1);
    const charWidth = lineHeight * 0.48;
    textarea.scrollLeft = Math.max(0, column * charWidth - textarea.clientWidth / 3);
    textarea.scrollIntoView({ block: 'nearest' });
  }

  // --- putting a text in the editor ------------------------------------------------------
  /** Replaces the draft by `text`, asking first when that would lose what the editor holds. */
  async function replaceWith(text) {
    const held = textarea.value;
    if (held.trim() && held !== text && !(await confirmReplace())) return;
    textarea.value = text;
    textarea.scrollTop = 0;
    saveNow();
    clearTimeout(lintTimer);
    lintStatus.dataset.state = 'checking';
    lintStatus.textContent = t.checking;
    runLint();
  }

  function confirmReplace() {
    dialog.replaceChildren(
      h('p', { id: 'author-replace-title', class: 'dialog-title', text: t.replaceTitle }),
      h('p', { id: 'author-replace-text', text: t.replaceText }),
    );
    const yes = h('button', { type: 'button', class: 'danger', 'data-action': 'replace-confirm', text: t.replaceYes });
    const no = h('button', { type: 'button', 'data-action': 'replace-cancel', text: t.replaceNo });
    dialog.append(h('div', { class: 'actions' }, [yes, no]));
    const opener = document.activeElement;
    return new Promise((resolve) => {
      const done = (answer) => {
        dialog.removeEventListener('close', onClose);
        if (dialog.open) dialog.close();
        resolve(answer);
        opener?.focus?.();
      };
      const onClose = () => done(false);
      dialog.addEventListener('close', onClose);
      yes.addEventListener('click', () => done(true));
      no.addEventListener('click', () => done(false));
      dialog.showModal();
      no.focus();
    });
  }

  async function fetchText(url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return res.text();
  }

  function say(text) {
    draftStatus.dataset.state = 'error';
    draftStatus.textContent = text;
  }

  startButton.addEventListener('click', async () => {
    const choice = startSelect.value;
    let text;
    try {
      if (choice === 'example') text = await fetchText(EXAMPLE_URL);
      else if (choice === 'blank') text = BLANK(freeId);
      else {
        const n = Number(choice);
        text = copyOfExercise(await fetchText(`exercises/${String(n).padStart(2, '0')}.json`), freeId);
      }
    } catch (err) {
      say(t.startFailed(err.message));
      return;
    }
    await replaceWith(text);
  });

  async function openFile(file) {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      say(t.fileTooLarge(file.name, Math.round(file.size / 1024)));
      return;
    }
    await replaceWith(await file.text());
  }
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    await openFile(file);
  });
  textarea.addEventListener('dragover', (e) => {
    if ([...(e.dataTransfer?.types ?? [])].includes('Files')) e.preventDefault();
  });
  textarea.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    openFile(file);
  });

  function download() {
    let id = null;
    try {
      id = JSON.parse(textarea.value)?.id;
    } catch { /* not JSON yet: a draft's name */ }
    const name = Number.isInteger(id) && id > 0 ? `${String(id).padStart(2, '0')}.json` : 'exercise-draft.json';
    const a = h('a', { href: URL.createObjectURL(new Blob([textarea.value], { type: 'application/json' })), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  downloadButton.addEventListener('click', download);

  textarea.addEventListener('input', () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveNow, LINT_DELAY_MS);
    scheduleLint();
  });

  // --- words -----------------------------------------------------------------------------
  function renderWords() {
    t = authorStrings(lang);
    title.textContent = t.title;
    intro.textContent = t.intro;
    startLabel.textContent = t.startFrom;
    const was = startSelect.value;
    startSelect.replaceChildren(
      ...(canFetch ? [h('option', { value: 'example', text: t.startExample })] : []),
      h('option', { value: 'blank', text: t.startBlank }),
      ...(canFetch ? builtIns : []).map((ex) => h('option', { value: String(ex.id), text: t.startExercise(ex.id, pick(ex.title, lang)) })),
    );
    if ([...startSelect.options].some((o) => o.value === was)) startSelect.value = was;
    startButton.textContent = t.start;
    fileText.textContent = t.openFile;
    downloadButton.textContent = t.download;
    docLabel.textContent = t.documentLabel;
    dropHint.textContent = t.dropHint;
    lintTitle.textContent = t.lint;
    renderDraftStatus();
    preview.renderWords();
    // The problems again, in this language's words around the engine's.
    if (lastLint && linted === textarea.value && lintStatus.dataset.state !== 'checking') renderProblems(lastLint);
  }

  function setLang(l) {
    lang = l;
    renderWords();
    preview.setLang(l);
  }

  // --- start: the saved draft, else the example ------------------------------------------
  renderWords();
  preview.setLang(lang);
  preview.set('none');
  const saved = readDraft();
  if (saved != null && saved.trim()) {
    textarea.value = saved;
    renderDraftStatus();
    runLint();
  } else {
    lintStatus.dataset.state = 'checking';
    lintStatus.textContent = t.checking;
    (canFetch ? fetchText(EXAMPLE_URL) : Promise.reject()).catch(() => BLANK(freeId)).then((text) => {
      if (textarea.value.trim()) return; // typed meanwhile
      textarea.value = text;
      saveNow();
      runLint();
    });
  }

  return { root, setLang };
}
