// Topics (?view=topics) and its section views in headless Chromium: every section of the lecture
// in order with its heading, every link opened (drawn without console errors, carrying
// data-lecture of its section), the header button and the cards' links to their sections,
// axe-core, no sideways scroll at 390 px, screenshots in English and Chinese. A load costs 1-2 s
// here, so each address is loaded once and every check that needs it is made there: the pages of
// the link walk also show each section view's settings, the ladder's and NCCL's stay open for
// their own tests, and widths are checked by resizing a page.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { axeViolations, DESKTOP, openPage, PHONE, screenshotDir, shot, useLab } from './helpers.mjs';
import { engine } from './engine.mjs';
import { check as checkNccl, first as ncclFirst, settled as ncclSettled } from './truth/nccl.mjs';
import * as ladderTruth from './truth/ladder.mjs';
import { pageOptions } from '../../web/app/address.js';

const errors = [];
const fresh = (viewport = DESKTOP, locale = 'en-US') => lab.browser.newContext({ viewport, locale });

// A section id as a sortable tuple: "5.6" -> [5, 6], "5" -> [5, -1].
const order = (id) => { const [a, b] = id.split('.').map(Number); return [a, b ?? -1]; };
const before_ = (x, y) => { const [a, b] = order(x); const [c, d] = order(y); return a < c || (a === c && b < d); };

/** [{section, href}] of every link on the Topics page, each under its innermost section. */
function topicLinks(page) {
  return page.locator('[data-section] a[href]').evaluateAll((els) => els.map((a) => ({ section: a.closest('[data-section]').dataset.section, href: a.getAttribute('href'), exercise: a.dataset.exercise ?? null })));
}

async function axeClean(page, what) {
  assert.deepEqual(await axeViolations(page), [], what);
}

const VIEW_MODULES = ['measured', 'sections', 'topics', 'ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];
const SETTING_VIEWS = ['ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];

/**
 * Opens `url` in a new page of `ctx` that records console errors into `mine` and, given `got`,
 * the view modules it fetches (lazy/NAME-HASH.js: web/tools/bundle.mjs); waits until the page is ready.
 */
async function open(ctx, url, mine, got = null) {
  const page = await ctx.newPage();
  if (got) page.on('request', (r) => { const m = new URL(r.url()).pathname.match(/\/lazy\/(\w+)-[A-Z0-9]+\.js$/); if (m) got.push(m[1]); });
  page.on('console', (msg) => { if (msg.type() === 'error') mine.push(`${url}: console: ${msg.text()}`); });
  page.on('pageerror', (err) => mine.push(`${url}: pageerror: ${err.message}`));
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
  return page;
}

/**
 * Widths, axe-core (English) and screenshots of `view` at 1280 and 390 px, its first data table
 * open; the page is left at 1280 px with the table closed again, as it was.
 */
async function layout(page, view, lang) {
  const dir = screenshotDir();
  const table = page.locator('details.chart-table summary');
  const tables = await table.count();
  if (tables) await table.first().click(); // the table open, for axe and the width too
  await page.waitForTimeout(100);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `${view} ${lang}: ${width}px wide in ${viewport.width}px`);
    if (lang === 'en') await axeClean(page, `${view} at ${viewport.width}px`); // the same markup in Chinese
    await shot(page, { path: join(dir, `${view}-${lang}-${viewport.width}.png`), fullPage: view !== 'topics' || viewport.width > 400 });
  }
  await page.setViewportSize(DESKTOP);
  if (tables) await table.first().click();
}

/** The section view's controls: name, kind, value and what each allows. */
const controlsOf = (page) => page.evaluate(() => [...document.querySelectorAll('[data-role="section-view"] [data-setting]')]
  .map((e) => ({ name: e.dataset.setting, kind: e.tagName === 'SELECT' ? 'select' : e.type, value: e.type === 'checkbox' ? String(e.checked) : e.value,
    options: e.tagName === 'SELECT' ? [...e.options].map((o) => o.value) : null, min: Number(e.min), max: Number(e.max), step: e.step })));
const settingValues = (controls) => Object.fromEntries(controls.map((c) => [c.name, c.value]));
// Another value each control allows: the next option, the number one step (or twice) away, the box toggled.
const other = (c) => {
  if (c.kind === 'select') return c.options[(c.options.indexOf(c.value) + 1) % c.options.length];
  if (c.kind === 'checkbox') return c.value === 'true' ? 'false' : 'true';
  const x = Number(c.value);
  if (c.step === '1') return String(x + 1 <= c.max ? x + 1 : x - 1);
  return String(x * 2 <= c.max ? x * 2 : x / 2);
};

/**
 * Switches the page's language, which draws the section view anew from the address (app/routing.js
 * showSection: its settings applied as when the page opened), and returns its settings once they
 * are `want` (or what they are when they do not get there).
 */
async function redrawn(page, lang, want) {
  await page.evaluate(() => { document.querySelector('[data-role="section-view"]').dataset.old = 'true'; });
  await page.click('[data-action="language"]');
  await page.waitForFunction(([l, w]) => {
    const root = document.querySelector('[data-role="section-view"]');
    if (!document.documentElement.lang.startsWith(l) || !root || root.dataset.old || root.hasAttribute('aria-busy')) return false;
    return [...root.querySelectorAll('[data-setting]')].every((e) => (e.type === 'checkbox' ? String(e.checked) : e.value) === w[e.dataset.setting]);
  }, [lang, want], { timeout: 20000 }).catch(() => {});
  return settingValues(await controlsOf(page));
}

/**
 * A section view takes each of its settings from the address: every control given another value
 * it allows (so one refused would keep its own and show), in an address the page's own settings
 * accept, and drawn anew from it; then from its own address again, with its own settings.
 */
async function settingsFromAddress(page, view) {
  const defaults = await controlsOf(page);
  assert.ok(defaults.length >= 2, `${view}: ${defaults.length} settings`);
  const wanted = Object.fromEntries(defaults.map((c) => [c.name, other(c)]));
  for (const c of defaults) assert.notEqual(wanted[c.name], c.value, `${view}: ${c.name} is given another value`);
  const address = `?view=${view}&lang=en&${new URLSearchParams(wanted)}`;
  assert.deepEqual(pageOptions(new URLSearchParams(address)).problems, [], `${view}: the page takes ${address}`);
  const own = await page.evaluate(() => `${location.search}${location.hash}`);
  await page.evaluate((a) => history.replaceState(history.state, '', a), address);
  assert.deepEqual(await redrawn(page, 'zh', wanted), wanted, `${view}: every setting from the address`);
  await page.evaluate((a) => history.replaceState(history.state, '', a), own);
  assert.deepEqual(await redrawn(page, 'en', settingValues(defaults)), settingValues(defaults), `${view}: its own settings from its own address`);
}

const lab = useLab();

describe('topics', () => {
  let ctxA = null; // the exercises page, Topics in English and Chinese
  let ctxL = null; // the ladder and NCCL, open from the link walk to their own tests
  let topicsEn = null;
  let topicsZh = null;
  let ladder = null;
  let nccl = null;
  const ladderErrors = [];
  const ncclErrors = [];
  const fetched = {}; // the view modules a page fetched, each the first page of a new context
  after(async () => {
    await ctxA?.close();
    await ctxL?.close();
  });

  test('the header has Topics beside Explore (not in an embed); each card links its section on Topics', async () => {
    ctxA = await fresh();
    const got = [];
    const page = await open(ctxA, lab.server.url, errors, got);
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving]) section.card[data-exercise]:not([data-prerendered])', { state: 'attached', timeout: 20000 });
    fetched[''] = VIEW_MODULES.filter((v) => got.includes(v));
    assert.equal(await page.locator('#explore-link + #topics-link').getAttribute('href'), '?view=topics');
    assert.equal(await page.locator('#topics-link').textContent(), 'Topics');
    const card = page.locator('section.card[data-exercise="6"]:not([data-prerendered])');
    assert.equal(await card.getAttribute('data-lecture'), '6.3');
    const link = card.locator('.card-topic');
    assert.equal(await link.getAttribute('href'), '?view=topics#s-6.3');
    await link.click();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving]) [data-section="6.3"]');
    assert.equal(await page.evaluate(() => document.querySelector('[data-aimed]')?.dataset.section), '6.3');
    const box = await page.locator('[data-section="6.3"]').boundingBox();
    assert.ok(box.y > -2 && box.y < DESKTOP.height, `§6.3 scrolled into view (y ${box.y})`);
    topicsEn = page; // Topics in English, for the tests below
    const embedded = await openPage(ctxA, `${lab.server.url}?exercise=3&embed=1`, errors);
    assert.equal(await embedded.locator('#topics-link').count(), 0, 'no Topics button in an embed');
    assert.equal(await embedded.locator('.card-topic').isVisible(), false, 'no link away from an embedded card');
    await embedded.close();
    // In Chinese (the header of Topics in Chinese, kept for the tests below).
    topicsZh = await openPage(ctxA, `${lab.server.url}?view=topics&lang=zh`, errors);
    assert.equal(await topicsZh.locator('#topics-link').textContent(), '章节');
  });

  test('every section §0-§11 in the lecture\'s order, each with its heading, §1-§7 all there; a section without a view says so', async () => {
    const page = topicsEn;
    const sections = await page.locator('[data-section]').evaluateAll((els) => els.map((el) => ({
      id: el.dataset.section,
      heading: el.querySelector(':scope > h3, :scope > h4')?.textContent ?? '',
      links: el.querySelectorAll(':scope > ul a[href]').length,
      none: el.querySelector(':scope > .topic-none')?.textContent ?? '',
      children: el.querySelectorAll(':scope > [data-section]').length,
    })));
    const ids = sections.map((s) => s.id);
    for (let i = 1; i < ids.length; i++) assert.ok(before_(ids[i - 1], ids[i]), `${ids[i - 1]} before ${ids[i]}`);
    for (const top of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']) assert.ok(ids.includes(top), `§${top} is listed`);
    // The lecture's subsections of §1-§7 (P5: 2.1-2.5, 4.1-4.3, 5.1-5.7, 6.1-6.6, 7.1-7.4).
    for (const [n, count] of [[2, 5], [4, 3], [5, 7], [6, 6], [7, 4]]) {
      for (let k = 1; k <= count; k++) assert.ok(ids.includes(`${n}.${k}`), `§${n}.${k} is listed`);
      assert.ok(!ids.includes(`${n}.${count + 1}`), `no §${n}.${count + 1}`);
    }
    for (const s of sections) {
      assert.match(s.heading, new RegExp(`^§${s.id.replace('.', '\\.')} \\S`), `§${s.id} has its heading`);
      assert.ok(s.links > 0 || s.children > 0 || s.none === 'No view for this section yet.', `§${s.id}: links, subsections or "no view yet"`);
      if (s.links) assert.equal(s.none, '', `§${s.id} has links and says none`);
    }
    assert.match(sections.find((s) => s.id === '5.5').heading, /Hierarchical all-reduce/);
    assert.equal(await page.locator('#topics-link').getAttribute('aria-current'), 'page');
    assert.equal(await page.locator('[data-section="9"] .topic-none').count(), 1, '§9 has no view yet (web/README.md "Topics")');
    assert.equal(await page.locator('[data-section="1"] .topic-none').count(), 0, '§1 has the memory view');
    // In Chinese: the lecture's Chinese headings.
    const zh = topicsZh;
    assert.equal(await zh.locator('[data-section="5.5"] > h4').textContent(), '§5.5 分层 all-reduce');
    assert.equal(await zh.locator('[data-section="2"] > h3').textContent(), '§2 互连');
    assert.equal(await zh.locator('[data-section="9"] .topic-none').textContent(), '本节暂无视图。');
  });

  test('each section view is linked from the sections it draws', async () => {
    const page = topicsEn;
    // The page each link opens is drawn and carries data-lecture of its section: the link walk.
    const LINKS = [
      ['1', '?view=memory'], ['2.2', '?view=node'], ['2.3', '?view=node#node-between'], ['2.4', '?view=rdma'],
      ['2.5', '?view=decode#decode-summary'], ['4.2', '?view=bound'], ['4.3', '?view=moe#moe-skew'],
      ['5.7', '?view=decode'], ['6.1', '?view=compare#compare-row-dp'], ['6.1', '?view=memory#memory-replicas'],
      ['6.2', '?view=split'], ['6.2', '?view=split#split-place'], ['6.4', '?view=moe'], ['6.5', '?view=ring'],
      ['6.6', '?view=compare'],
    ];
    for (const [section, href] of LINKS) {
      assert.equal(await page.locator(`[data-section="${section}"] > ul a[href="${href}"]`).count(), 1, `§${section} links ${href}`);
    }
    // Ring attention is §6.5's; §5.1's ring link is the ring all-reduce's, and says so.
    const ringLinks = await page.locator('[data-section="5.1"] > ul a').allTextContents();
    assert.ok(ringLinks.includes('Explore: ring all-reduce, 8 GPUs'), ringLinks.join(' | '));
    assert.ok(!ringLinks.some((x) => /attention/i.test(x)), ringLinks.join(' | '));
  });

  test('Topics: axe-core clean, no sideways scroll at 390 px, screenshots (English and Chinese, 1280 and 390 px)', async () => {
    await layout(topicsEn, 'topics', 'en');
    await layout(topicsZh, 'topics', 'zh');
  });

  test('every link on Topics opens a page that draws without console errors and carries data-lecture of its section; each section view takes each of its settings from the address', async () => {
    const links = await topicLinks(topicsEn);
    await ctxA.close();
    assert.ok(links.length >= 25, `${links.length} links`);
    const opened = new Set();
    const seen = new Set();
    const todo = links.filter(({ section, href }) => {
      // An exercise is listed under its section and again under §11: opened once.
      if (section === '11' && seen.has(href)) return false;
      seen.add(href);
      return true;
    });
    // Links that differ only in their fragment open one page: it is loaded once and holds each
    // link's section.
    const pages = new Map();
    for (const link of todo) {
      const url = new URL(link.href, lab.server.url);
      url.hash = '';
      if (!pages.has(url.href)) pages.set(url.href, []);
      pages.get(url.href).push(link);
    }
    const address = (query) => new URL(query, lab.server.url).href;
    // The checks of a page opened at `url` for its links, then (a section view) of its settings.
    const visit = async (p, url, mine) => {
      assert.equal(await p.locator('#link-problems [data-setting="view"]').count(), 0, `${url} is a view this build knows`);
      for (const { section, href, exercise } of pages.get(url)) {
        // §11 lists the exercises: each card carries the section it illustrates.
        const lecture = section === '11' && exercise ? await p.locator(`[data-exercise="${exercise}"]`).getAttribute('data-lecture') : section;
        assert.ok(lecture, `${href}: the card names its section`);
        await p.waitForSelector(`[data-lecture="${lecture}"]`, { state: 'attached', timeout: 20000 });
        if (exercise) assert.equal(await p.locator(`section.card[data-exercise="${exercise}"]:not([data-prerendered])`).count(), 1, `${href}: the live card`);
        const hash = new URL(href, lab.server.url).hash;
        if (hash) await p.waitForSelector(hash, { state: 'attached', timeout: 20000 }); // the place it points at
        opened.add(section);
      }
      await p.waitForTimeout(50);
      assert.deepEqual(mine, [], `${url}: no console errors`);
      const view = new URL(url).searchParams.get('view');
      if (SETTING_VIEWS.includes(view)) {
        await settingsFromAddress(p, view);
        assert.deepEqual(mine, [], `${url}: no console errors`);
      }
    };
    // One page going on to its next address: a navigation in an open page costs less than a new one.
    const walk = async (ctx, share) => {
      const mine = [];
      let at = null;
      const p = await ctx.newPage();
      p.on('console', (msg) => { if (msg.type() === 'error') mine.push(`${at}: console: ${msg.text()}`); });
      p.on('pageerror', (err) => mine.push(`${at}: pageerror: ${err.message}`));
      for (const url of share) {
        at = url;
        await p.goto(url);
        await p.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
        await visit(p, url, mine);
      }
      await p.close();
    };
    const special = [address('?view=ladder'), address('?view=nccl'), address('?view=measured')];
    for (const url of special) assert.ok(pages.has(url), `Topics links ${url}`);
    // One page at a time: on two cores, pages loading side by side only slow each other down.
    // The ladder and the measured view open first in new contexts (the modules they fetch); the
    // ladder and NCCL stay open for their tests below.
    ctxL = await fresh();
    const got = [];
    ladder = await open(ctxL, special[0], ladderErrors, got);
    await ladder.waitForSelector('html[data-ready="true"]:not([data-arriving]) [data-view="ladder"]', { state: 'attached', timeout: 20000 });
    fetched.ladder = VIEW_MODULES.filter((v) => got.includes(v));
    await visit(ladder, special[0], ladderErrors);
    nccl = await open(ctxL, special[1], ncclErrors);
    await visit(nccl, special[1], ncclErrors);
    const ctx = await fresh();
    const gotMeasured = [];
    const mine = [];
    const measured = await open(ctx, special[2], mine, gotMeasured);
    await measured.waitForSelector('html[data-ready="true"]:not([data-arriving]) [data-view="measured"]', { state: 'attached', timeout: 20000 });
    fetched.measured = VIEW_MODULES.filter((v) => gotMeasured.includes(v));
    await visit(measured, special[2], mine);
    await measured.close();
    await walk(ctx, [...pages.keys()].filter((url) => !special.includes(url)));
    await ctx.close();
    for (const s of ['0.5', '3', '4.1', '4.3', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '6.3', '6.5', '7.1', '7.2', '7.3', '7.4']) assert.ok(opened.has(s), `§${s} has a view that opened`);
  });

  test('the bandwidth ladder: every rung, ratio and the node\'s inside against outside are the engine\'s; the student\'s pair and efficiency; axe-core clean, no sideways scroll, in English and Chinese at 1280 and 390 px', async () => {
    const page = ladder;
    await layout(page, 'ladder', 'en');
    const view = page.locator('[data-view="ladder"]');
    assert.equal(await view.getAttribute('data-lecture'), '2.1');
    // Every rung, bar, comparison and the node: truth/ladder.mjs, the truth walk's own check.
    const { lecture: want } = await ladderTruth.check(page, ladderTruth.first);
    assert.deepEqual(want.rungs.map((r) => r.id), ['hbm3', 'nvlink5', 'nvlink4', 'pcie5', 'pcie4', 'ib_ndr', 'roce400', 'ethernet', 'nvme'], 'HBM to NVMe');
    assert.equal(await page.locator('[data-role="claims"] [data-comparison]').first().textContent(), 'HBM3 (H100) is 7.44× faster than NVLink 4: 2.68 TB/s against 360 GB/s.');
    const node = page.locator('#ladder-node');
    assert.equal(await node.getAttribute('data-lecture'), '2.3');
    assert.equal(want.node.faster, 'inside');
    assert.match(await node.locator('[data-role="node-note"]').textContent(), /3\.6 TB\/s .*400 GB\/s .*inside is 9× outside\.$/);
    // The student's pair: the engine says which is faster, whichever comes first.
    await page.locator('#ladder-a').selectOption('ethernet');
    await page.locator('#ladder-b').selectOption('nvme');
    const { mine } = await ladderTruth.check(page, { ...ladderTruth.first, a: 'ethernet', b: 'nvme' });
    assert.equal(mine.comparisons[0].faster, 'nvme');
    const yours = page.locator('[data-role="yours"] [data-comparison]');
    assert.equal(await yours.textContent(), 'NVMe SSD is 2.24× faster than Ethernet 25G (TCP): 5.6 GB/s against 2.5 GB/s.');
    await page.locator('#ladder-a').selectOption('roce400');
    await page.locator('#ladder-b').selectOption('ib_ndr');
    await ladderTruth.check(page, { ...ladderTruth.first, a: 'roce400', b: 'ib_ndr' });
    assert.equal(await yours.textContent(), 'RoCE 400G and InfiniBand NDR are equally fast: 40 GB/s each.');
    // Another node, another efficiency: the engine's figures again.
    await page.locator('#ladder-node-pick').selectOption('gb200_nvl72');
    await page.locator('#ladder-efficiency').fill('0.5');
    await ladderTruth.check(page, { efficiency: 0.5, a: 'roce400', b: 'ib_ndr', node: 'gb200_nvl72' });
    // A value the engine would refuse is said in the page's words; nothing is drawn meanwhile.
    await page.locator('#ladder-efficiency').fill('2');
    assert.equal(await page.locator('[data-view="ladder"] [data-role="settings-error"]').textContent(), 'Efficiency: 2 is outside the allowed range; allowed 0.01 to 1. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-view="ladder"] [data-role="drawn"]').isHidden(), true);
    await page.locator('#ladder-efficiency').fill('0.01');
    await ladderTruth.check(page, { efficiency: 0.01, a: 'roce400', b: 'ib_ndr', node: 'gb200_nvl72' });
    // In Chinese, the engine's comparison in the lecture's words.
    const zh = await openPage(ctxL, `${lab.server.url}?view=ladder&lang=zh`, errors);
    assert.equal(await zh.locator('[data-role="claims"] li').first().textContent(), 'HBM3 (H100) 比 NVLink 4 快 7.44 倍：2.68 TB/s 对 360 GB/s。');
    assert.match(await zh.locator('[data-role="node-note"]').textContent(), /节点内是节点外的 9 倍。$/);
    await layout(zh, 'ladder', 'zh');
    await zh.close();
    await page.close();
    assert.deepEqual(ladderErrors, [], 'no console errors');
  });

  test('NCCL: the ring\'s protocol crossovers, the protocols\' payload shares, NVLS and the tuner\'s choice are the engine\'s; devices 2 and 1,024, 1 B and 1 GB draw; axe-core clean, no sideways scroll, in English and Chinese at 1280 and 390 px', async () => {
    const page = nccl;
    const mine = ncclErrors;
    const ctx = ctxL;
    const view = page.locator('[data-view="nccl-view"]');
    await ncclSettled(page, ncclFirst);
    await layout(page, 'nccl', 'en');
    assert.equal(await view.getAttribute('data-lecture'), '5.6');
    // Every figure, case and conclusion of the view against the engine's (truth/nccl.mjs).
    const check = (devices, bytes, link) => checkNccl(page, { devices, bytes, link });
    // 8 GPUs on NVLink 4: LL below 64 KB, LL128 at 16 MB, Simple from 256 MB (P5 §5.6).
    const { cross: lecture, pick: lecturePick } = await check(8, 1e6, 'nvlink4');
    // The in-switch reduction the chart draws fastest is the tuner's pick too.
    assert.equal(lecturePick.algorithm, 'nvls');
    assert.match(await view.locator('[data-role="choice-note"]').textContent(), /NCCL’s tuner picks NVLS \(NVSwitch\) · Simple/);
    assert.deepEqual(lecture.boundaries.map((x) => [x.from, x.to]), [['ring/LL', 'ring/LL128'], ['ring/LL128', 'ring/Simple']]);
    assert.ok(lecture.boundaries[0].bytes > 64e3 && lecture.boundaries[0].bytes < 16e6 && lecture.boundaries[1].bytes > 16e6 && lecture.boundaries[1].bytes < 256e6);
    assert.equal(await view.locator('li[data-protocol="LL"]').textContent(), 'LL: each 8 B unit it writes carries 4 B of data and a 4 B flag, so 50% of the link’s 360 GB/s carries payload (180 GB/s); the receiver reads the flag with the data, so a hop costs 470 ns (3.6 µs a call).');
    assert.match(await view.locator('li[data-protocol="LL128"]').textContent(), /each 128 B unit it writes carries 120 B of data and a 8 B flag, so 93\.75% /);
    // Extremes, and another link.
    for (const [k, b, link] of [[2, 1, 'nvlink4'], [1024, 1e9, 'nvlink4'], [1024, 1, 'ib_ndr'], [2, 1e9, 'pcie5']]) {
      await page.locator('#nccl-link').selectOption(link);
      await page.locator('#nccl-devices').fill(String(k));
      await page.locator('#nccl-bytes').fill(String(b));
      await check(k, b, link);
    }
    assert.match(page.url(), /view=nccl&devices=2&bytes=1000000000&link=pcie5/);
    assert.match(await view.locator('[data-role="nvls-note"]').textContent(), /^No switch on PCIe Gen5 x16 reduces/);
    assert.match(await view.locator('[data-role="left-out"]').textContent(), /^Left out on PCIe Gen5 x16: NVLS, which needs an NVSwitch/);
    // A value that cannot be used is said, naming the control and the range; nothing drawn.
    await page.locator('#nccl-devices').fill('1');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'GPUs: 1 is not allowed; allowed a whole number from 2 to 1,024. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#nccl-devices').fill('8');
    await page.locator('#nccl-bytes').fill('2000000000');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^Message size: 2000000000 B is outside the allowed range; allowed 1 B to 1 GB\./);
    // The address: a bad value is named and the lecture's shown; a good one opens as given.
    const bad = await openPage(ctx, `${lab.server.url}?view=nccl&devices=abc&link=warp`, mine);
    await ncclSettled(bad, ncclFirst);
    assert.match(await bad.locator('[data-view="nccl-view"] [data-role="address-problems"]').textContent(), /devices=abc cannot be used .* link=warp cannot be used/);
    await bad.close();
    const zh = await openPage(ctx, `${lab.server.url}?view=nccl&lang=zh&devices=16&bytes=16000000`, mine);
    await ncclSettled(zh, { ...ncclFirst, devices: 16, bytes: 16e6 });
    const pick = engine({ op: 'nccl', devices: 16, bytes: 16e6, link: 'nvlink4' });
    assert.match(await zh.locator('[data-role="choice-note"]').textContent(), new RegExp(`^16 MB、16 块 GPU 时，NCCL 调优器选择 .* · ${pick.protocol}：`));
    // Its own settings again for the layout in Chinese.
    await zh.locator('#nccl-devices').fill('8');
    await zh.locator('#nccl-bytes').fill('1000000');
    await ncclSettled(zh, ncclFirst);
    await layout(zh, 'nccl', 'zh');
    assert.deepEqual(mine, [], 'no console errors');
    await ctxL.close();
  });

  test('a section view\'s settings live in the address: a link reproduces them, a change is written, a bad one is named', async () => {
    const ctx = await fresh();
    const valuesOf = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-setting]')]
      .map((e) => [e.dataset.setting, e.type === 'checkbox' ? String(e.checked) : e.value])));
    // The ladder: a number and two pickers from the address, drawn as if chosen by hand.
    const page = await openPage(ctx, `${lab.server.url}?view=ladder&efficiency=0.8&a=pcie5&b=nvlink4`, errors);
    assert.deepEqual(await valuesOf(page), { efficiency: '0.8', a: 'pcie5', b: 'nvlink4', node: 'dgx_h100' });
    assert.equal(await page.locator('span[data-role="yours"]').getAttribute('data-comparison'), 'pcie5/nvlink4');
    const lectureEfficiency = engine({ op: 'ladder', efficiency: 0.8, pairs: [['pcie5', 'nvlink4']] }).comparisons[0];
    assert.equal(await page.locator('span[data-role="yours"]').getAttribute('data-ratio'), String(lectureEfficiency.ratio));
    // A change by hand is written into the address (no new history entry), and a reload keeps it.
    const entries = await page.evaluate(() => history.length);
    await page.selectOption('#ladder-b', 'ib_ndr');
    await page.fill('#ladder-efficiency', '0.7');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('efficiency') === '0.7');
    const query = new URL(page.url()).searchParams;
    assert.deepEqual(Object.fromEntries(query), { view: 'ladder', efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    assert.equal(await page.evaluate(() => history.length), entries);
    // A value the address would not take back (half typed) leaves the address as it was.
    await page.fill('#ladder-efficiency', '7');
    await page.waitForTimeout(100);
    assert.equal(new URL(page.url()).searchParams.get('efficiency'), '0.7');
    await page.fill('#ladder-efficiency', '0.7');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    assert.deepEqual(await valuesOf(page), { efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    // The language switch draws the view anew: the settings stay.
    await page.click('[data-action="language"]');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh') && document.querySelector('#ladder-b')?.value === 'ib_ndr');
    assert.deepEqual(await valuesOf(page), { efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    // A checkbox (RDMA's same PCIe switch) and a whole number.
    const rdma = await openPage(ctx, `${lab.server.url}?view=rdma&same_pcie_switch=false&chunks=8`, errors);
    const rdmaValues = await valuesOf(rdma);
    assert.equal(rdmaValues.same_pcie_switch, 'false');
    assert.equal(rdmaValues.chunks, '8');
    // Bad settings: each named with its value and what is allowed; the view draws with its own
    // (in English: the language chosen above is kept for this origin).
    const mine = [];
    const bad = await openPage(ctx, `${lab.server.url}?view=bound&devices=9999&link=nope&mb=abc&tp=1&lang=en`, mine);
    const named = await bad.locator('#link-problems li').evaluateAll((els) => els.map((li) => [li.dataset.setting, li.textContent]));
    assert.deepEqual(named.map(([k]) => k), ['devices', 'mb', 'link']);
    assert.match(named[0][1], /devices: "9999" is not allowed; allowed: a whole number from 2 to 256\. Shown instead: 8\./);
    assert.match(named[1][1], /mb: "abc" is not allowed; allowed: a number from 0\.000001 to 1,000,000\./);
    assert.match(named[2][1], /link: "nope" is not allowed; allowed: hbm3, .*nvlink4.*\. Shown instead: nvlink4\./);
    assert.deepEqual(await valuesOf(bad), { devices: '8', mb: '8', link: 'nvlink4' });
    assert.equal(mine.length, 3, 'each said to the console too');
    await ctx.close();
  });

  test('views load when opened: the exercises page fetches none of them, a view only its own', () => {
    // Recorded above as each page opened, the first of a new context.
    assert.deepEqual(fetched[''], []);
    assert.deepEqual(fetched.ladder, ['sections', 'ladder']);
    assert.deepEqual(fetched.measured, ['measured']);
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
