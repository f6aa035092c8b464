// Exercise documents are untrusted input (exercises/README.md "Exercise documents are untrusted
// input"): the documents of tests/unit_documents.cpp through the wasm module, which must answer
// exactly as the native engine (the CLI, same requests in the same order) and never throw (no
// RuntimeError, no RangeError); and `commlab exercise lint FILE` on wrong-typed fields (never an
// abort).
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
const BASE = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/exercises/09.json'), 'utf8'));
const lab = await loadLab();

const base = () => ({ ...structuredClone(BASE), id: 41 });
const withValue = (value) => {
  const d = base();
  d.compute.values.push(value);
  return d;
};
const set = (f) => {
  const d = base();
  f(d);
  return d;
};
const parens = (n) => '('.repeat(n) + '1' + ')'.repeat(n);
// A 1,000-character word (argmin names a value) pasted `times` times into each of `texts` texts.
const pasted = (times, texts) => {
  const d = base();
  const word = 'w'.repeat(1000);
  d.compute.values.push({ id: word, expr: '1' }, { id: 'p0', argmin: [word] });
  for (let i = 1; i <= texts; i++) d.compute.values.push({ id: `p${i}`, text: { en: '{p0}'.repeat(times), zh: 'x' } });
  return d;
};
const sim = { op: 'simulate', algorithm: 'ring', devices: 2400, bytes: 1e6 };
const longName = 'q'.repeat(10000);

// [name, document (object or text), what the load error and a lint problem must name].
const CASES = [
  ['nice: []', set((d) => { d.params[0].nice = []; }), 'params[0].nice'],
  ['nice: 5', set((d) => { d.params[0].nice = 5; }), 'params[0].nice'],
  ['kind: 5', set((d) => { d.params[0].kind = 5; }), 'params[0].kind'],
  ['variant: 5', set((d) => { d.variant = 5; }), 'variant'],
  ['if: 7', set((d) => { d.compute.values[1].if = 7; }), 'compute.values[1].if'],
  ['aliases: 5', set((d) => { d.answers[2].aliases = 5; }), 'answers[2].aliases'],
  ['100,000 parentheses', withValue({ id: 'deep', expr: parens(100000) }), 'compute.values[8]'],
  ['65 parentheses', withValue({ id: 'deep', expr: parens(65) }), '64 levels'],
  ['3,000 parentheses', withValue({ id: 'deep', expr: parens(1500) }), '64 levels'],
  ['a million unary -', withValue({ id: 'deep', expr: '-'.repeat(1000000) + '1' }), '256 KB'],
  ['100 unary -', withValue({ id: 'deep', expr: '-'.repeat(100) + '1' }), '64 levels'],
  ['100 ^', withValue({ id: 'deep', expr: '1^'.repeat(100) + '1' }), '64 levels'],
  ['a 1,000,000-deep array', '['.repeat(1000000) + ']'.repeat(1000000), '256 KB'],
  ['a 100,000-deep array', '['.repeat(100000) + ']'.repeat(100000), '64 levels'],
  ['a pasted word', pasted(20, 1), '16 KB'],
  ['200 pasted words', pasted(15, 200), '1 MB'],
  ['a text pasted 10,000 times into the statement', (() => {
    const d = pasted(15, 1);
    d.statement.en = '{values.p1}'.repeat(10000);
    d.solution.en = '{values.p1}'.repeat(10000);
    return d;
  })(), '16 KB', 'lint only'],
  ['a kept timeline', withValue({ id: 't', request: { op: 'pipeline' }, field: 'timeline' }), 'compute.values[8].field'],
  // Twenty different simulations (one repeated back to back is evaluated once).
  ['20 near-budget simulations', set((d) => { for (let i = 0; i < 20; i++) d.compute.values.push({ id: `s${i}`, request: { ...sim, bytes: 1e6 + 8 * i }, field: 'time_s' }); }), 'budget'],
  ['a heavy value and a constraint that never holds (lint)', set((d) => {
    d.compute.values.push({ id: 's', request: sim, field: 'time_s' });
    d.variant.constraints.push({ left: 'params.devices', op: '<', right: 0 });
  }), 'budget', 'lint only'],
  ['integer max 1e300', set((d) => { d.params[0].max = 1e300; }), 'params[0].max'],
  ['min_significant_figures 1e300', set((d) => { d.answers[0].min_significant_figures = 1e300; }), 'answers[0].min_significant_figures'],
  // The load error says "field 'id' is ..."; the lint line "id: is ...".
  ['id 4294967297', set((d) => { d.id = 4294967297; }), '4294967297; allowed: an integer from 1 to 999'],
  ['id 0', set((d) => { d.id = 0; }), ' is 0; allowed: an integer from 1 to 999'],
  ['a number for a choice answer', set((d) => { d.compute.answers.best = '1'; }), "'best'", 'lint only'],
  ['a long unit', set((d) => { d.params[1].unit = longName; }), 'params[1].unit'],
  ['a long unbound name', withValue({ id: 'v', expr: '$' + longName }), 'compute.values[8]'],
  ['a long field', withValue({ id: longName, request: { op: 'transfer', bytes: 1 }, field: longName }), 'compute.values[8]'],
];

const textOf = (doc) => (typeof doc === 'string' ? doc : JSON.stringify(doc));

// Every request of the cases, in order: load, lint, then a solve of the loaded id.
const REQUESTS = CASES.flatMap(([, doc]) => [
  { op: 'exercise.load', text: textOf(doc) },
  { op: 'exercise.lint', text: textOf(doc) },
  { op: 'exercise.solve', id: 41 },
]);

test('every reproducer: an invalid_exercise error or lint problem naming its path, short (wasm)', () => {
  for (const [name, doc, what, lintOnly] of CASES) {
    const text = textOf(doc);
    const loaded = lab.evaluate({ op: 'exercise.load', text });
    if (!lintOnly) {
      assert.equal(loaded.error?.code, 'invalid_exercise', `${name}: ${JSON.stringify(loaded).slice(0, 300)}`);
      assert.ok(loaded.error.message.includes(what), `${name}: ${loaded.error.message}`);
      assert.ok(loaded.error.message.length <= 400, `${name}: ${loaded.error.message.length} characters`);
    }
    const linted = lab.evaluate({ op: 'exercise.lint', text });
    assert.equal(linted.ok, false, name);
    assert.ok(linted.problems.some((p) => p.includes(what)), `${name}: ${JSON.stringify(linted.problems).slice(0, 600)}`);
    for (const p of linted.problems) assert.ok(p.length <= 400, `${name}: a problem of ${p.length} characters`);
  }
});

test('native and wasm answer every reproducer identically', async () => {
  const wasmLab = await loadLab();  // fresh: loaded exercises live as long as the module
  const fresh = spawnSync(CLI, ['eval'], { input: REQUESTS.map((r) => JSON.stringify(r)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(fresh.status, 0, fresh.stderr);
  const native = fresh.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.equal(native.length, REQUESTS.length);
  REQUESTS.forEach((request, i) => {
    const wasm = wasmLab.evaluate(request);
    assert.deepEqual(wasm, native[i], `${request.op} of case ${CASES[Math.floor(i / 3)][0]}`);
  });
});

test('commlab exercise lint FILE: wrong types are lines naming the path, exit 1, no abort', () => {
  const dir = mkdtempSync(join(tmpdir(), 'commlab-documents-'));
  for (const [name, doc, what] of CASES.slice(0, 6)) {
    const file = join(dir, 'doc.json');
    writeFileSync(file, textOf(doc));
    const r = spawnSync(CLI, ['exercise', 'lint', file], { encoding: 'utf8' });
    assert.equal(r.status, 1, `${name}: exit ${r.status} ${r.signal ?? ''} ${r.stderr}`);
    assert.ok(r.stderr.split('\n').some((line) => line.startsWith(`${file}: `) && line.includes(what)), `${name}: ${r.stderr}`);
  }
});
