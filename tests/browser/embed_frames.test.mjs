// Frames of a course page (web/README.md "Embedding in a course site"): a course page on another site
// (http://localhost:<port>) embeds the lab (http://127.0.0.1:<port>) with embed.js. Two frames of
// one exercise keep their own work; a fixed frame's state holds its variant only; data-student
// gives each student a variant; state posted once per pause in typing, and kept by a reload right
// after; theme and colours (a bad or unreadable colour named, axe on a dark frame); a
// twice-pasted script; titles in the page's language; a frame whose server refuses to be framed
// says so. Three course pages: the frames whose work is kept across reloads, the frames of looks
// and scripts, the refused ones. Screenshots of a dark frame and of the refused message at 1280
// and 390 px.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIST, answerIn, courseSite, launch, screenshotDir, serve, shot } from './helpers.mjs';

const LECTURE3 = { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' };
const AXE = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let lab; // frames allowed from the course site
let refusing; // the same lab, whose server lets no other site frame it
let host;
let browser;
let errors = []; // console errors and page errors of every page, checked by each test
const warnings = [];

// The host records every event embed.js re-dispatches on the divs.
const RECORDER = `<script>
  window.events = [];
  for (const type of ['commlab-ready', 'commlab-state', 'commlab-checked'])
    document.addEventListener(type, (e) => window.events.push({ on: e.target.id, ...e.detail }));
</script>`;

function coursePage(divs, { lang = 'en', labUrl = lab.url, scripts = 1, dark = false } = {}) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course: week 5</title><link rel="icon" href="data:,">
<style>
  body { max-width: 52rem; margin: 0 auto; padding: 1rem; font-family: Georgia, serif; ${dark ? 'background: #0e1116; color: #d8dde4;' : ''} }
  a { color: ${dark ? '#8fb8ff' : '#0645ad'}; }
</style>${RECORDER}</head><body>
<h1>${lang === 'zh' ? '第 5 周：GPU 集群中的通信' : 'Week 5: communication in a GPU cluster'}</h1>
${divs}
${`<script src="${labUrl}embed.js" defer></script>\n`.repeat(scripts)}</body></html>`;
}

async function frameOf(page, divId) {
  const handle = await page.locator(`#${divId} iframe`).elementHandle();
  return handle.contentFrame();
}

async function openCourse(ctx, path, ready) {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => errors.push(`host ${path}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`host ${path}: console: ${msg.text()}`);
    if (msg.type() === 'warning') warnings.push(msg.text()); // said when a check goes missing
  });
  await page.goto(`${host.url}${path}`);
  await waitReady(page, ready);
  return page;
}

async function waitReady(page, n) {
  if (!n) return;
  await page.waitForFunction((k) => window.events.filter((e) => e.type === 'commlab:ready').length >= k, n, { timeout: 30000 });
  await page.waitForTimeout(300); // the restores answered to ready land
}

const events = (page, type, on) => page.evaluate(([t, o]) => window.events.filter((e) => e.type === t && (!o || e.on === o)), [type, on]);
const hostKeys = (page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('commlab.host.')).sort());
const takeErrors = () => {
  const out = errors;
  errors = [];
  return out;
};

before(async () => {
  assert.ok(existsSync(join(DIST, 'embed.js')), 'dist/embed.js is missing: run ./lab assemble first');
  lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
  refusing = await serve(undefined); // 'self' only: the course site may not frame it
  const pages = {
    // Exercise 3 five times: the lecture's values, seed 7, two students, and one typed into
    // (data-key: its progress apart from the lecture's frame).
    '/kept': coursePage(`<div id="a" data-commlab-exercise="3"></div>
<div id="b" data-commlab-exercise="3" data-seed="7"></div>
<div id="alice" data-commlab-exercise="3" data-student="alice@example.edu"></div>
<div id="bob" data-commlab-exercise="3" data-student="bob@example.edu"></div>
<div id="p" data-commlab-exercise="3" data-key="typing"></div>`),
    // A dark course page whose script is pasted twice. The data-keys keep the frames' progress apart.
    '/looks': coursePage(`<div id="c" data-commlab-exercise="3" data-key="c" data-theme="dark" data-accent="#f5a623" data-background="#202020" data-text="#eeeeee"></div>
<div id="bad" data-commlab-exercise="1" data-accent="red" data-background="#000" data-reveel="never" data-reveal="nevr"></div>
<div id="d" data-commlab-exercise="3" data-key="d" data-theme="dark"></div>
<div id="l" data-commlab-exercise="3" data-key="l" data-theme="light"></div>
<div id="plain" data-commlab-exercise="3" data-key="plain"></div>
<div id="t" data-commlab-exercise="3" data-key="t"></div>`, { scripts: 2, dark: true }),
    '/refused': coursePage(`<div id="r" data-commlab-exercise="3"></div>
<div id="r-en" data-commlab-exercise="3" data-lang="en"></div>`, { labUrl: refusing.url, lang: 'zh' }),
  };
  host = await courseSite(pages);
  browser = await launch({ full: true });
});

after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
  await refusing?.close();
});

describe('frames of a course page: work kept across reloads', () => {
  let ctx;
  let page;
  before(async () => {
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await openCourse(ctx, '/kept', 5);
  });
  after(() => ctx?.close());
  let variantB;

  test('typing posts the state once per pause, not per keystroke', async () => {
    const frame = await frameOf(page, 'p');
    // This Chromium blocks third-party storage in the frame, and so the shared engine: the frame
    // runs a worker of its own (embed_shared.test.mjs: where it is allowed).
    assert.deepEqual(await frame.evaluate(async () => {
      const door = window.commlabBoot.door;
      return [door.heavyRunsIn(), door.currentWorker()?.shared === true];
    }), ['worker', false]);
    const before = (await events(page, 'commlab:state', 'p')).length;
    const t0 = Date.now();
    await frame.locator('[data-answer="ring"]').pressSequentially('162 microseconds ok!', { delay: 20 }); // 20 keystrokes
    const typing_ms = Date.now() - t0;
    const during = (await events(page, 'commlab:state', 'p')).length - before;
    // At most one a pause of 400 ms (app/frame.js STATE_DELAY_MS), and far fewer than keystrokes.
    assert.ok(during <= Math.floor(typing_ms / 400) + 1 && during <= 6, `${during} state messages for 20 keystrokes in ${typing_ms} ms`);
    assert.deepEqual(takeErrors(), []);
  });

  test('two frames of one exercise (the lecture\'s values and seed 7), two students (data-student) and a frame typed into just before: each keeps its own work across a reload; a check posts at once', async () => {
    let a = await frameOf(page, 'a');
    let b = await frameOf(page, 'b');
    variantB = await b.locator('[data-exercise="3"]').getAttribute('data-variant');
    assert.notEqual(variantB, 'lecture');
    await answerIn(a, LECTURE3);
    await answerIn(b, { ring: '1 us' });
    for (const id of ['a', 'b']) {
      await page.waitForFunction((on) => window.events.some((e) => e.type === 'commlab:checked' && e.on === on), id, { timeout: 15000 })
        .catch(async (err) => {
          const seen = await page.evaluate(() => window.events.map((e) => `${e.on}:${e.type}`).join(' '));
          const card = await (await frameOf(page, id)).evaluate(() => {
            const c = document.querySelector('section.card');
            const f = c?.querySelector('[data-answer="ring"]');
            return JSON.stringify({ variant: c?.dataset.variant, busy: c?.getAttribute('aria-busy'), ring: f?.value, verdict: f?.dataset.verdict,
              summary: c?.querySelector('[data-role="summary"], .summary')?.textContent, notice: document.querySelector('#notice')?.textContent });
          });
          throw new Error(`no commlab:checked from frame ${id}; the host heard: ${seen}; its card: ${card}; warnings: ${warnings.join(' | ')}`, { cause: err });
        });
    }
    // The fixed frame posts its own variant's record alone, every time.
    const fromB = await events(page, 'commlab:state', 'b');
    assert.deepEqual(Object.keys(fromB.at(-1).state.variants), [variantB]);
    for (const e of fromB) {
      assert.equal(e.state.current, variantB);
      assert.ok(Object.keys(e.state.variants).every((k) => k === variantB), Object.keys(e.state.variants).join());
    }
    const origin = new URL(lab.url).origin;
    assert.deepEqual(await hostKeys(page), ['3', '3?key=typing', '3?seed=7', '3?student=alice%40example.edu', '3?student=bob%40example.edu']
      .map((k) => `commlab.host.v1.${origin}.${k}`).sort());
    // Students: different variants, no "New variant".
    const shown = async () => {
      const out = {};
      for (const id of ['alice', 'bob']) {
        const f = await frameOf(page, id);
        assert.match(f.url(), new RegExp(`[?&]student=${id}%40example\\.edu(&|$)`));
        out[id] = {
          variant: await f.locator('[data-exercise="3"]').getAttribute('data-variant'),
          statement: await f.locator('[data-role="statement"]').innerText(),
          newVariant: await f.locator('[data-action="variant"]').isVisible(),
        };
      }
      return out;
    };
    const first = await shown();
    assert.notEqual(first.alice.variant, 'lecture');
    assert.notEqual(first.alice.variant, first.bob.variant);
    assert.notEqual(first.alice.statement, first.bob.statement);
    assert.equal(first.alice.newVariant, false);
    await answerIn(await frameOf(page, 'alice'), { ring: '3 us' });
    await (await frameOf(page, 'p')).locator('[data-answer="binary_tree"]').pressSequentially('91.2 us', { delay: 10 });
    await page.reload(); // at once: the frame's beforeunload posts what its pause had not yet sent
    await waitReady(page, 5);

    const again = await frameOf(page, 'p');
    await again.waitForFunction(() => document.querySelector('[data-answer="binary_tree"]')?.value === '91.2 us', null, { timeout: 10000, polling: 100 });
    assert.equal(await again.locator('[data-answer="ring"]').inputValue(), '162 microseconds ok!');
    a = await frameOf(page, 'a');
    b = await frameOf(page, 'b');
    await a.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { timeout: 10000, polling: 100 });
    assert.equal(await a.locator('[data-exercise="3"]').getAttribute('data-variant'), 'lecture');
    assert.match(await a.locator('[data-role="status"]').innerText(), /Solved/);
    // A's picker offers no variant of B's (A holds its own work only).
    assert.equal(await a.locator('.variant-picker').isVisible(), false);
    assert.deepEqual(await a.locator('[data-role="variants"] option').evaluateAll((os) => os.map((o) => o.value)), ['lecture']);
    await b.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'incorrect', null, { timeout: 10000, polling: 100 });
    assert.equal(await b.locator('[data-answer="ring"]').inputValue(), '1 us');
    assert.equal(await b.locator('[data-exercise="3"]').getAttribute('data-variant'), variantB);
    // One student the same after the reload.
    assert.deepEqual(await shown(), first);
    const alice = await frameOf(page, 'alice');
    await alice.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.value === '3 us', null, { timeout: 10000, polling: 100 });
    assert.equal(await (await frameOf(page, 'bob')).locator('[data-answer="ring"]').inputValue(), '');
    // A check posts at once.
    const n = (await events(page, 'commlab:state', 'p')).length;
    await again.locator('[data-action="check"]').click();
    await page.waitForFunction((k) => window.events.filter((e) => e.type === 'commlab:state' && e.on === 'p').length > k, n, { timeout: 300 });
    assert.deepEqual(takeErrors(), []);
  });

  test('a reset of one frame leaves the other; a frame fixed to a variant takes only that variant from the host\'s copy', async () => {
    assert.ok(variantB, 'the previous test saw B\'s variant');
    const b = await frameOf(page, 'b');
    await page.evaluate(() => window.commlab.reset(document.querySelector('#b')));
    await b.waitForFunction(() => !document.querySelector('[data-answer="ring"]').dataset.verdict, null, { polling: 100 });
    // The host's copy for B names another variant too (a page written before keys per frame).
    const key = `commlab.host.v1.${new URL(lab.url).origin}.3?seed=7`;
    const now = new Date().toISOString();
    const record = (answers) => ({ params: null, answers, verdicts: {}, messages: {}, attempts: 0, solved: false, hints: 0, solutionOpen: false, revealed: false, created: now, updated: now });
    await page.waitForFunction((k) => {
      const copy = JSON.parse(localStorage.getItem(k));
      return copy && !Object.values(copy.variants).some((r) => r.answers?.ring);
    }, key); // the reset is in the host's copy
    await page.evaluate(([k, lecture]) => {
      const copy = JSON.parse(localStorage.getItem(k));
      localStorage.setItem(k, JSON.stringify({ current: 'lecture', variants: { ...copy.variants, lecture } }));
    }, [key, record({ ring: '162 us' })]);
    await page.reload();
    await waitReady(page, 5);
    const a = await frameOf(page, 'a');
    const b2 = await frameOf(page, 'b');
    await a.waitForFunction(() => document.querySelector('[data-answer="ring"]')?.dataset.verdict === 'correct', null, { timeout: 10000, polling: 100 });
    // B: its variant, empty (reset), nothing of the lecture's record.
    assert.equal(await b2.locator('[data-exercise="3"]').getAttribute('data-variant'), variantB);
    assert.equal(await b2.locator('[data-answer="ring"]').inputValue(), '');
    // What it holds and posts back: its own variant, no record of the lecture's.
    await b2.locator('[data-answer="ring"]').fill('2 us');
    await page.waitForFunction(() => window.events.some((e) => e.type === 'commlab:state' && e.on === 'b' &&
      Object.values(e.state.variants).some((r) => r.answers?.ring === '2 us')), null, { timeout: 5000 });
    const last = (await events(page, 'commlab:state', 'b')).at(-1);
    assert.deepEqual(Object.keys(last.state.variants), [variantB]);
    assert.equal(last.state.variants[variantB].answers.ring, '2 us');
    assert.deepEqual(takeErrors(), []);
  });

  test('a check pressed while a host\'s restore redraws the card is still answered: its verdict shown, commlab:checked posted', async () => {
    const b = await frameOf(page, 'b');
    const rec = (await events(page, 'commlab:state', 'b')).at(-1).state.variants[variantB];
    const checked = (await events(page, 'commlab:checked', 'b')).length;
    // A newer record of B's variant: the frame takes it and redraws its card while the check is out.
    const newer = { current: variantB, variants: { [variantB]: { ...rec, answers: { ring: '5 us' }, updated: new Date(Date.now() + 60000).toISOString() } } };
    await page.evaluate(([state, origin]) => {
      document.querySelector('#b iframe').contentWindow.postMessage({ type: 'commlab:restore', exercise: 3, state }, origin);
    }, [newer, new URL(lab.url).origin]);
    await answerIn(b, { ring: '4 us' });
    await page.waitForFunction(([on, k]) => window.events.filter((e) => e.type === 'commlab:checked' && e.on === on).length > k, ['b', checked], { timeout: 10000 });
    const shown = await b.locator('[data-answer="ring"]').inputValue();
    assert.ok(['4 us', '5 us'].includes(shown), shown);
    assert.equal(await b.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'incorrect');
    assert.deepEqual(takeErrors(), []);
  });
});

describe('frames of a course page: looks and scripts', () => {
  let ctx;
  let page;
  before(async () => {
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', locale: 'en-US' });
    page = await openCourse(ctx, '/looks', 6);
  });
  after(() => ctx?.close());

  test('colours: applied as given; a malformed or unreadable one and a misspelled option are named, in the frame and the console', async () => {
    const c = await frameOf(page, 'c');
    const vars = await c.evaluate(() => Object.fromEntries(['--accent', '--card', '--ink', '--accent-ink'].map((v) => [v, getComputedStyle(document.documentElement).getPropertyValue(v).trim()])));
    assert.deepEqual(vars, { '--accent': '#f5a623', '--card': '#202020', '--ink': '#eeeeee', '--accent-ink': '#000000' });
    assert.equal(await c.locator('section.card').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(32, 32, 32)');
    assert.equal(await c.locator('#link-problems').isVisible(), false);
    await c.evaluate(AXE());
    const contrast = await c.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2aa'] }));
    assert.deepEqual(contrast.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
    const bad = await frameOf(page, 'bad');
    const problems = await bad.locator('#link-problems li').evaluateAll((lis) => Object.fromEntries(lis.map((li) => [li.dataset.setting, li.textContent])));
    assert.deepEqual(Object.keys(problems).sort(), ['accent', 'background', 'reveal']);
    assert.match(problems.accent, /"red" is not allowed; allowed: a colour written #rgb or #rrggbb/);
    assert.match(problems.background, /"#000" is not allowed; allowed: a colour with contrast of at least 4.5:1 against the text \(#1c2430\); this one has 1\.\d:1\. Shown instead: the theme’s own colour/);
    assert.match(problems.reveal, /"nevr" is not allowed; allowed: never, after-attempt, after-solve\. Shown instead: never/);
    // The strictest fallback holds: reveal=never hides the worked solution.
    assert.equal(await bad.locator('[data-action="solution"]').isVisible(), false);
    assert.notEqual(await bad.locator('section.card').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(0, 0, 0)');
    // Every console error of the page's load (its other frames say none).
    const said = takeErrors();
    assert.ok(said.some((e) => /data-reveel="never" is not an option of commlab \(did you mean data-reveal\?\)/.test(e)), said.join('\n'));
    assert.ok(said.some((e) => /data-reveal="nevr" is not allowed; allowed: never, after-attempt, after-solve/.test(e)), said.join('\n'));
    assert.ok(said.some((e) => /data-accent="red" is not allowed; allowed: #rgb or #rrggbb/.test(e)), said.join('\n'));
    // The frame says its own bad settings in its console too (app/address.js).
    assert.ok(said.some((e) => /commlab: reveal: "nevr" is not allowed; allowed: never, after-attempt, after-solve\. Shown instead: never\./.test(e)), said.join('\n'));
    assert.ok(said.some((e) => /commlab: accent: "red" is not allowed/.test(e)), said.join('\n'));
    assert.equal(said.length, 5, said.join('\n'));
    // Chinese: the same problems in the frame's other language.
    await page.evaluate(() => window.commlab.setLang('zh'));
    await bad.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { polling: 100 });
    assert.match(await bad.locator('#link-problems li[data-setting="background"]').innerText(), /对比度至少 4.5:1/);
    await page.evaluate(() => window.commlab.setLang('en'));
    await bad.waitForFunction(() => document.documentElement.lang === 'en', null, { polling: 100 });
  });

  test('theme=dark: a dark card whatever the browser says, the same palette as the browser\'s dark mode; axe finds nothing', async () => {
    const palette = (frame) => frame.evaluate(() => {
      const s = getComputedStyle(document.documentElement);
      return Object.fromEntries(['--bg', '--card', '--ink', '--muted', '--accent', '--ok', '--bad', '--warn', '--field', '--calc-bg', '--solution-bg', '--backdrop']
        .map((v) => [v, s.getPropertyValue(v).trim()]).concat([['scheme', s.colorScheme]]));
    });
    const cardBackground = (frame) => frame.locator('section.card').evaluate((el) => getComputedStyle(el).backgroundColor);
    const luminance = (rgb) => {
      const [r, g, b] = rgb.match(/\d+/g).slice(0, 3).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    // The browser in light mode.
    const d = await frameOf(page, 'd');
    assert.match(d.url(), /[?&]theme=dark(&|$)/);
    assert.ok(luminance(await cardBackground(d)) < 0.2, `card background ${await cardBackground(d)}`);
    const forced = await palette(d);
    // Screenshots, the page as tall as its content (cross-site frames paint inside the viewport only).
    await answerIn(d, { ...LECTURE3, ring: '100 us' });
    for (const [name, width] of [['desktop', 1280], ['phone', 390]]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300); // the frame's new height
      await page.setViewportSize({ width, height: await page.evaluate(() => document.documentElement.scrollHeight) });
      await page.waitForTimeout(300);
      await shot(page.locator('#d'), { path: join(screenshotDir(), `embed-dark-theme-${name}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // axe-core in the dark frame (evaluated by DevTools: not subject to the frame's CSP).
    await d.locator('[data-action="hint"]').click();
    await d.evaluate(AXE());
    const result = await d.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] }));
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
    // The browser in dark mode: theme=light is the light card; no theme is the forced palette.
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.ok(luminance(await cardBackground(await frameOf(page, 'l'))) > 0.9);
    assert.deepEqual(await palette(await frameOf(page, 'plain')), forced, 'theme=dark is the browser\'s dark palette');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(takeErrors(), []);
  });

  test('the script pasted twice: one frame per div, reset and setLang still work; the frame\'s title follows the language', async () => {
    assert.equal(await page.locator('#t iframe').count(), 1);
    assert.equal((await events(page, 'commlab:ready', 't')).length, 1, 'one listener: each message is heard once');
    const frame = await frameOf(page, 't');
    const title = () => page.locator('#t iframe').getAttribute('title');
    assert.equal(await title(), 'commlab exercise 3: Choosing an all-reduce algorithm');
    const ready = (await events(page, 'commlab:ready', 't'))[0];
    assert.deepEqual(ready.title, { en: 'Choosing an all-reduce algorithm', zh: '选算法' });
    await answerIn(frame, LECTURE3);
    await page.evaluate(() => window.commlab.setLang('zh'));
    await frame.waitForFunction(() => document.documentElement.lang === 'zh-CN', null, { polling: 100 });
    assert.equal(await title(), 'commlab 练习 3：选算法');
    await page.evaluate(() => window.commlab.reset());
    await frame.waitForFunction(() => !document.querySelector('[data-answer="ring"]').dataset.verdict, null, { polling: 100 });
    await page.evaluate(() => window.commlab.setLang('en'));
    assert.equal(await title(), 'commlab exercise 3: Choosing an all-reduce algorithm');
    assert.deepEqual(takeErrors(), []);
  });
});

test('a frame whose server refuses to be framed here says so in its div, in the page\'s language or the div\'s', async () => {
  const dir = screenshotDir();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await openCourse(ctx, '/refused', 0);
  const zh = page.locator('#r [data-commlab-problem]'); // <html lang="zh">
  const en = page.locator('#r-en [data-commlab-problem]'); // data-lang="en"
  await zh.waitFor({ timeout: 20000 });
  await en.waitFor({ timeout: 5000 });
  assert.match(await en.innerText(), /^This exercise did not load: the lab at 127\.0\.0\.1:\d+ did not answer\. Its server may refuse to be shown inside this site\. Open exercise 3 in a new tab$/);
  assert.match(await zh.innerText(), /^此练习没有加载：127\.0\.0\.1:\d+ 上的实验室没有响应。它的服务器可能不允许在本站点内显示。在新标签页中打开练习 3$/);
  assert.equal(await en.getAttribute('role'), 'alert');
  assert.equal(await zh.locator('a').getAttribute('href'), `${refusing.url}index.html?exercise=3`);
  assert.equal(await en.locator('a').getAttribute('href'), `${refusing.url}index.html?exercise=3&lang=en`);
  assert.equal(await en.locator('a').getAttribute('target'), '_blank');
  const said = takeErrors();
  assert.equal(said.filter((e) => /did not say commlab:ready within 10 s of loading.*frame-ancestors lists this site \(http:\/\/localhost:\d+\)/.test(e)).length, 2, said.join('\n'));
  // The rest is Chromium's own word on the refusal.
  assert.deepEqual(said.filter((e) => !/commlab:ready|violates the following Content Security Policy directive: "frame-ancestors 'self'"/.test(e)), []);
  for (const [name, width] of [['desktop', 1280], ['phone', 390]]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    await shot(page, { path: join(dir, `embed-refused-${name}.png`) });
  }
  // setLang switches the messages too.
  await page.evaluate(() => window.commlab.setLang('en'));
  assert.match(await zh.innerText(), /Open exercise 3 in a new tab$/);
  await ctx.close();
});
