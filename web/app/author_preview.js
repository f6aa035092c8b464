// The authoring view's preview (app/author.js): the page's usual card for the document the
// engine loaded, with its progress in a store of its own in memory, and a table of the variants
// the first seeds draw; in either language, whatever the page's.

import { Card } from '../card/card.js';
import { LECTURE, fullParams, variantKey } from '../card/variant.js';
import { askMany } from '../engine/door.js';
import { forgetExercise, rememberSolve } from '../engine/remembered.js';
import { h } from '../util/dom.js';
import { authorStrings, pick } from '../util/i18n.js';
import { prettyUnits } from '../util/units.js';
import { Store } from './store.js';

export const SEEDS = [1, 2, 3, 4, 5];

/** A Storage kept in memory (the preview card's progress: never written to localStorage). */
function memoryStorage() {
  const map = new Map();
  return {
    get length() { return map.size; },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => { map.set(k, String(v)); },
    removeItem: (k) => { map.delete(k); },
  };
}

/**
 * The preview, shown in `lang` at first. `current()` is the editor's text now: an answer for an
 * older text is not shown. `words()` the view's words (the page's language).
 */
export function createPreview({ lang, confirmLeave, current, words }) {
  let previewLang = lang;
  const previewTitle = h('h2', { id: 'author-preview-title' });
  const langGroup = h('div', { class: 'preview-lang', role: 'group' });
  const langButtons = ['en', 'zh'].map((l) => {
    const b = h('button', { type: 'button', 'data-preview-lang': l, lang: l === 'zh' ? 'zh-CN' : 'en', text: l === 'zh' ? '中文' : 'English' });
    b.addEventListener('click', () => setPreviewLang(l));
    return b;
  });
  langGroup.append(...langButtons);
  const previewStatus = h('p', { class: 'preview-status', 'data-role': 'preview-status', role: 'status' });
  const cardSlot = h('div', { class: 'preview-card', 'data-role': 'preview-card' });
  const variantsTitle = h('h3', { id: 'author-variants-title' });
  const variantsBox = h('div', { class: 'variant-table', 'data-role': 'variants' });
  const variantsPart = h('section', { class: 'card author-variants', 'aria-labelledby': 'author-variants-title', hidden: true }, [variantsTitle, variantsBox]);
  const preview = h('section', { class: 'author-preview', 'data-role': 'preview', 'aria-labelledby': 'author-preview-title' }, [
    h('div', { class: 'preview-head' }, [previewTitle, langGroup]), previewStatus, cardSlot, variantsPart,
  ]);


  let shown = null; // {doc, store, card, variants}
  let previewState = 'none';
  let previewNote = '';

  async function showPreview(id, text, clean) {
    const first = await askMany([
      { op: 'exercise.get', id }, { op: 'exercise.solve', id },
      ...SEEDS.map((seed) => ({ op: 'exercise.variant', id, seed })),
    ], 'author-preview');
    if (!first || text !== current()) return;
    const [doc, lecture, ...drawn] = first;
    if (doc.error || lecture.error) {
      setPreview(shown ? 'stale' : 'none', (doc.error ?? lecture.error).message);
      return;
    }
    const solves = await askMany(drawn.map((v) => (v.error ? { op: 'links' } : { op: 'exercise.solve', id, params: v.params })), 'author-preview');
    if (!solves || text !== current()) return;
    rememberSolve(id, fullParams(doc, null), lecture);
    const variants = drawn.map((v, i) => ({ seed: SEEDS[i], params: v.params, error: v.error ?? solves[i].error, res: solves[i] }));
    // The same document again (the text changed around it): the card and its progress stay.
    const same = shown && JSON.stringify(shown.doc) === JSON.stringify(doc);
    if (!same) {
      const store = new Store(memoryStorage());
      const carried = shown?.card.variant === LECTURE ? shown.card.saved.answers : {};
      const typed = Object.fromEntries(doc.answers.filter((a) => carried[a.id]).map((a) => [a.id, carried[a.id]]));
      if (Object.keys(typed).length) store.update(doc.id, LECTURE, (r) => { Object.assign(r.answers, typed); });
      const card = new Card(doc, store, previewLang, { confirmLeave });
      shown = { doc, store, card };
      card.render();
      card.root.lang = previewLang === 'zh' ? 'zh-CN' : 'en';
      cardSlot.replaceChildren(card.root);
    }
    shown.variants = variants;
    renderVariants();
    setPreview(clean ? 'clean' : 'problems');
  }

  function setPreview(state, note = '') {
    previewState = state;
    previewNote = note;
    preview.dataset.state = state;
    if (state === 'none') {
      cardSlot.replaceChildren();
      variantsPart.hidden = true;
    }
    renderPreviewStatus();
  }

  function renderPreviewStatus() {
    const t = words();
    const text = {
      none: previewNote ? t.loadFailed(previewNote) : t.previewNone,
      stale: t.previewStale(previewNote),
      clean: t.previewClean,
      problems: t.previewProblems,
    }[previewState];
    previewStatus.textContent = text;
    previewStatus.dataset.state = previewState;
  }

  function renderVariants() {
    if (!shown?.variants) return;
    const { doc, card, variants } = shown;
    const at = authorStrings(previewLang);
    const params = doc.params;
    const answers = doc.answers;
    const head = h('tr', {}, [
      h('th', { scope: 'col', text: at.seed }),
      ...params.map((p) => h('th', { scope: 'col', class: 'param-col', text: pick(p.label, previewLang) })),
      ...answers.map((a) => h('th', { scope: 'col', class: 'answer-col', text: pick(a.label, previewLang) })),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden', text: at.tryIt })),
    ]);
    const rows = variants.map((v) => {
      const cells = [h('th', { scope: 'row', text: String(v.seed) })];
      if (v.error) {
        cells.push(h('td', { colspan: String(params.length + answers.length + 1), class: 'card-error', text: at.noVariant(v.error.message) }));
      } else {
        for (const p of params) {
          const shownParam = p.kind === 'choice' ? card.labelOf(v.params[p.id]) : prettyUnits(v.res.params_display?.[p.id] ?? String(v.params[p.id]));
          cells.push(h('td', { dataset: { param: p.id }, text: shownParam }));
        }
        for (const a of answers) {
          const text = v.res.display?.[a.id];
          cells.push(h('td', { dataset: { result: a.id }, text: text == null ? '' : card.shown(a, text) }));
        }
        const tryIt = h('button', { type: 'button', 'data-action': 'try-variant', 'aria-label': at.tryItLabel(v.seed), text: at.tryIt });
        tryIt.addEventListener('click', async () => {
          if (!(await card.mayLeave())) return;
          await card.show(variantKey(doc, v.params), fullParams(doc, v.params), '[data-answer]');
          card.root.scrollIntoView({ block: 'start' });
        });
        cells.push(h('td', {}, tryIt));
      }
      return h('tr', { dataset: { seed: String(v.seed) } }, cells);
    });
    variantsTitle.textContent = at.variants;
    variantsBox.replaceChildren(h('table', {}, [
      h('caption', { text: at.variantsCaption(SEEDS.length) }),
      h('thead', {}, head),
      h('tbody', {}, rows),
    ]));
    variantsPart.hidden = false;
    variantsPart.lang = previewLang === 'zh' ? 'zh-CN' : 'en';
  }

  function setPreviewLang(l) {
    previewLang = l;
    for (const b of langButtons) b.setAttribute('aria-pressed', String(b.dataset.previewLang === l));
    if (shown) {
      shown.card.setLang(l);
      shown.card.root.lang = l === 'zh' ? 'zh-CN' : 'en';
    }
    renderVariants();
  }

  /** Forgets what the engine said about the document shown, before it may change. */
  function forget() {
    if (shown) forgetExercise(shown.doc.id);
  }
  /** The engine could not load the text: the card shown stays, marked stale. */
  function failed(note) {
    setPreview(shown ? 'stale' : 'none', note);
  }
  function renderWords() {
    const t = words();
    previewTitle.textContent = t.preview;
    langGroup.setAttribute('aria-label', t.previewLang);
    renderPreviewStatus();
  }

  return { root: preview, show: showPreview, set: setPreview, setLang: setPreviewLang, forget, failed, renderWords };
}
