// Progress is never lost (web/README.md "Progress and storage"), in headless Chromium: a full storage
// is said at once with Export, keeps the change in memory and saves it once space returns; an
// import too large for storage is refused and leaves every saved key byte for byte; hostile saved
// values (language "__proto__", a key commlab.v2.progress.__proto__.x) are set aside and the page
// starts; a refused version-1 record really is set aside; a refused host restore's notice goes
// once a later restore is taken; blocked storage still gives a working page that says so.
// Storage limits are simulated by an init script that wraps Storage.prototype.setItem.
// One page serves the tests in turn (page loads cost most of the time here): each saved state
// under test is put in its storage by an init script as the page reloads (a bad language beside
// another bad value where their set-aside keys tell them apart), and each start also checks that
// what the starts before set aside stays set aside, and nothing more. The tests of a full storage
// and of an import share one reload, working on exercises of their own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { engine } from './engine.mjs';
import { answer, DESKTOP, downloadPath, PHONE, screenshotDir, serve, settled, shot, useLab, verdicts } from './helpers.mjs';

const LECTURE2 = { bytes_sent: '150 MB', steps: '6', time: '429 us' };
// Exercises 5 and 6 solved as the lecture states them (the engine's own answers).
const LECTURE5 = engine({ op: 'exercise.solve', id: 5 }).display;
const LECTURE6 = engine({ op: 'exercise.solve', id: 6 }).display;

const errors = [];

const fresh = (options = {}) => lab.browser.newContext({ viewport: DESKTOP, locale: 'en-US', acceptDownloads: true, ...options });
const card = (page, n) => page.locator(`[data-exercise="${n}"]`);
const status = async (page, n) => (await settled(page), card(page, n).locator('[data-role="status"]').innerText());
const notice = (page) => page.locator('#notice');

/** Every localStorage key and its text, sorted. */
const storageOf = (page) => page.evaluate(() => Object.fromEntries(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)])));
const asideOf = (storage) => Object.entries(storage).filter(([k]) => k.startsWith('commlab.corrupt.'));

/**
 * Init script: localStorage.setItem throws the browser's QuotaExceededError once the storage
 * would hold more than window.__budget_chars characters (keys and values); Infinity lifts it.
 * A budget kept in sessionStorage ('test-budget') applies from the first script on.
 */
function quotaScript() {
  const setItem = Storage.prototype.setItem;
  globalThis.__budget_chars = Infinity;
  Storage.prototype.setItem = function limited(key, value) {
    if (this === globalThis.localStorage && Number.isFinite(globalThis.__budget_chars)) {
      let used = 0;
      for (let i = 0; i < this.length; i++) {
        const k = this.key(i);
        used += k.length + this.getItem(k).length;
      }
      const old = this.getItem(key);
      const after = used - (old == null ? 0 : key.length + old.length) + String(key).length + String(value).length;
      if (after > globalThis.__budget_chars) throw new DOMException(`The quota has been exceeded (${after} > ${globalThis.__budget_chars}).`, 'QuotaExceededError');
    }
    return setItem.call(this, key, value);
  };
}

/** Init script: presets localStorage once per tab (sessionStorage remembers it was done). */
function presetScript(entries) {
  if (sessionStorage.getItem('test-preset')) return;
  sessionStorage.setItem('test-preset', '1');
  localStorage.clear();
  for (const [k, v] of entries) localStorage.setItem(k, v);
}

/**
 * Init script: the entries asked for by startWith (under 'test-next' in sessionStorage), put in
 * localStorage before the page reads it and after the last page left.
 */
function nextScript() {
  const next = sessionStorage.getItem('test-next');
  if (next === null) return;
  sessionStorage.removeItem('test-next');
  for (const [k, v] of JSON.parse(next)) localStorage.setItem(k, v);
}

/** Init script: no localStorage at all, once sessionStorage says 'test-blocked'. */
function blockedScript() {
  if (!sessionStorage.getItem('test-blocked')) return;
  Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
}

/** Makes the budget: what storage holds now plus `slack_chars`. */
const fillUp = (page, slack_chars) => page.evaluate((slack) => {
  let used = 0;
  for (let i = 0; i < localStorage.length; i++) used += localStorage.key(i).length + localStorage.getItem(localStorage.key(i)).length;
  globalThis.__budget_chars = used + slack;
  return used;
}, slack_chars);

async function reload(page) {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

async function shoot(page, name) {
  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(size);
    await page.locator('#notice').scrollIntoViewIfNeeded();
    await shot(page, { path: join(screenshotDir(), `storage-${name}-${label}.png`) });
  }
  await page.setViewportSize(DESKTOP);
}

function importFile(page, doc, name = 'progress.json') {
  return page.locator('#import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
}

const LANG_ASIDE = /^commlab\.corrupt\.\d+\.commlab\.v2\.lang$/;

const lab = useLab({}, { full: true });

describe('progress is never lost', () => {
  let ctx;
  let page;
  let host; // a second page of the lab's origin: a host page framing an exercise
  let known = {}; // what was set aside before this start
  const good = ['commlab.v2.progress.2.lecture', JSON.stringify({ answers: { steps: '6' }, verdicts: { steps: 'correct' }, attempts: 1 })];
  const refused = { params: { devices: 5000, bytes: 256000, alpha_s: 5e-6, beta_Bps: 4e10 }, answers: { ring: '1' }, attempts: 2, solved: false, hints: 0, solutionOpen: false };
  const bad = [['commlab.v2.progress.__proto__.x', JSON.stringify({ attempts: 1 })],
    ['commlab.v2.progress.2.constructor', JSON.stringify({ attempts: 2 })],
    ['commlab.v2.current.__proto__', JSON.stringify('lecture')]];
  // Exercise 4: no test after this one changes it before the reload that checks it.
  const trimmed = JSON.stringify({ answers: { flat: '48.75 ms', nonsense: 'x' }, verdicts: { flat: 'correct' }, attempts: 'many' });

  /** Reloads the page with `entries` put in its storage first. */
  async function startWith(entries) {
    known = Object.fromEntries(asideOf(await storageOf(page)));
    await page.evaluate((next) => sessionStorage.setItem('test-next', JSON.stringify(next)), entries);
    await reload(page);
  }

  /**
   * What this start set aside, [key, text] of the language's copy and of the others' values:
   * every value set aside before is still there as it was, none set aside again.
   */
  function newAsides(storage) {
    const all = Object.fromEntries(asideOf(storage));
    for (const [k, v] of Object.entries(known)) assert.equal(all[k], v, `${k} still set aside, as it was`);
    const added = Object.entries(all).filter(([k]) => !(k in known));
    return { lang: added.filter(([k]) => LANG_ASIDE.test(k)), others: added.filter(([k]) => !LANG_ASIDE.test(k)) };
  }

  before(async () => {
    ctx = await fresh();
    await ctx.addInitScript(quotaScript);
    // The page's first start: a version-1 state with a record the engine refuses.
    const v1 = { format: 'commlab-progress', version: 1, lang: 'en', exercises: {
      2: { params: null, answers: { steps: '6' }, verdicts: { steps: 'correct' }, attempts: 1, solved: false, hints: 0, solutionOpen: false },
      3: refused,
    } };
    page = await ctx.newPage();
    page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`${page.url()}: console: ${msg.text()}`); });
    page.on('pageerror', (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
    await page.addInitScript(presetScript, [['commlab.progress.v1', JSON.stringify(v1)]]);
    await page.addInitScript(nextScript);
    await page.addInitScript(blockedScript);
    await page.goto(lab.server.url);
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
  });
  after(() => ctx?.close());

  test('a version-1 record the engine refuses is copied aside before the old key goes; the notice is true', async () => {
    assert.match(await notice(page).innerText(), /set aside \(Exercise 3/);
    await shoot(page, 'v1-aside-en');
    const storage = await storageOf(page);
    const aside = asideOf(storage);
    assert.equal(aside.length, 1, JSON.stringify(Object.keys(storage)));
    assert.match(aside[0][0], /^commlab\.corrupt\.\d+\.commlab\.progress\.v1\.3$/);
    assert.deepEqual(JSON.parse(aside[0][1]), refused, 'the refused record, whole');
    assert.ok(!('commlab.progress.v1' in storage), 'moved over');
    assert.equal(JSON.parse(storage['commlab.v2.progress.2.lecture']).answers.steps, '6');
    assert.equal(await card(page, 3).getAttribute('data-variant'), 'lecture');
    // After a reload (the next start) exercise 2 is kept, and the record still set aside.
  });

  // Each bad language, at a start of its own or at the start of the test beside it, which sets
  // aside keys of its own (the version-1 state is no such test: it saves its own language).
  const languages = [['"__proto__"', '"__proto__"'], ['"constructor"', '"constructor"'], ['"toString"', '"toString"'],
    ['a number', '42', 'proto'], ['not JSON', '__proto__', 'trimmed']];
  for (const [name, text, beside] of languages) {
    test(`a saved language ${name} is set aside and the page starts${beside ? ' (the next test\'s start too)' : ''}; what the starts before set aside stays so`, async () => {
      if (beside === 'proto') await startWith([['commlab.v2.lang', text], ...bad, good]);
      else if (beside === 'trimmed') await startWith([['commlab.v2.lang', text], ['commlab.v2.progress.4.lecture', trimmed]]);
      else await startWith([['commlab.v2.lang', text]]); // beside the good record of exercise 2 kept so far
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.equal(await page.locator('[data-exercise]').count(), 8);
      const storage = await storageOf(page);
      const { lang: aside, others } = newAsides(storage);
      assert.equal(aside.length, 1, JSON.stringify(storage));
      if (!beside) assert.deepEqual(others, [], 'nothing else set aside');
      assert.match(aside[0][0], LANG_ASIDE);
      assert.equal(aside[0][1], text, 'the value as it was found');
      assert.ok(!('commlab.v2.lang' in storage));
      assert.match(await notice(page).innerText(), /set aside \(stored under "commlab\.corrupt\.\d+\.commlab\.v2\.lang"/);
      assert.equal((await verdicts(page, 2)).steps, 'correct', 'the good record is kept');
    });
    if (beside === 'proto') {
      test('a key commlab.v2.progress.__proto__.x is set aside, exported, and the page starts', async () => {
        assert.equal(await page.locator('[data-exercise]').count(), 8);
        const storage = await storageOf(page);
        const aside = Object.fromEntries(newAsides(storage).others.map(([k, v]) => [k.replace(/^commlab\.corrupt\.\d+\./, ''), v]));
        assert.deepEqual(aside, Object.fromEntries(bad), 'each bad key\'s value, as found, under commlab.corrupt.<time>.<key>');
        for (const [k] of bad) assert.ok(!(k in storage), k);
        await shoot(page, 'set-aside-en');
        // The notice follows a language switch, and back.
        const saidEn = await notice(page).innerText();
        await page.locator('[data-action="language"]').click();
        await page.waitForFunction((en) => {
          const text = document.querySelector('#notice').textContent;
          return text !== en && /[\u4e00-\u9fff]/.test(text) && text.includes('commlab.corrupt.');
        }, saidEn, { timeout: 5000 });
        await page.locator('[data-action="language"]').click();
        assert.equal(await notice(page).innerText(), saidEn);
        assert.equal(storage[good[0]], good[1], 'the good record untouched');
        assert.equal(await page.evaluate(() => Object.prototype.variants === undefined && ({}).current === undefined), true);
        assert.equal((await verdicts(page, 2)).steps, 'correct');
        // Export carries every set-aside value under "setAside" (these and those of the starts before).
        const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
        const file = JSON.parse(readFileSync(await downloadPath(download), 'utf8'));
        assert.deepEqual(Object.values(file.setAside).sort(), asideOf(storage).map(([, v]) => v).sort());
        for (const [, v] of bad) assert.ok(Object.values(file.setAside).includes(v), v);
        assert.equal(file.exercises['2'].variants.lecture.answers.steps, '6');
        // And the exported file imports (setAside is left alone).
        await importFile(page, file);
        await page.waitForFunction(() => /Progress imported/.test(document.querySelector('#notice').textContent));
        assert.deepEqual(asideOf(await storageOf(page)), asideOf(storage));
      });
    }
    if (beside === 'trimmed') {
      test('a saved record with a field it cannot use keeps the rest; a copy as it was is set aside (once: checked at the reload below)', async () => {
        assert.match(await notice(page).innerText(), /could not be used and were left out \(Exercise 4 .*"answers".*nonsense.*"attempts"/);
        const storage = await storageOf(page);
        const aside = newAsides(storage).others;
        assert.equal(aside.length, 1);
        assert.match(aside[0][0], /^commlab\.corrupt\.\d+\.commlab\.v2\.progress\.4\.lecture$/);
        assert.equal(aside[0][1], trimmed, 'the record as it was');
        await shoot(page, 'trimmed-en');
        const now = JSON.parse(storage['commlab.v2.progress.4.lecture']);
        assert.deepEqual(now.answers, { flat: '48.75 ms' });
        assert.equal(now.attempts, 0);
        assert.equal((await verdicts(page, 4)).flat, 'correct');
        known = Object.fromEntries(asideOf(storage));
      });
    }
  }

  test('storage full: said at once in the page\'s language with Export, kept in memory, saved once space returns (solved after the reload below)', async () => {
    await page.locator('[data-action="language"]').click(); // to Chinese
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    await answer(page, 1, { n_half: '720 KB' }); // saved before storage fills
    const saved = await storageOf(page);
    await fillUp(page, 0);
    await answer(page, 6, LECTURE6);
    // At once, in Chinese, with an Export button that exports the unsaved attempt.
    await page.waitForFunction(() => document.querySelector('#notice')?.dataset.topic === 'save', null, { timeout: 2000 });
    assert.match(await notice(page).innerText(), /未能保存.*存储空间已满/);
    const button = notice(page).locator('[data-action="save-export"]');
    assert.equal(await button.innerText(), '导出进度');
    await shoot(page, 'full-zh');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const file = JSON.parse(readFileSync(await downloadPath(download), 'utf8'));
    assert.equal(file.exercises['6'].variants.lecture.solved, true, 'the export holds the unsaved attempt');
    // Kept in memory: the card shows it; storage still holds what it held (nothing lost, nothing half-written).
    assert.match(await status(page, 6), /已完成/);
    assert.deepEqual(await storageOf(page), saved);
    // A second change while full is kept too, and the notice is not said twice.
    await answer(page, 1, { time: '2.18 us' });
    assert.deepEqual(await storageOf(page), saved);
    // Space returns: the retry (on a timer) saves everything and the notice says so.
    await page.evaluate(() => { globalThis.__budget_chars = Infinity; });
    await page.waitForFunction(() => document.querySelector('#notice')?.dataset.topic === 'saved', null, { timeout: 8000 });
    assert.match(await notice(page).innerText(), /已重新保存/);
    const now = await storageOf(page);
    assert.equal(JSON.parse(now['commlab.v2.progress.6.lecture']).solved, true);
    assert.equal(JSON.parse(now['commlab.v2.progress.1.lecture']).answers.time, '2.18 us');
  });

  test('storage full in English; space freed by another page is used at once (storage event; solved after the reload below)', async () => {
    await page.locator('[data-action="language"]').click(); // back to English
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    // The other page of the origin: a host page framing exercise 3 (the next test's too), served
    // by the test (framing allowed: 'self').
    host = await ctx.newPage();
    host.on('pageerror', (err) => errors.push(`host: ${err.message}`));
    await host.route('**/test-host.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe src="index.html?exercise=3&embed=1" style="width:100%;height:1200px;border:0"></iframe>` }));
    await host.goto(`${lab.server.url}test-host.html`);
    await host.waitForFunction(() => document.querySelector('iframe').contentDocument?.documentElement.dataset.ready === 'true', null, { timeout: 20000 });
    await page.evaluate(() => localStorage.setItem('other.app.cache', 'x'.repeat(5000)));
    await fillUp(page, 0);
    await answer(page, 5, LECTURE5);
    await page.waitForFunction(() => document.querySelector('#notice')?.dataset.topic === 'save', null, { timeout: 2000 });
    assert.match(await notice(page).innerText(), /could not be saved: this browser's storage for this site is full/);
    assert.equal(await notice(page).locator('[data-action="save-export"]').innerText(), 'Export progress');
    await shoot(page, 'full-en');
    // The other page frees space; its storage event makes this page try again now (well before
    // the first timed retry, 2 s).
    const t0 = Date.now();
    await host.evaluate(() => localStorage.removeItem('other.app.cache'));
    await page.waitForFunction(() => document.querySelector('#notice')?.dataset.topic === 'saved', null, { timeout: 8000 });
    assert.ok(Date.now() - t0 < 1900, `saved ${Date.now() - t0} ms after the storage event`);
    assert.match(await notice(page).innerText(), /saved again/);
    await shoot(page, 'saved-en');
  });

  test('an embedded frame: a refused restore\'s "not used" notice goes once a later restore is taken', async () => {
    const frame = () => host.frames().find((f) => f.url().includes('exercise=3'));
    const restore = (state) => host.evaluate((s) => document.querySelector('iframe').contentWindow.postMessage({ type: 'commlab:restore', exercise: 3, state: s }, '*'), state);
    await restore({ current: 'lecture', variants: { lecture: { attempts: 'many' } } });
    await frame().waitForFunction(() => /not used/.test(document.querySelector('#notice').textContent));
    assert.equal(await frame().locator('#notice').isVisible(), true);
    await restore({ current: 'lecture', variants: { lecture: { answers: { ring: '1 us' }, verdicts: { ring: 'incorrect' }, attempts: 1, updated: new Date().toISOString() } } });
    await frame().waitForFunction(() => document.querySelector('#notice').hidden);
    assert.equal(await frame().locator('[data-answer="ring"]').getAttribute('data-verdict'), 'incorrect', 'the good state was taken');
    const kept = await frame().evaluate(() => JSON.parse(localStorage.getItem('commlab.v2.progress.3.lecture')));
    assert.equal(kept.answers.ring, '1 us', 'and saved');
    await host.close();
  });

  test('an import too large for storage is refused; every saved key stays byte for byte; after the reload, what the tests above saved is there', async () => {
    await answer(page, 2, LECTURE2);
    await answer(page, 3, { ring: '1 us' });
    await page.locator('[data-action="language"]').click();
    await page.locator('[data-action="language"]').click(); // the language key is saved too
    const before = await storageOf(page);
    assert.ok(before['commlab.v2.lang'] && before['commlab.v2.progress.2.lecture'] && before['commlab.v2.progress.3.lecture']);
    // A valid file whose records need more room than is left: exercise 2's key would be
    // overwritten first, exercise 4's write fails, and everything written is put back.
    await fillUp(page, 100);
    // Four typed answers of 200 characters (the longest kept): about 900 characters with their
    // key. (Messages would not do: an import keeps only the engine's, for the answers it judges.)
    const long = (n) => `${n} ms; `.repeat(40).slice(0, 200);
    const big = {
      format: 'commlab-progress', version: 2, lang: 'zh',
      exercises: {
        2: { current: 'lecture', variants: { lecture: { answers: { steps: '7' }, verdicts: { steps: 'incorrect' }, attempts: 1 } } },
        4: { current: 'lecture', variants: { lecture: { answers: { hierarchical: long(1), flat: long(2), speedup: long(3), speedup_doubled: long(4) }, attempts: 1 } } },
      },
    };
    await importFile(page, big);
    await page.waitForFunction(() => /not imported/.test(document.querySelector('#notice').textContent));
    assert.match(await notice(page).innerText(), /nothing changed\. It needs 0\.0\d+ MB .*\(storage full\)\. Your saved progress is as it was/);
    await shoot(page, 'import-full-en');
    assert.deepEqual(await storageOf(page), before, 'storage byte for byte as it was');
    assert.match(await status(page, 2), /Solved/);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    // A record with a 6 MB "updated" field is refused by the check, naming the field.
    await page.evaluate(() => { globalThis.__budget_chars = Infinity; });
    const huge = { format: 'commlab-progress', version: 2, exercises: { 2: { current: 'lecture', variants: { lecture: { attempts: 1, updated: 'x'.repeat(6e6) } } } } };
    await importFile(page, huge);
    await page.waitForFunction(() => /"updated"/.test(document.querySelector('#notice').textContent));
    const text = await notice(page).innerText();
    assert.match(text, /not imported and nothing changed.*Exercise 2.*"updated": "x{20,}… is not a valid value of "updated" \(a time/);
    assert.ok(text.length < 600, `the message quotes the value cut short (${text.length} characters)`);
    await shoot(page, 'import-not-time-en');
    assert.deepEqual(await storageOf(page), before);
    await reload(page);
    const after = await storageOf(page);
    assert.deepEqual(after, before, 'and after a reload');
    assert.match(await status(page, 2), /Solved/);
    assert.equal((await verdicts(page, 3)).ring, 'incorrect');
    // The trimmed record of exercise 4 is not set aside again: the same copy, no notice.
    assert.deepEqual(Object.fromEntries(asideOf(after)), known, 'not set aside again');
    assert.equal(await notice(page).isHidden(), true);
    // Exercise 5, saved once the other page freed space.
    assert.match(await status(page, 5), /Solved/);
    // In Chinese, the refusal is in Chinese; exercise 6, saved once space returned, is solved.
    await page.locator('[data-action="language"]').click();
    assert.match(await status(page, 6), /已完成/);
    assert.deepEqual(await verdicts(page, 6), { microbatches: 'correct', token_interval: 'correct' });
    assert.equal((await verdicts(page, 1)).n_half, 'correct');
    await fillUp(page, 100);
    await importFile(page, big);
    await page.waitForFunction(() => /文件未导入/.test(document.querySelector('#notice').textContent));
    assert.match(await notice(page).innerText(), /存储已满.*已保存的进度保持原样/);
    await shoot(page, 'import-full-zh');
  });

  test('blocked storage (no localStorage at all): the page works, says progress is not kept, imports in memory', async () => {
    await page.evaluate(() => sessionStorage.setItem('test-blocked', '1'));
    await reload(page);
    assert.match(await notice(page).innerText(), /cannot save progress here/);
    await answer(page, 2, LECTURE2);
    assert.match(await status(page, 2), /Solved/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
    const file = JSON.parse(readFileSync(await downloadPath(download), 'utf8'));
    assert.equal(file.exercises['2'].variants.lecture.solved, true);
    await page.locator('[data-action="reset"]').click();
    await page.locator('[data-action="reset-confirm"]').click();
    await importFile(page, file);
    await page.waitForFunction(() => /imported, but/.test(document.querySelector('#notice').textContent));
    await shoot(page, 'import-blocked-en');
    assert.match(await status(page, 2), /Solved/);
  });

  test('embed.js on a full course page: a frame reloaded meanwhile gets its latest state back from the host', async () => {
    // The lab on 127.0.0.1, the course page on another site (served by the test): the frame's
    // own storage is blocked (third-party), so the course page holds the progress.
    const lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
    const page = await ctx.newPage(); // the context's quota script applies to it
    page.on('pageerror', (err) => errors.push(`course page: ${err.message}`));
    const body = `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">
<script>window.states = 0; document.addEventListener('commlab-state', () => { window.states += 1; });</script>
<div data-commlab-exercise="2"></div><script src="${lab.url}embed.js"></script>`;
    const course = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body));
    await new Promise((ok) => course.listen(0, '127.0.0.1', ok));
    await page.goto(`http://localhost:${course.address().port}/week5.html`);
    const frame = () => page.frames().find((f) => f.url().includes('exercise=2'));
    await page.waitForFunction(() => document.querySelector('iframe')?.offsetHeight > 0);
    await page.waitForTimeout(200);
    await frame().waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 20000 });
    const own = await frame().evaluate(() => { try { return localStorage.length >= 0; } catch { return false; } });
    assert.equal(own, false, 'the cross-site frame has no storage of its own: the course page holds its progress');
    await fillUp(page, 0); // the course page's storage is full from now on
    const before = await storageOf(page);
    for (const [id, text] of Object.entries(LECTURE2)) await frame().locator(`[data-answer="${id}"]`).fill(text);
    await frame().locator('[data-action="check"]').click();
    await frame().waitForFunction(() => /Solved/.test(document.querySelector('[data-role="status"]').textContent));
    await page.waitForFunction(() => window.states > 0);
    assert.deepEqual(await storageOf(page), before, 'the course page could not save it');
    // The frame is reloaded (the host sets its address again): the restore comes from memory.
    await page.evaluate(() => { const f = document.querySelector('iframe'); f.src = f.src; });
    await page.waitForTimeout(300);
    await frame().waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 20000 });
    await frame().waitForFunction(() => /Solved/.test(document.querySelector('[data-role="status"]').textContent), null, { timeout: 5000 });
    // Space returns: the next state is written.
    await page.evaluate(() => { globalThis.__budget_chars = Infinity; });
    await frame().locator('[data-answer="steps"]').fill('6 ');
    await frame().locator('[data-action="check"]').click();
    // The host writes each state the frame posts (debounced): wait for the one with the solve.
    await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('commlab.host.v1.') &&
      JSON.parse(localStorage.getItem(k))?.variants?.lecture?.solved === true), null, { timeout: 10000 });
    const held = await storageOf(page);
    const key = Object.keys(held).find((k) => k.startsWith('commlab.host.v1.') && JSON.parse(held[k])?.variants?.lecture);
    assert.equal(JSON.parse(held[key]).variants.lecture.solved, true);
    await page.close();
    await lab.close();
    await new Promise((ok) => course.close(ok));
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
