// The page's one door to the engine (commlab.js beside it in dist/engine/, the wasm build). Every figure the
// page shows comes through ask(); errors come back as values, {error: {code, message}}.

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
