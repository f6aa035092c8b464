// The Web Worker that holds the page's engine (engine/door.js sends it every request), so
// compiling the .wasm and running requests never block the page. start.js creates it while the
// page parses. Its first acts are to fetch and compile the .wasm (streaming) and to fetch the
// exercise documents the page ships (../exercises/index.json and the files it lists: none is
// compiled in), before its own modules are even imported; the engine installs the documents
// before it answers anything. Protocol: protocol.js; the documents: documents.js. The page times
// the start-up (door.js START_TIMEOUT_MS) and says `stop-loading` when it ran out: the fetches
// are then aborted, and the failure is reported like any other.
//
// Two modules of one engine: the lean one (commlab_lean.wasm, about a fifth smaller) answers every
// op that the exercises and Explore ask; the full one (commlab_wasm.wasm) every op. The worker
// starts with the lean one, or with the full one when the page opens on another view
// (`?engine=full`, start.js), and moves to the full one, for good, the first time it is asked an op
// the lean one lacks: that batch and those after it wait for it, which is fetched, compiled and
// given the same exercise documents (the lean one holds no other state: exercise.load is a full
// op). Served documents that declare a request of an op the lean module lacks are installed on
// the full one from the start.
const FULL_URL = new URL('./commlab_wasm.wasm', import.meta.url);
const startsFull = new URLSearchParams(self.location.search).get('engine') === 'full';
const WASM_URL = startsFull ? FULL_URL : new URL('./commlab_lean.wasm', import.meta.url);
const EXERCISES_URL = new URL('../exercises/', import.meta.url);
const INDEX_URL = new URL('index.json', EXERCISES_URL);
// The build's copy of every listed document, one request (engine/documents.js fetchDocuments);
// not after the page was reloaded to use the served files (`?documents=served`, start.js).
const COPIES_URL = new URLSearchParams(self.location.search).get('documents') === 'served' ? null
  : new URL('./documents.json', import.meta.url);
const loading = new AbortController();
const signal = loading.signal;
const early = new Map([INDEX_URL, COPIES_URL].filter(Boolean).map((url) => [String(url), fetch(url, { signal })]));
for (const f of early.values()) f.catch(() => {}); // a failure is a problem fetchDocuments reports
const documents = import('./documents.js').then((d) => d.fetchDocuments(EXERCISES_URL,
  (url) => early.get(String(url)) ?? fetch(url, { signal }), { copies: COPIES_URL }).then((served) => ({ d, served })))
  .catch((err) => ({ d: null, served: { files: [], problems: [{ file: 'index.json', kind: 'unreadable', message: String(err?.message ?? err) }] } }));

// The page's first paint comes first: compiling takes a core, and on a two-core machine the
// page's parse and layout then ran 2-3 times slower (first paint ~90 ms later,
// tests/bench/page_load.mjs). The page's own .wasm is fetched at once and compiled once the page
// says `painted` (start.js after its first frame, engine/door.js when it attaches): `after`.
let painted;
const paintedYet = new Promise((resolve) => { painted = resolve; });

function compileWasm(url = WASM_URL, { signal, after = null } = { signal: loading.signal }) {
  const viaBytes = () => fetch(url, { signal }).then((r) => {
    if (!r.ok) {
      const e = new Error(`${url.pathname}: HTTP ${r.status} ${r.statusText}`.trim());
      e.status = r.status;
      throw e;
    }
    return r.arrayBuffer();
  }).then((bytes) => WebAssembly.compile(bytes));
  const gate = after ?? Promise.resolve();
  if (typeof WebAssembly.compileStreaming !== 'function') return gate.then(viaBytes);
  const response = fetch(url, { signal });
  response.catch(() => {}); // reported by the compile
  // A host that serves .wasm without application/wasm refuses streaming (a TypeError, as an HTTP
  // error is, which the second fetch names): compile the bytes. Bad bytes fail the same twice.
  return gate.then(() => WebAssembly.compileStreaming(response))
    .catch((e) => (e instanceof TypeError ? viaBytes() : Promise.reject(e)));
}

const compiled = compileWasm(WASM_URL, { signal: loading.signal, after: paintedYet });
compiled.catch(() => {}); // reported through `ready` below

// Either module through the one glue (wasm/CMakeLists.txt): the compiled module goes straight
// in, so nothing is fetched or compiled twice.
async function instantiate(loadCommlab, module) {
  let refused;
  const instantiated = new Promise((resolve, reject) => { refused = reject; });
  return Promise.race([instantiated, loadCommlab({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), refused);
      return {};
    },
  })]);
}

// The engine that answers now: {lab, full, lean: the ops the lean module answers}.
const engine = { lab: null, full: startsFull, lean: new Set() };
const ready = Promise.all([import('./commlab.js'), import('./protocol.js'), import('./warmup.js'), compiled, documents])
  .then(async ([{ loadCommlab }, protocol, warmup, module, { d, served }]) => {
    let lab = await instantiate(loadCommlab, module);
    if (!engine.full) {
      // `ops` lists the lean module's own ops; it and exercise.install (which replaces the
      // documents the full one would be given) go to the full one.
      for (const { op } of JSON.parse(lab.evaluateText('{"op":"ops"}')).ops) engine.lean.add(op);
      engine.lean.delete('ops');
      engine.lean.delete('exercise.install');
      // A served document that declares a request of another op (an instructor's, asking
      // `memory`, say) is installed on the full module: the lean one would refuse it.
      if (d && [...d.declaredOps(served.files)].some((op) => !engine.lean.has(op))) {
        try {
          lab = await instantiate(loadCommlab, await compileWasm(FULL_URL, {}));
          engine.full = true;
        } catch {
          // no full module: the lean one installs the others and names the document it refuses
        }
      }
    }
    engine.lab = lab;
    return { protocol, warmup, loadCommlab, installed: d ? d.installDocuments(lab, served) : { exercises: [], problems: served.problems } };
  });

/** True when a batch asks an op that the engine of the moment lacks. */
const needsFull = (requests) => !engine.full && Array.isArray(requests)
  && requests.some((r) => typeof r?.op !== 'string' || !engine.lean.has(r.op));

// The move to the full module, once (a failure is reported to the batches that waited, and the
// next such batch tries again).
let upgrading = null;
function upgrade() {
  upgrading ??= Promise.all([ready, compileWasm(FULL_URL, {}), documents]).then(async ([{ loadCommlab }, module, { d, served }]) => {
    const lab = await instantiate(loadCommlab, module);
    if (d) d.installDocuments(lab, served);
    engine.lab = lab;
    engine.full = true;
  });
  upgrading.catch(() => { upgrading = null; });
  return upgrading;
}

// The page asks what was served (the documents' fingerprints, as soon as they are fetched: it
// takes the build's answers only for the very documents of the build) and what was installed
// (each problem named): door.js.
// What went wrong, for the page to say in its words (door.js loadProblem).
const causeOf = (err) => ({ name: String(err?.name ?? 'Error'), message: String(err?.message ?? err), status: err?.status ?? null });
const engineUp = ready.then(() => ({ ok: true }), (err) => ({ ok: false, cause: causeOf(err) }));
const installed = ready.then((r) => r.installed, (err) => documents.then(({ served }) => ({
  exercises: [], problems: served.problems, failed: String(err?.message ?? err),
})));
function tellDocuments(type, post) {
  if (type === 'documents') {
    documents.then(({ d, served }) => post({ type, fingerprints: d?.fingerprints(served.files) ?? null, problems: served.problems }));
  } else if (type === 'engine') {
    engineUp.then((r) => post({ type, ...r }));
  } else {
    installed.then((r) => post({ type, ...r }));
  }
}

// One page's channel to the engine: the worker's own (a dedicated worker) or one port of a
// SharedWorker (engine/door.js: the frames of one course page may share the engine).
const connections = new Set();
let warm = null; // starts the idle warm-up, once the engine is there
let warmWanted = false;
const idle = () => [...connections].every((c) => c.idle());
function connect(post) {
  let receive = null;
  const early = [];
  const held = []; // messages that wait for the full module, in order
  function route(m) {
    if (!held.length && !(m?.type === 'ask' && needsFull(m.requests))) {
      receive(m);
      return;
    }
    held.push(m);
    if (held.length > 1) return;
    upgrade().then(() => {
      for (const h of held.splice(0)) receive(h);
    }, (err) => {
      // Each request of a batch that waited is answered not_loaded, with the cause (the page
      // names it as a failed start: engine/door.js); a cancel for one is answered by its answer.
      const error = { code: 'not_loaded', message: `the engine's full module could not be loaded (${String(err?.message ?? err)})`, cause: causeOf(err) };
      for (const h of held.splice(0)) {
        if (h?.type === 'ask') post({ type: 'answer', id: h.id ?? null, responses: (Array.isArray(h.requests) ? h.requests : [null]).map(() => ({ error })) });
      }
    });
  }
  const c = {
    idle: () => !receive || !receive.idle || receive.idle(),
    handle(data) {
      // The page says when it is ready: warming up earlier would take a core from its start-up.
      // The page's liveness check (engine/door.js ANSWER_TIMEOUT_MS): answered at once.
      if (data?.type === 'ping') {
        post({ type: 'pong' });
        return;
      }
      if (data?.type === 'painted') {
        painted();
        return;
      }
      if (data?.type === 'warm-up') {
        warmWanted = true;
        warm?.();
        return;
      }
      if (data?.type === 'stop-loading') {
        loading.abort(new DOMException(`the engine did not load within ${data.after_ms} ms`, 'TimeoutError'));
        return;
      }
      if (data?.type === 'bye') {
        connections.delete(c);
        return;
      }
      // Which copies differ from the served files (asked once the page is ready).
      if (data?.type === 'changed?') {
        documents.then(({ d, served }) => (d ? d.changedOnServer(EXERCISES_URL, served) : []))
          .then((files) => post({ type: 'changed', files }), () => post({ type: 'changed', files: [] }));
        return;
      }
      if (data?.type === 'documents' || data?.type === 'installed' || data?.type === 'engine') {
        tellDocuments(data.type, post);
        return;
      }
      if (receive) route(data);
      else early.push(data);
    },
  };
  connections.add(c);
  ready.then(({ protocol, warmup }) => {
    // Text out: the page parses only the answers it still wants (protocol.js).
    receive = protocol.createServer((r) => engine.lab.evaluateText(JSON.stringify(r)), post);
    for (const m of early.splice(0)) route(m);
    warm ??= () => {
      warm = () => {};
      warmup.warmWhenIdle((text) => engine.lab.evaluateText(text), idle);
    };
    if (warmWanted) warm();
  }, (err) => {
    const fail = (m) => post({ type: 'failed', id: m?.id ?? null, error: { code: 'not_loaded', message: String(err?.message ?? err), cause: causeOf(err) } });
    receive = fail;
    for (const m of early.splice(0)) fail(m);
  });
  return c;
}

if (typeof SharedWorkerGlobalScope === 'function' && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (e) => {
    const port = e.ports[0];
    const c = connect((m) => port.postMessage(m));
    port.onmessage = (ev) => c.handle(ev.data);
  };
} else {
  const c = connect((m) => self.postMessage(m));
  self.onmessage = (e) => c.handle(e.data);
  // The fingerprints go out unasked as soon as the documents are fetched: installing them then
  // holds this thread for 40-200 ms, and the page's build answers wait only for the fingerprints
  // (app/engine_start.js answerFirst). start.js keeps them until door.js listens.
  tellDocuments('documents', (m) => self.postMessage(m));
}
