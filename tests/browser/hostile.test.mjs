// Hostile addresses and messages (web/README.md "Embedding in a course site", "Views"): a shared link
// whose settings name prototype keys (collective=constructor, view=__proto__, ...) or are not
// numbers opens its view with the defaults and a message naming each bad setting, its value and
// what is allowed, in the page's language; a parent's messages with prototype keys or wrong
// types are ignored without an error; a flood of 2,000 resets (or language switches, or
// restores) from the parent costs well under 2 s and leaves the right state. Pages are reused
// (goto, resizes, one course page for all the messages): a load is what costs here.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { answerIn, DESKTOP, launch, PHONE, screenshotDir, serve, shot } from './helpers.mjs';

const LECTURE3 = { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' };
const WRONG6 = { microbatches: '4', token_interval: '1.1 ms' };
const COLLECTIVES = 'allreduce, reduce_scatter, allgather, broadcast, reduce, alltoall';

let lab;
let host;
let browser;
const errors = [];

// Started once, awaited by each describe's before (a root-level before runs at once in Node 20).
let started = null;
const up = () => (started ??= setUp());
async function setUp() {
  lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
  // The course page of tests/browser/embed.test.mjs: another site (localhost) framing the lab.
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script>
  window.events = [];
  for (const type of ['commlab-ready', 'commlab-checked', 'commlab-state'])
    document.addEventListener(type, (e) => window.events.push({ on: e.target.dataset.commlabExercise, ...e.detail }));
</script></head><body>
<div data-commlab-exercise="3"></div>
<div data-commlab-exercise="6"></div>
<script src="${lab.url}embed.js" defer></script></body></html>`;
  const server = createServer((req, res) => {
    if (new URL(req.url, 'http://localhost').pathname !== '/') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  host = await new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({
    url: `http://localhost:${server.address().port}/`,
    close: () => new Promise((r) => server.close(r)),
  })));
  browser = await launch({ full: true });
}

after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
});

/** The bad settings the page names: {setting: text}. */
const linkProblems = (page) => page.locator('#link-problems li').evaluateAll((lis) =>
  Object.fromEntries(lis.map((li) => [li.dataset.setting, li.textContent])));

/** A page of `ctx` whose console errors and uncaught exceptions go to `errors`, with its address. */
async function watched(ctx) {
  const page = await ctx.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  return page;
}
async function visit(page, query) {
  await page.goto(`${lab.url}${query}`);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

const drawn = (page) => page.waitForSelector('[data-view="schedule"]:not([data-steps="0"])', { timeout: 20000 });

// The page reads its address once per load, so an address carries several bad settings at once
// (each named on a line of its own); a setting with several bad values takes several addresses.
describe('hostile links', () => {
  let ctx = null;
  let page = null;
  before(async () => {
    await up();
    ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await watched(ctx);
  });
  after(() => ctx?.close());

  test('Explore links with prototype keys and non-numbers open Explore with the defaults and name each bad setting; screenshots of one in English and Chinese at 1280 and 390 px', async () => {
    const dir = screenshotDir();
    const cases = [
      [
        'collective=constructor&algorithm=toString&devices=abc&gpus_per_node=__proto__&bytes=0&topology=constructor&link=__proto__&intra_link=toString&alpha_s=1e-6',
        {
          collective: `collective: "constructor" is not allowed; allowed: ${COLLECTIVES}. Shown instead: allreduce.`,
          algorithm: /algorithm: "toString" is not allowed; allowed: ring, .*hierarchical\. Shown instead: ring\./,
          devices: 'devices: "abc" is not allowed; allowed: a whole number from 2 to 1,024. Shown instead: 8.',
          gpus_per_node: /a whole number from 1 to 64/,
          bytes: /"0" is not allowed; allowed: a number of bytes from 1 to 1,000,000,000\. Shown instead: 1000000\./,
          topology: /allowed: switch, ring, two_level/,
          link: /link: "__proto__" is not allowed; allowed: .*nvlink4.*Shown instead: nvlink4\./,
          intra_link: /"toString"/,
          beta_Bps: /beta_Bps is missing; allowed: a number of bytes per second above 0, given with alpha_s/,
        },
      ],
      [
        'collective=hasOwnProperty&algorithm=valueOf&devices=Infinity&bytes=5e9&alpha_s=-1&beta_Bps=constructor',
        {
          collective: /"hasOwnProperty"/,
          algorithm: /algorithm: "valueOf" is not allowed; allowed: ring, recursive_doubling, .*Shown instead: ring\./,
          devices: /"Infinity"/,
          bytes: /"5e9"/,
          alpha_s: /"-1" is not allowed; allowed: a number of seconds, 0 or more/,
          beta_Bps: /"constructor"/,
        },
      ],
      ['collective=broadcast&algorithm=ring', { algorithm: /"ring" is not allowed; allowed: binomial_tree, scatter_allgather\. Shown instead: binomial_tree\./ }],
      // Opened in Chinese (the screenshots); its words checked after the switch to English.
      ['collective=__proto__', { collective: /"__proto__" is not allowed; allowed: allreduce/ }],
    ];
    for (const [query, expected] of cases) {
      const chinese = query === 'collective=__proto__';
      await visit(page, `?view=explore&${chinese ? 'lang=zh&' : ''}${query}`);
      await page.waitForSelector('[data-view="explore"]');
      // The defaults are drawn: the player runs (the settings themselves are allowed).
      await drawn(page);
      if (query.startsWith('collective=constructor') || chinese) {
        const lang = chinese ? 'zh' : 'en';
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport);
          await drawn(page);
          await shot(page, { path: join(dir, `hostile-explore-${lang}-${viewport.width}.png`) });
        }
        await page.setViewportSize(DESKTOP);
      }
      if (chinese) {
        await page.locator('[data-action="language"]').click();
        await page.waitForFunction(() => document.documentElement.lang === 'en');
        await drawn(page);
      }
      const said = await linkProblems(page);
      assert.deepEqual(Object.keys(said).sort(), Object.keys(expected).sort(), query);
      for (const [k, want] of Object.entries(expected)) {
        if (typeof want === 'string') assert.equal(said[k], want, query);
        else assert.match(said[k], want, query);
      }
      assert.equal(await page.locator('#link-problems').isVisible(), true);
      assert.match(await page.locator('#link-problems > p').textContent(), /cannot be used/);
      assert.equal(await page.locator('[data-role="settings-error"]').isHidden(), true, query);
    }
    assert.deepEqual(errors, []);
  });

  test('an Explore link in Chinese: a value that would be markup stays text, said again in English after the switch; a device count out of range stays as typed, said beside the controls and not as a bad setting', async () => {
    await visit(page, `?view=explore&lang=zh&devices=1&collective=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    const said = await linkProblems(page);
    assert.match(said.collective, /^collective：不能取 "<img src=x onerror=alert\(1\)>"；可取：allreduce、reduce_scatter、.*。已改用：allreduce。$/);
    assert.equal(await page.locator('#link-problems > p').textContent(), '此页面地址中有 1 项设置无法使用：');
    assert.equal(await page.locator('#link-problems img').count(), 0);
    await page.locator('[data-role="settings-error"]').waitFor();
    // Switching the language says it again in English.
    await page.locator('[data-action="language"]').click();
    assert.match((await linkProblems(page)).collective, /is not allowed; allowed: allreduce, /);
    // A device count that is a number but out of range stays as typed and is said beside the
    // controls (as before), nothing drawn meanwhile.
    await page.locator('[data-role="settings-error"]').waitFor();
    assert.match(await page.locator('[data-role="settings-error"]').textContent(), /Devices: 1 is not allowed; enter a whole number from 2 to 1,024/);
    assert.deepEqual(Object.keys(await linkProblems(page)), ['collective'], 'devices is not a bad setting of the link');
    assert.deepEqual(errors, []);
  });
});

describe('the page\'s own settings in its address', () => {
  let ctx = null;
  let page = null;
  before(async () => {
    await up();
    ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await watched(ctx);
  });
  after(() => ctx?.close());

  test('view, exercise, lang, seed, reveal, calculator, hints, embed: each bad one named with what is allowed, and said in the console', async () => {
    const open = async (query) => {
      await visit(page, query);
      return await linkProblems(page);
    };
    {
      // A view that is none falls back to the exercises, all eight of them.
      const said = await open('?view=__proto__&lang=constructor&seed=abc&reveal=__proto__&calculator=valueOf&hints=1&embed=yes&scorm=yes');
      assert.deepEqual(Object.keys(said).sort(), ['calculator', 'embed', 'hints', 'lang', 'reveal', 'scorm', 'seed', 'view']);
      // An unknown scorm value turns nothing on: no course platform is looked for.
      assert.match(said.scorm, /scorm: "yes" is not allowed; allowed: 1, student\. Shown instead: no course platform/);
      assert.equal(await page.locator('#lms').count(), 0);
      assert.equal(said.view, 'view: "__proto__" is not allowed; allowed: explore, author, measured, topics, ladder, nccl, moe, decode, split, rdma, bound, memory, compare, node, ring. Shown instead: the exercises.');
      assert.equal(await page.locator('[data-view="explore"]').count(), 0);
      assert.match(said.lang, /lang: "constructor" is not allowed; allowed: en, zh\. Shown instead: the saved or the browser’s language\./);
      assert.match(said.seed, /seed: "abc" is not allowed; allowed: a whole number from 0 to 9,007,199,254,740,991/);
      // An instructor's misspelled control takes its strictest value (web/README.md "Course platforms").
      assert.match(said.reveal, /allowed: never, after-attempt, after-solve\. Shown instead: never\./);
      assert.match(said.calculator, /allowed: on, off\. Shown instead: off\./);
      assert.match(said.hints, /allowed: on, off\. Shown instead: off\./);
      assert.equal(await page.locator('[data-action="solution"]:visible').count(), 0);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.locator('section.card[data-exercise]').count(), 8);
    }
    // A malformed escape after # (`#%`) names no section: the view opens, nothing throws.
    await visit(page, '?view=ladder#%');
    await page.waitForSelector('[data-role="section-view"]');
    for (const value of ['constructor', '__proto__', '99', '3.5', '-1']) {
      // An exercise wins over the view: another view that is none rides along, named too.
      const other = value === '99' ? '&view=toString' : '';
      const said = await open(`?exercise=${encodeURIComponent(value)}${other}`);
      assert.equal(said.exercise, `exercise: "${value}" is not allowed; allowed: 1, 2, 3, 4, 5, 6, 7, 8.`, value);
      if (other) assert.deepEqual(Object.keys(said).sort(), ['exercise', 'view']);
      assert.equal(await page.locator('section.card[data-exercise]').count(), 0);
    }
    // Each bad setting of the page's own is said in the console too, in English, with what is
    // allowed (for the instructor who wrote the link); nothing else is.
    const told = errors.filter((e) => / console: commlab: [a-z]+: /.test(e));
    assert.ok(told.some((e) => /\?view=__proto__&[^ ]*: console: commlab: view: "__proto__" is not allowed; allowed: explore, author, measured, topics, ladder, nccl, moe, decode, split, rdma, bound, memory, compare, node, ring\./.test(e)), told.join('\n'));
    assert.ok(told.some((e) => /console: commlab: reveal: "__proto__" is not allowed; allowed: never, after-attempt, after-solve\. Shown instead: never\./.test(e)), told.join('\n'));
    errors.splice(0, errors.length, ...errors.filter((e) => !told.includes(e)));
    assert.deepEqual(errors, []);
  });
});

describe('hostile messages from the parent', () => {
  const frameOf = (page, n) => page.frames().find((f) => f.url().includes(`exercise=${n}&`));
  const hostKey = (n) => `commlab.host.v1.${new URL(lab.url).origin}.${n}`;

  async function openCourse(ctx) {
    const page = await ctx.newPage();
    page.on('pageerror', (err) => errors.push(`course page: ${err.message}`));
    // Console messages of the frames come here too.
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`console: ${msg.text()}`); });
    await page.goto(host.url);
    await page.waitForFunction(() => window.events.filter((e) => e.type === 'commlab:ready').length >= 2, null, { timeout: 20000 });
    await page.waitForTimeout(300); // restores are answered right after ready
    return page;
  }


  // Polled by time, not by animation frame: a frame scrolled out of view draws no frames.
  const until = (frame, fn, arg) => frame.waitForFunction(fn, arg, { polling: 50, timeout: 60000 });

  /** Posts `messages` (JSON texts, parsed in the course page: own __proto__ keys survive) to frame `n`, `times` over. */
  const post = (page, n, messages, times = 1) => page.evaluate(({ n, messages, times }) => {
    const w = document.querySelector(`iframe[data-commlab-frame="${n}"]`).contentWindow;
    const parsed = messages.map((m) => JSON.parse(m));
    for (let i = 0; i < times; i++) for (const m of parsed) w.postMessage(m, '*');
  }, { n, messages, times });

  // One course page for both tests: the first leaves exercise 3 reset and exercise 6 untouched.
  let ctx = null;
  let page = null;
  before(async () => {
    await up();
    ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await openCourse(ctx);
  });
  after(() => ctx?.close());

  test('prototype keys and wrong types are ignored, with no error; a good message still works', async () => {
    const f3 = frameOf(page, 3);
    await answerIn(f3, LECTURE3);
    await f3.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { polling: 100 });
    const hostile = [
      '{"type": "__proto__"}', '{"type": "constructor"}', '{"type": "toString"}', '{"type": "hasOwnProperty"}',
      '{"type": "valueOf", "exercise": 3}', '{"__proto__": {"type": "commlab:reset"}}', '{"type": ["commlab:reset"]}',
      '{"type": "commlab:reset", "exercise": "3"}', '{"type": "commlab:reset", "exercise": {"valueOf": 3}}',
      '{"type": "commlab:reset", "exercise": [3]}', '{"type": "commlab:reset", "exercise": 6}', '{"type": "commlab:reset", "exercise": 3.5}',
      '{"type": "commlab:reset", "__proto__": {"exercise": 3}, "exercise": "x"}',
      '{"type": "commlab:set-lang", "lang": "__proto__"}', '{"type": "commlab:set-lang", "lang": ["zh"]}',
      '{"type": "commlab:set-lang", "lang": "constructor"}', '{"type": "commlab:set-lang"}',
      '{"type": "commlab:restore", "exercise": 3, "state": "lecture"}', '{"type": "commlab:restore", "exercise": 3, "state": []}',
      '{"type": "commlab:restore", "exercise": "3", "state": null}', '{"type": "commlab:restore", "state": {}}',
      '[{"type": "commlab:reset"}]', '"commlab:reset"', '3', 'null', 'true',
    ];
    // A restore whose state has prototype keys (checked by app/progress.js): nothing polluted, no error.
    const pollute = '{"type": "commlab:restore", "exercise": 3, "state": {"__proto__": {"polluted": 1}, "current": "lecture", ' +
      '"variants": {"__proto__": {"attempts": 1}, "constructor": {"attempts": 2}}}}';
    await post(page, 3, hostile);
    await page.waitForTimeout(500);
    assert.equal(await f3.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await f3.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await f3.evaluate(() => ({}).polluted ?? Object.prototype.exercise ?? null), null);
    assert.deepEqual(errors, []);
    await post(page, 3, [pollute]);
    await page.waitForTimeout(500);
    assert.equal(await f3.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await f3.evaluate(() => ({}).polluted ?? ({}).attempts ?? null), null);
    assert.deepEqual(errors, []);
    // The channel is still open: a well-formed reset from the parent erases exercise 3.
    await post(page, 3, ['{"type": "commlab:reset", "exercise": 3}']);
    await f3.waitForFunction(() => !document.querySelector('[data-answer="ring"]').dataset.verdict, null, { polling: 100 });
    assert.deepEqual(errors, []);
  });

  test('2,000 resets from the parent cost well under 2 s; exercise 3 is reset, exercise 6 keeps its record', async (t) => {
    const f3 = frameOf(page, 3);
    const f6 = frameOf(page, 6);
    await answerIn(f3, LECTURE3);
    await answerIn(f6, WRONG6);
    await page.waitForFunction((k) => {
      const held = JSON.parse(localStorage.getItem(k) ?? 'null');
      return held?.variants?.lecture?.attempts === 1;
    }, hostKey(6));
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? 'null')?.variants?.lecture?.solved === true, hostKey(3));
    const held6 = await page.evaluate((k) => localStorage.getItem(k), hostKey(6));

    const flood = async (messages, times, lang) => {
      const start = Date.now();
      await post(page, 3, messages, times);
      // The message after the flood is answered at once.
      await post(page, 3, [JSON.stringify({ type: 'commlab:set-lang', lang })]);
      await until(f3, (l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-CN' : 'en');
      return Date.now() - start;
    };
    const resetMs = await flood(['{"type": "commlab:reset", "exercise": 3}'], 2000, 'zh');
    t.diagnostic(`2,000 resets, then a language switch: ${resetMs} ms`);
    assert.ok(resetMs < 2000, `2,000 resets took ${resetMs} ms`);
    // Exercise 3 is reset, in the frame and in the course page's copy; exercise 6 is untouched.
    await until(f3, () => !document.querySelector('[data-answer="ring"]').dataset.verdict);
    assert.equal(await f3.locator('[data-answer="ring"]').inputValue(), '');
    assert.doesNotMatch(await f3.locator('[data-role="status"]').innerText(), /Solved|已完成/);
    await page.waitForFunction((k) => Object.keys(JSON.parse(localStorage.getItem(k))?.variants ?? { x: 1 }).length === 0, hostKey(3));
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), hostKey(6)), held6);
    assert.equal(await f6.locator('[data-answer="microbatches"]').getAttribute('data-verdict'), 'incorrect');
    assert.equal(await f6.locator('[data-answer="microbatches"]').inputValue(), '4');

    // The other kinds: 2,000 language switches, then 2,000 restores of the course page's copy.
    const langMs = await flood(['{"type": "commlab:set-lang", "lang": "zh"}', '{"type": "commlab:set-lang", "lang": "en"}'], 1000, 'en');
    t.diagnostic(`2,000 language switches: ${langMs} ms`);
    assert.ok(langMs < 2000, `2,000 language switches took ${langMs} ms`);
    await answerIn(f3, LECTURE3);
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? 'null')?.variants?.lecture?.solved === true, hostKey(3));
    const copy = await page.evaluate((k) => localStorage.getItem(k), hostKey(3));
    const restoreMs = await flood([`{"type": "commlab:restore", "exercise": 3, "state": ${copy}}`], 2000, 'zh');
    t.diagnostic(`2,000 restores: ${restoreMs} ms`);
    assert.ok(restoreMs < 2000, `2,000 restores took ${restoreMs} ms`);
    assert.equal(await f3.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'correct');
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), hostKey(6)), held6);
    // A reset and a restore in one flood: the order holds (a restore after the last reset is kept).
    await post(page, 3, ['{"type": "commlab:reset", "exercise": 3}', `{"type": "commlab:restore", "exercise": 3, "state": ${copy}}`], 500);
    await until(f3, () => document.querySelector('[data-answer="ring"]').dataset.verdict === 'correct');
    await post(page, 3, [`{"type": "commlab:restore", "exercise": 3, "state": ${copy}}`, '{"type": "commlab:reset", "exercise": 3}'], 500);
    await until(f3, () => !document.querySelector('[data-answer="ring"]').dataset.verdict);
    assert.deepEqual(errors, []);
  });

  test('a host restore that claims more than its answers earn is judged again: no verdict or solved state it did not earn', async () => {
    const f6 = frameOf(page, 6);
    const claims = { current: 'lecture', variants: { lecture: {
      answers: WRONG6, verdicts: { microbatches: 'correct', token_interval: 'correct' }, solved: true, attempts: 1, updated: '2030-01-01T00:00:00.000Z',
    } } };
    await post(page, 6, [JSON.stringify({ type: 'commlab:restore', exercise: 6, state: claims })]);
    await until(f6, () => document.querySelector('[data-answer="token_interval"]').dataset.verdict === 'incorrect');
    assert.equal(await f6.locator('[data-answer="microbatches"]').getAttribute('data-verdict'), 'incorrect');
    assert.doesNotMatch(await f6.locator('[data-role="status"]').innerText(), /Solved/);
    // What the frame posts back (the course page's copy) is the judged record.
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? 'null')?.variants?.lecture?.updated === '2030-01-01T00:00:00.000Z', hostKey(6));
    const held = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).variants.lecture, hostKey(6));
    assert.deepEqual([held.solved, held.verdicts], [false, { microbatches: 'incorrect', token_interval: 'incorrect' }]);
    assert.deepEqual(errors, []);
  });
});
