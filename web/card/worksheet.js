// What a card adds for a worksheet (web/README.md "Answer keys and worksheets"): the exercise's
// parameters as the engine writes them (exercise.solve's params_display) and, for a class's
// fixed variant, its seed, which names the row of `commlab exercise key`. Shown only on a
// printout and with ?print=1 (styles.css); on screen the card's calculator holds the parameters.

import { pick, worksheetStrings } from '../util/i18n.js';
import { h } from '../util/dom.js';
import { prettyUnits } from '../util/units.js';

/** Fills `box` with the parameters of `res` (an exercise.solve answer) and the seed, if any. */
export function fillGiven(box, doc, res, lang, seed = null) {
  const w = worksheetStrings(lang);
  const shown = res?.params_display ?? {};
  const rows = doc.params.filter((p) => shown[p.id] != null).flatMap((p) => [
    h('dt', { text: pick(p.label, lang) }),
    h('dd', { 'data-given': p.id, text: prettyUnits(shown[p.id]) }),
  ]);
  // replaceChildren writes a null as the text "null": the seed line is added only when there is one.
  const seedLine = seed === null ? [] : [h('p', { class: 'worksheet-seed', 'data-role': 'seed', text: w.seed(seed) })];
  box.replaceChildren(h('h3', { text: w.given }), ...seedLine, h('dl', {}, rows));
}
