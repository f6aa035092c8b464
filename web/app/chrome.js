// The page's own words around the cards (title, header buttons, dialogs, links to the other
// views), the progress count and the contents, and the language switch that redraws them all.

import { h } from '../util/dom.js';
import { authorStrings, measuredStrings, pick, strings, topicStrings, viewStrings } from '../util/i18n.js';
import { fullLabHref } from './embed_chrome.js';

export function renderChrome(page) {
  const { $, lang, exploring, authoring, measuring, sectionView } = page;
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
  if (page.embedded) {
    $('[data-action="reset"]').textContent = t.resetExercise;
    $('#reset-question').textContent = t.resetExerciseConfirm;
    const full = $('[data-action="open-full"]');
    full.textContent = t.openFull;
    full.setAttribute('aria-label', t.openFullLabel);
    full.href = fullLabHref(page);
    $('.embed-foot').setAttribute('aria-label', t.embedTools);
  }
  $('.skip').textContent = t.skip;
  $('#course-link').textContent = t.courseLink;
  page.renderDocumentProblems();
  page.renderEngineProblem();
  page.links.render();
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
  renderProgress(page);
}

// An exercise counts as solved once any of its variants is.
export function renderProgress(page) {
  const { store, cards } = page;
  const solvedAny = (id) => store.variants(id).some((k) => store.record(id, k)?.solved);
  const ids = cards.map((c) => c.id);
  const done = ids.filter(solvedAny).length;
  page.$('#progress').textContent = cards.length ? strings(page.lang).progress(done, ids.length) : '';
  for (const a of page.toc.querySelectorAll('a[data-target]')) a.classList.toggle('is-solved', solvedAny(a.dataset.target));
}

export function renderToc(page) {
  page.toc.replaceChildren(...page.listing.map((ex) => h('li', {}, [
    h('a', { href: `#ex${ex.id}`, dataset: { target: String(ex.id) }, text: `${ex.id}. ${pick(ex.title, page.lang)}` }),
  ])));
}

export function switchLanguage(page, to, { remember = true } = {}) {
  page.lang = to;
  if (remember) page.store.setLang(to);
  renderChrome(page);
  page.notices.render(); // in the new language
  if (page.listing) renderToc(page);
  switchCards(page, to);
  page.views.setLang(to);
  renderProgress(page);
}

// The cards on screen switch at once, the others a few at a time, a task each: a card takes
// about 10 ms to render again, eight in one task blocked the page for 90 ms. `html[data-switching]`
// is set until every card speaks the new language. Which cards are on screen is kept by an
// IntersectionObserver: measuring them at the switch forced a layout of the whole page (51 ms).
let switching = 0;
const onScreen = new Set(); // card roots in view
const watched = new WeakSet();
let observer = null;

/** Keeps track of which of the page's cards are on screen (their roots change on a re-render). */
export function watchCardsOnScreen(page) {
  if (typeof IntersectionObserver !== 'function') return;
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) onScreen.add(e.target);
      else onScreen.delete(e.target);
    }
  });
  for (const c of page.cards) {
    if (watched.has(c.root)) continue;
    watched.add(c.root);
    observer.observe(c.root);
  }
}

function switchCards(page, to) {
  const token = ++switching;
  const root = document.documentElement;
  // Without an observer (or before its first report) every card counts as on screen.
  const now = observer ? page.cards.filter((c) => onScreen.has(c.root) || !watched.has(c.root)) : page.cards;
  const later = page.cards.filter((c) => !now.includes(c));
  for (const c of now) c.setLang(to);
  watchCardsOnScreen(page);
  if (!later.length) {
    delete root.dataset.switching;
    return;
  }
  root.dataset.switching = 'true';
  const step = () => {
    if (token !== switching) return; // a newer switch renders every card itself
    const start = performance.now();
    while (later.length && performance.now() - start < 16) later.shift().setLang(to);
    if (later.length) setTimeout(step, 0); // a task, not a frame: a frame out of view gets none
    else delete root.dataset.switching;
  };
  setTimeout(step, 0);
}

// Header actions work before and without the engine.
export function listenToLanguageButton(page) {
  const button = page.$('[data-action="language"]');
  button.addEventListener('click', () => {
    switchLanguage(page, page.lang === 'zh' ? 'en' : 'zh');
    button.focus();
  });
}
