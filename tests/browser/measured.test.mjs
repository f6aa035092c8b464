// The measured view (?view=measured, core/README.md "Measured against the model") in headless Chromium:
// a pasted nccl-tests log shows the engine's own fit (alpha, beta, relative RMS, asked of the
// page's engine module here), out-of-place and in-place points, the model and link lines as the
// engine's times converted; the collapse sample's band and sentence at 64-128 MiB; the NVLS
// sample's exceeds note; garbage gives the engine's error and the page goes on; "Use in Explore"
// carries the fit; the shared link restores the figures; a reload keeps the log; blocked storage
// and a log too big to keep are said; axe-core; no sideways scroll at 390 px; screenshots.
// One page carries the view from check to check (a reload, resizes, the language switch): a
// load is what costs here. Blocked storage has a context of its own (its pages break setItem).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axeViolations, DESKTOP, engineEval, launch, PHONE, ROOT, screenshotDir, serve, settled, shot } from './helpers.mjs';
import { formatBytes, formatTime } from '../../web/util/units.js';
import { busBandwidth, formatPercent, formatRate } from '../../web/views/measured.js';

const FIXTURES = join(ROOT, 'tests/fixtures/nccl');
const fixture = (name) => readFileSync(join(FIXTURES, name), 'utf8');
const CURRENT = fixture('synthetic_allreduce_current.txt');
const errors = [];
const done = (page) => page.waitForSelector('[data-role="fit-status"][data-state="done"], [data-role="fit-status"][data-state="error"]', { timeout: 20000 });

async function paste(page, text) {
  await page.locator('#m-log').fill(text);
  // The fit waits for the typing to stop ("Fitting…" meanwhile, set as the text changes).
  assert.equal(await page.locator('[data-role="fit-status"]').getAttribute('data-state'), 'fitting');
  await done(page);
  await settled(page);
}
// A text of megabytes set at once, as a paste inserts it (fill() types it: 30 s for 8 MB).
async function pasteLarge(page, text, timeout = 20000) {
  await page.evaluate((t) => {
    const box = document.querySelector('#m-log');
    box.value = t;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.waitForSelector('[data-role="fit-status"][data-state="done"], [data-role="fit-status"][data-state="error"]', { timeout });
  await settled(page);
}
async function pickSample(page, file) {
  await page.waitForSelector(`[data-role="sample"] option[value="${file}"]`, { state: 'attached' });
  await page.locator('[data-role="sample"]').selectOption(file);
  await done(page);
  await settled(page);
}

// The server and browser, started once (run.mjs shares its own); awaited by the describe's before.
const lab = {};
let started = null;
const up = () => (started ??= (async () => {
  lab.server = await serve();
  lab.browser = await launch();
})());
after(async () => {
  await lab.browser?.close();
  await lab.server?.close();
  assert.deepEqual(errors, []);
});

/** A page of `ctx` whose console errors and uncaught exceptions go to `errors`, with its address. */
async function watched(ctx) {
  const page = await ctx.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${page.url()}: console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  return page;
}
async function visit(page, path) {
  await page.goto(`${lab.server.url}${path}`);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

/**
 * The view with the collapse sample drawn, its data table open, at 1280 and then 390 px: axe-core
 * finds nothing (English), the Chinese title, no sideways scroll; a screenshot each; back to 1280.
 */
async function layout(page, lang) {
  const dir = screenshotDir();
  await page.locator('[data-view="measured-chart"] canvas').waitFor();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.locator('[data-role="data-table"] summary').click();
    await page.locator('[data-role="data-table"] tbody tr').first().waitFor({ state: 'attached' });
    if (lang === 'en') {
      assert.deepEqual(await axeViolations(page), [], `at ${viewport.width}px`);
    } else {
      assert.equal(await page.locator('#measured-title').textContent(), '实测与模型对比：nccl-tests 日志');
    }
    await page.waitForTimeout(200);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `${lang}: the page is ${width}px wide in a ${viewport.width}px viewport`);
    await page.locator('[data-role="data-table"] summary').click();
    await shot(page, { path: join(dir, `measured-${lang}-${viewport.width}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

describe('measured view', () => {
  let ctx = null;
  let page = null;
  let shareHref = null;
  let exploreHref = null;
  let answerOut = null;

  before(async () => {
    await up();
    ctx = await lab.browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await watched(ctx);
  });
  after(() => ctx?.close());

  test('the header link opens the view; a pasted log: the engine\'s alpha, beta and relative RMS, in-place points, the lines as the engine\'s times; a reload keeps it', async () => {
    await visit(page, '');
    // The header links to the view; from it, back to the exercises.
    assert.equal(await page.locator('#measured-link').getAttribute('href'), '?view=measured');
    await page.locator('#measured-link').click();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving]) [data-view="measured"][data-lecture="0.5"]');
    assert.equal(await page.locator('#measured-link').getAttribute('href'), '?');
    assert.match(await page.locator('#measured-link').textContent(), /Back to the exercises/);
    await paste(page, CURRENT);

    const out = await engineEval(page, { op: 'fit', log: CURRENT });
    const inPlace = await engineEval(page, { op: 'fit', log: CURRENT, columns: 'in_place' });
    answerOut = out;
    assert.equal(out.tables.length, 1);
    const tbl = out.tables[0];
    const sec = page.locator('[data-role="table"]');
    assert.equal(await sec.count(), 1);
    const figs = sec.locator('[data-role="figures"]');
    // The page's figures are the engine's numbers, and shown as the page formats them.
    assert.equal(Number(await figs.getAttribute('data-alpha-s')), tbl.fit.alpha_s);
    assert.equal(Number(await figs.getAttribute('data-beta-bps')), tbl.fit.beta_Bps);
    assert.equal(Number(await figs.getAttribute('data-rel-rms')), tbl.fit.rel_rms);
    assert.ok(Math.abs(tbl.fit.alpha_s - 2e-6) < 0.1e-6, `the fixture's alpha 2 us: ${tbl.fit.alpha_s}`);
    assert.ok((await figs.locator('[data-role="alpha"]').textContent()).includes(formatTime(tbl.fit.alpha_s)));
    assert.ok((await figs.locator('[data-role="alpha"]').textContent()).includes(formatTime(tbl.fit.latency_s)));
    const betaText = await figs.locator('[data-role="beta"]').textContent();
    assert.ok(betaText.includes(formatRate(tbl.fit.beta_Bps)), betaText);
    // Above or below the link by the engine's ratio.
    const lk = tbl.nearest_link;
    const word = Math.abs(lk.ratio - 1) < 0.005 ? 'about that of' : `${Number((Math.abs(lk.ratio - 1) * 100).toPrecision(2))}% ${lk.ratio > 1 ? 'above' : 'below'}`;
    assert.ok(betaText.includes(`${word} the lecture’s ${lk.label}`), `${word}: ${betaText}`);
    // The headline: the engine's plateau against the same link, and the best row beside it.
    const plateau = figs.locator('[data-role="plateau"]');
    assert.equal(Number(await figs.getAttribute('data-plateau-bps')), tbl.plateau_busbw_Bps);
    assert.equal(Number(await plateau.getAttribute('data-from-bytes')), tbl.plateau_from_bytes);
    const plateauText = await plateau.textContent();
    const pword = Math.abs(lk.plateau_ratio - 1) < 0.005 ? 'about that of' : `${Number((Math.abs(lk.plateau_ratio - 1) * 100).toPrecision(2))}% ${lk.plateau_ratio > 1 ? 'above' : 'below'}`;
    assert.ok(plateauText.includes(`${formatRate(tbl.plateau_busbw_Bps)} (the ${tbl.plateau_rows} largest sizes, from ${formatBytes(tbl.plateau_from_bytes)}), ${pword} the lecture’s ${lk.label}`), plateauText);
    const best = figs.locator('[data-role="best-row"]');
    assert.equal(Number(await best.getAttribute('data-busbw-bps')), tbl.best_row.busbw_Bps);
    assert.equal(Number(await best.getAttribute('data-line')), tbl.best_row.line);
    assert.ok((await best.textContent()).includes(`${formatRate(tbl.best_row.busbw_Bps)} at ${formatBytes(tbl.best_row.bytes)}`));
    assert.ok((await figs.locator('[data-role="rel-rms"]').textContent()).includes(formatPercent(tbl.fit.rel_rms)));
    assert.ok((await figs.locator('[data-role="n-half"]').textContent()).includes(formatBytes(tbl.n_half_bytes)));
    assert.match(await sec.locator('[data-role="sources"]').textContent(), /Collective test starting.*Rank lines/);

    // Out-of-place and in-place points: every size of each answer; the table holds the engine's values.
    const chart = sec.locator('[data-view="measured-chart"]');
    await chart.locator('canvas').waitFor();
    const positive = (rows) => rows.filter((r) => r.bytes > 0);
    assert.equal(Number(await chart.getAttribute('data-points-out')), positive(tbl.rows).length);
    assert.equal(Number(await chart.getAttribute('data-points-in')), positive(inPlace.tables[0].rows).length);
    assert.ok(positive(inPlace.tables[0].rows).length > 10);
    await chart.locator('[data-role="data-table"] summary').click();
    // The table is built when first opened (its toggle event comes after the click).
    await chart.locator('[data-role="data-table"] tbody tr').first().waitFor({ state: 'attached' });
    const cells = await chart.locator('[data-role="data-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      bytes: Number(tr.dataset.bytes),
      ...Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [Object.keys(td.dataset)[0], td.dataset[Object.keys(td.dataset)[0]]])),
    })));
    assert.equal(cells.length, positive(tbl.rows).length);
    for (const r of positive(tbl.rows)) {
      const c = cells.find((x) => x.bytes === r.bytes);
      const ip = inPlace.tables[0].rows.find((x) => x.bytes === r.bytes);
      assert.equal(Number(c.busbwBps), r.busbw_Bps);
      assert.equal(Number(c.inPlaceBusbwBps), ip.busbw_Bps);
      assert.equal(Number(c.modelBusbwBps), busBandwidth(tbl.factor, r.bytes, r.model_time_s));
      assert.equal(Number(c.linkBusbwBps), busBandwidth(tbl.factor, r.bytes, r.link_time_s));
      assert.equal(Number(c.residual), r.residual);
    }
    // busbw as nccl-tests prints it: the engine's own measured busbw is factor x S / time.
    const big = tbl.rows[tbl.rows.length - 1];
    assert.ok(Math.abs(busBandwidth(tbl.factor, big.bytes, big.time_s) / big.busbw_Bps - 1) < 1e-12);
    assert.equal(await sec.locator('[data-role="collapse"]').count(), 0);
    assert.equal(await sec.locator('[data-role="exceeds"]').count(), 0);

    exploreHref = await sec.locator('[data-role="use-in-explore"]').getAttribute('href');
    shareHref = await sec.locator('[data-role="share-link"]').getAttribute('href');
    assert.ok(!shareHref.includes('Rank'), 'the shared address carries no log');
    await sec.locator('[data-action="copy-link"]').click();
    await page.waitForFunction(() => document.querySelector('[data-role="copy-status"]')?.textContent.trim());
    assert.match(await page.locator('[data-role="kept"]').textContent(), /kept in this browser/);
    // A reload keeps the log (localStorage) and fits it again.
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
    await done(page);
    assert.equal(await page.locator('#m-log').inputValue(), CURRENT);
    assert.equal(Number(await page.locator('[data-role="figures"]').getAttribute('data-alpha-s')), tbl.fit.alpha_s);
  });

  // The reloaded page goes on: samples, the layout checks in English, a log too big to keep.
  test('the collapse sample: a band and a sentence at 64-128 MiB, axe-core finds nothing and no sideways scroll at 1280 and 390 px; the NVLS sample exceeds its link; garbage is the engine\'s error and the page goes on', async () => {
    await pickSample(page, 'synthetic_collapse.txt');
    assert.match(await page.locator('[data-role="sample-note"]').textContent(), /not a measurement.*Synthetic, not a measurement: made by/);
    const collapse = page.locator('[data-role="collapse"]');
    assert.equal(await collapse.count(), 1);
    assert.equal(await collapse.getAttribute('data-from-bytes'), String(64 * 1024 ** 2));
    assert.equal(await collapse.getAttribute('data-to-bytes'), String(128 * 1024 ** 2));
    const res = await engineEval(page, { op: 'fit', log: fixture('synthetic_collapse.txt') });
    const c = res.tables[0].collapses[0];
    const words = await collapse.textContent();
    assert.ok(words.includes('64 MiB') && words.includes('128 MiB') && words.includes(formatPercent(c.worst_ratio, 2)), words);
    assert.match(words, /protocol or algorithm/);
    assert.deepEqual(JSON.parse(await page.locator('[data-view="measured-chart"]').getAttribute('data-collapses')), [{ from_bytes: c.from_bytes, to_bytes: c.to_bytes }]);

    await layout(page, 'en');

    await pickSample(page, 'synthetic_nvls.txt');
    const nv = await engineEval(page, { op: 'fit', log: fixture('synthetic_nvls.txt') });
    assert.equal(nv.tables[0].exceeds_link, true);
    const exceeds = page.locator('[data-role="exceeds"]');
    assert.equal(await exceeds.count(), 1);
    assert.match(await exceeds.textContent(), /above NVLink 4’s nominal 450 GB\/s: no ring does that/);
    assert.equal(await page.locator('[data-role="notes"] li').first().textContent(), nv.tables[0].notes[0]);
    // Another link chosen: the request names it, the sentence says "the link chosen".
    await page.locator('[data-role="link"]').selectOption('nvlink5');
    await page.waitForFunction(() => /NVLink 5/.test(document.querySelector('[data-role="beta"]')?.textContent ?? ''));
    assert.match(await page.locator('[data-role="beta"]').textContent(), /below the lecture’s NVLink 5.*the link chosen/);
    assert.equal(await page.locator('[data-role="exceeds"]').count(), 0);
    await page.locator('[data-role="link"]').selectOption('');

    // NCCL's protocols under one line: the bends and the regimes the engine names, in the page's words.
    await pickSample(page, 'synthetic_nccl_protocols.txt');
    const pr = (await engineEval(page, { op: 'fit', log: fixture('synthetic_nccl_protocols.txt') })).tables[0];
    assert.ok(pr.bend_bytes.length > 0 && pr.regimes.length > 1, JSON.stringify(pr.regimes));
    const reg = page.locator('[data-role="regimes"]');
    assert.equal(await reg.getAttribute('data-bends'), pr.bend_bytes.join(' '));
    assert.equal(await reg.getAttribute('data-regimes'), pr.regimes.map((g) => `${g.algorithm}/${g.protocol}`).join(' '));
    const regText = await reg.textContent();
    for (const g of pr.regimes) assert.ok(regText.includes(`${g.algorithm}/${g.protocol} (${formatBytes(g.from_bytes)}`), regText);
    assert.match(regText, /residuals change sign at .* NVLink 4 picks .*P5 §5\.6/);
    assert.equal(await page.locator('[data-role="notes"] li').count(), pr.notes.length - 1);

    // Several tables: one section each.
    await pickSample(page, 'synthetic_two_runs.txt');
    assert.equal(await page.locator('[data-role="table"]').count(), 2);
    assert.match(await page.locator('[data-role="table"]').nth(1).locator('[data-role="no-explore"]').textContent(), /Explore/);

    // A chosen file and a dropped one are read into the box and fitted.
    await page.locator('[data-role="file"]').setInputFiles(join(FIXTURES, 'synthetic_rows_only.txt'));
    await page.waitForFunction(() => document.querySelector('#m-log').value.includes('bus bandwidth 150 GB/s'));
    await done(page);
    assert.equal(await page.locator('[data-role="table"]').count(), 1);
    assert.equal(await page.locator('[data-role="sources"]').textContent().then((x) => /busbw \/ algbw/.test(x)), true);
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'reducescatter.txt', { type: 'text/plain' }));
      document.querySelector('#m-log').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, fixture('synthetic_reducescatter_openmpi.txt'));
    await page.waitForFunction(() => document.querySelector('#m-log').value.includes('reduce_scatter_perf'));
    await done(page);
    assert.equal(await page.locator('[data-role="figures"]').getAttribute('data-collective'), 'reduce_scatter');

    await paste(page, 'hello\nworld\n');
    const err = await engineEval(page, { op: 'fit', log: 'hello\nworld\n' });
    assert.equal(await page.locator('[data-role="fit-error"]').isVisible(), true);
    assert.equal(await page.locator('[data-role="error-message"]').textContent(), err.error.message);
    assert.match(err.error.message, /field 'log': no nccl-tests table found/);
    assert.equal(await page.locator('[data-role="table"]').count(), 0);
    // Still working: a sample fits again.
    await pickSample(page, 'synthetic_allreduce_current.txt');
    assert.equal(await page.locator('[data-role="fit-error"]').isHidden(), true);
    assert.equal(await page.locator('[data-role="table"]').count(), 1);
  });

  test('a log too big to keep: fitted, said, not kept', async () => {
    // Over a million characters (a long comment line the reader skips): fitted, not kept.
    await paste(page, `${CURRENT}# ${'x'.repeat(1_100_000)}\n`);
    assert.equal(await page.locator('[data-role="table"]').count(), 1);
    assert.equal(await page.locator('[data-role="kept"]').getAttribute('data-kept'), 'too_big');
    assert.match(await page.locator('[data-role="kept"]').textContent(), /too big to keep/);
    assert.equal(await page.evaluate(() => localStorage.getItem('commlab.v2.measured')), null);
  });

  test('a log over the engine\'s limit: not fitted, and the kept note does not say it is', async () => {
    // 10 MB (the engine fits at most 8 MB): the engine refuses it; "Not fitted" beside "it is
    // fitted, but will not be here after a reload" said both (issue 44).
    await pasteLarge(page, `${CURRENT}# ${'x'.repeat(10_000_000)}\n`);
    assert.equal(await page.locator('[data-role="fit-status"]').getAttribute('data-state'), 'error');
    assert.equal(await page.locator('[data-role="fit-error"] [data-role="error-message"]').getAttribute('data-code'), 'too_large');
    assert.equal(await page.locator('[data-role="table"]').count(), 0);
    assert.equal(await page.locator('[data-role="kept"]').getAttribute('data-kept'), 'too_big');
    const kept = await page.locator('[data-role="kept"]').textContent();
    assert.match(kept, /too big to keep/);
    assert.doesNotMatch(kept, /fitted/, kept);
  });

  test('two sizes: the engine\'s caveat stands instead of the quality sentence', async () => {
    const rows = [
      '     2097152        524288     float     sum      -1    113.2   18.53   18.53      0    93.35   22.46   22.46      0',
      '     4194304       1048576     float     sum      -1    154.4   27.16   27.16      0    153.3   27.37   27.37      0',
    ];
    const log = `# Collective test starting: all_reduce_perf\n${rows.join('\n')}\n`;
    await paste(page, log);
    const out = await engineEval(page, { op: 'fit', log });
    assert.equal(out.tables[0].fit.caveat, 'two_sizes');
    const figs = page.locator('[data-role="table"] [data-role="figures"]');
    assert.equal(await figs.getAttribute('data-caveat'), 'two_sizes');
    assert.equal(await figs.locator('[data-role="rel-rms"]').count(), 0);
    assert.match(await figs.locator('[data-role="fit-caveat"]').textContent(), /Only two sizes: α and β pass through any two points exactly/);
    // The copied link carries no verdict either.
    assert.doesNotMatch(await page.locator('[data-role="share-link"]').getAttribute('href'), /rel_rms=/);
  });

  test('a table at the engine\'s size limit (over 60,000 rows) is drawn: chart and figures; 2,000 of its rows in the table, said', async () => {
    // All-reduce on 8 ranks (the fixture's header), alpha 2 us a step, bus bandwidth 360 GB/s:
    // rows of distinct sizes, as many as fit in the engine's 8,000,000 bytes. The chart's
    // Math.max(...values) overflowed the stack at 45,000 rows (issue 44).
    const head = CURRENT.slice(0, CURRENT.indexOf('           0             0'));
    const lines = [head];
    let bytes = head.length;
    for (let i = 0; ; ++i) {
      const size = 1_000_000 + 1024 * i;
      const timeUs = Number((14 * 2 + (1.75 * size) / 360e9 * 1e6).toFixed(2));
      const algbw = size / timeUs / 1e3;
      const cols = (t) => `${t.toFixed(2).padStart(9)}${algbw.toFixed(2).padStart(8)}${(algbw * 1.75).toFixed(2).padStart(8)}       0`;
      const line = `${String(size).padStart(12)}${String(size / 4).padStart(14)}     float     sum      -1${cols(timeUs)}${cols(timeUs)}\n`;
      if (bytes + line.length > 8_000_000) break;
      lines.push(line);
      bytes += line.length;
    }
    const rows = lines.length - 1;
    assert.ok(rows > 60_000, `${rows} rows`);
    // A page of its own, closed after: its 67,000-row table is not the next test's to carry.
    const page = await watched(ctx);
    await visit(page, '?view=measured');
    await pasteLarge(page, lines.join(''), 120000);
    assert.equal(await page.locator('[data-role="fit-status"]').getAttribute('data-state'), 'done');
    const chart = page.locator('[data-view="measured-chart"]');
    await chart.locator('canvas').waitFor();
    assert.equal(Number(await chart.getAttribute('data-points-out')), rows);
    assert.ok(Math.abs(Number(await page.locator('[data-role="figures"]').getAttribute('data-beta-bps')) / 360e9 - 1) < 0.01);
    // The table: 2,000 of the sizes, evenly spaced from the first, and says so.
    await page.locator('[data-role="data-table"] summary').click();
    await page.locator('[data-role="data-table"] tbody tr').nth(1999).waitFor({ state: 'attached', timeout: 60000 });
    assert.equal(await page.locator('[data-role="data-table"] tbody tr').count(), 2000);
    assert.equal(await page.locator('[data-role="data-table"] tbody tr').first().getAttribute('data-bytes'), '1000000');
    const sample = page.locator('[data-role="table-sample"]');
    assert.deepEqual([await sample.getAttribute('data-shown'), await sample.getAttribute('data-total')], ['2000', String(rows)]);
    assert.match(await sample.innerText(), new RegExp(`2,000 of the ${rows.toLocaleString('en')} sizes`));
    // What the view keeps of a log (localStorage) goes, so that no later load pastes it again.
    await page.evaluate(() => {
      const box = document.querySelector('#m-log');
      box.value = '';
      box.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.close();
  });

  test('the language switch keeps the log and the figures; in Chinese too nothing scrolls sideways at 1280 and 390 px', async () => {
    await paste(page, CURRENT);
    const alpha = await page.locator('[data-role="figures"]').getAttribute('data-alpha-s');
    await page.locator('[data-action="language"]').click();
    await page.waitForFunction(() => document.querySelector('#measured-title')?.textContent.startsWith('实测'));
    assert.equal(await page.locator('[data-role="figures"]').getAttribute('data-alpha-s'), alpha);
    assert.match(await page.locator('[data-role="beta"]').textContent(), /拟合直线的 β/);
    assert.match(await page.locator('[data-role="plateau"]').textContent(), /总线带宽平台/);
    assert.equal(await page.locator('#m-log').inputValue(), CURRENT);
    await pickSample(page, 'synthetic_collapse.txt');
    await layout(page, 'zh');
    // Back to English (the choice is remembered) for the pages that follow.
    await page.locator('[data-action="language"]').click();
    await page.waitForFunction(() => document.querySelector('#measured-title')?.textContent.startsWith('Measured'));
  });

  test('"Use in Explore" opens Explore with the fitted alpha and beta as its custom link; an embedded exercise has no link to the view', async () => {
    assert.ok(exploreHref, 'the first test found the link');
    const tbl = answerOut.tables[0];
    await visit(page, exploreHref);
    assert.equal(await page.locator('#x-collective').inputValue(), 'allreduce');
    assert.equal(await page.locator('#x-algorithm').inputValue(), 'ring');
    assert.equal(await page.locator('#x-devices').inputValue(), String(tbl.ranks));
    assert.equal(await page.locator('#x-link').inputValue(), '', 'a custom link');
    const alphaUs = Number(await page.locator('#x-alpha').inputValue());
    const betaGBps = Number(await page.locator('#x-beta').inputValue());
    assert.equal(alphaUs, Number((tbl.fit.alpha_s * 1e6).toPrecision(12)));
    assert.equal(betaGBps, Number((tbl.fit.beta_Bps / 1e9).toPrecision(12)));
    assert.ok(alphaUs > 1.9 && alphaUs < 2.1, `alpha ${alphaUs} us`);
    assert.equal(await page.locator('#link-problems').isHidden(), true);
    await visit(page, '?exercise=1&embed=1');
    assert.equal(await page.locator('#measured-link').count(), 0);
  });

  test('the copied link restores the figures, says the log stayed where it was pasted; a bad figure in it is named; storage refused: said, and the fit still shows', async () => {
    const tbl = answerOut.tables[0];
    // Storage that refuses every write, from the first script on.
    const refusing = await lab.browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    await refusing.addInitScript(() => {
      Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
    });
    const page = await watched(refusing);
    await visit(page, shareHref);
    const shared = page.locator('[data-role="shared"]');
    await shared.waitFor();
    const figs = shared.locator('[data-role="figures"]');
    assert.equal(Number(await figs.getAttribute('data-alpha-s')), tbl.fit.alpha_s);
    assert.equal(Number(await figs.getAttribute('data-beta-bps')), tbl.fit.beta_Bps);
    assert.equal(Number(await figs.getAttribute('data-rel-rms')), tbl.fit.rel_rms);
    assert.ok((await figs.locator('[data-role="beta"]').textContent()).includes(formatRate(tbl.fit.beta_Bps)));
    assert.ok((await figs.locator('[data-role="beta"]').textContent()).includes(tbl.nearest_link.label));
    assert.ok((await figs.locator('[data-role="rel-rms"]').textContent()).includes(formatPercent(tbl.fit.rel_rms)));
    assert.match(await shared.locator('[data-role="shared-note"]').textContent(), /stays on the machine it was pasted on/);
    assert.equal(await page.locator('#m-log').inputValue(), '', 'no log came with the link');
    assert.ok(await shared.locator('[data-role="use-in-explore"]').count());
    // A figure that is not a number: named, the others shown.
    const bad = shareHref.replace(/rel_rms=[^&]*/, 'rel_rms=lots');
    await visit(page, bad);
    await page.locator('[data-role="shared"]').waitFor();
    assert.match(await page.locator('#link-problems').textContent(), /rel_rms: "lots" is not allowed; allowed: a fraction/);
    assert.equal(await page.locator('[data-role="shared"] [data-role="rel-rms"]').count(), 0);
    // A log pasted there is fitted; the page says it could not be kept.
    await paste(page, CURRENT);
    assert.equal(await page.locator('[data-role="table"]').count(), 1);
    assert.equal(await page.locator('[data-role="kept"]').getAttribute('data-kept'), 'refused');
    await refusing.close();
  });
});
