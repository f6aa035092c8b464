// The JS door's TypeScript declaration (wasm/commlab.d.ts, written by wasm/tools/dts.mjs) against
// the engine: it is what the engine's op list and answers make it, every answer field it declares
// required is in every answer of that op, and tsc accepts the course developer's example and
// refuses the mistakes of wasm/example/wrong.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { DTS, declaration, goldenLines, pascal, shapes } from '../../wasm/tools/dts.mjs';
import { loadLab } from './exercises.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;

/** {Name: {field: required}} of the declaration's request or answer interfaces. */
function declared(text, kind) {
  const out = {};
  for (const m of text.matchAll(new RegExp(`export interface (\\w+)${kind} \\{\\n([^}]*)\\}`, 'g'))) {
    out[m[1]] = Object.fromEntries([...m[2].matchAll(/^ {2}(\w+)(\??):/gm)].map((f) => [f[1], f[2] === '']));
  }
  return out;
}

test('wasm/commlab.d.ts is what the engine\'s op list and answers make it (node wasm/tools/dts.mjs)', async () => {
  const lab = await loadLab();
  assert.equal(readFileSync(DTS, 'utf8'), declaration(lab, goldenLines()),
    'wasm/commlab.d.ts differs from the engine: run node wasm/tools/dts.mjs');
});

test('every op has its request and answer interface, and every answer field declared required is in every answer', async () => {
  const lab = await loadLab();
  const text = readFileSync(DTS, 'utf8');
  const answers = declared(text, 'Answer');
  const requests = declared(text, 'Request');
  const seen = shapes(lab, goldenLines());
  for (const { op } of lab.ops()) {
    const name = pascal(op);
    assert.ok(requests[name] && answers[name], `${op}: no ${name}Request or ${name}Answer in wasm/commlab.d.ts`);
    for (const [field, required] of Object.entries(answers[name])) {
      if (field === 'op' || !required) continue;
      const s = seen[op].answer[field];
      assert.ok(s && s.count === seen[op].requests, `${op}: the declared field '${field}' is missing from ${seen[op].requests - (s?.count ?? 0)} of the engine's ${seen[op].requests} answers`);
    }
    for (const field of Object.keys(seen[op].request)) {
      assert.ok(Object.hasOwn(requests[name], field), `${op}: the request field '${field}' is not declared`);
    }
  }
});

test('tsc --noEmit accepts the example and refuses each mistake of wrong.ts on its line', () => {
  execFileSync(process.execPath, [TSC, '-p', `${ROOT}wasm/example/tsconfig.json`], { encoding: 'utf8' });
  let out = '';
  try {
    execFileSync(process.execPath, [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022',
      '--moduleResolution', 'bundler', '--lib', 'es2022,dom', `${ROOT}wasm/example/wrong.ts`], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout;
  }
  const lines = [...out.matchAll(/wrong\.ts\((\d+),\d+\): error (TS\d+)/g)].map((m) => Number(m[1]));
  const marked = readFileSync(`${ROOT}wasm/example/wrong.ts`, 'utf8').split('\n')
    .flatMap((l, i) => (/\/\/ error:/.test(l) ? [i + 1] : []));
  assert.deepEqual([...new Set(lines)], marked, out);
});
