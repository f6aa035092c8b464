// The engine failing never hangs the page (engine/door.js): a .wasm that is missing (404),
// truncated, not wasm at all, or never answers is said once in plain words with a Retry, the
// statements stay readable and the saved progress stays as it was; a worker that stops (it is
// terminated, it crashes, it hangs in a request) is restarted once, then the main thread answers,
// and a check in flight says so instead of spinning. Timeouts are shortened for the tests
// (COMMLAB_TIMEOUTS_MS, set before the page loads); the .wasm is broken with route().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIST, launch, screenshotDir, serve, shot } from './helpers.mjs';

let server;
let browser;
let saved; // the storage state of a student with progress: a lecture record and a variant

const WASM = readFileSync(join(DIST, 'engine', 'commlab_wasm.wasm'));
const START_MS = 3000; // the start-up timeout of these tests (START_TIMEOUT_MS is 30 s)
const REQUEST_MS = 2000; // and of an ordinary request (REQUEST_TIMEOUT_MS is 10 s)

before(async () => {
  server = await serve();
  browser = await launch();
  // Progress made with a working engine: answers typed into exercise 2, a variant of exercise 4.
  const ctx = await browser.newContext({ locale: 'en-US' });
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.waitForSelector('html[data-ready="true"]');
  const two = page.locator('section.card[data-exercise="2"]');
  await two.locator('[data-answer="steps"]').fill('6');
  await two.locator('[data-action="check"]').click();
  await idle(page);
  await page.locator('section.card[data-exercise="4"] [data-action="variant"]').click();
  await idle(page);
  saved = await ctx.storageState();
  await ctx.close();
  assert.ok(progressKeys(saved).length >= 3, 'the student has saved progress');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function idle(page, timeout = 15000) {
  return page.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { timeout });
}

/** The page's saved keys ({name: value}) from a storage state or a page. */
function progressKeys(state) {
  return (state.origins.find((o) => o.origin === server.url.replace(/\/$/, ''))?.localStorage ?? [])
    .filter((e) => e.name.startsWith('commlab.'));
}
const storageOf = (page) => page.evaluate(() => Object.fromEntries(Object.keys(localStorage)
  .filter((k) => k.startsWith('commlab.')).map((k) => [k, localStorage.getItem(k)])));
const asObject = (entries) => Object.fromEntries(entries.map((e) => [e.name, e.value]));

async function context(locale, { progress = true, timeouts = {} } = {}) {
  const ctx = await browser.newContext({ locale, viewport: { width: 1280, height: 900 }, storageState: progress ? saved : undefined });
  await ctx.addInitScript((t) => { window.COMMLAB_TIMEOUTS_MS = t; }, { start_ms: START_MS, request_ms: REQUEST_MS, ...timeouts });
  return ctx;
}

const BROKEN = {
  missing: (route) => route.fulfill({ status: 404, body: 'not here' }),
  truncated: (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: WASM.subarray(0, WASM.length >> 1) }),
  garbage: (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('<html>this is not an engine</html>') }),
  timeout: () => new Promise(() => {}), // never answered
};

const SAID = {
  en: {
    missing: 'The exercise engine could not be downloaded: the server answered HTTP 404.',
    truncated: 'The exercise engine arrived damaged: its file is incomplete or is not an engine.',
    garbage: 'The exercise engine arrived damaged: its file is incomplete or is not an engine.',
    timeout: `The exercise engine did not arrive within ${START_MS / 1000} s.`,
    kept: 'The exercises can still be read and your saved answers are kept, but answers cannot be checked until the engine loads.',
    noEngine: 'The engine could not be loaded, so answers cannot be checked now. Your answers are kept.',
    stopped: 'The engine stopped while checking. Your answers are kept: press “Check answers” again.',
    retry: 'Retry',
  },
  zh: {
    missing: '无法下载判分引擎：服务器返回 HTTP 404。',
    timeout: `判分引擎在 ${START_MS / 1000} 秒内没有下载完成。`,
    kept: '练习仍可阅读，已保存的答案也都保留；但在引擎加载之前无法检查答案。',
    noEngine: '引擎未能加载，现在无法检查答案。你的答案已保留。',
    stopped: '检查时引擎停止了。你的答案已保留：请再按一次“检查答案”。',
    retry: '重试',
  },
};

// Technical words that belong in the details element or the console, never in the message.
const JARGON = /CompileError|WebAssembly|magic word|Aborted|ASSERTIONS|TypeError|TimeoutError|not_loaded|could not be loaded: the engine/i;

describe('a .wasm that cannot be had', () => {
  for (const [kind, lang] of [['missing', 'en'], ['missing', 'zh'], ['truncated', 'en'], ['garbage', 'en'], ['timeout', 'en'], ['timeout', 'zh']]) {
    test(`${kind} (${lang}): said once in plain words, with a Retry; statements readable, progress kept`, async () => {
      const ctx = await context(lang === 'zh' ? 'zh-CN' : 'en-US');
      let asked = 0;
      await ctx.route('**/*.wasm', (route) => {
        asked += 1;
        return BROKEN[kind](route);
      });
      const page = await ctx.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      const t0 = Date.now();
      await page.goto(server.url, { waitUntil: 'domcontentloaded' });
      const box = page.locator('#engine-problem');
      await box.waitFor({ state: 'visible', timeout: START_MS + 10000 });
      const waited_ms = Date.now() - t0;
      if (kind === 'timeout') assert.ok(waited_ms >= START_MS - 500, `not before the timeout (${waited_ms} ms)`);
      const said = SAID[lang];
      assert.equal(await box.locator('[data-role="what"]').innerText(), said[kind]);
      assert.equal(await box.getAttribute('data-problem-kind'), kind === 'garbage' || kind === 'truncated' ? 'invalid' : kind);
      const text = await box.innerText();
      assert.ok(text.includes(said.kept), text);
      assert.doesNotMatch(text, JARGON, 'no build jargon in the message');
      // The technical detail is kept, folded away.
      const details = box.locator('details');
      assert.equal(await details.getAttribute('open'), null);
      const detail = await details.locator('code').textContent();
      assert.match(detail, { missing: /HTTP 404/, truncated: /CompileError/, garbage: /CompileError: .*magic word/, timeout: /TimeoutError/ }[kind]);
      assert.equal(await page.locator('#engine-problem').count(), 1, 'said once');
      assert.equal(await page.locator('#engine-status').isVisible(), false, 'no second message');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.engine), 'failed');
      // The statements are there to read, in the page's language.
      const cards = await page.locator('#exercises > section.card').evaluateAll((els) => els
        .filter((c) => c.offsetParent !== null).map((c) => c.querySelector('[data-role="statement"]')?.textContent ?? ''));
      assert.equal(cards.length, 8);
      for (const s of cards) assert.match(s, lang === 'zh' ? /[\u4e00-\u9fff].*\d|\d.*[\u4e00-\u9fff]/s : /[a-z].*\d/s);
      // Nothing saved was lost or set aside.
      assert.deepEqual(await storageOf(page), asObject(progressKeys(saved)));
      // A check says there is no engine (no verdict, the typed answer stays).
      const two = page.locator('section.card[data-exercise="2"]:visible');
      await two.locator('[data-answer="time"]').fill('430 us');
      await two.locator('[data-action="check"]').click();
      await page.waitForFunction(() => [...document.querySelectorAll('section.card[data-exercise="2"] [data-role="summary"]')]
        .some((s) => s.dataset.state === 'engine-stopped'), null, { timeout: REQUEST_MS + 5000 });
      assert.equal(await two.locator('[data-role="summary"]').innerText(), said.noEngine);
      assert.equal(await two.locator('[data-answer="time"]').inputValue(), '430 us');
      assert.equal(await page.locator('[data-answer][data-verdict]:visible').count(), 0, 'no verdict without the engine');
      // The cards that stay prerendered fit the page, at desktop and phone widths.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `no sideways scroll at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      if (kind === 'missing' || kind === 'timeout') {
        const shots = screenshotDir();
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, { path: join(shots, `engine-failure-${kind}-${lang}-1280.png`) });
        await page.setViewportSize({ width: 390, height: 844 });
        await shot(page, { path: join(shots, `engine-failure-${kind}-${lang}-390.png`) });
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      // Retry reloads the page (the .wasm still broken: the same words again).
      const before = asked;
      await Promise.all([page.waitForEvent('load'), box.getByRole('button', { name: said.retry }).click()]);
      await page.locator('#engine-problem').waitFor({ state: 'visible', timeout: START_MS + 10000 });
      assert.ok(asked > before, 'the .wasm was asked for again');
      assert.equal(await page.locator('#engine-problem [data-role="what"]').innerText(), said[kind]);
      // What was typed into the card that never came alive is back after the reload (start.js).
      assert.equal(await page.locator('section.card[data-exercise="2"]:visible [data-answer="time"]').inputValue(), '430 us');
      assert.deepEqual(await storageOf(page), asObject(progressKeys(saved)));
      assert.deepEqual(pageErrors, []);
      await ctx.close();
    });
  }

  test('without saved progress the cards come alive from the build\'s answers; a check then says there is no engine', async () => {
    const ctx = await context('en-US', { progress: false });
    await ctx.route('**/*.wasm', BROKEN.missing);
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.locator('#engine-problem').waitFor({ state: 'visible', timeout: 15000 });
    await page.waitForFunction(() => !document.querySelector('section.card[data-prerendered]'));
    const two = page.locator('section.card[data-exercise="2"]');
    await two.locator('[data-answer="steps"]').fill('6');
    await two.locator('[data-action="check"]').click();
    await idle(page, REQUEST_MS + 5000);
    assert.equal(await two.locator('[data-role="summary"]').innerText(), SAID.en.noEngine);
    assert.equal(await two.locator('[data-answer="steps"]').getAttribute('data-verdict'), null);
    // The typed answer is saved as typed, for the next visit.
    const rec = JSON.parse(await page.evaluate(() => localStorage.getItem('commlab.v2.progress.2.lecture')));
    assert.equal(rec.answers.steps, '6');
    await ctx.close();
  });
});

test('typed while the engine could not be had, then a working engine: the answer is saved and the tab\'s copy goes', async () => {
  const ctx = await context('en-US');
  await ctx.route('**/*.wasm', BROKEN.missing);
  const page = await ctx.newPage();
  await page.goto(server.url);
  await page.locator('#engine-problem').waitFor({ state: 'visible', timeout: 15000 });
  const field = page.locator('section.card[data-exercise="1"]:visible [data-answer]').first();
  const name = await field.getAttribute('data-answer');
  await field.fill('12 us');
  assert.ok(await page.evaluate(() => sessionStorage.getItem('commlab.v2.typed')), 'kept in the tab');
  // A hostile copy beside it (prototype keys, wrong types) changes nothing and throws nothing.
  await page.evaluate(() => {
    const kept = JSON.parse(sessionStorage.getItem('commlab.v2.typed'));
    kept.__proto__ = { polluted: 'yes' };
    kept['2'] = { time: 5, steps: ['x'] };
    sessionStorage.setItem('commlab.v2.typed', JSON.stringify(kept));
  });
  await ctx.unroute('**/*.wasm');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { timeout: 15000 });
  const rec = JSON.parse(await page.evaluate(() => localStorage.getItem('commlab.v2.progress.1.lecture')));
  assert.equal(rec.answers[name], '12 us');
  assert.equal(await page.locator(`section.card[data-exercise="1"] [data-answer="${name}"]`).inputValue(), '12 us');
  assert.equal(await page.evaluate(() => ({}).polluted), undefined);
  const left = JSON.parse(await page.evaluate(() => sessionStorage.getItem('commlab.v2.typed')) ?? '{}');
  assert.equal(Object.hasOwn(left, '1'), false, 'the saved answer is no longer kept in the tab');
  await ctx.close();
});

/** Types an answer into exercise 2, kills the engine as `kill` says, and checks. */
async function checkWhileStopping(page, kill, steps) {
  const two = page.locator('section.card[data-exercise="2"]');
  await two.locator('[data-answer="steps"]').fill(steps);
  await kill();
  const t0 = Date.now();
  await two.locator('[data-action="check"]').click();
  await idle(page, REQUEST_MS + 8000);
  return { two, waited_ms: Date.now() - t0 };
}

const terminate = (page) => () => page.evaluate(async () => (await import('./engine/door.js')).currentWorker().terminate());
const runsIn = (page) => page.evaluate(async () => (await import('./engine/door.js')).heavyRunsIn());

describe('a worker that stops', () => {
  for (const lang of ['en', 'zh']) {
    test(`terminated mid-check (${lang}): the check says so within the timeout; restarted once, then the main thread; checks work again`, async () => {
      const ctx = await context(lang === 'zh' ? 'zh-CN' : 'en-US');
      const page = await ctx.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.goto(server.url);
      await page.waitForSelector('html[data-ready="true"]');
      const first = await checkWhileStopping(page, terminate(page), '6');
      assert.ok(first.waited_ms < REQUEST_MS + 3000, `answered within the timeout (${first.waited_ms} ms)`);
      const summary = first.two.locator('[data-role="summary"]');
      assert.equal(await summary.innerText(), SAID[lang].stopped);
      assert.equal(await first.two.locator('[data-answer="steps"]').inputValue(), '6', 'the typed answer stays');
      assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('commlab.v2.progress.2.lecture'))).answers.steps, '6');
      await shot(page, { path: join(screenshotDir(), `engine-stopped-check-${lang}-1280.png`) });
      await page.setViewportSize({ width: 390, height: 844 });
      await summary.scrollIntoViewIfNeeded();
      await shot(page, { path: join(screenshotDir(), `engine-stopped-check-${lang}-390.png`) });
      await page.setViewportSize({ width: 1280, height: 900 });
      // Checked again: the restarted worker answers.
      await first.two.locator('[data-action="check"]').click();
      await idle(page);
      assert.equal(await first.two.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
      assert.equal(await summary.getAttribute('data-state'), null);
      assert.equal(await runsIn(page), 'worker');
      // The second worker stops too: the main thread takes over.
      const second = await checkWhileStopping(page, terminate(page), '5');
      assert.equal(await summary.innerText(), SAID[lang].stopped);
      assert.equal(await runsIn(page), 'main thread');
      await second.two.locator('[data-action="check"]').click();
      await idle(page);
      assert.equal(await second.two.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'incorrect');
      await second.two.locator('[data-answer="steps"]').fill('6');
      await second.two.locator('[data-action="check"]').click();
      await idle(page);
      assert.equal(await second.two.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
      // The variant saved before is still there.
      const keys = Object.keys(await storageOf(page));
      for (const k of Object.keys(asObject(progressKeys(saved)))) assert.ok(keys.includes(k), `${k} kept`);
      assert.deepEqual(pageErrors, []);
      await ctx.close();
    });
  }

  // The worker's script, wrapped: the first worker crashes (an uncaught error) or hangs (a busy
  // loop) when asked to check; the one started after it is the real one.
  for (const how of ['crashes', 'hangs']) {
    test(`a worker that ${how} while checking is restarted; the check says so, the next one is answered`, async () => {
      const ctx = await context('en-US');
      const real = readFileSync(join(DIST, 'engine', 'worker.js'), 'utf8');
      let served = 0;
      const act = how === 'crashes' ? "setTimeout(() => { throw new Error('the engine crashed'); }, 0);" : 'for (;;) {}';
      await ctx.route('**/engine/worker.js', (route) => {
        served += 1;
        const body = served === 1 ? `self.addEventListener('message', (e) => {
  if (e.data?.type === 'ask' && e.data.requests.some((r) => r.op === 'exercise.check')) { ${act} }
});
${real}` : real;
        return route.fulfill({ status: 200, contentType: 'text/javascript', body });
      });
      const page = await ctx.newPage();
      await page.goto(server.url);
      await page.waitForSelector('html[data-ready="true"]');
      const { two, waited_ms } = await checkWhileStopping(page, async () => {}, '6');
      if (how === 'crashes') assert.ok(waited_ms < REQUEST_MS, `a crash is seen at once (${waited_ms} ms)`);
      assert.equal(await two.locator('[data-role="summary"]').innerText(), SAID.en.stopped);
      assert.equal(served, 2, 'one restart');
      await two.locator('[data-action="check"]').click();
      await idle(page);
      assert.equal(await two.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
      assert.equal(await runsIn(page), 'worker');
      await ctx.close();
    });
  }

  test('requests queued behind the one running when the worker stopped are asked again; the running one ends with engine_stopped', async () => {
    const ctx = await context('en-US');
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.waitForSelector('html[data-ready="true"]');
    const out = await page.evaluate(async () => {
      const door = await import('./engine/door.js');
      door.currentWorker().terminate();
      return Promise.all([
        door.ask({ op: 'transfer', link: 'nvlink4', bytes: 720000 }),
        door.ask({ op: 'links' }),
        door.ask({ op: 'exercise.check', id: 2, answers: { steps: '6' } }),
        door.ask({ op: 'transfer', link: 'nvlink4', bytes: 1 }),
      ]);
    });
    assert.equal(out[0].error.code, 'engine_stopped', 'the request running when it stopped is not asked again');
    assert.equal(out[1].links.length, 9);
    assert.equal(out[2].error.code, 'engine_stopped', 'a check is answered by the engine it was asked of only');
    assert.ok(out[3].time_s > 0);
    await ctx.close();
  });
});
