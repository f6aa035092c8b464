// The store's key layout and the shapes of what it saves (app/store.js): what every module
// reading or writing saved progress checks keys and values against.

export const V1_KEY = 'commlab.progress.v1';
export const CORRUPT = 'commlab.corrupt.';
export const PREFIX = 'commlab.v2.';
export const LANG_KEY = `${PREFIX}lang`;
export const CURRENT = `${PREFIX}current.`;
export const PROGRESS = `${PREFIX}progress.`;
export const LANGS = ['en', 'zh'];

export const currentKey = (id) => `${CURRENT}${id}`;
export const recordKey = (id, key) => `${PROGRESS}${id}.${key}`;

// An exercise id as this page writes it: a whole number (exercises/NN.json's id).
const ID_SHAPE = /^[1-9][0-9]{0,5}$/;
// A variant key as card/variant.js's variantKey writes it: "lecture", or "id=value;..." with
// parameter ids and values shown at 6 significant figures ("4e+10", "2.5e-6") or a choice's id.
const VARIANT_SHAPE = /^(?:lecture|[A-Za-z_][A-Za-z0-9_]{0,63}=[A-Za-z0-9_.+-]{1,64}(?:;[A-Za-z_][A-Za-z0-9_]{0,63}=[A-Za-z0-9_.+-]{1,64}){0,31})$/;

/** True when `id` is an exercise id of the shape this page saves. */
export const isExerciseId = (id) => typeof id === 'string' && ID_SHAPE.test(id);
/** True when `key` has the shape of a variant key (card/variant.js). */
export const isVariantKey = (key) => typeof key === 'string' && key.length <= 2000 && VARIANT_SHAPE.test(key);
export const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

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

export const newEntry = () => ({ current: null, variants: Object.create(null) });
