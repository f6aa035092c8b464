// Why several GPUs (?view=memory, P5 §1 and §6.1) in headless Chromium: the per-GPU bytes, the
// fit, the GPUs needed, the decode lower bounds and the replicas' throughput are the engine's
// (the page's own engine module); the controls redraw at their extremes without console errors;
// the sentence flips when `fits` flips (70B on 1 against 2 H100); Topics links to it under §1 and
// §6.1; axe-core; no sideways scroll at 390 px with the table open; screenshots in English and
// Chinese at 1280 and 390 px.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, engineEval, openPage, screenshotDir, shot, useLab } from './helpers.mjs';
import { check, settled } from './truth/memory.mjs';
import { formatBytes, formatTime } from '../../web/util/units.js';

const LECTURE = { model: 'llama3_70b', gpu: 'h100', gpus: 1, context: 8192, batch: 1, replicas: 1 };
const errors = [];
const fresh = (...args) => lab.fresh(...args);

// The view's figures, bars, verdicts and choices against the engine's answer at these settings
// (truth/memory.mjs, the truth walk's own check).
const checkAgainstEngine = async (page, s) => (await check(page, s)).want;

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, LECTURE);
  assert.match(await zh.locator('[data-role="fits-sentence"]').textContent(), /^放不下：Llama-3-70B 的权重在 1 块 H100 SXM 上每块 141 GB，超过显存 80 GB。仅权重就需要 2 块卡。$/);
  await zh.locator('#memory-in-gpus').fill('2');
  await settled(zh, { ...LECTURE, gpus: 2 });
  assert.match(await zh.locator('[data-role="fits-sentence"]').textContent(), /^放得下：2 块 H100 SXM 每块放 70\.5 GB 权重/);
}

const lab = useLab();

describe('memory view', () => {
  test('figures are the engine\'s; the sentence flips with fits; extremes redraw', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=memory`, errors);
    const view = page.locator('[data-view="memory"]');
    assert.equal(await view.getAttribute('data-lecture'), '1');
    assert.equal(await page.locator('#memory-replicas').getAttribute('data-lecture'), '6.1');
    const labels = await view.locator('.param label').evaluateAll((els) => els.map((e) => [e.htmlFor, e.textContent]));
    assert.deepEqual(labels, [['memory-model', 'Model'], ['memory-gpu', 'GPU'], ['memory-in-gpus', 'GPUs (one replica)'],
      ['memory-in-context', 'Context tokens'], ['memory-in-batch', 'Batch (sequences)'], ['memory-in-replicas', 'Replicas']]);
    // The lecture's case (§1): Llama-3-70B's 141 GB on one 80 GB H100 does not fit.
    const one = await checkAgainstEngine(page, LECTURE);
    assert.equal(one.fits, false);
    assert.equal(one.min_gpus, 2);
    const sentence = page.locator('[data-role="fits-sentence"]');
    assert.equal(await sentence.getAttribute('data-fits'), 'false');
    assert.equal(await sentence.textContent(), `Does not fit: Llama-3-70B’s weights are ${formatBytes(one.weight_bytes_per_gpu)} on one H100 SXM, more than its ${formatBytes(one.hbm_bytes)}. The weights alone need 2 GPUs.`);
    assert.match(await page.locator('[data-role="decode-note"]').textContent(), /the model does not fit on one\.$/);
    // Two H100: fits; the sentence flips.
    await page.locator('#memory-in-gpus').fill('2');
    const two = await checkAgainstEngine(page, { ...LECTURE, gpus: 2 });
    assert.equal(two.fits, true);
    assert.equal(await sentence.getAttribute('data-fits'), 'true');
    assert.match(await sentence.textContent(), /^Fits: each of the 2 H100 SXM holds 70\.5 GB of weights and /);
    // The weights fit but the KV cache does not (batch 8 at 8,192 tokens).
    await page.locator('#memory-in-batch').fill('8');
    const kv = await checkAgainstEngine(page, { ...LECTURE, gpus: 2, batch: 8 });
    assert.equal(kv.weights_fit && !kv.fits, true);
    assert.match(await sentence.textContent(), new RegExp(`^Does not fit: the weights fit .* It takes ${kv.min_gpus_with_kv} GPUs, or at most ${kv.max_context_tokens.toLocaleString('en')} tokens of context at batch 8\\.$`));
    // §1 (2): 8 H100, about 5 ms nominal and 6.6 ms effective; both labelled.
    await page.locator('#memory-in-batch').fill('1');
    await page.locator('#memory-in-gpus').fill('8');
    const eight = await checkAgainstEngine(page, { ...LECTURE, gpus: 8 });
    assert.equal(Number((eight.decode_time_s * 1e3).toFixed(1)), 5.3);
    assert.equal(Number((eight.decode_time_effective_s * 1e3).toFixed(1)), 6.6);
    const values = await page.locator('.memory-row').evaluateAll((els) => els.map((e) => [e.querySelector('.memory-row-label').textContent, e.querySelector('.memory-value').textContent]));
    assert.deepEqual(values[2], ['8 GPUs, nominal 3.35 TB/s', formatTime(eight.decode_time_s)]);
    assert.deepEqual(values[3], ['8 GPUs, effective (80% of nominal)', formatTime(eight.decode_time_effective_s)]);
    assert.equal(values[0][1], `${formatTime(eight.one_gpu_decode_time_s)} (does not fit)`);
    // Replicas (§6.1): throughput multiplies, no traffic between them.
    const replicas = page.locator('[data-role="replicas-sentence"]');
    assert.equal(await replicas.getAttribute('data-replicas'), 'one');
    await page.locator('#memory-in-replicas').fill('4');
    const four = await checkAgainstEngine(page, { ...LECTURE, gpus: 8, replicas: 4 });
    assert.equal(four.total_gpus, 32);
    assert.equal(await replicas.getAttribute('data-replicas'), 'many');
    assert.match(await replicas.textContent(), /^4 replicas × 8 GPUs = 32 GPUs: at most [\d.]+ tokens a second in all at batch 1 .*4× one replica’s\.$/);
    assert.equal(await page.locator('[data-fact="traffic"]').textContent(), 'No traffic between replicas: 0 B at inference (each serves its own requests).');
    // DeepSeek-V3 (671 GB FP8) on 8 H200 fits.
    await page.locator('#memory-model').selectOption('deepseek_v3');
    await page.locator('#memory-gpu').selectOption('h200');
    await page.locator('#memory-in-context').fill('0');
    const ds = await checkAgainstEngine(page, { model: 'deepseek_v3', gpu: 'h200', gpus: 8, context: 0, batch: 1, replicas: 4 });
    assert.equal(ds.fits, true);
    assert.deepEqual([ds.min_gpus, ds.min_gpus_power_of_two], [5, 8]);
    // The presets' published figures, the engine's, beside the view.
    const sources = (await engineEval(page, { op: 'presets' })).sources;
    const shown = await page.locator('[data-role="sources"] li').evaluateAll((els) => els.map((e) => [e.dataset.preset, e.textContent]));
    assert.deepEqual(shown, [['deepseek_v3', sources.deepseek_v3], ['h200', sources.h200]]);
    assert.match(sources.deepseek_v3, /kv_lora_rank 512 \+ qk_rope_head_dim 64/);
    assert.match(await page.locator('[data-fact="min-gpus"]').textContent(), /^GPUs the weights need: 5 .*a power of two \(§6\.2\): 8\.$/);
    assert.match(await page.locator('[data-role="decode-note"]').textContent(), /DeepSeek-V3 is a mixture of experts: .* above its bound\.$/);
    // Extremes: 4,096 GPUs (16 drawn), 100,000,000 tokens, batch 1,000,000, 100,000 replicas; 1 GPU, context 0.
    for (const [id, v] of [['gpus', '4096'], ['context', '100000000'], ['batch', '1000000'], ['replicas', '100000']]) await page.locator(`#memory-in-${id}`).fill(v);
    const big = await checkAgainstEngine(page, { model: 'deepseek_v3', gpu: 'h200', gpus: 4096, context: 100000000, batch: 1000000, replicas: 100000 });
    assert.equal(big.fits, false);
    assert.match(await page.locator('[data-role="gpus-note"]').textContent(), /16 of the 4,096 GPUs drawn/);
    for (const [id, v] of [['gpus', '1'], ['context', '0'], ['batch', '1'], ['replicas', '1']]) await page.locator(`#memory-in-${id}`).fill(v);
    await page.locator('#memory-gpu').selectOption('b200');
    await checkAgainstEngine(page, { model: 'deepseek_v3', gpu: 'b200', gpus: 1, context: 0, batch: 1, replicas: 1 });
    // Outside the range: said in words naming the control; nothing drawn meanwhile.
    await page.locator('#memory-in-gpus').fill('0');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'GPUs (one replica): 0 is not allowed; allowed a whole number from 1 to 4,096. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#memory-in-gpus').fill('2');
    await page.locator('#memory-in-batch').fill('1.5');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^Batch \(sequences\): 1\.5 is not allowed/);
    await page.locator('#memory-in-batch').fill('1');
    await checkAgainstEngine(page, { model: 'deepseek_v3', gpu: 'b200', gpus: 2, context: 0, batch: 1, replicas: 1 });
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'memory', { ready: (page) => settled(page, LECTURE), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
    // Eight GPUs that fit, for the picture of a split.
    await page.locator('#memory-in-gpus').fill('8');
    await settled(page, { ...LECTURE, gpus: 8 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= viewport.width, `memory ${lang} on 8 GPUs: ${wide}px wide in ${viewport.width}px`);
    await shot(page, { path: join(screenshotDir(), `memory-8-${lang}-${viewport.width}.png`), fullPage: true });
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
