// What a seeded truth walk needs (tests/browser/walk.test.mjs): a seeded generator, draws from a
// control's domain, controls set with the events of a student's edits, and what a view shows in
// numbers.

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `list`. */
export const pick = (rng, list) => list[Math.floor(rng() * list.length)];
/** A whole number from lo to hi, each equally likely. */
export const intIn = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
/** A whole number from lo to hi spread evenly on a log scale (small and huge alike), ends included now and then. */
export function logInt(rng, lo, hi) {
  const r = rng();
  if (r < 0.05) return lo;
  if (r > 0.95) return hi;
  return Math.min(hi, Math.max(lo, Math.round(Math.exp(Math.log(lo) + rng() * (Math.log(hi) - Math.log(lo))))));
}
/** A power of two from lo to hi. */
export const pow2In = (rng, lo, hi) => 2 ** intIn(rng, Math.log2(lo), Math.log2(hi));

/** The options of every select of the section view, by its data-setting. */
export const selectOptions = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-role="section-view"] select[data-setting]')]
  .map((e) => [e.dataset.setting, [...e.options].map((o) => o.value)])));

/**
 * Gives the section view's controls the values of `settings` (keyed by data-setting) in one task,
 * each with the input and change events a student's edit fires (a select chosen, a number typed,
 * a box ticked): the view draws once for them all, the drawings each event started superseded,
 * instead of once a control (each drawing asks the engine). Controls already at their value are
 * left.
 */
export function setControls(page, settings) {
  return page.evaluate((wanted) => {
    for (const [name, value] of Object.entries(wanted)) {
      const e = document.querySelector(`[data-role="section-view"] [data-setting="${name}"]`);
      if (e.type === 'checkbox' ? e.checked === Boolean(value) : e.value === String(value)) continue;
      if (e.type === 'checkbox') e.checked = Boolean(value); else e.value = String(value);
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, settings);
}

/**
 * What the section view shows in numbers and cases, apart from words: each element's data-*
 * attributes and the sizes its bars are drawn at, in document order. Equal in both languages.
 */
export const shown = (page) => page.evaluate(() => {
  const root = document.querySelector('[data-role="section-view"]');
  return [root, ...root.querySelectorAll('*')].flatMap((e) => {
    const data = { ...e.dataset };
    delete data.role; // a role names a part, not a figure: kept, but its place is in the key below
    delete data.col; // a column's name in the page's language, shown beside a stacked cell on a phone
    const size = ['width', 'height'].filter((p) => e.style?.[p]).map((p) => `${p}:${e.style[p]}`).join(';');
    if (!Object.keys(data).length && !size) return [];
    return [`${e.tagName.toLowerCase()}${e.dataset.role ? `[${e.dataset.role}]` : ''} ${JSON.stringify(data)} ${size}`];
  });
});

/** The section view's words: its text, without the numbers in it. */
export const words = (page) => page.evaluate(() => document.querySelector('[data-role="section-view"]').innerText.replace(/[\d.,\s]+/g, ' ').trim());
