// Tensor and sequence parallelism (?view=split, P5 §6.2) in headless Chromium: the split check's
// bytes, ratio and errors and the tp op's SP memory and link times are the engine's (the native
// CLI); the controls redraw at their extremes without console errors; the sentences flip with the
// numbers (link choice, one GPU, too many GPUs); Topics links to it; axe-core; no sideways scroll
// at 390 px with the tables open; screenshots in English and Chinese at 1280 and 390 px.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { formatBytes, formatTime } from '../../web/util/units.js';
import { check, first, settled } from './truth/split.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);
const VIEW = '[data-view="split"]';

// The view's settings as a student sets them; `check` holds every figure, bar and case the view
// draws at them to the engine's answers (truth/split.mjs, the truth walk's own check).
const at = (changes = {}) => ({ ...first, ...changes });

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, first);
  assert.match(await zh.locator('[data-role="check-sentence"]').textContent(), /^两种切法都与单卡一致，误差在 \d\.\de-\d+ 以内；错误的切法要传 7 倍的字节。$/);
  assert.match(await zh.locator('[data-role="place-sentence"]').textContent(), /^走 InfiniBand NDR 时 160 次 all-reduce 是读权重的 1\.\d+×.*张量并行应放在 NVLink 4 域内。$/);
}

const lab = useLab();

describe('split view', () => {
  test('the split check is the engine\'s; extremes redraw; bad tokens are said', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=split`, errors);
    assert.equal(await page.locator(VIEW).getAttribute('data-lecture'), '6.2');
    const { want: lecture } = await check(page, first);
    assert.equal(lecture.mlp.bytes_ratio, 7, 'the lecture\'s 7x');
    const sentence = page.locator('[data-role="check-sentence"]');
    const worst = Math.max(lecture.mlp.max_abs_error, lecture.mlp.wrong_max_abs_error, lecture.mlp.sp_max_abs_error, lecture.attention.max_abs_error);
    assert.ok(worst > 0 && worst < 1e-15, `worst ${worst}`);
    assert.equal(await sentence.getAttribute('data-agree'), 'agree');
    assert.equal(await sentence.textContent(), `Both splits equal one device to ${worst.toExponential(1)}; the wrong split sends 7× the bytes.`);
    // Extremes: 1 shard (every error 0), 64 shards (tokens kept a multiple: 64), 256 tokens.
    await page.locator('#split-shards').selectOption('1');
    const { want: one } = await check(page, at({ shards: '1' }));
    assert.equal(one.mlp.max_abs_error, 0);
    assert.match(await sentence.textContent(), /^Both splits equal one device to 0; the wrong split sends 7× the bytes\.$/);
    await page.locator('#split-tokens').fill('1');
    await check(page, at({ shards: '1', tokens: 1 }));
    await page.locator('#split-tokens').fill('256');
    await check(page, at({ shards: '1', tokens: 256 }));
    await page.locator('#split-shards').selectOption('64');
    // 256 tokens on 64 shards is past the quick check's size: the engine's refusal, nothing drawn.
    const { want: large } = await check(page, at({ shards: '64', tokens: 256 }));
    assert.equal(large.error.code, 'out_of_range');
    const problem = page.locator('[data-role="check-error"]');
    assert.equal(await problem.textContent(), 'Tokens: 256 × hidden 128 × ffn 448 is too large for the quick check; fewer tokens or shards. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-role="check-drawn"]').isHidden(), true);
    await page.locator('#split-tokens').fill('64');
    const { want: wide } = await check(page, at({ shards: '64', tokens: 64 }));
    assert.equal(wide.mlp.bytes_ratio, 7);
    await page.locator('#split-shards').selectOption('4');
    await check(page, at({ tokens: 64 }));
    await page.locator('#split-tokens').fill('6');
    const { want: six } = await check(page, at({ tokens: 6 }));
    assert.equal(six.error.code, 'invalid_value');
    assert.equal(await problem.textContent(), 'Tokens: 6 is not a multiple of the 4 shards; sequence parallelism gives each shard T/4 tokens. Nothing is drawn meanwhile.');
    await page.locator('#split-tokens').fill('257');
    await page.waitForSelector(`${VIEW} [data-role="check-drawn"][hidden]`, { state: 'attached' });
    assert.equal(await problem.textContent(), 'Tokens: 257 is not allowed; allowed a whole number from 1 to 256. Nothing is drawn meanwhile.');
    await page.locator('#split-tokens').fill('16');
    await check(page, first);
    assert.equal(await problem.isHidden(), true);
    await ctx.close();
  });

  test('TP against SP and the link sentence are the engine\'s; the sentence flips with the numbers', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=split`, errors);
    const { a, b } = await check(page, first);
    assert.equal(await page.locator(VIEW).getAttribute('data-model'), 'llama3_70b');
    assert.equal(a.allreduces, 160);
    // Sequence parallelism: the same bytes, a k-th of the activations (the engine's two numbers).
    assert.ok(a.sequence_parallel.activation_bytes_per_gpu < a.sequence_parallel.tp_activation_bytes_per_gpu);
    assert.equal(await page.locator('[data-role="sp-sentence"]').textContent(),
      `Llama-3-70B on 8 GPUs, 1 token(s): both send ${formatBytes(a.bytes_sent_per_gpu)} a GPU a step (an all-reduce is a reduce-scatter and an all-gather); the activations outside the MLP and attention take ${formatBytes(a.sequence_parallel.tp_activation_bytes_per_gpu)} on each GPU with tensor parallelism, ${formatBytes(a.sequence_parallel.activation_bytes_per_gpu)} with sequence parallelism.`);
    // §6.2: NVLink under the weight read, InfiniBand over it.
    assert.ok(a.comm_to_compute < 1 && b.comm_to_compute > 1);
    const place = page.locator('[data-role="place-sentence"]');
    assert.equal(await place.getAttribute('data-place'), 'inside');
    assert.equal(await place.textContent(),
      `On InfiniBand NDR the 160 all-reduces take ${Number(b.comm_to_compute.toPrecision(3))}× the weight read (${formatTime(b.comm_time_s)} against ${formatTime(a.weight_read_time_s)}); on NVLink 4 ${Number((a.comm_to_compute * 100).toPrecision(3))}% (${formatTime(a.comm_time_s)}): tensor parallelism belongs inside the NVLink 4 domain.`);
    // Compare with NVLink 5: both links under the weight read; the sentence flips.
    await page.locator('#split-across').selectOption('nvlink5');
    await check(page, at({ across: 'nvlink5' }));
    assert.equal(await place.getAttribute('data-place'), 'both');
    assert.match(await place.textContent(), /^On both links the 160 all-reduces take less than the weight read/);
    // The links swapped: InfiniBand "inside", NVLink 4 across.
    await page.locator('#split-inside').selectOption('ib_ndr');
    await page.locator('#split-across').selectOption('nvlink4');
    await check(page, at({ inside: 'ib_ndr', across: 'nvlink4' }));
    assert.equal(await place.getAttribute('data-place'), 'across');
    await page.locator('#split-inside').selectOption('nvlink4');
    await page.locator('#split-across').selectOption('ib_ndr');
    // Extremes: one GPU (no all-reduce), 4,096 GPUs (neither link keeps up), 1e8 tokens.
    await page.locator('#split-tp').fill('1');
    const single = await check(page, at({ tp: 1 }));
    assert.equal(single.a.comm_time_s, 0);
    assert.equal(await place.getAttribute('data-place'), 'none');
    assert.equal(await place.textContent(), `One GPU: no all-reduce; the weight read takes ${formatTime(single.a.weight_read_time_s)}.`);
    await page.locator('#split-tp').fill('4096');
    const many = await check(page, at({ tp: 4096 }));
    assert.equal(await place.getAttribute('data-place'), many.a.comm_to_compute >= 1 && many.b.comm_to_compute >= 1 ? 'neither' : 'inside');
    await page.locator('#split-tp-tokens').fill('100000000');
    await check(page, at({ tp: 4096, 'tp-tokens': 100000000 }));
    await page.locator('#split-model').selectOption('llama3_8b');
    await page.locator('#split-tp').fill('8');
    await page.locator('#split-tp-tokens').fill('1');
    await check(page, at({ model: 'llama3_8b' }));
    assert.equal(await page.locator(VIEW).getAttribute('data-model'), 'llama3_8b');
    // Outside the range: said, nothing drawn.
    await page.locator('#split-tp').fill('0');
    await page.waitForSelector(`${VIEW} [data-role="tp-drawn"][hidden]`, { state: 'attached' });
    assert.equal(await page.locator('[data-role="tp-error"]').textContent(), 'Tensor-parallel GPUs: 0 is not allowed; allowed a whole number from 1 to 4,096. Nothing is drawn meanwhile.');
    await page.locator('#split-tp').fill('8');
    await check(page, at({ model: 'llama3_8b' }));
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the tables open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'split', { ready: (page) => settled(page, first), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
