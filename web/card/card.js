// One exercise card: statement, status, hints, worked solution and variants; the answer form
// (answers.js) and the live calculator (calculator.js) are mixed into the same class. Every
// figure comes from the engine (exercise.solve / check / variant); this module only lays it out.
// The engine answers asynchronously (engine/door.js): render() draws from the answers already
// known, and what is missing is asked for and drawn when it comes. While a request of the card is
// out, the card is aria-busy.

import { pick, strings } from '../util/i18n.js';
import { ask, isEngineFailure } from '../engine/door.js';
import { cachedSolve, knownLinks, linkLabel, solveAll } from '../engine/remembered.js';
import { h } from '../util/dom.js';
import { renderParagraphs, renderRich } from '../util/math.js';
import { formatBytes, formatTime, prettyUnits } from '../util/units.js';
import { answersMixin } from './answers.js';
import { calculatorMixin } from './calculator.js';
import { errorText } from './common.js';
import { LECTURE, fullParams, variantKey } from './variant.js';
import { fillGiven } from './worksheet.js';
import { EXERCISE_LECTURE, topicHref } from '../views/section_names.js';
import { topicStrings } from '../util/i18n.js';

// What an exercise with no saved record shows: nothing typed, nothing solved.
const NOTHING = Object.freeze({
  params: null, answers: {}, verdicts: {}, messages: {}, attempts: 0, solved: false, hints: 0,
  solutionOpen: false, revealed: false,
});

export class Card {
  /**
   * `confirmLeave({unchecked, fromLecture})` resolves true when the student agrees to leave.
   * Options an embedding host sets (web/README.md "Embedding in a course site"): `fixed` {key, params,
   * seed} shows that variant only (a class's seed, said on a worksheet); `calculator` false
   * hides the calculator; `hints` false hides the hints; `reveal` 'never' | 'after-attempt' |
   * 'after-solve'. `onEvent(type, detail)` hears 'checked' and 'solved'.
   */
  constructor(doc, store, lang, {
    confirmLeave = async () => true, fixed = null, calculator = true, hints = true, reveal = 'after-solve',
    onEvent = () => {},
  } = {}) {
    this.doc = doc;
    this.id = doc.id;
    this.store = store;
    this.lang = lang;
    this.confirmLeave = confirmLeave;
    this.fixed = fixed;
    this.options = { calculator, hints, reveal };
    this.onEvent = onEvent;
    this.variant = this.fixed ? this.fixed.key : this.savedVariant();
    this.calcParams = null;
    this.frame = 0;
    this.busy = 0;
    this.root = h('section', {
      class: 'card', id: `ex${this.id}`, 'aria-labelledby': `ex${this.id}-title`,
      dataset: { exercise: String(this.id) },
    });
    // The lecture section it illustrates (web/README.md "Views"), for a built-in exercise.
    this.lecture = EXERCISE_LECTURE[this.id] ?? null;
    if (this.lecture) this.root.dataset.lecture = this.lecture;
  }

  /** The exercise.solve requests render() draws from: the shown variant's and the lecture's. */
  needs() {
    return [this.params, fullParams(this.doc, null)].map((params) => ({ id: this.id, params }));
  }

  /** Marks the card busy while `promise` is out (tests and assistive technology see it). */
  track(promise) {
    this.busy += 1;
    this.root.setAttribute('aria-busy', 'true');
    const done = () => {
      this.busy -= 1;
      if (!this.busy) this.root.removeAttribute('aria-busy');
    };
    promise.then(done, done);
    return promise;
  }

  /** Asks for exercise.solve of `params` (superseding an older ask under `key`), then `then(res)`. */
  solveThen(params, then, key = null) {
    this.track(solveAll([{ id: this.id, params }], key)).then((out) => {
      if (out) then(out[0]);
    });
  }

  /** The variant the store says this exercise shows, if it has a record (else the lecture's). */
  savedVariant() {
    const key = this.store.current(this.id);
    return key && key !== LECTURE && this.store.record(this.id, key) ? key : LECTURE;
  }

  /** The shown variant's progress (read only: change it through change()). */
  get saved() {
    return this.store.record(this.id, this.variant) ?? NOTHING;
  }

  /** Changes the shown variant's record (read-merge-write of its own storage key). */
  change(fn) {
    return this.store.update(this.id, this.variant, fn, this.variant === LECTURE ? null : this.params);
  }

  /** The exercise's parameters in base units: the shown variant's or the lecture's. */
  get params() {
    return fullParams(this.doc, this.store.record(this.id, this.variant)?.params ?? this.fixed?.params ?? null);
  }

  /** The engine's exercise.solve answer for `params` if already known (door.js keeps them), else null. */
  solve(params) {
    return cachedSolve(this.id, params) ?? null;
  }

  get isVariant() {
    return this.variant !== LECTURE;
  }

  /** Shows the store's current variant again (after an import or a reset). */
  async reload() {
    this.variant = this.fixed ? this.fixed.key : this.savedVariant();
    this.calcParams = null;
    await this.track(solveAll(this.needs()));
    const open = this.calc?.open ?? true;
    this.render();
    this.calc.open = open;
  }

  t() {
    return strings(this.lang);
  }

  /** Words for a choice value: another answer's label, a link's name, or a known word. */
  labelOf(choice) {
    if (typeof choice === 'object' && choice !== null) return pick(choice.label ?? choice.id, this.lang);
    const v = String(choice);
    const answer = this.doc.answers.find((a) => a.id === v);
    if (answer) return pick(answer.label, this.lang);
    return linkLabel(v) ?? this.t().words[v] ?? v.replace(/_/g, ' ');
  }

  /** An engine display string as shown: choice answers in words, "us" as "µs". */
  shown(answer, text) {
    return answer.choices?.length ? this.labelOf(text) : prettyUnits(text);
  }

  setLang(lang) {
    this.lang = lang;
    this.render();
  }

  /** Shows an engine error inside this card; the rest of the page keeps working. */
  showError(err) {
    this.errorBox.hidden = !err;
    // The engine's own failure in plain words (engine/door.js); a refusal with its code.
    const failed = isEngineFailure(err) && (err.code === 'engine_stopped' ? this.t().engineStopped : this.t().checkNoEngine);
    this.errorBox.textContent = err ? failed || `${this.t().engineError}${errorText(err)}` : '';
  }

  /**
   * The lecture's links with their α and β (the engine's `links` answer), under a statement that
   * names a link, so a variant's "RoCE 400G" comes with its figures; null for other exercises.
   */
  linkTable() {
    const ids = new Set(knownLinks().map((l) => l.id));
    const named = this.doc.params.some((p) => p.kind === 'choice' && (p.choices ?? []).some((c) => ids.has(typeof c === 'object' ? c.id : c)));
    if (!named) return null;
    const t = this.t();
    const gbps = (v) => `${Number((v / 1e9).toPrecision(4))} GB/s`;
    const rows = knownLinks().map((l) => h('tr', { 'data-link': l.id }, [
      h('th', { scope: 'row', text: l.label }),
      h('td', { text: prettyUnits(formatTime(l.alpha_s)) }),
      h('td', { text: gbps(l.beta_Bps) }),
      h('td', { text: gbps(l.nominal_Bps) }),
      h('td', { text: formatBytes(l.n_half_bytes) }),
    ]));
    return h('details', { class: 'link-table', 'data-role': 'link-table' }, [
      h('summary', { text: t.linkTable }),
      h('table', {}, [
        h('caption', { text: t.linkTableCaption }),
        h('thead', {}, h('tr', {}, t.linkTableCols.map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', {}, rows),
      ]),
    ]);
  }

  render() {
    const t = this.t();
    const lang = this.lang;
    const id = this.id;
    const saved = this.saved;
    const pre = `ex${id}`;
    this.root.dataset.variant = this.variant;
    // Its own language: a switch re-lays out each card as it is redrawn, not all of them when
    // <html lang> changes (57 ms of layout in the click's task), and a card not yet redrawn
    // is still said to be in the language it shows.
    this.root.lang = lang === 'zh' ? 'zh-CN' : 'en';

    const title = h('h2', { id: `${pre}-title` }, [
      h('span', { class: 'num', text: `${t.exercise} ${id}` }),
      ' ',
      h('span', { class: 'name', text: pick(this.doc.title, lang) }),
    ]);
    this.status = h('p', { class: 'status', 'data-role': 'status' });
    // Its section on Topics (hidden in an embed: nothing navigates the frame away).
    const topic = this.lecture ? h('a', { class: 'card-topic', href: topicHref(this.lecture), text: topicStrings(lang).cardLink(this.lecture) }) : null;
    const head = h('header', { class: 'card-head' }, [title, this.status, topic]);

    this.statement = h('div', { class: 'statement', 'data-role': 'statement' });
    // A worksheet's list of the parameters (card/worksheet.js), filled with the statement.
    this.given = h('div', { class: 'worksheet-given', 'data-role': 'given' });
    this.variantNote = h('p', { class: 'variant-note', text: t.variantNote });
    this.errorBox = h('p', { class: 'card-error', role: 'alert', 'data-role': 'error', hidden: true });

    this.form = this.buildAnswers();
    this.calc = this.buildCalculator();
    // The engine's pictures at the calculator's parameters, full width below form and calculator
    // (drawn when first shown: card/calculator.js showVisual).
    this.visualBox = h('div', { class: 'visuals', 'data-role': 'visuals', hidden: true });
    this.hintList = h('ol', { class: 'hints', 'aria-label': t.hints, 'data-role': 'hints' });
    this.solutionBox = h('section', {
      class: 'solution', 'data-role': 'solution', 'aria-labelledby': `${pre}-sol-title`, hidden: true,
    });

    const body = h('div', { class: 'card-body' }, [this.form, this.calc]);
    // Embedding options: what the host turned off is not built into the page at all.
    if (!this.options.calculator) {
      this.calc.hidden = true;
      body.classList.add('no-calc');
    }
    if (!this.options.hints) this.hintButton.hidden = true;
    if (this.options.reveal === 'never') this.solutionButton.hidden = true;
    if (this.fixed) {
      for (const b of this.form.querySelectorAll('[data-action="variant"], [data-action="default"]')) b.hidden = true;
    }
    // linkTable() is null for an exercise without a link (replaceChildren would print "null").
    this.root.replaceChildren(...[
      head, this.statement, this.given, this.linkTable(), this.variantNote, this.errorBox, body,
      this.visualBox, this.hintList, this.solutionBox,
    ].filter(Boolean));
    this.renderStatement();
    this.renderHints();
    this.renderStatus();
    if (saved.solutionOpen && saved.attempts > 0 && this.options.reveal !== 'never') this.openSolution();
    this.updateCalculator();
  }

  renderStatement(known = null) {
    // The engine fills the statement with the parameters written in their units. Restored and
    // imported parameters were checked by the engine; should it refuse them anyway, the card
    // says so and shows the lecture's statement, never a template with {placeholders}.
    let res = known ?? this.solve(this.params);
    if (!res) {
      const variant = this.variant;
      this.solveThen(this.params, (r) => { if (this.variant === variant) this.renderStatement(r); });
      return;
    }
    if (res.error) {
      this.showError(res.error);
      res = this.solve(fullParams(this.doc, null)) ?? res;
    }
    const text = res.error ? '' : pick(res.statement, this.lang);
    renderParagraphs(this.statement, prettyUnits(text));
    fillGiven(this.given, this.doc, res.error ? null : res, this.lang, this.fixed?.seed ?? null);
    this.variantNote.hidden = !this.isVariant;
  }

  renderStatus() {
    const t = this.t();
    const s = this.saved;
    const parts = [];
    if (s.solved) parts.push(h('span', { class: 'ok', text: `✓ ${t.solved}` }));
    if (s.revealed) parts.push(h('span', { class: 'revealed', text: t.revealed }));
    if (s.attempts) parts.push(h('span', { text: t.attempts(s.attempts) }));
    this.status.replaceChildren(...parts.flatMap((x, i) => (i ? [' · ', x] : [x])));
    this.root.classList.toggle('is-solved', s.solved);
    this.solutionButton.disabled = s.attempts === 0;
    this.solutionButton.title = s.attempts === 0 ? t.solutionLocked : '';
    // The worked solution shows the answers: say so while opening it would reveal them.
    this.solutionNote.hidden = s.attempts === 0 || s.solved || s.revealed || this.options.reveal === 'never';
    this.lectureButton.disabled = !this.isVariant;
    this.renderVariants();
  }

  /** The picker of this exercise's saved variants (shown once there is more than one). */
  renderVariants() {
    const t = this.t();
    const keys = this.store.variants(this.id).filter((k) => k !== LECTURE);
    if (this.isVariant && !keys.includes(this.variant)) keys.push(this.variant);
    const created = (k) => this.store.record(this.id, k)?.created ?? '';
    keys.sort((a, b) => created(a).localeCompare(created(b)));
    const option = (key, name) => {
      const r = this.store.record(this.id, key) ?? NOTHING;
      const state = t.variantState(r.solved, r.revealed, r.attempts);
      return h('option', { value: key, text: state ? `${name} (${state})` : name });
    };
    this.variantSelect.replaceChildren(
      option(LECTURE, t.lectureValues),
      ...keys.map((k, i) => option(k, t.variantName(i + 1))),
    );
    this.variantSelect.value = this.variant;
    this.variantPicker.hidden = keys.length === 0 || !!this.fixed;
  }

  renderHints() {
    const t = this.t();
    const hints = pick(this.doc.hints, this.lang) || [];
    const shown = this.options.hints ? Math.min(this.saved.hints, hints.length) : 0;
    this.hintList.replaceChildren(...hints.slice(0, shown).map((x) => h('li', {}, [renderRich(x)])));
    this.hintList.hidden = shown === 0;
    this.hintButton.disabled = shown >= hints.length;
    this.hintButton.textContent = shown >= hints.length && hints.length ? t.noMoreHints : t.hint;
  }

  nextHint() {
    this.change((r) => { r.hints += 1; });
    this.renderHints();
    this.hintList.lastElementChild?.setAttribute('tabindex', '-1');
    this.hintList.lastElementChild?.focus();
  }

  toggleSolution() {
    if (this.solutionBox.hidden) {
      // The solution lists the answers: opened before solving, it counts as revealing them.
      this.change((r) => {
        r.solutionOpen = true;
        if (!r.solved) r.revealed = true;
      });
      this.openSolution();
      this.renderStatus();
      this.updateCalculator();
      this.solutionBox.focus();
    } else {
      this.change((r) => { r.solutionOpen = false; });
      this.solutionBox.hidden = true;
      this.solutionButton.textContent = this.t().solution;
      this.solutionButton.setAttribute('aria-expanded', 'false');
    }
  }

  /** Records an explicit reveal of this variant's answers. */
  reveal() {
    this.change((r) => { r.revealed = true; });
    this.renderStatus();
    this.updateCalculator();
  }

  openSolution(known = null) {
    const t = this.t();
    const res = known ?? this.solve(this.params);
    if (!res) {
      this.solveThen(this.params, (r) => this.openSolution(r));
      return;
    }
    if (res.error) {
      this.showError(res.error);
      return;
    }
    const body = h('div', { class: 'solution-text' });
    renderParagraphs(body, prettyUnits(pick(res.solution, this.lang)));
    const list = h('dl', { class: 'results' });
    for (const a of this.doc.answers) {
      if (res.display?.[a.id] == null) continue;
      list.append(h('dt', { text: pick(a.label, this.lang) }), h('dd', { text: this.shown(a, res.display[a.id]) }));
    }
    this.solutionBox.replaceChildren(
      h('h3', { id: `ex${this.id}-sol-title`, text: t.solutionTitle }), body, list,
    );
    this.solutionBox.setAttribute('tabindex', '-1');
    this.solutionBox.hidden = false;
    this.solutionButton.textContent = t.hideSolution;
    this.solutionButton.setAttribute('aria-expanded', 'true');
  }

  async newVariant() {
    if (!(await this.mayLeave())) return;
    for (let i = 0; i < 5; i++) {
      const seed = crypto.getRandomValues(new Uint32Array(1))[0];
      const res = await this.track(ask({ op: 'exercise.variant', id: this.id, seed }));
      if (res.error) {
        this.showError(res.error);
        return;
      }
      const key = variantKey(this.doc, res.params);
      // A fresh variant: not the one shown, nor one already worked on.
      if (key === this.variant || this.store.record(this.id, key)) continue;
      await this.show(key, fullParams(this.doc, res.params), '[data-action="variant"]');
      return;
    }
  }

  /** Back to the lecture's values (its own saved progress comes back with it). */
  async lectureValues() {
    if (!this.isVariant || !(await this.mayLeave())) return;
    await this.show(LECTURE, null, '[data-action="variant"]');
  }

  /** Switches to a saved variant chosen in the picker. */
  async pickVariant(key) {
    if (key === this.variant) return;
    if (!(await this.mayLeave())) {
      this.variantSelect.value = this.variant;
      return;
    }
    await this.show(key, null, '[data-role="variants"]');
  }

  /** Answers typed but not checked (labels), which leaving the variant sets aside. */
  uncheckedAnswers() {
    const s = this.saved;
    return this.doc.answers.filter((a) => (s.answers[a.id] ?? '').trim() && !s.verdicts[a.id])
      .map((a) => pick(a.label, this.lang));
  }

  /** Asks before leaving a variant with unchecked typed answers; true to go on. */
  async mayLeave() {
    const unchecked = this.uncheckedAnswers();
    if (!unchecked.length) return true;
    return this.confirmLeave({ unchecked, fromLecture: !this.isVariant, lang: this.lang });
  }

  /** True when a record holds nothing worth keeping. */
  static isEmpty(r) {
    return !r || (!r.solved && !r.revealed && !r.attempts && !r.hints
      && !Object.values(r.answers ?? {}).some((x) => String(x).trim()));
  }

  /** Shows variant `key` (its saved progress, or a fresh record with `params`). */
  async show(key, params, focus) {
    // The statement of the variant shown next is asked for first: the card changes in one go.
    const next = key === LECTURE ? null : (this.store.record(this.id, key)?.params ?? params);
    await this.track(solveAll([{ id: this.id, params: fullParams(this.doc, next) }]));
    const left = this.variant;
    if (left !== LECTURE && Card.isEmpty(this.store.record(this.id, left))) this.store.remove(this.id, left);
    if (key !== LECTURE && !this.store.record(this.id, key)) this.store.update(this.id, key, () => {}, params);
    this.store.setCurrent(this.id, key);
    this.variant = key;
    this.calcParams = null;
    const open = this.calc.open;
    this.render();
    this.calc.open = open;
    this.root.querySelector(focus)?.focus();
  }


}

Object.assign(Card.prototype, answersMixin, calculatorMixin);
