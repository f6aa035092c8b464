// An imported progress file written all or nothing: the new keys first, the old ones removed
// only once all are written, and what was written put back when the browser refuses a write.

import { CURRENT, LANGS, LANG_KEY, PROGRESS, currentKey, isQuotaError, recordKey } from './store_keys.js';

/**
 * An import: every exercise's progress becomes `exercises` (checked by app/progress.js) and the
 * language `lang` (null: unchanged). Every new key is written first; only when all are written
 * are the old progress keys that the file does not have removed. A write the browser refuses
 * puts back what was written, so storage stays exactly as it was, and memory is unchanged.
 * Returns {saved: true, bytes} or {saved: false, blocked} (no storage: taken in memory only) or
 * {saved: false, error, quota, bytes, restored} (nothing changed; restored false: the undo
 * itself was refused). `bytes`: the file's size in storage (UTF-16, 2 bytes a character).
 */
export function replaceAllProgress(store, exercises, lang = null) {
  const next = store.fill(Object.create(null), exercises);
  const apply = () => {
    store.data = next;
    if (LANGS.includes(lang)) store.lang = lang;
    store.notify();
  };
  if (!store.available) {
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
    stale = store.keys().filter((k) => (k.startsWith(CURRENT) || k.startsWith(PROGRESS)) && !texts.has(k));
    for (const k of [...texts.keys(), ...stale]) before.set(k, store.storage.getItem(k));
  } catch (error) {
    return { saved: false, error, quota: false, bytes, restored: true };
  }
  const written = [];
  const undo = () => {
    let restored = true;
    // First remove what is new (frees space), then put back what was overwritten.
    for (const k of written) {
      if (before.get(k) == null) {
        try { store.storage.removeItem(k); } catch { restored = false; }
      }
    }
    for (const k of written) {
      const old = before.get(k);
      if (old == null) continue;
      try { store.storage.setItem(k, old); } catch { restored = false; }
    }
    return restored;
  };
  try {
    for (const [k, t] of texts) {
      if (before.get(k) === t) continue; // already so: nothing to write or undo
      written.push(k);
      store.storage.setItem(k, t);
    }
  } catch (error) {
    return { saved: false, error, quota: isQuotaError(error), bytes, restored: undo() };
  }
  const removed = [];
  try {
    for (const k of stale) {
      store.storage.removeItem(k);
      removed.push(k);
    }
  } catch (error) {
    let restored = undo();
    for (const k of removed) {
      try { store.storage.setItem(k, before.get(k)); } catch { restored = false; }
    }
    return { saved: false, error, quota: isQuotaError(error), bytes, restored };
  }
  // What was waiting to be saved for progress keys is replaced by the file (the language too,
  // when the file has one).
  for (const k of [...store.pending.keys()]) {
    if (k.startsWith(CURRENT) || k.startsWith(PROGRESS) || (k === LANG_KEY && texts.has(LANG_KEY))) store.pending.delete(k);
  }
  apply();
  store.flush();
  return { saved: true, bytes };
}
