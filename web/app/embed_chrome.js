// An embedded exercise's chrome: no page header or contents, a small footer with the tools and
// a link to the full lab; nothing navigates the frame away.

import { h } from '../util/dom.js';
import { encodeCarry } from './address.js';

// The classes that shape the page for its view, and no link away from an embedded exercise.
export function markView(page) {
  const { only, embedded } = page;
  if (only !== null) document.body.classList.add(embedded ? 'embed' : 'single');
  if (embedded) document.documentElement.classList.add('embed'); // the host's background shows
  if (embedded) buildEmbedChrome(page);
  // How to put the lab in a course (course.html): a link that would take a frame away from its
  // course page, so shown only on a page of its own.
  page.$('.page-foot').hidden = page.framed || embedded;
  if (page.exploring) document.body.classList.add('exploring');
  if (page.authoring) document.body.classList.add('authoring');
  if (page.measuring) document.body.classList.add('measuring');
  if (page.sectionView) document.body.classList.add('sections');
  if (embedded) {
    for (const id of ['#explore-link', '#author-link', '#measured-link', '#topics-link']) document.querySelector(id)?.remove();
  }
}

// The header's language, export and reset buttons move to a footer with a link that opens the
// full lab in a new tab. Import sits beside Export (a plain iframe's only way to carry work
// from one browser to another), and the notice goes under the card, above the footer.
function buildEmbedChrome(page) {
  const { $ } = page;
  const foot = h('footer', { class: 'embed-foot', role: 'group' }, [
    $('[data-action="language"]'), $('[data-action="export"]'), $('#import-button'), $('[data-action="reset"]'),
    h('a', { 'data-action': 'open-full', target: '_blank', rel: 'noopener', href: './' }),
  ]);
  document.body.insertBefore(foot, $('#reset-dialog'));
  foot.before($('#notice'));
  const full = foot.querySelector('[data-action="open-full"]');
  for (const type of ['focus', 'pointerdown', 'click', 'auxclick', 'contextmenu']) full.addEventListener(type, () => { full.href = fullLabHref(page); });
  $('.page-head').hidden = true;
  $('.toc').hidden = true;
  $('.skip').hidden = true;
}

// "Open in the full lab" keeps the instructor's controls, the variant and what was typed
// (web/README.md "Course platforms"): the options go in the address, the shown variant's record as
// `carry` (app/address.js), which the full lab takes like a restore and then drops from its
// address. Computed when the link is followed, so it holds what was typed last.
export function fullLabHref(page) {
  const { options, only, store } = page;
  const q = new URLSearchParams({ lang: page.lang });
  if (options.seed !== null) q.set('seed', String(options.seed));
  if (options.student !== null) q.set('student', options.student);
  if (!options.calculator) q.set('calculator', 'off');
  if (!options.hints) q.set('hints', 'off');
  if (options.reveal !== 'after-solve') q.set('reveal', options.reveal);
  const card = page.cards[0];
  const rec = card ? store.record(only, card.variant) : null;
  if (rec) q.set('carry', encodeCarry({ exercise: only, state: { current: card.variant, variants: { [card.variant]: rec } } }));
  return `./?${q}#ex${only}`;
}
