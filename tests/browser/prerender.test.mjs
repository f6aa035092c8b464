// The prerendered page (./lab build writes the cards into index.html, web/tools/prerender.mjs):
// readable before the engine, equal to the live cards once it is there, in both languages; a
// check pressed before the engine is there says so, gives no verdict, and is answered when the
// engine is ready; what was typed meanwhile is kept. The .wasm is held back by the test. Once the
// engine is there, the same pages say where it runs: in the worker, or on the main thread without
// workers or when the worker cannot load, and the page still checks (a page load each is what
// these tests cost, so each page serves both).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settled, useLab } from './helpers.mjs';


const lab = useLab();

const NO_FIRST = (r) => r.fulfill({ contentType: 'application/json', body: '{"requests":[],"responses":[]}' });

/**
 * A fresh page whose .wasm download waits until release() (the worker's fetch included).
 * Without `built`, the build's answers (engine/first.json) are not for this page, so the cards
 * stay prerendered until the engine answers; with it, they come alive from those answers.
 * `setup(ctx)` readies the context before the page opens; `fetched` lists the paths it requests.
 */
async function heldBack(locale, path = '', { built = false, setup = null } = {}) {
  const ctx = await lab.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  if (!built) await ctx.route('**/engine/first.json', NO_FIRST);
  if (setup) await setup(ctx);
  let release;
  const gate = new Promise((r) => { release = r; });
  let asked = 0;
  await ctx.route('**/*.wasm', async (route) => {
    asked += 1;
    await gate;
    await route.continue();
  });
  const page = await ctx.newPage();
  const errors = [];
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${lab.server.url}${path}`, { waitUntil: 'domcontentloaded' });
  return { ctx, page, errors, fetched, release, asked: () => asked };
}

// Every visible card's text, the pictures left out (drawn live only), keyed by exercise.
function visibleCards(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#exercises > section.card')]
    .filter((c) => c.offsetParent !== null)
    .map((c) => {
      const copy = c.cloneNode(true);
      copy.querySelector('[data-role="visuals"]')?.remove();
      copy.removeAttribute('data-prerendered'); // laid out even off screen (content-visibility)
      document.body.append(copy); // innerText needs layout
      const text = copy.innerText;
      copy.remove();
      return [c.dataset.exercise, { text, prerendered: c.hasAttribute('data-prerendered'), lang: c.lang }];
    })));
}

/** Types `text` into answer `field` of card `n`, checks, and returns that field's verdict. */
async function checks(page, n = 2, field = 'steps', text = '6') {
  const card = page.locator(`section.card[data-exercise="${n}"]`);
  await card.locator(`[data-answer="${field}"]`).fill(text);
  await card.locator('[data-action="check"]').click();
  await settled(page);
  return card.locator(`[data-answer="${field}"]`).getAttribute('data-verdict');
}

const runsIn = (page) => page.evaluate(async () => window.commlabBoot.door.heavyRunsIn());

describe('the prerendered page, and where the engine runs', () => {
  for (const [locale, lang] of [['en-US', 'en'], ['zh-CN', 'zh-CN']]) {
    const where = lang === 'en' ? '; the engine runs in the worker, and nothing on the page fetches it itself' : '';
    test(`the ${lang} cards are readable before the engine and equal the live ones${where}`, async () => {
      const { ctx, page, errors, fetched, release, asked } = await heldBack(locale);
      const early = await visibleCards(page);
      assert.deepEqual(Object.keys(early), ['1', '2', '3', '4', '5', '6', '7', '8']);
      for (const [id, c] of Object.entries(early)) {
        assert.ok(c.prerendered, `card ${id} is the prerendered one`);
        assert.equal(c.lang, lang);
        assert.match(c.text, /\d/, `card ${id} shows its statement's figures`);
        assert.doesNotMatch(c.text, /\{[a-z_]+\}/, `card ${id}: no template placeholders`);
      }
      assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), undefined);
      assert.equal(asked(), 1, 'the worker asked for the .wasm while the page was parsing');
      release();
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
      await settled(page);
      const live = await visibleCards(page);
      assert.deepEqual(Object.keys(live), Object.keys(early));
      for (const [id, c] of Object.entries(live)) {
        assert.equal(c.prerendered, false, `card ${id} is live`);
        assert.equal(c.text, early[id].text, `card ${id}: the prerendered text equals the live one`);
      }
      assert.equal(await page.locator('section.card[data-prerendered]').count(), 0);
      // index.html holds the English cards; the Chinese are fetched by their readers alone.
      assert.equal(fetched.filter((p) => p.endsWith('/cards-zh.html')).length, lang === 'en' ? 0 : 1, fetched.join(' '));
      if (lang === 'en') {
        // After the comparison: a check changes card 2.
        assert.equal(await checks(page), 'correct');
        assert.equal(await runsIn(page), 'worker');
        assert.equal(fetched.filter((p) => p.endsWith('.wasm')).length, 1, 'the .wasm is fetched once');
      }
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }

  test('the language saved in this browser decides which prerendered cards show, before the engine; when the worker cannot load, the engine runs on the main thread and the page still checks', async () => {
    const { ctx, page, release } = await heldBack('en-US', '', {
      setup: async (c) => {
        await c.addInitScript(() => localStorage.setItem('commlab.v2.lang', JSON.stringify('zh')));
        await c.route('**/engine/worker.js', (r) => r.fulfill({ status: 404, body: '' }));
      },
    });
    const shown = await visibleCards(page);
    assert.deepEqual(Object.keys(shown), ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.ok(Object.values(shown).every((c) => c.prerendered && c.lang === 'zh-CN'));
    assert.equal(await page.evaluate(() => document.documentElement.dataset.lang), 'zh');
    release();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
    assert.equal(await checks(page), 'correct');
    assert.equal(await runsIn(page), 'main thread');
    await ctx.close();
  });

  test('a check before the engine says it is loading, never a verdict, and is answered once it is there, on screen or below it', async () => {
    const { ctx, page, errors, release } = await heldBack('en-US');
    // Card 8 is below the screen: it comes alive after the page is ready (app/live_cards.js).
    const eight = page.locator('section.card[data-exercise="8"]:not([lang="zh-CN"])');
    await eight.locator('[data-answer="one_nic"]').fill('268 ms');
    await eight.locator('[data-action="check"]').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const card = page.locator('section.card[data-exercise="2"]:not([lang="zh-CN"])');
    await card.locator('[data-answer="steps"]').fill('6');
    await card.locator('[data-answer="time"]').fill('430 us');
    await card.locator('[data-action="check"]').click();
    const summary = card.locator('[data-role="summary"]');
    assert.equal(await summary.getAttribute('data-state'), 'engine-loading');
    assert.match(await summary.innerText(), /engine is still loading/);
    assert.equal(await page.locator('[data-verdict]').count(), 0, 'no verdict before the engine');
    assert.equal(page.url().includes('?'), false, 'the form did not navigate');
    release();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    await settled(page);
    const live = page.locator('section.card[data-exercise="2"]');
    assert.equal(await live.getAttribute('data-prerendered'), null);
    // What was typed is in the live card, and the check pressed early has been answered.
    assert.equal(await live.locator('[data-answer="steps"]').inputValue(), '6');
    assert.equal(await live.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await live.locator('[data-answer="time"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await live.locator('[data-answer="bytes_sent"]').getAttribute('data-verdict'), null);
    const liveEight = page.locator('section.card[data-exercise="8"]');
    assert.equal(await liveEight.getAttribute('data-prerendered'), null);
    assert.equal(await liveEight.locator('[data-answer="one_nic"]').getAttribute('data-verdict'), 'correct');
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('with the build\'s answers the cards come alive before the engine; a check waits for it and says so', async () => {
    const { ctx, page, errors, release } = await heldBack('en-US', '', { built: true });
    await page.waitForFunction(() => document.querySelectorAll('section.card[data-prerendered]').length === 0);
    const live = await visibleCards(page);
    assert.deepEqual(Object.keys(live), ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), undefined, 'not ready before the engine');
    const card = page.locator('section.card[data-exercise="2"]');
    await card.locator('[data-answer="steps"]').fill('6');
    await card.locator('[data-action="check"]').click();
    const summary = card.locator('[data-role="summary"]');
    assert.equal(await summary.getAttribute('data-state'), 'engine-loading');
    assert.match(await summary.innerText(), /engine is still loading/);
    assert.equal(await page.locator('[data-verdict]').count(), 0, 'no verdict before the engine');
    release();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    await settled(page);
    assert.equal(await card.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await summary.getAttribute('data-state'), null);
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('?exercise=N shows that card alone from the first paint, embedded without the page header; without workers the engine runs on the main thread and the card still checks', async () => {
    const { ctx, page, release } = await heldBack('en-US', '?exercise=5&embed=1', {
      setup: (c) => c.addInitScript(() => { window.COMMLAB_NO_WORKER = true; }),
    });
    const early = await visibleCards(page);
    assert.deepEqual(Object.keys(early), ['5']);
    assert.equal(await page.locator('.page-head').isVisible(), false);
    release();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
    await settled(page);
    const live = await visibleCards(page);
    assert.deepEqual(Object.keys(live), ['5']);
    assert.equal(live['5'].text, early['5'].text);
    // After the comparison: a check changes the card.
    assert.equal(await checks(page, 5, 'bytes_per_gpu', '18.8 GB'), 'correct');
    assert.equal(await runsIn(page), 'main thread');
    await ctx.close();
  });
});
