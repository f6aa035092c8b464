// The decode view (?view=decode, P5 §5.7, §2.5) in headless Chromium: every algorithm's step is
// the engine's `tp` answer (the native CLI), the sentence follows the numbers (latency-bound in
// decode, bandwidth-bound in prefill), the controls at their extremes redraw without console
// errors, a bad value is said, Topics links here, axe-core, no sideways scroll at 390 px with
// the table open, screenshots in English and Chinese at 1280 and 390 px.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, shot, useLab } from './helpers.mjs';
import { engine } from './engine.mjs';
import { check, first, settled } from './truth/decode.mjs';

const ALGORITHMS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
const errors = [];
const fresh = (viewport = DESKTOP) => lab.browser.newContext({ viewport });

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, first);
  assert.equal(await zh.locator('[data-role="sentences"] li[data-algorithm="ring"]').textContent(), '环：通信是读权重的 68.3%；α 占每次 all-reduce 的 99.7%（14 步）：受延迟限制。');
  assert.equal(await zh.locator('[data-role="sentences"] li[data-algorithm="one_shot"]').textContent(),
    'vLLM custom，一步（one-shot）：通信是读权重的 5.64%；α 占每次 all-reduce 的 86.3%（1 步）：受延迟限制。vLLM 在 8 块卡、16 KiB 时用的就是这个。');
}

const lab = useLab();

/** The engine's answer among `want` (truth/decode.mjs check) for the row of `algorithm` (per_allreduce.algorithm). */
const row = (want, algorithm) => want.find((w) => w.per_allreduce.algorithm === algorithm);
/** The verdict each row draws (data-bound). */
const bounds = (page) => page.locator('.decode-row').evaluateAll((els) => els.map((e) => e.dataset.bound));

describe('decode', () => {
  test('the lecture\'s case: Llama-3-70B on TP8 over NVLink 4, 160 all-reduces, each algorithm the engine\'s; the ring latency-bound at 68% of the weight read', async () => {
    const ctx = await fresh();
    const mine = [];
    const page = await openPage(ctx, `${lab.server.url}?view=decode`, mine);
    const { want } = await check(page, first);
    const view = page.locator('[data-view="decode"]');
    assert.equal(await view.getAttribute('data-lecture'), '5.7');
    assert.equal(want[0].allreduces, 160, 'P5 §5.7: 80 layers × 2');
    assert.equal(await page.locator('[data-role="summary"]').textContent(), 'Llama-3-70B on 8 GPUs, decode, 1 token(s): 160 all-reduces a step, each 16 KiB; the weight read takes 6.576 ms.');
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="ring"]').textContent(), 'ring: communication is 68.3% of the weight read; α is 99.7% of each all-reduce (14 steps): latency-bound.');
    for (const b of await page.locator('[data-role="sentences"] li').evaluateAll((els) => els.map((e) => e.dataset.bound))) assert.equal(b, 'latency');
    // Fewer steps, less time: in-switch beats the ring in decode (§5.4, §5.7).
    assert.ok(row(want, 'in_switch').comm_time_s < want[0].comm_time_s / 4);
    // §5.7's kernels: NCCL's LL ring and vLLM's one shot take a fraction of the generic ring; vLLM picks one shot at 16 KB.
    const [ll, one, two] = ['ring/LL', 'one_shot', 'two_shot'].map((a) => row(want, a));
    assert.ok(one.comm_time_s < two.comm_time_s && two.comm_time_s < ll.comm_time_s && ll.comm_time_s < want[0].comm_time_s, JSON.stringify({ one, two, ll }));
    assert.equal(one.per_allreduce.steps, 1);
    assert.deepEqual([one.per_allreduce.vllm_picks, two.per_allreduce.vllm_picks], [true, false]);
    assert.equal(await page.locator('.decode-group').textContent(), 'Kernels written for small messages (§5.7): NCCL’s LL protocol and vLLM’s custom all-reduce');
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="one_shot"]').textContent(),
      'vLLM custom, one shot: communication is 5.64% of the weight read; α is 86.3% of each all-reduce (1 step): latency-bound. vLLM launches this one for 16 KiB on 8 GPUs.');
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="ring/LL"]').textContent(),
      'NCCL ring, LL protocol: communication is 25.2% of the weight read; α is 98.5% of each all-reduce (14 steps): latency-bound.');
    // The table has a row per algorithm and kernel.
    assert.deepEqual(await page.locator('details.chart-table tbody tr').evaluateAll((els) => els.map((e) => e.dataset.algorithm)),
      [...ALGORITHMS, 'ring/LL', 'one_shot', 'two_shot']);
    // §2.5's other transfers (code 01 demo 3): a 4K prompt's KV over 1 and 8 NICs, a cold start
    // from NVMe and from CPU memory (their figures held to the engine's by check above).
    assert.equal(await page.locator('[data-role="transfers-sentence"]').textContent(),
      'Llama-3-70B: a 4,096-token prompt’s KV is 1.342 GB (1,280 MiB), 33.56 ms over one NIC and 4.199 ms over 8, less than the 105.2 ms its prefill takes; a cold start reads 141 GB of weights in 25.18 s from one NVMe SSD, 344.2 ms from CPU memory over 8 PCIe links.');
    assert.deepEqual(mine, []);
    await ctx.close();
  });

  test('prefill flips the sentence to bandwidth-bound; InfiniBand, other models and GPUs, the extremes of tp and tokens redraw as the engine says; a bad value is said', async () => {
    const ctx = await fresh();
    const mine = [];
    const page = await openPage(ctx, `${lab.server.url}?view=decode`, mine);
    await settled(page, first);
    // Prefill: the engine's prompt length is asked for and shown; the β part takes over.
    await page.locator('#decode-phase').selectOption('prefill');
    const prefill = engine({ op: 'tp', model: 'llama3_70b', tp: 8, phase: 'prefill' });
    await check(page, { ...first, phase: 'prefill', tokens: prefill.tokens });
    assert.equal(await page.locator('#decode-tokens').inputValue(), String(prefill.tokens));
    // The engine's count is in the address too, so a language switch keeps it.
    assert.match(page.url(), new RegExp(`[?&]tokens=${prefill.tokens}(&|$)`));
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="ring"]').getAttribute('data-bound'), 'bandwidth');
    // A prefill's all-reduce is over vLLM's 8 MiB: its rows say so and draw nothing.
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="two_shot"]').textContent(),
      'vLLM custom, two shots: does not run here: each all-reduce is 64 MiB, over vLLM’s limit of 8 MiB; NCCL runs instead.');
    assert.equal(await page.locator('.decode-row[data-algorithm="one_shot"] .bar').count(), 0);
    assert.match(await page.locator('[data-role="sentences"] li[data-algorithm="ring"]').textContent(), /of the compute; α is \d.*bandwidth-bound\.$/);
    // Back to decode on InfiniBand (§6.2): communication outgrows the weight read.
    await page.locator('#decode-phase').selectOption('decode');
    await settled(page, first);
    await page.locator('#decode-link').selectOption('ib_ndr');
    const { want: ib } = await check(page, { ...first, link: 'ib_ndr' });
    assert.ok(ib[0].comm_to_compute > 1);
    assert.match(await page.locator('[data-role="sentences"] li[data-algorithm="ring"]').textContent(), /communication is 172% of the weight read.*latency-bound\.$/);
    assert.equal(await page.locator('[data-role="sentences"] li[data-algorithm="one_shot"]').textContent(),
      'vLLM custom, one shot: does not run here: it reads the other GPUs’ memory directly, so every pair must be joined by NVLink, and this link is not; NCCL runs instead.');
    // §5.4: InfiniBand's SHARP switches reduce, PCIe switches do not: in-switch reduction is drawn on
    // the one and said not to run on the other.
    assert.equal(await page.locator('.decode-row[data-algorithm="in_switch"]').getAttribute('data-applies'), 'true');
    await page.locator('#decode-link').selectOption('pcie5');
    await check(page, { ...first, link: 'pcie5' });
    assert.equal(await page.locator('.decode-row[data-algorithm="in_switch"]').getAttribute('data-limit'), 'switch');
    assert.match(await page.locator('[data-role="sentences"] li[data-algorithm="in_switch"]').textContent(), /^in-switch reduction: does not run here: no switch on this link reduces/);
    await page.locator('#decode-link').selectOption('ib_ndr');
    await settled(page, { ...first, link: 'ib_ndr' });
    // Another model and GPU; the extremes of tp and tokens.
    await page.locator('#decode-model').selectOption('deepseek_v3');
    await page.locator('#decode-gpu').selectOption('b200');
    const cases = [[1, 1], [4096, 1], [8, 100000000], [2, 1]];
    for (const [k, b] of cases) {
      await page.locator('#decode-tp').fill(String(k));
      await page.locator('#decode-tokens').fill(String(b));
      const { want } = await check(page, { model: 'deepseek_v3', gpu: 'b200', tp: k, link: 'ib_ndr', phase: 'decode', tokens: b });
      const got = await bounds(page);
      if (k === 1) {
        assert.ok(got.every((bound) => bound === 'none') && want.every((w) => w.comm_time_s === 0), 'one GPU: no communication');
        assert.equal(await page.locator('[data-role="sentences"] li').first().textContent(), 'ring: one GPU: no all-reduce, no communication.');
      }
      if (b === 100000000) assert.equal(got[0], 'bandwidth', 'a huge batch: bandwidth-bound');
      if (k === 4096) assert.match(await page.locator('[data-role="sentences"] li').first().textContent(), /communication is [\d,.]+× of the weight read/);
      if (k === 1) assert.ok(want.every((w) => w.per_allreduce.applies !== false), 'one GPU breaks no limit of vLLM\'s');
    }
    // Values the engine would refuse: said, naming the control and the range; nothing drawn.
    await page.locator('#decode-tp').fill('0');
    assert.equal(await page.locator('[data-view="decode"] [data-role="settings-error"]').textContent(), 'Tensor-parallel GPUs: 0 is not allowed; allowed a whole number from 1 to 4,096. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-view="decode"] [data-role="drawn"]').isHidden(), true);
    await page.locator('#decode-tp').fill('8');
    await page.locator('#decode-tokens').fill('100000001');
    assert.match(await page.locator('[data-view="decode"] [data-role="settings-error"]').textContent(), /^Tokens: 100000001 is not allowed; allowed a whole number from 1 to 100,000,000\./);
    await page.locator('#decode-tokens').fill('4');
    await settled(page, { model: 'deepseek_v3', gpu: 'b200', tp: 8, link: 'ib_ndr', phase: 'decode', tokens: 4 });
    assert.equal(await page.locator('[data-view="decode"] [data-role="drawn"]').isHidden(), false);
    // NVLink 5 with 16 GPUs: vLLM's kernel takes 2, 4, 6 or 8.
    await page.locator('#decode-link').selectOption('nvlink5');
    await page.locator('#decode-tp').fill('16');
    await check(page, { model: 'deepseek_v3', gpu: 'b200', tp: 16, link: 'nvlink5', phase: 'decode', tokens: 4 });
    assert.equal(await page.locator('.decode-row[data-algorithm="two_shot"]').getAttribute('data-limit'), 'devices');
    assert.match(await page.locator('[data-role="sentences"] li[data-algorithm="two_shot"]').textContent(), /takes 2, 4, 6 or 8 GPUs, not 16; NCCL runs instead\.$/);
    await ctx.close();
  });

  test('axe-core clean; no sideways scroll at 390 px with the table open; screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'decode', { ready: (page) => settled(page, first), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
