// Display units of the page: how many base units (s, bytes, bytes/s, fraction, count) one
// display unit holds. Presentation only: the engine computes every figure in base units and the
// page converts at its edges (calculator inputs in, statement and input values out).
// core/README.md "Model conventions": decimal SI, binary units only where the lecture uses them.

const FACTORS = {
  // time, base s
  s: 1, ms: 1e-3, us: 1e-6, 'µs': 1e-6, ns: 1e-9,
  // bytes, base B
  B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3,
  // bandwidth, base B/s
  'B/s': 1, 'KB/s': 1e3, 'MB/s': 1e6, 'GB/s': 1e9, 'TB/s': 1e12, 'Gb/s': 1.25e8,
  // fraction, base 1
  '%': 0.01,
};

// How a unit is written beside a number ("us" is typed, "µs" is shown).
const SHOWN = { us: 'µs', x: '×' };

/** Multiplier from `unit` to its base unit; 1 for counts and unit-less values. */
export function unitFactor(unit) {
  return FACTORS[unit] ?? 1;
}

/** The unit as shown to a reader. */
export function shownUnit(unit) {
  return SHOWN[unit] ?? unit ?? '';
}

/** Base value -> number in the display unit. */
export function toDisplay(base, unit) {
  return base / unitFactor(unit);
}

/** Number in the display unit -> base value. */
export function fromDisplay(value, unit) {
  return value * unitFactor(unit);
}

/** A display number as an input's value: at most 6 significant digits, no exponent noise. */
export function inputText(value) {
  if (!Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(6)));
}

/** An engine display string with units as shown ("428.7 us" -> "428.7 µs"). */
export function prettyUnits(text) {
  return String(text ?? '').replace(/(\d)\s?us\b/g, '$1 µs');
}

/** Seconds as a short reading with the unit that suits it ("428.7 µs"). Presentation only. */
export function formatTime(s) {
  if (!Number.isFinite(s)) return '–';
  const a = Math.abs(s);
  const [f, u] = a >= 1 ? [1, 's'] : a >= 1e-3 ? [1e-3, 'ms'] : a >= 1e-6 || a === 0 ? [1e-6, 'µs'] : [1e-9, 'ns'];
  return `${Number((s / f).toPrecision(4))} ${u}`;
}

/**
 * Bytes in decimal units ("256 KB"), the lab's units; an exact power of two from 1 KiB up in
 * binary units ("64 KiB"), as the lecture means its "64 KB" of a power of two (the engine's
 * displays do the same: core/base/quantity.cpp format_quantity). A whole number of KiB, MiB, GiB
 * or TiB that four figures would round says its binary size too ("3.146 MB (3,072 KiB)").
 * Presentation only.
 */
export function formatBytes(b) {
  if (!Number.isFinite(b)) return '–';
  const a = Math.abs(b);
  if (a >= 1024 && Number.isInteger(Math.log2(a))) {
    const [g, v] = a >= 1024 ** 3 ? [1024 ** 3, 'GiB'] : a >= 1024 ** 2 ? [1024 ** 2, 'MiB'] : [1024, 'KiB'];
    return `${(b / g).toLocaleString('en-US')} ${v}`;
  }
  const [f, u] = a >= 1e12 ? [1e12, 'TB'] : a >= 1e9 ? [1e9, 'GB'] : a >= 1e6 ? [1e6, 'MB'] : a >= 1e3 ? [1e3, 'KB'] : [1, 'B'];
  const shown = Number((b / f).toPrecision(4));
  const text = `${shown} ${u}`;
  if (shown * f === b || !Number.isInteger(b)) return text;
  for (const [g, v] of [[1024 ** 4, 'TiB'], [1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']]) {
    if (a >= g && b % g === 0) return `${text} (${(b / g).toLocaleString('en-US')} ${v})`;
  }
  return text;
}
