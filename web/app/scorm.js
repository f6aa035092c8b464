// The page as a SCORM 1.2 SCO (web/README.md "Course platforms", web/README.md "Course platforms"): with scorm=1
// (or scorm=student) in its address it finds the LMS's API object, starts the session, keeps the
// progress in cmi.suspend_data (app/suspend.js: at most 4,096 characters), reports
// cmi.core.lesson_status and cmi.core.score.raw as the student works, commits each change (a
// little later) and on leaving suspends and finishes. Without an API the page says so and keeps
// its own storage. Every refusal of the LMS is shown with its error code and words.
// app/main.js calls scormStart, then restore once the documents are there, then report once the
// cards are made.

import { h } from '../util/dom.js';
import { scormStrings } from '../util/i18n.js';
import { parseExerciseState } from './progress.js';
import { SUSPEND_CHARS, correctMask, decodeProgress, encodeProgress, shownEarly, creditOf, summary, SuspendProblem } from './suspend.js';

// SCORM 1.2 RTE's search: up the parent chain (ADL's sample goes 7 levels up), then the opener's.
const MAX_PARENTS = 10;
const COMMIT_DELAY_MS = 500;
const STUDENT_CHARS = 255; // CMIString255

/** The LMS's API in `win` or one of its parents, or null. A window of another origin is passed by. */
function apiIn(win) {
  for (let i = 0; win && i <= MAX_PARENTS; i++) {
    try {
      const api = win.API;
      if (api && typeof api.LMSInitialize === 'function') return api;
    } catch { /* another origin's window: its API cannot be ours */ }
    let up = null;
    try {
      up = win.parent;
    } catch {
      up = null;
    }
    if (!up || up === win) break;
    win = up;
  }
  return null;
}

/** The API as SCORM 1.2 finds it: this window's parent chain, else the opener's. */
export function findApi(win = window) {
  let api = apiIn(win);
  if (!api) {
    try {
      if (win.opener) api = apiIn(win.opener);
    } catch {
      api = null;
    }
  }
  return api;
}

/** An in-memory Storage: the LMS holds the progress, not this browser (a shared lab computer). */
export function memoryStorage() {
  const items = new Map();
  return {
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => (items.has(String(k)) ? items.get(String(k)) : null),
    setItem: (k, v) => { items.set(String(k), String(v)); },
    removeItem: (k) => { items.delete(String(k)); },
    clear: () => items.clear(),
  };
}

// A SCORM 1.2 CMITimespan: HHHH:MM:SS.SS.
function timespan(ms) {
  const s = Math.max(0, ms) / 1000;
  const pad = (n, w) => String(Math.floor(n)).padStart(w, '0');
  return `${pad(s / 3600, 4)}:${pad((s % 3600) / 60, 2)}:${pad(s % 60, 2)}.${pad((s * 100) % 100, 2)}`;
}

const pageLang = () => (document.documentElement.lang?.startsWith('zh') ? 'zh' : 'en');

/**
 * Starts the SCORM session when the address asks for it (`options.scorm`: null, '1' or
 * 'student'); returns null otherwise. The result's `storage` is where the store keeps records
 * (memory while the LMS holds them; null: the page's own), `student` the LMS's student id when
 * each student has a variant of their own (null otherwise).
 */
export function scormStart(options) {
  if (!options.scorm) return null;
  return new ScormSession(options);
}

class ScormSession {
  constructor(options) {
    this.options = options;
    this.state = 'none'; // none | failed | connected | finished
    this.notes = new Map(); // topic -> (t) => words: what the box says besides the score
    this.errors = [];
    this.summary = null;
    this.reporting = false;
    this.timer = null;
    this.started_ms = Date.now();
    this.credits = new Map(); // `${exercise}\n${variant}` -> the answers correct when shown
    this.student = null;
    // true: what the LMS holds could not be read, and nothing is written over it; 'armed': the
    // student chose to start over, and the next change is written (web/README.md "Course platforms").
    this.held = false;
    this.unrecorded = false; // the LMS refused the last score or status written
    this.buildBox();
    this.api = findApi();
    if (!this.api) {
      this.note('api', (t) => t.noApi, 'error');
    } else if (this.call('LMSInitialize', '') !== 'true') {
      this.state = 'failed';
      const why = this.errors.at(-1);
      this.errors = [];
      this.note('api', (t) => t.initFailed(why ? why.say(t) : 'false'), 'error');
    } else {
      this.state = 'connected';
      this.suspended = this.get('cmi.suspend_data') ?? '';
      // ab-initio or resume: the saved progress is taken whenever there is any (README).
      this.entry = this.get('cmi.core.entry') ?? '';
      this.box.dataset.entry = this.entry;
      const status = this.get('cmi.core.lesson_status');
      const id = this.get('cmi.core.student_id') ?? '';
      if (options.scorm === 'student') {
        if (id && id.length <= STUDENT_CHARS && !/[\u0000-\u001f\u007f]/.test(id)) this.student = id;
        else this.note('student', (t) => t.noStudent);
      }
      // Launched: incomplete until every answer is found (web/README.md "Course platforms").
      if (!status || status === 'not attempted' || status === 'browsed') this.set('cmi.core.lesson_status', 'incomplete');
      this.set('cmi.core.score.min', '0');
      this.set('cmi.core.score.max', '100');
      this.note('api', (t) => t.recording);
    }
    this.storage = this.state === 'connected' ? memoryStorage() : null;
    if (this.state === 'connected') {
      this.listen();
      // No link takes the activity's frame elsewhere: that would end the session (styles.css).
      document.body.classList.add('scorm');
    }
    this.render();
  }

  // --- The LMS's API, each refusal kept and shown ---

  /** Calls the API; a refusal ("false", or an error code after a get) is recorded and shown. */
  call(name, ...args) {
    const element = name === 'LMSGetValue' || name === 'LMSSetValue' ? args[0] : '';
    let out;
    try {
      out = String(this.api[name](...args));
    } catch (err) {
      this.fail({ say: (t) => t.threw(name, element, err?.message ?? String(err)), key: `${name} ${element} threw` });
      return 'false';
    }
    const code = this.lastError();
    if (out === 'false' || (code !== '0' && code !== '')) {
      let text = '';
      try {
        text = String(this.api.LMSGetErrorString(code) ?? '');
        const diagnostic = String(this.api.LMSGetDiagnostic?.(code) ?? '');
        if (diagnostic && diagnostic !== text) text = `${text}: ${diagnostic}`;
      } catch { /* the words are optional; the code is said */ }
      this.fail({ say: (t) => t.refused(name, element, code || '?', text), key: `${name} ${element} ${code}` });
    }
    return out;
  }

  lastError() {
    try {
      return String(this.api.LMSGetLastError() ?? '0');
    } catch {
      return '0';
    }
  }

  get(element) {
    const v = this.call('LMSGetValue', element);
    return this.lastError() === '0' ? v : null;
  }

  set(element, value) {
    return this.call('LMSSetValue', element, String(value)) === 'true';
  }

  fail(error) {
    // The same refusal again is said once (a commit per change would repeat it).
    if (this.errors.some((e) => e.key === error.key)) return;
    this.errors.push(error);
    if (this.errors.length > 5) this.errors.shift();
    this.render?.();
  }

  // --- What the page says of the session, in its language (it follows the language button) ---

  buildBox() {
    this.box = h('section', { id: 'lms', role: 'status', dataset: { lms: 'none' } });
    document.querySelector('#notice')?.after(this.box);
    new MutationObserver(() => this.render()).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }

  /** Says `words` ((t) => text) under `topic`, replacing what was said of it (null: nothing). */
  note(topic, words, kind = 'info') {
    if (words) this.notes.set(topic, { words, kind });
    else this.notes.delete(topic);
    this.render();
  }

  render() {
    if (!this.box) return;
    const t = scormStrings(pageLang());
    const lines = [];
    for (const [topic, { words, kind }] of this.notes) {
      if (topic === 'api' && this.summary && this.state === 'connected') continue;
      lines.push(h('p', { dataset: { topic, kind }, text: words(t) }));
    }
    if (this.held === true) {
      const button = h('button', { type: 'button', dataset: { action: 'scorm-start-over' }, text: t.startOver });
      button.addEventListener('click', () => this.startOver());
      lines.push(h('p', {}, [button]));
    }
    if (this.summary && this.state !== 'none' && this.state !== 'failed' && !this.held) {
      const said = this.unrecorded ? t.notRecorded : t.recorded;
      lines.unshift(h('p', { dataset: { topic: 'score', recorded: String(!this.unrecorded) }, text: said(this.summary.score, this.summary.status) }));
    }
    for (const e of this.errors) lines.push(h('p', { dataset: { topic: 'lms-error', kind: 'error' }, text: e.say(t) }));
    this.box.replaceChildren(...lines);
    this.box.dataset.lms = this.state;
    this.box.dataset.kind = this.errors.length || [...this.notes.values()].some((n) => n.kind === 'error') ? 'error' : 'info';
    if (this.summary) {
      this.box.dataset.score = String(this.summary.score);
      this.box.dataset.status = this.summary.status;
    }
  }

  // --- Progress kept in cmi.suspend_data ---

  /**
   * Puts what the LMS kept (cmi.suspend_data) into the store, for the package's exercises `ids`:
   * each exercise's records checked like an imported file (app/progress.js); a bad text or a bad
   * exercise is refused and said, never used. The engine judges the answers again (a grade is
   * earned, never imported).
   */
  async restore(store, docs, ids) {
    if (this.state !== 'connected' || !this.suspended) return;
    const mine = new Map(ids.filter((id) => docs.has(String(id))).map((id) => [String(id), docs.get(String(id))]));
    let read;
    try {
      read = decodeProgress(this.suspended, mine);
    } catch (err) {
      if (!(err instanceof SuspendProblem)) throw err;
      this.hold((t) => t.refusedSaved(t.savedProblem(err.detail)));
      return;
    }
    const refused = read.problems.map((p) => (t) => t.refusedExercise(p.exercise, t.savedProblem(p)));
    const lang = pageLang();
    for (const [id, raw] of Object.entries(read.exercises)) {
      let state;
      try {
        state = await parseExerciseState(mine.get(id), raw, lang);
      } catch (err) {
        refused.push((t) => t.refusedExercise(id, err.message));
        continue;
      }
      // The credit kept for a variant (its key is the one the check computes from the params).
      for (const k of Object.keys(state.variants)) this.credits.set(this.key(id, k), read.credits[id][k] ?? 0);
      store.merge(id, state);
    }
    if (refused.length) this.hold((t) => refused.map((f) => f(t)).join(' '));
  }

  /** What the LMS holds could not all be read: said, and kept from being written over. */
  hold(words) {
    this.held = true;
    this.note('restore', (t) => `${words(t)} ${t.held}`, 'error');
  }

  /** The student chose to start over: the next change is written over what the LMS held. */
  startOver() {
    this.held = 'armed';
    this.note('restore', (t) => t.startingOver);
  }

  // --- Reporting: status, score, suspend_data ---

  /**
   * Reports from now on: the score and status of `cards` (the package's exercises; `expected`
   * of them: fewer means one could not be shown, and the package is never passed), with the
   * address's `reveal` mode. Each change of the store is committed a little later.
   */
  report(store, cards, expected, reveal) {
    if (this.state !== 'connected') return;
    this.store = store;
    this.cards = cards;
    this.complete = cards.length === expected;
    this.reveal = reveal;
    this.reporting = true;
    store.onChange(() => this.changed());
    this.changed();
  }

  key(id, variant) {
    return `${id}\n${variant}`;
  }

  /**
   * Keeps the credit of each variant whose answers have just been shown (the answers correct at
   * that moment) and forgets it where they no longer are (a reset); then reports, a little later.
   */
  changed() {
    if (this.held === 'armed') {
      this.held = false;
      this.note('restore', null);
    }
    for (const card of this.cards) {
      const id = String(card.id);
      const keys = new Set(this.store.variants(id));
      for (const k of keys) {
        const rec = this.store.record(id, k);
        const key = this.key(id, k);
        if (!shownEarly(rec, this.reveal)) this.credits.delete(key);
        else if (!this.credits.has(key)) this.credits.set(key, correctMask(card.doc, rec));
      }
      for (const key of [...this.credits.keys()]) if (key.startsWith(`${id}\n`) && !keys.has(key.slice(id.length + 1))) this.credits.delete(key);
    }
    this.summary = this.measure();
    this.render();
    if (this.held) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.commit(), COMMIT_DELAY_MS);
  }

  /** The records that count for each card: a fixed variant's alone, else every variant. */
  counted(card) {
    const id = String(card.id);
    const keys = card.fixed ? [card.fixed.key] : this.store.variants(id);
    return keys.map((k) => ({ key: k, rec: this.store.record(id, k) })).filter((x) => x.rec);
  }

  measure() {
    return summary(this.cards.map((card) => ({
      doc: card.doc,
      records: this.counted(card).map(({ key, rec }) => ({ rec, credit: this.credits.get(this.key(card.id, key)) })),
    })), this.reveal, this.complete);
  }

  /** The text of cmi.suspend_data; what did not fit is said to the student. */
  suspendText() {
    const { text, dropped } = encodeProgress(this.cards.map((card) => {
      const counted = new Set(this.counted(card).map((x) => x.key));
      return {
        doc: card.doc,
        state: this.store.snapshot(card.id),
        credits: (k) => this.credits.get(this.key(card.id, k)),
        value: (k, rec) => (counted.has(k) ? creditOf(card.doc, rec, this.credits.get(this.key(card.id, k)), this.reveal) : -1),
      };
    }), SUSPEND_CHARS);
    const lost = Object.values(dropped).some(Boolean);
    this.note('fit', lost ? (t) => t.dropped(dropped) : null, 'error');
    return text;
  }

  /** Writes status, score and suspend_data (nothing while what the LMS holds is kept). */
  write() {
    if (!this.reporting || this.held) return false;
    const s = this.measure();
    const taken = [
      this.set('cmi.core.lesson_status', s.status),
      this.set('cmi.core.score.raw', String(s.score)),
      this.set('cmi.suspend_data', this.suspendText()),
    ];
    this.unrecorded = !taken.every(Boolean);
    this.render();
    return true;
  }

  commit() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.state !== 'connected') return;
    if (this.write()) this.call('LMSCommit', '');
  }

  /** Leaving: exit = suspend (the LMS keeps suspend_data for the next launch), commit, finish. */
  finish() {
    if (this.state !== 'connected') return;
    clearTimeout(this.timer);
    this.write();
    this.set('cmi.core.exit', 'suspend');
    this.set('cmi.core.session_time', timespan(Date.now() - this.started_ms));
    this.call('LMSCommit', '');
    this.call('LMSFinish', '');
    this.state = 'finished';
  }

  listen() {
    // A hidden page may never come back (a phone drops it): its work is committed then.
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') this.commit(); });
    window.addEventListener('pagehide', () => this.finish());
    window.addEventListener('beforeunload', () => this.finish());
  }
}
