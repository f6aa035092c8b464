// Progress per (exercise, variant) in headless Chromium: masking of the calculator's results at
// the exercise's own values, variants that keep their own progress, reveals that are recorded,
// export and import that restore statement, calculator and answers together, bad files refused
// whole, and the question before leaving a variant with unchecked answers. The tests share one
// page (page loads cost most of the time here); one reload checks what several of them saved.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { answer, downloadPath, engineEval, nextFrame, openPage, settled, useLab, variantParams, verdicts } from './helpers.mjs';

const errors = [];

const fresh = (options = {}) => lab.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true, ...options });
const card = (page, n) => page.locator(`[data-exercise="${n}"]`);
// Each reader first waits for the card's engine requests (a click may have sent one).
const masked = async (page, n) => (await settled(page), card(page, n).locator('.calc-out').getAttribute('data-masked'));
const status = async (page, n) => (await settled(page), card(page, n).locator('[data-role="status"]').innerText());
const statement = async (page, n) => (await settled(page), card(page, n).locator('[data-role="statement"]').innerText());

/** Types the engine's own answers for the variant card `n` shows (every answer field it has). */
async function solve(page, n) {
  const res = await engineEval(page, { op: 'exercise.solve', id: n, params: await variantParams(page, n) ?? {} });
  assert.ok(!res.error, JSON.stringify(res.error));
  await answer(page, n, res.display);
  return res;
}
const allNull = (v) => Object.values(v).every((x) => x === null);

/** Clicks "New variant" until the statement changes (a variant may repeat the lecture's). */
async function newVariant(page, n) {
  const before = await statement(page, n);
  for (let i = 0; i < 6; i++) {
    await card(page, n).locator('[data-action="variant"]').click();
    if ((await statement(page, n)) !== before) return variantParams(page, n);
  }
  throw new Error(`exercise ${n}: six variants kept the statement`);
}

async function exportFile(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
  return downloadPath(download);
}

/** Everything the page shows and saves, to compare before and after a refused import. */
function snapshot(page) {
  return page.evaluate(() => ({
    storage: Object.fromEntries(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)])),
    cards: [...document.querySelectorAll('[data-exercise]')].map((c) => [
      c.dataset.variant,
      c.querySelector('[data-role="statement"]').innerText,
      c.querySelector('[data-role="status"]').innerText,
      [...c.querySelectorAll('[data-answer], [data-param]')].map((el) => `${el.value}|${el.dataset.verdict ?? ''}`).join(' '),
      c.querySelector('.calc-out').innerText,
    ]),
    progress: document.querySelector('#progress').innerText,
  }));
}

/**
 * Init script: a tab whose sessionStorage holds 'test-preset' ({clear, entries}) gets that
 * localStorage when its next page starts, before the page reads it (and after the last one
 * wrote what it had to write on its way out).
 */
function presetScript() {
  let next;
  try {
    next = sessionStorage.getItem('test-preset');
  } catch {
    return;
  }
  if (next === null) return;
  sessionStorage.removeItem('test-preset');
  const { clear, entries } = JSON.parse(next);
  if (clear) localStorage.clear();
  for (const [k, v] of entries) localStorage.setItem(k, v);
}

/** Reloads `page` with `preset` ({clear, entries}) in its storage when given. */
async function reload(page, preset = null) {
  if (preset) await page.evaluate((p) => sessionStorage.setItem('test-preset', JSON.stringify(p)), preset);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
}

const lab = useLab();

describe('progress per variant', () => {
  // One page for the whole describe (page loads cost most of the time here). Each test works on
  // exercises the tests before it left as they were, or starts from a reset; the reloads that
  // the tests are about are shared where they can be: one reload checks the export and
  // import, the variants, the reveals, two pages' progress and refused saved progress together.
  let ctx;
  let page;
  let other; // a second page of the same storage
  before(async () => {
    ctx = await fresh();
    await ctx.addInitScript(presetScript);
    page = await openPage(ctx, lab.server.url, errors);
  });
  after(() => ctx?.close());

  test('retyping a parameter or moving a slider back keeps the mask', async () => {
    // Exercise 6: 0.1 ms typed again is 1.0000000000000002e-4 s, displayed as the exercise's 0.1.
    const transfer = card(page, 6).locator('[data-param="transfer_time_s"]');
    await transfer.fill('0.1');
    await nextFrame(page);
    assert.equal(await masked(page, 6), 'true');
    await transfer.fill('0.2');
    await nextFrame(page);
    assert.equal(await masked(page, 6), 'false');
    await transfer.fill('0.10');
    await nextFrame(page);
    assert.equal(await masked(page, 6), 'true');
    // Exercise 7: a slider step away and back lands on 131,072 tokens again.
    const slider = card(page, 7).locator('[data-slider="prompt_tokens"]');
    const tokens = card(page, 7).locator('[data-param="prompt_tokens"]');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await nextFrame(page);
    assert.notEqual(await tokens.inputValue(), '131072');
    assert.equal(await masked(page, 7), 'false');
    await page.keyboard.press('ArrowLeft');
    await nextFrame(page);
    assert.equal(await tokens.inputValue(), '131072');
    assert.equal(await masked(page, 7), 'true');
  });

  test('one wrong try does not unmask the answers', async () => {
    assert.equal(await masked(page, 2), 'true');
    await answer(page, 2, { bytes_sent: '1' });
    const { bytes_sent: wrong, ...others } = await verdicts(page, 2);
    assert.equal(wrong, 'incorrect');
    assert.ok(allNull(others));
    assert.match(await status(page, 2), /1 attempt/);
    assert.equal(await masked(page, 2), 'true', 'a wrong try keeps the results hidden');
    assert.equal(await card(page, 2).locator('[data-result]').count(), 0);
    assert.doesNotMatch(await status(page, 2), /revealed/);
    // Solving shows them.
    await solve(page, 2);
    assert.match(await status(page, 2), /Solved/);
    assert.equal(await masked(page, 2), 'false');
    assert.match(await card(page, 2).locator('[data-result="time"]').innerText(), /428\.7 µs/);
  });

  test('"Lecture\'s values" asks before leaving unchecked answers; "Keep" changes nothing', async () => {
    await newVariant(page, 1);
    const variantStatement = await statement(page, 1);
    const key = await card(page, 1).getAttribute('data-variant');
    await card(page, 1).locator('[data-answer="n_half"]').fill('5');
    await card(page, 1).locator('[data-action="default"]').click();
    const dialog = page.locator('#leave-dialog');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await dialog.innerText(), /not checked yet \(/);
    assert.match(await dialog.innerText(), /stay saved with this variant/);
    await dialog.locator('[data-action="leave-cancel"]').click();
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await statement(page, 1), variantStatement);
    assert.equal(await card(page, 1).getAttribute('data-variant'), key);
    assert.equal(await card(page, 1).locator('[data-answer="n_half"]').inputValue(), '5');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'default', 'focus goes back to the button');
    // "New variant" asks too; Escape keeps.
    await card(page, 1).locator('[data-action="variant"]').click();
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    assert.equal(await card(page, 1).getAttribute('data-variant'), key);
    // Leaving keeps the typed answer with its variant; the picker brings it back.
    await card(page, 1).locator('[data-action="default"]').click();
    await dialog.locator('[data-action="leave-confirm"]').click();
    assert.equal(await card(page, 1).getAttribute('data-variant'), 'lecture');
    assert.equal(await card(page, 1).locator('[data-answer="n_half"]').inputValue(), '');
    await card(page, 1).locator('[data-role="variants"]').selectOption(key);
    assert.equal(await statement(page, 1), variantStatement);
    assert.equal(await card(page, 1).locator('[data-answer="n_half"]').inputValue(), '5');
    // Checked answers leave without a question.
    await card(page, 1).locator('[data-answer="n_half"]').fill('');
    await card(page, 1).locator('[data-action="default"]').click();
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await card(page, 1).getAttribute('data-variant'), 'lecture');
  });

  test('a bad progress file is refused whole, naming the exercise and the field', async () => {
    await solve(page, 2);
    const good = JSON.parse(readFileSync(await exportFile(page), 'utf8'));
    const before = await snapshot(page);
    const bad = (name, doc) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    const cases = [
      // A parameter out of range: the engine's message, the exercise and the field named.
      [{ ...good, exercises: { ...good.exercises, 3: { current: 'x', variants: { x: { params: { devices: 5000, bytes: 256000, alpha_s: 5e-6, beta_Bps: 4e10 } } } } } },
        [/Exercise 3/, /GPUs k/, /devices/, /5000/, /1024/]],
      [{ ...good, exercises: { ...good.exercises, 42: { current: 'lecture', variants: {} } } }, [/exercise "42"/, /does not have/]],
      [{ ...good, exercises: { 2: { current: 'lecture', variants: { lecture: { ...good.exercises['2'].variants.lecture, attempts: 'many' } } } } },
        [/Exercise 2/, /"attempts"/]],
      [{ ...good, exercises: { 2: { current: 'lecture', variants: { lecture: { answers: { warp: '1' } } } } } }, [/Exercise 2/, /"warp" is not one of its answers/]],
      [{ ...good, exercises: { 5: { current: 'lecture', variants: { lecture: { params: { link: 'warp' } } } } } }, [/Exercise 5/, /link/, /warp/]],
      [{ ...good, version: 7 }, [/"version" 7/]],
    ];
    for (const [doc, patterns] of cases) {
      await page.evaluate(() => { document.querySelector('#notice').textContent = ''; });
      await page.locator('#import-file').setInputFiles(bad('bad.json', doc));
      await page.waitForFunction(() => document.querySelector('#notice').textContent !== '');
      const text = await page.locator('#notice').innerText();
      assert.match(text, /not imported and nothing changed/, text);
      for (const p of patterns) assert.match(text, p, text);
      assert.deepEqual(await snapshot(page), before, `the page and its storage are unchanged after: ${text}`);
    }
  });

  test('a version-1 progress file still imports', async () => {
    const v1 = {
      format: 'commlab-progress', version: 1, lang: 'en',
      exercises: {
        2: { params: { devices: 8, bytes: 1e8, alpha_s: 2e-6, beta_Bps: 3.6e11 }, answers: { steps: '14' }, verdicts: { steps: 'correct' }, attempts: 1, solved: false, hints: 0, solutionOpen: false },
        // Version 1 kept no "revealed": a solution left open before solving counts as one.
        4: { params: null, answers: { flat: '1 ms' }, verdicts: { flat: 'incorrect' }, attempts: 1, solved: false, hints: 0, solutionOpen: true },
      },
    };
    await page.locator('#import-file').setInputFiles({ name: 'v1.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(v1)) });
    // The import is judged by the engine first; an earlier import's notice may still be up.
    await page.waitForFunction(() => document.querySelector('[data-exercise="2"] [data-param="devices"]').value === '8', null, { polling: 100 });
    assert.match(await page.locator('#notice').innerText(), /imported/);
    assert.match(await statement(page, 2), /\b8\b/);
    assert.equal((await verdicts(page, 2)).steps, 'correct');
    assert.match(await status(page, 2), /1 attempt/);
    assert.equal(await card(page, 4).locator('[data-role="solution"]').isVisible(), true);
    assert.match(await status(page, 4), /answers revealed/);
    assert.equal(await masked(page, 4), 'false');
  });

  // Four tests make changes that one reload then checks together (the test after them).
  const kept = {};

  test('export, reset, import: statement, calculator and answers show the same variant', async () => {
    // From a reset: nothing of the tests above is in the export.
    await page.locator('[data-action="reset"]').click();
    await page.locator('[data-action="reset-confirm"]').click();
    const params = await newVariant(page, 7);
    const solved = await engineEval(page, { op: 'exercise.solve', id: 7, params });
    await answer(page, 7, { threshold: solved.display.threshold });
    assert.equal((await verdicts(page, 7)).threshold, 'correct');
    const message = await card(page, 7).locator('#ex7-a-threshold-verdict').innerText();
    const variantStatement = await statement(page, 7);
    const calc = await card(page, 7).locator('[data-param="prompt_tokens"]').inputValue();
    assert.equal(Number(calc), params.prompt_tokens);
    const file = await exportFile(page);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.version, 2);
    const key = saved.exercises['7'].current;
    assert.notEqual(key, 'lecture');
    assert.deepEqual(saved.exercises['7'].variants[key].params, params);

    await page.locator('[data-action="reset"]').click();
    await page.locator('[data-action="reset-confirm"]').click();
    assert.notEqual(await statement(page, 7), variantStatement);
    assert.equal(await card(page, 7).locator('[data-param="prompt_tokens"]').inputValue(), '131072');

    await page.locator('#import-file').setInputFiles(file);
    await page.waitForFunction(() => /imported/.test(document.querySelector('#notice').textContent));
    assert.equal(await statement(page, 7), variantStatement);
    assert.equal(await card(page, 7).locator('[data-param="prompt_tokens"]').inputValue(), calc);
    assert.equal(await card(page, 7).locator('[data-answer="threshold"]').inputValue(), solved.display.threshold);
    assert.equal((await verdicts(page, 7)).threshold, 'correct');
    assert.equal(await card(page, 7).locator('#ex7-a-threshold-verdict').innerText(), message, 'the verdict message comes back');
    assert.equal(await masked(page, 7), 'true', 'not solved: still masked');
    // The calculator answers for the variant: away from its values it shows the variant's figures.
    await card(page, 7).locator('[data-param="devices"]').fill(String(params.devices + 1));
    await nextFrame(page);
    assert.equal(await masked(page, 7), 'false');
    Object.assign(kept, { variantStatement, calc });
  });

  test('solved, then a new variant is unsolved and masked; the lecture\'s values come back solved', async () => {
    await solve(page, 3);
    assert.match(await status(page, 3), /Solved/);
    const lecture = await statement(page, 3);
    await newVariant(page, 3);
    assert.doesNotMatch(await status(page, 3), /Solved/);
    assert.equal(await masked(page, 3), 'true');
    assert.ok(allNull(await verdicts(page, 3)));
    assert.equal(await card(page, 3).locator('[data-answer="ring"]').inputValue(), '');
    assert.equal(await card(page, 3).locator('[data-action="solution"]').isDisabled(), true);
    assert.match(await page.locator('#progress').innerText(), /1 of 8 solved/);
    await card(page, 3).locator('[data-action="default"]').click();
    assert.equal(await statement(page, 3), lecture);
    assert.match(await status(page, 3), /Solved/);
    assert.equal(await masked(page, 3), 'false');
    assert.match(await card(page, 3).locator('[data-answer="ring"]').inputValue(), /^162/);
    assert.equal((await verdicts(page, 3)).ring, 'correct');
    // A variant of exercise 8 solved, for the reload below.
    kept.params = await newVariant(page, 8);
    await solve(page, 8);
    assert.match(await status(page, 8), /Solved/);
  });

  test('a reveal is recorded: shown in the status', async () => {
    await card(page, 4).locator('[data-action="reveal"]').click();
    assert.equal(await masked(page, 4), 'false');
    assert.match(await status(page, 4), /answers revealed/);
    // Opening the worked solution before solving counts as revealing.
    await answer(page, 5, { time: '1 ms' });
    assert.doesNotMatch(await status(page, 5), /revealed/);
    assert.equal(await masked(page, 5), 'true');
    await card(page, 5).locator('[data-action="solution"]').click();
    assert.match(await status(page, 5), /answers revealed/);
    assert.equal(await masked(page, 5), 'false');
  });

  test('two pages sharing storage: each one\'s work lands in the storage', async () => {
    other = await openPage(ctx, `${lab.server.url}?exercise=6`, errors); // loaded before this page's work
    await solve(page, 2);
    await answer(other, 6, { token_interval: '1 ms' });
    await reload(other);
  });

  test('after one reload: the imported variant, a variant and the lecture\'s values each with their own progress, reveals kept and exported, both pages\' progress; saved progress the engine refuses is set aside, never shown as a raw template', async () => {
    // Saved progress of exercise 3 the engine refuses, there when the page starts.
    await reload(page, { clear: false, entries: [
      ['commlab.v2.current.3', JSON.stringify('devices=5000')],
      ['commlab.v2.progress.3.devices=5000', JSON.stringify({ params: { devices: 5000, bytes: 256000, alpha_s: 5e-6, beta_Bps: 4e10 }, attempts: 2 })],
      // A record of exercise 1 that claims more than its answers earn (a grade is earned, never imported).
      ['commlab.v2.progress.1.lecture', JSON.stringify({ answers: { n_half: '1 B' }, verdicts: { n_half: 'correct', time: 'correct', fraction: 'correct' }, solved: true, attempts: 1 })],
    ] });
    assert.doesNotMatch(await status(page, 1), /Solved/);
    assert.equal(await card(page, 1).locator('[data-answer="n_half"]').getAttribute('data-verdict'), 'incorrect');
    assert.equal(await card(page, 1).locator('[data-answer="time"]').getAttribute('data-verdict'), null);
    const judged = await page.evaluate(() => JSON.parse(localStorage.getItem('commlab.v2.progress.1.lecture')));
    assert.deepEqual([judged.solved, judged.verdicts, judged.answers], [false, { n_half: 'incorrect' }, { n_half: '1 B' }]);
    assert.doesNotMatch(await statement(page, 3), /\{/);
    assert.equal(await card(page, 3).getAttribute('data-variant'), 'lecture');
    assert.match(await page.locator('#notice').innerText(), /set aside \(Exercise 3/);
    const aside = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('commlab.corrupt.')));
    assert.equal(aside.length, 1);
    const all = await page.evaluate(() => [...document.querySelectorAll('[data-role="statement"]')].map((s) => s.innerText).join('\n'));
    assert.doesNotMatch(all, /\{[a-z_]+\}/);

    // Two pages: neither overwrote the other's progress.
    assert.match(await status(page, 2), /Solved/);
    assert.match(await status(page, 6), /1 attempt/);

    // The imported variant of exercise 7, its statement and calculator.
    assert.equal(await statement(page, 7), kept.variantStatement);
    assert.equal(await card(page, 7).locator('[data-param="prompt_tokens"]').inputValue(), kept.calc);

    // The variant of exercise 8 and the lecture's values keep their own progress.
    assert.match(await status(page, 8), /Solved/);
    assert.deepEqual(await variantParams(page, 8), kept.params);
    await card(page, 8).locator('[data-action="default"]').click();
    assert.doesNotMatch(await status(page, 8), /Solved/);
    assert.equal(await masked(page, 8), 'true');
    // The picker brings the solved variant back.
    await card(page, 8).locator('[data-role="variants"]').selectOption({ index: 1 });
    assert.match(await status(page, 8), /Solved/);
    assert.deepEqual(await variantParams(page, 8), kept.params);

    // The reveals, kept and exported.
    assert.match(await status(page, 4), /answers revealed/);
    assert.equal(await masked(page, 4), 'false');
    assert.match(await status(page, 5), /answers revealed/);
    const saved = JSON.parse(readFileSync(await exportFile(page), 'utf8'));
    assert.equal(saved.exercises['4'].variants.lecture.revealed, true);
    assert.equal(saved.exercises['5'].variants.lecture.revealed, true);
    assert.equal(saved.exercises['5'].variants.lecture.solutionOpen, true);
    // A reveal belongs to its variant: a new one is masked again.
    await newVariant(page, 4);
    assert.equal(await masked(page, 4), 'true');
    assert.doesNotMatch(await status(page, 4), /revealed/);
  });

  test('two pages sharing storage do not overwrite each other\'s progress: the same record, changed in both', async () => {
    // Each change lands on what the other wrote.
    await answer(page, 6, { token_interval: '2 ms' });
    await answer(other, 6, { token_interval: '3 ms' });
    await reload(page);
    assert.match(await status(page, 6), /3 attempts/);
    // A record another page writes that claims more than its answers earn is judged here, and saved so.
    await other.evaluate(() => localStorage.setItem('commlab.v2.progress.6.lecture', JSON.stringify({
      answers: { microbatches: '4' }, verdicts: { microbatches: 'correct', token_interval: 'correct' }, solved: true, attempts: 9, updated: '2030-01-01T00:00:00.000Z',
    })));
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('commlab.v2.progress.6.lecture')).solved === false, null, { polling: 100 });
    assert.doesNotMatch(await status(page, 6), /Solved/);
    assert.equal(await card(page, 6).locator('[data-answer="microbatches"]').getAttribute('data-verdict'), 'incorrect');
    await other.close();
  });

  test('progress saved by the version-1 page moves to one key per variant', async () => {
    await reload(page, { clear: true, entries: [['commlab.progress.v1', JSON.stringify({
      format: 'commlab-progress', version: 1, lang: 'zh',
      exercises: {
        2: { params: null, answers: { bytes_sent: '150 MB', steps: '6', time: '429 us' }, verdicts: { bytes_sent: 'correct', steps: 'correct', time: 'correct' }, attempts: 1, solved: true, hints: 1, solutionOpen: false },
        3: { params: { devices: 32, bytes: 256000, alpha_s: 5e-6, beta_Bps: 4e10 }, answers: { ring: '1' }, verdicts: { ring: 'incorrect' }, attempts: 1, solved: false, hints: 0, solutionOpen: false },
      },
    })]] });
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.match(await status(page, 2), /已完成/);
    assert.equal(await card(page, 3).locator('[data-param="devices"]').inputValue(), '32');
    assert.equal((await verdicts(page, 3)).ring, 'incorrect');
    const keys = await page.evaluate(() => Object.keys(localStorage).sort());
    assert.ok(!keys.includes('commlab.progress.v1'), keys.join(' '));
    assert.ok(keys.includes('commlab.v2.progress.2.lecture'), keys.join(' '));
    assert.ok(keys.includes('commlab.v2.lang'), keys.join(' '));
    await reload(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal(await card(page, 3).locator('[data-param="devices"]').inputValue(), '32');
  });

  test('the dialog speaks Chinese on the Chinese page', async () => {
    // The page is in Chinese since the test above (the version-1 record's language).
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    await newVariant(page, 2);
    await card(page, 2).locator('[data-answer="steps"]').fill('6');
    await card(page, 2).locator('[data-action="default"]').click();
    const dialog = page.locator('#leave-dialog');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await dialog.innerText(), /离开这组参数/);
    assert.match(await dialog.innerText(), /还没有检查/);
    await dialog.locator('[data-action="leave-cancel"]').click();
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
