// Variants and their identity. A variant is an exercise's parameters (base units); it is known by
// a stable key: "lecture" for the lecture's own values, else "id=value;..." over every parameter
// in the exercise's order, numbers at display precision (6 significant figures). Two parameter
// sets that display the same are the same variant.

export const LECTURE = 'lecture';

/** A parameter value at display precision: numbers to 6 significant figures, choices as text. */
export function shownValue(value) {
  return typeof value === 'number' ? String(Number(value.toPrecision(6))) : String(value);
}

/** True when two parameter values display the same. */
export function sameValue(a, b) {
  return shownValue(a) === shownValue(b);
}

/** The exercise's parameters: `params` over the lecture's defaults (doc.params order). */
export function fullParams(doc, params) {
  const out = {};
  for (const p of doc.params) out[p.id] = params?.[p.id] ?? p.default;
  return out;
}

/** True when `a` and `b` (full parameter sets) display the same for every parameter. */
export function sameParams(doc, a, b) {
  return doc.params.every((p) => sameValue(a[p.id], b[p.id]));
}

/** The variant key of `params` (null or the defaults: "lecture"). */
export function variantKey(doc, params) {
  const full = fullParams(doc, params);
  if (doc.params.every((p) => sameValue(full[p.id], p.default))) return LECTURE;
  return doc.params.map((p) => `${p.id}=${shownValue(full[p.id])}`).join(';');
}

/**
 * The seed of a student's own variant of exercise `exercise` (web/README.md "Course platforms"): a hash of
 * the student's key from the host (embed.js's data-student, SCORM's cmi.core.student_id), the
 * exercise and the class's `salt` (a `seed` given beside the key, else 0), so each student keeps
 * one variant across reloads and frames, and a new salt gives a class new variants.
 * FNV-1a 64 over the UTF-8 bytes, its low 53 bits (a seed JSON carries exactly).
 */
export function studentSeed(student, exercise, salt = 0) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(`${student}\u0000${exercise}\u0000${salt}`)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return Number(hash & 0x1fffffffffffffn);
}
