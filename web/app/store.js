// Progress in localStorage: language, each exercise's parameters (a variant), typed answers,
// verdicts, attempts, hints shown. Export and import as a JSON file (embedded pages get
// partitioned storage); a corrupt saved state is set aside under another key, never lost.

export const STORAGE_KEY = 'commlab.progress.v1';
const FORMAT = 'commlab-progress';
const VERSION = 1;

function emptyState() {
  return { format: FORMAT, version: VERSION, lang: null, exercises: {} };
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function stringMap(v, allowed) {
  const out = {};
  if (!isPlainObject(v)) return out;
  for (const [k, s] of Object.entries(v)) {
    if (typeof s === 'string' && (!allowed || allowed.includes(s))) out[k] = s;
  }
  return out;
}

function numberMap(v) {
  if (!isPlainObject(v)) return null;
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
    else if (typeof x === 'string') out[k] = x;
  }
  return out;
}

/** Checks a parsed state and returns a clean copy; throws an Error saying what is wrong. */
export function validateState(raw) {
  if (!isPlainObject(raw)) throw new Error('not a JSON object');
  if (raw.format !== FORMAT) throw new Error(`"format" is not "${FORMAT}"`);
  if (raw.version !== VERSION) throw new Error(`"version" ${JSON.stringify(raw.version)} is not ${VERSION}`);
  if (!isPlainObject(raw.exercises)) throw new Error('"exercises" is not an object');
  const state = emptyState();
  if (raw.lang === 'en' || raw.lang === 'zh') state.lang = raw.lang;
  for (const [id, ex] of Object.entries(raw.exercises)) {
    if (!/^[0-9]{1,3}$/.test(id) || !isPlainObject(ex)) throw new Error(`exercise "${id}" is malformed`);
    state.exercises[id] = {
      params: numberMap(ex.params),
      answers: stringMap(ex.answers),
      verdicts: stringMap(ex.verdicts, ['correct', 'incorrect', 'format-error']),
      attempts: Number.isInteger(ex.attempts) && ex.attempts >= 0 ? ex.attempts : 0,
      solved: ex.solved === true,
      hints: Number.isInteger(ex.hints) && ex.hints >= 0 ? ex.hints : 0,
      solutionOpen: ex.solutionOpen === true,
    };
  }
  return state;
}

export class Store {
  constructor(storage) {
    this.storage = storage;
    this.available = true;
    this.setAside = null; // key under which a corrupt state was kept
    this.state = emptyState();
    this.listeners = [];
  }

  /** Reads the saved state; a corrupt one is moved aside and the page starts fresh. */
  load() {
    let text = null;
    try {
      text = this.storage.getItem(STORAGE_KEY);
    } catch {
      this.available = false;
      return;
    }
    if (text == null) return;
    try {
      this.state = validateState(JSON.parse(text));
    } catch {
      const key = `${STORAGE_KEY}.corrupt.${Date.now()}`;
      try {
        this.storage.setItem(key, text);
        this.storage.removeItem(STORAGE_KEY);
        this.setAside = key;
      } catch {
        this.setAside = '(not saved)';
      }
      this.state = emptyState();
    }
  }

  save() {
    if (!this.available) return;
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(this.state));
    } catch {
      this.available = false;
    }
    for (const f of this.listeners) f(this.state);
  }

  onChange(f) {
    this.listeners.push(f);
  }

  /** The saved record of exercise `id`, created empty on first use. */
  exercise(id) {
    const key = String(id);
    if (!this.state.exercises[key]) {
      this.state.exercises[key] = {
        params: null, answers: {}, verdicts: {}, attempts: 0, solved: false, hints: 0, solutionOpen: false,
      };
    }
    return this.state.exercises[key];
  }

  get lang() {
    return this.state.lang;
  }

  set lang(value) {
    this.state.lang = value;
    this.save();
  }

  exportText() {
    return `${JSON.stringify({ ...this.state, exported: new Date().toISOString() }, null, 2)}\n`;
  }

  /** Replaces the state with an exported file's; throws with the reason if it is not one. */
  importText(text) {
    let raw;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new Error(`not JSON (${e.message})`);
    }
    this.state = validateState(raw);
    this.save();
  }

  reset() {
    const lang = this.state.lang;
    this.state = emptyState();
    this.state.lang = lang;
    this.save();
  }
}
