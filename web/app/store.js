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

import { CORRUPT, CURRENT, currentKey, emptyRecord, isExerciseId, isPlainObject, isQuotaError, isVariantKey, LANG_KEY, LANGS, newEntry, PROGRESS, recordKey, V1_KEY } from './store_keys.js';
import { replaceAllProgress } from './store_import.js';
import { attachStorage, mergeProgress, takeExternal } from './store_shared.js';

// The key layout's names and checks, for the modules that have them from the store.
export { CORRUPT, LANGS, V1_KEY, emptyRecord, isExerciseId, isQuotaError, isVariantKey };

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

  /** An import, all or nothing: app/store_import.js. */
  replaceAll(exercises, lang = null) {
    return replaceAllProgress(this, exercises, lang);
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

  /** Another page of this origin changed `key` (a `storage` event): app/store_shared.js. */
  external(key, newValue) {
    return takeExternal(this, key, newValue);
  }

  /** Takes exercise `id`'s progress held elsewhere (a host page): app/store_shared.js. */
  merge(id, ex) {
    return mergeProgress(this, id, ex);
  }

  /** Starts saving into `storage` granted later: app/store_shared.js. */
  attach(storage) {
    return attachStorage(this, storage);
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
