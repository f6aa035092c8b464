// Progress in localStorage, one key per (exercise, variant), so that several pages (embedded
// frames) sharing the origin's storage never overwrite each other's work:
//   commlab.v2.lang                      "en" | "zh"
//   commlab.v2.current.<exercise>        the variant key the exercise shows (JSON string)
//   commlab.v2.progress.<exercise>.<key> that variant's record (params, answers, verdicts, ...)
// Every write reads its own key, applies the change to what it read and writes that key back
// (read-merge-write); nothing else is rewritten. The store knows no exercise: app/progress.js
// checks records against the engine's documents and builds the export file. A record that cannot
// be read is set aside under commlab.corrupt.<time>.<key>, never lost. Version 1 kept everything
// under one key, commlab.progress.v1; it is read once and moved to the per-key layout.

export const V1_KEY = 'commlab.progress.v1';
const PREFIX = 'commlab.v2.';
const LANG_KEY = `${PREFIX}lang`;
const CURRENT = `${PREFIX}current.`;
const PROGRESS = `${PREFIX}progress.`;

const currentKey = (id) => `${CURRENT}${id}`;
const recordKey = (id, key) => `${PROGRESS}${id}.${key}`;

/** An empty progress record for a variant with `params` (null: the lecture's). */
export function emptyRecord(params = null) {
  return {
    params, answers: {}, verdicts: {}, messages: {}, attempts: 0, solved: false, hints: 0,
    solutionOpen: false, revealed: false,
  };
}

export class Store {
  constructor(storage) {
    this.storage = storage;
    this.available = true;
    this.setAside = null; // key under which an unreadable saved state was kept
    this.lang = null;
    this.legacy = null; // a version-1 state still to be moved to the per-key layout
    this.data = {}; // exercise id -> {current, variants: {key: record}}
    this.listeners = [];
    this.clean = (id, raw) => raw; // app/progress.js installs the record check
  }

  /** Reads the language and every saved record (checked later, with the engine: adopt()). */
  load() {
    let keys;
    try {
      keys = [];
      for (let i = 0; i < this.storage.length; i++) keys.push(this.storage.key(i));
      this.lang = this.read(LANG_KEY) ?? null;
    } catch {
      this.available = false;
      return;
    }
    for (const k of keys) {
      if (k.startsWith(CURRENT)) {
        const v = this.read(k);
        if (typeof v === 'string') this.entry(k.slice(CURRENT.length)).current = v;
      } else if (k.startsWith(PROGRESS)) {
        const rest = k.slice(PROGRESS.length);
        const dot = rest.indexOf('.');
        const v = this.read(k);
        if (dot > 0 && v && typeof v === 'object') this.entry(rest.slice(0, dot)).variants[rest.slice(dot + 1)] = v;
      }
    }
    const old = this.storage.getItem(V1_KEY);
    if (old != null) {
      try {
        const raw = JSON.parse(old);
        if (raw?.format !== 'commlab-progress' || raw.version !== 1 || typeof raw.exercises !== 'object') throw new Error();
        this.legacy = raw;
        if (!this.lang && (raw.lang === 'en' || raw.lang === 'zh')) this.lang = raw.lang;
      } catch {
        this.setAside = this.putAside(V1_KEY, old, `${V1_KEY}.corrupt.${Date.now()}`);
      }
    }
  }

  /** Parsed JSON under `key`; an unreadable value is set aside and reads as undefined. */
  read(key) {
    const text = this.storage.getItem(key);
    if (text == null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      this.setAside = this.putAside(key, text);
      return undefined;
    }
  }

  putAside(key, text, aside = `commlab.corrupt.${Date.now()}.${key}`) {
    try {
      this.storage.setItem(aside, text);
      this.storage.removeItem(key);
      return aside;
    } catch {
      return '(not saved)';
    }
  }

  write(key, value) {
    if (!this.available) return;
    try {
      if (value === undefined) this.storage.removeItem(key);
      else this.storage.setItem(key, JSON.stringify(value));
    } catch {
      this.available = false;
    }
  }

  entry(id) {
    const k = String(id);
    this.data[k] ??= { current: null, variants: {} };
    return this.data[k];
  }

  /** Tells the listeners that exercise `id` changed (null: any, or all of them). */
  notify(id = null) {
    for (const f of this.listeners) f(id === null ? null : String(id));
  }

  /** `f(id)` runs after every change; `id` is the exercise changed (null: possibly all). */
  onChange(f) {
    this.listeners.push(f);
  }

  setLang(lang) {
    this.lang = lang;
    this.write(LANG_KEY, lang);
  }

  /** Replaces everything in memory with checked progress; `persist` also rewrites storage (an import). */
  adopt(exercises, { persist = false, lang } = {}) {
    if (persist) this.clearStorage();
    this.data = {};
    for (const [id, ex] of Object.entries(exercises)) {
      const e = this.entry(id);
      e.current = ex.current ?? null;
      for (const [key, rec] of Object.entries(ex.variants ?? {})) e.variants[key] = rec;
      if (persist) this.persist(id);
    }
    if (lang !== undefined && lang !== null) this.setLang(lang);
    this.notify();
  }

  /** Writes exercise `id`'s records and current variant, each under its own key. */
  persist(id) {
    const e = this.entry(id);
    if (e.current) this.write(currentKey(id), e.current);
    for (const [key, rec] of Object.entries(e.variants)) this.write(recordKey(id, key), rec);
  }

  /** The version-1 state has been moved over: its key goes. */
  dropLegacy() {
    if (this.lang) this.write(LANG_KEY, this.lang);
    this.legacy = null;
    this.write(V1_KEY, undefined);
  }

  /** Removes one saved record that failed its check on restore, keeping a copy aside. */
  setAsideRecord(id, key) {
    const k = recordKey(id, key);
    try {
      const text = this.storage.getItem(k);
      if (text != null) this.putAside(k, text);
    } catch { /* storage gone: nothing to keep */ }
    delete this.entry(id).variants[key];
  }

  /** The variant key exercise `id` shows (null: none saved). */
  current(id) {
    return this.data[String(id)]?.current ?? null;
  }

  setCurrent(id, key) {
    this.entry(id).current = key;
    this.write(currentKey(id), key);
    this.notify(id);
  }

  /** The saved record of (exercise, variant), or null. */
  record(id, key) {
    return this.data[String(id)]?.variants[key] ?? null;
  }

  /** The variant keys of exercise `id` with a saved record. */
  variants(id) {
    return Object.keys(this.data[String(id)]?.variants ?? {});
  }

  /**
   * Changes one record by read-merge-write: reads (exercise, variant)'s key, applies `change` to
   * what it read (another page may have written since) and writes that key alone back.
   */
  update(id, key, change, params = null) {
    const k = recordKey(id, key);
    let base = null;
    if (this.available) {
      try {
        const text = this.storage.getItem(k);
        if (text != null) base = this.clean(String(id), JSON.parse(text));
      } catch {
        base = null;
      }
    }
    const rec = base ?? this.record(id, key) ?? emptyRecord(params);
    rec.created ??= new Date().toISOString();
    change(rec);
    rec.updated = new Date().toISOString();
    this.entry(id).variants[key] = rec;
    this.write(k, rec);
    this.notify(id);
    return rec;
  }

  /** Forgets one record (a variant left with no progress). */
  remove(id, key) {
    delete this.entry(id).variants[key];
    this.write(recordKey(id, key), undefined);
    this.notify(id);
  }

  clearStorage() {
    if (!this.available) return;
    try {
      const keys = [];
      for (let i = 0; i < this.storage.length; i++) keys.push(this.storage.key(i));
      for (const k of keys) if (k.startsWith(CURRENT) || k.startsWith(PROGRESS)) this.storage.removeItem(k);
    } catch {
      this.available = false;
    }
  }

  /**
   * Another page of this origin changed `key` (a `storage` event; key null: storage cleared).
   * A record is taken only when it is not older than the one held here, so a late event never
   * brings back an older state. Returns the exercise id touched, '*' for all, or null.
   */
  external(key, newValue) {
    if (key === null) {
      this.data = {};
      this.load();
      this.notify();
      return '*';
    }
    if (!key.startsWith(PROGRESS)) return null;
    const rest = key.slice(PROGRESS.length);
    const dot = rest.indexOf('.');
    if (dot <= 0) return null;
    const id = rest.slice(0, dot);
    const vkey = rest.slice(dot + 1);
    if (newValue == null) {
      delete this.entry(id).variants[vkey];
      this.notify(id);
      return id;
    }
    let rec;
    try {
      rec = this.clean(id, JSON.parse(newValue));
    } catch {
      return null;
    }
    if (!rec || typeof rec !== 'object') return null;
    const held = this.record(id, vkey);
    if (held?.updated && rec.updated && rec.updated < held.updated) return null;
    this.entry(id).variants[vkey] = rec;
    this.notify(id);
    return id;
  }

  /**
   * Takes exercise `id`'s progress held elsewhere (the host page, for a frame without storage):
   * each variant's record where it is newer than the one held here (or new), written to its own
   * key when storage works; the shown variant when none is chosen here.
   */
  merge(id, ex) {
    const e = this.entry(id);
    let changed = false;
    for (const [key, rec] of Object.entries(ex.variants ?? {})) {
      const held = e.variants[key];
      if (held && (!rec.updated || (held.updated && held.updated >= rec.updated))) continue;
      e.variants[key] = rec;
      this.write(recordKey(id, key), rec);
      changed = true;
    }
    if (!e.current && ex.current) {
      e.current = ex.current;
      this.write(currentKey(id), ex.current);
      changed = true;
    }
    if (changed) this.notify(id);
    return changed;
  }

  /** Exercise `id`'s progress as one object {current, variants} (what a host keeps). */
  snapshot(id) {
    const e = this.data[String(id)];
    return { current: e?.current ?? null, variants: { ...(e?.variants ?? {}) } };
  }

  /** Erases exercise `id`'s progress alone: its records and shown variant (an embedded reset). */
  resetExercise(id) {
    const k = String(id);
    if (this.available) {
      try {
        const keys = [];
        for (let i = 0; i < this.storage.length; i++) keys.push(this.storage.key(i));
        for (const key of keys) if (key === currentKey(k) || key.startsWith(`${PROGRESS}${k}.`)) this.storage.removeItem(key);
      } catch {
        this.available = false;
      }
    }
    this.data[k] = { current: null, variants: {} };
    this.notify(k);
  }

  /** Erases every exercise's progress (the language stays). */
  reset() {
    this.clearStorage();
    this.data = {};
    this.notify();
  }
}
