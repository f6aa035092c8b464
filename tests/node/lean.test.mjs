// The engine's lean module (commlab_lean.wasm, wasm/CMakeLists.txt), the exercise page's: every
// op it has answers exactly as the full module does, the ops it leaves out are only those of the
// section views, the measured view and authoring, and it holds every op that an exercise
// document ships with declares (the page's worker moves to the full module for anything else,
// web/engine/worker.js; tests/browser/lean.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';
import { declaredOps } from '../../web/engine/documents.js';
import { ROOT, folderExercises, loadLab } from './exercises.mjs';

const LEAN_WASM = `${ROOT}build-wasm/wasm/commlab_lean.wasm`;
const FULL_WASM = `${ROOT}build-wasm/wasm/commlab_wasm.wasm`;
// What only the other views ask (web/views/*.js, web/app/author.js).
const FULL_ONLY = ['ladder', 'gpudirect', 'nccl.protocols', 'memory', 'sharding_check', 'moe', 'parallelisms',
  'ring_attention_check', 'fit', 'nccl.topology', 'exercise.load', 'exercise.lint'];

async function loadLean() {
  const lab = await loadCommlab({ wasmBinary: readFileSync(LEAN_WASM), exercises: folderExercises() });
  assert.deepEqual(lab.installed.problems, []);
  return lab;
}
const opsOf = (lab) => lab.evaluate({ op: 'ops' }).ops.map((o) => o.op);

test('the lean module lists the full module\'s ops but the other views\' ones, in the same order', async () => {
  const [lean, full] = [opsOf(await loadLean()), opsOf(await loadLab())];
  assert.deepEqual(lean, full.filter((op) => !FULL_ONLY.includes(op)));
  for (const op of FULL_ONLY) assert.ok(full.includes(op), `the full module has ${op}`);
});

test('every op the shipped exercise documents declare is in the lean module', async () => {
  const lean = new Set(opsOf(await loadLean()));
  // The worker's own reading of the documents (web/engine/documents.js).
  const declared = declaredOps(folderExercises());
  assert.ok(declared.size >= 5, `found ${[...declared]}`);
  for (const op of declared) assert.ok(lean.has(op), `${op} is declared by an exercise and not in the lean module`);
});

test('the lean module answers every golden request of its ops exactly as the full one, the others unknown_op', async () => {
  let [lean, full] = [await loadLean(), await loadLab()];
  const requests = readFileSync(`${ROOT}tests/golden/requests.ndjson`, 'utf8').split('\n').filter((l) => l.trim());
  const leanOps = new Set(opsOf(lean));
  let same = 0;
  for (const [i, req] of requests.entries()) {
    let op = null;
    try {
      op = JSON.parse(req).op;
    } catch {} // malformed requests are answered alike
    const a = lean.evaluateText(req);
    if (typeof op !== 'string' || !leanOps.has(op) || op === 'ops') {
      // The worker sends these to the full module: an op the lean one lacks (unknown to it, as
      // to any module), one that is not a text (its message lists the ops), and ops, which
      // lists its own table.
      if (typeof op === 'string' && !leanOps.has(op)) assert.equal(JSON.parse(a).error?.code, 'unknown_op', `request ${i + 1}: ${req}`);
      continue;
    }
    assert.equal(a, full.evaluateText(req), `request ${i + 1}: ${req}`);
    same++;
  }
  assert.ok(same > 100, `${same} requests compared`);
  // Each exercise solved, drawn and checked alike (the page's requests on its cards), on fresh
  // modules (the golden requests install other documents).
  [lean, full] = [await loadLean(), await loadLab()];
  const { exercises } = lean.evaluate({ op: 'exercise.list' });
  assert.equal(exercises.length, 8);
  for (const { id } of exercises) {
    for (const req of [{ op: 'exercise.solve', id }, { op: 'exercise.variant', id, seed: 7 }, { op: 'exercise.get', id }]) {
      assert.equal(lean.evaluateText(JSON.stringify(req)), full.evaluateText(JSON.stringify(req)), JSON.stringify(req));
    }
  }
});

test('the lean module is smaller than the full one (sizes in tests/README.md "Budgets")', () => {
  const [lean, full] = [readFileSync(LEAN_WASM), readFileSync(FULL_WASM)];
  assert.ok(gzipSync(lean, { level: 9 }).length < gzipSync(full, { level: 9 }).length * 0.9,
    `lean ${gzipSync(lean).length} B gzipped, full ${gzipSync(full).length} B`);
});
