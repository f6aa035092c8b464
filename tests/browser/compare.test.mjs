// The comparison table of parallelisms (?view=compare, P5 §6.6) in headless Chromium: every row's
// figures are the engine's parallelisms op, and they equal what each parallelism's own op says (the
// native CLI's tp, transfer, moe and ring_attention for the same settings, on the node's NVLink and
// on its NIC); "belongs on" follows the stated rule and flips
// when the numbers do (a degree of 1, a long prefill over many pipeline stages); a dense model's EP
// row says it has no experts; extremes redraw without console errors; Topics links to it under
// §6.1 and §6.6; axe-core; no sideways scroll at 390 px; screenshots in English and Chinese.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, openPage, useLab } from './helpers.mjs';
import { check, settled } from './truth/compare.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);

const DEFAULTS = { model: 'mixtral_8x7b', node: 'dgx_h100', phase: 'decode', tokens: 64, tp: 8, pp: 2, ep: 8, cp: 8 };

// The rows, bars and sentences against the engine's parallelisms answer, and each row against its
// parallelism's own op (truth/compare.mjs, the truth walk's own check); returns those rows.
const checkAgainstEngine = async (page, s) => (await check(page, s)).want;

const says = (page) => page.locator('.compare-sentences li').evaluateAll((els) => els.map((e) => e.dataset.says));
const belongs = (page, id) => page.locator(`.compare-table tr[data-row="${id}"]`).getAttribute('data-belongs');

const lab = useLab();

describe('compare view', () => {
  test('figures are the engine\'s; belongs-on and the sentences flip with them; extremes redraw; out of range is said', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=compare`, errors);
    const view = page.locator('[data-view="compare"]');
    assert.equal(await view.getAttribute('data-lecture'), '6.6');
    assert.equal(await view.getAttribute('data-nvlink'), 'nvlink4');
    assert.equal(await view.getAttribute('data-nic'), 'ib_ndr');
    let s = { ...DEFAULTS };
    const want = await checkAgainstEngine(page, s);
    // The lecture's deployment: TP8 inside the node, PP2 across nodes; TP moves the most.
    assert.equal(want.tp.belongs, 'nvlink');
    assert.equal(want.pp.belongs, 'cross');
    assert.deepEqual(await says(page), ['most-tp', 'inside', 'cross', 'combine']);
    assert.match(await page.locator('[data-says="combine"]').textContent(), /TP8 inside a node, PP2 across nodes/);
    assert.match(await page.locator('[data-role="rule"]').textContent(), /more than 10% of the compute/);
    assert.equal(await page.locator('tr[data-row="dp"] td').nth(1).textContent(), 'no traffic at inference');
    assert.equal(await page.locator('tr#compare-row-dp').getAttribute('data-lecture'), '6.1');
    assert.equal(await page.locator('tr[data-row="tp"] td').first().textContent(), 'all-reduce');
    const set = async (k, v) => {
      if (['model', 'node', 'phase'].includes(k)) await page.locator(`#compare-${k}`).selectOption(String(v));
      else await page.locator(`#compare-${k}`).fill(String(v));
      s = { ...s, [k]: v };
    };
    // TP 1 and PP 1: nothing to send, belongs anywhere; the sentences follow.
    await set('tp', 1);
    await checkAgainstEngine(page, s);
    assert.equal(await belongs(page, 'tp'), 'none');
    assert.ok(!(await says(page)).includes('combine'));
    await set('pp', 1);
    await checkAgainstEngine(page, s);
    assert.equal(await belongs(page, 'pp'), 'none');
    // A dense model: the EP row has no experts (the engine's model.experts is 0).
    await set('model', 'llama3_8b');
    await set('tp', 8);
    await set('pp', 2);
    await checkAgainstEngine(page, s);
    assert.equal(await belongs(page, 'ep'), 'noExperts');
    assert.equal(await page.locator('tr[data-row="ep"] td').nth(1).textContent(), 'no experts');
    assert.equal(await belongs(page, 'pp'), 'cross');
    // A long prefill over 32 stages: the pipeline's 31 hops on the NIC exceed a tenth of the compute.
    await set('phase', 'prefill');
    await set('tokens', 100000);
    await set('pp', 32);
    const long = await checkAgainstEngine(page, s);
    assert.equal(long.pp.belongs, 'nvlink');
    assert.equal(await belongs(page, 'pp'), 'nvlink');
    // Long enough blocks per GPU: ring attention hides its KV even on the NIC, and may cross nodes.
    assert.equal(long.cp.belongs, 'cross');
    // Extremes: the largest degrees the engine allows.
    await set('tokens', 64);
    await set('phase', 'decode');
    await set('tp', 4096);
    await set('cp', 1024);
    await set('pp', 32);
    await checkAgainstEngine(page, s);
    assert.ok(await page.locator('[data-says="tp-wider"]').count() === 1);
    await set('tp', 1);
    await set('cp', 1);
    await set('pp', 1);
    await checkAgainstEngine(page, s);
    assert.deepEqual(await says(page), ['nothing']);
    // Out of range: said naming the control; nothing drawn meanwhile.
    await page.locator('#compare-pp').fill('33');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'Pipeline stages: 33 is not allowed; allowed a whole number from 1 to 32. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#compare-pp').fill('2');
    await page.locator('#compare-tp').fill('');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^TP degree: nothing typed; allowed a whole number from 1 to 4,096/);
    await set('tp', 8);
    s.pp = 2;
    await checkAgainstEngine(page, s);
    // The engine refuses an EP that does not divide the experts: said with its words.
    await set('model', 'mixtral_8x7b');
    await page.locator('#compare-ep').fill('3');
    await page.waitForSelector('[data-view="compare"]:not([aria-busy]) [data-role="settings-error"]:not([hidden])');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /field 'ep': value 3 is not allowed; allowed: a divisor of the model's 8 experts/);
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px, screenshots', () => checkViewLayout(lab, 'compare', { ready: (page) => settled(page, DEFAULTS), errors, tables: false, more: async (page, lang) => {
    if (lang === 'zh') assert.match(await page.locator('[data-says="combine"]').textContent(), /节点内 TP8，节点间 PP2/);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
