// RDMA and GPUDirect (?view=rdma, P5 §2.4) in headless Chromium: each path's time and every stage's
// interval are the engine's (the native CLI's gpudirect); the sentences flip with its figures
// (the pipeline near GPUDirect or slower than no chunking; NCCL's path with and without a shared
// PCIe switch); the controls redraw at their extremes without console errors; Topics links to it;
// axe-core; no sideways scroll at 390 px with the table open; screenshots in English and Chinese.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { formatTime } from '../../web/util/units.js';
import { check, first, settled } from './truth/rdma.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);

// The view's settings as a student sets them (size in MB); `check` holds every figure, bar and
// sentence case the view draws at them to the engine's answer (truth/rdma.mjs, the truth walk's own).
const at = (changes = {}) => ({ ...first, ...changes });

const says = (page) => page.locator('.rdma-sentences li').evaluateAll((els) => els.map((e) => e.dataset.says));

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, first);
  assert.match(await zh.locator('[data-says="direct"]').textContent(), /^GPUDirect RDMA 传 1 GB 用 25\.01 ms，只有网络本身；经主机内存三段依次要 64\.08 ms，是它的 2\.56×。$/);
}

const lab = useLab();

describe('rdma view', () => {
  test('figures are the engine\'s; the sentences flip with them; extremes redraw; out of range is said', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=rdma`, errors);
    const view = page.locator('[data-view="rdma"]');
    assert.equal(await view.getAttribute('data-lecture'), '2.4');
    // The lecture's 1 GB (code 01 demo 4): 64 ms staged, about 25 ms pipelined, 25 ms GPUDirect.
    const lecture = await check(page, first);
    assert.deepEqual(await says(page), ['direct', 'pipelined-overlaps', 'nccl-gpudirect']);
    const opening = await page.locator('.rdma-sentences li').first().textContent();
    assert.equal(opening, `GPUDirect RDMA moves 1 GB in ${formatTime(lecture.paths[2].time_s)}, the network alone; through host memory one stage after another it takes ${formatTime(lecture.paths[0].time_s)}, ${Number(lecture.staged_over_gpudirect.toPrecision(3))}× as long.`);
    assert.match(opening, /in 25\.01 ms.* takes 64\.08 ms, 2\.56× as long/);
    assert.match(await page.locator('[data-says="pipelined-overlaps"]').textContent(), /paced by the network stage; both hosts’ memory still moves 4 GB/);
    assert.equal(await page.locator('.rdma-path.rdma-nccl').getAttribute('data-path'), 'gpudirect');
    // No shared PCIe switch: NCCL copies through host memory.
    await page.locator('#rdma-switch').uncheck();
    await page.waitForSelector('[data-view="rdma"][data-nccl-path="host_pipelined"]:not([aria-busy])');
    await check(page, at({ same_pcie_switch: false }));
    assert.deepEqual(await says(page), ['direct', 'pipelined-overlaps', 'nccl-host_pipelined']);
    // Very many chunks: each pays its α, and the pipeline is slower than no chunking at all.
    await page.locator('#rdma-chunks').fill('1048576');
    const many = await check(page, at({ chunks: 1048576, same_pcie_switch: false }));
    assert.ok(many.paths[1].time_s > many.paths[0].time_s);
    assert.deepEqual(await says(page), ['direct', 'pipelined-worse', 'nccl-host_pipelined']);
    assert.equal(many.pipelined_case, 'worse');
    // A NIC faster than PCIe Gen4: the host copies pace the pipeline.
    await page.locator('#rdma-chunks').fill('64');
    await page.locator('#rdma-host-link').selectOption('pcie4');
    await page.locator('#rdma-link').selectOption('nvlink4');
    const fastNic = await check(page, at({ link: 'nvlink4', host_link: 'pcie4', same_pcie_switch: false }));
    assert.notEqual(fastNic.paths[1].paced_by, 'network');
    assert.match(await page.locator('[data-says="pipelined-overlaps"]').textContent(), /paced by the (GPU → host memory|host memory → GPU) stage/);
    // Extremes: one byte, one chunk; 1,000,000,000 MB (1 PB).
    await page.locator('#rdma-mb').fill('0.000001');
    await page.locator('#rdma-chunks').fill('1');
    await check(page, at({ mb: 0.000001, chunks: 1, link: 'nvlink4', host_link: 'pcie4', same_pcie_switch: false }));
    await page.locator('#rdma-mb').fill('1000000000');
    const one = await check(page, at({ mb: 1e9, chunks: 1, link: 'nvlink4', host_link: 'pcie4', same_pcie_switch: false }));
    // One chunk overlaps nothing: the engine says so, and no stage is said to pace it.
    assert.equal(one.pipelined_case, 'single_chunk');
    assert.deepEqual(await says(page), ['direct', 'pipelined-single_chunk', 'nccl-host_pipelined']);
    assert.match(await page.locator('[data-says="pipelined-single_chunk"]').textContent(), /^In 1 chunk nothing overlaps/);
    // Out of range: said naming the control; nothing drawn meanwhile.
    await page.locator('#rdma-chunks').fill('0');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'Chunks: 0 is not allowed; allowed a whole number from 1 to 1,048,576. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#rdma-chunks').fill('8');
    await page.locator('#rdma-mb').fill('');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^Message size: nothing typed; allowed a number of MB/);
    await page.locator('#rdma-mb').fill('16');
    await check(page, at({ mb: 16, chunks: 8, link: 'nvlink4', host_link: 'pcie4', same_pcie_switch: false }));
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'rdma', { ready: (page) => settled(page, first), errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
