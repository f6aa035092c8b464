// The answer form of a card: one field per answer, checked by the engine (exercise.check);
// verdicts, their messages and attempts are saved per (exercise, variant).

import { pick } from '../util/i18n.js';
import { ask, engineAnswered, isEngineFailure } from '../engine/door.js';
import { h } from '../util/dom.js';
import { shownUnit } from '../util/units.js';
import { choiceValue } from './common.js';

export const answersMixin = {
  buildAnswers() {
    const t = this.t();
    const lang = this.lang;
    const pre = `ex${this.id}`;
    const saved = this.saved;
    const ruleIds = new Map(); // a rule shared word for word by several fields is shown once
    // How a number is judged (the engine's rule_judging) is said once, under the fields: each
    // distinct text, named by its fields when they differ (exercise 1: at least 1 figure for %).
    const judging = new Map(); // text -> [answer labels]
    for (const a of this.doc.answers) {
      const text = pick(a.rule_judging, lang);
      if (text) judging.set(text, [...(judging.get(text) ?? []), pick(a.label, lang)]);
    }
    const judgingId = `${pre}-judging`;
    const fields = this.doc.answers.map((a) => {
      const fid = `${pre}-a-${a.id}`;
      const unit = shownUnit(a.unit);
      const ruleText = pick(a.rule_what ?? a.rule, lang);
      const repeated = ruleIds.has(ruleText);
      if (!repeated) ruleIds.set(ruleText, `${fid}-rule`);
      const judged = a.rule_judging ? ` ${judgingId}` : '';
      const described = `${unit ? `${fid}-unit ` : ''}${ruleIds.get(ruleText)}${judged} ${fid}-verdict`;
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
        const hadVerdict = !!this.saved.verdicts[a.id];
        this.change((r) => {
          r.answers[a.id] = input.value;
          delete r.verdicts[a.id];
          delete r.messages[a.id];
        });
        input.removeAttribute('data-verdict');
        input.removeAttribute('aria-invalid');
        this.verdictOf(a.id).textContent = '';
        if (hadVerdict) this.renderVariants();
      });
      // A saved verdict shows its message again (saved in both languages, as the engine gave it).
      const verdictText = h('p', {
        class: 'verdict', id: `${fid}-verdict`, 'aria-live': 'polite',
        text: verdict ? (pick(saved.messages?.[a.id], lang) || t.verdict[verdict]) : '',
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
    this.lectureButton = lecture;
    this.summary = h('p', { class: 'summary', 'aria-live': 'polite', 'data-role': 'summary' });
    this.solutionNote = h('p', { class: 'note', id: `${pre}-solution-note`, text: t.solutionReveals, hidden: true });
    this.solutionButton.setAttribute('aria-describedby', this.solutionNote.id);
    this.variantSelect = h('select', { id: `${pre}-variants`, 'data-role': 'variants' });
    this.variantPicker = h('div', { class: 'variant-picker', hidden: true }, [
      h('label', { for: this.variantSelect.id, text: t.yourVariants }), this.variantSelect,
    ]);
    this.variantSelect.addEventListener('change', () => this.pickVariant(this.variantSelect.value));

    const judgingBox = judging.size ? h('details', { class: 'judging', id: judgingId, 'data-role': 'judging' }, [
      h('summary', { text: t.howJudged }),
      ...[...judging].map(([text, labels]) => h('p', { text: judging.size > 1 ? t.judgingNamed(labels.join(t.listSep), text) : text })),
    ]) : null;
    const form = h('form', { class: 'answers', novalidate: true, 'aria-labelledby': `${pre}-answers-title ${pre}-title` }, [
      h('h3', { id: `${pre}-answers-title`, text: t.answers }),
      ...fields,
      judgingBox,
      h('div', { class: 'actions' }, [check, this.hintButton, this.solutionButton, variant, lecture]),
      this.solutionNote,
      this.variantPicker,
      this.summary,
    ]);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.check();
    });
    this.hintButton.addEventListener('click', () => this.nextHint());
    this.solutionButton.addEventListener('click', () => this.toggleSolution());
    variant.addEventListener('click', () => this.newVariant());
    lecture.addEventListener('click', () => this.lectureValues());
    return form;
  },

  inputOf(answerId) {
    return this.form.querySelector(`[data-answer="${answerId}"]`);
  },

  verdictOf(answerId) {
    return this.form.querySelector(`#ex${this.id}-a-${answerId}-verdict`);
  },

  markField(input, verdict) {
    input.dataset.verdict = verdict;
    if (verdict === 'correct') input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  },

  async check(redrawn = false) {
    const t = this.t();
    const answers = {};
    for (const a of this.doc.answers) {
      const text = this.inputOf(a.id).value.trim();
      if (text) answers[a.id] = text;
    }
    if (!Object.keys(answers).length) {
      if (!redrawn) this.summary.textContent = t.nothingTyped; // a reset emptied the fields: nothing to say
      return;
    }
    const form = this.form;
    const variant = this.variant;
    // Before the engine has loaded, the check waits for it and says so (never a verdict).
    const waiting = !engineAnswered();
    if (waiting) {
      this.summary.textContent = t.checkWaits;
      this.summary.dataset.state = 'engine-loading';
    }
    const res = await this.track(ask({ op: 'exercise.check', id: this.id, params: this.params, answers }));
    if (waiting) {
      this.summary.textContent = '';
      delete this.summary.dataset.state;
    }
    // The card moved on to another variant meanwhile: this answer is for what it left. Redrawn
    // on the same variant (a host's restore, another page's write), it checks what it shows now.
    if (variant !== this.variant) return;
    if (form !== this.form) return this.check(true);
    if (isEngineFailure(res.error)) {
      // No verdict: the engine stopped (it is restarted) or cannot be had. The typed answers
      // stay in the fields and in storage (saved as typed), ready to be checked again.
      this.summary.textContent = res.error.code === 'engine_stopped' ? t.checkStopped : t.checkNoEngine;
      this.summary.dataset.state = 'engine-stopped';
      return;
    }
    delete this.summary.dataset.state;
    if (res.error) {
      this.showError(res.error);
      return;
    }
    this.showError(null);
    let judged = false;
    const verdicts = {};
    const messages = {};
    for (const a of this.doc.answers) {
      const input = this.inputOf(a.id);
      const out = this.verdictOf(a.id);
      const v = res.verdicts?.[a.id];
      if (!(a.id in answers) || !v) {
        input.removeAttribute('data-verdict');
        input.removeAttribute('aria-invalid');
        out.textContent = a.id in answers ? '' : t.empty;
        continue;
      }
      this.markField(input, v.verdict);
      verdicts[a.id] = v.verdict;
      if (v.message) messages[a.id] = v.message;
      out.textContent = pick(v.message, this.lang) || t.verdict[v.verdict];
      out.dataset.verdict = v.verdict;
      if (v.verdict !== 'format-error') judged = true;
    }
    const allCorrect = this.doc.answers.every((a) => verdicts[a.id] === 'correct');
    const wasSolved = this.saved.solved;
    const rec = this.change((r) => {
      for (const a of this.doc.answers) {
        if (a.id in answers) r.answers[a.id] = this.inputOf(a.id).value;
        if (verdicts[a.id]) r.verdicts[a.id] = verdicts[a.id];
        else delete r.verdicts[a.id];
        if (messages[a.id]) r.messages[a.id] = messages[a.id];
        else delete r.messages[a.id];
      }
      if (judged) r.attempts += 1;
      // The answers that solved it are kept: a restore judges them again (web/README.md
      // "A grade is earned, never imported"), whatever is typed later.
      if (allCorrect && (!r.solved || !r.solvedWith)) r.solvedWith = answers;
      if (allCorrect) r.solved = true;
    });
    this.summary.textContent = allCorrect ? t.allCorrect : '';
    this.renderStatus();
    this.updateCalculator();
    // What an embedding host hears (web/README.md "Embedding in a course site").
    this.onEvent('checked', { variant: this.variant, verdicts, all_correct: allCorrect, attempts: rec.attempts });
    if (allCorrect && !wasSolved) this.onEvent('solved', { variant: this.variant, attempts: rec.attempts, revealed: !!rec.revealed });
  },
};
