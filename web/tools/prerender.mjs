#!/usr/bin/env node
// Prerenders the exercise cards into <dist>/index.html (the first language's; the others' into
// <dist>/cards-LANG.html), so the page is readable before any wasm has loaded. The text is the
// engine's: the built page itself runs (its wasm engine and its own card renderer, in headless
// Chromium) once per language with nothing saved, and each card is copied out as it stands. The
// live page later replaces each copy by its live card (app/main.js);
// tests/browser/prerender.test.mjs checks the copies equal the live cards. The engine's answers
// to the page's first batch of requests go to <dist>/engine/first.json (tests/node checks them
// against the engine), with the fingerprint of each exercise document they were computed from:
// the page uses them only while the served documents are those (engine/documents.js).
//
// Usage: node web/tools/prerender.mjs dist
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumOptions } from './chromium.mjs';
import { serve } from './serve.mjs';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node web/tools/prerender.mjs <dist folder>');
  process.exit(2);
}
const LANGS = { en: 'en', zh: 'zh-CN' };
const STATUS = /(<p id="engine-status" role="status">[^<]*<\/p>)/;

// Runs in the page: each live card cloned, with what properties hold (typed values, chosen
// options) written as attributes, the pictures left out (drawn live), and, for every language
// but the first, ids suffixed so the copies of two languages never share one.
function copyCards({ htmlLang, suffix }) {
  const out = [];
  for (const card of document.querySelectorAll('#exercises > section.card')) {
    const copy = card.cloneNode(true);
    const from = card.querySelectorAll('input, select');
    copy.querySelectorAll('input, select').forEach((el, i) => {
      if (el.tagName === 'SELECT') {
        for (const o of el.options) o.toggleAttribute('selected', o.value === from[i].value);
      } else if (el.type !== 'file') {
        el.setAttribute('value', from[i].value);
      }
    });
    const visuals = copy.querySelector('[data-role="visuals"]');
    if (visuals) {
      visuals.replaceChildren();
      visuals.hidden = true;
    }
    copy.removeAttribute('aria-busy');
    copy.setAttribute('data-prerendered', '');
    copy.setAttribute('lang', htmlLang);
    if (suffix) {
      for (const el of [copy, ...copy.querySelectorAll('*')]) {
        if (el.id) el.id += suffix;
        for (const a of ['for', 'list', 'aria-labelledby', 'aria-describedby', 'aria-controls']) {
          const v = el.getAttribute(a);
          if (v) el.setAttribute(a, v.split(/\s+/).map((x) => (x ? x + suffix : x)).join(' '));
        }
      }
    }
    out.push(copy.outerHTML);
  }
  return out.join('\n');
}

const server = await serve(dist, 0);
const browser = await chromium.launch(chromiumOptions());
const parts = [];
let first = null;
try {
  for (const [i, [lang, htmlLang]] of Object.entries(LANGS).entries()) {
    const context = await browser.newContext({ locale: htmlLang });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}?lang=${lang}`);
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 30000 });
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    if (errors.length) throw new Error(`the page failed while prerendering: ${errors.join('; ')}`);
    const cards = await page.evaluate(copyCards, { htmlLang, suffix: i === 0 ? '' : `-${lang}` });
    // The engine's answers to the page's first batch (app/main.js firstBatch), kept so the live
    // cards need not wait for the engine to load; the same in every language.
    if (i === 0) {
      first = await page.evaluate(async () => {
        const { firstBatch } = await import('./app/main.js');
        const { askMany, documentsInstalled, documentsServed } = await import('./engine/door.js');
        const ids = [...document.querySelectorAll('#exercises > section.card')].map((c) => Number(c.dataset.exercise));
        const requests = firstBatch(ids);
        const served = await documentsServed();
        const { problems } = await documentsInstalled();
        return { requests, responses: await askMany(requests), documents: served.fingerprints, problems };
      });
      if (first.problems.length) {
        throw new Error(`exercise documents the engine could not use: ${first.problems.map((p) => `${p.file}: ${p.message}`).join('; ')}`);
      }
      delete first.problems;
      if (first.responses.some((r) => r.error)) throw new Error('the engine refused a request of the first batch');
    }
    if (!cards.includes('data-exercise')) throw new Error('no cards to prerender');
    parts.push(cards);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}

// The first language's cards go into index.html; each other language's into cards-LANG.html,
// which start.js fetches only for a reader of that language (named on <html>, so that the
// single-file build can put the cards back into its one file: build-single.mjs).
const file = join(dist, 'index.html');
const html = readFileSync(file, 'utf8');
if (!STATUS.test(html)) throw new Error('index.html: the engine status line was not found');
const others = Object.keys(LANGS).slice(1);
for (const [i, lang] of others.entries()) writeFileSync(join(dist, `cards-${lang}.html`), `${parts[i + 1]}\n`);
const named = html.replace(/<html lang="en">/, `<html lang="en" data-cards="${others.map((l) => `${l}:cards-${l}.html`).join(' ')}">`);
if (named === html) throw new Error('index.html: <html lang="en"> was not found');
writeFileSync(file, named.replace(STATUS, (m) => `${m}\n${parts[0]}`));
writeFileSync(join(dist, 'engine', 'first.json'), `${JSON.stringify(first)}\n`);
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
console.log(`prerendered ${Object.keys(LANGS).length} languages: ${Object.keys(LANGS)[0]} into ${file} (${kb(html.length)} -> ${kb(readFileSync(file).length)}), ` +
  others.map((l, i) => `${l} into cards-${l}.html (${kb(parts[i + 1].length)})`).join(', '));
