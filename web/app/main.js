// Page start-up: language, saved progress, the engine, the cards; `#ex3` scrolls to a card and
// `?exercise=3` shows that card alone. Inside a frame (or with `&embed=1`) it is an embedded
// exercise: no page header, a small footer, and the host protocol of app/frame.js.

import { Card } from '../card/card.js';
import { h } from '../util/dom.js';
import { ask, loadEngine } from '../engine/door.js';
import { browserLanguage, pick, strings, viewStrings } from '../util/i18n.js';
import { createExplore, parseSettings, settingsQuery } from '../views/explore.js';
import { Store } from './store.js';
import { exportText, parseExerciseState, parseProgressFile, restoreSaved } from './progress.js';
import { embedOptions, listenToHost, reportHeight, tellHost } from './frame.js';
import { fullParams, variantKey } from '../card/variant.js';

function safeStorage() {
  try {
    return globalThis.localStorage;
  } catch {
    const blocked = () => { throw new Error('blocked'); };
    return { getItem: blocked, setItem: blocked, removeItem() {}, key: blocked, get length() { return blocked(); } };
  }
}

export async function start(importer) {
  const $ = (sel) => document.querySelector(sel);
  const store = new Store(safeStorage());
  store.load();
  const query = new URLSearchParams(location.search);
  const options = embedOptions(query);
  let lang = options.lang ?? store.lang ?? browserLanguage();
  const only = query.has('exercise') ? Number(query.get('exercise')) : null;
  const framed = window.parent !== window;
  const embedded = only !== null && (framed || query.get('embed') === '1');
  if (only !== null) document.body.classList.add(embedded ? 'embed' : 'single');
  if (embedded) document.documentElement.classList.add('embed'); // the host's background shows
  if (embedded) buildEmbedChrome();
  const exploring = only === null && query.get('view') === 'explore';
  if (exploring) document.body.classList.add('exploring');
  if (embedded) document.querySelector('#explore-link')?.remove(); // embedded: no link away

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
    if (embedded) {
      $('[data-action="reset"]').textContent = t.resetExercise;
      $('#reset-question').textContent = t.resetExerciseConfirm;
      const full = $('[data-action="open-full"]');
      full.textContent = t.openFull;
      full.setAttribute('aria-label', t.openFullLabel);
      full.href = `./?lang=${lang}#ex${only}`;
      $('.embed-foot').setAttribute('aria-label', t.embedTools);
    }
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

  // An embedded exercise: the header's language, export and reset buttons move to a footer
  // with a link that opens the full lab in a new tab; nothing navigates the frame away.
  function buildEmbedChrome() {
    const foot = h('footer', { class: 'embed-foot', role: 'group' }, [
      $('[data-action="language"]'), $('[data-action="export"]'), $('[data-action="reset"]'),
      h('a', { 'data-action': 'open-full', target: '_blank', rel: 'noopener', href: './' }),
    ]);
    document.body.insertBefore(foot, $('#reset-dialog'));
    $('.page-head').hidden = true;
    $('.toc').hidden = true;
    $('.skip').hidden = true;
  }

  function switchLanguage(to, { remember = true } = {}) {
    lang = to;
    if (remember) store.setLang(lang);
    renderChrome();
    if (listing) renderToc(listing);
    for (const c of cards) c.setLang(lang);
    if (exploring) showExplore();
    renderProgress();
  }

  // Header actions work before and without the engine.
  $('[data-action="language"]').addEventListener('click', () => {
    switchLanguage(lang === 'zh' ? 'en' : 'zh');
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
  // The full page resets everything; an embedded exercise resets itself only.
  function resetEmbedded() {
    store.resetExercise(only);
    for (const c of cards) c.reload();
    renderProgress();
  }
  $('[data-action="reset-confirm"]').addEventListener('click', () => {
    dialog.close();
    if (embedded) {
      resetEmbedded();
      return;
    }
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
  else if (!store.available && !embedded) say(strings(lang).storageUnavailable);
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
    // seed=N: the variant that seed draws, the same for a whole class.
    let fixed = null;
    if (options.seed !== null) {
      const v = ask({ op: 'exercise.variant', id: ex.id, seed: options.seed });
      if (!v.error) fixed = { key: variantKey(doc, v.params), params: fullParams(doc, v.params) };
    }
    const card = new Card(doc, store, lang, {
      confirmLeave, fixed, calculator: options.calculator, hints: options.hints, reveal: options.reveal,
      onEvent: (type, detail) => { if (embedded) tellHost({ type: `commlab:${type}`, exercise: ex.id, ...detail }); },
    });
    cards.push(card);
    main.append(card.root);
  }
  if (only !== null && !listing.length) {
    say(`${strings(lang).engineError}exercise ${query.get('exercise')} does not exist`, 'error');
  }
  renderProgress();
  // Other pages of this origin (frames of the same course page) change their own keys: take
  // what is newer, show it. A reset elsewhere removes keys, and that shows too.
  window.addEventListener('storage', (e) => {
    if (e.storageArea !== store.storage) return;
    const id = store.external(e.key, e.newValue);
    if (id === null) return;
    for (const c of cards) if (id === '*' || String(c.id) === id) c.reload();
    renderProgress();
  });
  if (embedded) startEmbedded();
  document.documentElement.dataset.ready = 'true';
  performance.mark('commlab-ready');
  if (framed && !embedded) reportHeight(only, [document.body], () => main);
  // The host protocol. The host may keep the progress (the frame's storage is often blocked or
  // partitioned): it hears every change as commlab:state and answers ready with commlab:restore.
  function startEmbedded() {
    const card = cards[0];
    let restored = false;
    let lastState = null;
    const postState = () => {
      const state = JSON.stringify(store.snapshot(only));
      if (state === lastState) return;
      lastState = state;
      tellHost({ type: 'commlab:state', exercise: only, state: JSON.parse(state) });
    };
    store.onChange((id) => { if (id === null || id === String(only)) postState(); });
    listenToHost({
      'commlab:set-lang': (m) => {
        if ((m.lang === 'en' || m.lang === 'zh') && m.lang !== lang) switchLanguage(m.lang, { remember: false });
      },
      'commlab:reset': (m) => {
        if (m.exercise == null || Number(m.exercise) === only) resetEmbedded();
      },
      'commlab:restore': (m) => {
        if (Number(m.exercise) !== only || !card) return;
        restored = true;
        let state;
        try {
          state = parseExerciseState(card.doc, m.state, lang);
        } catch (err) {
          say(strings(lang).restoreRefused(err.message), 'error');
          return;
        }
        if (store.merge(only, state)) card.reload();
        postState();
      },
    });
    reportHeight(only, [main, notice, $('.embed-foot')], () => $('.embed-foot'));
    tellHost({ type: 'commlab:ready', exercise: only, lang });
    // Without its own storage and without a host that keeps progress, the frame says so.
    if (!store.available) {
      setTimeout(() => { if (!restored) say(strings(lang).storageNone, 'error'); }, 1500);
    }
  }

  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
}
