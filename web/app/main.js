// Page start-up: language, saved progress, the engine, the cards; `#ex3` scrolls to a card and
// `?exercise=3` shows that card alone; `?view=explore` is the explorer, `?view=author` the
// authoring view (app/author.js). Inside a frame (or with `&embed=1`) it is an embedded
// exercise: no page header, a small footer, and the host protocol of app/frame.js.
// `./lab build` prerenders the cards into index.html (web/tools/prerender.mjs): they are read at
// once, and each is replaced by its live card when the engine's first answers arrive. The
// engine is asked in one batch for everything the first render needs.
// Each part of the page is a module of its own, given `page`: the address's settings, the
// store, the view, the language and the cards, and the entry points the parts call each other by.

import { ask, documentsInstalled, engineStarted, isEngineFailure, useDocuments, useImporter } from '../engine/door.js';
import { setLinks } from '../engine/remembered.js';
import { browserLanguage, strings } from '../util/i18n.js';
import { Store } from './store.js';
import { reportHeight } from './frame.js';
import { pageOptions } from './address.js';
import { showWorksheet } from './worksheet.js';
import { applyLook } from './theme.js';
import { createNotice, documentProblems, linkProblems, sayStorageState, watchSaving } from './notices.js';
import { listenToLanguageButton, renderChrome, renderProgress, watchCardsOnScreen } from './chrome.js';
import { markView } from './embed_chrome.js';
import { exportProgress, listenToTransfer } from './transfer.js';
import { confirmLeave, listenToReset } from './dialogs.js';
import { createViews, route } from './routing.js';
import { answerFirst, engineFailed, fetchAnsweredAtBuild, firstBatch, warmUpWhenIdle, watchEngineFailure, watchServedDocuments } from './engine_start.js';
import { fixedVariants, followOtherPages, makeCards, placePrerendered, prerenderedCards, readDocuments, restoreProgress, showCards } from './live_cards.js';
import { startEmbedded } from './embedded.js';
import { safeStorage } from './storage_access.js';
import { startOffline } from './offline.js';

// web/tools/prerender.mjs asks the page's first batch through the page's entry module.
export { firstBatch };

export async function start(importer, documents) {
  if (importer) useImporter(importer);
  if (documents) useDocuments(documents); // the single-file build's, inlined
  // The engine is asked at once (the links; the answer also says it is running): the worker
  // answers as soon as its engine is there, while the page reads its saved state and cards.
  const ping = ask({ op: 'links' });
  // The build's answers to the first batch (fetched by start.js while the page parsed).
  const keptAtBuild = fetchAnsweredAtBuild();
  const query = new URLSearchParams(location.search);
  // The address's settings, checked (app/address.js): bad ones are named in the link problems.
  const options = pageOptions(query);
  // scorm=1: the course platform's session (app/scorm.js); while it holds the progress, the
  // store keeps it in memory, and scorm=student draws each student's variant from its id.
  // Fetched only then (as app/author.js only for the authoring view): most pages are neither.
  const lms = options.scorm ? (await import('./scorm.js')).scormStart(options) : null;
  const page = openPage(query, options, lms);
  markView(page);
  connectParts(page);
  renderChrome(page);
  sayStorageState(page);
  page.status.textContent = strings(page.lang).loading;

  await placePrerendered(page);
  const prerendered = prerenderedCards(page);
  const guessed = page.exploring || page.authoring || page.measuring || page.sectionView ? [] : [...new Set(prerendered.keys())];
  // The page says it is ready only once the engine answers (ping), even with the build's answers.
  const { first, built } = await answerFirst(guessed, keptAtBuild);
  performance.mark('commlab-engine');
  const [list, linkRes] = first;
  if (list.error) {
    // An engine that could not be loaded is said by watchEngineFailure.
    if (!isEngineFailure(list.error)) engineFailed(page, `${strings(page.lang).engineError}${list.error.code}: ${list.error.message}`);
    return;
  }
  setLinks(linkRes.links);
  if (await page.views.show(list)) return;
  const answered = await readDocuments(page, list, first, guessed);
  if (!(await restoreProgress(page, list))) return;
  const rest = await showCards(page, makeCards(page, answered, await fixedVariants(page)), prerendered, list);
  // The cards below the screen come alive meanwhile, behind the engine's answers, and say so
  // (web/HOOKS.md `data-arriving`).
  const root = document.documentElement;
  if (rest) root.dataset.arriving = 'cards';
  const arriving = rest?.().then(() => { delete root.dataset.arriving; });
  lms?.report(page.store, page.cards, page.listing.length, options.reveal); // status and score to the course platform
  followOtherPages(page);
  watchCardsOnScreen(page); // the language switch renders those on screen first
  if (built) {
    await ping;
    // The engine itself must be up (an engine that cannot be had is said by watchEngineFailure).
    if (!(await engineStarted()).ok) return;
  }
  if (page.embedded) startEmbedded(page);
  // Usable once the cards on screen are live and the engine is up.
  root.dataset.ready = 'true';
  performance.mark('commlab-ready');
  await arriving;
  warmUpWhenIdle();
  startOffline(page);
  watchServedDocuments(page);
  // Checks pressed on a prerendered card before the engine was there (start.js) run now.
  for (const id of globalThis.commlabBoot?.checks.splice(0) ?? []) page.cards.find((c) => String(c.id) === id)?.check();
  if (page.framed && !page.embedded) reportHeight(page.only, [document.body], () => page.main);
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) target.scrollIntoView();
}

// The page's state: its settings, store and view, its language, the elements every part uses.
function openPage(query, options, lms) {
  const $ = (sel) => document.querySelector(sel);
  if (lms?.student) options.student = lms.student;
  const store = new Store(lms?.storage ?? safeStorage());
  store.load();
  // Another page of the origin may have freed space: writes still waiting are tried again.
  window.addEventListener('storage', () => store.retry());
  const page = {
    $, query, options, lms, store, ...route(options, window.parent !== window),
    lang: null,
    cards: [],
    listing: null, // the exercises shown
    docs: null, // exercise id (string) -> the engine's document, for checking progress
    hostState: null, // posts the host's copy of the progress, once embedded (app/embedded.js)
    main: $('#exercises'),
    notice: $('#notice'),
    status: $('#engine-status'),
    toc: $('#toc'),
  };
  page.links = linkProblems(page, options.problems);
  if (options.print) showWorksheet();
  page.links.list.push(...applyLook(options)); // theme= and the colours (app/theme.js): a colour that leaves text unreadable is named
  page.lang = options.lang ?? (store.lang === 'en' || store.lang === 'zh' ? store.lang : null) ?? browserLanguage();
  return page;
}

// The entry points the parts call each other by, and the header's actions (they work before
// and without the engine).
function connectParts(page) {
  page.notices = createNotice(page);
  page.say = page.notices.say;
  page.unsay = page.notices.unsay;
  page.exportProgress = () => exportProgress(page);
  page.confirmLeave = (what) => confirmLeave(page, what);
  page.renderDocumentProblems = documentProblems(page, documentsInstalled());
  page.renderEngineProblem = watchEngineFailure(page);
  page.views = createViews(page);
  watchSaving(page);
  page.store.onChange(() => renderProgress(page));
  listenToLanguageButton(page);
  listenToTransfer(page);
  listenToReset(page);
}
