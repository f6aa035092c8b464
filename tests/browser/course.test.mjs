// Course platforms (web/README.md "Course platforms"): an instructor's controls hold on every way out of a
// frame ("Open in the full lab" keeps seed, reveal, hints, calculator, the variant and the typed
// answers), a misspelled control is shown and takes its strictest value, a plain cross-site
// iframe (no embed.js, storage blocked) exports and imports and asks for storage on a click,
// and a dialog of a tall frame opens in view. The course page is on another site than the lab;
// one course page holds the three frames (embed.js's two and a pasted plain one) for every test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerIn, courseSite, downloadPath, launch, screenshotDir, serve, shot } from './helpers.mjs';
import { join } from 'node:path';

const WRONG6 = { microbatches: '4', token_interval: '1.1 ms' };
// What the misspelled frame says, on purpose, in the console (embed.js and the frame itself).
const MISSPELLED = /data-(reveal|hints)="(nevr|of)"|commlab: (reveal|hints): "(nevr|of)"/;

let lab;
let host;
let browser;

before(async () => {
  lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
  host = await courseSite({
    // The plain frame is one an instructor pasted (a course page that strips scripts would keep
    // only it): embed.js does not know it and keeps nothing for it. The misspelled frame comes
    // after a long reading, as the tall frame whose dialog must open in view.
    '/week': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
</head><body><h1>Week 5</h1>
<div id="controls" data-commlab-exercise="6" data-seed="2024" data-reveal="never" data-hints="off" data-calculator="off"></div>
<iframe id="plain" src="${lab.url}index.html?exercise=6" title="commlab exercise 6" style="width:100%;height:1400px;border:0"></iframe>
<div style="height:1500px">Reading first.</div>
<div id="misspelled" data-commlab-exercise="3" data-reveal="nevr" data-hints="of"></div>
<p>After the exercise.</p>
<script src="${lab.url}embed.js" defer></script></body></html>`,
  });
  browser = await launch({ full: true });
});

after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
});

describe('course platforms: controls that hold, plain frames', () => {
  let ctx;
  let page;
  const seen = []; // every console error and page error of the course page and its frames
  let taken = 0;
  /** The errors since the last call, but the misspelled frame's own. */
  const newErrors = () => seen.slice(taken, (taken = seen.length)).filter((e) => !MISSPELLED.test(e));
  const frameOf = async (selector) => (await page.locator(selector).elementHandle()).contentFrame();

  before(async () => {
    ctx = await browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
    // Chromium here refuses a granted handle's storage to a cross-site frame without a prompt, so
    // the Storage Access API is the browser's part and is stood in for: it gives a handle whose
    // localStorage is a working Storage, as a browser does once the student agrees. (Only the
    // plain frame ever asks: a frame of embed.js has its progress from the course page.)
    await ctx.addInitScript(() => {
      if (!location.search.includes('exercise=')) return;
      const items = new Map();
      window.grantedStorage = {
        get length() { return items.size; },
        key: (i) => [...items.keys()][i] ?? null,
        getItem: (k) => (items.has(k) ? items.get(k) : null),
        setItem: (k, v) => { items.set(String(k), String(v)); },
        removeItem: (k) => { items.delete(k); },
      };
      window.storageAsked = 0;
      document.requestStorageAccess = async () => {
        window.storageAsked++;
        if (!navigator.userActivation.isActive) throw new DOMException('requestStorageAccess not allowed', 'NotAllowedError');
        return { localStorage: window.grantedStorage };
      };
    });
    page = await ctx.newPage();
    page.on('pageerror', (err) => seen.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => { if (msg.type() === 'error') seen.push(msg.text()); });
    await page.goto(`${host.url}/week`);
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3);
    for (const selector of ['#controls iframe', '#plain', '#misspelled iframe']) await (await frameOf(selector)).waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 20000 });
  });
  after(() => ctx?.close());

  test('"Open in the full lab" keeps seed, reveal, hints, calculator, the variant and the typed answers', async () => {
    const frame = await frameOf('#controls iframe');
    const card = frame.locator('[data-exercise="6"]');
    const variant = await card.getAttribute('data-variant');
    assert.notEqual(variant, 'lecture', 'seed 2024 draws a variant of its own');
    // Typed, not checked.
    await card.locator('[data-answer="microbatches"]').fill('5');
    await card.locator('[data-answer="token_interval"]').fill('1.2 ms');
    const [full] = await Promise.all([ctx.waitForEvent('page'), frame.locator('[data-action="open-full"]').click()]);
    full.on('console', (msg) => { if (msg.type() === 'error') seen.push(`full: ${msg.text()}`); });
    await full.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 20000 });
    const url = new URL(full.url());
    assert.equal(url.origin, new URL(lab.url).origin);
    assert.equal(url.searchParams.get('seed'), '2024');
    assert.equal(url.searchParams.get('reveal'), 'never');
    assert.equal(url.searchParams.get('hints'), 'off');
    assert.equal(url.searchParams.get('calculator'), 'off');
    assert.equal(url.searchParams.has('carry'), false, 'the carried state leaves the address once taken');
    assert.equal(url.hash, '#ex6');
    const there = full.locator('[data-exercise="6"]');
    assert.equal(await there.getAttribute('data-variant'), variant);
    assert.equal(await there.locator('[data-answer="microbatches"]').inputValue(), '5');
    assert.equal(await there.locator('[data-answer="token_interval"]').inputValue(), '1.2 ms');
    assert.equal(await there.locator('[data-action="solution"]').isVisible(), false);
    assert.equal(await there.locator('[data-action="hint"]').isVisible(), false);
    assert.equal(await there.locator('.calc-out').isVisible(), false);
    // Kept in the full lab's own storage: a reload (without the carried state) still has it.
    await full.reload();
    await full.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    assert.equal(await full.locator('[data-exercise="6"] [data-answer="microbatches"]').inputValue(), '5');
    await full.close();
    assert.deepEqual(newErrors(), []);
  });

  test('a misspelled control is shown in the frame and the console, and takes its strictest value', async () => {
    const frame = await frameOf('#misspelled iframe');
    const box = frame.locator('#link-problems');
    assert.equal(await box.isVisible(), true);
    assert.match(await box.locator('[data-setting="reveal"]').textContent(), /"nevr".*never, after-attempt, after-solve.*Shown instead: never/);
    assert.match(await box.locator('[data-setting="hints"]').textContent(), /"of".*on, off.*Shown instead: off/);
    const card = frame.locator('[data-exercise="3"]');
    assert.equal(await card.locator('[data-action="solution"]').isVisible(), false);
    assert.equal(await card.locator('[data-action="hint"]').isVisible(), false);
    assert.ok(seen.some((e) => /commlab: reveal: "nevr" is not allowed; allowed: never, after-attempt, after-solve/.test(e)), seen.join('\n'));
  });

  test('a plain cross-site iframe: Import beside Export, the notice under the card, work carried by a file', async () => {
    const frame = await frameOf('#plain');
    const blocked = await frame.evaluate(() => { try { return localStorage.length < 0; } catch { return true; } });
    assert.equal(blocked, true, 'Chromium blocks a cross-site frame\'s storage here');
    const foot = frame.locator('.embed-foot');
    assert.deepEqual(await foot.locator('button:visible, label:visible, a:visible').evaluateAll((els) => els.map((e) => e.dataset.action ?? e.id)),
      ['language', 'export', 'import-button', 'reset', 'open-full']);
    await answerIn(frame, WRONG6);
    await frame.waitForFunction(() => /cannot save/.test(document.querySelector('#notice').textContent), null, { timeout: 5000, polling: 100 });
    // The notice is under the card, above the footer.
    assert.equal(await frame.evaluate(() => {
      const n = document.querySelector('#notice');
      return !!(document.querySelector('#exercises').compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING) &&
        n.nextElementSibling === document.querySelector('.embed-foot');
    }), true);
    await shot(frame.locator('#notice'), { path: join(screenshotDir(), 'plain-frame-notice.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), frame.locator('[data-action="export"]').click()]);
    const path = await downloadPath(download);
    // The frame reloaded forgets everything (nothing can be saved) ...
    await frame.goto(frame.url());
    await frame.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    assert.equal(await frame.locator('[data-answer="microbatches"]').inputValue(), '');
    // ... and the file brings it back.
    await frame.locator('#import-file').setInputFiles(path);
    await frame.waitForFunction(() => document.querySelector('#notice').dataset.topic === 'import', null, { polling: 100 });
    assert.match(await frame.locator('#notice').textContent(), /imported/);
    assert.equal(await frame.locator('[data-answer="microbatches"]').inputValue(), '4');
    assert.equal(await frame.locator('[data-answer="token_interval"]').inputValue(), '1.1 ms');
    assert.match(await frame.locator('[data-role="status"]').textContent(), /1/);
    assert.deepEqual(newErrors(), []);
  });

  test('a plain frame without storage asks for it on a click (Storage Access API), then saves', async () => {
    const frame = await frameOf('#plain');
    await frame.goto(frame.url()); // a fresh frame: nothing typed, nothing imported
    await frame.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    await frame.locator('[data-answer="microbatches"]').fill('7');
    const ask = frame.locator('#notice [data-action="storage-access"]');
    await ask.waitFor({ timeout: 5000 });
    assert.match(await frame.locator('#notice').textContent(), /cannot save your progress/);
    await ask.click();
    await frame.waitForFunction(() => /Saving is allowed/.test(document.querySelector('#notice').textContent), null, { polling: 100 });
    const saved = await frame.evaluate(() => Object.fromEntries([...Array(window.grantedStorage.length).keys()].map((i) => [window.grantedStorage.key(i), window.grantedStorage.getItem(window.grantedStorage.key(i))])));
    assert.equal(JSON.parse(saved['commlab.v2.progress.6.lecture']).answers.microbatches, '7', Object.keys(saved).join(', '));
    // What is typed next is saved there too.
    await frame.locator('[data-answer="token_interval"]').fill('2 ms');
    assert.equal(await frame.evaluate(() => JSON.parse(window.grantedStorage.getItem('commlab.v2.progress.6.lecture')).answers.token_interval), '2 ms');
    assert.deepEqual(newErrors(), []);
  });

  test('a tall frame\'s dialog opens in the part of the course page in view', async () => {
    await page.setViewportSize({ width: 1000, height: 400 });
    const frame = await frameOf('#misspelled iframe');
    // The frame grows to its content, well past the window.
    await page.waitForFunction(() => document.querySelector('#misspelled iframe').getBoundingClientRect().height > 2 * window.innerHeight);
    const reset = frame.locator('[data-action="reset"]');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const dialog = frame.locator('#reset-dialog');
    // A click just after the course page scrolls can reach the page's <iframe> element instead of
    // the frame (Chromium routes it before the frame's new place is known: 2 of 12 here), and the
    // dialog never opens: click again, at most five times, until it does.
    for (let i = 0; i < 5 && !(await dialog.evaluate((d) => d.open)); i++) {
      await reset.click({ force: true }); // the frame's pictures animate: never 'stable'
      await dialog.waitFor({ timeout: 1000 }).catch(() => {});
    }
    await dialog.waitFor();
    const inView = await page.evaluate(() => window.innerHeight);
    const frameTop = await page.locator('#misspelled iframe').evaluate((f) => f.getBoundingClientRect().top);
    const box = await dialog.evaluate((d) => { const r = d.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; });
    assert.ok(frameTop + box.top >= 0 && frameTop + box.bottom <= inView, `frame top ${frameTop}, dialog ${JSON.stringify(box)} at ${frameTop + box.top}..${frameTop + box.bottom}, view 0..${inView}`);
    await shot(page, { path: join(screenshotDir(), 'tall-frame-dialog.png') });
    await frame.locator('[data-action="reset-cancel"]').click();
    await page.setViewportSize({ width: 1000, height: 900 });
    assert.deepEqual(newErrors(), []);
  });
});
