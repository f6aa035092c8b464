// The lab page (dist/, built by ./lab build) in headless Chromium: every exercise's right answers
// pass and wrong ones fail, units, format errors, saved progress, variants, the single-exercise
// view, errors kept inside a card, no console errors; screenshots at desktop and phone widths (the
// time to a usable page is ./lab bench's: tests/bench/page_load.mjs). Page loads are what these
// tests cost: the checks of the cards share one English page, each test starting from the page's
// own reset, and the Chinese checks one page and its reload.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { answer, axeViolations, DESKTOP, DIST, downloadPath, engineEval, FRAMED_BY_LOCALHOST, nextFrame, openPage, PHONE, screenshotDir, serve, settled, shot, smallText, useLab, variantParams, verdicts } from './helpers.mjs';

// The lecture's own answers (P5 §11), as a student would type them.
const LECTURE = {
  1: { n_half: '720 KB', time: '2.18 us', fraction: '8%' },
  2: { bytes_sent: '150 MB', steps: '6', time: '429 us' },
  3: { ring: '162 us', recursive_doubling: '45.6 us', rabenseifner: '52 us', binary_tree: '91.2 us', best: 'recursive_doubling' },
  4: { hierarchical: '9.61 ms', flat: '48.75 ms', speedup: '5.07', speedup_doubled: 'about 6-7x' },
  5: { bytes_per_gpu: '18.8 GB', time: '57 ms' },
  6: { microbatches: '8', token_interval: '8.7 ms' },
  7: { threshold: '2163', tokens_per_device: '16384', hidden: 'yes', short_hidden: 'no' },
  8: { kv_bytes: '10.7 GB', one_nic: '268 ms', eight_nics: '33.6 ms', layerwise: '0.42 ms' },
};
const WRONG = {
  1: { n_half: '360 KB', time: '3.5 us', fraction: '50%' },
  2: { bytes_sent: '100 MB', steps: '3', time: '300 us' },
  3: { ring: '150 us', recursive_doubling: '25 us', rabenseifner: '60 us', binary_tree: '45.6 us', best: 'ring' },
  4: { hierarchical: '12 ms', flat: '30 ms', speedup: '9', speedup_doubled: '3x' },
  5: { bytes_per_gpu: '9.4 GB', time: '30 ms' },
  6: { microbatches: '4', token_interval: '1.1 ms' },
  7: { threshold: '240', tokens_per_device: '131072', hidden: 'no', short_hidden: 'yes' },
  8: { kv_bytes: '5 GB', one_nic: '100 ms', eight_nics: '268 ms', layerwise: '4.2 ms' },
};


const errors = [];

async function fresh(viewport = DESKTOP, options = {}) {
  return lab.browser.newContext({ viewport, locale: 'en-US', acceptDownloads: true, ...options });
}

const allOf = (n, verdict) => Object.fromEntries(Object.keys(LECTURE[n]).map((k) => [k, verdict]));

/**
 * No saved progress, as on a new page: the page's own reset (Reset progress, then yes), which
 * draws every card again from the emptied store: answers, verdicts, attempts, hints, variant and
 * calculator inputs. At 1280 px.
 */
async function clean(page) {
  await page.setViewportSize(DESKTOP);
  await page.locator('[data-action="reset"]').click();
  await page.locator('[data-action="reset-confirm"]').click();
  await page.waitForFunction(() => /\b0 of 8\b/.test(document.querySelector('#progress').textContent));
  await settled(page);
}

const lab = useLab();

describe('the lab page', () => {
  // One English page serves every test of the cards; each starts from clean().
  describe('on one page of the eight cards', () => {
    let ctx;
    let page;
    before(async () => {
      ctx = await fresh();
      page = await openPage(ctx, `${lab.server.url}#ex5`, errors);
    });
    after(() => ctx?.close());

    test('#ex5 scrolls to exercise 5; eight exercise cards in lecture order, every answer field labelled', async () => {
      // First, before anything else scrolls the page.
      const top = await page.locator('#ex5').evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(top >= 0 && top < 200, `exercise 5 at ${top}px from the top`);
      const ids = await page.locator('[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise));
      assert.deepEqual(ids, ['1', '2', '3', '4', '5', '6', '7', '8']);
      const unlabelled = await page.locator('[data-answer], [data-param], [data-slider]').evaluateAll((els) =>
        els.filter((el) => !(el.labels?.length || el.getAttribute('aria-label'))).map((el) => el.outerHTML));
      assert.deepEqual(unlabelled, []);
      assert.equal(await page.locator('math').count() > 0, true, 'statements carry MathML');
      // The footer points instructors to how to put the lab in a course: a page of the build.
      const course = page.locator('footer.page-foot a#course-link');
      assert.equal(await course.isVisible(), true);
      assert.equal(await course.getAttribute('href'), 'course.html');
      const served = await page.request.get(new URL('course.html', lab.server.url).href);
      assert.equal(served.status(), 200);
      assert.match(await served.text(), /<h1[^>]*>[^<]*course/i);
    });

    // The eight cards are independent: no reset between them.
    describe('each exercise', () => {
      before(() => clean(page));
      for (const n of Object.keys(LECTURE)) {
        test(`exercise ${n}: the lecture's answers pass, wrong ones fail`, async () => {
          await answer(page, n, WRONG[n]);
          assert.deepEqual(await verdicts(page, n), allOf(n, 'incorrect'));
          await answer(page, n, LECTURE[n]);
          assert.deepEqual(await verdicts(page, n), allOf(n, 'correct'));
          assert.match(await page.locator(`[data-exercise="${n}"] [data-role="status"]`).innerText(), /Solved/);
        });
      }
    });

    describe('from no saved progress', () => {
      beforeEach(() => clean(page));

      test('units: a typed unit is read, a bare number is in the unit shown', async () => {
        await answer(page, 2, { time: '0.429 ms', bytes_sent: '0.15 GB', steps: '6' });
        assert.deepEqual(await verdicts(page, 2), { bytes_sent: 'correct', steps: 'correct', time: 'correct' });
        await answer(page, 1, { n_half: '720', time: '2180 ns', fraction: '0.0816' });
        const v = await verdicts(page, 1);
        assert.equal(v.n_half, 'correct');
        assert.equal(v.time, 'correct');
        assert.equal(v.fraction, 'incorrect', 'a bare 0.0816 is read in % (0.08%)');
        await answer(page, 2, { time: '429 µs' });
        assert.equal((await verdicts(page, 2)).time, 'correct');
      });

      test('format errors say what was expected and cost no attempt', async () => {
        const card = await answer(page, 1, { n_half: 'about half', time: '2.18 us', fraction: '' });
        assert.equal((await verdicts(page, 1)).n_half, 'format-error');
        assert.match(await card.locator('#ex1-a-n_half-verdict').innerText(), /Expected a number in KB/);
        assert.match(await card.locator('[data-role="status"]').innerText(), /1 attempt/);
        await card.locator('[data-answer="time"]').fill('');
        await answer(page, 1, { n_half: '720 ms' });
        assert.equal((await verdicts(page, 1)).n_half, 'format-error', 'a time is not a size');
        assert.match(await card.locator('[data-role="status"]').innerText(), /1 attempt/, 'format errors cost nothing');
      });

      test('a new variant changes the parameters and its right answers pass', async () => {
        for (const n of [3, 7]) {
          const card = page.locator(`[data-exercise="${n}"]`);
          const before = await card.locator('[data-role="statement"]').innerText();
          let params = null;
          for (let i = 0; i < 5 && !params; i++) {
            await card.locator('[data-action="variant"]').click();
            const text = await card.locator('[data-role="statement"]').innerText();
            if (text !== before) {
              params = await variantParams(page, n);
            }
          }
          assert.ok(params, `exercise ${n}: five variants all kept the lecture's statement`);
          const solved = await engineEval(page, { op: 'exercise.solve', id: n, params });
          assert.ok(!solved.error, JSON.stringify(solved.error));
          await answer(page, n, solved.display);
          assert.deepEqual(await verdicts(page, n), Object.fromEntries(Object.keys(solved.display).map((k) => [k, 'correct'])));
          // The lecture's answers are (almost always) wrong for the variant; back to the lecture's values.
          await card.locator('[data-action="default"]').click();
          assert.equal(await card.locator('[data-role="statement"]').innerText(), before);
        }
      });

      test('hints one at a time; the solution opens after an attempt', async () => {
        const card = page.locator('[data-exercise="3"]');
        await card.locator('[data-action="hint"]').click();
        assert.equal(await card.locator('[data-role="hints"] li').count(), 1);
        const solution = card.locator('[data-action="solution"]');
        assert.equal(await solution.isDisabled(), true);
        await answer(page, 3, { ring: '100 us' });
        assert.equal(await solution.isDisabled(), false);
        await solution.click();
        const text = await card.locator('[data-role="solution"]').innerText();
        assert.match(text, /30 steps/);
        assert.match(text, /162 µs|162 us/);
      });

      test('the live calculator follows its inputs; an engine error stays in its card', async () => {
        const card = page.locator('[data-exercise="3"]');
        await card.locator('[data-param="devices"]').fill('64');
        await card.locator('[data-param="bytes"]').fill('1000');
        await nextFrame(page);
        // P5 §5.3: 64 devices on IB, 1 MB: ring pays 126 alphas, recursive doubling is faster.
        const ring = await card.locator('[data-result="ring"]').innerText();
        assert.match(ring, /^6\d\d(\.\d+)? µs$/);
        assert.equal(await card.locator('.bars li').count(), 4);
        await card.locator('[data-param="devices"]').fill('1');
        await nextFrame(page);
        assert.equal(await card.locator('.calc .card-error').isVisible(), true);
        assert.match(await card.locator('.calc .card-error').innerText(), /^GPUs k: 1 is outside the allowed range, 2 to 1024\.$/);
        // The rest of the page keeps working.
        await answer(page, 1, LECTURE[1]);
        assert.deepEqual(await verdicts(page, 1), allOf(1, 'correct'));
        // A slider drives the same calculator.
        const slider = card.locator('[data-slider="devices"]');
        await slider.focus();
        await page.keyboard.press('End');
        assert.equal(await card.locator('[data-param="devices"]').inputValue(), '1024');
        await nextFrame(page);
        assert.equal(await card.locator('.calc .card-error').isVisible(), false);
      });

      test('usable by keyboard: Enter in an answer field checks', async () => {
        await page.locator('[data-exercise="6"] [data-answer="microbatches"]').focus();
        await page.keyboard.type('8');
        await page.keyboard.press('Enter');
        assert.equal((await verdicts(page, 6)).microbatches, 'correct');
      });

      test('no accessibility violations found by axe-core (WCAG 2 A/AA, best practices)', async () => {
        for (const viewport of [DESKTOP, PHONE]) {
          if (viewport !== DESKTOP) await clean(page);
          await page.setViewportSize(viewport);
          await answer(page, 1, { n_half: 'abc', time: '3' });
          await page.locator('#ex1 [data-action="solution"]').click();
          await page.locator('#ex3 [data-action="hint"]').click();
          await page.locator('#ex3 [data-param="devices"]').fill('32');
          await nextFrame(page);
          assert.deepEqual(await axeViolations(page), [], `at ${viewport.width}px`);
        }
      });

      test('screenshots at desktop and phone widths; nothing wider than a phone', async () => {
        const dir = screenshotDir();
        for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
          if (viewport !== DESKTOP) await clean(page);
          await page.setViewportSize(viewport);
          await answer(page, 1, LECTURE[1]);
          await answer(page, 2, { bytes_sent: '150 MB', steps: 'six', time: '300 us' });
          await page.locator('[data-exercise="3"] [data-param="bytes"]').fill('1000');
          await page.locator('[data-exercise="3"] [data-action="hint"]').click();
          await nextFrame(page);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= viewport.width, `${name}: page is ${width}px wide in a ${viewport.width}px viewport`);
          await page.evaluate(() => window.scrollTo(0, 0));
          await shot(page, { path: join(dir, `${name}.png`), fullPage: true });
          await shot(page.locator('#ex3'), { path: join(dir, `${name}-ex3.png`) });
        }
      });

      test('at 390 px every exercise\'s text, its pictures\' included, is drawn at 11 px or more', async () => {
        // Loaded at a phone's width, as a phone loads it (the drawings take the width they start at).
        const ctx = await fresh(PHONE);
        const phone = await openPage(ctx, lab.server.url, errors);
        for (let n = 1; n <= 8; n++) await phone.locator(`#ex${n} [data-action="reveal"]`).click();
        await phone.waitForFunction(() => document.querySelectorAll('.visuals:not([hidden]) svg').length >= 4, null, { polling: 100 });
        await settled(phone);
        assert.deepEqual(await smallText(phone, 'main'), []);
        // Labels clear of data: the charts' mark labels sit above their plots; exercise 3's 16
        // buffer strips lie inside the drawing, 2 units or more apart.
        const charts = await phone.locator('main .uplot').evaluateAll((els) => els.map((el) => ({ labels: JSON.parse(el.dataset.markLabels ?? '[]'), top: Number(el.dataset.plotTop) })));
        assert.ok(charts.some((c) => c.labels.length >= 2), 'exercise 1 marks its asked size and n½');
        for (const c of charts) for (const l of c.labels) assert.ok(l.bottom <= c.top, `a label ends at ${l.bottom} px, the plot starts at ${c.top} px`);
        const strips = await phone.locator('#ex3 .player-svg').first().evaluate((svg) => {
          const box = svg.viewBox.baseVal;
          const out = [...svg.querySelectorAll('g.device')].map((g) => {
            const r = [...g.querySelectorAll('rect.cell')].map((c) => c.getBBox());
            return { x0: Math.min(...r.map((b) => b.x)), x1: Math.max(...r.map((b) => b.x + b.width)), y0: Math.min(...r.map((b) => b.y)), y1: Math.max(...r.map((b) => b.y + b.height)) };
          });
          return { W: box.width, H: box.height, out };
        });
        assert.equal(strips.out.length, 16);
        strips.out.forEach((a, i) => {
          assert.ok(a.x0 >= 0 && a.x1 <= strips.W && a.y0 >= 0 && a.y1 <= strips.H, `strip ${i} inside the drawing: ${JSON.stringify(a)}`);
          strips.out.forEach((b, j) => {
            if (j <= i) return;
            const apart = a.x1 + 2 <= b.x0 || b.x1 + 2 <= a.x0 || a.y1 + 2 <= b.y0 || b.y1 + 2 <= a.y0;
            assert.ok(apart, `strips ${i} and ${j} apart: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
          });
        });
        // The rule for numbers is said once an exercise, under "How answers are judged".
        for (const n of [1, 2, 3]) {
          assert.equal(await phone.locator(`#ex${n} [data-role="judging"]`).count(), 1);
          assert.equal(await phone.locator(`#ex${n} .rule`).filter({ hasText: 'significant' }).count(), 0, `exercise ${n}: no field repeats the rounding rule`);
        }
        await ctx.close();
      });

      test('embedded in an iframe, the page tells its host its height', async () => {
        const message = await page.evaluate(
          (src) =>
            new Promise((resolve, reject) => {
              const timer = setTimeout(() => reject(new Error('no height message')), 15000);
              window.addEventListener('message', (e) => {
                if (e.data?.type !== 'commlab:height') return;
                clearTimeout(timer);
                resolve(e.data);
              });
              const frame = document.createElement('iframe');
              frame.src = src;
              frame.width = '600';
              frame.id = 'test-frame';
              document.body.append(frame);
            }),
          `${lab.server.url}?exercise=3`,
        );
        assert.equal(message.exercise, 3);
        assert.ok(message.height > 300, `height ${message.height}`);
        // No link takes the frame away from its course page.
        const frame = page.frames().find((f) => f.url().includes('?exercise=3'));
        assert.equal(await frame.locator('#course-link').isVisible(), false);
        await page.evaluate(() => document.querySelector('#test-frame').remove()); // the host page is the next test's
      });

      // After the others: its notice of a refused file stays on the page.
      test('progress exports, resets and imports', async () => {
        await answer(page, 2, LECTURE[2]);
        const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
        const file = await downloadPath(download);
        const saved = JSON.parse(readFileSync(file, 'utf8'));
        assert.equal(saved.format, 'commlab-progress');
        assert.equal(saved.exercises['2'].variants.lecture.solved, true);
        await page.locator('[data-action="reset"]').click();
        await page.locator('[data-action="reset-confirm"]').click();
        assert.match(await page.locator('#progress').innerText(), /0 of 8/);
        assert.deepEqual(await verdicts(page, 2), { bytes_sent: null, steps: null, time: null });
        await page.locator('#import-file').setInputFiles(file);
        await page.waitForFunction(() => /1 of 8/.test(document.querySelector('#progress').textContent));
        assert.deepEqual(await verdicts(page, 2), allOf(2, 'correct'));
        await page.locator('#import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('[1,2]') });
        await page.waitForFunction(() => /not a commlab progress file/.test(document.querySelector('#notice').textContent));
        assert.deepEqual(await verdicts(page, 2), allOf(2, 'correct'), 'a bad file changes nothing');
      });
    });

    // A second page of the same browser (its own load: the address decides the view).
    test('?exercise=3 shows that exercise alone and its answers pass; screenshots of it at desktop and phone widths', async () => {
      const single = await openPage(ctx, `${lab.server.url}?exercise=3`, errors);
      assert.deepEqual(await single.locator('[data-exercise]').evaluateAll((els) => els.map((e) => e.dataset.exercise)), ['3']);
      await answer(single, 3, LECTURE[3]);
      assert.deepEqual(await verdicts(single, 3), allOf(3, 'correct'));
      for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
        await single.setViewportSize(viewport);
        await shot(single, { path: join(screenshotDir(), `${name}-single.png`), fullPage: true });
      }
      await single.close();
    });
  });

  // frame-ancestors: another site frames the page only when the server lists it (README
  // "Security headers for hosts"). localhost and 127.0.0.1 are different origins. One host page
  // frames the page from both servers at once.
  test('another site may frame the page only when listed in frame-ancestors', async () => {
    const open = await serve(DIST, { frameAncestors: FRAMED_BY_LOCALHOST });
    const ctx = await fresh();
    try {
      const host = await ctx.newPage(); // not openPage: the refused frame logs a console error
      const hostUrl = lab.server.url.replace('127.0.0.1', 'localhost');
      await host.goto(hostUrl + 'missing-page-for-a-blank-host');
      const [refused, listed] = await host.evaluate(
        (srcs) =>
          new Promise((resolve) => {
            const frames = srcs.map((src) => Object.assign(document.createElement('iframe'), { src }));
            const heights = [null, null];
            // The refused frame gets at least 6 s, and as long as the listed one took (15 s at most).
            let waited = false;
            const done = () => { if (waited && heights[1] !== null) resolve(heights); };
            setTimeout(() => { waited = true; done(); }, 6000);
            setTimeout(() => resolve(heights), 15000);
            window.addEventListener('message', (e) => {
              if (e.data?.type !== 'commlab:height') return;
              const i = frames.findIndex((f) => f.contentWindow === e.source);
              if (i >= 0 && heights[i] === null) heights[i] = e.data.height;
              done();
            });
            document.body.append(...frames);
          }),
        [`${lab.server.url}?exercise=2`, `${open.url}?exercise=2`],
      );
      assert.equal(refused, null, 'framed by another origin under the default policy');
      assert.ok(listed > 100, 'a listed site frames the page');
    } finally {
      await ctx.close();
      await open.close();
    }
  });

  // The Chinese page and its reload: the tests run in order.
  describe('in Chinese, the browser\'s language', () => {
    let ctx;
    let page;
    before(async () => {
      ctx = await fresh(DESKTOP, { locale: 'zh-CN' });
      page = await openPage(ctx, lab.server.url, errors);
    });
    after(() => ctx?.close());

    test('Chinese and English: the browser language by default, the language button switches', async () => {
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      assert.match(await page.locator('#ex1 h2').innerText(), /练习 1/);
      await answer(page, 1, { n_half: '不知道' });
      assert.match(await page.locator('#ex1-a-n_half-verdict').innerText(), /应填一个数/);
      await page.locator('[data-action="language"]').click();
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.match(await page.locator('#ex1 h2').innerText(), /Exercise 1/);
    });

    test('a reload keeps the language chosen and the progress; a corrupt saved state is set aside, not a blank page', async () => {
      await answer(page, 2, LECTURE[2]);
      await answer(page, 4, { hierarchical: '9.61 ms', flat: '30 ms' });
      await page.evaluate(() => localStorage.setItem('commlab.progress.v1', '{"format":"commlab-progress",'));
      await page.reload();
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])');
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.equal(await page.locator('[data-exercise]').count(), 8);
      assert.deepEqual(await verdicts(page, 2), allOf(2, 'correct'));
      assert.equal(await page.locator('[data-exercise="2"] [data-answer="time"]').inputValue(), '429 us');
      assert.deepEqual(await verdicts(page, 4), { hierarchical: 'correct', flat: 'incorrect', speedup: null, speedup_doubled: null });
      assert.match(await page.locator('#progress').innerText(), /1 of 8 solved/);
      assert.match(await page.locator('#notice').innerText(), /set aside/);
      const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('.corrupt.')));
      assert.equal(kept.length, 1);
    });
  });

  test('the single-file build works from file:// under its CSP', async (t) => {
    const single = join(DIST, 'commlab-single.html');
    if (!existsSync(single)) {
      t.skip('dist/commlab-single.html not built');
      return;
    }
    const ctx = await fresh();
    const page = await openPage(ctx, pathToFileURL(single).href, errors);
    await answer(page, 8, LECTURE[8]);
    assert.deepEqual(await verdicts(page, 8), allOf(8, 'correct'));
    // The views that load when opened are inside the file too (nothing is fetched from file://):
    // the address picks the view when the page starts, so one load each, in the same page.
    for (const view of ['topics', 'ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring', 'measured']) {
      await page.goto(`${pathToFileURL(single).href}?view=${view}`);
      await page.waitForSelector('html[data-ready="true"]:not([data-arriving])', { timeout: 15000 });
      await page.waitForSelector(`[data-view="${view === 'nccl' ? 'nccl-view' : view}"]`, { state: 'attached' });
    }
    await ctx.close();
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
