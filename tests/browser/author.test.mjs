// The authoring view (`?view=author`, web/app/author.js) in headless Chromium: lint problems
// with their JSON paths as the instructor types, a click selecting the place, a JSON syntax
// error with its line and column, the preview card checking answers against the engine and the
// variants table, the draft kept across a reload (and said when it cannot be), a lecture
// exercise copied under a free id, a hostile document shown as text, both languages,
// accessibility, screenshots at 1280 and 390 px. The tests share one page, each working on
// the text the previous one left (page loads cost most of the time here); only the draft's
// reload, the storage that refuses it and the single-file build load a page again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { answer, axeViolations, DESKTOP, DIST, downloadPath, engineEval, openPage, PHONE, ROOT, screenshotDir, settled, shot, useLab, verdicts } from './helpers.mjs';

// The example as ./lab build ships it (dist/author/example.json): its "$schema" pointed at the
// site's own exercises/schema.json.
const FIXTURE = readFileSync(join(ROOT, 'tests/fixtures/exercises/09.json'), 'utf8')
  .replace('"../../../exercises/schema.json"', '"../exercises/schema.json"');
const DRAFT_KEY = 'commlab.author.v1.draft';

// Two deliberate mistakes: a tolerance above 100% and a time answer in parsecs.
const TOLERANCE_OK = '"unit": "us", "dimension": "time", "tolerance_rel": 0.01},\n    {\n      "id": "best"';
const TOLERANCE_BAD = '"unit": "us", "dimension": "time", "tolerance_rel": 2},\n    {\n      "id": "best"';
const UNIT_OK = '{"id": "ring", "label": {"en": "Ring", "zh": "ring"}, "unit": "us"';
const UNIT_BAD = '{"id": "ring", "label": {"en": "Ring", "zh": "ring"}, "unit": "parsec"';
const MISTAKES = FIXTURE.replace(TOLERANCE_OK, TOLERANCE_BAD).replace(UNIT_OK, UNIT_BAD);

// Markup in every text of the document: it must show as written, never run or render.
const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">';
function hostile() {
  const doc = JSON.parse(FIXTURE);
  const both = (o) => { for (const l of ['en', 'zh']) o[l] = `${o[l]} ${XSS}`; };
  both(doc.title);
  both(doc.statement);
  doc.statement.en += ' $<img src=x onerror="window.__xss=1">$';
  both(doc.solution);
  for (const p of doc.params) both(p.label);
  for (const a of doc.answers) both(a.label);
  for (const c of Object.values(doc.answers[2].choice_labels)) both(c);
  for (const l of ['en', 'zh']) doc.hints[l] = doc.hints[l].map((x) => `${x} ${XSS}`);
  both(doc.compute.values.find((v) => v.text).text);
  both(doc.variant.constraints[0].why);
  return doc;
}

const errors = [];

const fresh = (viewport = DESKTOP, options = {}) => lab.browser.newContext({ viewport, locale: 'en-US', acceptDownloads: true, ...options });
const view = (page) => page.locator('[data-view="author"]');
const textarea = (page) => page.locator('textarea[data-role="document"]');

/** Resolves once the text shown has been linted and its preview (if any) drawn. */
async function linted(page) {
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-role="lint-status"]');
    const root = document.querySelector('[data-view="author"]');
    return status && status.dataset.state !== 'checking' && !root.hasAttribute('aria-busy');
  }, null, { timeout: 20000 });
  await settled(page);
}

/** Opens the view in `page`; with nothing saved the example is in the editor, linted and previewed. */
async function openAuthor(page) {
  await page.goto(`${lab.server.url}?view=author`);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('textarea[data-role="document"]')?.value.trim(), null, { timeout: 15000 });
  await linted(page);
}

/** Switches the page's language with its header button; resolves once the page speaks `lang`. */
async function switchLanguage(page, lang) {
  await page.locator('[data-action="language"]').click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-CN' : 'en');
  await linted(page);
}

// A tab whose sessionStorage holds this flag gets a localStorage that refuses the draft (full).
const REFUSE_DRAFT = 'test-refuse-draft';
function refuseDraftScript() {
  try {
    if (!sessionStorage.getItem('test-refuse-draft')) return;
  } catch {
    return;
  }
  const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) {
    if (k === 'commlab.author.v1.draft') throw new DOMException('full', 'QuotaExceededError');
    return set.call(this, k, v);
  };
}

/** The problems shown: [{kind, path, line, column, text}]. */
function problems(page) {
  return page.locator('[data-problem]').evaluateAll((els) => els.map((el) => ({
    kind: el.dataset.problem, path: el.dataset.path ?? null, line: el.dataset.line ?? null, column: el.dataset.column ?? null, text: el.textContent,
  })));
}

/** The text the editor has selected. */
const selected = (page) => textarea(page).evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd));

const lab = useLab();

describe('the authoring view', () => {
  // One page for the whole describe, opened on the lecture page (the first test follows the
  // header's link from there); each test starts from the text the previous one left.
  let ctx;
  let page;
  before(async () => {
    ctx = await fresh();
    await ctx.addInitScript(refuseDraftScript);
    page = await openPage(ctx, lab.server.url, errors);
  });
  after(() => ctx?.close());

  test('reachable from the page header in both languages; the view names itself', async () => {
    const link = page.locator('#author-link');
    assert.equal(await link.textContent(), 'Write an exercise');
    await page.locator('[data-action="language"]').click();
    assert.equal(await link.textContent(), '编写练习');
    await link.click();
    await page.waitForSelector('[data-view="author"]');
    await linted(page);
    assert.equal(await view(page).getAttribute('data-lecture'), '11');
    assert.equal(await page.locator('section.card[data-prerendered]').count(), 0, 'no lecture card in the view');
    assert.equal(await page.locator('#author-link').textContent(), '返回练习');
    // It starts from the complete example, shipped with the page, which lints clean.
    assert.equal(await textarea(page).inputValue(), FIXTURE);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    assert.equal(await page.locator('[data-problem]').count(), 0);
    // The tests below read the view in English.
    await switchLanguage(page, 'en');
  });

  test('two mistakes show two problems with their paths; a click selects the place; fixed, the preview card checks answers and shows variants', async () => {
    await textarea(page).fill(MISTAKES);
    await linted(page);
    const found = await problems(page);
    const engine = await engineEval(page, { op: 'exercise.lint', text: MISTAKES });
    assert.equal(found.length, 2, JSON.stringify(found));
    assert.deepEqual(found.map((p) => p.path).sort(), ['answers[0].unit', 'answers[1].tolerance_rel']);
    assert.deepEqual(found.map((p) => p.kind), ['lint', 'lint']);
    // Each shows the engine's own words for its path.
    for (const message of engine.problems) assert.ok(found.some((p) => p.text === message.replace(/^([^:]+): /, '$1 ')), message);
    // The engine refuses to load it: the example loaded before stays, marked as not this text.
    assert.equal(await page.locator('[data-role="preview"]').getAttribute('data-state'), 'stale');
    assert.match(await page.locator('[data-role="preview-status"]').textContent(), /did not load this version \(.*answers\[0\]\.unit' does not fit dimension time\)/);

    // Click a problem: its place is selected; typing replaces it (as an instructor fixes it).
    await page.locator('[data-problem][data-path="answers[1].tolerance_rel"]').click();
    assert.equal(await selected(page), '"tolerance_rel": 2');
    await page.keyboard.type('"tolerance_rel": 0.01');
    await page.locator('[data-problem][data-path="answers[0].unit"]').click();
    assert.equal(await selected(page), '"unit": "parsec"');
    await page.keyboard.type('"unit": "us"');
    await linted(page);
    assert.equal(await textarea(page).inputValue(), FIXTURE);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    assert.match(await page.locator('[data-role="lint-status"]').textContent(), /lints clean/);
    assert.equal(await page.locator('[data-problem]').count(), 0);

    // The preview is the page's usual card, checked by the engine.
    const card = view(page).locator('[data-exercise="9"]');
    assert.equal(await card.count(), 1);
    assert.equal(await page.locator('[data-role="preview"]').getAttribute('data-state'), 'clean');
    for (const part of ['[data-action="check"]', '[data-action="hint"]', '[data-action="solution"]', '[data-role="calculator"]']) {
      assert.equal(await card.locator(part).count(), 1, part);
    }
    await engineEval(page, { op: 'exercise.load', text: FIXTURE });
    const lecture = await engineEval(page, { op: 'exercise.solve', id: 9 });
    await answer(page, 9, { ring: '150 us', recursive_doubling: lecture.display.recursive_doubling, best: 'recursive_doubling' });
    assert.deepEqual(await verdicts(page, 9), { ring: 'incorrect', recursive_doubling: 'correct', best: 'correct' });
    await answer(page, 9, { ring: lecture.display.ring });
    assert.deepEqual(await verdicts(page, 9), { ring: 'correct', recursive_doubling: 'correct', best: 'correct' });
    assert.match(await card.locator('[data-role="status"]').textContent(), /Solved/);
    await card.locator('[data-action="solution"]').click();
    assert.match(await card.locator('[data-role="solution"]').textContent(), /Recursive doubling: 3 steps/);
    // Its progress is the preview's alone: nothing lands in the student's record.
    const keys = await page.evaluate(() => Object.keys(localStorage));
    assert.deepEqual(keys.filter((k) => k.startsWith('commlab.v2.progress.') || k.startsWith('commlab.v2.current.')), []);

    // The variants of the first five seeds, as the engine draws and answers them.
    const rows = view(page).locator('[data-role="variants"] tbody tr');
    assert.equal(await rows.count(), 5);
    for (const seed of [1, 5]) {
      const drawn = await engineEval(page, { op: 'exercise.variant', id: 9, seed });
      const solved = await engineEval(page, { op: 'exercise.solve', id: 9, params: drawn.params });
      const row = view(page).locator(`[data-role="variants"] tr[data-seed="${seed}"]`);
      for (const id of ['devices', 'bytes', 'alpha_s', 'beta_Bps']) {
        assert.equal(await row.locator(`[data-param="${id}"]`).textContent(), solved.params_display[id].replace(/(\d) ?us\b/, '$1 µs'), `seed ${seed} ${id}`);
      }
      for (const id of ['ring', 'recursive_doubling']) {
        assert.equal(await row.locator(`[data-result="${id}"]`).textContent(), solved.display[id].replace(/(\d) ?us\b/, '$1 µs'), `seed ${seed} ${id}`);
      }
      assert.equal(await row.locator('[data-result="best"]').textContent(), solved.display.best === 'ring' ? 'Ring' : 'Recursive doubling');
    }
    // "Try it" shows that variant in the card; its right answers pass there.
    const drawn = await engineEval(page, { op: 'exercise.variant', id: 9, seed: 2 });
    const solved = await engineEval(page, { op: 'exercise.solve', id: 9, params: drawn.params });
    await view(page).locator('tr[data-seed="2"] [data-action="try-variant"]').click();
    await settled(page);
    assert.notEqual(await card.getAttribute('data-variant'), 'lecture');
    assert.equal(await card.locator('[data-param="devices"]').inputValue(), String(drawn.params.devices));
    await answer(page, 9, { ring: solved.display.ring, recursive_doubling: solved.display.recursive_doubling, best: solved.answers.best });
    assert.deepEqual(await verdicts(page, 9), { ring: 'correct', recursive_doubling: 'correct', best: 'correct' });

    // In Chinese: the card and the table in the other language, the same figures.
    await page.locator('[data-preview-lang="zh"]').click();
    await settled(page);
    assert.match(await card.locator('h2').textContent(), /练习 9 ring 还是递归加倍？/);
    assert.match(await view(page).locator('[data-role="variants"] thead').textContent(), /种子/);
    assert.equal(await page.locator('[data-preview-lang="zh"]').getAttribute('aria-pressed'), 'true');
    // The preview back in English for the tests below.
    await page.locator('[data-preview-lang="en"]').click();
    await settled(page);
  });

  test('a JSON syntax error shows its line and column and selects the place', async () => {
    // A missing comma after the Chinese title (line 6): the engine stops at the next string.
    const broken = FIXTURE.replace('"zh": "ring 还是递归加倍？"', '"zh": "ring 还是递归加倍？" "x"');
    await textarea(page).fill(broken);
    await linted(page);
    const found = await problems(page);
    assert.equal(found.length, 1, JSON.stringify(found));
    const engine = await engineEval(page, { op: 'exercise.lint', text: broken });
    const [, line, bytes] = /line (\d+), column (\d+)/.exec(engine.problems[0]);
    assert.equal(line, '6');
    // The engine counts bytes; the page counts characters, as an editor does (7 CJK characters
    // of 3 bytes each before it on that line).
    assert.equal(Number(bytes), 42);
    assert.deepEqual([found[0].kind, found[0].line, found[0].column], ['syntax', '6', '28']);
    assert.match(found[0].text, /^Not valid JSON at line 6, column 28: syntax error while parsing object/);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'syntax');
    await page.locator('[data-problem="syntax"]').click();
    const caret = await textarea(page).evaluate((el) => {
      const before = el.value.slice(0, el.selectionStart).split('\n');
      return { line: before.length, column: before.at(-1).length + 1, text: el.value.slice(el.selectionStart, el.selectionEnd) };
    });
    assert.deepEqual(caret, { line: 6, column: 28, text: '"' });
    // The last version that loaded stays in the preview, marked as such.
    assert.equal(await page.locator('[data-role="preview"]').getAttribute('data-state'), 'stale');
    assert.match(await page.locator('[data-role="preview-status"]').textContent(), /did not load this version/);
  });

  test('start from a lecture exercise: a copy under a free id, asked first when it replaces a draft', async () => {
    const before = await textarea(page).inputValue();
    await page.locator('[data-role="start"]').selectOption('3');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-action="replace-cancel"]').click();
    assert.equal(await textarea(page).inputValue(), before, 'kept');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-action="replace-confirm"]').click();
    await linted(page);
    const text = await textarea(page).inputValue();
    const doc = JSON.parse(text);
    assert.equal(doc.id, 9);
    assert.ok(doc.compute && doc.compute.answers.best, 'computed by exercise 3\'s own compute section');
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    const card = view(page).locator('[data-exercise="9"]');
    assert.deepEqual(await card.locator('[data-answer]').evaluateAll((els) => els.map((e) => e.dataset.answer)),
      ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'best']);
    // The lecture's answers of exercise 3 pass in the copy.
    await answer(page, 9, { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' });
    assert.deepEqual(Object.values(await verdicts(page, 9)), Array(5).fill('correct'));
    // A blank template lints clean too.
    await page.locator('[data-role="start"]').selectOption('blank');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-action="replace-confirm"]').click();
    await linted(page);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    assert.equal(await view(page).locator('[data-exercise="9"] [data-answer="time"]').count(), 1);
    // A file opened through the file input replaces it too, and one dropped on the text.
    await page.locator('#author-file').setInputFiles({ name: '09.json', mimeType: 'application/json', buffer: Buffer.from(FIXTURE) });
    await page.locator('[data-action="replace-confirm"]').click();
    await linted(page);
    assert.equal(await textarea(page).inputValue(), FIXTURE);
    const dropped = FIXTURE.replace('"Ring or recursive doubling?"', '"Dropped in"');
    await textarea(page).evaluate((el, text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
      el.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, dropped);
    await page.locator('[data-action="replace-confirm"]').click();
    await linted(page);
    assert.equal(await textarea(page).inputValue(), dropped);
    assert.match(await view(page).locator('[data-exercise="9"] h2').textContent(), /Dropped in/);
  });

  test('the engine checks in its worker: no long task on the page while a slow document is linted and typed into', async () => {
    await page.evaluate(() => {
      globalThis.__long = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__long.push({ start: e.startTime, ms: e.duration }); })
        .observe({ type: 'longtask' });
    });
    // Exercise 6's lint solves 50 drawn variants of a pipeline: the slowest of the lecture's.
    await page.locator('[data-role="start"]').selectOption('6');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-action="replace-confirm"]').click();
    const typedFrom = await page.evaluate(() => performance.now());
    await textarea(page).press('Control+End');
    await page.keyboard.type('\n');
    await page.waitForFunction(() => document.querySelector('[data-role="lint-status"]').dataset.state !== 'checking', null, { timeout: 20000 });
    const answeredAt = await page.evaluate(() => performance.now());
    assert.ok(answeredAt - typedFrom > 300, 'the check took its pause and its time');
    // Run on the page, the lint would be one task as long as the check. Long tasks are wall time
    // (a loaded machine stretches short ones), so the longest is weighed against the check's time.
    const long = await page.evaluate(([a, b]) => globalThis.__long.filter((e) => e.start >= a && e.start < b), [typedFrom, answeredAt]);
    const longest_ms = Math.max(0, ...long.map((e) => e.ms));
    assert.ok(longest_ms < 0.5 * (answeredAt - typedFrom), `a ${longest_ms.toFixed(0)} ms task on the page during a ${(answeredAt - typedFrom).toFixed(0)} ms check: ${JSON.stringify(long)}`);
    await linted(page);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    assert.ok((await textarea(page).inputValue()).endsWith('}\n\n'));
  });

  test('a hostile document (markup in every text) is shown as text, never run', async () => {
    // An unknown field named with markup: the problem says it as text.
    const withKey = hostile();
    withKey.params[0][XSS] = 1;
    await textarea(page).fill(JSON.stringify(withKey, null, 2));
    await linted(page);
    assert.equal(await page.locator('[data-problem]').count(), 1);
    assert.match(await page.locator('[data-problem]').textContent(), /<script>window\.__xss=1<\/script><img src=x/);

    await textarea(page).fill(JSON.stringify(hostile(), null, 2));
    await linted(page);
    assert.equal(await page.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    const card = view(page).locator('[data-exercise="9"]');
    await answer(page, 9, { ring: '1 us' });
    await card.locator('[data-action="hint"]').click();
    await card.locator('[data-action="solution"]').click();
    await card.locator('[data-param="devices"]').fill('16');
    await settled(page);
    for (const lang of ['zh', 'en']) {
      await page.locator(`[data-preview-lang="${lang}"]`).click();
      await settled(page);
      assert.equal(await view(page).locator('img, script, iframe, object, embed').count(), 0, lang);
      for (const part of ['h2', '[data-role="statement"]', '[data-role="hints"]', '[data-role="solution"]', 'label[for="ex9-a-ring"]', 'label[for="ex9-p-devices"]']) {
        assert.ok((await card.locator(part).first().textContent()).includes('<script>window.__xss=1</script>'), `${lang} ${part}`);
      }
      assert.ok((await view(page).locator('[data-role="variants"] thead').textContent()).includes('<img src=x onerror="window.__xss=1">'));
    }
    assert.equal(await page.evaluate(() => globalThis.__xss), undefined);
  });

  test('no accessibility violations found by axe-core, at 1280 and 390 px', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await textarea(page).fill(MISTAKES.replace(UNIT_BAD, UNIT_OK));
      await linted(page);
      assert.deepEqual(await axeViolations(page), [], `with a problem, at ${viewport.width}px`);
      await textarea(page).fill(FIXTURE);
      await linted(page);
      assert.deepEqual(await axeViolations(page), [], `with the preview, at ${viewport.width}px`);
    }
  });

  test('screenshots at 1280 and 390 px in both languages; nothing wider than a phone', async () => {
    const dir = screenshotDir();
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') await switchLanguage(page, 'zh');
      for (const [width, viewport] of [[1280, DESKTOP], [390, PHONE]]) {
        await page.setViewportSize(viewport);
        // The example in the editor, as the view starts.
        await textarea(page).fill(FIXTURE);
        await linted(page);
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en');
        await answer(page, 9, { ring: '100 us', recursive_doubling: '90 us' });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= viewport.width, `${width} ${lang}: the page is ${wide}px wide`);
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, { path: join(dir, `author-${width}-${lang}.png`), fullPage: true });
        // With problems beside the text.
        await textarea(page).fill(MISTAKES);
        await linted(page);
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= viewport.width);
        await shot(view(page).locator('.author-editor'), { path: join(dir, `author-problems-${width}-${lang}.png`) });
      }
    }
    await switchLanguage(page, 'en');
    await page.setViewportSize(DESKTOP);
  });

  test('the draft survives a reload, also when typed and left at once; storage that refuses it is said, with Download', async () => {
    const edited = FIXTURE.replace('"Ring or recursive doubling?"', '"Ring or recursive doubling, again?"');
    await textarea(page).fill(edited);
    await linted(page);
    assert.equal(await page.locator('[data-role="draft-status"]').getAttribute('data-state'), 'saved');
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), DRAFT_KEY), edited);
    // Typed and left at once (before the save's pause): kept on the way out, and the draft
    // comes back after the reload, in the editor and in the preview.
    await textarea(page).fill(`${edited} `);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    await page.waitForFunction(() => document.querySelector('textarea[data-role="document"]')?.value.trim());
    await linted(page);
    assert.equal(await textarea(page).inputValue(), `${edited} `);
    assert.match(await view(page).locator('[data-exercise="9"] h2').textContent(), /Ring or recursive doubling, again\?/);

    // A storage that is full: the draft is not saved, the view says so and offers Download.
    await page.evaluate(([flag, key]) => {
      sessionStorage.setItem(flag, '1');
      localStorage.removeItem(key);
    }, [REFUSE_DRAFT, DRAFT_KEY]);
    await openAuthor(page);
    const status = page.locator('[data-role="draft-status"]');
    assert.equal(await status.getAttribute('data-state'), 'not-saved');
    assert.match(await status.textContent(), /cannot be saved .*full or blocked.*download it/);
    await textarea(page).fill(edited);
    await linted(page);
    const [download] = await Promise.all([page.waitForEvent('download'), status.locator('[data-action="download"]').click()]);
    assert.equal(download.suggestedFilename(), '09.json');
    assert.equal(readFileSync(await downloadPath(download), 'utf8'), edited);
    await page.evaluate((flag) => sessionStorage.removeItem(flag), REFUSE_DRAFT);
  });

  test('from file:// (the single-file build): the blank template, linted and previewed, nothing fetched', async (t) => {
    const single = join(DIST, 'commlab-single.html');
    if (!existsSync(single)) {
      t.skip('dist/commlab-single.html not built');
      return;
    }
    // A page of its own: the one above holds a draft it could not save, so it asks before leaving.
    const filePage = await openPage(ctx, `${pathToFileURL(single).href}?view=author`, errors);
    await filePage.waitForFunction(() => document.querySelector('textarea[data-role="document"]')?.value.trim(), null, { timeout: 15000 });
    await linted(filePage);
    assert.equal(JSON.parse(await textarea(filePage).inputValue()).title.en, 'A new exercise');
    assert.deepEqual(await filePage.locator('[data-role="start"] option').evaluateAll((els) => els.map((e) => e.value)), ['blank']);
    assert.equal(await filePage.locator('[data-role="lint-status"]').getAttribute('data-state'), 'clean');
    await answer(filePage, 9, { time: '30 us' });
    assert.deepEqual(await verdicts(filePage, 9), { time: 'correct' });
    await filePage.close();
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
