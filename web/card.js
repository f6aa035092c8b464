// One exercise card: statement, answer fields checked by the engine, hints, worked solution,
// variants, and a live calculator over the exercise's parameters. Every figure comes from the
// engine (exercise.solve / check / variant); this module only lays it out.

import { h } from './dom.js';
import { ask, linkLabel } from './engine.js';
import { pick, strings } from './i18n.js';
import { renderParagraphs, renderRich } from './math.js';
import { fromDisplay, inputText, prettyUnits, shownUnit, toDisplay } from './units.js';
import { extraView } from './views.js';

function choiceValue(c) {
  return typeof c === 'object' && c !== null ? String(c.id ?? c.value) : String(c);
}

function errorText(err) {
  return `${err.code}: ${err.message}`;
}

/** Slider scale for a numeric parameter: logarithmic over wide positive ranges. */
function sliderScale(param) {
  const min = toDisplay(param.min, param.unit);
  const max = toDisplay(param.max, param.unit);
  const log = min > 0 && max / min >= 100;
  const steps = param.kind === 'integer' && !log ? Math.max(1, Math.round(max - min)) : 1000;
  return {
    steps,
    toSlider: (v) => {
      const t = log ? Math.log(v / min) / Math.log(max / min) : (v - min) / (max - min);
      return Math.round(Math.min(1, Math.max(0, t)) * steps);
    },
    fromSlider: (s) => {
      const t = s / steps;
      const v = log ? min * (max / min) ** t : min + t * (max - min);
      return param.kind === 'integer' ? Math.round(v) : Number(v.toPrecision(3));
    },
  };
}

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

  buildAnswers() {
    const t = this.t();
    const lang = this.lang;
    const pre = `ex${this.id}`;
    const saved = this.saved;
    const ruleIds = new Map(); // a rule shared word for word by several fields is shown once
    const fields = this.doc.answers.map((a) => {
      const fid = `${pre}-a-${a.id}`;
      const unit = shownUnit(a.unit);
      const ruleText = pick(a.rule, lang);
      const repeated = ruleIds.has(ruleText);
      if (!repeated) ruleIds.set(ruleText, `${fid}-rule`);
      const described = `${unit ? `${fid}-unit ` : ''}${ruleIds.get(ruleText)} ${fid}-verdict`;
      let input;
      if (a.choices?.length) {
        input = h('select', { id: fid, 'data-answer': a.id, 'aria-describedby': described }, [
          h('option', { value: '', text: t.choose }),
          ...a.choices.map((c) => h('option', { value: choiceValue(c), text: this.labelOf(c) })),
        ]);
      } else {
        input = h('input', {
          id: fid, type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
          'data-answer': a.id, 'aria-describedby': described,
        });
      }
      input.value = saved.answers[a.id] ?? '';
      const verdict = saved.verdicts[a.id];
      if (verdict) this.markField(input, verdict);
      input.addEventListener(a.choices?.length ? 'change' : 'input', () => {
        this.saved.answers[a.id] = input.value;
        delete this.saved.verdicts[a.id];
        input.removeAttribute('data-verdict');
        input.removeAttribute('aria-invalid');
        this.verdictOf(a.id).textContent = '';
        this.store.save();
      });
      // A saved verdict shows its word again (the engine's message is not saved).
      const verdictText = h('p', {
        class: 'verdict', id: `${fid}-verdict`, 'aria-live': 'polite', text: verdict ? t.verdict[verdict] : '',
        dataset: verdict ? { verdict } : {},
      });
      return h('div', { class: 'answer' }, [
        h('label', { for: fid, text: pick(a.label, lang) }),
        h('div', { class: 'field' }, [input, h('span', { class: 'unit', id: `${fid}-unit`, text: unit })]),
        repeated ? null : h('p', { class: 'rule', id: `${fid}-rule`, text: ruleText }),
        verdictText,
      ]);
    });

    const check = h('button', { type: 'submit', class: 'primary', 'data-action': 'check', text: t.check });
    this.hintButton = h('button', { type: 'button', 'data-action': 'hint', text: t.hint });
    this.solutionButton = h('button', { type: 'button', 'data-action': 'solution', text: t.solution });
    const variant = h('button', { type: 'button', 'data-action': 'variant', text: t.variant });
    const lecture = h('button', { type: 'button', 'data-action': 'default', text: t.lectureValues });
    this.summary = h('p', { class: 'summary', 'aria-live': 'polite', 'data-role': 'summary' });

    const form = h('form', { class: 'answers', novalidate: true, 'aria-labelledby': `${pre}-answers-title ${pre}-title` }, [
      h('h3', { id: `${pre}-answers-title`, text: t.answers }),
      ...fields,
      h('div', { class: 'actions' }, [check, this.hintButton, this.solutionButton, variant, lecture]),
      this.summary,
    ]);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.check();
    });
    this.hintButton.addEventListener('click', () => this.nextHint());
    this.solutionButton.addEventListener('click', () => this.toggleSolution());
    variant.addEventListener('click', () => this.newVariant());
    lecture.addEventListener('click', () => this.setParams(null));
    return form;
  }

  inputOf(answerId) {
    return this.form.querySelector(`[data-answer="${answerId}"]`);
  }

  verdictOf(answerId) {
    return this.form.querySelector(`#ex${this.id}-a-${answerId}-verdict`);
  }

  markField(input, verdict) {
    input.dataset.verdict = verdict;
    if (verdict === 'correct') input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }

  check() {
    const t = this.t();
    const saved = this.saved;
    const answers = {};
    for (const a of this.doc.answers) {
      const text = this.inputOf(a.id).value.trim();
      if (text) answers[a.id] = text;
    }
    if (!Object.keys(answers).length) {
      this.summary.textContent = t.nothingTyped;
      return;
    }
    const res = ask({ op: 'exercise.check', id: this.id, params: this.params, answers });
    if (res.error) {
      this.showError(res.error);
      return;
    }
    this.showError(null);
    let judged = false;
    for (const a of this.doc.answers) {
      const input = this.inputOf(a.id);
      const out = this.verdictOf(a.id);
      const v = res.verdicts?.[a.id];
      if (!(a.id in answers) || !v) {
        delete saved.verdicts[a.id];
        input.removeAttribute('data-verdict');
        input.removeAttribute('aria-invalid');
        out.textContent = a.id in answers ? '' : t.empty;
        continue;
      }
      this.markField(input, v.verdict);
      saved.verdicts[a.id] = v.verdict;
      const message = pick(v.message, this.lang);
      out.textContent = message || t.verdict[v.verdict];
      out.dataset.verdict = v.verdict;
      if (v.verdict !== 'format-error') judged = true;
    }
    if (judged) saved.attempts += 1;
    const allCorrect = this.doc.answers.every((a) => saved.verdicts[a.id] === 'correct');
    if (allCorrect) saved.solved = true;
    this.summary.textContent = allCorrect ? t.allCorrect : '';
    this.store.save();
    this.renderStatus();
    this.updateCalculator();
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

  buildCalculator() {
    const t = this.t();
    const lang = this.lang;
    const pre = `ex${this.id}`;
    if (!this.calcParams) this.calcParams = this.params;
    const rows = this.doc.params.map((p) => {
      const fid = `${pre}-p-${p.id}`;
      const label = h('label', { for: fid, text: pick(p.label, lang) });
      if (p.kind === 'choice') {
        const select = h('select', { id: fid, 'data-param': p.id }, (p.choices ?? []).map((c) =>
          h('option', { value: choiceValue(c), text: this.labelOf(c) })));
        select.value = String(this.calcParams[p.id]);
        select.addEventListener('change', () => {
          this.calcParams[p.id] = select.value;
          this.scheduleCalc();
        });
        return h('div', { class: 'param' }, [label, h('div', { class: 'field' }, [select, h('span', { class: 'unit' })])]);
      }
      const unit = shownUnit(p.unit);
      const num = h('input', {
        id: fid, type: 'number', step: p.kind === 'integer' ? '1' : 'any', 'data-param': p.id,
        min: inputText(toDisplay(p.min, p.unit)), max: inputText(toDisplay(p.max, p.unit)),
      });
      num.value = inputText(toDisplay(this.calcParams[p.id], p.unit));
      let datalist = null;
      if (p.nice?.length) {
        datalist = h('datalist', { id: `${fid}-nice` }, p.nice.map((v) => h('option', { value: inputText(toDisplay(v, p.unit)) })));
        num.setAttribute('list', datalist.id);
      }
      const scale = sliderScale(p);
      const slider = h('input', {
        type: 'range', min: '0', max: String(scale.steps), step: '1', 'data-slider': p.id,
        'aria-label': `${pick(p.label, lang)}${unit ? ` (${unit})` : ''}`,
      });
      slider.value = String(scale.toSlider(toDisplay(this.calcParams[p.id], p.unit)));
      num.addEventListener('input', () => {
        const v = Number(num.value);
        if (num.value.trim() === '' || !Number.isFinite(v)) return;
        this.calcParams[p.id] = fromDisplay(v, p.unit);
        slider.value = String(scale.toSlider(v));
        this.scheduleCalc();
      });
      slider.addEventListener('input', () => {
        const v = scale.fromSlider(Number(slider.value));
        num.value = inputText(v);
        this.calcParams[p.id] = fromDisplay(v, p.unit);
        this.scheduleCalc();
      });
      return h('div', { class: 'param' }, [
        label,
        h('div', { class: 'field' }, [num, h('span', { class: 'unit', text: unit })]),
        slider,
        datalist,
      ]);
    });
    this.calcOut = h('output', { class: 'calc-out', 'aria-live': 'polite', for: rows.map((r) => r.querySelector('[data-param]').id).join(' ') });
    this.calcError = h('p', { class: 'card-error', role: 'alert', hidden: true });
    const back = h('button', { type: 'button', 'data-action': 'calc-reset', text: t.useExerciseValues });
    back.addEventListener('click', () => {
      this.calcParams = null;
      const open = this.calc.open;
      const fresh = this.buildCalculator();
      this.calc.replaceWith(fresh);
      this.calc = fresh;
      this.calc.open = open;
      this.updateCalculator();
    });
    const details = h('details', { class: 'calc', 'data-role': 'calculator', open: true }, [
      h('summary', { text: t.calculator }),
      h('p', { class: 'note', text: t.calculatorNote }),
      h('div', { class: 'params' }, rows),
      h('h4', { text: t.calcResults }),
      this.calcOut,
      this.calcError,
      back,
    ]);
    return details;
  }

  scheduleCalc() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.updateCalculator();
    });
  }

  updateCalculator() {
    const res = this.solve(this.calcParams);
    this.calcError.hidden = !res.error;
    if (res.error) {
      this.calcError.textContent = `${this.t().engineError}${errorText(res.error)}`;
      return;
    }
    // At the exercise's own values the results are its answers: kept back until a first check.
    const s = this.saved;
    const atExercise = this.doc.params.every((p) => String(this.calcParams[p.id]) === String(this.params[p.id]));
    if (atExercise && !this.revealed && s.attempts === 0 && !s.solved) {
      const reveal = h('button', { type: 'button', 'data-action': 'reveal', text: this.t().reveal });
      reveal.addEventListener('click', () => {
        this.revealed = true;
        this.updateCalculator();
      });
      this.calcOut.replaceChildren(h('p', { class: 'masked', text: this.t().calcHidden }), reveal);
      return;
    }
    const list = h('dl', { class: 'results' });
    for (const a of this.doc.answers) {
      if (res.display?.[a.id] == null) continue;
      list.append(h('dt', { text: pick(a.label, this.lang) }), h('dd', { 'data-result': a.id, text: this.shown(a, res.display[a.id]) }));
    }
    const extra = extraView(this.id, this.doc, res, this.calcParams, this.lang);
    this.calcOut.replaceChildren(list, ...(extra ? [extra] : []));
  }
}
