// The seeded truth walk (tests/README.md "The truth walk"): every Topics view with settings, at its
// first settings and then at settings drawn from each control's domain by a seeded generator, set
// through its controls (a student's edits' events, all in one task), in English and then in
// Chinese. At each, what the view shows is the engine's (tests/browser/truth/<view>.mjs: figures,
// the cases that pick sentences, bars in the order of their times); switching the language
// redraws the same figures, cases and bars and changes only the words. COMMLAB_WALK_SEED repeats
// a walk (the seed is printed); COMMLAB_WALK_VIEWS=ring,moe walks those alone.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { openPage, useLab } from './helpers.mjs';
import { seeded, selectOptions, setControls, shown, words } from './truth/walk.mjs';

/** The views walked: each with a truth module in truth/ (walk.mjs is the walk's own tools). */
const VIEWS = readdirSync(new URL('./truth/', import.meta.url)).filter((f) => f.endsWith('.mjs') && f !== 'walk.mjs').map((f) => f.slice(0, -4)).sort();
/** Settings a view is walked at: the first, then drawn ones, half in each language. */
const STEPS = 22;

const only = process.env.COMMLAB_WALK_VIEWS?.split(',');
const SEED = Number(process.env.COMMLAB_WALK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const lab = useLab();
const errors = [];
let ctx = null;
after(() => ctx?.close());

describe(`the truth walk (COMMLAB_WALK_SEED=${SEED})`, () => {
  for (const view of VIEWS.filter((v) => !only || only.includes(v))) {
    test(`${view}: ${STEPS} settings, English then Chinese, each the engine's; the language changes words only`, async () => {
      const truth = await import(`./truth/${view}.mjs`);
      const rng = seeded(SEED ^ [...view].reduce((h, c) => Math.imul(h, 31) + c.charCodeAt(0), 7));
      ctx ??= await lab.fresh();
      const page = await openPage(ctx, `${lab.server.url}?view=${view}&lang=en`, errors);
      const options = await selectOptions(page);
      const walked = [];
      let s = truth.first;
      for (let i = 0; i < STEPS; ++i) {
        if (i > 0) s = truth.draw(rng, options);
        walked.push(s);
        try {
          await setControls(page, s);
          await truth.check(page, s);
          if (i === STEPS / 2 - 1) {
            // The language switch draws the view anew from its address, at the same settings.
            const en = { shown: await shown(page), words: await words(page) };
            await page.evaluate(() => { document.querySelector('[data-role="section-view"]').dataset.old = 'true'; });
            await page.click('[data-action="language"]');
            await page.waitForFunction(() => document.documentElement.lang.startsWith('zh') && !document.querySelector('[data-role="section-view"]')?.dataset.old);
            await truth.check(page, s);
            const zh = { shown: await shown(page), words: await words(page) };
            assert.deepEqual(zh.shown, en.shown, 'the same figures, cases and bars in Chinese');
            assert.notEqual(zh.words, en.words, 'the words change');
            assert.match(zh.words, /[\u4e00-\u9fff]/, 'Chinese words');
          }
        } catch (e) {
          e.message = `${view}, setting ${i + 1} of the walk with seed ${SEED}: ${JSON.stringify(s)}\n${e.message}`;
          throw e;
        }
      }
      assert.equal(new Set(walked.map((w) => JSON.stringify(w))).size > STEPS / 2, true, 'the walk moved');
      await page.close();
      assert.deepEqual(errors, []);
    });
  }
});
