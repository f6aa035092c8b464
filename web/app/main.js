// Page start-up: language, saved progress, the engine, the cards; `#ex3` scrolls to a card and
// `?exercise=3` shows that card alone (for embedding).

import { Card } from '../card/card.js';
import { h } from '../util/dom.js';
import { ask, loadEngine } from '../engine/door.js';
import { browserLanguage, pick, strings, viewStrings } from '../util/i18n.js';
import { createExplore, parseSettings, settingsQuery } from '../views/explore.js';
import { Store } from './store.js';
import { exportText, parseProgressFile, restoreSaved } from './progress.js';

function safeStorage() {
  try {
    return globalThis.localStorage;
  } catch {
    const blocked = () => { throw new Error('blocked'); };
    return { getItem: blocked, setItem: blocked, removeItem() {}, key: blocked, get length() { return blocked(); } };
  }
}

// Inside an iframe, the host learns the page's height whenever it changes, so it can size the
// frame: {type: 'commlab:height', exercise, height}. The height is not secret: any origin may hear.
function reportHeight(exercise) {
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'commlab:height', exercise, height }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  post();
}

export async function start(importer) {
  const $ = (sel) => document.querySelector(sel);
  const store = new Store(safeStorage());
  store.load();
  let lang = store.lang ?? browserLanguage();
  const query = new URLSearchParams(location.search);
  const only = query.has('exercise') ? Number(query.get('exercise')) : null;
  const exploring = only === null && query.get('view') === 'explore';
  if (exploring) document.body.classList.add('exploring');
  if (only !== null) document.querySelector('#explore-link')?.remove(); // embedded: no link away
  if (only !== null) document.body.classList.add('embed');

  const cards = [];
  const main = $('#exercises');
  const notice = $('#notice');
  const status = $('#engine-status');
  const toc = $('#toc');

  function say(text, kind = 'info') {
    notice.hidden = !text;
    notice.textContent = text ?? '';
    notice.dataset.kind = kind;
  }

  function renderChrome() {
    const t = strings(lang);
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t.title;
    $('#title').textContent = t.title;
    $('#subtitle').textContent = t.subtitle;
    const langButton = $('[data-action="language"]');
    langButton.textContent = t.otherLanguage;
    langButton.setAttribute('aria-label', t.otherLanguageName);
    langButton.lang = lang === 'zh' ? 'en' : 'zh-CN';
    $('[data-action="export"]').textContent = t.exportProgress;
    $('#import-label').textContent = t.importProgress;
    $('[data-action="reset"]').textContent = t.resetProgress;
    $('#reset-question').textContent = t.resetConfirm;
    $('[data-action="reset-confirm"]').textContent = t.resetYes;
    $('[data-action="reset-cancel"]').textContent = t.resetNo;
    $('#leave-title').textContent = t.leaveTitle;
    $('[data-action="leave-confirm"]').textContent = t.leaveYes;
    $('[data-action="leave-cancel"]').textContent = t.leaveNo;
    $('#toc-title').textContent = t.contents;
    $('#show-all').textContent = t.showAll;
    $('.skip').textContent = t.skip;
    $('.tools').setAttribute('aria-label', t.tools);
    const explore = $('#explore-link') ?? {};
    explore.textContent = exploring ? viewStrings(lang).backToExercises : viewStrings(lang).explore;
    explore.href = exploring ? '?' : '?view=explore';
    renderProgress();
  }

  // An exercise counts as solved once any of its variants is.
  const solvedAny = (id) => store.variants(id).some((k) => store.record(id, k)?.solved);
  function renderProgress() {
    const t = strings(lang);
    const ids = cards.map((c) => c.id);
    const done = ids.filter(solvedAny).length;
    $('#progress').textContent = cards.length ? t.progress(done, ids.length) : '';
    for (const a of toc.querySelectorAll('a[data-target]')) a.classList.toggle('is-solved', solvedAny(a.dataset.target));
  }
  store.onChange(renderProgress);

  function renderToc(list) {
    toc.replaceChildren(...list.map((ex) => h('li', {}, [
      h('a', { href: `#ex${ex.id}`, dataset: { target: String(ex.id) }, text: `${ex.id}. ${pick(ex.title, lang)}` }),
    ])));
  }

  // Header actions work before and without the engine.
  $('[data-action="language"]').addEventListener('click', () => {
    lang = lang === 'zh' ? 'en' : 'zh';
    store.setLang(lang);
    renderChrome();
    if (listing) renderToc(listing);
    for (const c of cards) c.setLang(lang);
    if (exploring) showExplore();
    renderProgress();
    $('[data-action="language"]').focus();
  });
  $('[data-action="export"]').addEventListener('click', () => {
    const blob = new Blob([exportText(store)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `commlab-progress-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $('#import-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const t = strings(lang);
    if (!docs) {
      say(`${t.importFailed}${t.loading}`, 'error');
      return;
    }
    // The whole file is checked (every exercise, field and variant, the parameters by the
    // engine) before anything changes; a bad file leaves the page as it was.
    let parsed;
    try {
      parsed = parseProgressFile(await file.text(), docs, lang);
    } catch (err) {
      say(`${t.importFailed}${err.message}`, 'error');
      return;
    }
    store.adopt(parsed.exercises, { persist: true, lang: parsed.lang });
    lang = store.lang ?? lang;
    renderChrome();
    for (const c of cards) {
      c.lang = lang;
      c.reload();
    }
    say(strings(lang).imported);
  });
  const dialog = $('#reset-dialog');
  $('[data-action="reset"]').addEventListener('click', () => dialog.showModal());
  $('[data-action="reset-cancel"]').addEventListener('click', () => dialog.close());
  $('[data-action="reset-confirm"]').addEventListener('click', () => {
    dialog.close();
    store.reset();
    for (const c of cards) c.reload();
    renderProgress();
  });

  // Leaving a variant with typed but unchecked answers asks first (cards call this).
  const leaveDialog = $('#leave-dialog');
  function confirmLeave({ unchecked, fromLecture }) {
    const t = strings(lang);
    const zh = lang === 'zh';
    $('#leave-text').textContent = `${t.leaveUnchecked(unchecked.join(zh ? '、' : ', '))}${zh ? '' : ' '}${fromLecture ? t.leaveKeptLecture : t.leaveKept}`;
    const opener = document.activeElement;
    return new Promise((resolve) => {
      const done = (yes) => {
        leaveDialog.removeEventListener('close', onClose);
        leaveDialog.close();
        resolve(yes);
        if (!yes) opener?.focus?.();
      };
      const onClose = () => done(false); // Escape
      leaveDialog.addEventListener('close', onClose);
      $('[data-action="leave-confirm"]').onclick = () => done(true);
      $('[data-action="leave-cancel"]').onclick = () => done(false);
      leaveDialog.showModal();
      $('[data-action="leave-cancel"]').focus();
    });
  }

  // The explorer replaces the cards; its settings live in the address (replaceState).
  let explorer = null;
  function showExplore() {
    const res = ask({ op: 'links' });
    const settings = explorer ? explorer.settings() : parseSettings(location.search);
    explorer = createExplore(lang, settings, res.links ?? [], (s) => history.replaceState(null, '', settingsQuery(s)));
    main.querySelector('[data-view="explore"]')?.remove();
    main.append(explorer.root);
  }

  let listing = null;
  let docs = null; // exercise id (string) -> the engine's document, for checking progress
  renderChrome();
  if (store.setAside) say(strings(lang).corruptState(store.setAside), 'error');
  else if (!store.available) say(strings(lang).storageUnavailable);
  status.textContent = strings(lang).loading;

  try {
    await loadEngine(importer);
    performance.mark('commlab-engine');
  } catch (e) {
    status.textContent = `${strings(lang).engineFailed}${e?.message ?? e}`;
    status.dataset.kind = 'error';
    return;
  }
  const list = ask({ op: 'exercise.list' });
  if (list.error) {
    status.textContent = `${strings(lang).engineError}${list.error.code}: ${list.error.message}`;
    status.dataset.kind = 'error';
    return;
  }
  if (exploring) {
    status.hidden = true;
    showExplore();
    document.documentElement.dataset.ready = 'true';
    return;
  }
  listing = list.exercises.filter((ex) => only === null || ex.id === only);
  status.textContent = '';
  status.hidden = true;
  renderToc(listing);
  docs = new Map();
  for (const ex of list.exercises) {
    const doc = ask({ op: 'exercise.get', id: ex.id });
    if (!doc.error) docs.set(String(ex.id), doc);
  }
  // Saved progress is checked like an imported file (leniently: what fails is set aside).
  const dropped = restoreSaved(store, docs, lang);
  if (dropped) say(dropped, 'error');
  for (const ex of listing) {
    const doc = docs.get(String(ex.id)) ?? ask({ op: 'exercise.get', id: ex.id });
    if (doc.error) {
      // One broken exercise shows its error in its own place; the others still load.
      main.append(h('section', { class: 'card', id: `ex${ex.id}`, dataset: { exercise: String(ex.id) } }, [
        h('p', { class: 'card-error', role: 'alert', text: `${strings(lang).engineError}${doc.error.code}: ${doc.error.message}` }),
      ]));
      continue;
    }
    const card = new Card(doc, store, lang, { confirmLeave });
    cards.push(card);
    main.append(card.root);
  }
  if (only !== null && !listing.length) {
    say(`${strings(lang).engineError}exercise ${query.get('exercise')} does not exist`, 'error');
  }
  renderProgress();
  document.documentElement.dataset.ready = 'true';
  performance.mark('commlab-ready');
  if (window.parent !== window) reportHeight(only);
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
}
