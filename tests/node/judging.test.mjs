// The judging table of tests/golden/judging.json through the wasm module: the same verdicts and
// messages as natively (tests/unit_judging.cpp), for a student in the browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadLab } from './exercises.mjs';

const root = new URL('../../', import.meta.url).pathname;
const { cases } = JSON.parse(readFileSync(`${root}tests/golden/judging.json`, 'utf8'));

test('every typed answer of the judging table gets the teacher\'s verdict in wasm', async () => {
  const lab = await loadLab();
  assert.ok(cases.length >= 150, `${cases.length} cases`);
  for (const c of cases) {
    const out = lab.evaluate({ op: 'exercise.check', id: c.exercise, answers: { [c.answer]: c.typed } });
    assert.ok(!out.error, JSON.stringify(out));
    const v = out.verdicts[c.answer];
    const where = `exercise ${c.exercise} ${c.answer} typed ${JSON.stringify(c.typed)}: ${v.message.en}`;
    assert.equal(v.verdict, c.verdict, where);
    if (c.message_has) assert.ok(v.message.en.includes(c.message_has), where);
    if (c.message_lacks) assert.ok(!v.message.en.includes(c.message_lacks), where);
    if (c.message_has_zh) assert.ok(v.message.zh.includes(c.message_has_zh), `${where} / ${v.message.zh}`);
  }
});

test('the README prints the judging rule exactly as the page does, in both languages', async () => {
  const lab = await loadLab();
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const time = lab.evaluate({ op: 'exercise.get', id: 2 }).answers.find((a) => a.id === 'time');
  for (const lang of ['en', 'zh']) assert.ok(readme.includes(`> ${time.rule[lang]}\n`), `README lacks the ${lang} rule: ${time.rule[lang]}`);
});
