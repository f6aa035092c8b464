// The same requests through the wasm module and through the native CLI give identical answers
// (core/README.md "One request API, three doors").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadLab } from './exercises.mjs';
import { CLI } from './native.mjs';

const root = new URL('../../', import.meta.url).pathname;
const requests = readFileSync(`${root}tests/golden/requests.ndjson`, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

// The lecture's demo tables live in the native doors only (core/README.md "Layers"): the wasm module
// answers `demo` with unknown_op and lists every other op exactly as the CLI does.
const NATIVE_ONLY = new Set(['demo']);

test('wasm and native CLI answer every golden request identically', async () => {
  const lab = await loadLab();
  const native = execFileSync(CLI, ['eval'], {
    input: requests.join('\n') + '\n',
    maxBuffer: 64 << 20,
  })
    .toString()
    .split('\n')
    .filter((l) => l !== '');
  assert.equal(native.length, requests.length);
  requests.forEach((req, i) => {
    const wasm = lab.evaluateText(req);
    assert.doesNotThrow(() => JSON.parse(wasm));
    let op = null;
    try {
      op = JSON.parse(req).op;
    } catch {} // golden requests include malformed text
    if (NATIVE_ONLY.has(op)) {
      assert.equal(JSON.parse(wasm).error?.code, 'unknown_op', `request ${i + 1}: ${req}`);
      assert.equal(typeof JSON.parse(native[i]), 'object', `request ${i + 1} natively: ${native[i]}`);
    } else if (op === 'ops' && !JSON.parse(native[i]).error) {
      const nativeOps = JSON.parse(native[i]);
      nativeOps.ops = nativeOps.ops.filter((o) => !NATIVE_ONLY.has(o.op));
      assert.deepEqual(JSON.parse(wasm), nativeOps, `request ${i + 1}: ${req}`);
    } else {
      // An unknown op's message lists the valid ops: natively the native-only ones too.
      const expected = native[i].replace(/, demo"\}\}$/, '"}}');
      assert.equal(wasm, expected, `request ${i + 1}: ${req}`);
    }
  });
});

test('the golden requests cover every op three times or more, answers and errors', async () => {
  const lab = await loadLab();
  const ops = lab.evaluate({ op: 'ops' }).ops.map((o) => o.op).concat([...NATIVE_ONLY]);
  const count = new Map(ops.map((op) => [op, { all: 0, errors: 0 }]));
  const native = execFileSync(CLI, ['eval'], { input: requests.join('\n') + '\n', maxBuffer: 64 << 20 })
    .toString().split('\n');
  requests.forEach((req, i) => {
    let op = null;
    try {
      op = JSON.parse(req).op;
    } catch {}
    if (!count.has(op)) return;
    count.get(op).all += 1;
    if (JSON.parse(native[i]).error) count.get(op).errors += 1;
  });
  for (const [op, c] of count) {
    assert.ok(c.all >= 3, `op ${op}: ${c.all} golden requests`);
    assert.ok(c.errors >= 1, `op ${op}: no error path`);
  }
});

// The line-by-line door pairs input and output lines, blank lines included.
test('the CLI answers every NDJSON line, a blank one too', () => {
  const out = execFileSync(CLI, ['eval'], {
    input: '{"op":"links"}\n\n   \n{"op":"nope"}\n',
  }).toString().split('\n');
  assert.equal(out.length, 5); // four answers and the final newline
  assert.ok(!JSON.parse(out[0]).error);
  assert.equal(JSON.parse(out[1]).error.code, 'invalid_json');
  assert.equal(JSON.parse(out[2]).error.code, 'invalid_json');
  assert.equal(JSON.parse(out[3]).error.code, 'unknown_op');
});

test('golden answers hold the lecture figures', async () => {
  const lab = await loadLab();
  const ask = (r) => lab.evaluate(r);
  const ex1 = ask({ op: 'transfer', link: 'nvlink4', bytes: 64000 });
  assert.equal(ex1.n_half_bytes, 720000);
  assert.equal(Number((ex1.time_s * 1e6).toFixed(2)), 2.18);
  const ring = ask({ op: 'allreduce', algorithm: 'ring', devices: 4, bytes: 100e6, link: 'nvlink4' });
  assert.equal(ring.steps, 6);
  assert.equal(ring.bytes_sent_per_device, 150e6);
  assert.equal(Math.round(ring.time_s * 1e6), 429);
});

test('the wasm module does not link the demo tables', () => {
  const wasm = readFileSync(`${root}build-wasm/wasm/commlab_wasm.wasm`);
  // A title of demo 01 and a label of its tables: strings only the demos layer holds.
  for (const text of ['Interconnects and the alpha-beta model', 'The nine links: effective bandwidth']) {
    assert.equal(wasm.includes(Buffer.from(text)), false, `"${text}" is in the .wasm`);
  }
  const native = readFileSync(CLI);
  assert.ok(native.includes(Buffer.from('Interconnects and the alpha-beta model')), 'the CLI has them');
});
