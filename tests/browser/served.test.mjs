// The page reads the exercise documents it ships (dist/exercises/*.json, listed by
// dist/exercises/index.json) when it starts: none is compiled into the engine. On copies of
// dist/, as an instructor would change a deployed site without any build: two more documents
// written only as JSON give ten cards that load, solve, check and draw variants; an edited
// 03.json shows its new text once the engine is up (the build's answers, engine/first.json, are
// not used for a document that changed); edited in place with index.json as built, it is named
// and reloaded into on request (the page reads the build's copies, engine/documents.json); a
// missing or garbage document is named in plain words and the other exercises work.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIST, ROOT, answer, engineEval, launch, openPage, screenshotDir, serve, settled, variantParams, verdicts, shot } from './helpers.mjs';

let browser;
const copies = [];

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of dist/ changed by `edit(exercisesDir, index)`; index.json is rewritten from `index.files`. */
function distCopy(edit) {
  const dir = mkdtempSync(join(tmpdir(), 'commlab-served-'));
  copies.push(dir);
  cpSync(DIST, dir, { recursive: true });
  const exercises = join(dir, 'exercises');
  const index = JSON.parse(readFileSync(join(exercises, 'index.json'), 'utf8'));
  edit(exercises, index);
  writeFileSync(join(exercises, 'index.json'), `${JSON.stringify(index)}\n`);
  return dir;
}

const fixture = (name) => readFileSync(join(ROOT, 'tests/fixtures/exercises', name), 'utf8');
const cardIds = (page) => page.locator('#exercises > section.card').evaluateAll((cards) => cards.map((c) => ({
  id: Number(c.dataset.exercise), prerendered: c.hasAttribute('data-prerendered'), visible: c.offsetParent !== null,
})).filter((c) => c.visible));

// A resource the test removed on purpose is a 404 the browser logs; nothing else may be.
const unexpected = (errors) => errors.filter((e) => !/status of 404/.test(e));

describe('documents served beside the page', () => {
  // One copy and one page for both: the edited 03.json beside the two new documents.
  test('two more documents, JSON only: ten cards that load, solve, check and draw variants; an edited 03.json shows its new text once the engine is up, not the build\'s', async () => {
    const dir = distCopy((exercises, index) => {
      writeFileSync(join(exercises, '09.json'), fixture('09.json'));
      writeFileSync(join(exercises, '10.json'), fixture('10.json'));
      index.files.push('09.json', '10.json');
      const doc = JSON.parse(readFileSync(join(exercises, '03.json'), 'utf8'));
      doc.statement.en = `Edited on the server. ${doc.statement.en}`;
      writeFileSync(join(exercises, '03.json'), JSON.stringify(doc, null, 2));
    });
    const server = await serve(dir);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en' });
    const errors = [];
    // The .wasm held back: the page must not bring the cards alive from the build's answers.
    let release;
    const gate = new Promise((r) => { release = r; });
    await ctx.route('**/*.wasm', async (route) => {
      await gate;
      await route.continue();
    });
    try {
      const page = await openPage(ctx, `${server.url}?lang=en`, errors, { wait: false });
      await page.waitForSelector('section.card[data-prerendered][data-exercise="3"]');
      await page.waitForTimeout(1500);
      const held = page.locator('#exercises > section.card[data-exercise="3"]:not([lang="zh-CN"])');
      assert.equal(await held.getAttribute('data-prerendered'), '', 'card 3 came alive from the build\'s answers');
      assert.doesNotMatch(await held.locator('[data-role="statement"]').innerText(), /Edited on the server/);
      release();
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 30000 });
      await settled(page);
      const live = page.locator('[data-exercise="3"]');
      assert.equal(await live.getAttribute('data-prerendered'), null);
      assert.match(await live.locator('[data-role="statement"]').innerText(), /^Edited on the server\. /);
      // The rest is as built, and the edited exercise is checked as before.
      assert.match(await page.locator('[data-exercise="1"] [data-role="statement"]').innerText(), /NVLink 4/);
      await answer(page, 3, { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' });
      assert.deepEqual(await verdicts(page, 3), { ring: 'correct', recursive_doubling: 'correct', rabenseifner: 'correct', binary_tree: 'correct', best: 'correct' });
      const cards = await cardIds(page);
      assert.deepEqual(cards.map((c) => c.id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      assert.ok(cards.every((c) => !c.prerendered), JSON.stringify(cards));
      assert.equal(await page.locator('#toc a').count(), 10);
      assert.equal(await page.locator('#document-problems').isVisible(), false);
      assert.match(await page.locator('[data-exercise="10"] [data-role="statement"]').innerText(), /NCCL all-reduces 16 MB per GPU over a ring of 8 GPUs/);
      // A card without a link table shows nothing in its place (it once printed "null").
      assert.doesNotMatch(await page.locator('[data-exercise="10"]').innerText(), /^null$/m);
      // Every card's own right answers pass, the two new ones included.
      for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
        const solved = await engineEval(page, { op: 'exercise.solve', id: n, params: (await variantParams(page, n)) ?? {} });
        assert.ok(!solved.error, `${n}: ${JSON.stringify(solved.error)}`);
        await answer(page, n, solved.display);
        assert.deepEqual(await verdicts(page, n), Object.fromEntries(Object.keys(solved.display).map((k) => [k, 'correct'])), `exercise ${n}`);
      }
      await shot(page, { path: join(screenshotDir(), 'served-ten-cards-1280.png'), fullPage: true });
      // Wrong answers of the tenth fail; a new variant of each new one passes with its own answers.
      await answer(page, 10, { protocol: 'Simple', payload_share: '50%', wire_time: '1 ms' });
      assert.deepEqual(await verdicts(page, 10), { protocol: 'incorrect', payload_share: 'incorrect', wire_time: 'incorrect' });
      for (const n of [9, 10]) {
        const card = page.locator(`[data-exercise="${n}"]`);
        const lecture = await card.locator('[data-role="statement"]').innerText();
        let params = null;
        for (let i = 0; i < 5 && !params; i++) {
          await card.locator('[data-action="variant"]').click();
          await settled(page);
          if (await card.locator('[data-role="statement"]').innerText() !== lecture) params = await variantParams(page, n);
        }
        assert.ok(params, `exercise ${n}: five variants kept the lecture's statement`);
        const solved = await engineEval(page, { op: 'exercise.solve', id: n, params });
        await answer(page, n, solved.display);
        assert.deepEqual(await verdicts(page, n), Object.fromEntries(Object.keys(solved.display).map((k) => [k, 'correct'])), `variant of ${n}`);
      }
      // Embedded alone, the tenth works like the others.
      const single = await openPage(ctx, `${server.url}?exercise=10&embed=1&lang=zh`, errors);
      assert.match(await single.locator('[data-exercise="10"] [data-role="statement"]').innerText(), /NCCL 在 NVLink 4 上/);
      assert.deepEqual(unexpected(errors), []);
    } finally {
      release();
      await ctx.close();
      await server.close();
    }
  });

  test('03.json edited in place (index.json as built): the build\'s copy is used, the file is named once the page is ready, and a reload asked for uses the served files', async () => {
    const dir = distCopy((exercises) => {
      const doc = JSON.parse(readFileSync(join(exercises, '03.json'), 'utf8'));
      doc.statement.en = `Edited in place. ${doc.statement.en}`;
      writeFileSync(join(exercises, '03.json'), JSON.stringify(doc, null, 2));
    });
    const server = await serve(dir);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en' });
    const errors = [];
    const statement = (page) => page.locator('section.card[data-exercise="3"]:not([data-prerendered]) [data-role="statement"]').innerText();
    try {
      const page = await openPage(ctx, `${server.url}?lang=en`, errors);
      const notice = page.locator('#notice[data-topic="documents"]');
      await notice.waitFor({ timeout: 15000 });
      assert.match(await notice.innerText(), /^exercises\/03\.json changed on the server since this page was built; the page uses the built copy\./);
      assert.doesNotMatch(await statement(page), /Edited in place/);
      await Promise.all([page.waitForEvent('load'), notice.locator('[data-action="documents-reload"]').click()]);
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
      await settled(page);
      assert.match(await statement(page), /^Edited in place\. /);
      await page.waitForTimeout(500);
      assert.equal(await page.locator('#notice[data-topic="documents"]').count(), 0, 'said no more');
      assert.deepEqual(unexpected(errors), []);
    } finally {
      await ctx.close();
      await server.close();
    }
  });

  test('a missing and a garbage document are named in plain words; the other exercises work', async () => {
    const dir = distCopy((exercises, index) => {
      writeFileSync(join(exercises, '05.json'), '{"id": 5, "title": {"en": "cut');
      index.files.push('11.json'); // listed, never written
    });
    const server = await serve(dir);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en' });
    const errors = [];
    try {
      const page = await openPage(ctx, `${server.url}?lang=en`, errors);
      await settled(page);
      const box = page.locator('#document-problems');
      await box.waitFor({ state: 'visible' });
      assert.match(await box.locator('p').innerText(), /^2 exercise files could not be used; the other exercises work:/);
      const items = await box.locator('li').evaluateAll((lis) => lis.map((li) => [li.dataset.problemFile, li.dataset.problemKind, li.textContent]));
      assert.deepEqual(items.map(([file, kind]) => [file, kind]), [['11.json', 'missing'], ['05.json', 'invalid']]);
      assert.match(items[0][2], /^exercises\/11\.json could not be fetched \(HTTP 404/);
      assert.match(items[1][2], /^exercises\/05\.json was refused by the engine: not valid JSON/);
      assert.deepEqual((await cardIds(page)).map((c) => c.id), [1, 2, 3, 4, 6, 7, 8]);
      await answer(page, 8, { kv_bytes: '10.7 GB', one_nic: '268 ms', eight_nics: '33.6 ms', layerwise: '0.42 ms' });
      assert.deepEqual(await verdicts(page, 8), { kv_bytes: 'correct', one_nic: 'correct', eight_nics: 'correct', layerwise: 'correct' });
      // In Chinese too.
      await page.locator('[data-action="language"]').click();
      assert.match(await box.locator('li').first().innerText(), /^无法获取 exercises\/11\.json（HTTP 404/);
      assert.match(await box.locator('li').nth(1).innerText(), /^引擎未采用 exercises\/05\.json：not valid JSON/);
      assert.deepEqual(unexpected(errors), []);
    } finally {
      await ctx.close();
      await server.close();
    }
  });

  test('without index.json nothing is installed: the page says what is missing, nothing crashes', async () => {
    const dir = distCopy(() => {});
    rmSync(join(dir, 'exercises', 'index.json'));
    const server = await serve(dir);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en' });
    const errors = [];
    try {
      const page = await openPage(ctx, `${server.url}?lang=en`, errors, { wait: false });
      const box = page.locator('#document-problems');
      await box.waitFor({ state: 'visible', timeout: 30000 });
      assert.match(await box.locator('li').innerText(), /^exercises\/index\.json could not be fetched \(HTTP 404/);
      await page.waitForFunction(() => document.documentElement.dataset.engine === 'failed');
      assert.match(await page.locator('#engine-status').innerText(), /not_installed: no exercise is installed/);
      assert.deepEqual(unexpected(errors), []);
    } finally {
      await ctx.close();
      await server.close();
    }
  });
});
