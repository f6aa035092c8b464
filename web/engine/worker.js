// The Web Worker that runs heavy requests (simulate on many devices, chart sweeps) with its own
// wasm engine, so the page's main thread never waits on them. Protocol: protocol.js.
import { loadCommlab } from './commlab.js';
import { createServer } from './protocol.js';

const ready = loadCommlab();
let receive = null;
const early = [];
self.onmessage = (e) => {
  if (receive) receive(e.data);
  else early.push(e.data);
};
ready.then((lab) => {
  // Text out: the page parses only the answers it still wants (protocol.js).
  receive = createServer((r) => lab.evaluateText(JSON.stringify(r)), (m) => self.postMessage(m));
  for (const m of early.splice(0)) receive(m);
}, (err) => {
  const fail = (m) => self.postMessage({ type: 'failed', id: m?.id ?? null, error: { code: 'not_loaded', message: String(err?.message ?? err) } });
  receive = fail;
  for (const m of early.splice(0)) fail(m);
});
