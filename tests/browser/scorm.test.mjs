// SCORM 1.2 packages in a course platform (web/README.md "Course platforms"): web/tools/scorm.mjs
// writes the packages of dist/ into a temporary folder; each is extracted and served under a path
// of its own, as an LMS does, beside an LMS page (a static page and a script file) that launches a
// package as an LMS's player does: window.API is a new scorm-again Scorm12API (a real SCORM 1.2
// runtime keeping the CMI in memory) seeded with what the LMS holds of the student, and the
// package's launch href (imsmanifest.xml) opens in a frame. One LMS page runs every session (a
// launch is a new frame, not a new page). Every package launches; solving reports passed and
// 100; a partly right attempt its share; answers shown before they were found earn nothing; a
// relaunch with the saved CMI brings the work back; with --student-variants each student id has
// its own variant, kept across launches; a hostile suspend_data is refused with a message; the
// LMS's refusals are shown; without an LMS the page says so and works. No sideways scroll at
// 1280 and 390 px; screenshots of the LMS page there, and of a refusal in Chinese on a phone.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { DESKTOP, DIST, ROOT, answerIn, engineEval, launch, screenshotDir, serve, shot } from './helpers.mjs';
import { writePackages } from '../../web/tools/scorm.mjs';

let tmp;
let server;
let browser;
let packages; // default options: name -> {files, manifest}
const errors = [];
const timings = [];

// The LMS page: no inline script (its own CSP is the served page's, script-src 'self').
const LMS_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course platform: P5 activity</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="lms.css">
<script src="scorm12.js"></script>
<script type="module" src="lms.js"></script>
</head><body>
<header><strong>Course platform</strong> · P5 Distributed systems · <span id="activity">SCORM activity</span></header>
<main></main>
</body></html>
`;
const LMS_CSS = `body { margin: 0; font-family: system-ui, sans-serif; background: #eef1f5; }
header { padding: .6rem 1rem; background: #1f3a5f; color: #fff; }
main { padding: .5rem; }
iframe { width: 100%; height: 1500px; border: 1px solid #c5ccd6; background: #fff; box-sizing: border-box; }
`;
// window.launch(pkg, {cmi, broken}) starts a session as an LMS's player does each time the
// student opens an activity: the frame of the one before goes (its SCO suspends and finishes),
// window.API is a new Scorm12API seeded with `cmi` (what the LMS holds of the student), and the
// package's launch href opens in a new frame. `broken` makes every LMSSetValue of that element
// send a value of the wrong type, which the runtime refuses (error 405), as an LMS with its own
// rules would; `query` is added to the launch address. window.lmsLog and window.cmi() are the session's.
const LMS_JS = `window.launch = async (pkg, { cmi = null, broken = null, query = '' } = {}) => {
  document.querySelector('#sco')?.remove();
  const log = [];
  window.lmsLog = log;
  const api = new Scorm12API({ lmsCommitUrl: false, autocommit: false, logLevel: 5 });
  if (cmi) api.loadFromJSON(cmi);
  for (const name of ['LMSInitialize', 'LMSCommit', 'LMSFinish']) api.on(name, () => log.push(name));
  // What the SCO set (exit and session_time are write-only in the CMI).
  const written = {};
  api.on('LMSSetValue.cmi.*', (element, value) => { written[element] = value; });
  if (broken) {
    const set = api.LMSSetValue;
    api.LMSSetValue = (element, value) => set.call(api, element, element === broken ? 'not a number' : value);
  }
  window.API = api;
  window.cmi = () => ({
    status: api.cmi.core.lesson_status, score: api.cmi.core.score.raw, min: api.cmi.core.score.min,
    max: api.cmi.core.score.max, suspend: api.cmi.suspend_data, exit: written['cmi.core.exit'],
    student: api.cmi.core.student_id, session: written['cmi.core.session_time'],
  });
  const text = await (await fetch('../pkg/' + pkg + '/imsmanifest.xml')).text();
  const xml = new DOMParser().parseFromString(text, 'application/xml');
  const sco = [...xml.getElementsByTagName('resource')].find((r) => r.getAttribute('adlcp:scormtype') === 'sco');
  document.querySelector('#activity').textContent = xml.getElementsByTagName('title')[0].textContent;
  const frame = Object.assign(document.createElement('iframe'), { id: 'sco', title: 'SCORM activity' });
  frame.src = '../pkg/' + pkg + '/' + sco.getAttribute('href') + query;
  document.querySelector('main').append(frame);
};
`;

/** Extracts `zip` (bytes) into `dir`; returns the names of its files. */
function extract(zip, dir) {
  const files = unzipSync(zip);
  for (const [name, bytes] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return Object.keys(files).filter((n) => !n.endsWith('/'));
}

before(async () => {
  assert.ok(existsSync(join(DIST, 'index.html')), 'dist/ is missing: run ./lab assemble first');
  tmp = mkdtempSync(join(tmpdir(), 'commlab-scorm-'));
  // The packages as ./lab build writes them, and with one variant per student.
  let t0 = performance.now();
  const plain = writePackages({ dist: DIST, out: join(tmp, 'zips'), studentVariants: false, seed: null, reveal: null, hints: null, calculator: null });
  timings.push(`packages written in ${((performance.now() - t0) / 1000).toFixed(2)} s (${plain.map((p) => `${p.name} ${(p.bytes / 1000).toFixed(0)} KB`).join(', ')})`);
  const student = writePackages({ dist: DIST, out: join(tmp, 'zips-student'), studentVariants: true, seed: null, reveal: null, hints: null, calculator: null });
  t0 = performance.now();
  packages = {};
  for (const p of [...plain, ...student.map((s) => ({ ...s, name: s.name.replace('.zip', '-student.zip') }))]) {
    const id = p.name.replace(/\.zip$/, '');
    const files = extract(readFileSync(p.path), join(tmp, 'pkg', id));
    packages[id] = { files, manifest: readFileSync(join(tmp, 'pkg', id, 'imsmanifest.xml'), 'utf8'), href: p.href };
  }
  timings.push(`18 packages extracted in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  mkdirSync(join(tmp, 'lms'));
  writeFileSync(join(tmp, 'lms', 'index.html'), LMS_HTML);
  writeFileSync(join(tmp, 'lms', 'lms.css'), LMS_CSS);
  writeFileSync(join(tmp, 'lms', 'lms.js'), LMS_JS);
  copyFileSync(join(ROOT, 'node_modules', 'scorm-again', 'dist', 'scorm12.min.js'), join(tmp, 'lms', 'scorm12.js'));
  server = await serve(tmp);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const running = new Map(); // an LMS page -> the package it runs (errors are named by it)

/** An LMS page in `ctx`, ready to launch; the console errors of it and its SCOs go to `errors`. */
async function lmsPage(ctx) {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => errors.push(`${running.get(page)}: pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`${running.get(page)}: console: ${msg.text()}`); });
  await page.goto(`${server.url}lms/index.html`);
  await page.waitForFunction(() => typeof window.launch === 'function');
  return page;
}

/**
 * Launches package `pkg` in the LMS page (with the CMI it holds, `cmi`; `broken`: an element
 * whose values it refuses); resolves to the SCO's frame once the page in it is ready.
 */
async function launchIn(page, pkg, { cmi = null, broken = null, query = '' } = {}) {
  running.set(page, pkg);
  await page.evaluate(([name, options]) => window.launch(name, options), [pkg, { cmi, broken, query }]);
  await page.waitForFunction(() => document.querySelector('#sco')?.contentDocument?.documentElement?.dataset.ready === 'true', null, { timeout: 20000 });
  return (await page.locator('#sco').elementHandle()).contentFrame();
}

const cmiOf = (page) => page.evaluate(() => window.cmi());
/** Waits until the runtime holds `status` (commits come a little after each change). */
const holds = (page, status) => page.waitForFunction((s) => window.cmi().status === s, status, { timeout: 10000 });

/** The variant key of the card `n` that `frame` shows. */
async function variantOf(frame, n) {
  return frame.locator(`[data-exercise="${n}"]`).getAttribute('data-variant');
}

/** A variant key (card/variant.js) back to its parameters: "id=value;..." (base units). */
function paramsOfKey(key) {
  if (key === 'lecture') return null;
  return Object.fromEntries(key.split(';').map((kv) => {
    const [k, v] = kv.split('=');
    return [k, Number.isNaN(Number(v)) ? v : Number(v)];
  }));
}

/** The engine's own answers ({answer id: text}) for the variant card `n` of `frame` shows. */
async function engineAnswers(frame, n) {
  const params = paramsOfKey(await variantOf(frame, n));
  const res = await engineEval(frame, { op: 'exercise.solve', id: n, ...(params ? { params } : {}) });
  assert.ok(!res.error, JSON.stringify(res.error));
  return res.display;
}

describe('SCORM 1.2 packages', () => {
  let ctx;
  let page; // the LMS page, 1280 px wide, in English: every session of the tests below runs in it
  before(async () => {
    ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await lmsPage(ctx);
  });
  after(() => ctx?.close());
  const open = (pkg, options) => launchIn(page, pkg, options);

  test('every package has a SCORM 1.2 manifest and launches in the LMS: the eight and the one with all', async (t) => {
    const names = Object.keys(packages).filter((n) => !n.endsWith('-student'));
    assert.equal(names.length, 9);
    for (const name of names) {
      const { files, manifest, href } = packages[name];
      assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
      assert.match(manifest, /adlcp:scormtype="sco"/);
      assert.equal((manifest.match(/<item /g) ?? []).length, 1, `${name}: one item`);
      assert.ok(files.includes('imsmanifest.xml') && files.includes('index.html') && files.includes('engine/first.json'));
      assert.ok(!files.some((f) => /\.(gz|br)$/.test(f) || f === 'commlab-single.html' || f.startsWith('scorm/') || f.endsWith('.mjs')), `${name}: ${files.filter((f) => /\.(gz|br|mjs)$/.test(f))}`);
      // Every file of the package is listed in the resource, and every listed file is there.
      const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]).sort();
      assert.deepEqual(listed, files.filter((f) => f !== 'imsmanifest.xml').sort());
      const exercise = name.match(/exercise-(\d+)$/)?.[1] ?? null;
      assert.equal(href, exercise ? `index.html?exercise=${exercise}&scorm=1` : 'index.html?scorm=1');
      assert.match(manifest, /[\u4e00-\u9fff]/, `${name}: the title in Chinese too`);

      const t0 = performance.now();
      const frame = await open(name);
      const ms = performance.now() - t0;
      const cards = await frame.locator('section.card[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
      assert.deepEqual(cards, exercise ? [exercise] : ['1', '2', '3', '4', '5', '6', '7', '8']);
      assert.equal(await frame.locator('#lms').getAttribute('data-lms'), 'connected');
      // No link takes the activity's frame away (that would end the session).
      for (const link of ['#explore-link', '#author-link', '#show-all']) assert.equal(await frame.locator(link).isVisible(), false, `${name}: ${link}`);
      await holds(page, 'incomplete');
      const cmi = await cmiOf(page);
      assert.equal(cmi.min, '0');
      assert.equal(cmi.max, '100');
      await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
      assert.equal((await cmiOf(page)).score, '0');
      assert.equal(await page.evaluate(() => window.lmsLog[0]), 'LMSInitialize');
      timings.push(`${name}: ready in the LMS in ${ms.toFixed(0)} ms`);
    }
    for (const line of timings) t.diagnostic(line);
    assert.deepEqual(errors, []);
  });

  let solvedCmi = null;
  test('a student solves exercise 3: passed, score 100, progress in suspend_data; leaving suspends and finishes', async () => {
    const frame = await open('commlab-exercise-3', { cmi: { core: { student_id: 's-1001', student_name: 'Li, Wei' } } });
    await answerIn(frame, await engineAnswers(frame, 3));
    assert.match(await frame.locator('[data-role="status"]').innerText(), /Solved/);
    await holds(page, 'passed');
    let cmi = await cmiOf(page);
    assert.equal(cmi.score, '100');
    assert.ok(cmi.suspend.length > 0 && cmi.suspend.length <= 4096, cmi.suspend);
    assert.match(await frame.locator('#lms').innerText(), /score 100 of 100, passed/);
    // Leaving the activity (the LMS removes the frame): exit = suspend, commit, finish.
    await page.evaluate(() => document.querySelector('#sco').remove());
    await page.waitForFunction(() => window.lmsLog.includes('LMSFinish'));
    cmi = await cmiOf(page);
    assert.equal(cmi.exit, 'suspend');
    assert.match(cmi.session, /^\d{4}:\d{2}:\d{2}(\.\d{1,2})?$/);
    solvedCmi = cmi;
    assert.deepEqual(errors, []);
  });

  test('a relaunch with the saved CMI brings back the typed answers and the solved state', async () => {
    assert.ok(solvedCmi, 'the previous test saved its CMI');
    // A new session: the SCO keeps nothing of the last one but what the LMS gives it (suspend_data).
    const frame = await open('commlab-exercise-3', {
      cmi: { core: { student_id: 's-1001', lesson_status: solvedCmi.status, entry: 'resume', score: { raw: solvedCmi.score } }, suspend_data: solvedCmi.suspend },
    });
    const typed = await frame.locator('[data-answer]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.answer, [e.value, e.dataset.verdict]])));
    const expected = await engineAnswers(frame, 3);
    for (const [id, text] of Object.entries(expected)) assert.deepEqual(typed[id], [text, 'correct'], id);
    assert.match(await frame.locator('[data-role="status"]').innerText(), /Solved/);
    // The engine's own verdict messages are asked again (the text keeps none).
    assert.notEqual(await frame.locator('.verdict[data-verdict="correct"]').first().innerText(), '');
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    const cmi = await cmiOf(page);
    assert.equal(cmi.status, 'passed');
    assert.equal(cmi.score, '100');
    assert.deepEqual(errors, []);
  });

  test('a partly right attempt scores its share (no sideways scroll at 1280 and 390 px); answers shown before they were found earn nothing', async () => {
    const frame = await open('commlab-exercise-3');
    const right = await engineAnswers(frame, 3);
    // Two of exercise 3's five answers right: 40.
    await answerIn(frame, { ring: right.ring, recursive_doubling: right.recursive_doubling, rabenseifner: '1 us', binary_tree: '1 us' });
    await page.waitForFunction(() => window.cmi().score === '40', null, { timeout: 10000 });
    assert.equal((await cmiOf(page)).status, 'incomplete');
    // The LMS page with the attempt, at 1280 and 390 px (the screenshots).
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const inner = await page.locator('#sco').evaluate((f) => f.clientWidth);
      await frame.waitForFunction((w) => window.innerWidth === w, inner, { polling: 100 }); // the frame laid out at its new width
      await frame.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, { path: join(screenshotDir(), `scorm-lms-${width}.png`) });
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `no sideways scroll in the frame at ${width} px (${overflow} px)`);
    }
    await page.setViewportSize(DESKTOP);
    // The answers revealed now: the other three, typed in afterwards, earn no credit; every
    // answer is right, so the exercise is completed but not passed.
    await frame.locator('[data-action="reveal"]').click();
    await answerIn(frame, right);
    assert.match(await frame.locator('[data-role="status"]').innerText(), /Solved/);
    await holds(page, 'completed');
    assert.equal((await cmiOf(page)).score, '40');
    assert.match(await frame.locator('#lms').innerText(), /score 40 of 100, completed/);
    // Kept across a relaunch: the credit at the reveal travels in suspend_data.
    const cmi = await cmiOf(page);
    await open('commlab-exercise-3', { cmi: { core: { lesson_status: cmi.status, entry: 'resume' }, suspend_data: cmi.suspend } });
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    assert.deepEqual([(await cmiOf(page)).status, (await cmiOf(page)).score], ['completed', '40']);
    assert.deepEqual(errors, []);
  });

  test('--student-variants: two student ids get different parameters, the same id the same on relaunch', async () => {
    const launchAs = async (id, cmi = {}) => {
      const frame = await open('commlab-exercise-2-student', { cmi: { core: { student_id: id, ...cmi.core }, ...(cmi.suspend_data ? { suspend_data: cmi.suspend_data } : {}) } });
      const variant = await variantOf(frame, 2);
      const statement = await frame.locator('[data-role="statement"]').innerText();
      return { frame, variant, statement };
    };
    const alice = await launchAs('alice-17');
    assert.notEqual(alice.variant, 'lecture');
    assert.equal(await alice.frame.locator('[data-action="variant"]').isVisible(), false, 'no "New variant" for a fixed variant');
    // Alice solves hers (her session ends when the next begins).
    await answerIn(alice.frame, await engineAnswers(alice.frame, 2));
    await holds(page, 'passed');
    const cmi = await cmiOf(page);
    const bob = await launchAs('bob-42');
    assert.notEqual(bob.variant, 'lecture');
    assert.notEqual(alice.variant, bob.variant, 'two students, two variants');
    assert.notEqual(alice.statement, bob.statement);
    // Alice comes back: the same variant, solved.
    const back = await launchAs('alice-17', { core: { lesson_status: cmi.status, entry: 'resume' }, suspend_data: cmi.suspend });
    assert.equal(back.variant, alice.variant);
    assert.equal(back.statement, alice.statement);
    assert.match(await back.frame.locator('[data-role="status"]').innerText(), /Solved/);
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    assert.equal((await cmiOf(page)).score, '100');
    // An LMS without a student id (a preview): the class's variant (here the lecture's), said.
    const nobody = await launchAs('');
    assert.equal(nobody.variant, 'lecture');
    assert.match(await nobody.frame.locator('#lms [data-topic="student"]').innerText(), /no student id/);
    assert.deepEqual(errors, []);
  });

  test('a hostile suspend_data is refused with a message and kept on the LMS until the student starts over; in Chinese on a phone too', async () => {
    const hostile = [
      ['not the page\'s text', /not the text this page writes/],
      ['{"v":1,"3":[0,[0,["162 us"],"c","many"]]}', /attempts/],
      ['{"v":1,"3":[0,[[1e300,-5,"x",null],["162 us"],"c",1,0,1]]}', /exercise 3/],
      // As long as the runtime takes (CMIString4096): an answer of 4,000 characters.
      [`{"v":1,"3":[0,[0,["${'9'.repeat(4000)}"]]]}`, /"answers"/],
    ];
    for (const [text, why] of hostile) {
      const frame = await open('commlab-exercise-3', { cmi: { core: { entry: 'resume' }, suspend_data: text } });
      const said = frame.locator('#lms [data-topic="restore"]');
      assert.match(await said.innerText(), why, text.slice(0, 60));
      assert.match(await said.innerText(), /was not used.*stays on the platform as it is/);
      // Nothing of it shows; the page checks answers, but writes nothing over what the LMS holds.
      assert.equal(await frame.locator('[data-answer="ring"]').inputValue(), '');
      await answerIn(frame, { ring: '1 us' });
      assert.equal(await frame.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'incorrect');
      await page.waitForTimeout(800); // past the commit's delay
      const cmi = await cmiOf(page);
      assert.equal(cmi.suspend, text);
      assert.equal(cmi.score, '');
      assert.ok(!(await page.evaluate(() => window.lmsLog.includes('LMSCommit'))));
      assert.equal(await frame.locator('#lms [data-topic="score"]').count(), 0, 'no score is said to be recorded');
    }
    // "Start over here": written only at the student's next answer.
    const frame = await open('commlab-exercise-3', { cmi: { core: { entry: 'resume' }, suspend_data: 'not the page\'s text' } });
    await frame.locator('#lms [data-action="scorm-start-over"]').click();
    assert.match(await frame.locator('#lms [data-topic="restore"]').innerText(), /next answer is recorded/);
    await page.waitForTimeout(800);
    assert.equal((await cmiOf(page)).suspend, 'not the page\'s text');
    await answerIn(frame, { ring: '1 us' });
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    const cmi = await cmiOf(page);
    assert.deepEqual([cmi.status, cmi.score], ['incomplete', '0']);
    assert.match(cmi.suspend, /^\{"v":1,"3":/);
    // The refusal on a phone whose browser speaks Chinese (the screenshot).
    const zh = await browser.newContext({ viewport: { width: 390, height: 900 }, locale: 'zh-CN' });
    const phone = await lmsPage(zh);
    const zhFrame = await launchIn(phone, 'commlab-exercise-3', { cmi: { suspend_data: '{"v":1,"3":[0,[0,["1"],"c","many"]]}' } });
    assert.match(await zhFrame.locator('#lms [data-topic="restore"]').innerText(), /[\u4e00-\u9fff]/);
    assert.match(await zhFrame.locator('#lms [data-action="scorm-start-over"]').innerText(), /重新开始/);
    await shot(phone, { path: join(screenshotDir(), 'scorm-refused-390-zh.png') });
    await zh.close();
    assert.deepEqual(errors, []);
  });

  test('a grade is earned, never imported: forged suspend_data, a progress file and a carry that claim more than their answers earn nothing', async () => {
    const forged = {
      version: 2, format: 'commlab-progress',
      exercises: { 3: { current: 'lecture', variants: { lecture: {
        solved: true, attempts: 1, verdicts: { ring: 'correct', recursive_doubling: 'correct', rabenseifner: 'correct', binary_tree: 'correct', best: 'correct' },
        answers: { ring: '1 us' }, updated: '2030-01-01T00:00:00.000Z',
      } } } },
    };
    const unearned = async (frame, how) => {
      assert.doesNotMatch(await frame.locator('[data-role="status"]').innerText(), /Solved/, how);
      assert.equal(await frame.locator('[data-answer="ring"]').getAttribute('data-verdict'), 'incorrect', how);
      assert.equal(await frame.locator('[data-answer="best"]').getAttribute('data-verdict'), null, how);
      await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
      const cmi = await cmiOf(page);
      assert.deepEqual([cmi.status, cmi.score], ['incomplete', '0'], how);
      assert.match(await frame.locator('#lms [data-topic="score"]').innerText(), /score 0 of 100/, how);
    };
    // suspend_data: solved, every verdict correct and credited, one wrong answer typed.
    let frame = await open('commlab-exercise-3', { cmi: { core: { entry: 'resume' }, suspend_data: '{"v":1,"3":[0,[0,["1 us"],"ccccc",1,0,1,31]]}' } });
    await unearned(frame, 'suspend_data');
    // The same claims with no answer at all.
    frame = await open('commlab-exercise-3', { cmi: { core: { entry: 'resume' }, suspend_data: '{"v":1,"3":[0,[0,[],"ccccc",1,0,1,31]]}' } });
    assert.doesNotMatch(await frame.locator('[data-role="status"]').innerText(), /Solved/);
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    assert.deepEqual([(await cmiOf(page)).status, (await cmiOf(page)).score], ['incomplete', '0']);
    // The visible "Import progress" button, with a file that claims the same.
    frame = await open('commlab-exercise-3');
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    await frame.locator('#import-file').setInputFiles({ name: 'progress.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) });
    await frame.waitForFunction(() => document.querySelector('[data-answer="ring"]').value === '1 us');
    await page.evaluate(() => window.lmsLog.splice(0));
    await unearned(frame, 'import');
    // A carry in the launch address ("Open in the full lab").
    const carry = Buffer.from(JSON.stringify({ exercise: 3, state: forged.exercises[3] })).toString('base64url');
    frame = await open('commlab-exercise-3', { query: `&carry=${carry}` });
    await frame.waitForFunction(() => document.querySelector('[data-answer="ring"]').value === '1 us');
    await unearned(frame, 'carry');
    assert.deepEqual(errors, []);
  });

  test('every exercise solved in the package with all: passed, 100, suspend_data under 4,096 characters', async (t) => {
    const frame = await open('commlab-all');
    for (let n = 1; n <= 8; n++) {
      const card = frame.locator(`[data-exercise="${n}"]`);
      const right = await engineAnswers(frame, n);
      for (const [id, text] of Object.entries(right)) {
        const field = card.locator(`[data-answer="${id}"]`);
        if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(text);
        else await field.fill(text);
      }
      await card.locator('[data-action="check"]').click();
      await frame.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { polling: 100 });
      if (n === 1) await page.waitForFunction(() => Number(window.cmi().score) > 0, null, { timeout: 10000 });
    }
    await holds(page, 'passed');
    const cmi = await cmiOf(page);
    assert.equal(cmi.score, '100');
    assert.ok(cmi.suspend.length < 4096, `${cmi.suspend.length} characters`);
    t.diagnostic(`suspend_data with all eight exercises solved: ${cmi.suspend.length} characters of 4,096`);
    assert.match(await frame.locator('#progress').innerText(), /8 of 8/);
    assert.deepEqual(errors, []);
  });

  test('the LMS\'s refusal is shown with its code and words, not swallowed', async () => {
    const frame = await open('commlab-exercise-6', { broken: 'cmi.core.score.raw' });
    await page.waitForFunction(() => window.lmsLog.includes('LMSCommit'));
    const said = frame.locator('#lms [data-topic="lms-error"]');
    await said.first().waitFor();
    assert.match(await said.first().innerText(), /refused LMSSetValue of cmi\.core\.score\.raw: error 405/);
    // The score it refused is not said to be recorded.
    assert.match(await frame.locator('#lms [data-topic="score"]').innerText(), /did not take this work’s score/);
    assert.equal(await frame.locator('#lms').getAttribute('data-kind'), 'error');
    await shot(page, { path: join(screenshotDir(), 'scorm-lms-error-1280.png') });
    assert.deepEqual(errors, []);
  });

  test('without an LMS the page says so, in both languages, and keeps its own storage', async () => {
    const alone = await ctx.newPage(); // the package's page opened by itself: no LMS above it
    alone.on('pageerror', (err) => errors.push(`no LMS: ${err.message}`));
    await alone.goto(`${server.url}pkg/commlab-exercise-6/index.html?exercise=6&scorm=1`);
    await alone.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    assert.equal(await alone.locator('#lms').getAttribute('data-lms'), 'none');
    assert.match(await alone.locator('#lms').innerText(), /no SCORM API was found/);
    await shot(alone, { path: join(screenshotDir(), 'scorm-no-lms-1280.png') });
    await answerIn(alone.mainFrame(), { microbatches: '4' });
    assert.equal(await alone.locator('[data-answer="microbatches"]').getAttribute('data-verdict'), 'incorrect');
    assert.ok(await alone.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('commlab.v2.progress.6.'))), 'kept in its own storage');
    await alone.locator('[data-action="language"]').click();
    await alone.waitForFunction(() => /SCORM API/.test(document.querySelector('#lms').textContent) && /找不到/.test(document.querySelector('#lms').textContent));
    // Nothing of it for a session launched after (the language chosen, the progress).
    await alone.evaluate(() => localStorage.clear());
    await alone.close();
    assert.deepEqual(errors, []);
  });
});
