// Page start-up: language, saved progress, the engine, the cards; `#ex3` scrolls to a card and
// `?exercise=3` shows that card alone; `?view=explore` is the explorer, `?view=author` the
// authoring view (app/author.js). Inside a frame (or with `&embed=1`) it is an embedded
// exercise: no page header, a small footer, and the host protocol of app/frame.js.
// `./lab build` prerenders the cards into index.html (web/tools/prerender.mjs): they are read at
// once, and each is replaced by its live card when the engine's first answers arrive. The
// engine is asked in one batch for everything the first render needs.

import { Card } from '../card/card.js';
import { h } from '../util/dom.js';
import { ask, askMany, documentsInstalled, documentsServed, engineFailure, engineStarted, isEngineFailure, knownLinks, rememberSolve, setLinks, solveAll, useDocuments, useImporter, warmUp } from '../engine/door.js';
import { sameFingerprints } from '../engine/documents.js';
import { authorStrings, browserLanguage, measuredStrings, pick, strings, viewStrings } from '../util/i18n.js';
import { createExplore, readSettings, settingsQuery } from '../views/explore.js';
import { Store } from './store.js';
import { exportText, parseExerciseState, parseProgressFile, restoreSaved } from './progress.js';
import { fixedState, frameSnapshot, listenToHost, reportHeight, stateReporter, tellHost } from './frame.js';
import { encodeCarry, exerciseProblem, pageOptions, showLinkProblems } from './address.js';
import { own } from '../util/own.js';
import { showWorksheet } from './worksheet.js';
import { applyLook } from './theme.js';
import { LECTURE, fullParams, studentSeed, variantKey } from '../card/variant.js';
// Topics and its section views (views/topics.js).
// The measured and section views load when opened (their modules are not the page's).
import { SECTION_VIEWS } from '../views/section_names.js';
import { topicStrings } from '../util/i18n.js';

function safeStorage() {
  try {
    return globalThis.localStorage;
  } catch {
    const blocked = () => { throw new Error('blocked'); };
    return { getItem: blocked, setItem: blocked, removeItem() {}, key: blocked, get length() { return blocked(); } };
  }
}

export async function start(importer, documents) {
  if (importer) useImporter(importer);
  if (documents) useDocuments(documents); // the single-file build's, inlined
  // The engine is asked at once (the links; the answer also says it is running): the worker
  // answers as soon as its engine is there, while the page reads its saved state and cards.
  const ping = ask({ op: 'links' });
  // The build's answers to the first batch, fetched meanwhile (preloaded by index.html).
  const keptAtBuild = fetchAnsweredAtBuild();
  const $ = (sel) => document.querySelector(sel);
  const query = new URLSearchParams(location.search);
  // The address's settings, checked (app/address.js): bad ones are named in linkProblems.
  const options = pageOptions(query);
  // scorm=1: the course platform's session (app/scorm.js); while it holds the progress, the
  // store keeps it in memory, and scorm=student draws each student's variant from its id.
  // Fetched only then (as app/author.js only for the authoring view): most pages are neither.
  const lms = options.scorm ? (await import('./scorm.js')).scormStart(options) : null;
  if (lms?.student) options.student = lms.student;
  const store = new Store(lms?.storage ?? safeStorage());
  store.load();
  // Another page of the origin may have freed space: writes still waiting are tried again.
  window.addEventListener('storage', () => store.retry());
  const linkProblems = [...options.problems];
  // Problems found later (a view's settings, an exercise the page does not have): shown with the rest.
  const addLinkProblems = (problems) => {
    linkProblems.push(...problems);
    showLinkProblems($('#link-problems'), linkProblems, lang);
  };
  // Said to the instructor's console too, with what is allowed (README "Course platforms").
  for (const p of options.problems) console.error(`commlab: ${strings('en').linkProblem(p)}`);
  if (options.print) showWorksheet();
  linkProblems.push(...applyLook(options)); // theme= and the colours (app/theme.js): a colour that leaves text unreadable is named
  let lang = options.lang ?? (store.lang === 'en' || store.lang === 'zh' ? store.lang : null) ?? browserLanguage();
  const only = options.exercise;
  const framed = window.parent !== window;
  const embedded = only !== null && (framed || options.embed);
  if (only !== null) document.body.classList.add(embedded ? 'embed' : 'single');
  if (embedded) document.documentElement.classList.add('embed'); // the host's background shows
  if (embedded) buildEmbedChrome();
  // How to put the lab in a course (course.html): a link that would take a frame away from its
  // course page, so shown only on a page of its own.
  $('.page-foot').hidden = framed || embedded;
  const exploring = only === null && options.view === 'explore';
  if (exploring) document.body.classList.add('exploring');
  const authoring = only === null && options.view === 'author';
  if (authoring) document.body.classList.add('authoring');
  // ?view=measured: an nccl-tests log against the model (views/measured.js).
  const measuring = only === null && options.view === 'measured';
  if (measuring) document.body.classList.add('measuring');
  // Topics and the section views replace the cards, like Explore (views/sections.js).
  const sectionView = only === null && SECTION_VIEWS.includes(options.view) ? options.view : null;
  if (sectionView) document.body.classList.add('sections');
  if (embedded) {
    // embedded: no link away
    document.querySelector('#explore-link')?.remove();
    document.querySelector('#author-link')?.remove();
    document.querySelector('#measured-link')?.remove();
    document.querySelector('#topics-link')?.remove();
  }

  const cards = [];
  let hostState = null; // posts the host's copy of the progress, once embedded (startEmbedded)
  const main = $('#exercises');
  const notice = $('#notice');
  const status = $('#engine-status');
  const toc = $('#toc');

  // `topic` names what the notice is about, so that news on the same matter replaces it
  // ('save', 'restore'); `action` adds a button {name, label, run} after the text.
  // `words` is the text, or a function of the page's strings giving it: then the notice follows
  // a language switch (renderNotice); so may `action.label`.
  let said = null;
  function say(words, kind = 'info', { topic = '', action = null } = {}) {
    said = words ? { words, kind, topic, action } : null;
    renderNotice();
  }
  function renderNotice() {
    const t = strings(lang);
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
  const unsay = (topic) => { if (notice.dataset.topic === topic) say(null); };

  // Storage full (or refusing): said at once, with Export; the changes wait in memory
  // (app/store.js tries again) and the notice says when they are saved after all.
  let quotaFull = false;
  const sayUnsaved = () => {
    say((t) => t.saveFailed(quotaFull), 'error',
      { topic: 'save', action: { name: 'save-export', label: (t) => t.saveExport, run: exportProgress } });
  };
  store.onSave(({ saved, quota }) => {
    quotaFull = quota;
    if (!saved) sayUnsaved();
    else if (notice.dataset.topic === 'save') say((t) => t.saveRecovered, 'info', { topic: 'saved' });
  });

  // Exercise files that could not be used (missing, unreadable, refused by the engine): named
  // in plain words; the other exercises work.
  let engineProblem = null;
  let problemBox = null;
  function renderEngineProblem() {
    if (!engineProblem) return;
    const t = strings(lang);
    const retry = h('button', { type: 'button', 'data-action': 'retry-engine', text: t.engineRetry });
    retry.addEventListener('click', () => location.reload());
    const box = h('div', { class: 'engine-problem', id: 'engine-problem', role: 'alert', dataset: { problemKind: engineProblem.kind } }, [
      h('p', { 'data-role': 'what', text: t.engineProblem(engineProblem) }),
      h('p', { text: t.engineProblemKept }),
      retry,
      h('details', {}, [h('summary', { text: t.engineDetails }), h('code', { text: engineProblem.detail })]),
    ]);
    if (problemBox) problemBox.replaceWith(box);
    else main.before(box);
    problemBox = box;
  }
  let documentProblems = [];
  const problemsBox = $('#document-problems');
  function renderDocumentProblems() {
    if (!problemsBox) return;
    const t = strings(lang);
    problemsBox.hidden = !documentProblems.length;
    problemsBox.replaceChildren(...(documentProblems.length ? [
      h('p', { text: t.documentProblems(documentProblems.length) }),
      h('ul', {}, documentProblems.map((p) => h('li', { dataset: { problemFile: p.file, problemKind: p.kind }, text: t.documentProblem(p) }))),
    ] : []));
  }
  documentsInstalled().then((r) => {
    documentProblems = r?.problems ?? [];
    renderDocumentProblems();
  });

  function renderChrome() {
    const t = strings(lang);
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t.title;
    $('#title').textContent = t.title;
    $('#subtitle').textContent = t.subtitle;
    const langButton = $('[data-action="language"]');
    langButton.textContent = t.otherLanguage;
    // The accessible name is the visible label ("中文"); what it does is its description.
    langButton.removeAttribute('aria-label');
    langButton.title = t.otherLanguageName;
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
      full.href = fullLabHref();
      $('.embed-foot').setAttribute('aria-label', t.embedTools);
    }
    $('.skip').textContent = t.skip;
    $('#course-link').textContent = t.courseLink;
    renderDocumentProblems();
    renderEngineProblem();
    showLinkProblems($('#link-problems'), linkProblems, lang);
    $('.tools').setAttribute('aria-label', t.tools);
    const explore = $('#explore-link') ?? {};
    explore.textContent = exploring ? viewStrings(lang).backToExercises : viewStrings(lang).explore;
    explore.href = exploring ? '?' : '?view=explore';
    const write = $('#author-link') ?? {};
    write.textContent = authoring ? viewStrings(lang).backToExercises : authorStrings(lang).link;
    write.href = authoring ? '?' : '?view=author';
    if (authoring) document.title = authorStrings(lang).pageTitle;
    const measuredLink = $('#measured-link') ?? {};
    measuredLink.textContent = measuring ? viewStrings(lang).backToExercises : measuredStrings(lang).link;
    measuredLink.href = measuring ? '?' : '?view=measured';
    if (measuring) document.title = measuredStrings(lang).title;
    // Topics: beside Explore; the page it names says so (aria-current).
    const topics = $('#topics-link');
    if (topics) {
      topics.textContent = topicStrings(lang).button;
      if (sectionView === 'topics') topics.setAttribute('aria-current', 'page');
      if (sectionView) document.title = topicStrings(lang).pageTitle;
    }
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
  // Import sits beside Export (a plain iframe's only way to carry work from one browser to
  // another), and the notice goes under the card, above the footer.
  function buildEmbedChrome() {
    const foot = h('footer', { class: 'embed-foot', role: 'group' }, [
      $('[data-action="language"]'), $('[data-action="export"]'), $('#import-button'), $('[data-action="reset"]'),
      h('a', { 'data-action': 'open-full', target: '_blank', rel: 'noopener', href: './' }),
    ]);
    document.body.insertBefore(foot, $('#reset-dialog'));
    foot.before($('#notice'));
    const full = foot.querySelector('[data-action="open-full"]');
    for (const type of ['focus', 'pointerdown', 'click', 'auxclick', 'contextmenu']) full.addEventListener(type, () => { full.href = fullLabHref(); });
    $('.page-head').hidden = true;
    $('.toc').hidden = true;
    $('.skip').hidden = true;
  }

  // "Open in the full lab" keeps the instructor's controls, the variant and what was typed
  // (SPEC "Course platforms"): the options go in the address, the shown variant's record as
  // `carry` (app/address.js), which the full lab takes like a restore and then drops from its
  // address. Computed when the link is followed, so it holds what was typed last.
  function fullLabHref() {
    const q = new URLSearchParams({ lang });
    if (options.seed !== null) q.set('seed', String(options.seed));
    if (options.student !== null) q.set('student', options.student);
    if (!options.calculator) q.set('calculator', 'off');
    if (!options.hints) q.set('hints', 'off');
    if (options.reveal !== 'after-solve') q.set('reveal', options.reveal);
    const card = cards[0];
    const rec = card ? store.record(only, card.variant) : null;
    if (rec) q.set('carry', encodeCarry({ exercise: only, state: { current: card.variant, variants: { [card.variant]: rec } } }));
    return `./?${q}#ex${only}`;
  }

  function switchLanguage(to, { remember = true } = {}) {
    lang = to;
    if (remember) store.setLang(lang);
    renderChrome();
    renderNotice(); // in the new language
    if (listing) renderToc(listing);
    for (const c of cards) c.setLang(lang);
    if (exploring) showExplore();
    if (sectionView && exerciseList) showSection();
    author?.setLang(lang);
    measured?.setLang(lang);
    renderProgress();
  }

  // Header actions work before and without the engine.
  $('[data-action="language"]').addEventListener('click', () => {
    switchLanguage(lang === 'zh' ? 'en' : 'zh');
    $('[data-action="language"]').focus();
  });
  function exportProgress() {
    const blob = new Blob([exportText(store)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `commlab-progress-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  $('[data-action="export"]').addEventListener('click', exportProgress);
  $('#import-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!docs) {
      say((t) => `${t.importFailed}${t.loading}`, 'error');
      return;
    }
    // The whole file is checked (every exercise, field and variant, the parameters by the
    // engine) before anything changes; a bad file leaves the page as it was.
    let parsed;
    try {
      parsed = await parseProgressFile(await file.text(), docs, lang);
    } catch (err) {
      say((t) => `${t.importFailed}${err.message}`, 'error');
      return;
    }
    if (embedded) {
      importIntoFrame(parsed);
      return;
    }
    // Every new key is written before an old one goes; a refusal puts storage back as it was.
    const result = store.replaceAll(parsed.exercises, parsed.lang);
    if (!result.saved && !result.blocked) {
      const size = `${(result.bytes / 1e6).toPrecision(2)} MB`;
      const why = (t) => (result.quota ? t.importTooLarge(size) : t.importRefusedStorage(String(result.error?.message ?? result.error)));
      say((t) => `${t.importFailed}${why(t)}${result.restored ? '' : t.importNotUndone}`, 'error', { topic: 'import' });
      return;
    }
    lang = store.lang ?? lang;
    renderChrome();
    for (const c of cards) {
      c.lang = lang;
      c.reload();
    }
    say((t) => (result.blocked ? t.importedNotKept : t.imported), 'info', { topic: 'import' });
  });
  // An embedded exercise imports its own part of a file (the other exercises' progress belongs
  // to other frames): merged, each variant's newer record kept, the file's variant shown.
  function importIntoFrame(parsed) {
    const ex = own(parsed.exercises, String(only));
    if (!ex || !Object.keys(ex.variants ?? {}).length) {
      say((t) => `${t.importFailed}${t.importNothingFor(only)}`, 'error', { topic: 'import' });
      return;
    }
    store.merge(only, ex);
    if (ex.current && !cards[0]?.fixed) store.setCurrent(only, ex.current);
    for (const c of cards) c.reload();
    renderProgress();
    say((t) => (store.available ? t.imported : t.importedNotKept), 'info', { topic: 'import' });
  }

  // A dialog of an embedded exercise opens beside what opened it: the frame is as tall as its
  // content, so its middle may be far outside the part of the course page in view.
  // Its height is measured first (opened unseen), so that it fits in the frame, and the browser's
  // scroll to the focused button then brings the course page to it.
  function showDialog(d, opener = document.activeElement) {
    d.style.removeProperty('--dialog-top');
    if (embedded && opener?.getBoundingClientRect) {
      d.style.visibility = 'hidden';
      d.show();
      const height = d.getBoundingClientRect().height;
      d.close();
      d.style.visibility = '';
      const r = opener.getBoundingClientRect();
      const top = Math.min(r.top - 16, window.innerHeight - height - 8);
      d.style.setProperty('--dialog-top', `${Math.max(8, Math.round(top))}px`);
    }
    d.showModal();
  }

  const dialog = $('#reset-dialog');
  $('[data-action="reset"]').addEventListener('click', (e) => showDialog(dialog, e.currentTarget));
  $('[data-action="reset-cancel"]').addEventListener('click', () => dialog.close());
  // The full page resets everything; an embedded exercise resets itself only.
  function resetEmbedded() {
    store.resetExercise(only);
    for (const c of cards) c.reload();
    renderProgress();
    hostState?.flush(); // the host hears the reset at once
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
      showDialog(leaveDialog, opener);
      $('[data-action="leave-cancel"]').focus();
    });
  }

  // What "Open in the full lab" brought from a frame (options.carry): checked like a restore,
  // merged (a newer record here stays), its variant shown; then dropped from the address, so a
  // reload or a shared link does not bring it again.
  async function takeCarried() {
    const carry = options.carry;
    if (!carry) return;
    const url = new URL(location.href);
    url.searchParams.delete('carry');
    history.replaceState(history.state, '', url.href);
    const doc = docs.get(String(carry.exercise));
    if (!doc) return;
    let state;
    try {
      state = await parseExerciseState(doc, carry.state, lang);
    } catch (err) {
      say((t) => t.carryRefused(err.message), 'error', { topic: 'carry' });
      return;
    }
    store.merge(carry.exercise, state);
    if (state.current) store.setCurrent(carry.exercise, state.current);
  }

  // The explorer replaces the cards; its settings live in the address (replaceState).
  let explorer = null;
  function showExplore() {
    let settings = explorer?.settings();
    if (!settings) {
      const read = readSettings(location.search, knownLinks().map((l) => l.id));
      settings = read.settings;
      addLinkProblems(read.problems);
    }
    explorer = createExplore(lang, settings, knownLinks(), (s) => history.replaceState(null, '', settingsQuery(s)));
    main.querySelector('[data-view="explore"]')?.remove();
    main.append(explorer.root);
  }

  // Topics or a section view in place of the cards, in the page's language; a `#s-6.3` in the
  // address scrolls to its section once drawn.
  let exerciseList = null;
  let section = null;
  let sectionAsked = 0; // a language switch while the view's module loads: the later one wins
  async function showSection() {
    const mine = ++sectionAsked;
    const [{ createSectionView }, { applySettings, followSettings }] = await Promise.all([import('../views/sections.js'), import('./view_settings.js')]);
    const made = await createSectionView(sectionView, lang, { exercises: exerciseList, links: knownLinks() });
    if (mine !== sectionAsked) return;
    section?.destroy?.();
    section = made;
    main.querySelector('[data-role="section-view"]')?.remove();
    section.root.setAttribute('data-role', 'section-view');
    main.append(section.root);
    // Its settings from the address (app/view_settings.js), named when they cannot be used
    // (the first time: a language switch draws the view again from the same address).
    await made.ready;
    if (mine !== sectionAsked) return;
    const problems = await applySettings(made.root, new URLSearchParams(location.search));
    if (mine === 1 && problems.length) {
      for (const p of problems) console.error(`commlab: ${strings('en').linkProblem(p)}`);
      addLinkProblems(problems);
    }
    followSettings(made.root);
  }

  // The authoring view replaces the cards (app/author.js); its draft has a key of its own.
  let author = null;
  async function showAuthor(builtIns) {
    const { createAuthor } = await import('./author.js');
    author = createAuthor({ lang, builtIns, storage: safeStorage(), confirmLeave });
    main.append(author.root);
  }

  // The measured view replaces the cards; fitted figures may come in the address (a shared link).
  let measured = null;
  async function showMeasured() {
    const { createMeasured, readShared } = await import('../views/measured.js');
    const links = knownLinks();
    addLinkProblems(readShared(location.search, links.map((l) => l.id)).problems);
    measured = createMeasured({ lang, links, storage: safeStorage(), search: location.search });
    main.append(measured.root);
  }

  let listing = null;
  let docs = null; // exercise id (string) -> the engine's document, for checking progress
  renderChrome();
  if (store.setAsideKeys.length) {
    const keys = [...store.setAsideKeys];
    say((t) => t.corruptStates(keys), 'error', { topic: 'restore' });
  } else if (!store.available && !embedded && !authoring && !measuring) say((t) => t.storageUnavailable);
  status.textContent = strings(lang).loading;

  // The cards prerendered into index.html, by exercise id; their ids let the first batch ask
  // for every document at once (without them, the list comes first).
  const prerendered = new Map([...main.querySelectorAll('section.card[data-prerendered]')]
    .filter((el) => el.lang === (lang === 'zh' ? 'zh-CN' : 'en') || !el.lang)
    .map((el) => [Number(el.dataset.exercise), el]));
  const engineFailed = (text) => {
    status.hidden = false;
    status.textContent = text;
    status.dataset.kind = 'error';
    document.documentElement.dataset.engine = 'failed';
  };
  // No engine can be had (engine/door.js): said once, in plain words, with a Retry (a reload:
  // what was typed into a live card is saved) and the technical detail folded away.
  engineFailure().then((problem) => {
    engineProblem = problem;
    status.hidden = true;
    document.documentElement.dataset.engine = 'failed';
    renderEngineProblem();
    // A check pressed on a prerendered card while the engine loaded (start.js) will not run.
    for (const el of main.querySelectorAll('section.card[data-prerendered] [data-state="engine-loading"]')) {
      el.textContent = strings(lang).checkNoEngine;
      el.dataset.state = 'engine-stopped';
    }
  });
  const guessed = exploring || authoring || measuring || sectionView ? [] : [...new Set(prerendered.keys())];
  const requests = firstBatch(guessed);
  // The build's answers to this very batch (engine/first.json) let the cards come alive before
  // the engine has loaded; the page still says it is ready only once the engine answers (ping).
  // Only for the build's very documents: an exercise file edited or added on the server since
  // makes the page ask the engine (the worker fingerprints what it fetched, documents.js).
  const kept = await keptAtBuild;
  const served = kept ? await documentsServed() : null;
  const built = guessed.length && kept && JSON.stringify(kept.requests) === JSON.stringify(requests) &&
    !served.problems.length && sameFingerprints(kept.documents, served.fingerprints) ? kept.responses : null;
  let first = built ?? await askMany(requests);
  // The worker stopped while it answered: its successor (or the main thread) is asked once more.
  if (first[0].error?.code === 'engine_stopped') first = await askMany(requests);
  performance.mark('commlab-engine');
  const [list, linkRes] = first;
  if (list.error) {
    // An engine that could not be loaded is said by engineFailure above.
    if (!isEngineFailure(list.error)) engineFailed(`${strings(lang).engineError}${list.error.code}: ${list.error.message}`);
    return;
  }
  setLinks(linkRes.links);
  if (exploring) {
    status.hidden = true;
    for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
    showExplore();
    document.documentElement.dataset.ready = 'true';
    warmUpWhenIdle();
    return;
  }
  if (measuring) {
    status.hidden = true;
    for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
    await showMeasured();
    document.documentElement.dataset.ready = 'true';
  } else if (sectionView) {
    status.hidden = true;
    for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
    exerciseList = list.exercises;
    await showSection();
    await section.ready;
    document.documentElement.dataset.ready = 'true';
    const aim = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (aim) {
      aim.dataset.aimed = 'true'; // drawn after the load, so :target does not apply
      aim.scrollIntoView();
    }
    return;
  }
  if (authoring) {
    status.hidden = true;
    for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
    await showAuthor(list.exercises);
    document.documentElement.dataset.ready = 'true';
    return;
  }
  // Documents and lecture-value answers by id: from the first batch, else asked now.
  const answered = new Map(guessed.map((id, i) => [id, { doc: first[2 + 2 * i], lecture: first[3 + 2 * i] }]));
  const missing = list.exercises.map((ex) => ex.id).filter((id) => !answered.has(id));
  if (missing.length) {
    const more = await askMany(firstBatch(missing).slice(2));
    missing.forEach((id, i) => answered.set(id, { doc: more[2 * i], lecture: more[2 * i + 1] }));
  }
  listing = list.exercises.filter((ex) => only === null || ex.id === only);
  renderToc(listing);
  docs = new Map();
  for (const ex of list.exercises) {
    const { doc, lecture } = answered.get(ex.id);
    if (doc.error) continue;
    docs.set(String(ex.id), doc);
    rememberLecture(doc, lecture);
  }
  // Saved variants are checked by the engine: without one they stay as saved (never set aside
  // for its absence), and so do the prerendered cards.
  const variantsSaved = store.legacy || list.exercises.some((ex) => store.variants(ex.id).some((k) => k !== LECTURE));
  if (variantsSaved && !(await engineStarted()).ok) return;
  // Saved progress is checked like an imported file (leniently: what fails is set aside).
  const dropped = await restoreSaved(store, docs, lang);
  if (dropped) {
    // Added to what was said of set-aside keys; the records' own words are in the language of the load.
    const before = said?.topic === 'restore' ? said.words : null;
    say(before ? (t) => `${typeof before === 'function' ? before(t) : before} ${dropped}` : dropped, 'error', { topic: 'restore' });
  }
  await lms?.restore(store, docs, listing.map((ex) => ex.id)); // what the course platform kept
  await takeCarried();
  // seed=N: the variant that seed draws, the same for a whole class; student=KEY: the student's
  // own variant of each exercise (the seed, if any, salts it: card/variant.js studentSeed).
  const fixedOf = new Map();
  if (options.seed !== null || options.student !== null) {
    const shown = listing.filter((ex) => docs.has(String(ex.id)));
    const seedOf = (id) => (options.student !== null ? studentSeed(options.student, id, options.seed ?? 0) : options.seed);
    const drawn = await askMany(shown.map((ex) => ({ op: 'exercise.variant', id: ex.id, seed: seedOf(ex.id) })));
    shown.forEach((ex, i) => {
      const doc = docs.get(String(ex.id));
      const v = drawn[i];
      if (!v.error) fixedOf.set(ex.id, { key: variantKey(doc, v.params), params: fullParams(doc, v.params), seed: seedOf(ex.id) });
    });
  }
  // A worksheet without a seed is the lecture's, whatever variant this browser last showed.
  const worksheetLecture = options.print ? { key: LECTURE, params: null } : null;
  const made = [];
  for (const ex of listing) {
    const doc = docs.get(String(ex.id));
    if (!doc) {
      // One broken exercise shows its error in its own place; the others still load.
      const err = answered.get(ex.id).doc.error;
      made.push({ id: ex.id, root: h('section', { class: 'card', id: `ex${ex.id}`, dataset: { exercise: String(ex.id) } }, [
        h('p', { class: 'card-error', role: 'alert', text: `${strings(lang).engineError}${err.code}: ${err.message}` }),
      ]) });
      continue;
    }
    const card = new Card(doc, store, lang, {
      confirmLeave, fixed: fixedOf.get(ex.id) ?? worksheetLecture, calculator: options.calculator, hints: options.hints, reveal: options.reveal,
      onEvent: (type, detail) => {
        if (!embedded) return;
        if (type === 'checked') hostState?.flush(); // the checked state first, at once
        tellHost({ type: `commlab:${type}`, exercise: ex.id, ...detail });
      },
    });
    cards.push(card);
    made.push(card);
  }
  // Everything the cards show first, in one more batch (nothing, for the lecture's values).
  await solveAll(cards.flatMap((c) => c.needs()));
  // Each live card takes its prerendered twin's place, one card a task (the page stays
  // responsive; the twin shows meanwhile), with what was typed into the twin and the focus.
  for (const item of made) {
    const twin = prerendered.get(item.id);
    if (item instanceof Card) {
      carryTyped(item, twin);
      item.render();
    }
    const focused = twin?.contains(document.activeElement) ? document.activeElement : null;
    if (twin) twin.replaceWith(item.root);
    else main.append(item.root);
    if (focused?.id) {
      // The ids of the second language's copies end in -zh (web/tools/prerender.mjs).
      const again = document.getElementById(focused.id.replace(/-zh$/, ''));
      again?.focus();
      if (focused.selectionStart != null && again?.setSelectionRange) again.setSelectionRange(focused.selectionStart, focused.selectionEnd);
    }
    if (twin) await nextTask();
  }
  for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
  status.textContent = '';
  status.hidden = true;
  if (only !== null && !listing.length) {
    addLinkProblems([exerciseProblem(query, list.exercises.map((ex) => ex.id))]);
  }
  renderProgress();
  lms?.report(store, cards, listing.length, options.reveal); // status and score to the course platform
  // Other pages of this origin (frames of the same course page) change their own keys: take
  // what is newer, show it. A reset elsewhere removes keys, and that shows too.
  // Each event is taken at once (the store stays current); the cards it touched redraw once a
  // frame (or after 100 ms, for a page out of view), so a flood of writes elsewhere costs one.
  const touched = new Set();
  let redraw = false;
  const redrawTouched = () => {
    if (!redraw) return;
    redraw = false;
    for (const c of cards) if (touched.has('*') || touched.has(String(c.id))) c.reload();
    touched.clear();
    renderProgress();
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
  if (built) {
    await ping;
    // The engine itself must be up (an engine that cannot be had is said by engineFailure).
    if (!(await engineStarted()).ok) return;
  }
  if (embedded) startEmbedded();
  document.documentElement.dataset.ready = 'true';
  performance.mark('commlab-ready');
  warmUpWhenIdle();
  // Checks pressed on a prerendered card before the engine was there (start.js) run now.
  for (const id of globalThis.commlabBoot?.checks.splice(0) ?? []) cards.find((c) => String(c.id) === id)?.check();
  if (framed && !embedded) reportHeight(only, [document.body], () => main);
  // The host protocol. The host may keep the progress (the frame's storage is often blocked or
  // partitioned): it hears every change as commlab:state and answers ready with commlab:restore.
  // Typing posts the state within STATE_DELAY_MS; a check, a reset, a restore and leaving at once
  // (app/frame.js stateReporter). A frame fixed to one variant keeps and posts that variant alone.
  function startEmbedded() {
    const card = cards[0];
    const fixedKey = card?.fixed?.key ?? null;
    let restored = false;
    hostState = stateReporter(only, () => frameSnapshot(store, only, fixedKey));
    const postState = hostState.flush;
    store.onChange((id) => { if (id === null || id === String(only)) hostState.soon(); });
    // Checked and coalesced by app/frame.js: a flood of resets is one reset.
    listenToHost(only, {
      lang: (to) => { if (to !== lang) switchLanguage(to, { remember: false }); },
      reset: () => { if (card) resetEmbedded(); },
      restore: async (raw) => {
        if (!card) return;
        restored = true;
        let state;
        try {
          state = await parseExerciseState(card.doc, fixedState(raw, fixedKey), lang);
        } catch (err) {
          say((t) => t.restoreRefused(err.message), 'error', { topic: 'host-restore' });
          return;
        }
        unsay('host-restore'); // a refusal said before is over: this state was taken
        if (store.merge(only, state)) card.reload();
        postState();
      },
    });
    reportHeight(only, [main, notice, $('.embed-foot')], () => $('.embed-foot'));
    // `title`: the exercise's title in both languages, {en, zh} (the host names its frame with it).
    tellHost({ type: 'commlab:ready', exercise: only, lang, title: card ? { en: pick(card.doc.title, 'en'), zh: pick(card.doc.title, 'zh') } : null });
    // Without its own storage and without a host that keeps progress, the frame says so, and
    // where the browser has the Storage Access API it asks for storage on the student's click.
    if (!store.available) {
      setTimeout(() => {
        if (restored) return;
        if (typeof document.requestStorageAccess !== 'function') {
          say((t) => t.storageNone, 'error');
          return;
        }
        say((t) => t.storageAskNone, 'error', { topic: 'storage-access', action: { name: 'storage-access', label: (t) => t.storageAsk, run: askStorage } });
      }, 1500);
    }
    async function askStorage() {
      const storage = await requestStorage();
      if (!storage || !store.attach(storage)) {
        say((t) => t.storageAskRefused, 'error', { topic: 'storage-access' });
        return;
      }
      await restoreSaved(store, docs, lang);
      card?.reload();
      postState();
      say((t) => t.storageAskGranted, 'info', { topic: 'storage-access' });
    }
  }

  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
}

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
// or null (the page then asks the engine).
async function fetchAnsweredAtBuild() {
  if (location.protocol === 'file:') return null;
  try {
    const res = await fetch('engine/first.json');
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

// The lecture-value answer (exercise.solve without parameters) is the one for the document's
// full parameters: remembered under them, so cards find it.
function rememberLecture(doc, res) {
  if (res && !res.error) rememberSolve(doc.id, fullParams(doc, null), res);
}

// Storage for a frame whose own is blocked, asked of the browser (the Storage Access API, on a
// click): the handle's localStorage where the browser gives one, else the frame's own once
// access is granted; null when refused.
async function requestStorage() {
  try {
    const handle = await document.requestStorageAccess({ localStorage: true });
    if (handle?.localStorage) return handle.localStorage;
  } catch (err) {
    try {
      await document.requestStorageAccess();
    } catch (again) {
      console.warn('commlab: the browser refused storage access:', again?.message ?? again, err?.message ?? err);
      return null;
    }
  }
  try {
    const storage = globalThis.localStorage;
    storage.length; // throws while still blocked
    return storage;
  } catch {
    return null;
  }
}

// Once the page is ready and idle, the worker warms the engine up for the first heavy request.
function warmUpWhenIdle() {
  (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 500)))(() => warmUp(), { timeout: 3000 });
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
