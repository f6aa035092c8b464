// The worker protocol (web/engine/protocol.js) over a plain in-process channel with the real wasm
// engine: requests answered in order, superseded asks cancelled before they run, errors as values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLab } from './exercises.mjs';
import { createClient, createServer } from '../../web/engine/protocol.js';

const lab = await loadLab();

/** A client and a server joined by asynchronous message passing, like postMessage. */
function channel(evaluate = (r) => lab.evaluate(r)) {
  const ran = [];
  const seen = [];
  let client = null;
  const receive = createServer((r) => {
    ran.push(r);
    return evaluate(r);
  }, (m) => setTimeout(() => {
    seen.push(m);
    client.receive(structuredClone(m));
  }, 0));
  client = createClient((m) => setTimeout(() => receive(structuredClone(m)), 0));
  return { client, ran, seen };
}

test('a batch is answered in order, as the engine answers each request', async () => {
  const { client } = channel();
  const reqs = [
    { op: 'transfer', link: 'nvlink4', bytes: 720000 },
    { op: 'allreduce', algorithm: 'ring', devices: 4, bytes: 1e8, link: 'nvlink4' },
    { op: 'simulate', algorithm: 'ring', devices: 1024, bytes: 1e6, mode: 'accounting', trace_limit: 0 },
  ];
  const out = await client.ask(reqs);
  assert.deepEqual(out, reqs.map((r) => lab.evaluate(r)));
  assert.equal(out[0].bandwidth_fraction, 0.5);
  assert.equal(out[2].steps, 2 * (1024 - 1));
  assert.equal(client.pending, 0);
});

test('a later ask with the same key cancels the earlier one before it runs', async () => {
  const { client, ran, seen } = channel();
  const first = client.ask([{ op: 'transfer', link: 'nvlink4', bytes: 1 }], 'slider');
  const second = client.ask([{ op: 'transfer', link: 'nvlink4', bytes: 2 }], 'slider');
  const other = client.ask([{ op: 'transfer', link: 'nvlink4', bytes: 3 }], 'chart');
  assert.equal(await first, null);
  const [b] = await second;
  const [c] = await other;
  assert.equal(b.time_s, lab.evaluate({ op: 'transfer', link: 'nvlink4', bytes: 2 }).time_s);
  assert.equal(c.time_s, lab.evaluate({ op: 'transfer', link: 'nvlink4', bytes: 3 }).time_s);
  assert.deepEqual(ran.map((r) => r.bytes), [2, 3], 'the superseded request never ran');
  assert.ok(seen.some((m) => m.type === 'cancelled' && m.id === 1));
  assert.equal(client.pending, 0);
});

test('engine errors come back as values; a thrown evaluator becomes a failed answer', async () => {
  const { client } = channel();
  const [bad, good] = await client.ask([{ op: 'simulate', algorithm: 'warp', devices: 4, bytes: 8 }, { op: 'links' }]);
  assert.equal(bad.error.code, 'unknown_value');
  assert.equal(good.links.length, 9);
  const broken = channel(() => { throw new Error('boom'); });
  const out = await broken.client.ask([{ op: 'links' }]);
  assert.equal(out[0].error.code, 'worker_exception');
  assert.match(out[0].error.message, /boom/);
});

test('malformed messages are refused, and the worker keeps answering', async () => {
  const posted = [];
  const receive = createServer((r) => lab.evaluate(r), (m) => posted.push(m), (f) => f());
  receive({ type: 'nonsense', id: 7 });
  receive(null);
  receive({ type: 'ask', id: 8, requests: 'not an array' });
  receive({ type: 'ask', id: 9, requests: [{ op: 'transfer', link: 'nvlink4', bytes: 720000 }] });
  assert.equal(posted[0].type, 'failed');
  assert.equal(posted[0].error.code, 'bad_message');
  assert.equal(posted[1].type, 'failed');
  assert.deepEqual([posted[2].type, posted[2].id], ['failed', 8]);
  assert.deepEqual([posted[3].type, posted[3].responses[0].bandwidth_fraction], ['answer', 0.5]);
});

test('failAll settles every pending ask with the error (a worker that died)', async () => {
  const client = createClient(() => {});
  const a = client.ask([{ op: 'links' }], 'x');
  const b = client.ask([{ op: 'links' }]);
  client.failAll({ code: 'worker_failed', message: 'gone' });
  assert.equal((await a)[0].error.code, 'worker_failed');
  assert.equal((await b)[0].error.code, 'worker_failed');
});

test('the watchdog times the oldest pending ask only, from when it became the oldest, once watching', async () => {
  const posted = [];
  const stalls = [];
  const client = createClient((m) => posted.push(m), { budget_ms: (reqs) => (reqs[0].op === 'simulate' ? 80 : 30), onStall: (job) => stalls.push(job) });
  const slow = client.ask([{ op: 'simulate' }]);
  const quick = client.ask([{ op: 'links' }]);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(stalls, [], 'nothing is timed before the engine is up');
  client.watch();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(stalls, [], 'the oldest has 80 ms; the one behind it is not timed yet');
  client.receive({ type: 'answer', id: posted[0].id, responses: [{ steps: 1 }] });
  assert.deepEqual(await slow, [{ steps: 1 }]);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(stalls.map((j) => j.requests[0].op), ['links'], 'the next one out of its 30 ms');
  // The caller takes what is pending (the worker died): oldest first, unanswered, none timed.
  const jobs = client.takeAll();
  assert.deepEqual(jobs.map((j) => j.requests[0].op), ['links']);
  assert.equal(client.pending, 0);
  jobs[0].resolve([{ error: { code: 'engine_stopped' } }]);
  assert.equal((await quick)[0].error.code, 'engine_stopped');
});

test('answers sent as the engine\'s JSON text arrive as objects', async () => {
  const { client } = channel((r) => lab.evaluateText(JSON.stringify(r)));
  const req = { op: 'allreduce', algorithm: 'auto', devices: 64, bytes: 1e6, link: 'ib_ndr' };
  const [out] = await client.ask([req]);
  assert.deepEqual(out, lab.evaluate(req));
});

test('the worker warms up only while idle, one request a task, and all of them in the end', async () => {
  const { WARMUP_REQUESTS, warmWhenIdle } = await import('../../web/engine/warmup.js');
  let busy = true;
  const ran = [];
  warmWhenIdle((text) => {
    assert.equal(busy, false, 'never while a request of the page waits');
    ran.push(JSON.parse(lab.evaluateText(text)));
  }, () => !busy, { delay_ms: 5 });
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(ran.length, 0);
  busy = false;
  while (ran.length < WARMUP_REQUESTS.length) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ran.every((res) => !res.error), 'every warm-up request is one the engine answers');
});

test('a server says when it is idle: nothing queued, nothing about to run', async () => {
  let deferred = null;
  const receive = createServer((r) => lab.evaluate(r), () => {}, (f) => { deferred = f; });
  assert.equal(receive.idle(), true);
  receive({ type: 'ask', id: 1, requests: [{ op: 'links' }] });
  assert.equal(receive.idle(), false);
  deferred();
  assert.equal(receive.idle(), true);
});
