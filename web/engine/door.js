// The page's one door to the engine. The engine runs in a Web Worker (engine/worker.js), started
// by start.js while the page parses, so compiling the .wasm and the first requests never block
// the main thread. Every request is asynchronous and never throws: errors come back as values,
// {error: {code, message}}. From file:// (the single-file build), or when the worker cannot run
// its engine, the engine is loaded here on the main thread instead, with the same promises.
// The engine has no exercise compiled in: whichever side runs it fetches the documents the page
// ships (documents.js) and installs them before it answers.
import { createClient } from './protocol.js';
import { fetchDocuments, fingerprints, installDocuments } from './documents.js';

let importer = () => import('./commlab.js');
let engine = null; // the main-thread engine (a promise), only without a worker
let client = null;
let where = null; // 'worker' | 'main thread'
let inlined = null; // the single-file build's documents, instead of fetching them

/** The single-file build hands over the inlined engine module instead of ./commlab.js. */
export function useImporter(f) {
  importer = f;
}

/** The single-file build hands over the documents it inlined ({files: [{file, text}], problems}). */
export function useDocuments(served) {
  inlined = served;
}

function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}
const served = deferred(); // {fingerprints: {file: hash}, problems} as soon as fetched
const installed = deferred(); // {exercises, problems} once the engine has installed them

/**
 * What the page was served, as soon as the documents are fetched (before the engine is up):
 * {fingerprints: {"03.json": hash}, problems: [{file, kind, message}]}; fingerprints null when
 * unknown. The page takes the build's answers (engine/first.json) only for the build's very
 * documents.
 */
export function documentsServed() {
  connect();
  if (!client) loadLocal();
  return served.promise;
}

/**
 * Resolves once the engine has installed the documents: {exercises: [{id, title, file}],
 * problems: [{file, kind, message}]}, kind "missing", "unreadable", "index" or "invalid".
 */
export function documentsInstalled() {
  connect();
  if (!client) loadLocal();
  return installed.promise;
}

// Failures of the worker itself, after which the main thread answers instead.
const WORKER_FAILURES = new Set(['worker_failed', 'not_loaded']);

/** True when `error` says the engine could not be loaded at all (not that it refused a request). */
export function isEngineFailure(error) {
  return WORKER_FAILURES.has(error?.code);
}

function connect() {
  if (where) return;
  where = 'main thread';
  const boot = globalThis.commlabBoot;
  let worker = boot?.failed ? null : boot?.worker ?? null;
  if (!worker && !boot?.failed && typeof Worker === 'function' && location.protocol !== 'file:' && !globalThis.COMMLAB_NO_WORKER) {
    try {
      worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    } catch {
      worker = null;
    }
  }
  if (!worker) return;
  where = 'worker';
  workerPort = worker;
  client = createClient((m) => worker.postMessage(m));
  worker.onmessage = (e) => {
    if (e.data?.type === 'documents') served.resolve({ fingerprints: e.data.fingerprints, problems: e.data.problems });
    else if (e.data?.type === 'installed') installed.resolve({ exercises: e.data.exercises, problems: e.data.problems });
    else client?.receive(e.data);
  };
  worker.postMessage({ type: 'documents' });
  worker.postMessage({ type: 'installed' });
  worker.onerror = (e) => {
    e.preventDefault?.();
    const c = client;
    client = null;
    where = 'main thread';
    c?.failAll({ code: 'worker_failed', message: String(e.message ?? 'the worker stopped') });
  };
}

function loadLocal() {
  if (engine) return engine;
  const docs = inlined ? Promise.resolve(inlined)
    : fetchDocuments(new URL('../exercises/', import.meta.url));
  docs.then((d) => served.resolve({ fingerprints: fingerprints(d.files), problems: d.problems }));
  engine = Promise.all([importer().then((mod) => mod.loadCommlab()), docs]).then(([lab, d]) => {
    installed.resolve(installDocuments(lab, d));
    return lab;
  });
  engine.catch((e) => docs.then((d) => installed.resolve({ exercises: [], problems: d.problems, failed: String(e?.message ?? e) })));
  return engine;
}

function evaluateHere(lab, request) {
  try {
    const out = lab.evaluate(request);
    if (out === null || typeof out !== 'object') {
      return { error: { code: 'bad_response', message: `unexpected response ${String(out)}` } };
    }
    return out;
  } catch (e) {
    return { error: { code: 'engine_exception', message: String(e?.message ?? e) } };
  }
}

const lastLocal = new Map(); // key -> token, for superseding main-thread requests

function askHere(requests, key) {
  const token = {};
  if (key != null) lastLocal.set(key, token);
  return loadLocal().then((lab) => new Promise((resolve) => setTimeout(() => {
    if (key != null && lastLocal.get(key) !== token) return resolve(null);
    resolve(requests.map((r) => evaluateHere(lab, r)));
  }, 0)), (e) => requests.map(() => ({ error: { code: 'not_loaded', message: `the engine could not be loaded: ${e?.message ?? e}` } })));
}

/**
 * Sends a batch of requests in one message; resolves to their responses in order, or to null
 * when a later call with the same `key` superseded this one.
 */
export function askMany(requests, key = null) {
  return askAnywhere(requests, key).then((out) => {
    if (out && !out.every((r) => isEngineFailure(r?.error))) answered = true;
    return out;
  });
}

function askAnywhere(requests, key) {
  connect();
  if (!client) return askHere(requests, key);
  return client.ask(requests, key).then((out) => {
    // The worker could not start or load its engine: answer here instead, from now on.
    if (out && out.length === 1 && isEngineFailure(out[0]?.error)) {
      client = null;
      where = 'main thread';
      return askHere(requests, key);
    }
    return out;
  });
}

let answered = false;

/** True once the engine has answered a request (it is loaded and running). */
export function engineAnswered() {
  return answered;
}

/** One request; resolves to its response (or null when superseded by a later `key`). */
export function ask(request, key = null) {
  return askMany([request], key).then((out) => (out ? out[0] : null));
}

let workerPort = null; // the worker, for messages outside the request protocol

/** Lets the worker warm the engine up while idle (engine/warmup.js); the page calls it once ready. */
export function warmUp() {
  workerPort?.postMessage({ type: 'warm-up' });
}

/** Where requests run: 'worker' or 'main thread'. */
export function heavyRunsIn() {
  connect();
  return where;
}

// exercise.solve answers, remembered: statement, calculator, solution and the restore checks
// ask the same ones. Only answers that say something about the request are kept.
const TRANSIENT = new Set(['not_loaded', 'worker_failed', 'worker_exception', 'engine_exception', 'bad_response']);
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
