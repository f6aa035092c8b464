// The page's words (web/util/strings/): both languages have the same messages, each with the
// same slots, and each message the form its callers use (web/util/messages.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './exercises.mjs';
import { compile, fill, slotsOf } from '../../web/util/messages.js';
import { FORMS as PAGE_FORMS, strings, viewStrings } from '../../web/util/i18n.js';
import { FORMS as SECTION_FORMS, memoryStrings } from '../../web/util/section_strings.js';

const read = (name) => JSON.parse(readFileSync(join(ROOT, 'web/util/strings', name), 'utf8'));
const TABLES = [
  { name: 'page', en: read('en.json'), zh: read('zh.json'), forms: PAGE_FORMS },
  { name: 'sections', en: read('sections.en.json'), zh: read('sections.zh.json'), forms: SECTION_FORMS },
];
// Lookups by the engine's English words: English needs no entry.
const ENGLISH_KEYS = new Set(['view.phases']);
// Slots whose words are English only, which the Chinese leaves out: the engine's message.
const ENGLISH_SLOTS = new Set(['page.documentProblem.index']);

/** Every leaf of `o` as [path, value]. */
function leaves(o, path = []) {
  if (o && typeof o === 'object' && !Array.isArray(o)) return Object.entries(o).flatMap(([k, v]) => leaves(v, [...path, k]));
  if (Array.isArray(o)) return o.flatMap((v, i) => leaves(v, [...path, String(i)]));
  return [[path.join('.'), o]];
}
const at = (o, path) => path.split('.').reduce((x, k) => x?.[k], o);
const sorted = (t) => [...new Set(slotsOf(t))].sort();

for (const { name, en, zh, forms } of TABLES) {
  test(`${name}: English and Chinese have the same keys`, () => {
    const keys = (o) => leaves(o).map(([p]) => p).filter((p) => ![...ENGLISH_KEYS].some((k) => p.startsWith(`${k}.`)));
    assert.deepEqual(keys(zh).filter((k) => !keys(en).includes(k)), [], 'only in zh.json');
    assert.deepEqual(keys(en).filter((k) => !keys(zh).includes(k)), [], 'only in en.json');
  });

  test(`${name}: each template has the same slots in both languages`, () => {
    for (const [path, text] of leaves(en)) {
      if (typeof text !== 'string' || ENGLISH_SLOTS.has(path)) continue;
      const other = at(zh, path);
      // A plural form for one may say its count in words ("A setting", "The GPU").
      if (path.endsWith('.one') && typeof at(en, path.replace(/one$/, 'other')) === 'string') {
        for (const lang of [en, zh]) {
          const all = sorted(at(lang, path.replace(/one$/, 'other')));
          assert.ok(sorted(at(lang, path)).every((s) => all.includes(s)), `${path}: a slot the other forms lack`);
        }
        continue;
      }
      assert.deepEqual(sorted(other), sorted(text), `${path}: "${text}" against "${other}"`);
    }
  });

  test(`${name}: a template's slots are the arguments its form names; no slot is left without a form`, () => {
    const walk = (data, form, path) => {
      for (const [key, value] of Object.entries(data)) {
        const f = form && Object.hasOwn(form, key) ? form[key] : undefined;
        const here = path ? `${path}.${key}` : key;
        if (typeof f === 'string' && f !== '{}') {
          const names = f ? f.split(' ') : [];
          for (const s of slotsOf(value)) assert.ok(names.includes(s), `${here}: {${s}} is none of its arguments (${f})`);
        } else if (f && typeof f === 'object') walk(value, f, here);
        else if (f === undefined) {
          for (const [p, text] of leaves(value)) {
            if (typeof text === 'string') assert.deepEqual(slotsOf(text), [], `${here}${p ? `.${p}` : ''} has slots but no form`);
          }
        }
      }
      for (const key of Object.keys(form ?? {})) assert.ok(Object.hasOwn(data, key), `${path}.${key}: a form without words`);
    };
    for (const data of [en, zh]) walk(data, forms, '');
  });
}

test('templates fill their slots; formatters choose cases and plural forms', () => {
  assert.equal(fill('{a} and {b}, not {c} or {"x"}', { a: 1, b: 'two' }), '1 and two, not {c} or {"x"}');
  const t = compile({ n: '{n} left', c: { one: '{n} file', other: '{n} files' } }, { n: 'n', c: (m, n) => m.plural(n, { n }) }, 'en');
  assert.equal(t.n(3), '3 left');
  assert.deepEqual([t.c(1), t.c(2)], ['1 file', '2 files']);
  assert.equal(strings('en').attempts(1), '1 attempt');
  assert.equal(strings('zh').attempts(4), '已作答 4 次');
  assert.equal(strings('en').paramOutOfRange('D', '-5 MB', '1 B', '1 TB'), 'D: -5 MB is outside the allowed range, 1 B to 1 TB.');
  assert.equal(strings('fr').title, strings('en').title);
  assert.equal(strings('en').engineProblem({ kind: 'missing', status: 404, file: 'engine/commlab_lean.wasm' }), 'The exercise engine (engine/commlab_lean.wasm) could not be downloaded: the server answered HTTP 404.');
  assert.equal(strings('en').engineProblem({ kind: 'toString' }), 'The exercise engine could not be started in this browser.');
  assert.equal(strings('en').linkProblem({ setting: 'seed', value: -1, allowed: { whole: [0, 1000000] }, fallback: { word: 'noSeed' } }),
    'seed: "-1" is not allowed; allowed: a whole number from 0 to 1,000,000. Shown instead: no fixed variant (the lecture’s values).');
  assert.equal(viewStrings('en').pipelineNote({ m: 1, interval: '2 ms', busy: 50, fill: 2, bound: 'trip', trip: '2 ms', rate: 500 }),
    '1 micro-batch: in the steady state each micro-batch gets a token every 2 ms, a token’s trip through every stage and transfer, and the stages compute 50% of the time (500 tokens/s in all). 2 micro-batches fill the pipeline completely; more micro-batches raise throughput, never shorten a token’s trip.');
  assert.equal(memoryStrings('zh').range('gpus', ''), 'GPU 数（一个副本）：未填写；允许 1 到 4,096 的整数。在此期间不绘制。');
});
