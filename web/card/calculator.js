// The live calculator of a card: the exercise's parameters as number fields and sliders, the
// engine's answers for them, and the exercise's extra view. At the exercise's own values the
// results are its answers, so they stay masked until the variant is solved or revealed.

import { pick } from '../util/i18n.js';
import { h } from '../util/dom.js';
import { fromDisplay, inputText, shownUnit, toDisplay } from '../util/units.js';
import { extraView } from '../views/extra.js';
import { choiceValue, errorText } from './common.js';
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

export const calculatorMixin = {
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
      const scale = sliderScale(p, Number(inputText(toDisplay(this.params[p.id], p.unit))));
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
  },

  scheduleCalc() {
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
    this.calcError.hidden = !res.error;
    if (this.visualBox) this.visualBox.hidden = true;
    if (res.error) {
      this.calcError.textContent = `${this.t().engineError}${errorText(res.error)}`;
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
    if (this.visual && this.options?.calculator !== false) {  // calculator=off: no pictures either
      this.visualBox.hidden = false;
      this.visual.update({ ...this.calcParams });
    }
  },
};
