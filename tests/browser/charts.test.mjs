// The charts in headless Chromium, on one page of the file (the eight cards, then Explore, in
// English, then both in Chinese; 1280 and 390 px by resizing it): exercise 3's crossover
// boundaries against a bisection run here on the engine's closed forms, its "fastest" against the
// calculator's best, Explore's player and chart on the same devices, topology and time (Explore's
// settings given through its controls), every chart's data-lecture, and the charts' widths and
// screenshots (English and Chinese, 1280 and 390 px).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, engineEval, exploreSet, openPage, PHONE, screenshotDir, shot, useLab } from './helpers.mjs';

const errors = [];

const lab = useLab();
after(() => assert.deepEqual(errors, []));

/**
 * In the page, with its own engine: where the cheapest of `algorithms` changes between 1 B and
 * 1 GB, found by scanning 50 sizes a decade and bisecting each change (log size) to 1e-6, on
 * the engine's `allreduce` closed forms. Written apart from the engine's `crossover` op.
 */
function bisectInPage(page, { devices, link, algorithms }) {
  return page.evaluate(async ({ devices, link, algorithms }) => {
    const mod = await import('./engine/commlab.js');
    // A fresh engine of the page's own module, with the documents the page serves.
    if (!globalThis.__testEngine) {
      const docs = (await import('./boot.js')).__core['engine/documents.js'];
      const served = await docs.fetchDocuments(new URL('exercises/', location.href));
      globalThis.__testEngine = await mod.loadCommlab({ exercises: served.files });
    }
    const lab = globalThis.__testEngine;
    const cheapest = (bytes) => {
      let best = null;
      let bestT = Infinity;
      for (const a of algorithms) {
        const t = lab.evaluate({ op: 'allreduce', algorithm: a, devices, bytes, link }).time_s;
        if (t < bestT) { bestT = t; best = a; }
      }
      return best;
    };
    const out = [];
    const n = 9 * 50;
    let lo = 1;
    let wLo = cheapest(lo);
    for (let i = 1; i <= n; ++i) {
      const hi = 10 ** (9 * i / n);
      const wHi = cheapest(hi);
      if (wHi !== wLo) {
        let a = lo;
        let b = hi;
        while (b / a > 1 + 1e-6) {
          const m = Math.sqrt(a * b);
          if (cheapest(m) === wLo) a = m; else b = m;
        }
        out.push({ bytes: Math.sqrt(a * b), from: wLo, to: wHi });
      }
      lo = hi;
      wLo = wHi;
    }
    return out;
  }, { devices, link, algorithms });
}

const EX3 = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree'];
const ex3Chart = '[data-exercise="3"] [data-view="crossover"]';

/** Sets exercise 3's calculator (display units: KB, µs, GB/s) and waits for its chart to follow. */
async function setEx3(page, { devices, kb, us, gbps }) {
  const card = page.locator('[data-exercise="3"]');
  if (us != null) await card.locator('[data-param="alpha_s"]').fill(String(us));
  if (gbps != null) await card.locator('[data-param="beta_Bps"]').fill(String(gbps));
  await card.locator('[data-param="bytes"]').fill(String(kb));
  await card.locator('[data-param="devices"]').fill(String(devices));
  await page.waitForFunction(([sel, k, b]) => {
    const el = document.querySelector(sel);
    return el && el.dataset.devices === String(k) && Number(el.dataset.bytes) === b && !el.hasAttribute('aria-busy');
  }, [ex3Chart, devices, kb * 1000], { timeout: 20000 });
}

/** Loads `query` in the file's page and waits until it is ready. */
async function go(page, query) {
  await page.goto(`${lab.server.url}${query}`);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

/** Scrolls to the live card `n` of the cards page (its prerendered twin replaced). */
function toCard(page, n) {
  return page.locator(`section.card[data-exercise="${n}"]:not([data-prerendered])`).scrollIntoViewIfNeeded();
}

const CARD_SHOTS = [
  ['ex1', 1, async (p) => { await p.locator('[data-exercise="1"] [data-param="bytes"]').fill('128'); await p.waitForSelector('[data-view="bandwidth"][data-fraction] canvas'); }],
  ['ex3', 3, async (p) => setEx3(p, { devices: 10, kb: 1000 })],
  ['ex7', 7, async (p) => { await p.locator('[data-exercise="7"] [data-param="devices"]').fill('16'); await p.waitForSelector('[data-view="ring-attention"] canvas'); }],
];
const EXPLORE_SHOTS = [
  ['explore', '?view=explore&devices=8&bytes=1000000', async (p) => { await p.waitForSelector('[data-view="nccl"][data-boundaries] canvas'); await p.waitForSelector('[data-view="crossover"][data-boundaries] canvas'); }],
  ['explore-ring', '?view=explore&devices=8&bytes=1000000&topology=ring', async (p) => { await p.waitForSelector('[data-view="crossover"][data-source="simulate"] canvas'); }],
  ['explore-two-level', '?view=explore&algorithm=hierarchical&devices=16&gpus_per_node=8&topology=two_level&bytes=1000000&link=ib_ndr&intra_link=nvlink4', async (p) => { await p.waitForSelector('[data-view="crossover"][data-source="simulate"] canvas'); }],
  ['explore-not-allowed', '?view=explore&devices=10&gpus_per_node=8&topology=two_level', async (p) => { await p.waitForSelector('[data-role="settings-error"]:not([hidden])'); }],
];

/**
 * At 1280 and then 390 px (the page resized), after `setup`: the page no wider than the viewport
 * and no chart wider than its box (a clipped canvas); screenshots of `target` and of each of its
 * charts under ./lab screenshots. Leaves the page at 1280 px.
 */
async function checkWidths(page, { name, lang, target, setup }) {
  const dir = screenshotDir();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await setup(page);
    await page.waitForTimeout(300);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `${name} ${lang}: page is ${width}px wide in a ${viewport.width}px viewport`);
    const over = await page.locator('.chart .chart-box').evaluateAll((els) => els.filter((e) => !e.closest('[hidden]') && e.scrollWidth > e.clientWidth + 1).length);
    assert.equal(over, 0, `${name} ${lang} ${viewport.width}: a chart overflows its box`);
    await shot(page.locator(target), { path: join(dir, `chart-${name}-${lang}-${viewport.width}.png`) });
    // Each chart on its own too, to be read at phone size.
    const charts = page.locator(`${target} .chart:not([hidden])`);
    for (let i = 0; i < await charts.count(); ++i) {
      const view = await charts.nth(i).getAttribute('data-view');
      await shot(charts.nth(i), { path: join(dir, `chart-${name}-${view}-${lang}-${viewport.width}.png`) });
    }
  }
  await page.setViewportSize(DESKTOP);
}

/** The exercises' charts (on the cards page), then Explore's (loaded in `lang`), through checkWidths. */
async function checkCardWidths(page, lang) {
  for (const [name, n, setup] of CARD_SHOTS) {
    await checkWidths(page, { name, lang, target: `[data-exercise="${n}"] [data-role="visuals"]`, setup: async (p) => { await toCard(p, n); await setup(p); } });
  }
}
async function checkExploreWidths(page, lang) {
  for (const [name, query, setup] of EXPLORE_SHOTS) {
    await checkWidths(page, { name, lang, target: '[data-view="explore"]', setup: async (p) => { await exploreSet(p, query); await setup(p); } });
  }
}

// The visible charts' [view, data-lecture] under `scope`.
const lecturesOf = (page, scope) => page.locator(`${scope} .chart[data-view]`).evaluateAll((els) =>
  els.filter((e) => !e.closest('[hidden]')).map((e) => [e.dataset.view, e.dataset.lecture]));
const LECTURES = { bandwidth: '3', crossover: '5.3', nccl: '5.6', 'ring-attention': '6.5' };
let lecturesChecked = 0;

describe('charts', () => {
  // One page for the file: English cards, English Explore, then Chinese (made in the describe's
  // before: a root-level one runs before useLab's has a browser).
  let ctx;
  let page;
  before(async () => {
    ctx = await lab.fresh(DESKTOP);
    page = await openPage(ctx, `${lab.server.url}?lang=en`, errors);
  });
  after(() => ctx?.close());

  test('exercise 3: data-boundaries are within 0.1% of a bisection on the closed forms, among the four algorithms', async () => {
    await toCard(page, 3);
    const settings = [
      { devices: 16, kb: 1000, us: 5, gbps: 40 }, // the exercise's link: the 376.5 KB
      { devices: 10, kb: 1000, us: 5, gbps: 40 },
      { devices: 8, kb: 64, us: 2, gbps: 360 },
      { devices: 33, kb: 512, us: 20, gbps: 2.5 },
    ];
    for (const v of settings) {
      await setEx3(page, v);
      const root = page.locator(ex3Chart);
      assert.equal(await root.getAttribute('data-lecture'), '5.3');
      assert.equal(await root.getAttribute('data-source'), 'closed_form');
      const shown = JSON.parse(await root.getAttribute('data-boundaries'));
      const want = await bisectInPage(page, { devices: v.devices, link: { alpha_s: v.us * 1e-6, beta_Bps: v.gbps * 1e9 }, algorithms: EX3 });
      assert.ok(want.length >= 1, `a crossover exists for ${JSON.stringify(v)}`);
      assert.equal(shown.length, want.length, JSON.stringify({ v, shown, want }));
      shown.forEach((b, i) => {
        assert.equal(b.from, want[i].from);
        assert.equal(b.to, want[i].to);
        assert.ok(Math.abs(b.bytes / want[i].bytes - 1) < 1e-3, `${b.bytes} vs ${want[i].bytes}`);
        assert.ok(EX3.includes(b.from) && EX3.includes(b.to));
      });
      // Only the four algorithms are drawn (legend and table).
      const series = await root.locator('.u-legend .u-series').count();
      assert.equal(series, EX3.length + 1); // the x column and four series
    }
    // The reference: 16 GPUs, 40 GB/s, 5 µs cross at 376.5 KB.
    await setEx3(page, settings[0]);
    const ref = JSON.parse(await page.locator(ex3Chart).getAttribute('data-boundaries'));
    assert.equal(ref.length, 1);
    assert.ok(Math.abs(ref[0].bytes - 376.5e3) < 100, `${ref[0].bytes}`);
    assert.match(await page.locator(`${ex3Chart} .chart-note`).textContent(), /376\.5 KB/);
  });

  test('exercise 3: the chart\'s fastest is the calculator\'s best', async () => {
    await toCard(page, 3);
    const variants = [
      { devices: 10, kb: 1000, us: 5, gbps: 40 }, // the case: Rabenseifner, not the double binary tree
      { devices: 16, kb: 64, us: 5, gbps: 40 },
      { devices: 33, kb: 8000, us: 5, gbps: 40 },
      { devices: 4, kb: 16, us: 2, gbps: 360 },
      { devices: 64, kb: 256, us: 20, gbps: 2.5 },
    ];
    const doc = await engineEval(page, { op: 'exercise.get', id: 3 });
    // The calculator names a choice by the answer of that id (card.js labelOf).
    const labelOf = (id) => doc.answers.find((a) => a.id === id).label.en;
    const seen = new Set();
    for (const v of variants) {
      await setEx3(page, v);
      const params = { devices: v.devices, bytes: v.kb * 1000, alpha_s: v.us * 1e-6, beta_Bps: v.gbps * 1e9 };
      const solved = await engineEval(page, { op: 'exercise.solve', id: 3, params });
      const fastest = await page.locator(ex3Chart).getAttribute('data-fastest');
      assert.equal(fastest, solved.answers.best, JSON.stringify(v));
      // The calculator shows the same choice, in words.
      const label = labelOf(solved.answers.best);
      await page.waitForFunction((want) => document.querySelector('[data-exercise="3"] [data-result="best"]')?.textContent === want,
        label, { timeout: 10000 });
      seen.add(fastest);
      // With the cursor off the chart its legend shows each algorithm at the asked size: the
      // calculator's figures.
      const legend = await page.locator(`${ex3Chart} .u-legend .u-series .u-value`).allInnerTexts();
      const calc = [];
      for (const id of ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree']) calc.push(await page.locator(`[data-exercise="3"] [data-result="${id}"]`).innerText());
      const seconds = (text) => {
        const m = text.replace(/,/g, '').match(/^([\d.]+)\s*(s|ms|µs|ns)$/);
        return m ? Number(m[1]) * { s: 1, ms: 1e-3, 'µs': 1e-6, ns: 1e-9 }[m[2]] : NaN;
      };
      legend.slice(1).forEach((text, i) => {
        const want = seconds(calc[i]);
        assert.ok(Math.abs(seconds(text) - want) <= 5e-3 * want, `${JSON.stringify(v)}: legend ${text}, calculator ${calc[i]}`);
      });
    }
    assert.ok(seen.size >= 2, `the variants reach more than one winner: ${[...seen]}`);
  });

  test('exercises 1, 3 and 7: each chart names its lecture section, exercise 1 marks the asked size in ten colours; English at 1280 and 390 px: nothing wider than the viewport or its box (screenshots)', async () => {
    const setups = {
      1: async (p) => { await p.locator('[data-exercise="1"] [data-param="bytes"]').fill('128'); await p.waitForSelector('[data-view="bandwidth"][data-fraction]'); },
      3: async (p) => setEx3(p, { devices: 12, kb: 256 }),
      7: async (p) => { await p.locator('[data-exercise="7"] [data-param="devices"]').fill('16'); await p.waitForSelector('[data-view="ring-attention"] canvas'); },
    };
    for (const [n, setup] of Object.entries(setups)) {
      await toCard(page, n);
      await setup(page);
      // The card's charts (the page of the card alone shows those and no other).
      const views = await lecturesOf(page, `[data-exercise="${n}"]`);
      assert.ok(views.length >= 1, `exercise ${n}`);
      for (const [view, lecture] of views) {
        assert.equal(lecture, LECTURES[view], `exercise ${n}: ${view}`);
        lecturesChecked += 1;
      }
    }
    // Exercise 1: one colour a series, the exercise's link in its own; the asked size marked. (The
    // chart is drawn a frame after its answer: wait for its legend.)
    const legend = '[data-exercise="1"] [data-view="bandwidth"] .u-legend .u-series:not(:first-child) .u-marker';
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 10, legend, { timeout: 15000 });
    const colours = await page.locator(legend).evaluateAll((els) => els.map((e) => getComputedStyle(e).borderColor || getComputedStyle(e).backgroundColor));
    assert.equal(colours.length, 10);
    assert.equal(new Set(colours).size, 10, colours.join(' '));
    const res = await engineEval(page, { op: 'transfer', link: { alpha_s: 2e-6, beta_Bps: 3.6e11 }, bytes: 128e3 });
    const root = page.locator('[data-exercise="1"] [data-view="bandwidth"]');
    assert.equal(await root.getAttribute('data-bytes'), '128000');
    assert.ok(res.error || Number(await root.getAttribute('data-fraction')) > 0);
    await checkCardWidths(page, 'en');
  });

  test('Explore: settings the engine cannot draw say so, naming the control and the range', async () => {
    for (const [query, pattern] of [
      ['?view=explore&devices=10&gpus_per_node=8&topology=two_level&algorithm=ring', /Devices: 10 is not a multiple of GPUs per node \(8\)/],
      ['?view=explore&devices=1', /Devices: 1 is not allowed; enter a whole number from 2 to 1,024/],
    ]) {
      await go(page, query);
      const problem = page.locator('[data-role="settings-error"]');
      await problem.waitFor();
      assert.match(await problem.textContent(), pattern);
      assert.equal(await page.locator('[data-view="schedule"]').isHidden(), true);
      assert.equal(await page.locator('[data-view="crossover"]').isHidden(), true);
      // The control keeps what was asked; fixing it brings the pictures back.
      assert.equal(await page.locator('[data-setting="devices"]').inputValue(), new URLSearchParams(query).get('devices'));
      await page.locator('[data-setting="devices"]').fill('16');
      await page.waitForFunction(() => document.querySelector('[data-view="schedule"]')?.dataset.devices === '16', null, { timeout: 20000 });
      assert.equal(await problem.isHidden(), true);
    }
    // Off the switch beyond 64 devices the chart is not drawn, and says why; the player runs.
    await exploreSet(page, '?view=explore&devices=128&topology=ring&algorithm=ring');
    await page.waitForFunction(() => document.querySelector('[data-view="schedule"]')?.dataset.devices === '128', null, { timeout: 20000 });
    const chart = page.locator('[data-view="crossover"]');
    await page.waitForFunction(() => document.querySelector('[data-view="crossover"]')?.dataset.source === 'none');
    assert.equal(await chart.getAttribute('data-devices'), '128');
    assert.equal(await chart.locator('.chart-box').isHidden(), true);
    assert.match(await chart.locator('.chart-note').textContent(), /up to 64 devices \(here 128\)/);
    // The slider's arrow keys step one device at a time, and say the count.
    await page.locator('[data-slider="devices"]').focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.locator('[data-setting="devices"]').inputValue(), '127');
    assert.equal(await page.locator('[data-slider="devices"]').getAttribute('aria-valuetext'), '127 devices');
    // Two levels: both links labelled and the intra-node one selectable; custom α in µs, β in GB/s.
    await exploreSet(page, '?view=explore&algorithm=hierarchical&devices=16&gpus_per_node=8&topology=two_level&link=ib_ndr');
    assert.equal(await page.locator('label[for="x-intra-link"]').textContent(), 'Intra-node link');
    assert.equal(await page.locator('label[for="x-link"]').textContent(), 'Inter-node link');
    await page.locator('[data-setting="intra_link"]').selectOption('pcie5');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('intra_link') === 'pcie5');
    await page.locator('[data-setting="link"]').selectOption('');
    await page.locator('[data-setting="alpha_s"]').fill('5');
    await page.locator('[data-setting="beta_Bps"]').fill('40');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('beta_Bps') === '40000000000');
    const q = new URL(page.url()).searchParams;
    assert.equal(q.get('alpha_s'), '0.000005');
    const run = await engineEval(page, { op: 'simulate', algorithm: 'hierarchical', topology: 'two_level', nodes: 2, gpus_per_node: 8, bytes: 1e6, intra_link: 'pcie5', inter_link: { alpha_s: 5e-6, beta_Bps: 4e10 }, mode: 'accounting' });
    await page.waitForFunction((t) => Number(document.querySelector('[data-view="crossover"]')?.dataset.timeS) === t, run.time_s, { timeout: 20000 });
  });

  test('Explore: the player and the chart show the same devices, topology and time', async () => {
    const cases = [
      ['?view=explore&algorithm=ring&devices=8&bytes=1000000&topology=ring&link=nvlink4', 'simulate'],
      ['?view=explore&algorithm=recursive_doubling&devices=12&bytes=65536&topology=ring&link=ib_ndr', 'simulate'],
      ['?view=explore&algorithm=hierarchical&devices=16&gpus_per_node=8&topology=two_level&bytes=1000000&link=ib_ndr&intra_link=nvlink4', 'simulate'],
      ['?view=explore&algorithm=ring&devices=16&gpus_per_node=4&topology=two_level&bytes=4000000&link=ib_ndr&intra_link=pcie5', 'simulate'],
      ['?view=explore&algorithm=rabenseifner&devices=12&bytes=65536&topology=switch&link=ib_ndr', 'closed_form'],
      ['?view=explore&algorithm=double_binary_tree&devices=10&bytes=4000000&topology=switch&link=nvlink4', 'closed_form'],
    ];
    for (const [query, source] of cases) {
      await exploreSet(page, query);
      const q = new URLSearchParams(query);
      const two = q.get('topology') === 'two_level';
      const k = Number(q.get('devices'));
      const req = {
        op: 'simulate', collective: 'allreduce', algorithm: q.get('algorithm'), bytes: Number(q.get('bytes')), mode: 'accounting',
        ...(two ? { topology: 'two_level', nodes: k / Number(q.get('gpus_per_node')), gpus_per_node: Number(q.get('gpus_per_node')), intra_link: q.get('intra_link'), inter_link: q.get('link') }
          : { topology: q.get('topology'), devices: k, link: q.get('link') }),
      };
      const run = await engineEval(page, req);
      assert.ok(!run.error, JSON.stringify(run));
      await page.waitForFunction((n) => document.querySelector('[data-view="schedule"]')?.dataset.steps === String(n), run.steps, { timeout: 20000 });
      await page.waitForFunction(() => document.querySelector('[data-view="crossover"]')?.dataset.timeS, null, { timeout: 20000 });
      const player = page.locator('[data-view="schedule"]');
      const chart = page.locator('[data-view="crossover"]');
      assert.equal(await player.getAttribute('data-devices'), String(k), query);
      assert.equal(await chart.getAttribute('data-devices'), String(k), query);
      assert.equal(await chart.getAttribute('data-source'), source, query);
      assert.equal(await chart.getAttribute('data-algorithm'), q.get('algorithm'));
      const charted = Number(await chart.getAttribute('data-time-s'));
      assert.ok(Math.abs(charted / run.time_s - 1) < 1e-9, `${query}: chart ${charted} s, player ${run.time_s} s`);
      // The player's last step shows that total, as the chart's mark does.
      await player.locator('[data-action="last"]').click();
      const shown = await page.evaluate(async (s) => ((await import('./boot.js')).__core['util/units.js']).formatTime(s), run.time_s);
      assert.ok((await player.locator('.player-status').textContent()).includes(`/ ${shown}`), `${query}: ${shown}`);
      if (source === 'simulate') assert.equal(await chart.getAttribute('data-boundaries'), null);
      else assert.ok(JSON.parse(await chart.getAttribute('data-boundaries')).length >= 1);
    }
  });

  test('Explore: its charts name their lecture sections; English at 1280 and 390 px: nothing wider than the viewport or its box (screenshots)', async () => {
    await exploreSet(page, '?view=explore&devices=8');
    await page.waitForSelector('[data-view="nccl"][data-boundaries]');
    await page.waitForSelector('[data-view="crossover"][data-boundaries]');
    const views = await lecturesOf(page, 'main');
    assert.ok(views.length >= 1, 'Explore');
    for (const [view, lecture] of views) {
      assert.equal(lecture, LECTURES[view], `Explore: ${view}`);
      lecturesChecked += 1;
    }
    assert.ok(lecturesChecked >= 5, `${lecturesChecked} chart views name their section`);
    await checkExploreWidths(page, 'en');
  });

  test('Chinese: the exercises\' and Explore\'s charts at 1280 and 390 px: nothing wider than the viewport or its box (screenshots)', async () => {
    await go(page, '?lang=zh');
    await checkCardWidths(page, 'zh');
    await go(page, '?view=explore&lang=zh');
    await checkExploreWidths(page, 'zh');
  });
});
