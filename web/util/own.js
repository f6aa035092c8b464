// Lookups by a value from outside the page (the address, a parent's message, storage): own
// properties only, so "constructor", "toString" or "__proto__" is never found on
// Object.prototype, and tables of allowed names have no prototype at all.

/** A frozen lookup table with no prototype: only `entries`' own keys are found in it. */
export function table(entries) {
  return Object.freeze(Object.assign(Object.create(null), entries));
}

/** `obj[key]` when `key` is a string and an own property of `obj`, else undefined. */
export function own(obj, key) {
  return typeof key === 'string' && obj != null && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** True for an object made of fields (a message, a saved state): not null, not an array. */
export function isRecord(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A value as it appears in a message about it: quoted, and cut short when long. */
export function shownValue(v) {
  const text = String(v);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
