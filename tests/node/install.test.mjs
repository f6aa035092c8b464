// The wasm module has no exercise compiled in: a host installs the documents it ships
// (loadCommlab({exercises}) or lab.installExercises, the request exercise.install), as the page's
// worker does with dist/exercises/. The answers are the CLI's, problems included; the ninth and
// tenth, written only as JSON, load, solve, check and draw variants without a C++ build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';
import { ROOT, folderExercises } from './exercises.mjs';
import { CLI } from './native.mjs';

const fixture = (name) => ({ file: name, text: readFileSync(join(ROOT, 'tests/fixtures/exercises', name), 'utf8') });
const ten = [...folderExercises(), fixture('09.json'), fixture('10.json')];

function native(request) {
  return JSON.parse(execFileSync(CLI, ['eval'], { input: `${JSON.stringify(request)}\n`, maxBuffer: 64 << 20 }).toString());
}

test('without documents no exercise is installed, and every exercise request says so', async () => {
  const lab = await loadCommlab();
  for (const r of [{ op: 'exercise.list' }, { op: 'exercise.solve', id: 1 }, { op: 'exercise.variant', id: 3, seed: 1 }]) {
    const out = lab.evaluate(r);
    assert.equal(out.error?.code, 'not_installed', JSON.stringify(out));
    assert.match(out.error.message, /no exercise is installed: the host gives the documents first/);
  }
  // The rest of the API does not need them.
  assert.equal(lab.evaluate({ op: 'transfer', link: 'nvlink4', bytes: 64000 }).n_half_bytes, 720000);
});

test('ten documents install and answer as natively: list, solve, check, variants', async () => {
  const lab = await loadCommlab({ exercises: ten });
  assert.deepEqual(lab.installed.problems, []);
  assert.deepEqual(lab.installed.exercises.map((e) => e.id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  // The same install request natively gives the same answer.
  const request = { op: 'exercise.install', files: ten };
  assert.deepEqual(lab.evaluate(request), native(request));
  for (const id of [9, 10]) {
    const s = lab.evaluate({ op: 'exercise.solve', id });
    assert.ok(!s.error, JSON.stringify(s));
    const own = lab.evaluate({ op: 'exercise.check', id, answers: s.display });
    assert.equal(own.all_correct, true, JSON.stringify(own));
    for (const seed of [1, 7, 23]) {
      const v = lab.evaluate({ op: 'exercise.variant', id, seed });
      assert.ok(!v.error, JSON.stringify(v));
      const vs = lab.evaluate({ op: 'exercise.solve', id, params: v.params });
      assert.equal(lab.evaluate({ op: 'exercise.check', id, params: v.params, answers: vs.display }).all_correct, true);
    }
  }
  // Natively, with the same folder: the same variant and solution of the tenth.
  const cliTen = (r) => JSON.parse(execFileSync(CLI, ['--exercise', join(ROOT, 'tests/fixtures/exercises/10.json'), 'eval', JSON.stringify(r)]).toString());
  const v = { op: 'exercise.variant', id: 10, seed: 11 };
  assert.deepEqual(lab.evaluate(v), cliTen(v));
  const s = { op: 'exercise.solve', id: 10, params: lab.evaluate(v).params };
  assert.deepEqual(lab.evaluate(s), cliTen(s));
  // The tenth is the engine's nccl answer: LL128 for 16 MB on 8 GPUs, LL at 16 KB (P5 §5.6).
  assert.equal(lab.evaluate({ op: 'exercise.solve', id: 10 }).answers.protocol,
    lab.evaluate({ op: 'nccl', devices: 8, bytes: 16e6, link: 'nvlink4', algorithms: ['ring'] }).protocol);
  assert.equal(lab.evaluate({ op: 'exercise.solve', id: 10, params: { bytes: 16e3 } }).answers.protocol, 'LL');
});

test('a bad document is named; the others work; a lecture id from another file is refused', async () => {
  const files = folderExercises().map((f) => (f.file === '05.json' ? { file: '05.json', text: f.text.slice(0, 200) } : f));
  files.push({ ...fixture('09.json'), file: '3.json' });
  files.push({ file: '06-copy.json', text: files.find((f) => f.file === '06.json').text });
  const lab = await loadCommlab();
  const out = lab.installExercises(files);
  assert.deepEqual(out, native({ op: 'exercise.install', files }));
  assert.deepEqual(out.exercises.map((e) => e.id), [1, 2, 3, 4, 6, 7, 8, 9]);
  assert.deepEqual(out.problems.map((p) => [p.file, p.code]), [['05.json', 'invalid_exercise'], ['06-copy.json', 'invalid_exercise']]);
  assert.match(out.problems[0].message, /^exercises\/05\.json: not valid JSON/);
  assert.match(out.problems[1].message, /exercise 6 is the lecture's, accepted only from exercises\/06\.json/);
  assert.equal(lab.evaluate({ op: 'exercise.solve', id: 5 }).error.code, 'unknown_value');
  assert.ok(!lab.evaluate({ op: 'exercise.solve', id: 6 }).error);
  // A malformed list is a request error, and changes nothing.
  assert.throws(() => lab.installExercises([{ file: '01.json' }]), /files\[0\]\.text/);
  assert.deepEqual(lab.evaluate({ op: 'exercise.list' }).exercises.map((e) => e.id), [1, 2, 3, 4, 6, 7, 8, 9]);
});
