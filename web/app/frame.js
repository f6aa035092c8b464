// The page inside a course site's frame (SPEC "Embedding in a course site"): the messages to the
// host (ready, height, checked, solved, state), the few it obeys (restore, set-lang, reset: from
// the parent window only, anything else ignored) and the URL options.

export const REVEAL_MODES = ['never', 'after-attempt', 'after-solve'];

/** The URL options of an embedded exercise, checked: unknown values fall back to the defaults. */
export function embedOptions(query) {
  const reveal = query.get('reveal');
  const seedText = query.get('seed');
  const lang = query.get('lang');
  return {
    calculator: query.get('calculator') !== 'off',
    hints: query.get('hints') !== 'off',
    reveal: REVEAL_MODES.includes(reveal) ? reveal : 'after-solve',
    // A seed JSON carries exactly: 0 .. 2^53 - 1.
    seed: seedText !== null && /^\d{1,16}$/.test(seedText) && Number(seedText) <= Number.MAX_SAFE_INTEGER
      ? Number(seedText) : null,
    lang: lang === 'en' || lang === 'zh' ? lang : null,
  };
}

/** Posts to the host. Nothing here is secret (the host embeds the exercise), so any origin may hear. */
export function tellHost(message) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

/**
 * Calls `handlers[type](message)` for the host's messages: only from the parent window, only
 * the known types; everything else is ignored.
 */
export function listenToHost(handlers) {
  window.addEventListener('message', (e) => {
    if (window.parent === window || e.source !== window.parent) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
    const f = handlers[m.type];
    if (f) f(m);
  });
}

/**
 * Reports the content's own height (not the frame's: it shrinks as well as grows) whenever
 * `elements` change size: {type: 'commlab:height', exercise, height}.
 */
export function reportHeight(exercise, elements, bottom) {
  let last = -1;
  const post = () => {
    const end = bottom();
    const height = Math.ceil(end.getBoundingClientRect().bottom + window.scrollY
      + parseFloat(getComputedStyle(document.body).paddingBottom || '0') + 1);
    if (height === last) return;
    last = height;
    tellHost({ type: 'commlab:height', exercise, height });
  };
  const observer = new ResizeObserver(post);
  for (const el of elements) if (el) observer.observe(el);
  post();
}
