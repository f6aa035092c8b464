// The page's one door to the engine. The engine runs in a Web Worker (engine/worker.js), started
// by start.js while the page parses, so compiling the .wasm and the first requests never block
// the main thread. Every request is asynchronous and never throws: errors come back as values,
// {error: {code, message}}, and nothing stays pending: the start-up and every request are timed
// (START_TIMEOUT_MS, REQUEST_TIMEOUT_MS, LONG_REQUEST_TIMEOUT_MS); a worker that dies or runs
// out of time is started again once, then the engine is loaded here on the main thread instead,
// with the same promises, as it is from file:// (the single-file build) or without workers.
// The engine has no exercise compiled in: whichever side runs it fetches the documents the page
// ships (documents.js) and installs them before it answers.
import { createClient } from './protocol.js';
import { changedOnServer, fetchDocuments, fingerprints, installDocuments } from './documents.js';

// engine/ and exercises/ beside the page (index.html): this module may be bundled anywhere.
const besidePage = (path) => new URL(path, globalThis.location?.href);

let importer = () => import('./commlab.js');
let ownImporter = false;
let engine = null; // the main-thread engine (a promise), only without a worker
let client = null;
let where = null; // 'worker' | 'main thread'
let inlined = null; // the single-file build's documents, instead of fetching them

/** The single-file build hands over the inlined engine module instead of ./commlab.js. */
export function useImporter(f) {
  importer = f;
  ownImporter = true;
}

/** The single-file build hands over the documents it inlined ({files: [{file, text}], problems}). */
export function useDocuments(served) {
  inlined = served;
}

function deferred() {
  const d = {};
  d.promise = new Promise((r) => {
    d.resolve = (v) => {
      d.settled = true;
      r(v);
    };
  });
  return d;
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

// How long the engine may take, on the page's clock (the worker cannot time itself when it hangs).
/** Fetching and compiling the .wasm and fetching the exercise documents, from the worker's start. */
export const START_TIMEOUT_MS = 30000;
/** One ordinary request or batch (a check, a calculator's requests, a chart's sweep). */
export const REQUEST_TIMEOUT_MS = 5000;
/** A new worker answers a ping at once, while its engine still loads: one that does not is hung. */
export const ANSWER_TIMEOUT_MS = 5000;
/** The page says the engine is slow to arrive (naming its file) after this; it keeps waiting. */
export const SLOW_ENGINE_MS = 10000;
/** A batch holding a long request (LONG_OPS: simulations, linting a document) or many requests. */
export const LONG_REQUEST_TIMEOUT_MS = 60000;
/** A worker told to stop loading (START_TIMEOUT_MS ran out) says how that went within this. */
export const STOP_GRACE_MS = 3000;
const LONG_OPS = new Set(['simulate', 'exercise.lint', 'exercise.load', 'exercise.install']);
const LONG_BATCH_REQUESTS = 100;
/** A worker that dies (error, messageerror, a request out of time) is started again this often. */
export const WORKER_RESTARTS = 1;

// Tests shorten the timeouts ({start_ms, request_ms, long_ms, grace_ms}, set before the page loads).
function timeouts() {
  const o = globalThis.COMMLAB_TIMEOUTS_MS ?? {};
  return {
    start_ms: o.start_ms ?? START_TIMEOUT_MS, request_ms: o.request_ms ?? REQUEST_TIMEOUT_MS,
    long_ms: o.long_ms ?? LONG_REQUEST_TIMEOUT_MS, grace_ms: o.grace_ms ?? STOP_GRACE_MS,
    answer_ms: o.answer_ms ?? ANSWER_TIMEOUT_MS, slow_ms: o.slow_ms ?? SLOW_ENGINE_MS,
  };
}

function budgetOf(requests) {
  const t = timeouts();
  const long = requests.length > LONG_BATCH_REQUESTS || requests.some((r) => LONG_OPS.has(r?.op));
  return long ? t.long_ms : t.request_ms;
}

// Failures of the engine itself, not refusals of a request: not_loaded (it could not be loaded,
// error.problem says why), engine_stopped (it stopped before it answered), worker_failed.
const ENGINE_FAILURES = new Set(['worker_failed', 'not_loaded', 'engine_stopped']);

/** True when `error` says the engine could not answer at all (not that it refused a request). */
export function isEngineFailure(error) {
  return ENGINE_FAILURES.has(error?.code);
}

/**
 * Why the engine could not be loaded, from the error that stopped it ({name, message, status}):
 * {kind, status, detail}, kind "missing" (an HTTP error), "timeout" (no answer in time),
 * "invalid" (the .wasm is truncated or not an engine), "network" (no connection) or "start"
 * (it did not start); detail is the technical text (for a details element and the console).
 */
export function loadProblem(cause) {
  const name = String(cause?.name ?? 'Error');
  const message = String(cause?.message ?? cause ?? '');
  const status = Number(cause?.status) || null;
  let kind = 'start';
  if (name === 'TimeoutError' || name === 'AbortError') kind = 'timeout';
  else if (status) kind = 'missing';
  else if (name === 'CompileError' || name === 'LinkError') kind = 'invalid';
  else if (name === 'TypeError' && /fetch|network|load/i.test(message)) kind = 'network';
  return { kind, status, detail: `${name}: ${message}` };
}

const notLoaded = (problem) => ({ code: 'not_loaded', message: `the engine could not be loaded (${problem.detail})`, problem });
const STOPPED = { code: 'engine_stopped', message: 'the engine stopped before it answered' };

let deaths = 0; // of workers: the first WORKER_RESTARTS are restarted, then the main thread answers
let failure = null; // the load problem, once no engine can be had
let worker = null;
let workerUp = false; // its engine said it is up
let startTimers = [];
const started = deferred(); // {ok: true, where} or {ok: false, problem}, once

/**
 * Resolves once an engine is up ({ok: true, where}) or none can be had ({ok: false, problem},
 * problem as loadProblem gives it). A worker that dies later is restarted (or the main thread
 * takes over) without this changing.
 */
export function engineStarted() {
  connect();
  if (!client) loadLocal();
  return started.promise;
}

const failed = deferred();

/**
 * Resolves with the problem (loadProblem's, and timeout_s for a timeout) once no engine can be
 * had, at start or later (a worker that died too often, then a main thread that could not load).
 */
export function engineFailure() {
  return failed.promise;
}

/** The .wasm this page's engine loads, as the page's address names it (engine/worker.js picks alike). */
export function engineFile() {
  return where === 'main thread' || globalThis.commlabBoot?.engine === 'full' ? 'engine/commlab_wasm.wasm' : 'engine/commlab_lean.wasm';
}

/** Resolves with {file, after_s} if the engine is not up SLOW_ENGINE_MS after the page was opened. */
export function engineSlow() {
  connect();
  const t = timeouts();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ file: engineFile(), after_s: t.slow_ms / 1000 }), Math.max(0, t.slow_ms - performance.now()));
    started.promise.then(() => clearTimeout(timer));
  });
}

const onPage = deferred();
const changed = deferred();
let localDocs = null; // the main thread's documents, as fetched
let askedChanged = false;

/**
 * Resolves with the exercise files whose text on the server is not the build's copy the engine
 * installed (engine/documents.js changedOnServer): asked once, when the page is ready.
 */
export function documentsChanged() {
  connect();
  if (!askedChanged) {
    askedChanged = true;
    if (worker) worker.postMessage({ type: 'changed?' });
    else if (localDocs) localDocs.then((d) => changedOnServer(besidePage('exercises/'), d)).then(changed.resolve, () => changed.resolve([]));
    else changed.resolve([]);
  }
  return changed.promise;
}

/** Resolves once workers stopped answering too often and the engine runs on the page instead. */
export function engineMovedToPage() {
  return onPage.promise;
}

function fail(problem) {
  if (failure) return;
  problem = { ...problem, file: engineFile() };
  failure = problem.kind === 'timeout' ? { ...problem, timeout_s: timeouts().start_ms / 1000 } : problem;
  console.error(`commlab: the engine could not be loaded: ${problem.detail}`);
  started.resolve({ ok: false, problem: failure });
  failed.resolve(failure);
}

function spawn() {
  try {
    // The module start.js chose for this page (engine/worker.js): a restarted worker starts alike.
    const url = besidePage('engine/worker.js');
    if (globalThis.commlabBoot?.engine === 'full') url.searchParams.set('engine', 'full');
    if (globalThis.commlabBoot?.documents === 'served') url.searchParams.set('documents', 'served');
    return new Worker(url, { type: 'module' });
  } catch {
    return null;
  }
}

// A SharedWorker's port, dressed as a Worker for attach() and die(): the frames of one course page
// (one storage partition) share one engine. `answered` turns true with its first message: a
// shared worker that errs before (third-party storage blocked: the browser refuses it) is not a
// death, the page takes a worker of its own instead. terminate() can only leave it: the others
// keep it.
function sharedPort(sw) {
  const port = sw.port;
  const w = {
    shared: true, answered: false,
    postMessage: (m) => port.postMessage(m),
    set onmessage(f) { port.onmessage = f ? (e) => { w.answered = true; f(e); } : null; },
    set onerror(f) { sw.onerror = f; },
    set onmessageerror(f) { port.onmessageerror = f; },
    terminate() {
      try { port.postMessage({ type: 'bye' }); } catch { /* closed */ }
      port.close();
    },
  };
  return w;
}

function connect() {
  if (where) return;
  const boot = globalThis.commlabBoot;
  let w = boot?.worker ? (boot.shared ? sharedPort(boot.worker) : boot.worker) : null;
  if (w && boot.failed && boot.shared) {
    // The shared engine was refused (start.js saw it): a worker of this page's own instead,
    // without a word (where third-party storage is blocked, this is every frame's start).
    w.terminate();
    w = null;
  } else if (w && boot.failed) {
    // It died before this door listened (start.js saw it): that was its first death.
    w.terminate();
    w = null;
    deaths += 1;
    console.warn(`commlab: the engine's worker stopped (${boot.failed})`);
    if (deaths > WORKER_RESTARTS) {
      where = 'main thread';
      return;
    }
  }
  if (!w && typeof Worker === 'function' && location.protocol !== 'file:' && !globalThis.COMMLAB_NO_WORKER) w = spawn();
  if (!w) {
    where = 'main thread';
    return;
  }
  attach(w);
}

function attach(w) {
  worker = w;
  workerUp = false;
  where = 'worker';
  const c = createClient((m) => w.postMessage(m), { budget_ms: budgetOf, onStall: () => die(w, 'a request ran out of time') });
  client = c;
  w.onmessage = (e) => {
    if (worker !== w) return;
    const m = e.data;
    if (m?.type === 'documents') served.resolve({ fingerprints: m.fingerprints, problems: m.problems });
    else if (m?.type === 'installed') installed.resolve({ exercises: m.exercises, problems: m.problems });
    else if (m?.type === 'engine') engineReply(w, m);
    else if (m?.type === 'pong') w.ponged = true;
    else if (m?.type === 'changed') changed.resolve(m.files);
    else c.receive(m);
  };
  w.onerror = (e) => {
    e.preventDefault?.();
    die(w, String(e.message || 'an error'));
  };
  w.onmessageerror = () => die(w, 'a message could not be read');
  // What start.js's worker said before this door listened (web/start.js boot.early).
  const boot = globalThis.commlabBoot;
  if (boot && w === boot.worker) for (const data of boot.early?.splice(0) ?? []) w.onmessage({ data });
  w.postMessage({ type: 'painted' }); // the worker compiles from now on (engine/worker.js)
  w.postMessage({ type: 'ping' });
  w.postMessage({ type: 'documents' });
  w.postMessage({ type: 'installed' });
  w.postMessage({ type: 'engine' });
  const t = timeouts();
  startTimers = [setTimeout(() => {
    w.postMessage({ type: 'stop-loading', after_ms: t.start_ms });
    startTimers.push(setTimeout(() => die(w, 'no answer to stop-loading'), t.grace_ms));
  }, t.start_ms), setTimeout(() => {
    // A worker answers a ping at once, even while its engine loads: this one is hung.
    if (!w.ponged) die(w, `no answer within ${t.answer_ms} ms`);
  }, t.answer_ms)];
}

function clearStart() {
  for (const t of startTimers) clearTimeout(t);
  startTimers = [];
}

// The worker says how its start-up went.
function engineReply(w, m) {
  clearStart();
  if (m.ok) {
    workerUp = true;
    client.watch();
    started.resolve({ ok: true, where: 'worker' });
    return;
  }
  const problem = loadProblem(m.cause);
  if (problem.kind !== 'start') {
    // The engine's files could not be had: the main thread would fetch the same.
    fail(problem);
    return;
  }
  die(w, problem.detail);
}

// A worker that died: the next one (or the main thread) answers what was asked of it. A request
// it was running is answered with engine_stopped (it may be what stopped it), and so is a
// check (answered only by the engine it was asked of: the card says so, the student checks
// again); the others are asked again.
function die(w, why) {
  if (worker !== w) return;
  clearStart();
  w.onmessage = null;
  w.onerror = null;
  w.onmessageerror = null;
  w.terminate();
  worker = null;
  const wasUp = workerUp;
  const jobs = client.takeAll();
  client = null;
  // A shared engine the browser refused (it never answered) is no death: this page's own worker
  // answers instead; one that stopped later is, and this page then takes its own too.
  const refused = w.shared && !w.answered;
  if (!refused) {
    deaths += 1;
    console.warn(`commlab: the engine's ${w.shared ? 'shared ' : ''}worker stopped (${why})`);
  }
  const next = deaths <= WORKER_RESTARTS ? spawn() : null;
  if (next) {
    attach(next);
    if (warmWanted) warmUp();
  } else {
    where = 'main thread';
    if (!refused) onPage.resolve();
  }
  jobs.forEach((job, i) => {
    const running = i === 0 && wasUp;
    if (running || job.requests.some((r) => r?.op === 'exercise.check')) job.resolve(job.requests.map(() => ({ error: STOPPED })));
    else askAnywhere(job.requests, job.key).then(job.resolve);
  });
}

/** The engine's worker, or null when the main thread answers (for tests and debugging). */
export function currentWorker() {
  connect();
  return worker;
}

function compileHere(signal) {
  const url = besidePage('engine/commlab_wasm.wasm');
  return fetch(url, { signal }).then((r) => {
    if (!r.ok) {
      const e = new Error(`${url.pathname}: HTTP ${r.status} ${r.statusText}`.trim());
      e.status = r.status;
      throw e;
    }
    return r.arrayBuffer();
  }).then((bytes) => WebAssembly.compile(bytes));
}

function loadLocal() {
  if (engine) return engine;
  const t = timeouts();
  const loading = new AbortController();
  const timer = setTimeout(() => loading.abort(new DOMException(`the engine did not load within ${t.start_ms} ms`, 'TimeoutError')), t.start_ms);
  const copies = globalThis.commlabBoot?.documents === 'served' ? null : besidePage('engine/documents.json');
  const docs = inlined ? Promise.resolve(inlined)
    : fetchDocuments(besidePage('exercises/'), (url) => fetch(url, { signal: loading.signal }), { copies });
  if (!inlined) localDocs = docs;
  docs.then((d) => served.resolve({ fingerprints: fingerprints(d.files), problems: d.problems }));
  // The single-file build's importer brings its own bytes; otherwise the .wasm is fetched here,
  // under the same timeout as the worker's.
  const load = ownImporter ? importer().then((mod) => mod.loadCommlab())
    : Promise.all([importer(), compileHere(loading.signal)]).then(([mod, module]) => new Promise((resolve, reject) => {
      mod.loadCommlab({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), reject);
          return {};
        },
      }).then(resolve, reject);
    }));
  const aborted = new Promise((resolve, reject) => loading.signal.addEventListener('abort', () => reject(loading.signal.reason)));
  engine = Promise.race([Promise.all([load, docs]), aborted]).then(([lab, d]) => {
    installed.resolve(installDocuments(lab, d));
    started.resolve({ ok: true, where: 'main thread' });
    return lab;
  });
  engine.finally(() => clearTimeout(timer)).catch((e) => {
    fail(loadProblem(e));
    docs.then((d) => installed.resolve({ exercises: [], problems: d.problems, failed: String(e?.message ?? e) }));
  });
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
  }, 0)), () => requests.map(() => ({ error: notLoaded(failure) })));
}

/**
 * Sends a batch of requests in one message; resolves to their responses in order, or to null
 * when a later call with the same `key` superseded this one. Never pending forever: an engine
 * that stops or hangs answers {error: {code: 'engine_stopped' | 'not_loaded'}} (isEngineFailure).
 */
export function askMany(requests, key = null) {
  return askAnywhere(requests, key).then((out) => {
    if (out && !out.every((r) => isEngineFailure(r?.error))) answered = true;
    return out;
  });
}

function askAnywhere(requests, key) {
  connect();
  if (failure) return Promise.resolve(requests.map(() => ({ error: notLoaded(failure) })));
  if (!client) return askHere(requests, key);
  // The worker's own not_loaded (its start-up failed) carries the cause: said as the door says it.
  return client.ask(requests, key).then((out) => out && out.map((r) => (r?.error?.code === 'not_loaded' && r.error.cause
    ? { error: notLoaded(failure ?? loadProblem(r.error.cause)) } : r)));
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

let warmWanted = false;

/** Lets the worker warm the engine up while idle (engine/warmup.js); the page calls it once ready. */
export function warmUp() {
  warmWanted = true;
  worker?.postMessage({ type: 'warm-up' });
}

/** Where requests run: 'worker' or 'main thread'. */
export function heavyRunsIn() {
  connect();
  return where;
}

// The door the page uses, for a script of the host page and for tests (web/HOOKS.md): the page's
// own instance, whichever file it was bundled into.
if (globalThis.commlabBoot) globalThis.commlabBoot.door = Object.freeze({ ask, askMany, currentWorker, heavyRunsIn, documentsInstalled, engineStarted });
