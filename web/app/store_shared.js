// Progress held elsewhere taken into the store: another page of the origin's writes (a
// `storage` event), a host page's copy of an embedded exercise, and storage granted to a frame
// after it started. A record is taken only where it is newer than the one held here.

import { PROGRESS, currentKey, isExerciseId, isPlainObject, isVariantKey, recordKey } from './store_keys.js';

/**
 * Another page of this origin changed `key` (a `storage` event; key null: storage cleared).
 * A record is taken only when it is not older than the one held here, so a late event never
 * brings back an older state. Returns the exercise id touched, '*' for all, or null.
 */
export function takeExternal(store, key, newValue) {
  if (key === null) {
    // Cleared elsewhere (a reset): what was waiting here goes too.
    store.pending.clear();
    store.data = Object.create(null);
    store.setAsideKeys = [];
    store.load();
    for (const [id, e] of Object.entries(store.data)) {
      for (const [k, rec] of Object.entries(e.variants)) {
        const clean = store.clean(id, rec);
        if (clean) e.variants[k] = clean;
        else delete e.variants[k];
      }
    }
    store.notify();
    return '*';
  }
  if (typeof key !== 'string' || !key.startsWith(PROGRESS)) return null;
  const rest = key.slice(PROGRESS.length);
  const dot = rest.indexOf('.');
  if (dot <= 0) return null;
  const id = rest.slice(0, dot);
  const vkey = rest.slice(dot + 1);
  if (!isExerciseId(id) || !isVariantKey(vkey)) return null;
  if (store.pending.has(key)) return null; // store page's own change is newer and still to be saved
  if (newValue == null) {
    if (!store.record(id, vkey)) return null;
    delete store.data[id].variants[vkey];
    store.notify(id);
    return id;
  }
  let rec;
  try {
    rec = store.clean(id, JSON.parse(newValue));
  } catch {
    return null;
  }
  if (!isPlainObject(rec)) return null;
  const held = store.record(id, vkey);
  if (held?.updated && rec.updated && rec.updated < held.updated) return null;
  store.entry(id).variants[vkey] = rec;
  store.notify(id);
  return id;
}

/**
 * Takes exercise `id`'s progress held elsewhere (the host page, for a frame without storage):
 * each variant's record where it is newer than the one held here (or new), written to its own
 * key when storage works; the shown variant when none is chosen here.
 */
export function mergeProgress(store, id, ex) {
  const e = store.entry(id);
  let changed = false;
  for (const [key, rec] of Object.entries(ex.variants ?? {})) {
    if (!isVariantKey(key) || !isPlainObject(rec)) continue;
    const held = Object.hasOwn(e.variants, key) ? e.variants[key] : null;
    if (held && (!rec.updated || (held.updated && held.updated >= rec.updated))) continue;
    e.variants[key] = rec;
    store.write(recordKey(id, key), rec);
    changed = true;
  }
  if (!e.current && isVariantKey(ex.current)) {
    e.current = ex.current;
    store.write(currentKey(id), ex.current);
    changed = true;
  }
  if (changed) store.notify(id);
  return changed;
}

/**
 * Starts saving into `storage` (a frame granted storage access later): what it holds is read,
 * what was kept in memory meanwhile is merged in (the newer record of a variant wins) and
 * written. False, and nothing changes, when `storage` cannot be read either.
 */
export function attachStorage(store, storage) {
  const held = store.data;
  const before = { storage: store.storage, lang: store.lang };
  store.storage = storage;
  store.available = true;
  store.data = Object.create(null);
  store.load();
  if (!store.available) {
    store.storage = before.storage;
    store.data = held;
    return false;
  }
  if (!store.lang && before.lang) store.setLang(before.lang);
  for (const [id, e] of Object.entries(held)) store.merge(id, e);
  store.notify();
  return true;
}
