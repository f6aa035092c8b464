// Which view the address asks for (`?view=explore`, `author`, `measured`, topics and the
// section views), and those views drawn in place of the cards. Their modules load when opened.

import { knownLinks } from '../engine/remembered.js';
import { strings } from '../util/i18n.js';
import { SECTION_VIEWS } from '../views/section_names.js';
import { safeStorage } from './storage_access.js';
import { warmUpWhenIdle } from './engine_start.js';

/** The view the page shows: `only` an exercise alone (embedded when framed or `embed=1`), else one of the views or the cards. */
export function route(options, framed) {
  const only = options.exercise;
  const view = only === null ? options.view : null;
  return {
    only,
    framed,
    embedded: only !== null && (framed || options.embed),
    exploring: view === 'explore',
    authoring: view === 'author',
    // ?view=measured: an nccl-tests log against the model (views/measured.js).
    measuring: view === 'measured',
    // Topics and the section views replace the cards, like Explore (views/sections.js).
    sectionView: SECTION_VIEWS.includes(view) ? view : null,
  };
}

/** The views other than the cards: `show(list)` draws the address's one, `setLang` redraws it. */
export function createViews(page) {
  const { main } = page;
  let explorer = null;
  let exerciseList = null;
  let section = null;
  let sectionAsked = 0; // a language switch while the view's module loads: the later one wins
  let author = null;
  let measured = null;

  // The explorer replaces the cards; its settings live in the address (replaceState).
  async function showExplore() {
    const { createExplore, readSettings, settingsQuery } = await import('../views/explore.js');
    let settings = explorer?.settings();
    if (!settings) {
      const read = readSettings(location.search, knownLinks().map((l) => l.id));
      settings = read.settings;
      page.links.add(read.problems);
    }
    explorer = createExplore(page.lang, settings, knownLinks(), (s) => history.replaceState(null, '', settingsQuery(s)));
    main.querySelector('[data-view="explore"]')?.remove();
    main.append(explorer.root);
  }

  // Topics or a section view in place of the cards, in the page's language.
  async function showSection() {
    const mine = ++sectionAsked;
    const [{ createSectionView }, { applySettings, followSettings }] = await Promise.all([import('../views/sections.js'), import('./view_settings.js')]);
    const made = await createSectionView(page.sectionView, page.lang, { exercises: exerciseList, links: knownLinks() });
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
      page.links.add(problems);
    }
    followSettings(made.root);
  }

  // The authoring view replaces the cards (app/author.js); its draft has a key of its own.
  async function showAuthor(builtIns) {
    const { createAuthor } = await import('./author.js');
    author = createAuthor({ lang: page.lang, builtIns, storage: safeStorage(), confirmLeave: page.confirmLeave });
    main.append(author.root);
  }

  // The measured view replaces the cards; fitted figures may come in the address (a shared link).
  async function showMeasured() {
    const { createMeasured, readShared } = await import('../views/measured.js');
    const links = knownLinks();
    page.links.add(readShared(location.search, links.map((l) => l.id)).problems);
    measured = createMeasured({ lang: page.lang, links, storage: safeStorage(), search: location.search });
    main.append(measured.root);
  }

  const ready = () => { document.documentElement.dataset.ready = 'true'; };

  /**
   * Draws the address's view in place of the prerendered cards, given the engine's exercise
   * list; true when the page is then complete (the measured view still has the cards made).
   */
  async function show(list) {
    if (!page.exploring && !page.measuring && !page.sectionView && !page.authoring) return false;
    page.status.hidden = true;
    for (const el of main.querySelectorAll('section.card[data-prerendered]')) el.remove();
    if (page.exploring) {
      await showExplore();
      ready();
      warmUpWhenIdle();
      return true;
    }
    if (page.measuring) {
      await showMeasured();
      ready();
      return false;
    }
    if (page.sectionView) {
      exerciseList = list.exercises;
      await showSection();
      await section.ready;
      ready();
      // A `#s-6.3` in the address scrolls to its section once drawn.
      const aim = hashTarget();
      if (aim) {
        aim.dataset.aimed = 'true'; // drawn after the load, so :target does not apply
        aim.scrollIntoView();
      }
      return true;
    }
    await showAuthor(list.exercises);
    ready();
    return true;
  }

  function setLang(lang) {
    if (page.exploring) showExplore();
    if (page.sectionView && exerciseList) showSection();
    author?.setLang(lang);
    measured?.setLang(lang);
  }

  return { show, setLang };
}

/** The element the address's `#…` names, or null; a malformed escape (`#%`) is read as typed. */
function hashTarget() {
  const text = location.hash.slice(1);
  if (!text) return null;
  let id = text;
  try {
    id = decodeURIComponent(text);
  } catch { /* URIError: not an escape, so the text itself is the name */ }
  return document.getElementById(id);
}
