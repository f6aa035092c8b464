// The schedule player against the engine (web/README.md "Views"): for a sample of every all-reduce
// algorithm at 3-64 devices, flat and on two levels, and the other collectives, each step's drawn
// [data-message] set (from, to, bytes, level) equals the engine's trace for that step, no message
// passes through a device but its two ends, and the collectives that have a result everywhere end
// with every device data-complete="true". The checks run inside the page (one evaluate per batch).
// Then Explore's and exercise 4's players, English and Chinese, 1280 and 390 px: one page for the
// file, resized between widths, Explore's settings given through its controls.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, exploreSet, openPage, PHONE, screenshotDir, shot, useLab } from './helpers.mjs';

let page;
const errors = [];

const lab = useLab();

/**
 * Runs `cases` (player settings) in the page: each through a fresh player of the page's own
 * module, stepped forward to the end, compared with the engine's answer to the same request.
 * Resolves to {checked, failures}.
 */
function runCases(cases) {
  return page.evaluate(async (list) => {
    const { createPlayer, simulateRequest } = await (await import('./boot.js')).__lazy['views/player.js']();
    const mod = await import('./engine/commlab.js');
    // A fresh engine of the page's own module, with the documents the page serves.
    if (!globalThis.__testEngine) {
      const docs = (await import('./boot.js')).__core['engine/documents.js'];
      const served = await docs.fetchDocuments(new URL('exercises/', location.href));
      globalThis.__testEngine = await mod.loadCommlab({ exercises: served.files });
    }
    const engine = globalThis.__testEngine;
    const box = document.createElement('div');
    box.style.width = '640px';
    document.body.append(box);
    const failures = [];
    let checked = 0;
    const fail = (c, what) => { if (failures.length < 40) failures.push(`${JSON.stringify(c)}: ${what}`); };
    for (const c of list) {
      const player = createPlayer('en', { key: 'player-test' });
      box.replaceChildren(player.root);
      if (!(await player.update(c))) { fail(c, 'not drawn'); continue; }
      const raw = engine.evaluate(simulateRequest(c, { mode: 'accounting', trace_limit: 20000 }));
      const res = typeof raw === 'string' ? JSON.parse(raw) : raw;
      const root = player.root;
      const k = res.devices;
      if (root.dataset.steps !== String(res.steps)) fail(c, `data-steps ${root.dataset.steps} vs ${res.steps}`);
      if (!root.dataset.lecture) fail(c, 'no data-lecture');
      const devs = [...root.querySelectorAll('g.device[data-device]')];
      if (devs.length !== k) fail(c, `${devs.length} devices drawn, engine ran ${k}`);
      // Two levels: node and local rank on every device, the same local rank aligned.
      if (res.topology.kind === 'two_level') {
        const G = res.topology.gpus_per_node;
        const centres = devs.map((g) => { const b = g.querySelector('.dev').getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; });
        devs.forEach((g, i) => {
          if (g.dataset.node !== String(Math.floor(i / G)) || g.dataset.local !== String(i % G)) fail(c, `device ${i} node/local ${g.dataset.node}/${g.dataset.local}`);
        });
        const axis = centres.every((p, i) => Math.abs(p[0] - centres[i % G][0]) < 0.01) ? 0 : centres.every((p, i) => Math.abs(p[1] - centres[i % G][1]) < 0.01) ? 1 : -1;
        if (axis < 0) fail(c, 'GPUs of one local rank are not aligned');
      }
      // Device shapes, to check that no message crosses a device other than its ends.
      const shapes = devs.map((g) => {
        const el = g.querySelector('.dev');
        if (el.tagName === 'circle') return { cx: +el.getAttribute('cx'), cy: +el.getAttribute('cy'), r: +el.getAttribute('r') };
        const b = el.getBBox();
        return { x: b.x, y: b.y, w: b.width, h: b.height };
      });
      const inside = (s, p) => (s.r != null ? Math.hypot(p.x - s.cx, p.y - s.cy) < s.r - 0.5
        : p.x > s.x + 0.5 && p.x < s.x + s.w - 0.5 && p.y > s.y + 0.5 && p.y < s.y + s.h - 0.5);
      const fwd = root.querySelector('[data-action="step-forward"]');
      const steps = res.schedule.steps;
      for (let s = 0; s < steps.length; ++s) {
        fwd.click();
        if (root.dataset.step !== String(s + 1)) { fail(c, `data-step ${root.dataset.step} after ${s + 1} clicks`); break; }
        const key = (from, to, bytes, level) => `${from}>${to}:${Number(bytes)}:${level ?? ''}`;
        const want = (steps[s].trace ?? []).map((m) => key(m.src, m.dst, m.bytes, m.level)).sort();
        const msgs = [...root.querySelectorAll('[data-message]')];
        const got = msgs.map((e) => key(e.dataset.from, e.dataset.to, e.dataset.bytes, e.dataset.level)).sort();
        if (want.length !== steps[s].messages) fail(c, `trace of step ${s + 1} incomplete`);
        if (JSON.stringify(got) !== JSON.stringify(want)) { fail(c, `step ${s + 1}: drawn ${got.slice(0, 6)} vs engine ${want.slice(0, 6)}`); break; }
        // Geometry on a sample of steps (the first, the last, every fifth): it is the slow part.
        const sampled = s < 4 || s >= steps.length - 2 || s % 5 === 0;
        for (const e of sampled ? msgs : []) {
          const from = Number(e.dataset.from);
          const to = Number(e.dataset.to);
          const len = e.getTotalLength();
          for (let l = 0; l <= len; l += 3) {
            const p = e.getPointAtLength(l);
            const hit = shapes.findIndex((sh, d) => d !== from && d !== to && inside(sh, p));
            if (hit >= 0) { fail(c, `step ${s + 1}: message ${from}>${to} passes through device ${hit}`); break; }
          }
        }
        checked += 1;
      }
      if (['allreduce', 'allgather', 'reduce_scatter', 'alltoall'].includes(res.collective)) {
        const done = devs.filter((g) => g.dataset.complete === 'true').length;
        if (done !== k) fail(c, `${done} of ${k} devices complete at the last step`);
        // Before the first step no device holds its result (k >= 2).
        root.querySelector('[data-action="first"]').click();
        const early = devs.filter((g) => g.dataset.complete === 'true').length;
        if (early !== 0) fail(c, `${early} devices complete before the first step`);
      } else if (res.collective === 'broadcast') {
        const done = devs.filter((g) => g.dataset.complete === 'true').length;
        if (done !== k) fail(c, `broadcast: ${done} of ${k} devices hold the root's data at the end`);
      }
    }
    box.remove();
    return { checked, failures };
  }, cases);
}

/** Loads `query` in the page and waits until it is ready. */
async function go(query) {
  await page.goto(`${lab.server.url}${query}`);
  await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
}

// A sample of the matrix the player offers: every algorithm and collective, flat, on a ring and on
// two levels, small and at the 64 devices drawn one by one. The whole matrix is replayed without a
// page in tests/node/player_model.test.mjs; here the drawing is checked against the engine.
const flat = (s) => ({ bytes: 1e6, link: 'nvlink4', topology: 'switch', ...s });
const two = (nodes, gpus_per_node, s) => ({ nodes, gpus_per_node, bytes: 1e6, topology: 'two_level', intra_link: 'nvlink4', inter_link: 'ib_ndr', ...s });
const ALLREDUCE = [
  ...['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'].flatMap((algorithm) => [5, 16].map((devices) => flat({ algorithm, devices }))),
  flat({ algorithm: 'ring', devices: 64 }), flat({ algorithm: 'in_switch', devices: 64 }), flat({ algorithm: 'double_binary_tree', devices: 3 }),
  flat({ algorithm: 'ring', devices: 8, topology: 'ring' }), flat({ algorithm: 'recursive_doubling', devices: 5, topology: 'ring' }),
  two(2, 4, { algorithm: 'hierarchical' }), two(2, 4, { algorithm: 'ring' }), two(4, 8, { algorithm: 'hierarchical' }),
  two(4, 8, { algorithm: 'double_binary_tree' }), two(3, 8, { algorithm: 'rabenseifner' }), two(8, 2, { algorithm: 'ring' }),
];
const OTHERS = [
  flat({ collective: 'allgather', algorithm: 'ring', devices: 5 }), flat({ collective: 'reduce_scatter', algorithm: 'ring', devices: 8 }),
  flat({ collective: 'alltoall', algorithm: 'pairwise', devices: 12 }), flat({ collective: 'broadcast', algorithm: 'binomial_tree', devices: 16 }),
  flat({ collective: 'alltoall', algorithm: 'direct', devices: 8 }), flat({ collective: 'broadcast', algorithm: 'scatter_allgather', devices: 8 }),
  flat({ collective: 'reduce', algorithm: 'reduce_scatter_gather', devices: 3 }),
  { collective: 'allgather', algorithm: 'ring', nodes: 4, gpus_per_node: 4, bytes: 1e6, topology: 'two_level' },
  { collective: 'alltoall', algorithm: 'pairwise', nodes: 2, gpus_per_node: 8, bytes: 1e6, topology: 'two_level' },
];

describe('schedule player against the engine', () => {
  // In the suite: a root-level before runs at once in Node 20, before useLab's has a browser.
  let ctx;
  before(async () => {
    ctx = await lab.browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    page = await openPage(ctx, `${lab.server.url}?view=explore`, errors);
  });
  after(() => ctx?.close());

  test('all-reduce, every algorithm, flat, on a ring and on two levels: each step drawn is the engine\'s', async () => {
    const { checked, failures } = await runCases(ALLREDUCE);
    assert.deepEqual(failures, []);
    assert.ok(checked > 300, `${checked} steps checked`);
  });

  test('all-gather, reduce-scatter, all-to-all, broadcast, reduce: each step drawn is the engine\'s, and they complete as their definitions say', async () => {
    const { checked, failures } = await runCases(OTHERS);
    assert.deepEqual(failures, []);
    assert.ok(checked > 60, `${checked} steps checked`);
  });

  test('all-to-all: the last frame differs from the first (every block moved)', async () => {
    const fills = await page.evaluate(async () => {
      const { createPlayer } = await (await import('./boot.js')).__lazy['views/player.js']();
      const p = createPlayer('en', { key: 'player-test' });
      document.body.append(p.root);
      await p.update({ collective: 'alltoall', algorithm: 'pairwise', devices: 6, bytes: 6e5, link: 'nvlink4', topology: 'switch' });
      const read = () => [...p.root.querySelectorAll('.cell')].map((c) => c.style.fill).join();
      const first = read();
      p.root.querySelector('[data-action="last"]').click();
      const last = read();
      p.root.remove();
      return { first, last };
    });
    assert.notEqual(fills.first, fills.last);
  });

  test('a player names the lecture section it shows from the moment it is asked, before the trace arrives', async () => {
    const sections = await page.evaluate(async () => {
      const { createPlayer } = await (await import('./boot.js')).__lazy['views/player.js']();
      const out = [];
      for (const settings of [
        { algorithm: 'ring', devices: 8, bytes: 8e6, link: 'nvlink4', topology: 'switch' },
        { algorithm: 'rabenseifner', devices: 8, bytes: 8e6, link: 'nvlink4', topology: 'switch' },
        { algorithm: 'in_switch', devices: 8, bytes: 8e6, link: 'nvlink4', topology: 'switch' },
        { algorithm: 'hierarchical', nodes: 2, gpus_per_node: 4, bytes: 8e6, intra_link: 'nvlink4', inter_link: 'ib_ndr', topology: 'two_level' },
        { collective: 'alltoall', algorithm: 'pairwise', devices: 6, bytes: 6e5, link: 'nvlink4', topology: 'switch' },
      ]) {
        const p = createPlayer('en', { key: 'player-test' });
        document.body.append(p.root);
        const drawn = p.update(settings);
        out.push([p.root.dataset.lecture ?? null, p.root.getAttribute('aria-busy')]);
        await drawn;
        out[out.length - 1].push(p.root.dataset.lecture);
        p.root.remove();
      }
      return out;
    });
    assert.deepEqual(sections, [['5.1', 'true', '5.1'], ['5.2', 'true', '5.2'], ['5.4', 'true', '5.4'], ['5.5', 'true', '5.5'], ['4.3', 'true', '4.3']]);
  });

  test('17-64 devices: the progress colour reaches the drawing (no stylesheet rule hides it)', async () => {
    const out = await page.evaluate(async () => {
      const { createPlayer } = await (await import('./boot.js')).__lazy['views/player.js']();
      const p = createPlayer('en', { key: 'player-test' });
      document.body.append(p.root);
      await p.update({ algorithm: 'ring', devices: 24, bytes: 1e6, link: 'nvlink4', topology: 'switch' });
      const colours = () => [...p.root.querySelectorAll('.dev')].map((c) => getComputedStyle(c).fill);
      const first = colours();
      for (let i = 0; i < 30; ++i) p.root.querySelector('[data-action="step-forward"]').click();
      const mid = colours();
      p.root.querySelector('[data-action="last"]').click();
      const last = colours();
      p.root.remove();
      return { first, mid, last };
    });
    const white = 'rgb(255, 255, 255)';
    assert.ok(out.mid.every((c) => c !== white), `mid-way: ${out.mid[0]}`);
    assert.notDeepEqual(out.mid, out.first);
    assert.equal(new Set(out.last).size, 1);
    assert.notEqual(out.last[0], white);
  });

  test('1,024 devices: axes, and a step marker that follows the step and moves on Play', async () => {
    await exploreSet(page, '?view=explore&algorithm=ring&devices=1024&bytes=1000000000&topology=switch&link=nvlink4');
    const p = page;
    const player = p.locator('[data-view="schedule"]');
    await p.waitForSelector('[data-view="schedule"][data-steps="2046"]', { timeout: 20000 });
    assert.ok(await player.locator('.axis').count() >= 6, 'axis labels');
    assert.equal(await player.getAttribute('data-lecture'), '5.1');
    const marker = player.locator('[data-role="step-marker"]');
    assert.equal(await marker.getAttribute('visibility'), 'hidden');
    await player.locator('[data-action="step-forward"]').click();
    const x1 = Number(await marker.getAttribute('x1'));
    assert.equal(await marker.getAttribute('visibility'), 'visible');
    await player.locator('[data-action="play"]').click();
    await p.waitForFunction(() => Number(document.querySelector('[data-view="schedule"]').dataset.step) > 20, null, { timeout: 10000 });
    await player.locator('[data-action="pause"]').click();
    assert.ok(Number(await marker.getAttribute('x1')) > x1, 'the marker moved right while playing');
    await player.locator('[data-action="last"]').click();
    assert.equal(await player.getAttribute('data-step'), '2046');
  });

  test('Explore 4x4 and exercise 4 (4x8): two-level picture, phases named, screenshots in both languages at 1280 and 390 px', async () => {
    const shots = screenshotDir();
    const explore4x4 = '?view=explore&algorithm=hierarchical&devices=16&gpus_per_node=4&topology=two_level&bytes=1000000&link=ib_ndr';
    const widths = [['desktop', DESKTOP], ['phone', PHONE]];
    for (const lang of ['en', 'zh']) {
      // English: the file's Explore page, set to 4x4; Chinese: loaded so.
      if (lang === 'en') await exploreSet(page, explore4x4);
      else await go(`${explore4x4}&lang=${lang}`);
      const pl = page.locator('[data-view="schedule"]').first();
      await page.waitForSelector('[data-view="schedule"]:not([data-steps="0"])', { timeout: 20000 });
      assert.equal(await pl.getAttribute('data-lecture'), '5.5');
      for (const [label, viewport] of widths) {
        await page.setViewportSize(viewport);
        await pl.locator('[data-action="first"]').click();
        for (let i = 0; i < 4; i++) await pl.locator('[data-action="step-forward"]').click();
        // Step 4 of 4x4 hierarchical: the first inter-node step, among GPUs of one local rank.
        assert.equal(await pl.getAttribute('data-phase'), 'inter-node all-reduce');
        const levels = await pl.locator('[data-message]').evaluateAll((els) => els.map((e) => e.dataset.level));
        assert.ok(levels.length > 0 && levels.every((l) => l === 'inter'));
        await pl.scrollIntoViewIfNeeded();
        await shot(pl, { path: join(shots, `player-explore-4x4-step4-${lang}-${label}.png`) });
      }
      await page.setViewportSize(DESKTOP);
      // Exercise 4 at 4 x 8 (another size, so that the card shows its pictures before it is solved).
      await go(`?exercise=4&lang=${lang}`);
      await page.locator('[data-exercise="4"] [data-param="bytes"]').fill('2');
      await page.waitForSelector('[data-visual-of="4"] [data-view="schedule"][data-devices="32"]:not([data-steps="0"])', { timeout: 20000 });
      const hier = page.locator('[data-visual-of="4"] [data-view="schedule"]').first();
      for (const [label, viewport] of widths) {
        await page.setViewportSize(viewport);
        await hier.locator('[data-action="first"]').click();
        for (let i = 0; i < 8; i++) await hier.locator('[data-action="step-forward"]').click();
        // Step 8 of 4 x 8: the first step across nodes, 0 -> 8 -> 16 -> 24 among local rank 0.
        assert.equal(await hier.getAttribute('data-phase'), 'inter-node all-reduce');
        const m = await hier.locator('[data-message]').evaluateAll((els) => els.map((e) => [Number(e.dataset.from), Number(e.dataset.to), e.dataset.level]));
        assert.ok(m.length === 32 && m.every(([a, b, l]) => l === 'inter' && a % 8 === b % 8), JSON.stringify(m.slice(0, 4)));
        await hier.scrollIntoViewIfNeeded();
        await shot(hier, { path: join(shots, `player-ex4-step8-${lang}-${label}.png`) });
      }
      await page.setViewportSize(DESKTOP);
    }
  });

  test('no console errors', () => {
    assert.deepEqual(errors, []);
  });
});
