// Ring attention (?view=ring, P5 §6.5) in headless Chromium: the step's compute and KV transfer,
// the hiding thresholds (Llama-3-70B: about 240 tokens a device on NVLink, 2,163 on InfiniBand) and
// each device's causal work, contiguous against zig-zag, are the engine's ring_attention answers;
// the sentences follow its hiding_case (α included) and the bars agree; extremes redraw; Topics links to it; axe-core; no sideways
// scroll at 390 px; screenshots in English and Chinese.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { engine } from './engine.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);
const settled = (page, { devices, tokens }) => page.waitForSelector(
  `[data-view="ring"][data-devices="${devices}"][data-tokens-per-device="${tokens / devices}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 20000 });

async function checkAgainstEngine(page, { model = 'llama3_70b', devices, tokens, links = ['nvlink4', 'ib_ndr'] }) {
  await settled(page, { devices, tokens });
  const wants = links.map((link) => engine({ op: 'ring_attention', model, devices, prompt_tokens: tokens, link }));
  const rows = await page.locator('.ring-link-row').evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
  assert.deepEqual(rows.map((r) => r.link), links);
  rows.forEach((r, i) => {
    const w = wants[i];
    assert.equal(Number(r.computeTimeS), w.compute_time_s);
    assert.equal(Number(r.transferTimeS), w.transfer_time_s);
    assert.equal(Number(r.thresholdTokens), w.threshold_tokens);
    assert.equal(r.hidden, String(w.hidden));
    assert.equal(r.hiddenWithAlpha, String(w.hidden_with_alpha));
  });
  const says = await page.locator('[data-role="hiding-sentences"] li').evaluateAll((els) => els.map((e) => e.dataset.says));
  assert.deepEqual(says, wants.map((w) => w.hiding_case));
  // A sentence that says "hides" stands beside a transfer bar no longer than the compute's.
  const bars = await page.locator('.ring-link-row').evaluateAll((els) => els.map((e) => [...e.querySelectorAll('.ring-bar')].map((b) => parseFloat(b.style.width))));
  bars.forEach(([compute, transfer], i) => {
    if (says[i] === 'hidden') assert.ok(transfer <= compute, `${links[i]}: hidden, yet the transfer bar ${transfer}% is longer than the compute's ${compute}%`);
    else assert.ok(transfer > compute, `${links[i]}: ${says[i]}, yet the transfer bar ${transfer}% is no longer than the compute's ${compute}%`);
  });
  for (const layout of ['contiguous', 'zigzag']) {
    const c = wants[0].causal[layout];
    const fig = page.locator(`.ring-layout[data-layout="${layout}"]`);
    if (!c) { assert.equal(await fig.count(), 0, `${layout} not drawn`); continue; }
    assert.equal(Number(await fig.getAttribute('data-imbalance')), c.imbalance);
    assert.deepEqual(await fig.locator('.ring-col').evaluateAll((els) => els.map((e) => Number(e.dataset.workPairs))), c.work_pairs);
  }
  return wants;
}

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, { devices: 8, tokens: 131072 });
  assert.match(await zh.locator('[data-role="causal-sentence"]').textContent(), /^8 块卡上，因果掩码让连续切法里最忙的卡做平均的 1\.87 倍/);
}

const lab = useLab();

describe('ring view', () => {
  test('figures are the engine\'s; the thresholds are the lecture\'s; sentences follow the engine\'s case, α included; zig-zag evens the causal work', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=ring`, errors);
    assert.equal(await page.locator('[data-view="ring"]').getAttribute('data-lecture'), '6.5');
    const [nv, ib] = await checkAgainstEngine(page, { devices: 8, tokens: 131072 });
    assert.equal(Math.round(nv.threshold_tokens), 240);
    assert.equal(Math.round(ib.threshold_tokens), 2163);
    assert.match(await page.locator('[data-role="hiding-sentences"] li').nth(1).textContent(), /^InfiniBand NDR: 16,384 tokens a device is above the 2,163 at which the KV hides/);
    assert.match(await page.locator('[data-role="causal-sentence"]').textContent(), /^On 8 devices the causal mask leaves the contiguous layout’s busiest device 1\.87× the mean work.*zig-zag brings it to 1×\.$/);
    // 8,000 tokens on 8 devices: 1,000 a device, hidden on NVLink, not on InfiniBand.
    await page.locator('#ring-tokens').fill('8000');
    const [a, b] = await checkAgainstEngine(page, { devices: 8, tokens: 8000 });
    assert.equal(a.hidden, true);
    assert.equal(b.hidden, false);
    assert.match(await page.locator('[data-role="hiding-sentences"] li').nth(1).textContent(), /below the 2,163 the KV needs to hide/);
    // 2,400 tokens on 8 devices: 300 a device clears the lecture's bandwidth-only 240 on NVLink,
    // but with α the transfer stays longer than the attention: not hidden, and said so.
    await page.locator('#ring-tokens').fill('2400');
    const [c] = await checkAgainstEngine(page, { devices: 8, tokens: 2400 });
    assert.equal(c.hiding_case, 'alpha_exposes');
    assert.match(await page.locator('[data-role="hiding-sentences"] li').first().textContent(), /^NVLink 4: 300 tokens a device is above the lecture’s 240, which leaves out α; with the link’s α the KV needs 358: its transfer \(5\.41\d* µs\) is not covered/);
    // Odd tokens a device: no zig-zag. One device, one token; 1,024 devices.
    await page.locator('#ring-devices').fill('3');
    await page.locator('#ring-tokens').fill('9');
    await checkAgainstEngine(page, { devices: 3, tokens: 9 });
    assert.match(await page.locator('.ring-causal').textContent(), /Zig-zag needs an even number/);
    await page.locator('#ring-devices').fill('1');
    await page.locator('#ring-tokens').fill('1');
    await checkAgainstEngine(page, { devices: 1, tokens: 1 });
    await page.locator('#ring-devices').fill('1024');
    await page.locator('#ring-tokens').fill('2000000000');
    await page.locator('#ring-link-b').selectOption('ethernet');
    await checkAgainstEngine(page, { devices: 1024, tokens: 2000000000, links: ['nvlink4', 'ethernet'] });
    await page.locator('#ring-devices').fill('0');
    assert.equal(await page.locator('[data-view="ring"] [data-role="settings-error"]').textContent(), 'Devices on the ring: 0 is not allowed; allowed a whole number from 1 to 1,024. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-view="ring"] [data-role="drawn"]').isHidden(), true);
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'ring', { ready: (page) => settled(page, { devices: 8, tokens: 131072 }), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
