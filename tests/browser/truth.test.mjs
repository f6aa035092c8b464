// One truth (issue: pictures agree with the engine): exercise 6's pipeline view shows the engine's
// steady state and equals the exercise's answer; timelines carry data-lecture; calculator input
// problems are in the page's words, name the control and its range, and clear stale results;
// sliders speak their value with its unit and keyboard steps land on the next meaningful value.
// The English checks share one page of all the cards, each on a card of its own or in turn.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engineEval, openPage, useLab } from './helpers.mjs';

const errors = [];
const fresh = (locale = 'en-US') => lab.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });

const lab = useLab();

/**
 * Waits for exercise 6's timeline drawn for `stages` whose interval is `expect_s` (the timeline
 * follows the calculator asynchronously), then returns its hooks; times out with what it shows.
 */
async function pipelineHooks(page, stages, expect_s) {
  const hooks = () => page.locator('[data-exercise="6"] [data-view="timeline"]').evaluate((el) => ({ ...el.dataset, rows: el.querySelectorAll('.gantt-box')[0].querySelectorAll('.row-label').length }));
  try {
    await page.waitForFunction(([p, x]) => {
      const fig = document.querySelector('[data-exercise="6"] [data-view="timeline"]');
      return fig && fig.querySelectorAll('.gantt-box')[0].querySelectorAll('.row-label').length === p
        && (x === undefined || Math.abs(Number(fig.dataset.intervalS) - x) <= 1e-12 * x);
    }, [stages, expect_s], { timeout: 15000 });
  } catch {
    assert.fail(`exercise 6's timeline shows ${JSON.stringify(await hooks())}, expected ${stages} stages and an interval of ${expect_s} s`);
  }
  return hooks();
}

/** Card `n` of the page, scrolled into view (a card is worked on where a student would see it). */
async function cardOf(page, n) {
  const card = page.locator(`section.card[data-exercise="${n}"]:not([data-prerendered])`);
  await card.scrollIntoViewIfNeeded();
  return card;
}

/** Exercise 2's input problems in `lang`, `expect` the range message (the card's own values after). */
async function inputProblems(page, lang, expect) {
  const card = await cardOf(page, 2);
  await card.locator('[data-param="devices"]').fill('6');
  await page.waitForSelector('[data-exercise="2"] [data-result="time"]');
  await card.locator('[data-param="bytes"]').fill('-5');
  const error = card.locator('[data-role="calculator"] .card-error');
  await error.waitFor({ state: 'visible' });
  const text = await error.textContent();
  assert.match(text, expect);
  assert.doesNotMatch(text, /out_of_range|params\.|units of work|5000000/);
  assert.equal(await card.locator('[data-result]').count(), 0, 'no stale results beside the error');
  assert.equal(await card.locator('[data-param="bytes"]').getAttribute('aria-invalid'), 'true');
  // A whole number where one is needed.
  await card.locator('[data-param="bytes"]').fill('100');
  await card.locator('[data-param="devices"]').fill('2.5');
  assert.match(await error.textContent(), lang === 'en' ? /GPUs k: 2\.5 is not a whole number/ : /2\.5 不是整数/);
  // Fixed: results come back, the message goes.
  await card.locator('[data-param="devices"]').fill('5');
  await page.waitForSelector('[data-exercise="2"] [data-result="time"]');
  assert.equal(await error.isHidden(), true);
}

describe('one truth', () => {
  // Every exercise on one English page (a load costs 1-2 s here).
  let ctx = null;
  let page = null;
  before(async () => {
    ctx = await fresh();
    page = await openPage(ctx, lab.server.url, errors);
  });
  after(async () => { await ctx?.close(); });

  test('exercise 6: the timeline\'s interval is the engine\'s steady state and equals the exercise\'s answer', async () => {
    const card = await cardOf(page, 6);
    const settings = [
      { stages: 6, stage_ms: 1, transfer_ms: 0.1 },
      { stages: 4, stage_ms: 2, transfer_ms: 0.05 },
      { stages: 10, stage_ms: 0.5, transfer_ms: 0 },
      { stages: 3, stage_ms: 1, transfer_ms: 0.5 },
    ];
    for (const s of settings) {
      await card.locator('[data-param="stages"]').fill(String(s.stages));
      await card.locator('[data-param="stage_time_s"]').fill(String(s.stage_ms));
      await card.locator('[data-param="transfer_time_s"]').fill(String(s.transfer_ms));
      const params = { stages: s.stages, stage_time_s: s.stage_ms / 1e3, transfer_time_s: s.transfer_ms / 1e3 };
      const solved = await engineEval(page, { op: 'exercise.solve', id: 6, params });
      assert.ok(!solved.error, JSON.stringify(solved.error));
      const hooks = await pipelineHooks(page, s.stages, solved.answers.token_interval);
      assert.equal(hooks.lecture, '6.3');
      assert.equal(hooks.microbatches, String(solved.answers.microbatches));
      assert.ok(Math.abs(Number(hooks.intervalS) - solved.answers.token_interval) <= 1e-12 * solved.answers.token_interval,
        `${JSON.stringify(s)}: view ${hooks.intervalS} s, exercise ${solved.answers.token_interval} s`);
      // The note prints that same interval, and the bracket spans it on the time axis.
      const note = await card.locator('[data-role="timeline-note"]').textContent();
      const pipe = await engineEval(page, { op: 'pipeline', ...params, tokens: 3, timeline_tokens: 3 });
      assert.ok(Math.abs(pipe.steady_interval_s - solved.answers.token_interval) < 1e-15);
      assert.ok(Math.abs(Number(hooks.utilisation) - pipe.steady_utilisation) < 1e-12);
      assert.match(note, new RegExp(`${s.stages} micro-batches: in the steady state`));
      assert.equal(await card.locator('[data-role="interval-bracket"]').count(), 1);
    }
    // More micro-batches than a trip holds: the interval grows to m x stage time, stages 100% busy,
    // and the note says why (chosen by the engine's steady_bound).
    await card.locator('[data-param="stages"]').fill('8');
    await card.locator('[data-param="stage_time_s"]').fill('1');
    await card.locator('[data-param="transfer_time_s"]').fill('0.2');  // (0.1 ms is the exercise's own: masked)
    await pipelineHooks(page, 8, 9.4e-3);
    await card.locator('[data-role="microbatches"]').fill('12');
    await page.waitForFunction(() => document.querySelector('[data-exercise="6"] [data-view="timeline"]')?.dataset.microbatches === '12');
    const over = await card.locator('[data-view="timeline"]').evaluate((el) => ({ ...el.dataset }));
    assert.ok(Math.abs(Number(over.intervalS) - 12e-3) < 1e-12, over.intervalS);
    assert.equal(Number(over.utilisation), 1);
    assert.match(await card.locator('[data-role="timeline-note"]').textContent(), /each stage serves all 12 in turn/);
    assert.equal(await card.locator('[data-role="microbatches"]').getAttribute('aria-valuetext'), '12 micro-batches');
    // Every transfer is drawn (on the row's own strip), none hidden under a compute bar.
    const transfers = await card.locator('[data-view="timeline"] .gantt-box').first().locator('rect.bar.transfer').count();
    assert.ok(transfers > 0);
  });

  test('calculator input problems: in the page\'s language, naming the control, the value as typed and the range; stale results go', async () => {
    await inputProblems(page, 'en', /Data per GPU D: -5 MB is outside the allowed range, 1 B to 1 TB\./);
    const zhCtx = await fresh('zh-CN');
    const zh = await openPage(zhCtx, `${lab.server.url}?exercise=2&lang=zh`, errors);
    await inputProblems(zh, 'zh', /-5 MB 超出允许的范围/);
    await zhCtx.close();
  });

  test('sliders speak their value with its unit; arrow keys step to the next meaningful value', async () => {
    const card = await cardOf(page, 2);
    await card.locator('[data-param="devices"]').fill('4');
    const slider = card.locator('[data-slider="devices"]');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await card.locator('[data-param="devices"]').inputValue(), '5', 'one key press from 4 GPUs is 5 GPUs');
    assert.equal(await slider.getAttribute('aria-valuetext'), '5');
    await card.locator('[data-param="bytes"]').fill('104');
    const bytes = card.locator('[data-slider="bytes"]');
    assert.equal(await bytes.getAttribute('aria-valuetext'), '104 MB');
    await bytes.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await card.locator('[data-param="bytes"]').inputValue(), '200');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await card.locator('[data-param="bytes"]').inputValue(), '50');
    // The language button's accessible name contains its visible label.
    const name = await page.locator('[data-action="language"]').evaluate((el) => el.getAttribute('aria-label') ?? el.textContent);
    assert.ok(name.includes(await page.locator('[data-action="language"]').textContent()));
  });

  test('every timeline names its lecture section', async () => {
    for (const [n, param, value, section] of [[5, 'tokens', '8192', '7.2'], [8, 'nics', '4', '7.3']]) {
      await (await cardOf(page, n)).locator(`[data-param="${param}"]`).fill(value);
      await page.waitForSelector(`[data-exercise="${n}"] [data-view="timeline"][data-lecture="${section}"]`);
      // Every colour drawn has a legend entry.
      const drawn = await page.locator(`[data-exercise="${n}"] [data-view="timeline"] rect.bar`).evaluateAll((els) => [...new Set(els.map((e) => [...e.classList].find((c) => c !== 'bar')))]);
      const keyed = await page.locator(`[data-exercise="${n}"] [data-view="timeline"] .gkey`).evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c !== 'key' && c !== 'gkey')));
      for (const c of drawn) assert.ok(keyed.includes(c), `exercise ${n}: colour ${c} is not in the legend`);
    }
  });

  test('no console errors', () => {
    assert.deepEqual(errors, []);
  });
});
