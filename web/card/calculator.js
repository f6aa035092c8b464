// The live calculator of a card: the exercise's parameters as number fields and sliders, the
// engine's answers for them, and the exercise's extra view. At the exercise's own values the
// results are its answers, so they stay masked until the variant is solved or revealed.

import { pick } from '../util/i18n.js';
import { h } from '../util/dom.js';
import { formatBytes, formatTime, fromDisplay, inputText, shownUnit, toDisplay, unitFactor } from '../util/units.js';
import { extraView } from '../views/extra.js';
import { choiceValue } from './common.js';
import { sameParams } from './variant.js';

/**
 * Slider scale for a numeric parameter: logarithmic over wide positive ranges. The slider's
 * position of `own` (the exercise's value, display unit) gives back exactly `own`, so a slider
 * moved away and back lands on the exercise's value, not on a neighbour of it.
 */
function sliderScale(param, own) {
  const min = toDisplay(param.min, param.unit);
  const max = toDisplay(param.max, param.unit);
  const log = min > 0 && max / min >= 100;
  const steps = param.kind === 'integer' && !log ? Math.max(1, Math.round(max - min)) : 1000;
  return {
    steps,
    toSlider(v) {
      const t = log ? Math.log(v / min) / Math.log(max / min) : (v - min) / (max - min);
      return Math.round(Math.min(1, Math.max(0, t)) * steps);
    },
    fromSlider(s) {
      if (Number.isFinite(own) && s === this.toSlider(own)) return own;
      const t = s / steps;
      const v = log ? min * (max / min) ** t : min + t * (max - min);
      return param.kind === 'integer' ? Math.round(v) : Number(v.toPrecision(3));
    },
  };
}

/**
 * The values a keyboard step lands on (display unit, ascending): the parameter's nice values,
 * 1-2-5 in every decade of its range, and every whole number of a short integer range. Arrow
 * keys move to the next of these instead of one slider position (a thousandth of a log range).
 */
function keySteps(param) {
  const min = toDisplay(param.min, param.unit);
  const max = toDisplay(param.max, param.unit);
  const out = new Set([min, max, ...(param.nice ?? []).map((v) => toDisplay(v, param.unit))]);
  if (param.kind === 'integer' && max - min <= 64) for (let v = Math.ceil(min); v <= max; ++v) out.add(v);
  if (min > 0) {
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); ++e) {
      for (const m of [1, 2, 5]) out.add(Number((m * 10 ** e).toPrecision(6)));
    }
  } else {
    const span = max - min;
    const step = 10 ** Math.floor(Math.log10(span / 10));
    for (let v = min; v <= max + step / 2; v += step) out.add(Number(v.toPrecision(6)));
  }
  return [...out]
    .filter((v) => v >= min && v <= max && (param.kind !== 'integer' || Number.isInteger(v)))
    .sort((a, b) => a - b);
}

/** A parameter's problem as the student typed it, in the page's words, or null. */
function inputProblem(t, param, text, label, unit) {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) return t.paramNotNumber(label);
  const typed = `${text.trim()}${unit ? ` ${unit}` : ''}`;
  const lo = toDisplay(param.min, param.unit);
  const hi = toDisplay(param.max, param.unit);
  // The range in a unit that suits each end ("1 B to 1 TB", not "0.000001 MB to 1000000 MB").
  const end = (base) => {
    const f = unitFactor(param.unit);
    if (['B', 'KB', 'MB', 'GB', 'TB'].includes(param.unit)) return formatBytes(base);
    if (['s', 'ms', 'us', 'ns'].includes(param.unit)) return formatTime(base);
    if (['B/s', 'MB/s', 'GB/s', 'TB/s'].includes(param.unit)) return `${formatBytes(base)}/s`;
    return `${inputText(base / f)}${unit ? ` ${unit}` : ''}`;
  };
  if (v < lo || v > hi) return t.paramOutOfRange(label, typed, end(param.min), end(param.max));
  if (param.kind === 'integer' && !Number.isInteger(v)) return t.paramNotWhole(label, typed);
  return null;
}

export const calculatorMixin = {
  buildCalculator() {
    const t = this.t();
    const lang = this.lang;
    const pre = `ex${this.id}`;
    if (!this.calcParams) this.calcParams = this.params;
    const rows = this.doc.params.map((p) => {
      const fid = `${pre}-p-${p.id}`;
      const label = h('label', { for: fid, text: pick(p.label, lang) });
      this.bad ??= new Map();
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
      if (Array.isArray(p.one_of)) {
        // Only these values exist (bytes per value: 1, 2 or 4): a list, not a slider that offers 3.
        const select = h('select', { id: fid, 'data-param': p.id }, p.one_of.map((v) =>
          h('option', { value: String(v), text: inputText(toDisplay(v, p.unit)) })));
        select.value = String(this.calcParams[p.id]);
        select.addEventListener('change', () => {
          this.calcParams[p.id] = Number(select.value);
          this.scheduleCalc();
        });
        return h('div', { class: 'param' }, [label, h('div', { class: 'field' }, [select, h('span', { class: 'unit', text: unit })])]);
      }
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
      const scale = sliderScale(p, Number(inputText(toDisplay(this.params[p.id], p.unit))));
      const slider = h('input', {
        type: 'range', min: '0', max: String(scale.steps), step: '1', 'data-slider': p.id,
        'aria-label': `${pick(p.label, lang)}${unit ? ` (${unit})` : ''}`,
      });
      slider.value = String(scale.toSlider(toDisplay(this.calcParams[p.id], p.unit)));
      const label_text = pick(p.label, lang);
      // Read as "104 MB", not as the slider's position.
      const speak = (v) => slider.setAttribute('aria-valuetext', `${inputText(v)}${unit ? ` ${unit}` : ''}`);
      speak(toDisplay(this.calcParams[p.id], p.unit));
      const set = (v) => {
        num.value = inputText(v);
        this.bad.delete(p.id);
        num.removeAttribute('aria-invalid');
        this.calcParams[p.id] = fromDisplay(v, p.unit);
        speak(v);
        this.scheduleCalc();
      };
      num.addEventListener('input', () => {
        const problem = inputProblem(this.t(), p, num.value, label_text, unit);
        if (problem) {
          // Nothing is asked of the engine; the stale results go (web/README.md "The exercise card": bad input names the field).
          this.bad.set(p.id, problem);
          num.setAttribute('aria-invalid', 'true');
          this.showInputProblems();
          return;
        }
        const v = Number(num.value);
        this.bad.delete(p.id);
        num.removeAttribute('aria-invalid');
        this.calcParams[p.id] = fromDisplay(v, p.unit);
        slider.value = String(scale.toSlider(v));
        speak(v);
        this.scheduleCalc();
      });
      slider.addEventListener('input', () => set(scale.fromSlider(Number(slider.value))));
      const stops = keySteps(p);
      slider.addEventListener('keydown', (e) => {
        const dir = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[e.key];
        if (!dir) return;
        e.preventDefault();
        const now = toDisplay(this.calcParams[p.id], p.unit);
        const next = dir > 0 ? stops.find((v) => v > now * (1 + 1e-9) + 1e-12) : [...stops].reverse().find((v) => v < now * (1 - 1e-9) - 1e-12);
        if (next === undefined) return;
        slider.value = String(scale.toSlider(next));
        set(next);
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
      this.bad = new Map();
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
  },

  /** Input problems in place of results: the engine is not asked until every field reads. */
  showInputProblems() {
    this.calcOut.replaceChildren();
    this.hideVisual();
    this.calcError.hidden = false;
    this.calcError.textContent = [...this.bad.values()].join(' ');
  },

  scheduleCalc() {
    if (this.bad?.size) return this.showInputProblems();
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.updateCalculator();
    });
  },

  updateCalculator(known = null) {
    const res = known ?? this.solve(this.calcParams);
    if (!res) {
      // Asked for; a newer value typed meanwhile supersedes it (one answer per card at a time).
      const asked = JSON.stringify(this.calcParams);
      this.solveThen({ ...this.calcParams }, (r) => {
        if (JSON.stringify(this.calcParams) === asked) this.updateCalculator(r);
      }, `ex${this.id}-calc`);
      return;
    }
    if (this.bad?.size) return this.showInputProblems();
    this.calcError.hidden = !res.error;
    this.hideVisual();
    if (res.error) {
      // In the page's words, naming the control the engine blames (its message is the engine's
      // English, with codes): the stale results go.
      const field = /params\.([a-z_0-9]+)/.exec(res.error.message ?? '')?.[1];
      const def = this.doc.params.find((q) => q.id === field);
      this.calcError.textContent = this.t().engineRefused(def ? pick(def.label, this.lang) : null);
      this.calcOut.replaceChildren();
      return;
    }
    // At the exercise's own values (compared as displayed) the results are its answers: kept
    // back until this variant is solved or its answers are explicitly revealed. A wrong check
    // does not show them.
    // An embedding host may say when they show: after the first attempt, or never by a reveal
    // (reveal=never: no reveal button and no worked solution; solving still shows them).
    const s = this.saved;
    const atExercise = sameParams(this.doc, this.calcParams, this.params);
    const mode = this.options?.reveal ?? 'after-solve';
    const shown = s.solved || (mode !== 'never' && s.revealed) || (mode === 'after-attempt' && s.attempts > 0);
    this.calcOut.dataset.masked = String(atExercise && !shown);
    if (atExercise && !shown) {
      const parts = [h('p', { class: 'masked', text: this.t().calcHidden })];
      if (mode !== 'never') {
        const reveal = h('button', { type: 'button', 'data-action': 'reveal', text: this.t().reveal });
        reveal.addEventListener('click', () => this.reveal());
        parts.push(reveal);
      }
      this.calcOut.replaceChildren(...parts);
      return;
    }
    const list = h('dl', { class: 'results' });
    for (const a of this.doc.answers) {
      if (res.display?.[a.id] == null) continue;
      list.append(h('dt', { text: pick(a.label, this.lang) }), h('dd', { 'data-result': a.id, text: this.shown(a, res.display[a.id]) }));
    }
    const extra = extraView(this.id, this.doc, res, this.calcParams, this.lang);
    this.calcOut.replaceChildren(list, ...(extra ? [extra] : []));
    if (this.options?.calculator !== false) this.showVisual(res); // calculator=off: no pictures either
  },

  /**
   * The engine's pictures at the calculator's parameters, below it. Their modules (players,
   * charts, the schedule) load with the first one shown, a chunk of their own: a fresh card
   * keeps its results masked, so most page loads never need them. The latest call wins.
   */
  showVisual(res) {
    const asked = {};
    this.visualAsked = asked;
    const box = this.visualBox;
    const params = { ...this.calcParams };
    import('../views/exercise.js').then(({ exerciseVisual }) => {
      if (this.visualAsked !== asked || box !== this.visualBox) return; // hidden since, or redrawn
      if (!box.firstChild) { // the first for this rendering of the card
        this.visual = exerciseVisual(this.id, this.lang);
        if (this.visual) box.append(this.visual.root);
      }
      if (!this.visual) return;
      box.hidden = false;
      this.visual.update(params, res);
    }, (err) => console.error(`commlab: the pictures of exercise ${this.id} could not be loaded: ${err?.message ?? err}`));
  },

  hideVisual() {
    this.visualAsked = null;
    if (this.visualBox) this.visualBox.hidden = true;
  },
};
