// What the page remembers of the engine's answers: exercise.solve answers by (id, parameters),
// and the catalogue of links. Asked through the door (engine/door.js).

import { askMany } from './door.js';

// exercise.solve answers, remembered: statement, calculator, solution and the restore checks
// ask the same ones. Only answers that say something about the request are kept.
const TRANSIENT = new Set(['not_loaded', 'worker_failed', 'engine_stopped', 'worker_exception', 'engine_exception', 'bad_response']);
const solved = new Map();
const solveKey = (id, params) => `${id} ${JSON.stringify(params ?? null)}`;

/** The engine's exercise.solve answer for (id, params) if it was asked before, else undefined. */
export function cachedSolve(id, params) {
  return solved.get(solveKey(id, params));
}

export function rememberSolve(id, params, res) {
  if (!res || TRANSIENT.has(res.error?.code)) return;
  const k = solveKey(id, params);
  solved.delete(k);
  solved.set(k, res);
  if (solved.size > 256) solved.delete(solved.keys().next().value);
}

/**
 * Forgets every remembered answer of exercise `id`: a document loaded again under that id
 * (exercise.load, the authoring view) answers anew.
 */
export function forgetExercise(id) {
  const prefix = `${id} `;
  for (const k of [...solved.keys()]) if (k.startsWith(prefix)) solved.delete(k);
}

/** exercise.solve for each {id, params} not yet known, in one batch; resolves to the answers. */
export async function solveAll(list, key = null) {
  const missing = list.filter((x) => cachedSolve(x.id, x.params) === undefined);
  if (missing.length) {
    const out = await askMany(missing.map((x) => ({ op: 'exercise.solve', id: Number(x.id), params: x.params })), key);
    if (!out) return null;
    missing.forEach((x, i) => rememberSolve(x.id, x.params, out[i]));
    // Not remembered (a failure of the engine itself): answered as it came.
    return list.map((x) => cachedSolve(x.id, x.params) ?? out[missing.indexOf(x)]);
  }
  return list.map((x) => cachedSolve(x.id, x.params));
}

let linkList = [];
let links = new Map();

/** Gives the catalogue of links (the `links` op's answer), for linkLabel and knownLinks. */
export function setLinks(list) {
  linkList = list ?? [];
  links = new Map(linkList.map((l) => [l.id, l.label]));
}

/** The catalogue of links given to setLinks (empty before). */
export function knownLinks() {
  return linkList;
}

/** The catalogue name of link `id` ("InfiniBand NDR"), or undefined. */
export function linkLabel(id) {
  return links.get(id);
}
