// Progress in localStorage, one key per (exercise, variant), so that several pages (embedded
// frames) sharing the origin's storage never overwrite each other's work:
//   commlab.v2.lang                      "en" | "zh" (JSON string)
//   commlab.v2.current.<exercise>        the variant key the exercise shows (JSON string)
//   commlab.v2.progress.<exercise>.<key> that variant's record (params, answers, verdicts, ...)
//   commlab.corrupt.<time>.<key>         a value that was set aside: the text as it was found
// Every write reads its own key, applies the change to what it read and writes that key back
// (read-merge-write); nothing else is rewritten. The store knows no exercise: app/progress.js
// checks records against the engine's documents and builds the export file. Version 1 kept
// everything under one key, commlab.progress.v1; it is read once and moved to the per-key layout.
//
// Saved state is untrusted (another build, another page of the origin, a hand edit): every key
// and value is checked against what this file writes (exercise ids are whole numbers, variant
// keys have the shape card/variant.js gives them, the language is "en" or "zh"); anything else is
// set aside under commlab.corrupt.<time>.<key>, never lost and never used. The maps are
// null-prototype objects, so no key ("__proto__", "constructor") can reach Object.prototype.
//
// No write may lose data. A write the browser refuses (QuotaExceededError: storage full; or
// storage blocked after load) stays pending in memory and is tried again on the next write, on a
// timer with backoff and when the page hears a `storage` event (retry()); onSave listeners hear
// when saving stops and when it works again. An import (replaceAll) writes every new key before
// it removes any old one, and puts back what it wrote when a write fails, so storage is then
// exactly as it was.

export const V1_KEY = 'commlab.progress.v1';
export const CORRUPT = 'commlab.corrupt.';
const PREFIX = 'commlab.v2.';
const LANG_KEY = `${PREFIX}lang`;
const CURRENT = `${PREFIX}current.`;
const PROGRESS = `${PREFIX}progress.`;
export const LANGS = ['en', 'zh'];

const currentKey = (id) => `${CURRENT}${id}`;
const recordKey = (id, key) => `${PROGRESS}${id}.${key}`;

// An exercise id as this page writes it: a whole number (exercises/NN.json's id).
const ID_SHAPE = /^[1-9][0-9]{0,5}$/;
// A variant key as card/variant.js's variantKey writes it: "lecture", or "id=value;..." with
// parameter ids and values shown at 6 significant figures ("4e+10", "2.5e-6") or a choice's id.
const VARIANT_SHAPE = /^(?:lecture|[A-Za-z_][A-Za-z0-9_]{0,63}=[A-Za-z0-9_.+-]{1,64}(?:;[A-Za-z_][A-Za-z0-9_]{0,63}=[A-Za-z0-9_.+-]{1,64}){0,31})$/;

/** True when `id` is an exercise id of the shape this page saves. */
export const isExerciseId = (id) => typeof id === 'string' && ID_SHAPE.test(id);
/** True when `key` has the shape of a variant key (card/variant.js). */
export const isVariantKey = (key) => typeof key === 'string' && key.length <= 2000 && VARIANT_SHAPE.test(key);
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True for the browser's "storage is full" refusal (names and codes differ between engines). */
export function isQuotaError(e) {
  return e?.name === 'QuotaExceededError' || e?.name === 'NS_ERROR_DOM_QUOTA_REACHED' || e?.code === 22 || e?.code === 1014;
}

/** An empty progress record for a variant with `params` (null: the lecture's). */
export function emptyRecord(params = null) {
  return {
    params, answers: {}, verdicts: {}, messages: {}, attempts: 0, solved: false, hints: 0,
    solutionOpen: false, revealed: false,
  };
}

const newEntry = () => ({ current: null, variants: Object.create(null) });

const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 60000;

export class Store {
  /** `storage`: a Storage (localStorage) or anything with its five members. */
  constructor(storage, {
    setTimer = (f, ms) => globalThis.setTimeout(f, ms), clearTimer = (t) => globalThis.clearTimeout(t),
  } = {}) {
    this.storage = storage;
    this.available = true; // false: storage could not be read at all (blocked): memory only
    this.setAsideKeys = []; // keys under which values found unreadable were kept (this load)
    this.lang = null;
    this.legacy = null; // a version-1 state still to be moved to the per-key layout
    this.data = Object.create(null); // exercise id -> {current, variants: {key: record}}
    this.listeners = [];
    this.saveListeners = [];
    this.clean = (id, raw) => raw; // app/progress.js installs the record check
    this.pending = new Map(); // storage key -> text to write (null: to remove), not yet saved
    this.failing = false; // the last try to save was refused
    this.lastError = null;
    this.retryDelay_ms = RETRY_FIRST_MS;
    this.timer = null;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
  }

  /** The key under which the first unreadable value was kept, or null (older callers). */
  get setAside() {
    return this.setAsideKeys[0] ?? null;
  }

  /** Every key in storage (throws when storage is blocked). */
  keys() {
    const keys = [];
    for (let i = 0; i < this.storage.length; i++) keys.push(this.storage.key(i));
    return keys;
  }

  /** Reads the language and every saved record (checked later, with the engine: adopt()). */
  load() {
    let keys;
    let lang;
    try {
      keys = this.keys();
      lang = this.read(LANG_KEY);
    } catch {
      this.available = false;
      return;
    }
    this.lang = null;
    if (lang !== undefined) {
      if (LANGS.includes(lang)) this.lang = lang;
      else this.setAsideKey(LANG_KEY);
    }
    for (const k of keys) {
      if (k.startsWith(CURRENT)) {
        const id = k.slice(CURRENT.length);
        const v = this.read(k);
        if (v === undefined) continue;
        if (isExerciseId(id) && isVariantKey(v)) this.entry(id).current = v;
        else this.setAsideKey(k);
      } else if (k.startsWith(PROGRESS)) {
        const rest = k.slice(PROGRESS.length);
        const dot = rest.indexOf('.');
        const id = dot > 0 ? rest.slice(0, dot) : '';
        const vkey = dot > 0 ? rest.slice(dot + 1) : '';
        const v = this.read(k);
        if (v === undefined) continue;
        if (isExerciseId(id) && isVariantKey(vkey) && isPlainObject(v)) this.entry(id).variants[vkey] = v;
        else this.setAsideKey(k);
      }
    }
    let old;
    try {
      old = this.storage.getItem(V1_KEY);
    } catch {
      old = null;
    }
    if (old != null) {
      try {
        const raw = JSON.parse(old);
        if (raw?.format !== 'commlab-progress' || raw.version !== 1 || !isPlainObject(raw.exercises)) throw new Error();
        this.legacy = raw;
        if (!this.lang && LANGS.includes(raw.lang)) this.lang = raw.lang;
      } catch {
        this.putAside(V1_KEY, old);
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
      this.putAside(key, text);
      return undefined;
    }
  }

  /** Sets aside the value now under `key` (a value refused on load). */
  setAsideKey(key) {
    try {
      const text = this.storage.getItem(key);
      if (text != null) this.putAside(key, text);
    } catch { /* storage gone: nothing to keep, nothing removed */ }
  }

  /**
   * Keeps `text` under commlab.corrupt.<time>.<key> and then removes `key` (`remove` false: a
   * copy only). The original is removed only once its copy is written: when the copy cannot
   * be written, the original stays where it was (and is not used). Returns the copy's key or null.
   */
  putAside(key, text, { remove = true } = {}) {
    let aside = `${CORRUPT}${Date.now()}.${key}`;
    try {
      for (let n = 2; this.storage.getItem(aside) != null && this.storage.getItem(aside) !== text; n++) aside = `${CORRUPT}${Date.now()}-${n}.${key}`;
      this.storage.setItem(aside, text);
    } catch {
      this.setAsideKeys.push(`${key} (not copied: storage refused the copy; the value stays under its own key)`);
      return null;
    }
    this.setAsideKeys.push(aside);
    if (remove) {
      try {
        this.storage.removeItem(key);
      } catch { /* the copy is kept either way */ }
    }
    return aside;
  }

  /** Every set-aside value in storage, {key: text} (what export adds to the file). */
  setAsideRecords() {
    const out = {};
    try {
      for (const k of this.keys().sort()) {
        if (k.startsWith(CORRUPT) || k.startsWith(`${V1_KEY}.corrupt.`)) out[k] = this.storage.getItem(k);
      }
    } catch { /* storage blocked: nothing set aside here */ }
    return out;
  }

  /** Queues `value` (undefined: remove) for `key` and saves everything queued. */
  write(key, value) {
    if (!this.available) return;
    this.pending.set(key, value === undefined ? null : JSON.stringify(value));
    this.flush();
  }

  /**
   * Tries to save every pending write; what the browser refuses stays pending. Tells the save
   * listeners when saving starts failing and when it works again. Returns true when all is saved.
   */
  flush() {
    if (!this.available) return true;
    let error = null;
    for (const [key, text] of [...this.pending]) {
      try {
        if (text === null) this.storage.removeItem(key);
        else this.storage.setItem(key, text);
        this.pending.delete(key);
      } catch (e) {
        error ??= e;
      }
    }
    if (!error) {
      this.stopRetry();
      this.retryDelay_ms = RETRY_FIRST_MS;
      if (this.failing) {
        this.failing = false;
        this.lastError = null;
        this.tellSave();
      }
      return true;
    }
    this.lastError = error;
    if (!this.failing) {
      this.failing = true;
      this.tellSave();
    }
    this.scheduleRetry();
    return false;
  }

  /** Tries the pending writes again now (a `storage` event: another page may have freed space). */
  retry() {
    if (this.pending.size) this.flush();
  }

  scheduleRetry() {
    if (this.timer !== null || !this.setTimer) return;
    const delay = this.retryDelay_ms;
    this.retryDelay_ms = Math.min(delay * 2, RETRY_MAX_MS);
    const setTimer = this.setTimer; // called unbound: window.setTimeout refuses another `this`
    this.timer = setTimer(() => {
      this.timer = null;
      this.retry();
    }, delay);
    this.timer?.unref?.(); // under Node, a pending retry does not keep the process alive
  }

  stopRetry() {
    const clearTimer = this.clearTimer;
    if (this.timer !== null) clearTimer?.(this.timer);
    this.timer = null;
  }

  /** True while some change has not reached storage. */
  unsaved() {
    return this.pending.size > 0;
  }

  /** `f({saved, quota, error})` runs when saving starts failing (saved false) and when it works again. */
  onSave(f) {
    this.saveListeners.push(f);
  }

  tellSave() {
    const state = { saved: !this.failing, quota: isQuotaError(this.lastError), error: this.lastError };
    for (const f of this.saveListeners) f(state);
  }

  entry(id) {
    const k = String(id);
    if (!Object.hasOwn(this.data, k)) this.data[k] = newEntry();
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
    if (!LANGS.includes(lang)) return;
    this.lang = lang;
    this.write(LANG_KEY, lang);
  }

  /** Replaces everything in memory with checked progress (what restore keeps; storage untouched). */
  adopt(exercises, { lang } = {}) {
    this.data = Object.create(null);
    this.fill(this.data, exercises);
    if (lang !== undefined && lang !== null) this.setLang(lang);
    this.notify();
  }

  // Copies checked progress {id: {current, variants}} into the null-prototype map `data`.
  fill(data, exercises) {
    for (const [id, ex] of Object.entries(exercises)) {
      if (!isExerciseId(String(id))) continue;
      const e = newEntry();
      e.current = isVariantKey(ex.current) ? ex.current : null;
      for (const [key, rec] of Object.entries(ex.variants ?? {})) if (isVariantKey(key) && isPlainObject(rec)) e.variants[key] = rec;
      data[String(id)] = e;
    }
    return data;
  }

  /**
   * An import: every exercise's progress becomes `exercises` (checked by app/progress.js) and the
   * language `lang` (null: unchanged). Every new key is written first; only when all are written
   * are the old progress keys that the file does not have removed. A write the browser refuses
   * puts back what was written, so storage stays exactly as it was, and memory is unchanged.
   * Returns {saved: true, bytes} or {saved: false, blocked} (no storage: taken in memory only) or
   * {saved: false, error, quota, bytes, restored} (nothing changed; restored false: the undo
   * itself was refused). `bytes`: the file's size in storage (UTF-16, 2 bytes a character).
   */
  replaceAll(exercises, lang = null) {
    const next = this.fill(Object.create(null), exercises);
    const apply = () => {
      this.data = next;
      if (LANGS.includes(lang)) this.lang = lang;
      this.notify();
    };
    if (!this.available) {
      apply();
      return { saved: false, blocked: true };
    }
    const texts = new Map();
    if (LANGS.includes(lang)) texts.set(LANG_KEY, JSON.stringify(lang));
    for (const [id, e] of Object.entries(next)) {
      if (e.current) texts.set(currentKey(id), JSON.stringify(e.current));
      for (const [key, rec] of Object.entries(e.variants)) texts.set(recordKey(id, key), JSON.stringify(rec));
    }
    let bytes = 0;
    for (const [k, t] of texts) bytes += 2 * (k.length + t.length);
    let stale;
    const before = new Map();
    try {
      stale = this.keys().filter((k) => (k.startsWith(CURRENT) || k.startsWith(PROGRESS)) && !texts.has(k));
      for (const k of [...texts.keys(), ...stale]) before.set(k, this.storage.getItem(k));
    } catch (error) {
      return { saved: false, error, quota: false, bytes, restored: true };
    }
    const written = [];
    const undo = () => {
      let restored = true;
      // First remove what is new (frees space), then put back what was overwritten.
      for (const k of written) {
        if (before.get(k) == null) {
          try { this.storage.removeItem(k); } catch { restored = false; }
        }
      }
      for (const k of written) {
        const old = before.get(k);
        if (old == null) continue;
        try { this.storage.setItem(k, old); } catch { restored = false; }
      }
      return restored;
    };
    try {
      for (const [k, t] of texts) {
        if (before.get(k) === t) continue; // already so: nothing to write or undo
        written.push(k);
        this.storage.setItem(k, t);
      }
    } catch (error) {
      return { saved: false, error, quota: isQuotaError(error), bytes, restored: undo() };
    }
    const removed = [];
    try {
      for (const k of stale) {
        this.storage.removeItem(k);
        removed.push(k);
      }
    } catch (error) {
      let restored = undo();
      for (const k of removed) {
        try { this.storage.setItem(k, before.get(k)); } catch { restored = false; }
      }
      return { saved: false, error, quota: isQuotaError(error), bytes, restored };
    }
    // What was waiting to be saved for progress keys is replaced by the file (the language too,
    // when the file has one).
    for (const k of [...this.pending.keys()]) {
      if (k.startsWith(CURRENT) || k.startsWith(PROGRESS) || (k === LANG_KEY && texts.has(LANG_KEY))) this.pending.delete(k);
    }
    apply();
    this.flush();
    return { saved: true, bytes };
  }

  /** Writes exercise `id`'s records and current variant, each under its own key. */
  persist(id) {
    const e = this.entry(id);
    if (e.current) this.write(currentKey(id), e.current);
    for (const [key, rec] of Object.entries(e.variants)) this.write(recordKey(id, key), rec);
  }

  /**
   * The version-1 state has been moved over: its key goes, but only once everything it held is
   * saved under the new keys (otherwise it stays, and the next load moves it again).
   */
  dropLegacy() {
    if (this.lang) this.write(LANG_KEY, this.lang);
    this.legacy = null;
    if (!this.available || this.unsaved()) return false;
    this.write(V1_KEY, undefined);
    return true;
  }

  /** Keeps a copy of a version-1 record refused on restore (exercise `id`'s entry of the old key). */
  setAsideLegacy(id, raw) {
    if (!this.available) return null;
    return this.putAside(`${V1_KEY}.${id}`, JSON.stringify(raw), { remove: false });
  }

  /** Removes one saved record that failed its check on restore, keeping a copy aside. */
  setAsideRecord(id, key) {
    if (this.available) this.setAsideKey(recordKey(id, key));
    if (Object.hasOwn(this.data, String(id))) delete this.data[String(id)].variants[key];
  }

  /** Copies one saved record aside as it is (some of its fields were refused). Returns success. */
  copyRecordAside(id, key) {
    if (!this.available) return false;
    try {
      const text = this.storage.getItem(recordKey(id, key));
      return text == null || this.putAside(recordKey(id, key), text, { remove: false }) !== null;
    } catch {
      return false;
    }
  }

  /**
   * Writes exercise `id`'s record `rec` under variant `key`; `oldKey` (the key it was read
   * from) is removed once the new one is saved.
   */
  saveRecord(id, key, rec, oldKey = key) {
    this.write(recordKey(id, key), rec);
    if (oldKey !== key && !this.pending.has(recordKey(id, key))) this.write(recordKey(id, oldKey), undefined);
  }

  /** The variant key exercise `id` shows (null: none saved). */
  current(id) {
    const k = String(id);
    return Object.hasOwn(this.data, k) ? this.data[k].current ?? null : null;
  }

  setCurrent(id, key) {
    this.entry(id).current = key;
    this.write(currentKey(id), key);
    this.notify(id);
  }

  /** The saved record of (exercise, variant), or null. */
  record(id, key) {
    const k = String(id);
    if (!Object.hasOwn(this.data, k) || !Object.hasOwn(this.data[k].variants, key)) return null;
    return this.data[k].variants[key];
  }

  /** The variant keys of exercise `id` with a saved record. */
  variants(id) {
    const k = String(id);
    return Object.hasOwn(this.data, k) ? Object.keys(this.data[k].variants) : [];
  }

  /**
   * Changes one record by read-merge-write: reads (exercise, variant)'s key, applies `change` to
   * what it read (another page may have written since) and writes that key alone back. A record
   * still waiting to be saved is newer than what storage holds: it is the base then.
   */
  update(id, key, change, params = null) {
    const k = recordKey(id, key);
    let base = null;
    if (this.available && !this.pending.has(k)) {
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
    if (Object.hasOwn(this.data, String(id))) delete this.data[String(id)].variants[key];
    this.write(recordKey(id, key), undefined);
    this.notify(id);
  }

  // Removes the storage keys `which` selects, and whatever of them was waiting to be saved.
  removeKeys(which) {
    for (const k of [...this.pending.keys()]) if (which(k)) this.pending.delete(k);
    if (!this.available) return;
    try {
      for (const k of this.keys()) if (which(k)) this.storage.removeItem(k);
    } catch { /* blocked since load: memory is reset all the same */ }
    this.flush();
  }

  clearStorage() {
    this.removeKeys((k) => k.startsWith(CURRENT) || k.startsWith(PROGRESS));
  }

  /**
   * Another page of this origin changed `key` (a `storage` event; key null: storage cleared).
   * A record is taken only when it is not older than the one held here, so a late event never
   * brings back an older state. Returns the exercise id touched, '*' for all, or null.
   */
  external(key, newValue) {
    if (key === null) {
      // Cleared elsewhere (a reset): what was waiting here goes too.
      this.pending.clear();
      this.data = Object.create(null);
      this.setAsideKeys = [];
      this.load();
      for (const [id, e] of Object.entries(this.data)) {
        for (const [k, rec] of Object.entries(e.variants)) {
          const clean = this.clean(id, rec);
          if (clean) e.variants[k] = clean;
          else delete e.variants[k];
        }
      }
      this.notify();
      return '*';
    }
    if (typeof key !== 'string' || !key.startsWith(PROGRESS)) return null;
    const rest = key.slice(PROGRESS.length);
    const dot = rest.indexOf('.');
    if (dot <= 0) return null;
    const id = rest.slice(0, dot);
    const vkey = rest.slice(dot + 1);
    if (!isExerciseId(id) || !isVariantKey(vkey)) return null;
    if (this.pending.has(key)) return null; // this page's own change is newer and still to be saved
    if (newValue == null) {
      if (!this.record(id, vkey)) return null;
      delete this.data[id].variants[vkey];
      this.notify(id);
      return id;
    }
    let rec;
    try {
      rec = this.clean(id, JSON.parse(newValue));
    } catch {
      return null;
    }
    if (!isPlainObject(rec)) return null;
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
      if (!isVariantKey(key) || !isPlainObject(rec)) continue;
      const held = Object.hasOwn(e.variants, key) ? e.variants[key] : null;
      if (held && (!rec.updated || (held.updated && held.updated >= rec.updated))) continue;
      e.variants[key] = rec;
      this.write(recordKey(id, key), rec);
      changed = true;
    }
    if (!e.current && isVariantKey(ex.current)) {
      e.current = ex.current;
      this.write(currentKey(id), ex.current);
      changed = true;
    }
    if (changed) this.notify(id);
    return changed;
  }

  /**
   * Starts saving into `storage` (a frame granted storage access later): what it holds is read,
   * what was kept in memory meanwhile is merged in (the newer record of a variant wins) and
   * written. False, and nothing changes, when `storage` cannot be read either.
   */
  attach(storage) {
    const held = this.data;
    const before = { storage: this.storage, lang: this.lang };
    this.storage = storage;
    this.available = true;
    this.data = Object.create(null);
    this.load();
    if (!this.available) {
      this.storage = before.storage;
      this.data = held;
      return false;
    }
    if (!this.lang && before.lang) this.setLang(before.lang);
    for (const [id, e] of Object.entries(held)) this.merge(id, e);
    this.notify();
    return true;
  }

  /** Exercise `id`'s progress as one object {current, variants} (what a host keeps). */
  snapshot(id) {
    const k = String(id);
    const e = Object.hasOwn(this.data, k) ? this.data[k] : null;
    return { current: e?.current ?? null, variants: { ...(e?.variants ?? {}) } };
  }

  /** Erases exercise `id`'s progress alone: its records and shown variant (an embedded reset). */
  resetExercise(id) {
    const k = String(id);
    this.removeKeys((key) => key === currentKey(k) || key.startsWith(`${PROGRESS}${k}.`));
    this.data[k] = newEntry();
    this.notify(k);
  }

  /** Erases every exercise's progress (the language and set-aside values stay). */
  reset() {
    this.clearStorage();
    this.data = Object.create(null);
    this.notify();
  }
}
