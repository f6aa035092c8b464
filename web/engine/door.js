// The page's one door to the engine (commlab.js beside it in dist/engine/, the wasm build). Every figure the
// page shows comes through ask(); errors come back as values, {error: {code, message}}.
import { createClient } from './protocol.js';

let engine = null;

/** Loads the wasm engine once. `importer` lets the single-file build hand over the module. */
export async function loadEngine(importer = () => import('./commlab.js')) {
  if (engine) return engine;
  const mod = await importer();
  engine = await mod.loadCommlab();
  return engine;
}

/** Sends one request; never throws (a trap inside the module becomes an error value). */
export function ask(request) {
  if (!engine) return { error: { code: 'not_loaded', message: 'the engine is not loaded' } };
  try {
    const out = engine.evaluate(request);
    if (out === null || typeof out !== 'object') {
      return { error: { code: 'bad_response', message: `unexpected response ${String(out)}` } };
    }
    return out;
  } catch (e) {
    return { error: { code: 'engine_exception', message: String(e?.message ?? e) } };
  }
}

let links = null;

/** The catalogue name of link `id` ("InfiniBand NDR"), or undefined. */
export function linkLabel(id) {
  if (!links) {
    const res = ask({ op: 'links' });
    links = new Map((res.links ?? []).map((l) => [l.id, l.label]));
  }
  return links.get(id);
}

// Heavy requests (simulate on many devices, chart sweeps) go to a Web Worker holding its own
// engine, so typing and dragging never wait on them. From file:// (the single-file build) no
// worker file can load: the same requests then run here, on the main thread, one frame later.
let client = null;
let workerState = 'none'; // 'none' | 'starting' | 'ready' | 'off'

function startWorker() {
  if (workerState !== 'none') return;
  workerState = 'off';
  if (typeof Worker !== 'function' || location.protocol === 'file:' || globalThis.COMMLAB_NO_WORKER) return;
  try {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    client = createClient((m) => worker.postMessage(m));
    worker.onmessage = (e) => { const t0 = performance.now(); client.receive(e.data); performance.measure('commlab-worker-message', { start: t0, end: performance.now() }); };
    worker.onerror = (e) => {
      e.preventDefault?.();
      workerState = 'off';
      client.failAll({ code: 'worker_failed', message: String(e.message ?? 'the worker stopped') });
      client = null;
    };
    workerState = 'ready';
  } catch {
    client = null;
    workerState = 'off';
  }
}

const lastLocal = new Map(); // key -> token, for superseding main-thread fallbacks

/**
 * Sends a batch of requests off the main thread; resolves to their responses in order, or to
 * null when a later call with the same `key` superseded this one.
 */
export function askMany(requests, key = null) {
  startWorker();
  if (client) {
    return client.ask(requests, key).then((out) => {
      // A worker that failed to load its engine: answer here instead.
      if (out && out.length === 1 && requests.length !== 1 && out[0].error) return requests.map(ask);
      return out;
    });
  }
  const token = {};
  if (key != null) lastLocal.set(key, token);
  return new Promise((resolve) => setTimeout(() => {
    if (key != null && lastLocal.get(key) !== token) return resolve(null);
    resolve(requests.map(ask));
  }, 0));
}

/** Where heavy requests run: 'worker' or 'main thread'. */
export function heavyRunsIn() {
  startWorker();
  return client ? 'worker' : 'main thread';
}
