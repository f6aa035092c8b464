// One engine for the lab's frames of a course page (web/README.md "Embedding in a course site"): with
// third-party storage allowed (as most browsers run; this Debian Chromium blocks it by default,
// and there every frame keeps its own worker: embed_frames.test.mjs), the frames of one course
// page share one SharedWorker, and every check is answered by it. A shared engine that hangs is
// left by each frame for a worker of its own (door.js's timeouts and restart, unchanged), and the
// checks are answered again. One course page (reloaded) for the first two tests; the hung engine
// has one of its own.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumOptions } from '../../web/tools/chromium.mjs';
import { DIST, serve } from './helpers.mjs';

const LECTURE3 = { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' };
const REQUEST_MS = 2000; // an ordinary request's timeout in these tests (REQUEST_TIMEOUT_MS is 10 s)
const STOPPED = 'The engine stopped while checking. Your answers are kept: press “Check answers” again.';

let lab;
let host;
let browser;
const errors = [];

before(async () => {
  assert.ok(existsSync(join(DIST, 'embed.js')), 'dist/embed.js is missing: run ./lab assemble first');
  lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
  const page = (divs) => `<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,">
<title>Course</title><script>window.ready = 0; document.addEventListener('commlab-ready', () => { window.ready += 1; });</script>
${divs}
<script src="${lab.url}embed.js" defer></script>`;
  const pages = {
    // e3 at the lecture's values and b at seed 7: two frames of one exercise.
    '/': page('<div id="e2" data-commlab-exercise="2"></div><div id="e3" data-commlab-exercise="3"></div><div id="e6" data-commlab-exercise="6"></div><div id="b" data-commlab-exercise="3" data-seed="7"></div>'),
    '/three': page('<div id="e2" data-commlab-exercise="2"></div><div id="e3" data-commlab-exercise="3"></div><div id="e6" data-commlab-exercise="6"></div>'),
  };
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[new URL(req.url, 'http://x').pathname] ?? ''));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  host = { url: `http://localhost:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
  // Third-party cookies and storage allowed (the frames' storage and a SharedWorker work there).
  browser = await chromium.launch(chromiumOptions(['TrackingProtection3pcd']));
});

after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
});

async function openCourse(ctx, path = '', frames = 4) {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  await page.goto(`${host.url}${path}`);
  await page.waitForFunction((n) => window.ready >= n, frames, { timeout: 30000 });
  return page;
}
/**
 * Types `answers` into a frame and checks them: the button is pressed from inside the frame (its
 * click()), not by the mouse: the frames above grow and shrink as their engines answer, and a
 * mouse click computed before may land beside the button.
 */
async function checkIn(frame, answers) {
  for (const [id, text] of Object.entries(answers)) {
    const field = frame.locator(`[data-answer="${id}"]`);
    if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(text);
    else await field.fill(text);
  }
  await frame.locator('[data-action="check"]').evaluate((b) => b.click());
}
/** checkIn, then until the engine has answered (the check marks the card busy as it asks). */
const answerIn = async (frame, answers) => {
  await checkIn(frame, answers);
  await frame.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { polling: 100, timeout: 15000 });
};
const frameOf = async (page, id) => (await page.locator(`#${id} iframe`).elementHandle()).contentFrame();
const engineOf = (frame) => frame.evaluate(async () => {
  const door = window.commlabBoot.door;
  return { runs: door.heavyRunsIn(), shared: door.currentWorker()?.shared === true };
});
/** Resolves once the frame's check says the engine stopped (or fails saying what it says instead). */
async function saysStopped(frame) {
  try {
    await frame.waitForFunction((text) => document.querySelector('[data-role="summary"]')?.textContent === text, STOPPED, { timeout: REQUEST_MS + 5000, polling: 100 });
  } catch (err) {
    throw new Error(`the check says "${await frame.locator('[data-role="summary"]').innerText()}" (${JSON.stringify(await engineOf(frame))}): ${err.message}`);
  }
}
async function sharedWorkers() {
  const cdp = await browser.newBrowserCDPSession();
  const targets = (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'shared_worker');
  await cdp.detach();
  return targets.map((t) => new URL(t.url).pathname);
}

describe('one engine for the frames of a course page', () => {
  describe('one course page, reloaded', () => {
    let ctx;
    let page; // the course page of the first two tests
    before(async () => {
      ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      page = await openCourse(ctx);
    });
    after(() => ctx?.close());

    test('four frames share one SharedWorker; each is answered by it', async () => {
      assert.deepEqual(await sharedWorkers(), ['/engine/worker.js']);
      for (const id of ['e2', 'e3', 'e6', 'b']) assert.deepEqual(await engineOf(await frameOf(page, id)), { runs: 'worker', shared: true }, id);
      const f3 = await frameOf(page, 'e3');
      await answerIn(f3, LECTURE3);
      assert.equal(await f3.locator('[data-answer="best"]').getAttribute('data-verdict'), 'correct');
      const f2 = await frameOf(page, 'e2');
      await answerIn(f2, { steps: '6' });
      assert.equal(await f2.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
      // The frames' own storage works in this browser: their progress is theirs and the host's.
      assert.equal(await f2.evaluate(() => JSON.parse(localStorage.getItem('commlab.v2.progress.2.lecture')).answers.steps), '6');
      assert.deepEqual(errors, []);
    });

    test('with the frames\' own storage too, a frame fixed to seed 7 leaves the other frame of its exercise at the lecture\'s values', async () => {
      await answerIn(await frameOf(page, 'b'), { ring: '1 us' });
      await answerIn(await frameOf(page, 'e3'), LECTURE3);
      await page.waitForTimeout(600); // past the state's pause
      for (let i = 0; i < 2; i++) {
        await page.reload();
        await page.waitForFunction(() => window.ready >= 4, null, { timeout: 30000 });
        const a = await frameOf(page, 'e3');
        const b = await frameOf(page, 'b');
        await a.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { timeout: 10000, polling: 100 });
        assert.equal(await a.locator('[data-exercise="3"]').getAttribute('data-variant'), 'lecture');
        await b.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.value === '1 us', null, { timeout: 10000, polling: 100 });
        assert.notEqual(await b.locator('[data-exercise="3"]').getAttribute('data-variant'), 'lecture');
        assert.equal(await b.locator('.variant-picker').isVisible(), false);
        // The fixed frame wrote no shown variant into the storage the two share.
        assert.equal(await a.evaluate(() => localStorage.getItem('commlab.v2.current.3')), null);
      }
      assert.deepEqual(errors, []);
    });
  });

  test('a shared engine that hangs: each frame takes a worker of its own, its check says so, the next is answered', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    // Every request's timeout shortened (a frame's view may have asked for a long one meanwhile).
    await ctx.addInitScript((t) => { window.COMMLAB_TIMEOUTS_MS = t; }, { request_ms: REQUEST_MS, long_ms: REQUEST_MS });
    // The shared engine's script, wrapped: it hangs (a busy loop) when any frame asks for a check.
    const real = readFileSync(join(DIST, 'engine', 'worker.js'), 'utf8');
    let served = 0;
    await ctx.route('**/engine/worker.js', (route) => {
      served += 1;
      const body = served === 1 ? `self.addEventListener('connect', (c) => c.ports[0].addEventListener('message', (e) => {
  if (e.data?.type === 'ask' && e.data.requests.some((r) => r.op === 'exercise.check')) for (;;) {}
}));
${real}` : real;
      return route.fulfill({ status: 200, contentType: 'text/javascript', body });
    });
    const page = await openCourse(ctx, 'three', 3);
    assert.equal(served, 1, 'one shared engine');
    const f2 = await frameOf(page, 'e2');
    const f3 = await frameOf(page, 'e3');
    const t0 = Date.now();
    await checkIn(f2, { steps: '6' });
    await saysStopped(f2);
    const waited_ms = Date.now() - t0;
    assert.ok(waited_ms < REQUEST_MS + 4000, `said within the timeout (${waited_ms} ms)`);
    assert.deepEqual(await engineOf(f2), { runs: 'worker', shared: false });
    await answerIn(f2, { steps: '6' });
    assert.equal(await f2.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
    // Another frame's next request waits on the hung engine too: it leaves it the same way.
    await checkIn(f3, { ring: '162 us' });
    await saysStopped(f3);
    await answerIn(f3, LECTURE3);
    assert.equal(await f3.locator('[data-answer="best"]').getAttribute('data-verdict'), 'correct');
    assert.deepEqual(await engineOf(f3), { runs: 'worker', shared: false });
    // (Each took a worker of its own: engineOf above. How many times the script was fetched is
    // the browser's business: a worker script may come from its memory cache, past the route.)
    // The hung shared engine cannot be stopped by a frame: it stays until the course page closes.
    assert.deepEqual(await sharedWorkers(), ['/engine/worker.js']);
    await ctx.close();
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await sharedWorkers(), [], 'gone with the page');
    assert.deepEqual(errors, []);
  });
});
