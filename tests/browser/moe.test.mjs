// Experts (?view=moe, P5 §6.4 and §4.3) in headless Chromium: the receive bytes per GPU, the
// all-to-all's α share and the step time are the engine's (the native CLI); the controls redraw
// at their extremes without console errors; the sentence flips with the numbers (hot against
// even, latency against bandwidth); Topics links to it; axe-core; no sideways scroll at 390 px
// with the table open; screenshots in English and Chinese at 1280 and 390 px.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { formatBytes, formatTime } from '../../web/util/units.js';
import { check as checkAgainstEngine, settled } from './truth/moe.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);

// The view's figures, bars, cases and choices against the engine's answer at these settings
// (truth/moe.mjs, the truth walk's own check; it returns {want, got}).

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, { model: 'mixtral_8x7b', ep: 8, tokens: 64, hot: 4 });
  assert.match(await zh.locator('[data-role="sentence"]').textContent(), /^热门专家所在的卡收到平均的 2\.\d+ 倍.*受延迟限制：α 占 all-to-all/);
}

const lab = useLab();

describe('moe view', () => {
  test('figures are the engine\'s; the sentence flips hot/even and latency/bandwidth; extremes redraw', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=moe`, errors);
    const view = page.locator('[data-view="moe"]');
    assert.equal(await view.getAttribute('data-lecture'), '6.4');
    assert.equal(await page.locator('#moe-skew').getAttribute('data-lecture'), '4.3');
    // The lecture's case: Mixtral EP8, decode, one expert 4x hot (P5 §4.3: about 2.5x the mean).
    const lecture = await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 8, tokens: 64, hot: 4 });
    assert.ok(lecture.want.skew > 2.4 && lecture.want.skew < 2.6, `skew ${lecture.want.skew}`);
    const sentence = page.locator('[data-role="sentence"]');
    assert.equal(await sentence.getAttribute('data-routing'), 'hot');
    assert.equal(await sentence.getAttribute('data-bound'), 'latency');
    const share = lecture.want.alltoall_alpha_time_s / lecture.want.alltoall_time_s;
    assert.equal(await sentence.textContent(), `The hot expert’s GPU receives ${Number(lecture.want.skew.toPrecision(3))}× the mean (${formatBytes(lecture.want.busiest_recv_bytes_layer)} against ${formatBytes(lecture.want.mean_recv_bytes_layer)} a layer), and every GPU waits for it; latency-bound: α is ${Math.round(share * 100)}% of the all-to-all (${formatTime(lecture.want.alltoall_time_s)}).`);
    assert.equal(await page.locator('.moe-bar.moe-busiest').getAttribute('data-gpu'), '0', 'the hot expert\'s GPU highlighted');
    // Even routing: no busiest; prefill: bandwidth-bound. The sentence flips with the numbers.
    await page.locator('#moe-hot').fill('1');
    await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 8, tokens: 64, hot: 1 });
    assert.equal(await sentence.getAttribute('data-routing'), 'even');
    assert.equal(await page.locator('.moe-bar.moe-busiest').count(), 0);
    assert.match(await sentence.textContent(), /^Routing is even: each of the 8 GPUs receives /);
    await page.locator('.moe-phase[data-phase="prefill"]').click();
    const prefill = await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 8, tokens: 32768, hot: 1 });
    assert.ok(prefill.want.alltoall_alpha_time_s / prefill.want.alltoall_time_s < 0.5);
    assert.equal(await sentence.getAttribute('data-bound'), 'bandwidth');
    assert.match(await sentence.textContent(), /bandwidth-bound: the bytes are \d+% of the all-to-all/);
    // A count is shown as the engine gives it: 32,768 tokens over 8 GPUs is 4,096 each, not 4100.
    const perGpu = page.locator('[data-fact="tokens-per-gpu"]');
    assert.equal(Number(await perGpu.getAttribute('data-tokens-per-gpu')), prefill.want.tokens_per_gpu);
    assert.equal(await perGpu.textContent(), 'Tokens on each GPU: 4,096.');
    // The preset lives in the address: switching language keeps the prefill, and back again.
    assert.match(page.url(), /[?&]tokens=32768(&|$)/);
    for (const lang of ['zh', 'en']) {
      await page.click('[data-action="language"]');
      await page.waitForSelector(`html[lang^="${lang}"] [data-view="moe"][data-tokens="32768"]:not([aria-busy])`, { timeout: 20000 });
      assert.equal(await page.locator('#moe-tokens').inputValue(), '32768');
    }
    // Extremes: 1 token and 100,000,000 tokens, hot 0.1 (a cold expert) and 1,000; ep 1 and 256.
    await page.locator('#moe-tokens').fill('1');
    await page.locator('#moe-hot').fill('0.1');
    const cold = await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 8, tokens: 1, hot: 0.1 });
    assert.equal(await sentence.getAttribute('data-routing'), 'cold');
    // A cold expert: its GPU receives less than the mean, each other GPU more, and they pace the all-to-all.
    assert.ok(cold.want.recv_bytes_per_gpu_layer[0] < cold.want.mean_recv_bytes_layer);
    assert.equal(cold.want.busiest_recv_bytes_layer, cold.want.recv_bytes_per_gpu_layer[1]);
    assert.match(await sentence.textContent(), /The cold expert’s GPU receives .* each other GPU receives .*, and every GPU waits for them/);
    await page.locator('#moe-tokens').fill('100000000');
    await page.locator('#moe-hot').fill('1000');
    await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 8, tokens: 100000000, hot: 1000 });
    await page.locator('#moe-ep').selectOption('1');
    await checkAgainstEngine(page, { model: 'mixtral_8x7b', ep: 1, tokens: 100000000, hot: 1000 });
    assert.equal(await sentence.getAttribute('data-routing'), 'local');
    await page.locator('#moe-model').selectOption('deepseek_v3');
    await page.locator('#moe-ep').selectOption('256');
    await page.locator('.moe-phase[data-phase="decode"]').click();
    const ds = await checkAgainstEngine(page, { model: 'deepseek_v3', ep: 256, tokens: 64, hot: 1000 });
    assert.equal(await sentence.getAttribute('data-bound'), ds.want.alltoall_alpha_time_s / ds.want.alltoall_time_s >= 0.5 ? 'latency' : 'bandwidth');
    const epOptions = await page.locator('#moe-ep option').evaluateAll((els) => els.map((e) => Number(e.value)));
    assert.deepEqual(epOptions, [1, 2, 4, 8, 16, 32, 64, 128, 256], 'divisors of DeepSeek-V3\'s 256 experts');
    // Outside the range: said in words naming the control; nothing drawn meanwhile.
    await page.locator('#moe-tokens').fill('0');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'Tokens a step: 0 is not allowed; allowed a whole number from 1 to 100,000,000. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#moe-tokens').fill('64');
    await page.locator('#moe-hot').fill('1001');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^Hot expert: 1001 is outside the allowed range; allowed 0\.1 to 1,000/);
    await page.locator('#moe-hot').fill('4');
    await checkAgainstEngine(page, { model: 'deepseek_v3', ep: 256, tokens: 64, hot: 4 });
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'moe', { ready: (page) => settled(page, { model: 'mixtral_8x7b', ep: 8, tokens: 64, hot: 4 }), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
