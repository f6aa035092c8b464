// The least each device must send (?view=bound, P5 §4.2) in headless Chromium: every algorithm's
// bytes a device, steps, time and verification are the engine's (the native CLI's simulate), the
// bound for growing k its collective op's; the sentences follow the figures (ring and Rabenseifner
// meet the bound, in-switch is below it where a switch sums and left out where none does, runs the
// engine refuses on buffers are counted and say why); the controls
// redraw at their extremes; Topics links to it; axe-core; no sideways scroll at 390 px; screenshots.
import assert from 'node:assert/strict';
import { formatBytes } from '../../web/util/units.js';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { check, first, settled } from './truth/bound.mjs';

const ALGORITHMS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
const errors = [];
const fresh = (...args) => lab.fresh(...args);

const says = (page) => page.locator('.bound-sentences li').evaluateAll((els) => els.map((e) => e.dataset.says));

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, first);
  const zhName = (a) => zh.locator(`.bound-row[data-algorithm="${a}"] .bound-name`).textContent();
  assert.equal(await zh.locator('[data-says="meets"]').textContent(), `${await zhName('ring')}、${await zhName('rabenseifner')} 每个设备恰好发送下界 14 MB：带宽最优。`);
}

const lab = useLab();

describe('bound view', () => {
  test('figures are the engine\'s; ring and Rabenseifner meet the bound, in-switch is below; extremes; out of range', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=bound`, errors);
    assert.equal(await page.locator('[data-view="bound"]').getAttribute('data-lecture'), '4.2');
    // Code 02 demo 2: 8 devices, 8 MB each, NVLink 4; the bound 2(k-1)/k x D = 14 MB.
    const { rows, wants } = await check(page, first);
    assert.equal(wants[0].lower_bound_bytes, 14e6);
    assert.ok(wants.every((w) => w.verified === true), 'every algorithm ran on buffers and was verified');
    assert.deepEqual(rows.filter((r) => r.against === 'meets').map((r) => r.algorithm), ['ring', 'rabenseifner']);
    assert.deepEqual(rows.filter((r) => r.against === 'below').map((r) => r.algorithm), ['in_switch']);
    assert.deepEqual(await says(page), ['verified-all', 'meets', 'above-recursive_doubling', 'above-binary_tree', 'above-double_binary_tree', 'below-in_switch']);
    assert.equal(await page.locator('[data-says="meets"]').textContent(), 'Bandwidth-optimal: ring, Rabenseifner (halving + doubling) send exactly the lower bound, 14 MB a device.');
    assert.match(await page.locator('[data-role="growth-sentence"]').textContent(), /^With 8 MB a device the bound is 8 MB on 2 devices and 15\.98 MB on 1024/);
    // Large: too big for buffers, counted only; the sentence says so.
    await page.locator('#bound-devices').fill('256');
    await page.locator('#bound-mb').fill('1000000');
    await check(page, { devices: 256, mb: 1e6, link: 'nvlink4' });
    assert.equal((await says(page))[0], 'verified-some');
    // Smallest: 2 devices, one byte; another link.
    await page.locator('#bound-devices').fill('2');
    await page.locator('#bound-mb').fill('0.000001');
    await page.locator('#bound-link').selectOption('ib_ndr');
    await check(page, { devices: 2, mb: 0.000001, link: 'ib_ndr' });
    // One byte is refused on buffers for holding no 8-byte element, not for being too large.
    assert.match(await page.locator('[data-says="verified-some"]').textContent(), /; not a whole number of 8-byte elements, so not run on buffers, counted only \(bytes, steps and time\): ring, /);
    // PCIe Gen5: no switch sums (§5.4), so no in-switch row, and a sentence says why.
    await page.locator('#bound-link').selectOption('pcie5');
    const { rows: pcie } = await check(page, { devices: 2, mb: 0.000001, link: 'pcie5' });
    assert.ok(!pcie.some((r) => r.algorithm === 'in_switch'), 'no in-switch row on PCIe');
    assert.match(await page.locator('[data-says="no-switch"]').textContent(), /^In-switch reduction is not drawn: no switch on PCIe Gen5.* sums/);
    await page.locator('#bound-link').selectOption('ib_ndr');
    // A k not a power of two.
    await page.locator('#bound-devices').fill('6');
    await page.locator('#bound-mb').fill('8');
    await check(page, { devices: 6, mb: 8, link: 'ib_ndr' });
    // k = 4: the double binary tree's pipelined chunks take more steps than the ring's 6, so the
    // sentence does not say it buys fewer alphas; recursive doubling's 2 steps do.
    await page.locator('#bound-devices').fill('4');
    const { wants: four } = await check(page, { devices: 4, mb: 8, link: 'ib_ndr' });
    const dbt = four[ALGORITHMS.indexOf('double_binary_tree')];
    assert.equal(dbt.steps_against_ring, 'more');
    assert.equal(await page.locator('[data-says="above-double_binary_tree"]').textContent(),
      `Above the bound: double binary tree sends ${formatBytes(dbt.bytes_sent_per_device)} a device against ${formatBytes(dbt.lower_bound_bytes)}, in ${dbt.steps} steps; the ring takes only 6: it saves no α either, and loses on both counts.`);
    assert.equal(four[ALGORITHMS.indexOf('recursive_doubling')].steps_against_ring, 'fewer');
    assert.match(await page.locator('[data-says="above-recursive_doubling"]').textContent(), /in 2 steps; the ring takes 6: fewer αs, paid for in bytes\.$/);
    // Out of range: said naming the control; nothing drawn meanwhile.
    await page.locator('#bound-devices').fill('1');
    assert.equal(await page.locator('[data-view="bound"] [data-role="settings-error"]').textContent(), 'Devices: 1 is not allowed; allowed a whole number from 2 to 256. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-view="bound"] [data-role="drawn"]').isHidden(), true);
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'bound', { ready: (page) => settled(page, first), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
