// The measured view's figures apart from its drawing (views/measured.js): bus bandwidth and
// its words, the fitted figures a shared address carries, the link to the same figures in
// Explore, and the log kept in this browser.

import { viewStrings } from '../util/i18n.js';
import { formatBytes } from '../util/units.js';
import { ALGORITHMS, MAX_BYTES, MAX_DEVICES, MIN_DEVICES } from './explore.js';

/** Where the pasted log is kept: {log, link}. At most MAX_KEPT_CHARS of log (about 1 MB). */
export const STORAGE_KEY = 'commlab.v2.measured';
export const MAX_KEPT_CHARS = 1_000_000;

/** The collectives `fit` knows, by nccl-tests' names (core/measured/fit.hpp fit_collectives). */
export const FIT_COLLECTIVES = ['all_reduce', 'all_gather', 'reduce_scatter', 'alltoall', 'broadcast', 'reduce', 'sendrecv'];
// nccl-tests' name -> Explore's collective and the algorithm whose cost is the one fitted:
// the ring (P5 §5.1), and for all-to-all the pairwise exchange (k-1 steps of S/k, the same
// cost). Broadcast and reduce: Explore has no one-step pipelined ring, so its first algorithm
// (a different model, said beside the link). Send/receive: not in Explore.
export const IN_EXPLORE = {
  all_reduce: ['allreduce', 'ring'], all_gather: ['allgather', 'ring'], reduce_scatter: ['reduce_scatter', 'ring'],
  alltoall: ['alltoall', 'pairwise'], broadcast: ['broadcast', null], reduce: ['reduce', null],
};
export const EXPLORE_NAME = { ...Object.fromEntries(Object.entries(IN_EXPLORE).map(([k, v]) => [k, v[0]])), sendrecv: 'sendrecv' };
export const MAX_RANKS = 1_048_576;

/**
 * Bus bandwidth of `bytes` moved in `time_s`, as nccl-tests prints busbw: algbw (S / t) times
 * the collective's bus factor (the engine's `factor`; nccl-tests doc/PERFORMANCE.md, P5 §0.4).
 * Only converts the engine's times (model_time_s, link_time_s) for the chart: no model here.
 */
export function busBandwidth(factor, bytes, time_s) {
  return time_s > 0 ? (factor * bytes) / time_s : null;
}

/** GB/s as the view writes it ("331.5 GB/s"). Presentation only. */
export function formatRate(Bps) {
  return Number.isFinite(Bps) ? `${Number((Bps / 1e9).toPrecision(4))} GB/s` : '–';
}
/** A fraction as a percent ("17.4%"). Presentation only. */
export function formatPercent(x, digits = 3) {
  return Number.isFinite(x) ? `${Number((x * 100).toPrecision(digits))}%` : '–';
}
// Powers of two as nccl-tests sizes them: the binary reading beside the decimal one.
export function binaryBytes(b) {
  for (const [f, u] of [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']]) if (b >= f && b % f === 0) return `${b / f} ${u}`;
  return null;
}
export const bytesBoth = (b) => (binaryBytes(b) ? `${formatBytes(b)} (${binaryBytes(b)})` : formatBytes(b));

/**
 * The fitted figures a shared address carries (`?view=measured&collective=..&ranks=..&alpha_s=
 * ..&beta_Bps=..` and the optional steps, latency_s, n_half_bytes, rel_rms, sizes, link,
 * link_ratio): {shared: {...} or null, problems: [{setting, value, allowed, fallback}]}. Each
 * is checked; a bad optional one is left out and named, a bad required one shows no figures.
 */
export function readShared(search, linkIds = []) {
  const q = new URLSearchParams(search);
  const problems = [];
  if (!['alpha_s', 'beta_Bps', 'collective', 'ranks'].some((k) => q.has(k))) return { shared: null, problems };
  const leftOut = { word: 'measuredLeftOut' };
  const bad = (setting, allowed) => problems.push({ setting, value: q.has(setting) ? q.get(setting) : null, allowed, fallback: leftOut });
  const number = (k) => (q.has(k) && q.get(k).trim() !== '' && Number.isFinite(Number(q.get(k))) ? Number(q.get(k)) : null);
  const take = (k, ok, allowed, required = false) => {
    const v = number(k);
    if (v != null && ok(v)) return v;
    if (q.has(k) || required) bad(k, allowed);
    return null;
  };
  const whole = (min, max) => (v) => Number.isInteger(v) && v >= min && v <= max;
  const s = {};
  if (FIT_COLLECTIVES.includes(q.get('collective'))) s.collective = q.get('collective');
  else bad('collective', { list: FIT_COLLECTIVES });
  s.ranks = take('ranks', whole(0, MAX_RANKS), { whole: [0, MAX_RANKS] }, true);
  s.alpha_s = take('alpha_s', (v) => v >= 0, { seconds: 'beta_Bps' }, true);
  s.beta_Bps = take('beta_Bps', (v) => v > 0, { rate: 'alpha_s' }, true);
  s.steps = take('steps', whole(1, 2 * MAX_RANKS), { whole: [1, 2 * MAX_RANKS] });
  s.latency_s = take('latency_s', (v) => v >= 0, { word: 'measuredSeconds' });
  s.n_half_bytes = take('n_half_bytes', (v) => v >= 0, { word: 'measuredBytes' });
  s.rel_rms = take('rel_rms', (v) => v >= 0, { word: 'measuredFraction' });
  s.sizes = take('sizes', whole(2, 1e9), { whole: [2, 1e9] });
  s.link = null;
  if (q.has('link')) {
    if (linkIds.includes(q.get('link'))) s.link = q.get('link');
    else bad('link', { list: linkIds });
  }
  s.link_ratio = take('link_ratio', (v) => v > 0, { word: 'measuredRatio' });
  const usable = s.collective && s.ranks != null && s.alpha_s != null && s.beta_Bps != null;
  return { shared: usable ? s : null, problems };
}

/** The address that shares table `tbl`'s fitted figures (not the log). */
export function sharedQuery(tbl) {
  const q = new URLSearchParams({ view: 'measured', collective: tbl.collective, ranks: String(tbl.ranks) });
  const f = tbl.fit;
  for (const [k, v] of [['alpha_s', f.alpha_s], ['beta_Bps', f.beta_Bps], ['steps', f.steps], ['latency_s', f.latency_s],
    ['n_half_bytes', tbl.n_half_bytes], ['rel_rms', f.rel_rms], ['sizes', f.rows]]) q.set(k, String(v));
  // Two sizes: rel_rms tests nothing (the engine's caveat), so the address carries no verdict.
  if (f.caveat) q.delete('rel_rms');
  const link = tbl.link ?? tbl.nearest_link;
  if (link) {
    q.set('link', link.id);
    q.set('link_ratio', String(link.ratio));
  }
  return `?${q}`;
}

/**
 * Explore with the fitted alpha and beta as a custom link (its readSettings names), or
 * {why} when Explore has no counterpart: {href, note?} | {why}.
 */
export function exploreLink({ collective, ranks, alpha_s, beta_Bps, bytes }, t) {
  const to = IN_EXPLORE[collective];
  if (!to) return { why: t.noExplore(collective) };
  if (!(ranks >= MIN_DEVICES && ranks <= MAX_DEVICES)) return { why: t.exploreDevices(ranks, MIN_DEVICES, MAX_DEVICES.toLocaleString('en')) };
  const q = new URLSearchParams({ view: 'explore', collective: to[0] });
  if (to[1] && ALGORITHMS[to[0]]?.includes(to[1])) q.set('algorithm', to[1]);
  q.set('devices', String(ranks));
  q.set('alpha_s', String(alpha_s));
  q.set('beta_Bps', String(beta_Bps));
  if (bytes >= 1 && bytes <= MAX_BYTES) q.set('bytes', String(bytes));
  return { href: `?${q}`, note: to[1] ? null : t.exploreOtherModel(viewStrings(t.lang).algorithms[ALGORITHMS[to[0]][0]]) };
}

// localStorage, guarded: a blocked or full storage never breaks the view.
export function readKept(storage) {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw);
    return v && typeof v.log === 'string' ? { log: v.log, link: typeof v.link === 'string' ? v.link : '' } : null;
  } catch {
    return null;
  }
}
/** Keeps {log, link}: 'kept', 'empty', 'too_big' (over MAX_KEPT_CHARS) or 'refused' (storage full or blocked). */
export function keep(storage, log, link) {
  try {
    if (!log || log.length > MAX_KEPT_CHARS) {
      storage?.removeItem(STORAGE_KEY);
      return log ? 'too_big' : 'empty';
    }
    if (!storage) return 'refused';
    storage.setItem(STORAGE_KEY, JSON.stringify({ log, link }));
    return 'kept';
  } catch {
    return log && log.length > MAX_KEPT_CHARS ? 'too_big' : 'refused';
  }
}
