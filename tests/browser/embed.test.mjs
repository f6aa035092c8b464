// Embedding in a course site (web/README.md "Embedding in a course site"): a course page on another site
// (http://localhost:<port>, served here) embeds exercises of the lab (http://127.0.0.1:<port>)
// with embed.js. Work survives reloads in both frames, a reset stays in its frame, frames shrink,
// the host hears ready/checked/solved, foreign windows are ignored, and the URL options work.
// Screenshots of the course page at 1280 and 390 px, light and dark.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { answerIn, courseSite, DIST, downloadPath, launch, screenshotDir, serve, shot, TAKE_SCREENSHOTS } from './helpers.mjs';

const LECTURE3 = { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' };
const WRONG6 = { microbatches: '4', token_interval: '1.1 ms' };

let lab;
let host;
let browser;
const errors = [];

// The host records every event embed.js re-dispatches on the divs.
const RECORDER = `<script>
  window.events = [];
  for (const type of ['commlab-ready', 'commlab-height', 'commlab-checked', 'commlab-solved', 'commlab-state'])
    document.addEventListener(type, (e) => window.events.push({ on: e.target.dataset.commlabExercise, ...e.detail }));
</script>`;

function coursePage(divs) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course: GPU communication</title><link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font-family: Georgia, serif; }
  body { max-width: 52rem; margin: 0 auto; padding: 1rem; }
  @media (prefers-color-scheme: dark) { body { background: #111; color: #ddd; } }
  .exercise { margin: 1.5rem 0; }
</style>${RECORDER}</head><body>
<h1>Week 5: communication in a GPU cluster</h1>
<p>Work through the two exercises below; your progress stays in this page.</p>
${divs}
<script src="${lab.url}embed.js" defer></script>
</body></html>`;
}

// A cross-site frame below the fold gets no animation frames, so a wait inside one polls on a
// timer (`polling: 100`): Playwright's default polls on requestAnimationFrame and would never look again.
const frameOf = (page, n) => page.frames().find((f) => f.url().includes(`exercise=${n}&`));

async function openCourse(ctx, path = '/', n = 2) {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => errors.push(`host: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  await page.goto(`${host.url}${path}`);
  await page.waitForFunction((k) => window.events.filter((e) => e.type === 'commlab:ready').length >= k, n, { timeout: 20000 });
  // Restores are answered right after ready; let them land.
  await page.waitForTimeout(300);
  return page;
}

const events = (page, type) => page.evaluate((t) => window.events.filter((e) => e.type === t), type);
const frameHeight = (page, n) => page.locator(`iframe[data-commlab-frame="${n}"]`).evaluate((f) => f.getBoundingClientRect().height);


const verdictsIn = (frame) => frame.locator('[data-answer]').evaluateAll((els) =>
  Object.fromEntries(els.map((el) => [el.dataset.answer, el.dataset.verdict ?? null])));

before(async () => {
  assert.ok(existsSync(join(DIST, 'embed.js')), 'dist/embed.js is missing: run ./lab build first');
  // The lab lists the course site as a frame ancestor, as a host must (web/README.md "Hosting").
  lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
  const pages = {
    '/': coursePage(`<div class="exercise" data-commlab-exercise="3"></div>
<div class="exercise" data-commlab-exercise="6"></div>`),
    '/options': coursePage(`<div data-commlab-exercise="2" data-seed="42" data-lang="zh" data-calculator="off" data-reveal="never" data-hints="off"></div>
<div data-commlab-exercise="1" data-reveal="after-attempt"></div>`),
    '/foreign': coursePage(`<div data-commlab-exercise="3"></div>`),
    // A hand-made frame without embed.js: nobody keeps the progress for it.
    '/plain': `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${RECORDER}
<iframe src="${lab.url}index.html?exercise=6&embed=1" style="width:100%;height:1400px;border:0"></iframe>`,
  };
  host = await courseSite(pages);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
});

describe('embedded in a course page', () => {
  test('two exercises keep their work across reloads; a reset stays in its frame; the host hears it all', async (t) => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    let page = await openCourse(ctx);
    const ready = await events(page, 'commlab:ready');
    assert.deepEqual(ready.map((e) => [e.on, e.exercise, e.lang]).sort(), [['3', 3, 'en'], ['6', 6, 'en']]);
    const ex3 = frameOf(page, 3);
    const ex6 = frameOf(page, 6);
    // Embed mode: no page header, no link that would navigate the frame away.
    assert.equal(await ex3.locator('.page-head').isVisible(), false);
    assert.equal(await ex3.locator('#show-all').isVisible(), false);
    const links = await ex3.locator('a:visible').evaluateAll((as) => as.map((a) => a.target));
    assert.ok(links.length >= 1 && links.every((t) => t === '_blank'), `links: ${links}`);
    const storage = await ex3.evaluate(() => { try { return localStorage.length >= 0; } catch { return false; } });

    await answerIn(ex3, LECTURE3);
    await answerIn(ex6, WRONG6);
    await page.waitForFunction(() => window.events.filter((e) => e.type === 'commlab:checked').length >= 2);
    const checked = await events(page, 'commlab:checked');
    const c3 = checked.find((e) => e.exercise === 3);
    assert.deepEqual(c3, {
      on: '3', type: 'commlab:checked', exercise: 3, variant: 'lecture', all_correct: true, attempts: 1,
      verdicts: Object.fromEntries(Object.keys(LECTURE3).map((k) => [k, 'correct'])),
    });
    const c6 = checked.find((e) => e.exercise === 6);
    assert.deepEqual(c6.verdicts, { microbatches: 'incorrect', token_interval: 'incorrect' });
    assert.equal(c6.all_correct, false);
    const solved = await events(page, 'commlab:solved');
    assert.deepEqual(solved, [{ on: '3', type: 'commlab:solved', exercise: 3, variant: 'lecture', attempts: 1, revealed: false }]);

    // The frame shrinks again when the worked solution closes.
    await page.waitForTimeout(200);
    const before = await frameHeight(page, 3);
    await ex3.locator('[data-action="solution"]').click();
    await page.waitForFunction((h) => document.querySelector('iframe[data-commlab-frame="3"]').getBoundingClientRect().height > h + 100, before);
    await ex3.locator('[data-action="solution"]').click();
    await page.waitForFunction((h) => document.querySelector('iframe[data-commlab-frame="3"]').getBoundingClientRect().height <= h + 2, before);
    const inner = await ex3.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(Math.abs(inner - (await frameHeight(page, 3))) < 40, 'the frame is as tall as its content');

    // Reload: both kept (held by the course page when the frame has no storage of its own).
    await page.reload();
    await page.waitForFunction(() => new Set(window.events.filter((e) => e.type === 'commlab:ready').map((e) => e.on)).size >= 2);
    let f3 = frameOf(page, 3);
    let f6 = frameOf(page, 6);
    await f3.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { timeout: 10000, polling: 100 });
    assert.match(await f3.locator('[data-role="status"]').innerText(), /Solved/);
    await f6.waitForFunction(() => document.querySelector('[data-answer="microbatches"]')?.dataset.verdict === 'incorrect', null, { timeout: 10000, polling: 100 });
    assert.equal(await f6.locator('[data-answer="microbatches"]').inputValue(), '4');

    // Reset inside exercise 6 leaves exercise 3 alone, now and after a reload.
    await f6.locator('[data-action="reset"]').click();
    await f6.locator('[data-action="reset-confirm"]').click();
    await f6.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { polling: 100 });
    assert.equal(await f6.locator('[data-answer="microbatches"]').inputValue(), '');
    await page.reload();
    await page.waitForFunction(() => new Set(window.events.filter((e) => e.type === 'commlab:ready').map((e) => e.on)).size >= 2);
    f3 = frameOf(page, 3);
    f6 = frameOf(page, 6);
    await f3.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { timeout: 10000, polling: 100 });
    await page.waitForTimeout(300);
    assert.equal(await f6.locator('[data-answer="microbatches"]').inputValue(), '');
    assert.equal(await f6.locator('[data-answer="microbatches"]').getAttribute('data-verdict'), null);

    // The host switches the language of every frame.
    await page.evaluate(() => window.commlab.setLang('zh'));
    await f3.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { polling: 100 });
    await f6.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { polling: 100 });
    assert.ok(errors.length === 0, errors.join('\n'));
    t.diagnostic(`the lab frame's own localStorage ${storage ? 'works' : 'throws (progress held by the course page)'}`);
    await ctx.close();
  });

  test('setLang called while the frames still load reaches them once they are ready', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.on('pageerror', (err) => errors.push(`host: ${err.message}`));
    await page.goto(host.url);
    // Before any frame said ready: the message finds no listener in a loading frame.
    await page.waitForFunction(() => window.commlab);
    const early = await page.evaluate(() => {
      const readyBefore = window.events.filter((e) => e.type === 'commlab:ready').length;
      window.commlab.setLang('zh');
      return readyBefore;
    });
    assert.equal(early, 0, 'setLang ran before the frames were ready');
    await page.waitForFunction(() => window.events.filter((e) => e.type === 'commlab:ready').length >= 2, null, { timeout: 20000 });
    for (const n of [3, 6]) await frameOf(page, n).waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { timeout: 10000, polling: 100 });
    assert.match(await page.locator('iframe[data-commlab-frame="3"]').getAttribute('title'), /[\u4e00-\u9fff]/);
    await ctx.close();
  });

  test('messages from a window other than the parent are ignored', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await openCourse(ctx, '/foreign', 1);
    const f3 = frameOf(page, 3);
    await answerIn(f3, LECTURE3);
    await f3.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { polling: 100 });
    // A sibling frame of the course page (not the lab frame's parent) sends reset and set-lang.
    await page.evaluate(() => new Promise((resolve) => {
      const sib = document.createElement('iframe');
      sib.srcdoc = `<script>
        const lab = parent.document.querySelector('iframe[data-commlab-frame]').contentWindow;
        lab.postMessage({ type: 'commlab:reset', exercise: 3 }, '*');
        lab.postMessage({ type: 'commlab:set-lang', lang: 'zh' }, '*');
        lab.postMessage({ type: 'commlab:restore', exercise: 3, state: { current: 'lecture', variants: {} } }, '*');
      <\/script>`;
      sib.onload = () => setTimeout(resolve, 500);
      document.body.append(sib);
    }));
    assert.equal(await f3.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await f3.evaluate(() => document.documentElement.lang), 'en');
    // The parent itself may: reset erases that exercise.
    await page.evaluate(() => window.commlab.reset());
    await f3.waitForFunction(() => !document.querySelector('[data-answer="ring"]').dataset.verdict, null, { polling: 100 });
    // Unknown types and malformed messages from the parent change nothing and throw nothing.
    await page.evaluate(() => {
      const w = document.querySelector('iframe[data-commlab-frame]').contentWindow;
      for (const m of [null, 'commlab:reset', { type: 'commlab:nonsense' }, { type: 'commlab:restore', exercise: 3, state: { variants: { lecture: { attempts: -1 } } } }]) w.postMessage(m, '*');
    });
    await page.waitForTimeout(300);
    assert.match(await f3.locator('#notice').innerText(), /not used/);
    assert.ok(errors.length === 0, errors.join('\n'));
    await ctx.close();
  });

  test('URL options: seed fixes the variant for a class, lang, calculator=off, reveal=never, hints=off, reveal=after-attempt', async () => {
    const variantFor = async () => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await openCourse(ctx, '/options');
      const f2 = frameOf(page, 2);
      const out = {
        variant: await f2.locator('[data-exercise="2"]').getAttribute('data-variant'),
        lang: await f2.evaluate(() => document.documentElement.lang),
        calculator: await f2.locator('[data-role="calculator"]').isVisible(),
        solution: await f2.locator('[data-action="solution"]').isVisible(),
        hint: await f2.locator('[data-action="hint"]').isVisible(),
        newVariant: await f2.locator('[data-action="variant"]').isVisible(),
      };
      // reveal=never: even after a wrong check nothing shows the answers.
      await answerIn(f2, { steps: '1' });
      out.solutionAfter = await f2.locator('[data-action="solution"]').isVisible();
      // reveal=after-attempt (exercise 1): the calculator's results show after the first check.
      const f1 = frameOf(page, 1);
      out.maskedBefore = await f1.locator('[data-masked]').first().getAttribute('data-masked');
      await answerIn(f1, { time: '1 us' });
      out.maskedAfter = await f1.locator('[data-masked]').first().getAttribute('data-masked');
      await ctx.close();
      return out;
    };
    const a = await variantFor();
    const b = await variantFor();
    assert.notEqual(a.variant, 'lecture');
    assert.equal(a.variant, b.variant, 'the same seed gives every student the same variant');
    assert.equal(a.lang, 'zh-CN');
    assert.equal(a.calculator, false);
    assert.equal(a.solution, false);
    assert.equal(a.solutionAfter, false);
    assert.equal(a.hint, false);
    assert.equal(a.newVariant, false);
    assert.equal(a.maskedBefore, 'true');
    assert.equal(a.maskedAfter, 'false');
    assert.ok(errors.length === 0, errors.join('\n'));
  });

  test('a frame with no storage and a host that keeps nothing says so, and export still works', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
    const page = await openCourse(ctx, '/plain', 0);
    const frame = frameOf(page, 6);
    await frame.waitForSelector('html[data-ready="true"]');
    await answerIn(frame, WRONG6);
    await frame.waitForFunction(() => /cannot save/.test(document.querySelector('#notice').textContent), null, { timeout: 5000, polling: 100 });
    assert.equal(await frame.locator('#notice').isVisible(), true);
    const [download] = await Promise.all([page.waitForEvent('download'), frame.locator('[data-action="export"]').click()]);
    const file = JSON.parse(await (await import('node:fs/promises')).readFile(await downloadPath(download), 'utf8'));
    assert.equal(file.exercises['6'].variants.lecture.answers.microbatches, '4');
    await ctx.close();
  });

  test('frames of the lab\'s own origin follow each other through storage events; a reset stays in its exercise', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const open = async (n) => {
      const p = await ctx.newPage();
      p.on('pageerror', (err) => errors.push(`${n}: ${err.message}`));
      await p.goto(`${lab.url}?exercise=${n}&embed=1`);
      await p.waitForSelector('html[data-ready="true"]');
      return p;
    };
    const a = await open(3);
    const b = await open(3);
    const c = await open(6);
    await answerIn(a, LECTURE3);
    // b shows a's work without a reload: the storage event carried it.
    await b.waitForFunction(() => document.querySelector('[data-answer="ring"]').dataset.verdict === 'correct', null, { polling: 100 });
    assert.match(await b.locator('[data-role="status"]').innerText(), /Solved/);
    await answerIn(c, WRONG6);
    // A reset in b erases exercise 3 in a too, and leaves exercise 6 alone.
    await b.locator('[data-action="reset"]').click();
    await b.locator('[data-action="reset-confirm"]').click();
    await a.waitForFunction(() => !document.querySelector('[data-answer="ring"]').dataset.verdict, null, { polling: 100 });
    assert.equal(await a.locator('[data-answer="ring"]').inputValue(), '');
    await c.reload();
    await c.waitForSelector('html[data-ready="true"]');
    assert.equal(await c.locator('[data-answer="microbatches"]').getAttribute('data-verdict'), 'incorrect');
    // An older record arriving late never replaces a newer one.
    const send = (updated) => c.evaluate((when) => {
      const key = 'commlab.v2.progress.6.lecture';
      const now = JSON.parse(localStorage.getItem(key));
      const other = { ...now, answers: { microbatches: '1' }, verdicts: {}, messages: {}, updated: when };
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: JSON.stringify(other), storageArea: localStorage }));
    }, updated);
    await send('2000-01-01T00:00:00.000Z');
    await c.waitForTimeout(300); // past the redraw of touched cards (a frame, at most 100 ms)
    assert.equal(await c.locator('[data-answer="microbatches"]').inputValue(), '4');
    await send('2999-01-01T00:00:00.000Z'); // a newer one is taken
    await c.waitForFunction(() => document.querySelector('[data-answer="microbatches"]').value === '1', null, { timeout: 2000, polling: 100 });
    // A flood of 2,000 writes from elsewhere redraws the card once a frame, not 2,000 times.
    const flood_ms = await c.evaluate(async () => {
      const key = 'commlab.v2.progress.6.lecture';
      const now = JSON.parse(localStorage.getItem(key));
      const t0 = performance.now();
      for (let i = 0; i < 2000; i++) {
        const other = { ...now, answers: { microbatches: String(i) }, updated: `3000-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0').slice(-3)}Z` };
        window.dispatchEvent(new StorageEvent('storage', { key, newValue: JSON.stringify(other), storageArea: localStorage }));
      }
      const last = { ...now, answers: { microbatches: 'last' }, updated: '3001-01-01T00:00:00.000Z' };
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: JSON.stringify(last), storageArea: localStorage }));
      await new Promise((resolve) => {
        const wait = () => (document.querySelector('[data-answer="microbatches"]').value === 'last' ? resolve() : requestAnimationFrame(wait));
        wait();
      });
      return performance.now() - t0;
    });
    console.log(`storage flood: 2,000 events in ${flood_ms.toFixed(0)} ms`);
    assert.ok(flood_ms < 2000, `2,000 storage events took ${flood_ms.toFixed(0)} ms`);
    await ctx.close();
    assert.ok(errors.length === 0, errors.join('\n'));
  });

  // Nothing to check here but the pictures: run when they are taken (helpers.shot).
  test('screenshots of the course page: 1280 and 390 px, light and dark', { skip: !TAKE_SCREENSHOTS && 'screenshots only (COMMLAB_SCREENSHOTS=1)' }, async () => {
    const dir = screenshotDir();
    for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
      for (const scheme of ['light', 'dark']) {
        const ctx = await browser.newContext({ viewport, colorScheme: scheme, locale: 'en-US' });
        const page = await openCourse(ctx);
        await answerIn(frameOf(page, 3), LECTURE3);
        await page.waitForTimeout(300);
        // Frames from another site paint only inside the viewport: make it as tall as the page.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: viewport.width, height });
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForTimeout(300);
        await shot(page, { path: join(dir, `embed-${name}-${scheme}.png`) });
        await ctx.close();
      }
    }
  });
});
