// The views in headless Chromium: the schedule player of exercise 2 (2(k-1) steps, every device
// ends with the sum, keyboard), the crossover chart against the engine, Explore's address
// round trip, long tasks while dragging a 1,024-device slider, masking, axe-core, screenshots.
// The cards share one page of all the exercises, and Explore's states after the drag are set on
// its page by hand (its share link then equals the address of each): a load costs 1-2 s here.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DESKTOP, DIST, engineEval, nextFrame, openPage, PHONE, screenshotDir, shot, useLab } from './helpers.mjs';
import { parseSettings, settingsQuery } from '../../web/views/explore.js';

const errors = [];

const player = (page, scope = '') => page.locator(`${scope} [data-view="schedule"]`.trim()).first();

async function waitSteps(page, scope, steps) {
  await page.waitForFunction(([s, n]) => document.querySelector(`${s} [data-view="schedule"]`.trim())?.dataset.steps === String(n),
    [scope, steps], { timeout: 20000 });
}

const lab = useLab();

/** Asserts the page is no wider than its viewport `w` (after the layout settles). */
async function wide(page, what, w) {
  await page.waitForTimeout(300);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= w, `${what}: page is ${width}px wide in a ${w}px viewport`);
}

async function axeClean(page, what) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] }));
  const found = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')})`);
  assert.deepEqual(found, [], what);
}
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Sets Explore's controls as a student would (`steps`: [setting, value] in turn) to the state
 * `address` opens: its share link then says so; resolves once the player has drawn that state.
 */
async function exploreAs(page, address, steps) {
  const view = page.locator('[data-view="explore"]');
  for (const [name, value] of steps) {
    const control = view.locator(`[data-setting="${name}"]`);
    if (await control.evaluate((el) => el.tagName === 'SELECT')) await control.selectOption(value);
    else await control.fill(value);
  }
  const want = settingsQuery(parseSettings(address));
  assert.equal(await view.locator('[data-role="share"]').getAttribute('href'), want, `the state of ${address}`);
  assert.equal(new URL(page.url()).search, want);
  await nextFrame(page); // the view asks for the new schedule on the next frame
  const s = parseSettings(address);
  await page.waitForSelector(`[data-view="schedule"][data-algorithm="${s.algorithm}"]:not([aria-busy]):not([data-steps="0"])`, { timeout: 20000 });
}

describe('views', () => {
  // One English context; the cards on one page, open from the first test to their layout checks.
  let ctx = null;
  let cards = null;
  let explore = null; // Explore after the drag: its layout checks follow on the same page
  before(async () => {
    ctx = await lab.fresh(DESKTOP);
    cards = await openPage(ctx, lab.server.url, errors);
  });
  after(async () => { await ctx?.close(); });

  test('exercise 2: masked at the exercise\'s values; elsewhere the ring player shows 2(k-1) steps and ends with every device holding the sum', async () => {
    const page = cards;
    const card = page.locator('[data-exercise="2"]');
    await card.scrollIntoViewIfNeeded();
    assert.equal(await card.locator('[data-role="visuals"]').isHidden(), true, 'hidden at the exercise\'s own parameters');
    for (const k of [6, 7]) {
      await card.locator('[data-param="devices"]').fill(String(k));
      await waitSteps(page, '[data-exercise="2"]', 2 * (k - 1));
      const p = player(page, '[data-exercise="2"]');
      assert.equal(await p.getAttribute('data-devices'), String(k));
      assert.equal(await p.getAttribute('data-step'), '0');
      assert.equal(await p.locator('g.device[data-device]').count(), k);
      await p.locator('[data-action="last"]').click();
      assert.equal(await p.getAttribute('data-step'), String(2 * (k - 1)));
      const complete = await p.locator('g.device[data-device]').evaluateAll((els) => els.map((e) => e.dataset.complete));
      assert.deepEqual(complete, Array(k).fill('true'), 'every device holds the sum of all inputs');
      // One step earlier, some chunk is still missing an input.
      await p.locator('[data-action="step-back"]').click();
      const before = await p.locator('g.device[data-device]').evaluateAll((els) => els.filter((e) => e.dataset.complete === 'true').length);
      assert.ok(before < k);
      // The engine's response: the player shows its step count and its time.
      const res = await engineEval(page, { op: 'simulate', algorithm: 'ring', devices: k, bytes: 1e8, mode: 'accounting', link: { alpha_s: 2e-6, beta_Bps: 3.6e11 } });
      assert.equal(res.steps, 2 * (k - 1));
    }
  });

  test('the player works by keyboard: arrows, Home, End and the buttons', async () => {
    const page = cards;
    await page.locator('[data-exercise="2"] [data-param="devices"]').fill('5');
    await waitSteps(page, '[data-exercise="2"]', 8);
    const p = player(page, '[data-exercise="2"]');
    await p.locator('[data-action="step-forward"]').focus();
    await page.keyboard.press('Enter');
    assert.equal(await p.getAttribute('data-step'), '1');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await p.getAttribute('data-step'), '3');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await p.getAttribute('data-step'), '2');
    await page.keyboard.press('End');
    assert.equal(await p.getAttribute('data-step'), '8');
    await page.keyboard.press('Home');
    assert.equal(await p.getAttribute('data-step'), '0');
    // Tab reaches the step slider; its arrows move the step.
    await p.locator('[data-role="step-slider"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await p.getAttribute('data-step'), '1');
    // Play runs to the end, then stops.
    await p.locator('[data-action="play"]').click();
    await page.waitForFunction(() => document.querySelector('[data-exercise="2"] [data-view="schedule"]').dataset.step === '8', null, { timeout: 20000 });
    await page.waitForSelector('[data-exercise="2"] [data-view="schedule"] [data-action="play"]');
  });

  test('exercise 3: the crossover chart\'s series equal the engine\'s values at sampled sizes', async () => {
    const page = cards;
    await page.locator('[data-exercise="3"]').scrollIntoViewIfNeeded();
    await page.locator('[data-exercise="3"] [data-param="devices"]').fill('12');
    await page.waitForFunction(() => document.querySelector('[data-exercise="3"] [data-view="crossover"]')?.dataset.devices === '12', null, { timeout: 20000 });
    await page.locator('[data-exercise="3"] [data-view="crossover"] .chart-table summary').click();
    await page.waitForSelector('[data-exercise="3"] [data-view="crossover"] tr[data-x]'); // built on the toggle event
    const rows = await page.locator('[data-exercise="3"] [data-view="crossover"] tr[data-x]').evaluateAll((trs) => trs.map((tr) => ({
      x: Number(tr.dataset.x),
      cells: [...tr.querySelectorAll('td')].map((td) => [td.dataset.series, Number(td.dataset.timeS)]),
    })));
    assert.equal(rows.length, 37);
    let compared = 0;
    for (const row of rows.filter((r, i) => i % 6 === 0)) {
      for (const [algorithm, shown] of row.cells) {
        const res = await engineEval(page, { op: 'allreduce', algorithm, devices: 12, bytes: row.x, link: { alpha_s: 5e-6, beta_Bps: 4e10 } });
        assert.equal(shown, res.time_s, `${algorithm} at ${row.x} B`);
        compared += 1;
      }
    }
    // Exercise 3's four algorithms (exercises/03.json), seven sampled rows each.
    assert.deepEqual(rows[0].cells.map(([a]) => a), ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree']);
    assert.ok(compared >= 28);
    // The player of the chosen algorithm follows the picker.
    await page.locator('[data-exercise="3"] .view-pick select').selectOption('recursive_doubling');
    const rd = await engineEval(page, { op: 'simulate', algorithm: 'recursive_doubling', devices: 12, bytes: 256000, mode: 'accounting' });
    await waitSteps(page, '[data-exercise="3"]', rd.steps);
  });

  test('the exercise cards at 1280 and 390 px: nothing wider than the viewport, screenshots; axe-core finds nothing with exercise 3 set up', async () => {
    const dir = screenshotDir();
    const page = cards;
    // Each card set up in turn at 1280 px, then the page at 390 px (the views redraw for a phone).
    const cardSetups = [
      [1, async (p, c) => {
        await p.locator(`${c} [data-param="bytes"]`).fill('128');
        await p.waitForSelector(`${c} [data-view="bandwidth"][data-link="own"] canvas`);
        await p.locator(`${c} [data-role="link-picker"]`).selectOption('ib_ndr');
        await p.waitForSelector(`${c} [data-view="bandwidth"][data-link="ib_ndr"]`);
      }],
      [2, async (p, c) => { await p.locator(`${c} [data-param="devices"]`).fill('6'); await waitSteps(p, c, 10); for (let i = 0; i < 3; i++) await p.locator(`${c} [data-action="step-forward"]`).click(); }],
      [3, async (p, c) => { await p.locator(`${c} [data-param="devices"]`).fill('12'); await p.waitForSelector(`${c} [data-view="crossover"][data-devices="12"]`); await p.locator(`${c} [data-action="step-forward"]`).click(); }],
      [4, async (p, c) => { await p.locator(`${c} [data-param="nodes"]`).fill('3'); await waitSteps(p, c, 2 * 7 + 2 * 2); }],
      [5, async (p, c) => { await p.locator(`${c} [data-param="tokens"]`).fill('8192'); await p.waitForSelector(`${c} [data-view="timeline"] [data-role="timeline-note"]`); }],
      [6, async (p, c) => {
        await p.locator(`${c} [data-param="stages"]`).fill('4');
        await p.waitForSelector(`${c} [data-view="timeline"] [data-role="timeline-note"]`);
        await p.locator(`${c} [data-role="microbatches"]`).fill('6');
        await p.waitForFunction((sel) => /^6 micro-batches/.test(document.querySelector(sel)?.textContent ?? ''), `${c} [data-role="timeline-note"]`);
      }],
      [7, async (p, c) => { await p.locator(`${c} [data-param="devices"]`).fill('16'); await p.waitForSelector(`${c} [data-view="ring-attention"] canvas`); }],
      [8, async (p, c) => { await p.locator(`${c} [data-param="nics"]`).fill('4'); await p.waitForSelector(`${c} [data-view="timeline"] [data-role="timeline-note"]`); }],
    ];
    await page.setViewportSize(DESKTOP);
    for (const [n, setup] of cardSetups) {
      const c = `section.card[data-exercise="${n}"]:not([data-prerendered])`;
      await page.locator(c).scrollIntoViewIfNeeded();
      await setup(page, c);
      await wide(page, `exercise ${n}`, DESKTOP.width);
      await shot(page.locator(`${c} [data-role="visuals"]`), { path: join(dir, `view-ex${n}-${DESKTOP.width}.png`) });
    }
    await page.setViewportSize(PHONE);
    await wide(page, 'the exercises', PHONE.width);
    for (const [n] of cardSetups) {
      const c = `section.card[data-exercise="${n}"]:not([data-prerendered])`;
      await page.locator(c).scrollIntoViewIfNeeded();
      await shot(page.locator(`${c} [data-role="visuals"]`), { path: join(dir, `view-ex${n}-${PHONE.width}.png`) });
    }
    // axe-core with exercise 3 at 8 GPUs and its step table open, at either width.
    await page.locator('[data-exercise="3"] [data-param="devices"]').fill('8');
    await page.waitForSelector('[data-exercise="3"] [data-view="crossover"][data-devices="8"]');
    await page.locator('[data-exercise="3"] .player-table summary').click();
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await axeClean(page, `the exercises (exercise 3 set up) at ${viewport.width}px`);
    }
    await page.close();
  });

  test('Explore: the address round-trips its settings, and a change writes them back', async () => {
    const query = '?view=explore&collective=allreduce&algorithm=rabenseifner&devices=12&bytes=65536&topology=switch&link=ib_ndr';
    const page = await openPage(ctx, `${lab.server.url}${query}`, errors);
    const get = (sel) => page.locator(`[data-view="explore"] ${sel}`).inputValue();
    assert.equal(await get('[data-setting="collective"]'), 'allreduce');
    assert.equal(await get('[data-setting="algorithm"]'), 'rabenseifner');
    assert.equal(await get('[data-setting="devices"]'), '12');
    assert.equal(await get('[data-setting="bytes"]'), '65536');
    assert.equal(await get('[data-setting="link"]'), 'ib_ndr');
    assert.equal(await get('[data-setting="topology"]'), 'switch');
    const expect = await engineEval(page, { op: 'simulate', algorithm: 'rabenseifner', devices: 12, bytes: 65536, link: 'ib_ndr', mode: 'accounting' });
    await waitSteps(page, '', expect.steps);
    // The NCCL chart: every (algorithm, protocol) pair's time is the engine's.
    await page.waitForSelector('[data-view="nccl"][data-devices="12"]');
    await page.locator('[data-view="nccl"] .chart-table summary').click();
    await page.waitForSelector('[data-view="nccl"] tr[data-x="1000"]');
    const row = await page.locator('[data-view="nccl"] tr[data-x="1000"] td').evaluateAll((tds) => tds.map((td) => [td.dataset.series, Number(td.dataset.timeS)]));
    const nccl = await engineEval(page, { op: 'nccl', devices: 12, bytes: 1000, link: 'ib_ndr' });
    assert.deepEqual(row, nccl.candidates.map((c) => [`${c.algorithm}/${c.protocol}`, c.time_s]));
    // Change settings: the address follows; loading it gives the same settings.
    await page.locator('[data-setting="devices"]').fill('20');
    await page.locator('[data-setting="link"]').selectOption('');
    await page.locator('[data-setting="alpha_s"]').fill('10'); // µs, the exercises' unit; the address keeps seconds
    await page.locator('[data-setting="topology"]').selectOption('ring');
    await nextFrame(page);
    const url = page.url();
    const q = new URL(url).searchParams;
    assert.deepEqual([q.get('devices'), q.get('alpha_s'), q.get('topology'), q.has('link')], ['20', '0.00001', 'ring', false]);
    const again = page; // the address loaded anew in the same page
    await again.goto(url);
    await again.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
    const get2 = (sel) => again.locator(`[data-view="explore"] ${sel}`).inputValue();
    assert.equal(await get2('[data-setting="devices"]'), '20');
    assert.equal(await get2('[data-setting="alpha_s"]'), '10');
    assert.equal(await get2('[data-setting="topology"]'), 'ring');
    assert.equal(await get2('[data-setting="algorithm"]'), 'rabenseifner');
    assert.equal(await again.locator('[data-role="share"]').getAttribute('href'), new URL(url).search);
    // The NCCL chart is drawn on the switch only (its model is k GPUs on one link).
    assert.equal(await again.locator('[data-view="nccl"]').isHidden(), true);
    // The overlap timelines: 1 ms of compute and of communication in 8 chunks, as the engine has it.
    await again.waitForSelector('.overlap-view [data-view="timeline"] [data-role="timeline-note"]');
    const overlap = await engineEval(again, { op: 'overlap', kind: 'chunked', compute_s: 1e-3, comm_s: 1e-3, chunks: 8, alpha_per_chunk_s: 1e-5 });
    assert.equal(Number((overlap.total_s * 1e3).toPrecision(4)), 1.205);
    assert.match(await again.locator('.overlap-view [data-role="timeline-note"]').first().textContent(), /overlapped 1\.205 ms/);
    assert.equal(await again.locator('.overlap-view [data-view="timeline"]').count(), 2);
    const ring = await engineEval(again, { op: 'simulate', algorithm: 'rabenseifner', devices: 20, bytes: 65536, topology: 'ring', link: { alpha_s: 1e-5, beta_Bps: 4e10 }, mode: 'accounting' });
    await waitSteps(again, '', ring.steps);
    await page.close();
  });

  // PerformanceObserver's long tasks are wall time: on a machine with more runnable threads than
  // cores, a task with 10 ms of work can take 60 ms while the thread waits for a core. So the
  // trace's CPU time of every main-thread task is what is asserted; the observer's long tasks are
  // printed with it and the load average. The CPU time of the longest task varies from run to run
  // on a shared machine: the 50 ms budget is a speed target, so it is measured and printed
  // (tests/README.md "Budgets"), and the test fails at twice it.
  test('the main thread stays free while dragging a 1,024-device slider (the 50 ms budget printed, twice it asserted)', async () => {
    const page = await openPage(ctx, `${lab.server.url}?view=explore&devices=2&bytes=1000000`, errors);
    explore = page;
    await waitSteps(page, '', 2);
    await page.evaluate(() => {
      globalThis.__long = [];
      globalThis.__frames = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__long.push(e.duration); })
        .observe({ type: 'longtask', buffered: false });
      let last = performance.now();
      const tick = (now) => { globalThis.__frames.push(now - last); last = now; if (!globalThis.__stop) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    const loadBefore = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    await lab.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const slider = page.locator('[data-slider="devices"]');
    const box = await slider.boundingBox();
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 2, y);
    await page.mouse.down();
    for (let i = 0; i <= 60; i++) {
      await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / 60, y);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    assert.equal(await page.locator('[data-setting="devices"]').inputValue(), '1024');
    await waitSteps(page, '', 2 * 1023);
    await page.waitForTimeout(500);
    const trace = JSON.parse((await lab.browser.stopTracing()).toString());
    const events = trace.traceEvents ?? trace;
    const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
    const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && mainThreads.has(`${e.pid}:${e.tid}`));
    const cpu = tasks.map((e) => (e.tdur ?? e.dur) / 1000).sort((a, b) => b - a);
    const { long, frames } = await page.evaluate(() => {
      globalThis.__stop = true;
      return { long: globalThis.__long, frames: globalThis.__frames };
    });
    frames.sort((a, b) => a - b);
    const cores = (await import('node:os')).cpus().length;
    const load = Math.max(loadBefore, Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
    const stats = {
      observer_long_tasks_ms: long.map((d) => Math.round(d)),
      main_thread_tasks: tasks.length,
      longest_task_cpu_ms: Number((cpu[0] ?? 0).toFixed(1)),
      longest_task_wall_ms: Number((Math.max(0, ...tasks.map((e) => e.dur)) / 1000).toFixed(1)),
      frames: frames.length,
      frame_median_ms: Number(frames[Math.floor(frames.length / 2)].toFixed(1)),
      frame_p95_ms: Number(frames[Math.floor(frames.length * 0.95)].toFixed(1)),
      frame_max_ms: Number(frames[frames.length - 1].toFixed(1)),
      loadavg_1min: load,
      cores,
    };
    console.log(`dragging the devices slider 2 -> 1024: ${JSON.stringify(stats)}`);
    writeFileSync(join(screenshotDir(), 'drag-frames.json'), `${JSON.stringify(stats)}\n`);
    assert.ok(tasks.length > 50, 'the trace saw the main thread');
    console.log(`longest main-thread task ${stats.longest_task_cpu_ms} ms of CPU: ${stats.longest_task_cpu_ms <= 50 ? 'within' : 'over'} the 50 ms budget`);
    assert.ok(stats.longest_task_cpu_ms <= 100, `a main-thread task used ${stats.longest_task_cpu_ms} ms of CPU`);
    // The observer's long tasks (wall time) are printed above, not asserted (see the comment on the test).
  });

  test('Explore at 1280 and 390 px (1,024 devices, a double binary tree, two levels): nothing wider than the viewport, screenshots; axe-core finds nothing at 6 devices', async () => {
    const dir = screenshotDir();
    const page = explore;
    const layout = async (name) => {
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await wide(page, name, viewport.width);
        await shot(page.locator('[data-view="explore"]'), { path: join(dir, `view-${name}-${viewport.width}.png`) });
      }
      await page.setViewportSize(DESKTOP);
    };
    // The drag left 1,024 devices at 1 MB.
    await exploreAs(page, '?view=explore&devices=1024&bytes=1000000', []);
    await waitSteps(page, '', 2046);
    await layout('explore-1024');
    await exploreAs(page, '?view=explore&devices=6', [['devices', '6']]);
    await waitSteps(page, '', 10);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await axeClean(page, `?view=explore&devices=6 at ${viewport.width}px`);
    }
    await page.setViewportSize(DESKTOP);
    await exploreAs(page, '?view=explore&algorithm=double_binary_tree&devices=10&bytes=4000000', [['bytes', '4000000'], ['algorithm', 'double_binary_tree'], ['devices', '10']]);
    await page.locator('[data-action="step-forward"]').click();
    await page.locator('[data-action="step-forward"]').click();
    await layout('explore');
    await exploreAs(page, '?view=explore&algorithm=hierarchical&devices=16&gpus_per_node=4&topology=two_level&bytes=1000000&link=ib_ndr',
      [['bytes', '1000000'], ['link', 'ib_ndr'], ['algorithm', 'hierarchical'], ['gpus_per_node', '4'], ['devices', '16']]);
    for (let i = 0; i < 4; i++) await page.locator('[data-action="step-forward"]').click();
    await layout('explore-two-level');
    await page.close();
  });

  test('from file:// (the single-file build, no worker) the views run on the main thread', async () => {
    const page = await openPage(ctx, `${pathToFileURL(join(DIST, 'commlab-single.html')).href}?exercise=2`, errors);
    await page.locator('[data-exercise="2"] [data-param="devices"]').fill('6');
    await waitSteps(page, '[data-exercise="2"]', 10);
    await player(page, '[data-exercise="2"]').locator('[data-action="last"]').click();
    const complete = await page.locator('g.device[data-device]').evaluateAll((els) => els.map((e) => e.dataset.complete));
    assert.deepEqual(complete, Array(6).fill('true'));
    await page.close();
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
