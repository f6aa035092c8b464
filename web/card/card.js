// One exercise card: statement, status, hints, worked solution and variants; the answer form
// (answers.js) and the live calculator (calculator.js) are mixed into the same class. Every
// figure comes from the engine (exercise.solve / check / variant); this module only lays it out.

import { pick, strings } from '../util/i18n.js';
import { ask, linkLabel } from '../engine/door.js';
import { h } from '../util/dom.js';
import { renderParagraphs, renderRich } from '../util/math.js';
import { prettyUnits } from '../util/units.js';
import { answersMixin } from './answers.js';
import { calculatorMixin } from './calculator.js';
import { errorText } from './common.js';

export class Card {
  constructor(doc, store, lang) {
    this.doc = doc;
    this.id = doc.id;
    this.store = store;
    this.lang = lang;
    this.calcParams = null;
    this.frame = 0;
    this.root = h('section', {
      class: 'card', id: `ex${this.id}`, 'aria-labelledby': `ex${this.id}-title`,
      dataset: { exercise: String(this.id) },
    });
    this.render();
  }

  get saved() {
    return this.store.exercise(this.id);
  }

  /** The exercise's parameters in base units: the saved variant or the lecture's. */
  get params() {
    const out = {};
    for (const p of this.doc.params) out[p.id] = this.saved.params?.[p.id] ?? p.default;
    return out;
  }

  /** exercise.solve for `params`, remembering the last answer (statement and calculator share it). */
  solve(params) {
    const key = JSON.stringify(params);
    if (this.lastSolve?.key !== key) {
      this.lastSolve = { key, res: ask({ op: 'exercise.solve', id: this.id, params }) };
    }
    return this.lastSolve.res;
  }

  get isVariant() {
    return this.doc.params.some((p) => this.params[p.id] !== p.default);
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
    this.errorBox.textContent = err ? `${this.t().engineError}${errorText(err)}` : '';
  }

  render() {
    const t = this.t();
    const lang = this.lang;
    const id = this.id;
    const saved = this.saved;
    const pre = `ex${id}`;

    const title = h('h2', { id: `${pre}-title` }, [
      h('span', { class: 'num', text: `${t.exercise} ${id}` }),
      ' ',
      h('span', { class: 'name', text: pick(this.doc.title, lang) }),
    ]);
    this.status = h('p', { class: 'status', 'data-role': 'status' });
    const head = h('header', { class: 'card-head' }, [title, this.status]);

    this.statement = h('div', { class: 'statement', 'data-role': 'statement' });
    this.variantNote = h('p', { class: 'variant-note', text: t.variantNote });
    this.errorBox = h('p', { class: 'card-error', role: 'alert', 'data-role': 'error', hidden: true });

    this.form = this.buildAnswers();
    this.calc = this.buildCalculator();
    this.hintList = h('ol', { class: 'hints', 'aria-label': t.hints, 'data-role': 'hints' });
    this.solutionBox = h('section', {
      class: 'solution', 'data-role': 'solution', 'aria-labelledby': `${pre}-sol-title`, hidden: true,
    });

    this.root.replaceChildren(
      head, this.statement, this.variantNote, this.errorBox,
      h('div', { class: 'card-body' }, [this.form, this.calc]),
      this.hintList, this.solutionBox,
    );
    this.renderStatement();
    this.renderHints();
    this.renderStatus();
    if (saved.solutionOpen && saved.attempts > 0) this.openSolution();
    this.updateCalculator();
  }

  renderStatement() {
    // The engine fills the statement with the parameters written in their units.
    const res = this.solve(this.params);
    if (res.error) this.showError(res.error);
    const text = res.error ? pick(this.doc.statement, this.lang) : pick(res.statement, this.lang);
    renderParagraphs(this.statement, prettyUnits(text));
    this.variantNote.hidden = !this.isVariant;
  }

  renderStatus() {
    const t = this.t();
    const s = this.saved;
    const parts = [];
    if (s.solved) parts.push(`✓ ${t.solved}`);
    if (s.attempts) parts.push(t.attempts(s.attempts));
    this.status.textContent = parts.join(' · ');
    this.root.classList.toggle('is-solved', s.solved);
    this.solutionButton.disabled = s.attempts === 0;
    this.solutionButton.title = s.attempts === 0 ? t.solutionLocked : '';
  }

  renderHints() {
    const t = this.t();
    const hints = pick(this.doc.hints, this.lang) || [];
    const shown = Math.min(this.saved.hints, hints.length);
    this.hintList.replaceChildren(...hints.slice(0, shown).map((x) => h('li', {}, [renderRich(x)])));
    this.hintList.hidden = shown === 0;
    this.hintButton.disabled = shown >= hints.length;
    this.hintButton.textContent = shown >= hints.length && hints.length ? t.noMoreHints : t.hint;
  }

  nextHint() {
    this.saved.hints += 1;
    this.store.save();
    this.renderHints();
    this.hintList.lastElementChild?.setAttribute('tabindex', '-1');
    this.hintList.lastElementChild?.focus();
  }

  toggleSolution() {
    if (this.solutionBox.hidden) {
      this.saved.solutionOpen = true;
      this.openSolution();
      this.solutionBox.focus();
    } else {
      this.saved.solutionOpen = false;
      this.solutionBox.hidden = true;
      this.solutionButton.textContent = this.t().solution;
      this.solutionButton.setAttribute('aria-expanded', 'false');
    }
    this.store.save();
  }

  openSolution() {
    const t = this.t();
    const res = this.solve(this.params);
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

  newVariant() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const res = ask({ op: 'exercise.variant', id: this.id, seed });
    if (res.error) {
      this.showError(res.error);
      return;
    }
    this.setParams(res.params);
  }

  /** Switches the exercise to `params` (null: the lecture's); clears answers and verdicts. */
  setParams(params) {
    const s = this.saved;
    s.params = params ? { ...params } : null;
    s.answers = {};
    s.verdicts = {};
    s.attempts = 0;
    s.hints = 0;
    s.solutionOpen = false;
    this.calcParams = null;
    this.revealed = false;
    this.store.save();
    const open = this.calc.open;
    this.render();
    this.calc.open = open;
    this.root.querySelector('[data-action="variant"]').focus();
  }


}

Object.assign(Card.prototype, answersMixin, calculatorMixin);
