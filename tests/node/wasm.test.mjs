// The wasm module under Node: bad input of every kind comes back as an error value and the
// module keeps answering (no abort, no exception into JS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommlabError } from '../../build-wasm/wasm/commlab.js';
import { loadLab } from './exercises.mjs';

const lab = await loadLab();
const alive = () =>
  assert.equal(lab.evaluate({ op: 'transfer', link: 'nvlink4', bytes: 720000 }).bandwidth_fraction, 0.5);

test('malformed text never aborts the module', () => {
  const junk = [
    '', ' ', '{', '}', '[', 'null', 'true', '0', '-', '"', '{"op":', '{"op":"transfer",}',
    'NaN', '{"op":"transfer","link":"nvlink4","bytes":NaN}', '{"op":"transfer","bytes":Infinity}',
    '{"op":"transfer","link":"nvlink4","bytes":1e999}', '{"op":"transfer","link":"nvlink4","bytes":-1e999}',
    '\u0000', '\uFFFF', '{"op":"\uD800"}', '\xff\xfe', '[' .repeat(10000), '{"a":'.repeat(5000),
    JSON.stringify({ op: 'transfer', link: 'x'.repeat(1 << 20), bytes: 1 }),
  ];
  for (const text of junk) {
    const out = JSON.parse(lab.evaluateText(text));
    assert.ok(out.error, `expected an error for ${JSON.stringify(text).slice(0, 40)}`);
    assert.equal(typeof out.error.code, 'string');
    assert.equal(typeof out.error.message, 'string');
    alive();
  }
});

test('random byte strings never abort the module', () => {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pieces = ['{', '}', '[', ']', '"op"', ':', ',', '"transfer"', '"allreduce"', '"bytes"', '1e308',
    '-0', '"link"', '"nvlink4"', '{"alpha_s":0,"beta_Bps":0}', 'null', 'true', '"devices"', '1e-320'];
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const n = 1 + Math.floor(rand() * 12);
    for (let j = 0; j < n; j++) s += pieces[Math.floor(rand() * pieces.length)];
    const out = JSON.parse(lab.evaluateText(s));
    assert.ok(typeof out === 'object' && out !== null);
  }
  alive();
});

test('every field of every op is validated, naming field, value and rule', () => {
  const cases = [
    [{ op: 'transfer', link: 'nvlink4', bytes: -5 }, 'out_of_range', ["'bytes'", '-5', '> 0']],
    [{ op: 'transfer', link: 'nvlink4', bytes: 'lots' }, 'invalid_type', ["'bytes'", 'lots', 'unit']],
    [{ op: 'transfer', link: 'warp', bytes: 1 }, 'unknown_value', ["'link'", 'warp', 'nvlink4', 'ib_ndr']],
    [{ op: 'transfer', link: { alpha_s: -1, beta_Bps: 1e9 }, bytes: 1 }, 'out_of_range', ["'link.alpha_s'", '-1']],
    [{ op: 'allreduce', algorithm: 'ring', devices: 0, bytes: 1, link: 'nvlink4' }, 'out_of_range', ["'devices'", '0', 'integer from 1']],
    [{ op: 'allreduce', algorithm: 'ring', devices: 3.5, bytes: 1, link: 'nvlink4' }, 'not_integer', ["'devices'", '3.5']],
    [{ op: 'allreduce', algorithm: 'magic', devices: 3, bytes: 1, link: 'nvlink4' }, 'unknown_value', ["'algorithm'", 'magic', 'rabenseifner']],
    [{ op: 'nccl', devices: 8, bytes: 1, link: 'nvlink4', algorithms: ['sharp'] }, 'unknown_value', ["'algorithms'", 'sharp']],
    [{ op: 'nccl', devices: 8, bytes: 1, link: 'pcie5', algorithms: ['nvls'] }, 'invalid_request', ["'algorithms'", 'nvls', 'NVSwitch', 'allowed here']],
    [{ op: 'transfer', link: 'nvlink4', bytes: 1, bites: 2 }, 'unknown_field', ["'bites'", 'allowed fields']],
  ];
  for (const [req, code, words] of cases) {
    const out = lab.evaluate(req);
    assert.equal(out.error?.code, code, JSON.stringify(req));
    for (const w of words) assert.ok(out.error.message.includes(w), `${out.error.message} should name ${w}`);
  }
  alive();
});

test('typed calls throw CommlabError with the engine code', () => {
  assert.equal(lab.transfer('nvlink4', 64000).n_half_bytes, 720000);
  assert.throws(() => lab.transfer('nvlink4', -1), (e) => e instanceof CommlabError && e.code === 'out_of_range');
  assert.equal(lab.allreduce('recursive_doubling', 16, 256e3, 'ib_ndr').steps, 4);
  assert.equal(lab.hierarchical(4, 8, 1e9, 'nvlink4', 'ib_ndr').algorithm, 'hierarchical');
  assert.equal(lab.links().length, 9);
});

// Valid JSON nested 100,000 deep threw RangeError into JS from about 5,000 levels, leaking about
// 2 MB a throw; after some 480 the module was out of memory for ordinary requests.
test('deep nesting is an error, leaks nothing and leaves the module whole', () => {
  const deep = (n, inner = '1') => '['.repeat(n) + inner + ']'.repeat(n);
  const texts = [
    `{"op":"transfer","link":"nvlink4","bytes":${deep(100000)}}`,
    deep(100000),
    `{"op":"transfer","link":"nvlink4","bytes":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}`,
  ];
  for (let i = 0; i < 600; i++) {
    const out = JSON.parse(lab.evaluateText(texts[i % texts.length]));
    assert.equal(out.error?.code, 'too_large');
  }
  const sim = lab.evaluate({ op: 'simulate', algorithm: 'ring', devices: 64, bytes: 1 << 20, mode: 'data' });
  assert.equal(sim.error, undefined, JSON.stringify(sim.error));
  assert.equal(sim.verified, true);
  alive();
});

// Within the work budget and the memory cap in wasm (256 MB): refused with the size that fits.
test('heavy requests are refused before they run, naming what fits', () => {
  const ring = lab.evaluate({ op: 'simulate', algorithm: 'ring', devices: 4096, bytes: 65536, mode: 'data' });
  assert.equal(ring.error?.code, 'too_large');
  assert.match(ring.error.message, /the largest that fits is \d+ devices/);
  const a2a = lab.evaluate({ op: 'simulate', collective: 'alltoall', algorithm: 'direct', devices: 2048, bytes: 16384, mode: 'data' });
  assert.equal(a2a.error?.code, 'too_large');
  const acc = lab.evaluate({ op: 'simulate', collective: 'alltoall', algorithm: 'direct', devices: 2048, bytes: 16384, mode: 'accounting', trace_limit: 0 });
  assert.ok(!acc.error || acc.error.code === 'too_large', JSON.stringify(acc.error));
  alive();
});
