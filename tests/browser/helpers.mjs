// Shared by the browser tests: a static server for dist/ on 127.0.0.1 (random port) and Debian's
// Chromium driven by playwright-core.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumOptions } from '../../web/tools/chromium.mjs';
import { serve as serveFolder } from '../../web/tools/serve.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = process.env.COMMLAB_DIST ?? join(ROOT, 'dist');
export const SHOTS = join(ROOT, 'build-wasm', 'screenshots');

/** The frame ancestors of the lab's server when a course site on localhost frames it. */
export const FRAMED_BY_LOCALHOST = "'self' http://localhost:*";

/**
 * Serves `dir` (dist/ by default) on 127.0.0.1 at a random port; resolves to {url, close}.
 * `options.frameAncestors`: who may frame the page (web/tools/serve.mjs; default 'self').
 * dist/ with the default or FRAMED_BY_LOCALHOST is the server tests/browser/run.mjs started
 * for every file (COMMLAB_SERVER_URLS), whose close() leaves it running for the next file.
 */
export function serve(dir = DIST, options = {}) {
  const shared = process.env.COMMLAB_SERVER_URLS ? JSON.parse(process.env.COMMLAB_SERVER_URLS) : {};
  const url = dir === DIST ? shared[options.frameAncestors ?? 'default'] : undefined;
  return url ? Promise.resolve({ url, close: async () => {} }) : serveFolder(dir, 0, options);
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A test file's lab: registers its before/after (the server of dist/ and the browser, shared
 * under run.mjs) and returns their handle: `server`, `browser`, the console `errors` that
 * openPage collects, and `fresh(viewport, options)`, a new English context. `full`: the full
 * Chromium (launch).
 */
export function useLab(serverOptions = {}, { full = false } = {}) {
  const lab = {
    server: null,
    browser: null,
    errors: [],
    fresh: (viewport = DESKTOP, options = {}) => lab.browser.newContext({ viewport, locale: 'en-US', ...options }),
  };
  before(async () => {
    lab.server = await serve(DIST, serverOptions);
    lab.browser = await launch({ full });
  });
  after(async () => {
    await lab.browser?.close();
    await lab.server?.close();
  });
  return lab;
}

// The tests' Chromium compiles wasm with V8's baseline compiler alone: otherwise every page's
// engine is compiled again by the optimising tier in the background, about 0.5 s of CPU a page
// load on two cores, for the same answers. ./lab bench times the page as users get it.
const options = chromiumOptions();
export const CHROMIUM_OPTIONS = { ...options, args: [...options.args, '--js-flags=--liftoff-only'] };
// Most files drive Debian's headless shell (chromium-headless-shell: chromium's Blink and V8
// without the browser around them, as Playwright's own headless build is): a page load costs
// 1.5 s of CPU here against 2.4 s in the full browser. The shell neither partitions nor blocks
// the storage of a cross-site frame, so the files on frames of another site and their storage
// take the full browser, as students have it: launch({ full: true }).
export const SHELL_OPTIONS = { ...CHROMIUM_OPTIONS, executablePath: process.env.CHROMIUM_SHELL ?? '/usr/bin/chromium-headless-shell' };

/**
 * The browser of a test file: the headless shell (or with `full`, the full Chromium) that
 * tests/browser/run.mjs started for every file (COMMLAB_BROWSER_WS, COMMLAB_FULL_BROWSER_WS), or
 * one of its own when the file runs alone. Closing a shared one only disconnects this file, and
 * its contexts go with it.
 */
export async function launch({ full = false, asUsers = false } = {}) {
  const shared = asUsers ? null : process.env[full ? 'COMMLAB_FULL_BROWSER_WS' : 'COMMLAB_BROWSER_WS'];
  // asUsers (./lab bench): V8's own tiers, as students run the page (the optimising tier too),
  // in the headless shell, or with `full` the full Chromium.
  const user = { ...options, ...(full ? {} : { executablePath: SHELL_OPTIONS.executablePath }) };
  const browser = await (shared ? chromium.connect(shared) : chromium.launch(asUsers ? user : full ? CHROMIUM_OPTIONS : SHELL_OPTIONS));
  // The service worker (web/sw.js) caches the whole site in the background after a page is ready:
  // only the tests that ask for it (serviceWorkers: 'allow') pay for that; the others' pages do
  // not register it (COMMLAB_NO_SW, app/offline.js).
  const noServiceWorker = async (context, options) => {
    if (options.serviceWorkers !== 'allow') await context.addInitScript(() => { window.COMMLAB_NO_SW = true; });
    return context;
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => countLoads(await noServiceWorker(await newContext(options), options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options = {}) => {
    const page = await newPage(options);
    await noServiceWorker(page.context(), options);
    return page;
  };
  return browser;
}

// Page loads are what the browser suite's time goes to (1-2 s each here): each file counts its
// own (the load events of its pages' main frames) and tests/browser/run.mjs prints them.
let pageLoads = 0;
function countLoads(context) {
  context.on('page', (page) => page.on('load', () => { pageLoads += 1; }));
  return context;
}

process.on('exit', () => {
  if (!process.env.COMMLAB_LOADS_FILE || !process.argv[1]) return;
  appendFileSync(process.env.COMMLAB_LOADS_FILE, `${relative(ROOT, process.argv[1])}\t${pageLoads}\n`);
});

let downloads = 0;
/**
 * A local copy of a download, its path. Download.path() is the browser's own file, which a file
 * connected to the shared browser (run.mjs) cannot read; saveAs works either way.
 */
export async function downloadPath(download) {
  const dir = join(ROOT, 'build-wasm', 'downloads');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${process.pid}-${++downloads}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return path;
}

export function screenshotDir() {
  mkdirSync(SHOTS, { recursive: true });
  return SHOTS;
}

/** Screenshots are for a person to look at and assert nothing, so they are taken only when asked
 * (COMMLAB_SCREENSHOTS=1, `./lab screenshots`): each costs 0.2-0.9 s here, 212 of them about a
 * tenth of the suite. The checks beside them (widths, axe-core) run either way. */
export const TAKE_SCREENSHOTS = process.env.COMMLAB_SCREENSHOTS === '1';
export function shot(target, options) {
  return TAKE_SCREENSHOTS ? target.screenshot(options) : Promise.resolve(null);
}

/**
 * Opens a page that records console errors and uncaught exceptions into `errors`.
 * `url` is loaded and the page waits until the engine and the cards are ready.
 */
export async function openPage(context, url, errors, { wait = true } = {}) {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${url}: console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${url}: pageerror: ${err.message}`));
  await page.goto(url);
  if (wait) await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
  return page;
}

/** Asks the page's own engine module (same origin, same CSP) for a response. */
export function engineEval(page, request) {
  return page.evaluate(async (req) => {
    const mod = await import('./engine/commlab.js');
    // A fresh engine of the page's own module, with the documents the page serves.
    if (!globalThis.__testEngine) {
      const docs = (await import('./boot.js')).__core['engine/documents.js'];
      const served = await docs.fetchDocuments(new URL('exercises/', location.href));
      globalThis.__testEngine = await mod.loadCommlab({ exercises: served.files });
    }
    return globalThis.__testEngine.evaluate(req);
  }, request);
}

/** Types `answers` ({id: text}) into card `n` and presses its check button. */
export async function answer(page, n, answers) {
  const card = page.locator(`[data-exercise="${n}"]`);
  for (const [id, text] of Object.entries(answers)) {
    const field = card.locator(`[data-answer="${id}"]`);
    if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(text);
    else await field.fill(text);
  }
  await card.locator('[data-action="check"]').click();
  await settled(page);
  return card;
}

/** Resolves once no card waits on the engine (a card is aria-busy while its requests are out). */
export function settled(page) {
  return page.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { timeout: 15000 });
}

/** {id: verdict} of card `n`'s answer fields. */
export async function verdicts(page, n) {
  await settled(page);
  return page.locator(`[data-exercise="${n}"] [data-answer]`).evaluateAll((els) =>
    Object.fromEntries(els.map((el) => [el.dataset.answer, el.dataset.verdict ?? null])));
}

/** Resolves after the page has drawn two more frames (the calculators update once per frame). */
export async function nextFrame(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await settled(page);
}

/** The parameters of the variant card `n` shows, as saved (its own localStorage key). */
export async function variantParams(page, n) {
  await settled(page);
  return page.evaluate((id) => {
    const key = document.querySelector(`[data-exercise="${id}"]`).dataset.variant;
    return JSON.parse(localStorage.getItem(`commlab.v2.progress.${id}.${key}`))?.params ?? null;
  }, n);
}

/** Types `answers` ({answer id: text}) into an embedded exercise's frame and checks them. */
export async function answerIn(frame, answers) {
  for (const [id, text] of Object.entries(answers)) {
    const field = frame.locator(`[data-answer="${id}"]`);
    if (await field.evaluate((el) => el.tagName === 'SELECT')) await field.selectOption(text);
    else await field.fill(text);
  }
  // A click on a frame whose host page is still settling (frames above it growing) can land
  // where the button was: the form's submit event says the click reached it, else it is clicked again.
  await frame.evaluate(() => {
    window.checkSubmitted = false;
    document.addEventListener('submit', () => { window.checkSubmitted = true; }, { capture: true, once: true });
  });
  const check = frame.locator('[data-action="check"]');
  for (let tries = 1; ; tries += 1) {
    await check.click();
    const reached = await frame.waitForFunction(() => window.checkSubmitted, null, { polling: 50, timeout: 2000 }).then(() => true, () => false);
    if (reached) break;
    if (tries === 3) throw new Error('three clicks on the check button never submitted its form');
  }
  // The check is answered by the engine's worker: wait until the card is no longer busy.
  await frame.waitForFunction(() => !document.querySelector('section.card[aria-busy="true"]'), null, { polling: 100 }); // a frame below the fold gets no animation frames
}

/**
 * A course site for embedding tests: its own server on 127.0.0.1, named by `localhost` so the
 * lab's frames (http://127.0.0.1:<port>) are cross-site. `pages` maps a path to its HTML (or to
 * {type, body} for another file). Resolves to {url, close}.
 */
export function courseSite(pages) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    const page = pages[path];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    const { type, body } = typeof page === 'string' ? { type: 'text/html; charset=utf-8', body: page } : page;
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  });
  return new Promise((ok) => {
    server.listen(0, '127.0.0.1', () => ok({
      url: `http://localhost:${server.address().port}`,
      close: () => new Promise((r) => server.close(r)),
    }));
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2 A/AA and best-practice violations on the page, one line each (none: []).
 * axe is evaluated once a document; only violations are gathered (resultTypes: axe then keeps
 * one node of each passing rule instead of all): on the exercise page a run took 2.2 s of CPU,
 * now 1.2 s, and the source 0.8 s more each time it was evaluated again.
 */
export async function axeViolations(page) {
  if (!await page.evaluate(() => typeof globalThis.axe?.run === 'function')) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'], resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')})`);
}

/**
 * Text drawn smaller than `min_px` CSS pixels in `root` (a selector), as "<text> (9.1 px)": HTML
 * text by its computed size, SVG text by its size times the drawing's scale on screen. Hidden
 * and empty elements are passed by.
 */
export function smallText(page, root = 'body', min_px = 11) {
  return page.evaluate(({ root, min_px }) => {
    const out = [];
    for (const el of document.querySelectorAll(`${root} *`)) {
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      let px = parseFloat(getComputedStyle(el).fontSize);
      const svg = el.ownerSVGElement;
      if (svg) {
        const box = svg.viewBox?.baseVal;
        if (box?.width) px *= svg.getBoundingClientRect().width / box.width;
      }
      if (px < min_px - 0.05) out.push(`${el.textContent.trim().slice(0, 30)} (${px.toFixed(1)} px)`);
    }
    return out;
  }, { root, min_px });
}

/**
 * The layout checks every section view gets, at 1280 and 390 px in English and Chinese (one page
 * a language, resized from one width to the other): `ready(page, lang)` waits until the view is
 * drawn and may set it up; its data tables open; nothing is wider than the viewport; axe-core
 * finds nothing (English, both widths); a screenshot under ./lab screenshots; then, width by
 * width, `more(page, lang, viewport)` checks the rest (it may change the view's settings).
 * `errors` collects the console's errors.
 */
export async function checkViewLayout(lab, view, { ready, errors, tables = true, more }) {
  const dir = screenshotDir();
  const ctx = await lab.fresh(DESKTOP);
  let page = null;
  for (const lang of ['en', 'zh']) {
    const url = `${lab.server.url}?view=${view}&lang=${lang}`;
    if (page) {
      await page.setViewportSize(DESKTOP);
      await page.goto(url);
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
    } else {
      page = await openPage(ctx, url, errors);
    }
    await ready(page, lang);
    if (tables) {
      for (const summary of await page.locator('details.chart-table summary').all()) await summary.click();
      await page.waitForTimeout(100);
    }
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > viewport.width) throw new Error(`${view} ${lang}: ${width}px wide in ${viewport.width}px`);
      if (viewport === PHONE) {
        const small = await smallText(page, 'main');
        if (small.length) throw new Error(`${view} ${lang} at ${viewport.width} px: text under 11 px: ${small.slice(0, 5).join('; ')}`);
      }
      if (lang === 'en') {
        const violations = await axeViolations(page);
        if (violations.length) throw new Error(`${view} at ${viewport.width} px: ${violations.join('; ')}`);
      }
      await shot(page, { path: join(dir, `${view}-${lang}-${viewport.width}.png`), fullPage: true });
    }
    if (more) {
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await more(page, lang, viewport);
      }
    }
  }
  await ctx.close();
}

/**
 * Gives Explore the settings of `query` (a ?view=explore address) through its controls, as a
 * person would, instead of loading the address (a load costs 1-2 s here): the settings are the
 * page's own readSettings of the address, and the address the page writes back is theirs.
 * Resolves once the views have drawn them (none aria-busy).
 */
export async function exploreSet(page, query) {
  const search = await page.evaluate(async (q) => {
    const { readSettings, settingsQuery } = await (await import('./boot.js')).__lazy['views/explore.js']();
    const s = readSettings(q).settings;
    const set = (name, value, type) => {
      const el = document.querySelector(`[data-view="explore"] [data-setting="${name}"]`);
      el.value = String(value);
      el.dispatchEvent(new Event(type, { bubbles: true }));
    };
    // In this order: a collective resets the algorithm, a topology may, an algorithm may set the topology.
    set('collective', s.collective, 'change');
    set('topology', s.topology, 'change');
    set('algorithm', s.algorithm, 'change');
    set('gpus_per_node', s.gpus_per_node, 'input');
    set('devices', s.devices, 'input');
    set('bytes', s.bytes, 'input');
    set('link', s.link ?? '', 'change');
    if (!s.link) {
      set('alpha_s', Number((s.alpha_s * 1e6).toPrecision(12)), 'input');
      set('beta_Bps', Number((s.beta_Bps / 1e9).toPrecision(12)), 'input');
    }
    set('intra_link', s.intra_link, 'change');
    // The view draws in the next frame, its callback before this one.
    await new Promise((r) => requestAnimationFrame(r));
    return settingsQuery(s);
  }, query);
  await page.waitForFunction((want) => location.search === want && !document.querySelector('[data-view="explore"] [aria-busy]'),
    search, { timeout: 20000 });
}
