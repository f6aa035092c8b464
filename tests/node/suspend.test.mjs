// cmi.suspend_data (web/app/suspend.js, web/README.md "Course platforms"): the text round-trips the
// store's records; the worst cases that can be built against SCORM 1.2's 4,096 characters fit,
// dropping first what costs no score; what cannot be read is refused with its place; the score
// and status follow the rules the README gives an LMS admin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SUSPEND_CHARS, SuspendProblem, decodeProgress, encodeProgress, summary, correctMask, shownEarly, creditOf } from '../../web/app/suspend.js';
import { variantKey } from '../../web/card/variant.js';

const docs = new Map();
for (let i = 1; i <= 8; i++) {
  const doc = JSON.parse(readFileSync(new URL(`../../exercises/0${i}.json`, import.meta.url), 'utf8'));
  docs.set(String(doc.id), doc);
}
const all = [...docs.values()];

/** Parameters of `doc` at full double precision (what an imported variant may hold). */
function longParams(doc, salt) {
  const out = {};
  for (const p of doc.params) {
    if (p.kind === 'choice') out[p.id] = p.choices.map((c) => (typeof c === 'object' ? c.id : c)).sort((a, b) => b.length - a.length)[0];
    else if (p.kind === 'integer') out[p.id] = Math.round(p.min + (p.max - p.min) * (0.3 + salt * 1e-3));
    else out[p.id] = p.min + (p.max - p.min) * (0.123456789012345 + salt * 1e-7);
  }
  return out;
}

const record = (doc, params, { text = (a) => 'x'.repeat(200), verdict = () => null, solved = false, revealed = false, attempts = 7, updated = '2026-01-01T00:00:00.000Z' } = {}) => ({
  params,
  answers: Object.fromEntries(doc.answers.map((a, i) => [a.id, text(a, i)])),
  verdicts: Object.fromEntries(doc.answers.map((a, i) => [a.id, verdict(a, i)]).filter(([, v]) => v)),
  messages: {}, attempts, hints: 3, solved, revealed, solutionOpen: revealed, created: updated, updated,
});

/** The encoder's input for states {id: {current, variants}} with credits {id: {key: mask}}. */
function input(states, credits = {}, reveal = 'after-solve', fixed = {}) {
  return all.filter((doc) => states[doc.id]).map((doc) => ({
    doc,
    state: states[doc.id],
    credits: (k) => credits[doc.id]?.[k],
    value: (k, rec) => (fixed[doc.id] && fixed[doc.id] !== k ? -1 : creditOf(doc, rec, credits[doc.id]?.[k], reveal)),
  }));
}

/** The package's score from states (every variant counted), as app/scorm.js measures it. */
function scoreOf(states, credits, reveal = 'after-solve') {
  return summary(all.map((doc) => ({
    doc,
    records: Object.entries(states[doc.id]?.variants ?? {}).map(([k, rec]) => ({ rec, credit: credits[doc.id]?.[k] })),
  })), reveal);
}

test('a realistic package round-trips: every record, answer, verdict, count and flag', () => {
  const states = {};
  const credits = {};
  for (const doc of all) {
    const params = longParams(doc, doc.id);
    const key = variantKey(doc, params);
    states[doc.id] = {
      current: key,
      variants: {
        lecture: record(doc, null, { text: (a, i) => `${i + 1}.5 us`, verdict: () => 'correct', solved: true, attempts: 2 }),
        [key]: record(doc, params, { text: (a, i) => (i ? '' : '42 us'), verdict: (a, i) => (i ? null : 'incorrect'), revealed: true, attempts: 1 }),
      },
    };
    credits[doc.id] = { [key]: 0 };
  }
  const { text, dropped } = encodeProgress(input(states, credits));
  assert.ok(text.length <= SUSPEND_CHARS);
  assert.deepEqual(dropped, { variants: 0, unchecked: 0, wrong: 0, correctText: 0, exercises: 0 });
  const back = decodeProgress(text, docs);
  assert.deepEqual(back.problems, []);
  for (const doc of all) {
    const got = back.exercises[doc.id];
    assert.equal(got.current, states[doc.id].current);
    assert.deepEqual(Object.keys(got.variants).sort(), Object.keys(states[doc.id].variants).sort());
    for (const [k, rec] of Object.entries(states[doc.id].variants)) {
      const r = got.variants[k];
      for (const f of ['attempts', 'hints', 'solved', 'revealed', 'solutionOpen']) assert.equal(r[f], rec[f], `${doc.id} ${k} ${f}`);
      assert.deepEqual(r.answers, Object.fromEntries(Object.entries(rec.answers).filter(([, v]) => v !== '')));
      assert.deepEqual(r.verdicts, rec.verdicts);
      assert.deepEqual(r.params, rec.params, 'parameters kept exactly, not at display precision');
    }
  }
  assert.deepEqual(scoreOf(back.exercises, back.credits), scoreOf(states, credits));
});

test('worst case: eight exercises, 40 variants each, every field 200 characters: fits, score kept', (t) => {
  const states = {};
  const credits = {};
  for (const doc of all) {
    const variants = {};
    let current = null;
    for (let v = 0; v < 40; v++) {
      const params = longParams(doc, v);
      const key = variantKey(doc, params);
      // Variant 7 is the one that counts (solved); the last is shown, checked wrong everywhere.
      variants[key] = record(doc, params, {
        updated: `2026-01-01T00:00:${String(v).padStart(2, '0')}.000Z`,
        verdict: (a, i) => (v === 7 ? 'correct' : ['incorrect', 'format-error', null][(v + i) % 3]),
        // A correct answer as long as one is typed with every digit (24 characters); the others 200.
        text: (a) => (v === 7 ? '1'.repeat(24) : `${'\u4e2d'.repeat(150)}${'x'.repeat(50)}`),
        solved: v === 7,
      });
      current = key;
    }
    states[doc.id] = { current, variants };
  }
  const before = scoreOf(states, credits);
  assert.equal(before.score, 100);
  const rawJson_chars = JSON.stringify(states).length;
  const t0 = performance.now();
  const { text, dropped } = encodeProgress(input(states, credits));
  const ms = performance.now() - t0;
  t.diagnostic(`the store's records: ${rawJson_chars} characters of JSON; suspend_data ${text.length} of ${SUSPEND_CHARS} in ${ms.toFixed(1)} ms; dropped ${JSON.stringify(dropped)}`);
  assert.ok(text.length <= SUSPEND_CHARS, `${text.length}`);
  assert.equal(dropped.exercises, 0);
  const records = Object.values(states).reduce((n, s) => n + Object.keys(s.variants).length, 0);
  assert.equal(dropped.variants, records - 16, 'every variant neither shown nor counted goes first');
  const back = decodeProgress(text, docs);
  assert.deepEqual(back.problems, []);
  for (const doc of all) {
    assert.equal(back.exercises[doc.id].current, states[doc.id].current, 'the shown variant stays');
    assert.equal(Object.keys(back.exercises[doc.id].variants).length, 2, 'the shown and the counted variant stay');
  }
  assert.deepEqual(scoreOf(back.exercises, back.credits), before, 'the score is as it was');
});

test('worst case for the score: unsolved, every answer but one correct, two variants each: kept at 24 characters an answer; at 200 only what was dropped is lost', (t) => {
  const build = (chars) => {
    const states = {};
    for (const doc of all) {
      const variants = {};
      for (const v of [0, 1]) {
        const params = longParams(doc, v);
        variants[variantKey(doc, params)] = record(doc, params, {
          verdict: (a, i) => (i === doc.answers.length - 1 ? 'incorrect' : 'correct'),
          text: () => '7'.repeat(chars),
          updated: `2026-01-0${v + 1}T00:00:00.000Z`,
        });
      }
      // The first is shown, the second counted (as good): both are kept.
      states[doc.id] = { current: Object.keys(variants)[0], variants };
    }
    return states;
  };
  for (const chars of [24, 200]) {
    const states = build(chars);
    const before = scoreOf(states, {});
    const { text, dropped } = encodeProgress(input(states, {}));
    t.diagnostic(`${chars} characters an answer: suspend_data ${text.length} of ${SUSPEND_CHARS}; dropped ${JSON.stringify(dropped)}; score ${before.score}`);
    assert.ok(text.length <= SUSPEND_CHARS);
    assert.equal(dropped.exercises, 0);
    const back = decodeProgress(text, docs);
    const after = scoreOf(back.exercises, back.credits);
    // A correct answer whose text goes loses its verdict too: a restore judges answers, not verdicts.
    if (chars === 24) assert.deepEqual([after, dropped.correctText], [before, 0]);
    else {
      assert.ok(dropped.correctText > 0);
      assert.ok(after.earned >= before.earned - dropped.correctText, `${after.earned} of ${before.earned}`);
      for (const ex of Object.values(back.exercises)) {
        for (const rec of Object.values(ex.variants)) for (const k of Object.keys(rec.verdicts)) assert.ok(rec.answers[k], 'no verdict without its text');
      }
    }
  }
});

test('a solved record keeps the answers that solved it when they differ from those typed since', () => {
  const doc = docs.get('3');
  const solvedWith = { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' };
  const rec = { ...record(doc, null, { text: (a) => solvedWith[a.id], verdict: () => 'correct', solved: true }), solvedWith };
  const same = encodeProgress(input({ 3: { current: 'lecture', variants: { lecture: rec } } })).text;
  assert.equal(decodeProgress(same, docs).exercises['3'].variants.lecture.solvedWith, undefined, 'the same texts are not kept twice');
  const changed = { ...rec, answers: { ...rec.answers, ring: '1 us' }, verdicts: { ...rec.verdicts, ring: 'incorrect' } };
  const text = encodeProgress(input({ 3: { current: 'lecture', variants: { lecture: changed } } })).text;
  assert.ok(text.length > same.length);
  const back = decodeProgress(text, docs).exercises['3'].variants.lecture;
  assert.deepEqual([back.solved, back.solvedWith, back.answers.ring], [true, solvedWith, '1 us']);
  // Kept only with the solved flag, and one text an answer.
  const one = (t) => decodeProgress(t, docs).problems.map((p) => p.field);
  assert.deepEqual(one('{"v":1,"3":[0,[0,[],"",0,0,0,0,["a","b","c","d","e"]]]}'), ['solvedWith']);
  assert.deepEqual(one('{"v":1,"3":[0,[0,[],"",0,0,1,0,["a"]]]}'), ['solvedWith']);
});

test('what cannot be read is refused, naming the place; nothing else is taken from it', () => {
  const refused = (text) => assert.throws(() => decodeProgress(text, docs), (e) => e instanceof SuspendProblem && typeof e.detail.field === 'string');
  refused('not json');
  refused('[1,2]');
  refused('{"v":2}');
  refused(`{"v":1,"3":[0,[0,["${'9'.repeat(70000)}"]]]}`);
  const one = (text) => decodeProgress(text, docs).problems;
  assert.deepEqual(one('{"v":1,"9":[0,[0]]}').map((p) => p.field), ['exercise']);
  assert.deepEqual(one('{"v":1,"__proto__":[0,[0]]}').map((p) => [p.field, p.value]), [['exercise', '__proto__']]);
  assert.deepEqual(one('{"v":1,"3":[5,[0]]}').map((p) => p.field), ['current']);
  assert.deepEqual(one('{"v":1,"3":[0,[0,[],"",0,0,8]]}').map((p) => [p.field, p.record]), [['flags', 1]]);
  assert.deepEqual(one('{"v":1,"3":[0,[0,[],"",0,0,2,32]]}').map((p) => p.field), ['credit']);
  assert.deepEqual(one('{"v":1,"3":[0,[[1,2],[]]]}').map((p) => p.field), ['params']);
  assert.deepEqual(one('{"v":1,"3":[0,[0],[0]]}').map((p) => p.field), ['duplicate']);
  assert.deepEqual(one('{"v":1,"3":[0,[0,["a","b","c","d","e","f"]]]}').map((p) => p.field), ['answers']);
  // Values of the wrong type are handed on as found, for the record check to name.
  const handed = decodeProgress('{"v":1,"3":[0,[0,[7],"cz","many"]],"1":[-1]}', docs);
  assert.deepEqual(handed.problems, []);
  assert.deepEqual(handed.exercises['3'].variants.lecture.answers, { ring: 7 });
  assert.deepEqual(handed.exercises['3'].variants.lecture.verdicts, { ring: 'correct', recursive_doubling: 'z' });
  assert.equal(handed.exercises['3'].variants.lecture.attempts, 'many');
  assert.deepEqual(handed.exercises['1'], { current: null, variants: {} });
  assert.deepEqual(decodeProgress('', docs), { exercises: {}, credits: {}, problems: [] });
});

test('score and status: the share of answers credited; answers shown before they were found earn nothing', () => {
  const doc = docs.get('3'); // five answers
  const rec = (over) => ({ params: null, answers: {}, verdicts: {}, attempts: 1, hints: 0, solved: false, revealed: false, solutionOpen: false, ...over });
  const two = { ring: 'correct', recursive_doubling: 'correct', rabenseifner: 'incorrect' };
  assert.deepEqual(summary([{ doc, records: [{ rec: rec({ verdicts: two }) }] }], 'after-solve'), { score: 40, status: 'incomplete', earned: 2, total: 5 });
  const solved = rec({ solved: true });
  assert.deepEqual(summary([{ doc, records: [{ rec: solved }] }], 'after-solve'), { score: 100, status: 'passed', earned: 5, total: 5 });
  // Revealed with two right: solving afterwards earns those two only, and is "completed".
  const mask = correctMask(doc, rec({ verdicts: two }));
  assert.equal(mask, 0b11);
  const late = rec({ solved: true, revealed: true });
  assert.deepEqual(summary([{ doc, records: [{ rec: late, credit: mask }] }], 'after-solve'), { score: 40, status: 'completed', earned: 2, total: 5 });
  assert.equal(creditOf(doc, late, undefined, 'after-solve'), 0, 'a reveal with no credit kept earns nothing');
  // reveal=after-attempt shows the answers after the first check: the same rule from then on.
  assert.equal(shownEarly(rec({ attempts: 1 }), 'after-attempt'), true);
  assert.equal(shownEarly(rec({ attempts: 0 }), 'after-attempt'), false);
  assert.equal(shownEarly(rec({ attempts: 3 }), 'after-solve'), false);
  // Several exercises: the best record of each; one not shown leaves the package short of passed.
  const ex6 = docs.get('6');
  const both = [{ doc, records: [{ rec: rec({ verdicts: two }) }, { rec: solved }] }, { doc: ex6, records: [{ rec: rec({ solved: true }) }] }];
  assert.deepEqual(summary(both, 'after-solve'), { score: 100, status: 'passed', earned: 7, total: 7 });
  assert.equal(summary(both, 'after-solve', false).status, 'incomplete');
  assert.equal(summary([{ doc: ex6, records: [] }], 'after-solve').score, 0);
  // Shares that are not whole: two decimals.
  assert.equal(summary([{ doc: docs.get('1'), records: [{ rec: rec({ verdicts: { n_half: 'correct' } }) }] }], 'after-solve').score, 33.33);
});
