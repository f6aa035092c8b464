// The engine failing never hangs the page (engine/door.js): a .wasm that is missing (404),
// truncated, not wasm at all, or never answers is said once in plain words with a Retry, the
// statements stay readable and the saved progress stays as it was; a worker that stops (it is
// terminated, it crashes, it hangs in a request) is restarted once, then the main thread answers,
// and a check in flight says so instead of spinning. Timeouts are shortened for the tests
// (COMMLAB_TIMEOUTS_MS, set before the page loads); the .wasm and the worker are broken with
// route(). A load is what costs here, so one page per language goes from scenario to scenario:
// each failure's Retry is pressed with the next failure routed in, and a fresh start of the
// engine (a worker that stops) comes from a reload that other checks needed anyway.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIST, launch, screenshotDir, serve, shot } from './helpers.mjs';

let server;
let browser;

const WASM = readFileSync(join(DIST, 'engine', 'commlab_wasm.wasm'));
const WORKER = readFileSync(join(DIST, 'engine', 'worker.js'), 'utf8');
const START_MS = 3000; // the start-up timeout of these tests (START_TIMEOUT_MS is 30 s)
const REQUEST_MS = 2000; // and of an ordinary request (REQUEST_TIMEOUT_MS is 10 s)

// Started once, awaited by the describe's before (a root-level before runs at once in Node 20).
let started = null;
const up = () => (started ??= (async () => {
  server = await serve();
  browser = await launch();
})());
after(async () => {
  await browser?.close();
  await server?.close();
});

function idle(page, timeout = 15000) {
  return page.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { timeout });
}

/** The page's saved keys ({name: value}) of a storage state, or of a page. */
function progressOf(state) {
  return Object.fromEntries((state.origins.find((o) => o.origin === server.url.replace(/\/$/, ''))?.localStorage ?? [])
    .filter((e) => e.name.startsWith('commlab.')).map((e) => [e.name, e.value]));
}
const storageOf = (page) => page.evaluate(() => Object.fromEntries(Object.keys(localStorage)
  .filter((k) => k.startsWith('commlab.')).map((k) => [k, localStorage.getItem(k)])));

const BROKEN = {
  missing: (route) => route.fulfill({ status: 404, body: 'not here' }),
  truncated: (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: WASM.subarray(0, WASM.length >> 1) }),
  garbage: (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('<html>this is not an engine</html>') }),
  timeout: () => new Promise(() => {}), // never answered
};

/**
 * A context in `locale` with the shortened timeouts, its page (uncaught exceptions kept in
 * `pageErrors`), and its routes: the .wasm broken as `wasm` says (null: the real one), counted in
 * `asked`; the engine's worker wrapped as `worker.act` says (null: served as is), counted in
 * `worker.served`.
 */
async function lab(locale, storageState = undefined) {
  const ctx = await browser.newContext({ locale, viewport: { width: 1280, height: 900 }, storageState });
  await ctx.addInitScript((t) => { window.COMMLAB_TIMEOUTS_MS = t; }, { start_ms: START_MS, request_ms: REQUEST_MS });
  const s = { ctx, wasm: null, asked: 0, worker: { act: null, served: 0 }, pageErrors: [] };
  await ctx.route('**/*.wasm', (route) => {
    s.asked += 1;
    // Served from here too: a request still left hanging by a timeout would hold the one
    // that goes to the server (the browser's cache waits on it).
    return s.wasm ? BROKEN[s.wasm](route) : route.fulfill({ status: 200, contentType: 'application/wasm', body: WASM });
  });
  await ctx.route('**/engine/worker.js', (route) => {
    s.worker.served += 1;
    if (!s.worker.act) return route.continue();
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: wrapped(s.worker) });
  });
  s.page = await ctx.newPage();
  s.page.on('pageerror', (e) => s.pageErrors.push(e.message));
  return s;
}

// The worker's script, wrapped: the first worker crashes (an uncaught error) or hangs (a busy
// loop) when asked to check; the one started after it is the real one.
function wrapped(worker) {
  if (worker.served !== 1) return WORKER;
  const act = worker.act === 'crashes' ? "setTimeout(() => { throw new Error('the engine crashed'); }, 0);" : 'for (;;) {}';
  return `self.addEventListener('message', (e) => {
  if (e.data?.type === 'ask' && e.data.requests.some((r) => r.op === 'exercise.check')) { ${act} }
});
${WORKER}`;
}

const SAID = {
  en: {
    missing: 'The exercise engine (engine/commlab_lean.wasm) could not be downloaded: the server answered HTTP 404.',
    truncated: 'The exercise engine arrived damaged: engine/commlab_lean.wasm is incomplete or is not an engine.',
    garbage: 'The exercise engine arrived damaged: engine/commlab_lean.wasm is incomplete or is not an engine.',
    timeout: `The exercise engine (engine/commlab_lean.wasm) did not arrive within ${START_MS / 1000} s.`,
    kept: 'The exercises can still be read and your saved answers are kept, but answers cannot be checked until the engine loads.',
    noEngine: 'The engine could not be loaded, so answers cannot be checked now. Your answers are kept.',
    stopped: 'The engine stopped while checking. Your answers are kept: press “Check answers” again.',
    retry: 'Retry',
  },
  zh: {
    missing: '无法下载判分引擎（engine/commlab_lean.wasm）：服务器返回 HTTP 404。',
    timeout: `判分引擎（engine/commlab_lean.wasm）在 ${START_MS / 1000} 秒内没有下载完成。`,
    kept: '练习仍可阅读，已保存的答案也都保留；但在引擎加载之前无法检查答案。',
    noEngine: '引擎未能加载，现在无法检查答案。你的答案已保留。',
    stopped: '检查时引擎停止了。你的答案已保留：请再按一次“检查答案”。',
    retry: '重试',
  },
};

// Technical words that belong in the details element or the console, never in the message.
const JARGON = /CompileError|WebAssembly|magic word|Aborted|ASSERTIONS|TypeError|TimeoutError|not_loaded|could not be loaded: the engine/i;

/** Opens the page with the .wasm broken as `kind` says; the ms until the problem is shown. */
async function openFailing(s, kind) {
  s.wasm = kind;
  const t0 = Date.now();
  await s.page.goto(server.url, { waitUntil: 'domcontentloaded' });
  await s.page.locator('#engine-problem').waitFor({ state: 'visible', timeout: START_MS + 10000 });
  return Date.now() - t0;
}

/**
 * Presses the shown problem's Retry with the .wasm now broken as `next` says: the page reloads,
 * asks for the .wasm again and says the failure, what was typed into the card that never came
 * alive is back (start.js), nothing saved changed. The ms until the problem is shown.
 */
async function retryInto(s, lang, next, saved) {
  const { page } = s;
  const before = s.asked;
  s.wasm = next;
  const t0 = Date.now();
  await Promise.all([page.waitForEvent('load'), page.locator('#engine-problem').getByRole('button', { name: SAID[lang].retry }).click()]);
  await page.locator('#engine-problem').waitFor({ state: 'visible', timeout: START_MS + 10000 });
  const waited = Date.now() - t0;
  assert.ok(s.asked > before, 'the .wasm was asked for again');
  assert.equal(await page.locator('#engine-problem [data-role="what"]').innerText(), SAID[lang][next]);
  assert.equal(await page.locator('section.card[data-exercise="2"]:visible [data-answer="time"]').inputValue(), '430 us');
  assert.deepEqual(await storageOf(page), saved);
  assert.deepEqual(s.pageErrors, []);
  return waited;
}

/** What a page the engine failed on (as `kind` says, shown after `waited_ms`) offers in `lang`. */
async function failedAs(s, kind, lang, waited_ms, saved) {
  const { page } = s;
  const box = page.locator('#engine-problem');
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
  for (const st of cards) assert.match(st, lang === 'zh' ? /[\u4e00-\u9fff].*\d|\d.*[\u4e00-\u9fff]/s : /[a-z].*\d/s);
  // Nothing saved was lost or set aside.
  assert.deepEqual(await storageOf(page), saved);
  // A check says there is no engine (no verdict, the typed answer stays).
  const two = page.locator('section.card[data-exercise="2"]:visible');
  await two.locator('[data-answer="time"]').fill('430 us');
  await two.locator('[data-action="check"]').click();
  await page.waitForFunction(() => [...document.querySelectorAll('section.card[data-exercise="2"] [data-role="summary"]')]
    .some((el) => el.dataset.state === 'engine-stopped'), null, { timeout: REQUEST_MS + 5000 });
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
  assert.deepEqual(s.pageErrors, []);
}

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

const terminate = (page) => () => page.evaluate(async () => window.commlabBoot.door.currentWorker().terminate());
const runsIn = (page) => page.evaluate(async () => window.commlabBoot.door.heavyRunsIn());

/** The worker terminated twice in checks, on a page whose engine has just started; `kept` must stay saved. */
async function terminatedTwice(s, lang, kept) {
  const { page } = s;
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
  // The progress saved before is still there.
  const keys = Object.keys(await storageOf(page));
  for (const k of Object.keys(kept)) assert.ok(keys.includes(k), `${k} kept`);
  assert.deepEqual(s.pageErrors, []);
}

/** A worker that `how` ('crashes' or 'hangs') in the first check after a reload: restarted once. */
async function stopsWhileChecking(s, how) {
  const { page } = s;
  const { two, waited_ms } = await checkWhileStopping(page, async () => {}, '6');
  if (how === 'crashes') assert.ok(waited_ms < REQUEST_MS, `a crash is seen at once (${waited_ms} ms)`);
  assert.equal(await two.locator('[data-role="summary"]').innerText(), SAID.en.stopped);
  // The door starts the next worker as it says so; its script's request reaches this test's
  // route through the browser's protocol, which a loaded machine delays by a moment.
  for (const until = Date.now() + 5000; s.worker.served < 2 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  assert.equal(s.worker.served, 2, 'one restart');
  await two.locator('[data-action="check"]').click();
  await idle(page);
  assert.equal(await two.locator('[data-answer="steps"]').getAttribute('data-verdict'), 'correct');
  assert.equal(await runsIn(page), 'worker');
}

/** Reloads the page with the .wasm served and the worker wrapped as `act` says (null: not). */
async function reloadWorking(s, act = null) {
  s.wasm = null;
  s.worker = { act, served: 0 };
  // A load judges saved verdicts again (exercise.check): with none saved, the worker's first
  // check is the student's, the one `act` stops in.
  if (act) {
    await s.page.evaluate(() => {
      for (const k of Object.keys(localStorage).filter((key) => key.startsWith('commlab.v2.progress.'))) {
        const rec = JSON.parse(localStorage.getItem(k));
        localStorage.setItem(k, JSON.stringify({ ...rec, verdicts: {}, messages: {}, solved: false }));
      }
    });
  }
  await s.page.reload();
  await s.page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

describe('the engine failing', () => {
  let en = null; // one student's page in English, from the first visit on
  let zh = null; // and in Chinese, with the English one's saved progress
  let saved = null; // that progress ({key: value}) while the .wasm cannot be had
  let savedState = null;
  before(async () => {
    await up();
    en = await lab('en-US');
  });
  after(async () => {
    await en?.ctx.close();
    await zh?.ctx.close();
  });

  test('without saved progress the cards come alive from the build\'s answers; a check then says there is no engine', async () => {
    const { page } = en;
    en.wasm = 'missing';
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
  });

  test('with the engine served, progress is made (exercise 2 checked, a variant of 4); the worker terminated mid-check (en): the check says so within the timeout; restarted once, then the main thread; checks work again', async () => {
    const { page } = en;
    await reloadWorking(en);
    const two = page.locator('section.card[data-exercise="2"]');
    await two.locator('[data-answer="steps"]').fill('6');
    await two.locator('[data-action="check"]').click();
    await idle(page);
    await page.locator('section.card[data-exercise="4"] [data-action="variant"]').click();
    await idle(page);
    const made = await storageOf(page);
    assert.ok(Object.keys(made).length >= 3, 'the student has saved progress');
    await terminatedTwice(en, 'en', made);
  });

  // From here the .wasm cannot be had: each test presses its page's Retry with the next failure routed in.
  const chain = [['timeout', 'missing'], ['missing', 'truncated'], ['truncated', 'garbage'], ['garbage', 'missing']];
  for (const [kind, next] of chain) {
    test(`${kind} (en): said once in plain words, with a Retry; statements readable, progress kept; the Retry reloads and says the failure again (${next} now)`, async () => {
      let waited = en.waited;
      if (kind === 'timeout') {
        saved = await storageOf(en.page);
        savedState = await en.ctx.storageState();
        waited = await openFailing(en, kind);
      }
      await failedAs(en, kind, 'en', waited, saved);
      en.waited = await retryInto(en, 'en', next, saved);
    });
  }

  test('typed while the engine could not be had, then a working engine: the answer is saved and the tab\'s copy goes', async () => {
    const { page } = en;
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
    // The engine served again; its first worker will crash in a check (the next test).
    await reloadWorking(en, 'crashes');
    const rec = JSON.parse(await page.evaluate(() => localStorage.getItem('commlab.v2.progress.1.lecture')));
    assert.equal(rec.answers[name], '12 us');
    assert.equal(await page.locator(`section.card[data-exercise="1"] [data-answer="${name}"]`).inputValue(), '12 us');
    assert.equal(await page.evaluate(() => ({}).polluted), undefined);
    const left = JSON.parse(await page.evaluate(() => sessionStorage.getItem('commlab.v2.typed')) ?? '{}');
    assert.equal(Object.hasOwn(left, '1'), false, 'the saved answer is no longer kept in the tab');
    assert.deepEqual(en.pageErrors, []);
  });

  test('a worker that crashes while checking is restarted; the check says so, the next one is answered', () => stopsWhileChecking(en, 'crashes'));

  test('a worker that hangs while checking is restarted; the check says so, the next one is answered', async () => {
    await reloadWorking(en, 'hangs');
    await stopsWhileChecking(en, 'hangs');
  });

  // The one restart went to the hang above: what was queued is asked again of the main thread.
  test('requests queued behind the one running when the worker stopped are asked again; the running one ends with engine_stopped', async () => {
    const out = await en.page.evaluate(async () => {
      const door = window.commlabBoot.door;
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
  });

  test('missing (zh): said once in plain words, with a Retry; statements readable, progress kept; the Retry reloads and says the failure again (timeout now)', async () => {
    assert.ok(savedState, 'the English page made the progress');
    zh = await lab('zh-CN', savedState);
    const zhSaved = progressOf(savedState);
    assert.deepEqual(zhSaved, saved);
    await failedAs(zh, 'missing', 'zh', await openFailing(zh, 'missing'), saved);
    zh.waited = await retryInto(zh, 'zh', 'timeout', saved);
  });

  test('timeout (zh): said once in plain words, with a Retry; statements readable, progress kept; the Retry reloads and says it again', async () => {
    await failedAs(zh, 'timeout', 'zh', zh.waited, saved);
    await retryInto(zh, 'zh', 'timeout', saved);
  });

  test('terminated mid-check (zh), the engine served again: the check says so within the timeout; restarted once, then the main thread; checks work again', async () => {
    await reloadWorking(zh);
    await terminatedTwice(zh, 'zh', saved);
  });
});
