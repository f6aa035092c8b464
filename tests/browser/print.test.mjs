// Worksheets (web/README.md "Answer keys and worksheets"): printed (print media, page.pdf) and with
// ?print=1 on screen, the page is each exercise's statement, its parameters and a blank line per
// answer, with no control, hint, solution, calculator or notice; ?seed=N shows that seed's
// variant (the engine's exercise.variant and exercise.solve, as `commlab exercise key` prints
// them), ?exercise=N one exercise; each exercise starts a page of its own, without blank pages.
// The preview at 1280 and 390 px (screenshots). One page for the file, each test loading the
// addresses it needs (a load costs 1-2 s here), resized between widths.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { answer, DESKTOP, DIST, engineEval, PHONE, screenshotDir, settled, shot, useLab } from './helpers.mjs';

const errors = [];
const IDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** What a worksheet shows and hides, read in the page (visible: laid out, not hidden by CSS). */
function sheet(page) {
  return page.evaluate(() => {
    const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
      el.getClientRects().length > 0;
    const describe = (el) => `${el.tagName.toLowerCase()}${el.dataset.action ? `[data-action=${el.dataset.action}]` : ''}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className}` : ''}`;
    const controls = [...document.querySelectorAll('button, input, select, textarea, summary, a[href], [contenteditable], [role="button"], [role="slider"]')]
      .filter(shown).map(describe);
    const hidden = ['.skip', '.page-head', '.toc', '#notice', '.embed-foot', '.calc', '.hints', '.solution', '.visuals',
      '.link-table', '.variant-note', '.variant-picker', '[data-role="status"]', '.verdict', '.summary', '.answers .actions',
      '.answers .note', '.rule']
      .flatMap((sel) => [...document.querySelectorAll(sel)].filter(shown)
        // a choice keeps its rule: the options, to circle
        .filter((el) => !(sel === '.rule' && el.closest('.answer')?.querySelector('select')))
        .map((el) => `${sel}: ${describe(el)}`));
    const cards = [...document.querySelectorAll('section.card')].map((card) => ({
      id: Number(card.dataset.exercise),
      variant: card.dataset.variant,
      title: shown(card.querySelector('h2')) ? card.querySelector('h2').innerText : null,
      statement: shown(card.querySelector('[data-role="statement"]')) ? card.querySelector('[data-role="statement"]').textContent : null,
      given: shown(card.querySelector('[data-role="given"]'))
        ? Object.fromEntries([...card.querySelectorAll('[data-given]')].filter(shown).map((dd) => [dd.dataset.given, dd.textContent]))
        : null,
      givenText: card.querySelector('[data-role="given"]')?.textContent ?? '',
      seed: card.querySelector('[data-role="seed"]') && shown(card.querySelector('[data-role="seed"]')) ? card.querySelector('[data-role="seed"]').textContent : null,
      // each answer: its label and unit, shown, and the width of the line to write on
      answers: [...card.querySelectorAll('.answer')].map((a) => ({
        label: shown(a.querySelector('label')) ? a.querySelector('label').textContent : null,
        unit: a.querySelector('.unit').textContent,
        unitShown: !a.querySelector('.unit').textContent || shown(a.querySelector('.unit')),
        line_px: parseFloat(getComputedStyle(a.querySelector('.field'), '::before').width) || 0,
        lineBorder: getComputedStyle(a.querySelector('.field'), '::before').borderBottomStyle,
      })),
    }));
    return { controls, hidden, cards, worksheetClass: document.documentElement.classList.contains('worksheet') };
  });
}

/** The statement of an exercise.solve answer as the page writes it (its own renderer, in the page). */
function rendered(page, res, lang = 'en') {
  return page.evaluate(async ({ res: r, lang: l }) => {
    const { renderParagraphs } = (await import('./boot.js')).__core['util/math.js'];
    const { prettyUnits } = (await import('./boot.js')).__core['util/units.js'];
    const box = document.createElement('div');
    renderParagraphs(box, prettyUnits(r.statement[l]));
    const given = Object.fromEntries(Object.entries(r.params_display).map(([k, v]) => [k, prettyUnits(v)]));
    return { statement: box.textContent, given };
  }, { res, lang });
}

/** The engine's answer for `seed`'s variant of exercise `id` (the lecture's when seed is null). */
async function solved(page, id, seed) {
  if (seed === null) return engineEval(page, { op: 'exercise.solve', id });
  const v = await engineEval(page, { op: 'exercise.variant', id, seed });
  assert.ok(!v.error, JSON.stringify(v.error));
  return engineEval(page, { op: 'exercise.solve', id, params: v.params });
}

/** The pages of a PDF (Chromium writes one /Type /Page object a page). */
const pagesOf = (pdf) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;

/** A worksheet shows every card's statement, given parameters and answer lines, and nothing else. */
function assertWorksheet(s, ids, where) {
  assert.deepEqual(s.controls, [], `${where}: no control shows`);
  assert.deepEqual(s.hidden, [], `${where}: no tool, hint, solution or notice shows`);
  assert.deepEqual(s.cards.map((c) => c.id), ids, where);
  for (const c of s.cards) {
    assert.ok(c.title?.includes(String(c.id)), `${where}: exercise ${c.id} has its title`);
    assert.ok(c.statement?.length > 40, `${where}: exercise ${c.id} shows its statement`);
    assert.ok(c.given && Object.keys(c.given).length > 0, `${where}: exercise ${c.id} shows its parameters`);
    assert.doesNotMatch(c.givenText, /null|undefined/, `${where}: exercise ${c.id}: the Given list is its parameters alone`);
    assert.ok(c.answers.length > 0);
    for (const a of c.answers) {
      assert.ok(a.label, `${where}: exercise ${c.id}: every answer label shows`);
      assert.ok(a.unitShown, `${where}: exercise ${c.id}, ${a.label}: its unit shows`);
      assert.ok(a.line_px >= 150 && a.lineBorder === 'solid', `${where}: exercise ${c.id}, ${a.label}: a line to write on (${a.line_px} px, ${a.lineBorder})`);
    }
  }
}

const lab = useLab();
after(() => assert.deepEqual(errors, []));

test('the prerendered page (dist/index.html) has no "null" in its Given lists', () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const given = [...html.matchAll(/<div class="worksheet-given"[^>]*>(.*?)<\/div>/g)].map((m) => m[1]);
  assert.ok(given.length >= 8, `${given.length} Given lists`);
  for (const g of given) assert.doesNotMatch(g, />null<|^null|<\/h3>null/, g.slice(0, 120));
});


describe('worksheets', () => {
  let ctx;
  let page;
  // In the describe: a root-level before runs at once in Node 20, before useLab's has a browser.
  before(async () => {
    ctx = await lab.browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await ctx.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`${page.url()}: console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  });
  after(() => ctx?.close());

  /** Loads `query` (unless the page shows it already) and waits until no card waits on the engine. */
  async function at(query) {
    if (page.url() === new URL(`${lab.server.url}${query}`).href) return;
    await page.goto(`${lab.server.url}${query}`);
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
    await settled(page);
  }

  /** The page with a bad print value: named in the address's problems, the page as it is; said once in the console. */
  async function badPrintValue(value, words) {
    const item = page.locator('#link-problems li[data-setting="print"]');
    assert.equal(await item.isVisible(), true);
    assert.match(await item.innerText(), words);
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('worksheet')), false);
    assert.equal(await page.locator('[data-exercise="1"] [data-action="check"]').isVisible(), true);
    // Said in the console too (for whoever wrote the link), and nothing else (the file's after).
    const told = errors.filter((e) => e.includes(`console: commlab: print: "${value}" is not allowed; allowed: 1.`));
    assert.equal(told.length, 1, errors.join('\n'));
    errors.splice(0, errors.length, ...errors.filter((e) => !told.includes(e)));
  }

  /** The pages page.pdf gives for the page as it is, and for each of `ids` alone (the other cards taken out meanwhile). */
  async function pdfPages(ids = []) {
    const all = pagesOf(await page.pdf({ format: 'A4' }));
    const alone = [];
    for (const n of ids) {
      await page.evaluate((id) => {
        const main = document.querySelector('main');
        globalThis.__keptCards = [...main.children];
        for (const card of main.querySelectorAll('section.card')) if (card.dataset.exercise !== String(id)) card.remove();
      }, n);
      alone.push(pagesOf(await page.pdf({ format: 'A4' })));
      await page.evaluate(() => document.querySelector('main').replaceChildren(...globalThis.__keptCards));
    }
    return { all, alone };
  }

  /** At 1280 and 390 px (resized): nothing wider than the screen; a screenshot named `name`-desktop|phone. */
  async function checkWidths(name) {
    const dir = screenshotDir();
    for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if (name) await shot(page, { path: join(dir, `${name}-${label}.png`), fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${page.url()} ${label}: nothing wider than the screen (${overflow} px)`);
    }
    await page.setViewportSize(DESKTOP);
  }

  test('a bad print value is named in the address\'s problems and the page stays as it is; printed, that page is a worksheet (8-16 pages): no hint, solution, verdict, notice or control of the work done on screen', async () => {
    await at('?print=2&lang=en');
    await badPrintValue('2', /^print: "2" is not allowed; allowed: 1\.$/);
    // Work on screen: a wrong check (verdict, attempts), a hint, the solution, a refused import (a notice).
    await answer(page, 2, { bytes_sent: '1 MB', steps: '3', time: '2 ms' });
    const card2 = page.locator('[data-exercise="2"]');
    await card2.locator('[data-action="hint"]').click();
    await card2.locator('[data-action="solution"]').click();
    await page.locator('#import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('[1,2]') });
    await page.waitForSelector('#notice:not([hidden])');
    await settled(page);
    const screen = await sheet(page);
    assert.ok(screen.controls.length > 50, 'on screen the controls show');
    for (const sel of ['.page-head', '#notice', '.calc', '.hints', '.solution', '[data-role="status"]', '.verdict']) {
      assert.ok(screen.hidden.some((x) => x.startsWith(`${sel}:`)), `on screen ${sel} shows`);
    }
    assert.ok(screen.cards.every((c) => c.given === null), 'the list of parameters is the worksheet\'s only');
    await page.emulateMedia({ media: 'print' });
    const printed = await sheet(page);
    assertWorksheet(printed, IDS, 'print media');
    assert.equal(printed.worksheetClass, false);
    // What was typed is not printed: the fields are lines.
    assert.equal(await card2.locator('[data-answer="steps"]').isVisible(), false);
    await page.emulateMedia({ media: null });
    // Printed without ?print=1, the page gives the same worksheet (the lecture's values here).
    const { all: plain } = await pdfPages();
    assert.ok(plain >= IDS.length && plain <= 2 * IDS.length, `the page printed: ${plain} pages`);
  });

  test('in Chinese too a bad print value is named; ?print=1 shows the worksheet on screen, with the lecture\'s values even where this browser last showed a variant', async () => {
    await at('?print=yes&lang=zh');
    await badPrintValue('yes', /^print：不能取 "yes"；可取：1。$/);
    // A variant of exercise 3 becomes this browser's current one.
    const lecture3 = await page.locator('[data-exercise="3"] [data-role="statement"]').textContent();
    for (let i = 0; i < 5; i++) {
      await page.locator('[data-exercise="3"] [data-action="variant"]').click();
      await settled(page);
      if (await page.locator('[data-exercise="3"] [data-role="statement"]').textContent() !== lecture3) break;
    }
    assert.notEqual(await page.locator('[data-exercise="3"]').getAttribute('data-variant'), 'lecture');
    await at('?print=1');
    const s = await sheet(page);
    assert.equal(s.worksheetClass, true);
    assertWorksheet(s, IDS, '?print=1');
    for (const c of s.cards) {
      assert.equal(c.variant, 'lecture', `exercise ${c.id}`);
      assert.equal(c.seed, null, `exercise ${c.id}: no seed is said`);
      const want = await rendered(page, await solved(page, c.id, null));
      assert.equal(c.statement, want.statement, `exercise ${c.id}: the lecture's statement`);
      assert.deepEqual(c.given, want.given, `exercise ${c.id}: the lecture's parameters`);
    }
    // The worksheet's text reads dark on white, whatever the system's colour scheme.
    await page.emulateMedia({ colorScheme: 'dark' });
    const colours = await page.evaluate(() => [getComputedStyle(document.querySelector('[data-role="statement"]')).color,
      getComputedStyle(document.querySelector('main')).backgroundColor]);
    assert.deepEqual(colours, ['rgb(0, 0, 0)', 'rgb(255, 255, 255)']);
    await page.emulateMedia({ colorScheme: null });
  });

  test('?print=1&seed=N: each card is that seed\'s variant, the engine\'s figures, in both languages; the Chinese worksheet prints on 8-16 pages', async () => {
    // Chinese first: the page stays on the English seed 7 for the tests after.
    for (const [lang, seed] of [['zh', 123456], ['en', 7]]) {
      await at(`?print=1&seed=${seed}&lang=${lang}`);
      const s = await sheet(page);
      assertWorksheet(s, IDS, `?print=1&seed=${seed}&lang=${lang}`);
      let differs = 0;
      for (const c of s.cards) {
        const res = await solved(page, c.id, seed);
        const want = await rendered(page, res, lang);
        assert.equal(c.statement, want.statement, `exercise ${c.id}: seed ${seed}'s statement`);
        assert.deepEqual(c.given, want.given, `exercise ${c.id}: seed ${seed}'s parameters`);
        assert.equal(c.seed, lang === 'zh' ? `变式：种子 ${seed}` : `Variant: seed ${seed}`);
        const doc = await engineEval(page, { op: 'exercise.get', id: c.id });
        assert.deepEqual(c.answers.map((a) => a.label), doc.answers.map((a) => a.label[lang]), `exercise ${c.id}: the labels in ${lang}`);
        if (want.statement !== (await rendered(page, await solved(page, c.id, null), lang)).statement) differs += 1;
      }
      assert.ok(differs >= 6, `seed ${seed}: most statements are not the lecture's (${differs} of 8 differ)`);
      if (lang === 'zh') {
        const { all: zh } = await pdfPages();
        assert.ok(zh >= IDS.length && zh <= 2 * IDS.length, `the Chinese worksheet: ${zh} pages`);
      }
    }
  });

  test('page.pdf: one page an exercise, each starting its own, no blank page; the worksheet no wider than 1280 and 390 px', async () => {
    await at('?print=1&seed=7&lang=en');
    // Each exercise alone: one or two pages (measured: one each, on A4). All of them: each starts
    // a page (so no fewer pages than the exercises alone give) and nothing more (no blank page):
    // exactly their sum.
    const { all, alone } = await pdfPages(IDS);
    assert.ok(alone.every((p) => p >= 1 && p <= 2), `pages of each exercise alone: ${alone}`);
    assert.equal(all, alone.reduce((a, b) => a + b, 0), `the whole worksheet: ${all} pages, alone ${alone}`);
    await checkWidths(null);
  });

  test('?print=1&exercise=N&seed=M: that exercise alone, that variant, on one or two pages; the preview at 1280 and 390 px (screenshots), nothing wider than the screen', async () => {
    await at('?print=1&exercise=6&seed=42');
    const s = await sheet(page);
    assertWorksheet(s, [6], '?print=1&exercise=6&seed=42');
    const want = await rendered(page, await solved(page, 6, 42));
    assert.equal(s.cards[0].statement, want.statement);
    assert.deepEqual(s.cards[0].given, want.given);
    const { all } = await pdfPages();
    assert.ok(all >= 1 && all <= 2, `exercise 6 alone: ${all} pages`);
    await checkWidths('worksheet');
  });
});
