// Ring attention (?view=ring, P5 §6.5) held against the engine's ring_attention answers: each link's
// compute and KV transfer, both thresholds, the hiding case (α included) that picks the sentence,
// bars in the order of the times, and each device's causal work, contiguous and zig-zag.
import assert from 'node:assert/strict';
import { engine } from '../engine.mjs';
import { logInt, pick } from './walk.mjs';

/** Waits until the view has drawn `s` (its settings, by data-setting). */
export const settled = (page, s) => page.waitForSelector(
  `[data-view="ring"][data-model="${s.model}"][data-devices="${s.devices}"][data-link-a="${s['ring-link-a']}"][data-link-b="${s['ring-link-b']}"]`
  + `[data-prompt-tokens="${s.prompt_tokens}"]:not([aria-busy]) [data-role="drawn"]:not([hidden])`, { timeout: 20000 });

/** Settings drawn from the view's domain: a preset, 1-1,024 devices, 1 to 2e9 tokens, two links. */
export function draw(rng, options) {
  const devices = rng() < 0.3 ? pick(rng, [2, 4, 8, 16, 32, 64]) : logInt(rng, 1, 1024);
  const s = { model: pick(rng, options.model), devices, 'ring-link-a': pick(rng, options['ring-link-a']), 'ring-link-b': pick(rng, options['ring-link-b']) };
  const u = rng();
  let perDevice;
  if (u < 0.35) {
    // Between one link's two thresholds, where the bandwidth-only flag says hidden and alpha says
    // not: the case a view that reads the wrong flag misteaches.
    const r = engine({ op: 'ring_attention', model: s.model, devices, prompt_tokens: devices, link: s[pick(rng, ['ring-link-a', 'ring-link-b'])] });
    const lo = Math.ceil(r.threshold_tokens);
    const hi = Number.isFinite(r.threshold_with_alpha_tokens) ? Math.floor(r.threshold_with_alpha_tokens) : lo * 4;
    perDevice = hi > lo ? logInt(rng, lo, hi) : lo;
  } else if (u < 0.7) {
    perDevice = logInt(rng, 50, 20000); // around the thresholds (about 240 on NVLink, 2,163 on InfiniBand)
  }
  s.prompt_tokens = Math.max(1, Math.min(perDevice ? devices * perDevice : logInt(rng, 1, 2e9), 2e9));
  return s;
}
export const first = { model: 'llama3_70b', devices: 8, prompt_tokens: 131072, 'ring-link-a': 'nvlink4', 'ring-link-b': 'ib_ndr' };

/** Asserts what the view shows at `s` is the engine's; returns the engine's two answers. */
export async function check(page, s) {
  await settled(page, s);
  const links = [s['ring-link-a'], s['ring-link-b']];
  const wants = links.map((link) => engine({ op: 'ring_attention', model: s.model, devices: s.devices, prompt_tokens: s.prompt_tokens, link }));
  const at = JSON.stringify(s);
  const rows = await page.locator('.ring-link-row').evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
  assert.deepEqual(rows.map((r) => r.link), links, at);
  rows.forEach((r, i) => {
    const w = wants[i];
    assert.equal(Number(r.computeTimeS), w.compute_time_s, at);
    assert.equal(Number(r.transferTimeS), w.transfer_time_s, at);
    assert.equal(Number(r.thresholdTokens), w.threshold_tokens, at);
    assert.equal(Number(r.thresholdWithAlphaTokens), w.threshold_with_alpha_tokens, at);
    assert.equal(r.hidden, String(w.hidden), at);
    assert.equal(r.hiddenWithAlpha, String(w.hidden_with_alpha), at);
  });
  const says = await page.locator('[data-role="hiding-sentences"] li').evaluateAll((els) => els.map((e) => e.dataset.says));
  assert.deepEqual(says, wants.map((w) => w.hiding_case), `${at}: the sentences say the engine's cases`);
  // Each bar is its time on one axis (the longest time of both links is 100%, drawn to 0.001%),
  // so a transfer bar is longer than the compute's where the time is, up to that resolution; a
  // sentence that says "hides" stands beside a transfer bar no longer than the compute's.
  const bars = await page.locator('.ring-link-row').evaluateAll((els) => els.map((e) => [...e.querySelectorAll('.ring-bar')].map((b) => parseFloat(b.style.width))));
  const longest = Math.max(...wants.flatMap((w) => [w.compute_time_s, w.transfer_time_s]));
  bars.forEach(([compute, transfer], i) => {
    const w = wants[i];
    const what = `${at} ${links[i]}: bars ${compute}% and ${transfer}% against ${w.compute_time_s} and ${w.transfer_time_s} s`;
    assert.ok(Math.abs(compute - (w.compute_time_s / longest) * 100) <= 0.0005 + 1e-9, what);
    assert.ok(Math.abs(transfer - (w.transfer_time_s / longest) * 100) <= 0.0005 + 1e-9, what);
    if (transfer > compute) assert.ok(w.transfer_time_s > w.compute_time_s, what);
    if (transfer < compute) assert.ok(w.transfer_time_s < w.compute_time_s, what);
    assert.equal(says[i] === 'hidden', w.hidden_with_alpha, `${at} ${links[i]}: ${says[i]}`);
  });
  for (const layout of ['contiguous', 'zigzag']) {
    const c = wants[0].causal[layout];
    const fig = page.locator(`.ring-layout[data-layout="${layout}"]`);
    if (!c) { assert.equal(await fig.count(), 0, `${at}: ${layout} not drawn`); continue; }
    assert.equal(Number(await fig.getAttribute('data-imbalance')), c.imbalance, at);
    assert.deepEqual(await fig.locator('.ring-col').evaluateAll((els) => els.map((e) => Number(e.dataset.workPairs))), c.work_pairs, at);
  }
  return wants;
}
