// The same requests through the wasm module and through the native CLI give identical answers
// (SPEC: one request API, three doors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';

const root = new URL('../../', import.meta.url).pathname;
const requests = readFileSync(`${root}tests/golden/requests.ndjson`, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

test('wasm and native CLI answer every golden request identically', async () => {
  const lab = await loadCommlab();
  const native = execFileSync(`${root}build/commlab`, ['eval'], {
    input: requests.join('\n') + '\n',
    maxBuffer: 64 << 20,
  })
    .toString()
    .split('\n')
    .filter((l) => l !== '');
  assert.equal(native.length, requests.length);
  requests.forEach((req, i) => {
    const wasm = lab.evaluateText(req);
    assert.equal(wasm, native[i], `request ${i + 1}: ${req}`);
    assert.doesNotThrow(() => JSON.parse(wasm));
  });
});

test('golden answers hold the lecture figures', async () => {
  const lab = await loadCommlab();
  const ask = (r) => lab.evaluate(r);
  const ex1 = ask({ op: 'transfer', link: 'nvlink4', bytes: 64000 });
  assert.equal(ex1.n_half_bytes, 720000);
  assert.equal(Number((ex1.time_s * 1e6).toFixed(2)), 2.18);
  const ring = ask({ op: 'allreduce', algorithm: 'ring', devices: 4, bytes: 100e6, link: 'nvlink4' });
  assert.equal(ring.steps, 6);
  assert.equal(ring.bytes_sent_per_device, 150e6);
  assert.equal(Math.round(ring.time_s * 1e6), 429);
});
