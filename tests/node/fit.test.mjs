// The `fit` op natively and in wasm (core/README.md "Measured against the model"): every nccl-tests
// fixture, with and without the request's options, and the benchmark's 4 MB log, answer alike
// byte for byte through the CLI and through the wasm module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadLab, ROOT } from './exercises.mjs';
import { CLI, NCCL_SYNTH } from './native.mjs';

const dir = `${ROOT}tests/fixtures/nccl/`;
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();

const native = (requests) =>
  execFileSync(CLI, ['eval'], { input: requests.join('\n') + '\n', maxBuffer: 256 << 20 })
    .toString()
    .split('\n')
    .filter((l) => l !== '');

test('every nccl-tests fixture fits alike natively and in wasm', async () => {
  assert.ok(fixtures.length >= 11, `fixtures: ${fixtures.join(', ')}`);
  const lab = await loadLab();
  const options = [{}, { columns: 'in_place' }, { link: 'ib_ndr' }, { collective: 'all_reduce', ranks: 16 }];
  const requests = [];
  for (const f of fixtures) {
    const log = readFileSync(dir + f, 'utf8');
    for (const o of options) requests.push(JSON.stringify({ op: 'fit', log, ...o }));
  }
  // Errors too: nothing in the text, garbage, a collective the text does not give.
  requests.push(JSON.stringify({ op: 'fit', log: '' }), JSON.stringify({ op: 'fit', log: 'hello\nworld\n' }),
    JSON.stringify({ op: 'fit', log: readFileSync(dir + 'synthetic_current_env.txt', 'utf8'), collective: 'gather' }));
  const answers = native(requests);
  assert.equal(answers.length, requests.length);
  let fitted = 0;
  requests.forEach((req, i) => {
    const wasm = lab.evaluateText(req);
    assert.equal(wasm, answers[i], `request ${i} (${fixtures[Math.floor(i / options.length)] ?? 'error case'})`);
    if (!JSON.parse(wasm).error) fitted++;
  });
  // Every fixture fits with no option (the text says what it needs) but an error case's three.
  assert.ok(fitted >= fixtures.length, `${fitted} answers`);
  const first = JSON.parse(lab.evaluateText(requests[0]));
  assert.ok(first.tables.length >= 1 && first.tables[0].rows.length >= 2);
});

test('the 4 MB benchmark log fits alike natively and in wasm', { skip: !existsSync(NCCL_SYNTH) }, async () => {
  const log = execFileSync(NCCL_SYNTH, ['bench'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.ok(log.length >= 4e6);
  const req = JSON.stringify({ op: 'fit', log });
  const lab = await loadLab();
  const wasm = lab.evaluateText(req);
  assert.equal(wasm, native([req])[0]);
  assert.equal(JSON.parse(wasm).skipped_lines, 3000);
});
