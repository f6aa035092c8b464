// An exercise written only in JSON (tests/fixtures/exercises/09.json, answers declared as engine
// requests): the wasm module loads it, solves, checks and draws variants; `commlab exercise lint`
// accepts it and rejects broken copies naming the path in the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLab } from './exercises.mjs';
import { CLI } from './native.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'tests/fixtures/exercises/09.json');
const TEXT = readFileSync(FIXTURE, 'utf8');
const lab = await loadLab();

test('the ninth exercise loads, solves, checks and draws variants (wasm)', () => {
  const loaded = lab.evaluate({ op: 'exercise.load', text: TEXT, file: '09.json' });
  assert.equal(loaded.id, 9, JSON.stringify(loaded));
  assert.deepEqual(lab.evaluate({ op: 'exercise.list' }).exercises.map((e) => e.id), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const s = lab.evaluate({ op: 'exercise.solve', id: 9 });
  assert.equal(s.answers.best, 'recursive_doubling');
  // The declared requests give what the engine gives for the same request.
  const ring = lab.evaluate({ op: 'allreduce', algorithm: 'ring', devices: 8, bytes: 1e6, link: { alpha_s: 5e-6, beta_Bps: 4e10 } });
  assert.equal(s.answers.ring, ring.time_s);
  assert.match(s.statement.en, /\(the figures of InfiniBand NDR\)/);
  for (const part of [s.statement.en, s.statement.zh, s.solution.en, s.solution.zh]) assert.doesNotMatch(part, /\{[a-z_.:]+\}/);
  const right = lab.evaluate({ op: 'exercise.check', id: 9, answers: { ring: s.display.ring, recursive_doubling: '90 us', best: 'recursive doubling' } });
  assert.equal(right.all_correct, true, JSON.stringify(right));
  const wrong = lab.evaluate({ op: 'exercise.check', id: 9, answers: { ring: '50 us', recursive_doubling: 'fast', best: 'ring' } });
  assert.deepEqual(Object.fromEntries(Object.entries(wrong.verdicts).map(([k, v]) => [k, v.verdict])),
    { ring: 'incorrect', recursive_doubling: 'format-error', best: 'incorrect' });
  const keys = new Set();
  for (let seed = 1; seed <= 30; seed++) {
    const v = lab.evaluate({ op: 'exercise.variant', id: 9, seed });
    assert.ok(!v.error, JSON.stringify(v));
    keys.add(JSON.stringify(v.params));
    const vs = lab.evaluate({ op: 'exercise.solve', id: 9, params: v.params });
    const own = lab.evaluate({ op: 'exercise.check', id: 9, params: v.params, answers: vs.display });
    assert.equal(own.all_correct, true, `seed ${seed}: ${JSON.stringify(own)}`);
  }
  assert.ok(keys.size >= 10, `${keys.size} distinct variants`);
  // The same seed draws the same variant natively.
  const native = spawnSync(CLI, ['--exercise', FIXTURE, 'eval', JSON.stringify({ op: 'exercise.variant', id: 9, seed: 7 })], { encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  assert.deepEqual(JSON.parse(native.stdout).params, lab.evaluate({ op: 'exercise.variant', id: 9, seed: 7 }).params);
});

test('a built-in exercise number is refused', () => {
  const doc = JSON.parse(TEXT);
  doc.id = 3;
  const out = lab.evaluate({ op: 'exercise.load', doc, file: '03-copy.json' });
  assert.match(out.error?.message ?? '', /exercises\/03-copy\.json: field 'id': exercise 3 is built in/);
});

// Each broken copy and the problem line it must give (`path: what`).
const BROKEN = [
  ['no Chinese label', (d) => { delete d.answers[1].label.zh; }, /answers\[1\]\.label: needs en and zh/],
  ['unbound placeholder in a request', (d) => { d.compute.values[5].request.devices = '$devcies'; }, /compute\.values\[5\]\.request\.devices: \$devcies is not bound/],
  ['unbound name in arithmetic', (d) => { d.compute.values[2].expr = '2 * ($gpus - 1)'; }, /compute\.values\[2\]: expression "2 \* \(\$gpus - 1\)": \$gpus is not bound/],
  ['an answer not computed', (d) => { delete d.compute.answers.best; }, /compute\.answers\.best: missing/],
  ['a request the engine refuses', (d) => { d.compute.values[6].request.algorithm = 'hypercube'; }, /compute\.values\[6\]\.request: the engine refused it/],
  ['a statement placeholder naming nothing', (d) => { d.statement.zh += '{values.nothing}'; }, /statement\.zh: placeholder \{values\.nothing\} names no param, answer or value/],
  ['a constraint naming no figure', (d) => { d.variant.constraints[0].left = 'answers.rnig'; }, /variant\.constraints\[0\]\.left: "answers\.rnig" names no figure/],
  ['a default outside its range', (d) => { d.params[0].default = 4096; }, /params\[0\]\.default: is outside \[min, max\]/],
];

test('commlab exercise lint: the fixture and the shipped exercises pass, broken copies name the path', () => {
  const ok = spawnSync(CLI, ['exercise', 'lint', FIXTURE, ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => join(ROOT, `exercises/0${n}.json`))], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  const dir = mkdtempSync(join(tmpdir(), 'commlab-lint-'));
  for (const [what, breakIt, expected] of BROKEN) {
    const doc = JSON.parse(TEXT);
    breakIt(doc);
    const file = join(dir, '09.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const out = spawnSync(CLI, ['exercise', 'lint', file], { encoding: 'utf8' });
    assert.equal(out.status, 1, `${what}: lint should fail`);
    assert.match(out.stderr, expected, what);
    // The same check through the request API (wasm).
    const viaApi = lab.evaluate({ op: 'exercise.lint', text: JSON.stringify(doc), file: '09.json' });
    assert.equal(viaApi.ok, false, what);
    assert.match(viaApi.problems.join('\n'), expected, `${what} (wasm)`);
  }
});
