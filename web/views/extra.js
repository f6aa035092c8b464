// The extra view beside a calculator's results, chosen per exercise and drawn from engine
// responses; no figure is computed here.

import { pick, strings } from '../util/i18n.js';
import { bars } from './bars.js';

/** The extra view of exercise `id` for a solve response, or null. */
export function extraView(id, doc, res, params, lang) {
  const timed = doc.answers.filter((a) => a.dimension === 'time'
    && typeof res.answers?.[a.id] === 'number' && res.display?.[a.id] != null);
  if (timed.length < 2) return null;
  const best = res.answers?.best;
  const fastest = Math.min(...timed.map((a) => res.answers[a.id]));
  const rows = timed.map((a) => ({
    label: pick(a.label, lang),
    value: res.answers[a.id],
    text: res.display[a.id],
    best: best !== undefined ? best === a.id : res.answers[a.id] === fastest,
  }));
  return bars(rows, strings(lang).bars);
}
