// The frame's look for a course site (web/README.md "Embedding in a course site"): theme=light|dark as
// html[data-theme] (styles.css keeps both palettes), and the colours app/address.js checked
// (#rgb or #rrggbb) as CSS variables on :root. A colour is refused (named in the page's
// link-problems box, the theme's own colour shown instead) when some text the page draws would
// fall below WCAG 2's 4.5:1 contrast against it (AA, normal text), so no option makes the card
// unreadable.

/** WCAG 2 AA contrast for normal text. */
export const MIN_CONTRAST = 4.5;

// The variables each option sets: the accent (links, buttons, focus rings), the card's surfaces,
// the text.
const SETS = { accent: ['--accent'], background: ['--card', '--field', '--calc-bg'], text: ['--ink'] };
// The text colours styles.css draws on each surface.
const TEXT_ON = {
  '--card': ['--ink', '--muted', '--accent', '--ok', '--bad', '--warn'],
  '--field': ['--ink', '--muted'],
  '--calc-bg': ['--ink', '--muted', '--ok', '--bad'],
  '--solution-bg': ['--ink'],
  '--warn-bg': ['--ink', '--warn'],
  '--ok-bg': ['--ink'],
  '--bad-bg': ['--ink', '--bad'],
};

/** [r, g, b] (0-255) of "#rgb" or "#rrggbb", else null. */
export function parseColour(text) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(text).trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? m[1].replace(/./g, '$&$&') : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

// [r, g, b] of the colour variable `v` as an element inside `root` draws it, else null.
function usedColour(root, v) {
  const probe = root.ownerDocument.createElement('span');
  probe.style.color = `var(${v})`;
  (root.ownerDocument.body ?? root).append(probe);
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(getComputedStyle(probe).color);
  probe.remove();
  return m && (m[4] === undefined || Number(m[4]) === 1) ? m.slice(1, 4).map(Number) : null;
}

// WCAG 2 relative luminance of an sRGB colour.
function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours ([r, g, b]): 1 to 21. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Applies `theme` ('light' | 'dark' | null: the browser's) and `colours` ({accent, background,
 * text}: checked #rgb/#rrggbb) to `root`; returns the problems of refused colours, as
 * app/address.js words them ({setting, value, allowed: {contrast}, fallback}).
 */
export function applyLook({ theme = null, colours = {} } = {}, root = document.documentElement) {
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  const vars = [...new Set([...Object.keys(TEXT_ON), ...Object.values(TEXT_ON).flat()])];
  for (const v of [...vars, '--accent-ink']) root.style.removeProperty(v);
  if (!Object.keys(colours).length) return [];
  // The theme's own colours, as the page draws them (styles.css writes each as light-dark(), so
  // the variable's text is not a colour until an element uses it); one it cannot resolve is not checked.
  const themed = Object.fromEntries(vars.map((v) => [v, usedColour(root, v)]));
  const given = { ...colours };
  const problems = [];
  const setBy = (v) => Object.keys(given).find((name) => SETS[name].includes(v)) ?? null;
  // Each refusal may make another pair the theme's own: check again until none fails.
  for (let round = 0; round < 3; round++) {
    const value = (v) => (setBy(v) ? parseColour(given[setBy(v)]) : themed[v]);
    const refused = new Map();
    for (const [surface, texts] of Object.entries(TEXT_ON)) {
      for (const text of texts) {
        const by = [setBy(text), setBy(surface)].filter(Boolean);
        if (!by.length || !value(text) || !value(surface)) continue;
        const ratio = contrast(value(text), value(surface));
        if (ratio >= MIN_CONTRAST) continue;
        for (const name of by) {
          if (refused.has(name)) continue;
          const other = name === setBy(text) ? surface : text;
          refused.set(name, { ratio, against: other, colour: hex(value(other)) });
        }
      }
    }
    if (!refused.size) break;
    for (const [name, why] of refused) {
      problems.push({
        setting: name, value: given[name], fallback: { word: 'themeColour' },
        allowed: { contrast: { min: MIN_CONTRAST, ratio: Math.floor(why.ratio * 10) / 10, against: why.against.slice(2), colour: why.colour } },
      });
      delete given[name];
    }
  }
  for (const [name, text] of Object.entries(given)) for (const v of SETS[name]) root.style.setProperty(v, text);
  if (given.accent) {
    // Text on the accent (primary buttons): black or white, whichever reads better (at least 4.58:1).
    const accent = parseColour(given.accent);
    root.style.setProperty('--accent-ink', contrast(accent, [255, 255, 255]) >= contrast(accent, [0, 0, 0]) ? '#ffffff' : '#000000');
  }
  return problems;
}

const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
