#!/usr/bin/env node
// The page's cold load in headless Chromium, served by web/tools/serve.mjs (so compressed as a
// host would): each run a fresh browser context (empty cache), milestones from navigation start.
// Relies only on html[data-ready="true"], section.card[data-exercise] and .statement.
// Usage: node tests/bench/page_load.mjs [--runs N] [--json]
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { DIST, launch, serve } from '../browser/helpers.mjs';

// Recorded inside the page from its first script on: when data-ready becomes "true", and when
// in addition every card's statement has text. performance.now() is ms since navigation start.
function recordMilestones() {
  const marks = { ready_ms: null, filled_ms: null, cards: 0 };
  Object.defineProperty(window, '__commlabLoad', { value: marks });
  const ready = () => document.documentElement?.getAttribute('data-ready') === 'true';
  const filled = () => {
    const cards = document.querySelectorAll('section.card[data-exercise]');
    marks.cards = cards.length;
    return cards.length > 0 &&
      [...cards].every((card) => card.querySelector('.statement')?.textContent.trim());
  };
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    marks.ready_ms ??= performance.now();
    if (filled()) {
      marks.filled_ms = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ['data-ready'] });
}

// The first language switch after a cold load: the longest main-thread task it caused (the
// Long Tasks API reports those of 50 ms or more: 0 when there was none) and the click's time to
// its next paint (Event Timing), until every card speaks the new language.
async function firstLanguageSwitch(page) {
  await page.evaluate(() => {
    window.__switchMarks = { longest_ms: 0, click_ms: null };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__switchMarks.longest_ms = Math.max(window.__switchMarks.longest_ms, e.duration);
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'click') window.__switchMarks.click_ms = e.duration;
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  const from = await page.evaluate(() => document.documentElement.lang);
  await page.click('[data-action="language"]');
  await page.waitForFunction((was) => document.documentElement.lang !== was &&
    !document.documentElement.hasAttribute('data-switching'), from);
  await page.waitForTimeout(300); // the observers report after the frame
  const m = await page.evaluate(() => window.__switchMarks);
  return { switch_longest_task_ms: m.longest_ms, switch_click_ms: m.click_ms ?? 0 };
}

export const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function oneRun(browser, url) {
  const context = await browser.newContext();
  const responses = [];
  const asked = []; // when each request was sent (epoch ms)
  // Every request of the page and its workers, with its bytes on the wire once finished.
  context.on('request', () => asked.push(Date.now()));
  context.on('requestfinished', (request) => responses.push(request));
  await context.addInitScript(recordMilestones);
  const page = await context.newPage();
  const load_average = loadavg()[0];
  await page.goto(url);
  await page.waitForFunction(() => window.__commlabLoad.filled_ms != null, null, { timeout: 60000 });
  await page.waitForLoadState('networkidle');
  const language_switch = await firstLanguageSwitch(page);
  const readyAt = await page.evaluate(() => performance.timeOrigin + window.__commlabLoad.ready_ms);
  const marks = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
    return { ...window.__commlabLoad, fcp_ms: fcp?.startTime ?? null, wasm_end_ms: wasm?.responseEnd ?? null,
      wasm_end_from: wasm ? 'page' : null };
  });
  const files = [];
  // A .wasm fetched by a Worker is not in the page's resource timing: take Playwright's timing,
  // relative to the document request's start (a few ms after navigation start).
  // Checked against the page's own figure on the main-thread page: within 5 ms.
  const wasmRequest = responses.find((r) => r.url().endsWith('.wasm'));
  const documentRequest = responses.find((r) => r.isNavigationRequest());
  if (marks.wasm_end_ms == null && wasmRequest && documentRequest) {
    const t = wasmRequest.timing();
    if (t.responseEnd >= 0) marks.wasm_end_ms = t.startTime + t.responseEnd - documentRequest.timing().startTime;
    marks.wasm_end_from = 'playwright';
  }
  for (const request of responses) {
    const response = await request.response();
    const sizes = await request.sizes();
    files.push({
      url: request.url(),
      status: response?.status() ?? null,
      encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
      body_bytes: sizes.responseBodySize,
      header_bytes: sizes.responseHeadersSize,
    });
  }
  await context.close();
  return {
    ...marks,
    ...language_switch,
    load_average,
    requests: files.length,
    requests_before_ready: asked.filter((t) => t <= readyAt).length,
    transfer_bytes: files.reduce((s, f) => s + f.body_bytes + f.header_bytes, 0),
    body_bytes: files.reduce((s, f) => s + f.body_bytes, 0),
    files,
  };
}

/** Runs `runs` cold loads of the exercises page `path` under dist/; resolves to {runs: [...], summary}. */
export async function pageLoad({ runs = 7, path = 'index.html' } = {}) {
  const server = await serve(DIST);
  const browser = await launch({ asUsers: true });
  const browser_version = browser.version();
  const results = [];
  try {
    for (let i = 0; i < runs; i++) results.push(await oneRun(browser, server.url + path));
  } finally {
    await browser.close();
    await server.close();
  }
  const summary = {};
  const repeat = await repeatVisits({ runs, path });
  for (const key of ['fcp_ms', 'ready_ms', 'filled_ms', 'wasm_end_ms', 'body_bytes', 'transfer_bytes', 'load_average', 'requests_before_ready', 'switch_longest_task_ms', 'switch_click_ms']) {
    const xs = results.map((r) => r[key]).filter((x) => x != null);
    summary[key] = xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length } : null;
  }
  summary.repeat_ready_ms = repeat;
  return { path, browser_version, runs: results, summary };
}

/**
 * Repeat visits: one context whose first visit installs the service worker (web/sw.js), then
 * `runs` visits in new pages of it, each served from the worker's cache: usable (data-ready)
 * from navigation start, {median, min, max, n}.
 */
export async function repeatVisits({ runs = 7, path = 'index.html' } = {}) {
  const server = await serve(DIST);
  const browser = await launch({ asUsers: true });
  try {
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    await context.addInitScript(recordMilestones);
    const first = await context.newPage();
    await first.goto(server.url + path);
    await first.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 60000 });
    await first.close();
    const xs = [];
    for (let i = 0; i < runs; i++) {
      const page = await context.newPage();
      const response = await page.goto(server.url + path);
      if (!response.fromServiceWorker()) throw new Error('a repeat visit was not served by the service worker');
      await page.waitForFunction(() => window.__commlabLoad.ready_ms != null, null, { timeout: 60000 });
      xs.push(await page.evaluate(() => window.__commlabLoad.ready_ms));
      await page.close();
    }
    return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
  } finally {
    await browser.close();
    await server.close();
  }
}

export function formatPageLoad({ path, runs, summary }) {
  const ms = (s) => (s ? `${s.median.toFixed(0).padStart(6)} ms  (${s.min.toFixed(0)}-${s.max.toFixed(0)})` : '     -');
  const files = runs[0].files;
  const encodings = [...new Set(files.map((f) => f.encoding))].join(', ');
  const la = summary.load_average;
  return [
    `${path}: ${runs.length} cold loads (fresh context each), median (min-max) from navigation start; ` +
      `load average ${la.min.toFixed(2)}-${la.max.toFixed(2)}`,
    `  first contentful paint      ${ms(summary.fcp_ms)}`,
    `  usable (data-ready)         ${ms(summary.ready_ms)}`,
    `  all cards filled            ${ms(summary.filled_ms)}   (${runs[0].cards} cards)`,
    `  repeat visit usable         ${ms(summary.repeat_ready_ms)}   (served by the service worker)`,
    `  first language switch       ${ms(summary.switch_longest_task_ms)}   longest task (0: none of 50 ms or more); click to paint ${ms(summary.switch_click_ms).trim()}`,
    `  requests before usable      ${String(summary.requests_before_ready?.median ?? '-').padStart(6)}`,
    `  .wasm response end          ${ms(summary.wasm_end_ms)}${runs[0].wasm_end_from === 'playwright' ? '   (Playwright\'s timing: fetched by a worker)' : ''}`,
    `  transferred                 ${(summary.body_bytes.median / 1000).toFixed(1)} KB of bodies, ` +
      `${(summary.transfer_bytes.median / 1000).toFixed(1)} KB with headers, ${files.length} responses (encodings: ${encodings})`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const result = await pageLoad({ runs: Number(arg('--runs', 7)) });
  console.log(process.argv.includes('--json') ? JSON.stringify(result, null, 2) : formatPageLoad(result));
}
