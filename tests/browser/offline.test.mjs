// Repeat visits, offline use and honest loading (web/README.md "Offline and updates", "How the
// page starts"): the service worker serves the second visit and the page checks answers with the
// network off; a new release is offered, not mixed in, and the student's work survives it; an
// engine that never arrives is named at 10 s, a worker that never answers is replaced within 5 s.
// Real timeouts here (not the shortened ones of engine_failure.test.mjs): the two waits run
// side by side.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, DIST, launch, serve } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const ready = (page, timeout = 20000) => page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout });
const EX2 = 'section.card[data-exercise="2"]:not([lang="zh-CN"])';

/** Exercise 2 answered right (the lecture's values) and checked: its two verdicts. */
async function checkExercise2(page) {
  const card = page.locator(EX2);
  await card.locator('[data-answer="steps"]').fill('6');
  await card.locator('[data-answer="time"]').fill('430 us');
  await card.locator('[data-action="check"]').click();
  await page.waitForFunction((sel) => document.querySelector(`${sel} [data-answer="steps"]`)?.dataset.verdict, EX2);
  return Promise.all(['steps', 'time'].map((f) => card.locator(`[data-answer="${f}"]`).getAttribute('data-verdict')));
}

describe('offline and updates', () => {
  // A copy of the site: the update test deploys a new release into it.
  let site;
  let server;
  before(async () => {
    site = mkdtempSync(join(tmpdir(), 'commlab-site-'));
    cpSync(DIST, site, { recursive: true, filter: (src) => !src.includes(`${DIST}/scorm`) });
    server = await serve(site);
  });
  after(async () => {
    await server?.close();
    rmSync(site, { recursive: true, force: true });
  });

  test('the second visit is served by the service worker, and with the network off the page opens and checks answers', async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', serviceWorkers: 'allow' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}index.html`);
    await ready(page);
    // The release is cached whole before its worker controls the page (web/sw.js install).
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30000 });

    const second = await ctx.newPage();
    const response = await second.goto(`${server.url}index.html?exercise=2`);
    assert.equal(response.fromServiceWorker(), true, 'the page came from the service worker');
    await ready(second);
    await second.close();

    await ctx.setOffline(true);
    await page.reload();
    await ready(page);
    assert.deepEqual(await checkExercise2(page), ['correct', 'correct']);
    // A Topics view loads its chunk and the engine's full module from the cache too.
    await page.goto(`${server.url}index.html?view=ring`);
    await ready(page);
    assert.equal(await page.locator('#engine-problem').count(), 0, 'the full module came from the cache');
    await ctx.setOffline(false);
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test('a new release is offered, not mixed in: the page reloads into it when asked, says it updated, and keeps the work', async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', serviceWorkers: 'allow' });
    const page = await ctx.newPage();
    await page.goto(`${server.url}index.html`);
    await ready(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30000 });
    assert.deepEqual(await checkExercise2(page), ['correct', 'correct']);
    const version = await page.locator('meta[name="commlab-version"]').getAttribute('content');

    // The deploy: a new sw.js (a new release's version) on the host.
    const sw = join(site, 'sw.js');
    writeFileSync(sw, readFileSync(sw, 'utf8').replace(`"${version}"`, '"nextrelease0"'));
    rmSync(`${sw}.br`, { force: true });
    rmSync(`${sw}.gz`, { force: true });
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const notice = page.locator('#notice[data-topic="release"]');
    await notice.waitFor({ timeout: 30000 });
    assert.match(await notice.innerText(), /A new version of the lab is ready\. Your work is kept\./);
    // Until asked, the page stays on its own release.
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL.endsWith('sw.js')), true);
    await Promise.all([page.waitForEvent('load'), notice.locator('[data-action="release-reload"]').click()]);
    await ready(page);
    await page.locator('#notice[data-topic="release"]').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#notice').innerText(), /updated to a new version/);
    const card = page.locator(EX2);
    assert.equal(await card.locator('[data-answer="steps"]').inputValue(), '6');
    assert.equal(await card.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
    await ctx.close();
  });
});

describe('honest loading (real timeouts)', () => {
  let server;
  before(async () => {
    server = await serve();
  });
  after(async () => {
    await server?.close();
  });

  async function wasmNeverArrives() {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    await ctx.route('**/*.wasm', () => new Promise(() => {}));
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(`${server.url}index.html`);
    // Until then every control that needs the engine says it is loading: on the live card, which
    // the build's answers bring before the engine (read on the prerendered one, it could be
    // replaced between finding and reading).
    const label = await page.locator(`${EX2}:not([data-prerendered]) [data-action="check"]`).evaluate((b) => getComputedStyle(b, '::after').content);
    assert.match(label, /engine loading/);
    const slow = page.locator('#engine-slow');
    await slow.waitFor({ timeout: 11000 });
    const after_ms = Date.now() - t0;
    const text = await slow.innerText();
    assert.match(text, /engine\/commlab_lean\.wasm/);
    assert.match(text, /has not arrived after 10 s/);
    assert.match(text, /read the statements and the worked solutions/);
    assert.ok(await page.locator(`${EX2} .statement`).innerText(), 'the statement is readable');
    await ctx.close();
    return after_ms;
  }

  async function workerNeverAnswers() {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    const served = [];
    await ctx.route('**/engine/worker.js*', (route) => {
      served.push(Date.now());
      return route.fulfill({ contentType: 'text/javascript', body: 'self.onmessage = () => {};' });
    });
    const page = await ctx.newPage();
    await page.goto(`${server.url}index.html`);
    await page.locator(`${EX2} [data-answer="steps"]`).fill('6');
    // Restarted once within 5 s, then the page runs the engine itself and says so.
    const notice = page.locator('#notice[data-topic="engine"]');
    await notice.waitFor({ timeout: 15000 });
    assert.match(await notice.innerText(), /stopped answering twice/);
    await ready(page);
    // The page's door starts with its module (before DOMContentLoaded): the 5 s count from there.
    const doorAt = await page.evaluate(() => performance.timeOrigin + performance.getEntriesByType('navigation')[0].domContentLoadedEventStart);
    const restarted_ms = served[1] - doorAt;
    assert.equal(served.length, 2, 'one restart');
    // What was typed before is still there, and answers are checked.
    assert.equal(await page.locator(`${EX2} [data-answer="steps"]`).inputValue(), '6');
    assert.deepEqual(await checkExercise2(page), ['correct', 'correct']);
    await ctx.close();
    return restarted_ms;
  }

  test('a .wasm that never arrives is named within 10 s; a worker that never answers is restarted within 5 s, then the page says so', async () => {
    const [slow_ms, restarted_ms] = await Promise.all([wasmNeverArrives(), workerNeverAnswers()]);
    assert.ok(slow_ms <= 11000, `the slow engine was said after ${slow_ms} ms`);
    assert.ok(restarted_ms <= 6000, `the worker was restarted after ${restarted_ms} ms`);
  });
});
