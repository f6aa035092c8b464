// Measured against the model (`?view=measured`, core/README.md "Measured against the model"): an
// nccl-tests log (pasted, dropped, chosen, or one of the bundled synthetic samples) is fitted by
// the engine's `fit` op in its worker, out-of-place and in-place; each table is drawn as bus
// bandwidth against size with the fitted line and the catalogue link's, its collapses shaded,
// its figures said in words. The page computes no figure: it only converts the engine's times
// to bus bandwidth (busBandwidth) to draw them beside the measured points.
// The log stays in this browser (localStorage, STORAGE_KEY); "Copy link" carries the fitted
// figures only (readShared), never the log.

import { h } from '../util/dom.js';
import { measuredStrings, viewStrings } from '../util/i18n.js';
import { topologyStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { COLORS, chartShell, faint } from './chart.js';
import { topologySection } from './topology.js';
import { MAX_BYTES } from './explore.js';
import { busBandwidth, bytesBoth, EXPLORE_NAME, exploreLink, FIT_COLLECTIVES, formatPercent, formatRate, keep, MAX_KEPT_CHARS, readKept, readShared, sharedQuery, STORAGE_KEY } from './measured_data.js';

// A file this large is not read into the text box (the engine's own limit, far lower, is named
// by its answer for anything between).
const MAX_FILE_BYTES = 64e6;
const FIT_DELAY_MS = 350;

// The figures' module's exports that the page and the tests have from this view.
export { STORAGE_KEY, MAX_KEPT_CHARS, FIT_COLLECTIVES, busBandwidth, formatRate, formatPercent, readShared, sharedQuery, exploreLink };

/**
 * The measured view. `links`: the engine's catalogue ({id, label, alpha_s, beta_Bps,
 * nominal_Bps}); `storage`: localStorage or a stand-in; `search`: the address's query (shared
 * figures, readShared). Returns {root, setLang}.
 */
export function createMeasured({ lang, links, storage, search = '' }) {
  let t = measuredStrings(lang);
  const root = h('section', { class: 'measured card', 'data-view': 'measured', 'data-lecture': '0.5', 'aria-labelledby': 'measured-title' });
  const shared = readShared(search, links.map((l) => l.id)).shared;
  const kept = shared ? null : readKept(storage);

  // The controls live across language switches (what was typed stays).
  const textarea = h('textarea', { id: 'm-log', rows: '10', spellcheck: 'false', autocomplete: 'off', 'data-role': 'log', dir: 'ltr', lang: 'en' });
  textarea.value = kept?.log ?? '';
  const fileInput = h('input', { type: 'file', id: 'm-file', accept: '.txt,.log,.out,text/plain', 'data-role': 'file' });
  const sample = h('select', { id: 'm-sample', 'data-role': 'sample' });
  const link = h('select', { id: 'm-link', 'data-role': 'link' });
  const ids = links.map((l) => l.id);
  let linkId = ids.includes(kept?.link) ? kept.link : '';
  let samples = null; // [{file, description, text}] once fetched; [] when they cannot be had
  let samplePicked = null;
  let status = { state: 'idle' };
  let keptState = kept ? 'kept' : null;
  let answer = null; // {out, inPlace, topo}
  const topoState = { comm: null, channel: null, show: 'ring', redraw: () => renderResults() };
  let copyNote = {}; // table index -> 'copied' | 'manual'

  const statusBox = h('p', { class: 'measured-status', role: 'status', 'data-role': 'fit-status' });
  const keptBox = h('p', { class: 'note', 'data-role': 'kept' });
  const sampleNote = h('p', { class: 'note measured-sample-note', 'data-role': 'sample-note' });
  const errorBox = h('div', { class: 'card-error measured-error', role: 'alert', 'data-role': 'fit-error', hidden: true });
  const results = h('div', { class: 'measured-results', 'data-role': 'results' });
  const heading = h('h2', { id: 'measured-title' });
  const intro = h('p', { class: 'note' });
  const samplesSaid = h('p', { class: 'note', 'data-role': 'samples-note' });
  const labels = { log: h('label', { for: 'm-log' }), file: h('label', { for: 'm-file' }), sample: h('label', { for: 'm-sample' }), link: h('label', { for: 'm-link' }) };
  const dropHint = h('p', { class: 'note', id: 'm-log-hint' });
  textarea.setAttribute('aria-describedby', 'm-log-hint');

  function fillSelects() {
    const keepSample = sample.value;
    sample.replaceChildren(h('option', { value: '', text: samples === null ? t.samplesLoading : samples.length ? t.samplePick : t.samplesNone }),
      ...(samples ?? []).map((s) => h('option', { value: s.file, text: s.title?.[lang] ?? s.title?.en ?? t.sampleName(s.file) })));
    sample.value = samplePicked ? samplePicked.file : keepSample && samples?.some((s) => s.file === keepSample) ? keepSample : '';
    sample.disabled = !samples?.length;
    link.replaceChildren(h('option', { value: '', text: t.linkNearest }), ...links.map((l) => h('option', { value: l.id, text: l.label })));
    link.value = linkId;
  }

  function renderChrome() {
    heading.textContent = t.title;
    intro.textContent = t.intro;
    samplesSaid.textContent = t.samplesAre;
    labels.log.textContent = t.logLabel;
    labels.file.textContent = t.fileLabel;
    labels.sample.textContent = t.sampleLabel;
    labels.link.textContent = t.linkLabel;
    dropHint.textContent = t.dropHint;
    sampleNote.textContent = samplePicked ? t.sampleNote(samplePicked.description) : '';
    sampleNote.hidden = !samplePicked;
    fillSelects();
  }

  function renderStatus() {
    statusBox.dataset.state = status.state;
    if (status.state === 'fitting') root.setAttribute('aria-busy', 'true');
    else root.removeAttribute('aria-busy');
    statusBox.textContent = status.state === 'fitting' ? t.fitting
      : status.state === 'done' ? t.fitted(status.lines, status.tables, status.skipped)
        : status.state === 'topology' ? topologyStrings(lang).read(status.communicators, status.lines)
        : status.state === 'error' ? t.notFitted
          : textarea.value.trim() ? '' : t.waiting;
    keptBox.dataset.kept = keptState ?? '';
    keptBox.textContent = keptState === 'kept' ? t.keptHere : keptState === 'too_big' ? t.tooBigToKeep(formatBytes(status.chars ?? textarea.value.length), formatBytes(MAX_KEPT_CHARS))
      : keptState === 'refused' ? t.notKept : '';
    keptBox.hidden = !keptBox.textContent;
  }

  function renderError() {
    const err = status.state === 'error' ? status.error : null;
    errorBox.hidden = !err;
    errorBox.replaceChildren(...(err ? [
      h('p', { 'data-role': 'error-what', text: t.fitError }),
      h('p', { 'data-role': 'error-message', 'data-code': err.code, lang: 'en', text: err.message }),
      h('p', { text: t.stillWorks }),
    ] : []));
  }

  // --- one table's figures, chart and lists ----------------------------------------------
  function figures(f, box) {
    // f: {collective, ranks, steps, factor, alpha_s, beta_Bps, latency_s, n_half_bytes, rel_rms, sizes, caveat,
    // plateau_busbw_Bps, plateau_from_bytes, plateau_rows, best_row (a log's table; a shared link has none),
    // link: {id, label, alpha_s, beta_Bps, nominal_Bps, ratio, plateau_ratio} | null, chosen}
    const collective = viewStrings(lang).collectives[EXPLORE_NAME[f.collective]] ?? f.collective;
    Object.assign(box.dataset, { collective: f.collective, ranks: String(f.ranks), alphaS: String(f.alpha_s), betaBps: String(f.beta_Bps) });
    if (f.rel_rms != null) box.dataset.relRms = String(f.rel_rms);
    if (f.latency_s != null) box.dataset.latencyS = String(f.latency_s);
    if (f.n_half_bytes != null) box.dataset.nHalfBytes = String(f.n_half_bytes);
    if (f.caveat) box.dataset.caveat = f.caveat;
    const out = [];
    const line = (role, text, data = {}) => out.push(h('p', { class: `measured-figure measured-${role}`, 'data-role': role, dataset: data, text }));
    // The headline: the bandwidth-bound rows' level, what an engineer compares with a link (the
    // fitted line's β is pulled down by the protocol switches below them), and the best row.
    if (f.plateau_busbw_Bps != null) {
      box.dataset.plateauBps = String(f.plateau_busbw_Bps);
      const plateau = formatRate(f.plateau_busbw_Bps), from = formatBytes(f.plateau_from_bytes);
      line('plateau', f.link ? t.plateauVsLink(plateau, f.plateau_rows, from, f.link.plateau_ratio, f.link.label, formatRate(f.link.beta_Bps), formatRate(f.link.nominal_Bps), f.chosen)
        : t.plateauAlone(plateau, f.plateau_rows, from),
      { plateauBps: String(f.plateau_busbw_Bps), fromBytes: String(f.plateau_from_bytes), rows: String(f.plateau_rows), value: plateau });
      const b = f.best_row;
      line('best-row', t.bestRow(formatRate(b.busbw_Bps), formatBytes(b.bytes), b.line), { busbwBps: String(b.busbw_Bps), bytes: String(b.bytes), line: String(b.line) });
    }
    line('beta', f.link ? t.betaVsLink(formatRate(f.beta_Bps), f.link.ratio, f.link.label, formatRate(f.link.beta_Bps), formatRate(f.link.nominal_Bps), f.chosen)
      : t.betaAlone(formatRate(f.beta_Bps)), { betaBps: String(f.beta_Bps), value: formatRate(f.beta_Bps) });
    line('alpha', t.latency(collective, f.latency_s != null ? formatTime(f.latency_s) : null, f.steps, formatTime(f.alpha_s),
      f.link ? { label: f.link.label, alpha: formatTime(f.link.alpha_s) } : null), { alphaS: String(f.alpha_s), value: formatTime(f.alpha_s) });
    if (f.n_half_bytes != null) line('n-half', t.nHalf(formatBytes(f.n_half_bytes)), { nHalfBytes: String(f.n_half_bytes), value: formatBytes(f.n_half_bytes) });
    // The engine's caveat (two sizes: any line meets both) stands instead of a verdict.
    if (f.caveat) line('fit-caveat', t.fitCaveat[f.caveat] ?? f.caveat, { caveat: f.caveat });
    // "Within a few percent" (core/README.md "Measured against the model"): 5% or less reads as a fit.
    else if (f.rel_rms != null) line('rel-rms', t.relRms(formatPercent(f.rel_rms), f.sizes, f.rel_rms <= 0.05), { relRms: String(f.rel_rms), value: formatPercent(f.rel_rms) });
    return out;
  }

  function exploreLinkBox(args) {
    const to = exploreLink(args, t);
    if (to.why) return h('p', { class: 'note', 'data-role': 'no-explore', text: to.why });
    return h('p', { class: 'measured-explore' }, [
      h('a', { class: 'button', href: to.href, 'data-role': 'use-in-explore', text: t.useInExplore }),
      ...(to.note ? [' ', h('span', { class: 'note', text: to.note })] : []),
    ]);
  }

  function skippedBox(skipped) {
    if (!skipped.length) return null;
    const item = (s) => h('li', { dataset: { line: String(s.line) } }, [h('span', { class: 'measured-line', text: t.lineNo(s.line) }), ' ', h('span', { lang: 'en', text: s.reason })]);
    // Many: folded, built when first opened (a log may have thousands).
    if (skipped.length > 5) {
      const d = h('details', { class: 'measured-skipped', 'data-role': 'skipped', dataset: { count: String(skipped.length) } }, [h('summary', { text: t.skipped(skipped.length) })]);
      d.addEventListener('toggle', () => { if (d.open && !d.querySelector('ul')) d.append(h('ul', {}, skipped.map(item))); });
      return d;
    }
    return h('div', { class: 'measured-skipped', 'data-role': 'skipped', dataset: { count: String(skipped.length) } }, [h('p', { text: t.skipped(skipped.length) }), h('ul', {}, skipped.map(item))]);
  }

  // A table longer than this shows that many sizes, evenly spaced, and says so: 60,000 rows are
  // read by no one, and cost a phone seconds (the chart draws every size).
  const TABLE_ROWS = 2000;
  function dataTable(all, byX, tbl) {
    const step = all.length / TABLE_ROWS;
    const xs = all.length > TABLE_ROWS ? Array.from({ length: TABLE_ROWS }, (_, i) => all[Math.floor(i * step)]) : all;
    const note = xs.length < all.length
      ? h('p', { class: 'chart-note', 'data-role': 'table-sample', dataset: { shown: String(xs.length), total: String(all.length) }, text: t.tableSample(xs.length.toLocaleString('en'), all.length.toLocaleString('en')) })
      : null;
    const d = h('details', { class: 'chart-table', 'data-role': 'data-table' }, [h('summary', { text: t.dataTable }), note]);
    const row = (x) => {
      const r = byX.get(x);
      const cell = (key, v, text) => h('td', { dataset: { [key]: v == null ? '' : String(v) }, text: v == null ? '–' : text });
      return h('tr', { dataset: { bytes: String(x) } }, [
        h('th', { scope: 'row', text: formatBytes(x) }),
        cell('busbwBps', r.out?.busbw_Bps, formatRate(r.out?.busbw_Bps)),
        cell('inPlaceBusbwBps', r.in?.busbw_Bps, formatRate(r.in?.busbw_Bps)),
        cell('modelBusbwBps', r.model, formatRate(r.model)),
        cell('linkBusbwBps', r.link, formatRate(r.link)),
        cell('residual', r.out?.residual, `${r.out?.residual > 0 ? '+' : ''}${formatPercent(r.out?.residual, 2)}`),
      ]);
    };
    const build = () => d.append(h('table', {}, [
      h('thead', {}, h('tr', {}, [t.colSize, t.colMeasured, t.colInPlace, t.colModel, t.colLink(tbl.linkLabel), t.colResidual].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, xs.map(row)),
    ]));
    d.addEventListener('toggle', () => { if (d.open && !d.querySelector('table')) build(); });
    return d;
  }

  function chartOf(tbl, inTbl, i) {
    const shell = chartShell('measured-chart', t.chartTitle, t.chartCaption, '0.5');
    const lk = tbl.link ?? tbl.nearest_link;
    // Every size either column measured (size 0 has no place on a log axis).
    const byX = new Map();
    const at = (x) => byX.get(x) ?? byX.set(x, {}).get(x);
    for (const r of tbl.rows) if (r.bytes > 0) {
      const e = at(r.bytes);
      e.out = r;
      e.model = busBandwidth(tbl.factor, r.bytes, r.model_time_s);
      e.link = busBandwidth(tbl.factor, r.bytes, r.link_time_s);
    }
    for (const r of inTbl?.rows ?? []) if (r.bytes > 0) at(r.bytes).in = r;
    const xs = [...byX.keys()].sort((a, b) => a - b);
    const pick = (f) => xs.map((x) => f(byX.get(x)) ?? null);
    const series = [
      // Out-of-place filled, in-place a ring around it: both show where they coincide.
      { id: 'out', label: t.seriesOut, values: pick((e) => e.out?.busbw_Bps), color: COLORS[0], points: true, size: 6 },
      { id: 'in', label: t.seriesIn, values: pick((e) => e.in?.busbw_Bps), color: COLORS[1], points: true, size: 11, fill: 'rgba(0,0,0,0)' },
      { id: 'model', label: t.seriesModel, values: pick((e) => e.model), color: COLORS[2], width: 2 },
      ...(lk ? [{ id: 'link', label: t.seriesLink(lk.label), values: pick((e) => e.link), color: '#555555', width: 1.5, dash: [6, 4] }] : []),
    ];
    // A loop, not Math.max(...values): a spread of a log's rows overflows the stack (45,000 rows did).
    let top = 0;
    for (const s of series) for (const v of s.values) if (v != null && v > top) top = v;
    // A collapse shaded over its sizes, out to halfway (on the log axis) to the sizes beside it.
    const mid = (a, b) => Math.sqrt(a * b);
    const indexOfX = new Map(xs.map((x, k) => [x, k]));
    const bands = tbl.collapses.map((c) => {
      const k0 = indexOfX.get(c.from_bytes) ?? -1;
      const k1 = indexOfX.get(c.to_bytes) ?? -1;
      return { from: k0 > 0 ? mid(xs[k0 - 1], xs[k0]) : c.from_bytes, to: k1 >= 0 && k1 < xs.length - 1 ? mid(xs[k1], xs[k1 + 1]) : c.to_bytes, color: faint(COLORS[1], 0.16) };
    });
    const marks = tbl.n_half_bytes > xs[0] && tbl.n_half_bytes < xs[xs.length - 1] ? [{ x: tbl.n_half_bytes, label: `n½ ${formatBytes(tbl.n_half_bytes)}`, kind: 'boundary' }] : [];
    shell.draw({
      xs, series, xLabel: t.axisSize, yLabel: t.axisBusbw, logY: false, yRange: [0, top > 0 ? top * 1.08 : 1],
      xFormat: formatBytes, yFormat: (v) => `${Number((v / 1e9).toPrecision(4))}`, bands, marks,
    });
    Object.assign(shell.root.dataset, {
      table: String(i), pointsOut: String(series[0].values.filter((v) => v != null).length), pointsIn: String(series[1].values.filter((v) => v != null).length),
      collapses: JSON.stringify(tbl.collapses.map((c) => ({ from_bytes: c.from_bytes, to_bytes: c.to_bytes }))),
    });
    shell.extra.textContent = t.chartNote(tbl.fit.steps, tbl.factor);
    shell.tbl.replaceChildren(dataTable(xs, byX, { linkLabel: lk?.label ?? '' }));
    return shell.root;
  }

  function tableSection(tbl, inTbl, i, count, inError) {
    const lk = tbl.link ?? tbl.nearest_link;
    const sec = h('section', { class: 'measured-table', 'data-role': 'table', 'aria-labelledby': `m-table-${i}`, dataset: { table: String(i), exceeds: String(!!tbl.exceeds_link) } });
    const collective = viewStrings(lang).collectives[EXPLORE_NAME[tbl.collective]] ?? tbl.collective;
    sec.append(h('h3', { id: `m-table-${i}`, text: t.tableTitle(i + 1, count, tbl.first_line, tbl.last_line, collective, tbl.ranks, [tbl.type, tbl.redop].filter(Boolean).join(' ')) }));
    sec.append(h('p', { class: 'measured-from', 'data-role': 'sources' }, [
      h('span', { text: t.collectiveFrom }), ' ', h('span', { lang: 'en', text: tbl.collective_from }), t.sep,
      h('span', { text: t.ranksFrom }), ' ', h('span', { lang: 'en', text: tbl.ranks_from }),
    ]));
    sec.append(h('p', { class: 'measured-model', 'data-role': 'model', text: t.model(tbl.fit.steps, tbl.factor) }));
    const figs = h('div', { class: 'measured-figures', 'data-role': 'figures' });
    figs.append(...figures({ collective: tbl.collective, ranks: tbl.ranks, steps: tbl.fit.steps, alpha_s: tbl.fit.alpha_s, beta_Bps: tbl.fit.beta_Bps,
      latency_s: tbl.fit.latency_s, n_half_bytes: tbl.n_half_bytes, rel_rms: tbl.fit.rel_rms, sizes: tbl.fit.rows, caveat: tbl.fit.caveat,
      plateau_busbw_Bps: tbl.plateau_busbw_Bps, plateau_from_bytes: tbl.plateau_from_bytes, plateau_rows: tbl.plateau_rows, best_row: tbl.best_row,
      link: lk, chosen: !!tbl.link }, figs));
    // Where one line cannot follow the rows: the residuals' sign changes, and the (algorithm,
    // protocol) runs the engine's NCCL model picks over them (core/OPS.md `fit`, P5 §5.6).
    const bends = tbl.bend_bytes ?? [], regimes = tbl.regimes ?? [];
    if (bends.length) {
      figs.append(h('p', { class: 'measured-figure measured-regimes', 'data-role': 'regimes',
        dataset: { bends: bends.join(' '), regimes: regimes.map((g) => `${g.algorithm}/${g.protocol}`).join(' ') },
        text: t.regimes(bends.map(formatBytes), regimes.map((g) => ({ name: `${g.algorithm}/${g.protocol}`, from: formatBytes(g.from_bytes),
          to: g.rows > 1 ? formatBytes(g.to_bytes) : null })), lk?.label ?? '') }));
    }
    sec.append(figs);
    if (tbl.exceeds_link && lk) {
      sec.append(h('div', { class: 'measured-exceeds', 'data-role': 'exceeds' }, [
        h('p', { text: t.exceeds(formatRate(tbl.best_busbw_Bps), lk.label, formatRate(lk.nominal_Bps)) }),
      ]));
    }
    // The last note names the regimes when the line bends (core/OPS.md `fit`): drawn above in the page's language.
    const notes = bends.length ? (tbl.notes ?? []).slice(0, -1) : (tbl.notes ?? []);
    if (notes.length) {
      sec.append(h('div', { class: 'measured-notes', 'data-role': 'notes' }, [h('p', { text: t.engineNotes }),
        h('ul', {}, notes.map((n) => h('li', { lang: 'en', text: n })))]));
    }
    for (const c of tbl.collapses) {
      sec.append(h('p', { class: 'measured-collapse', 'data-role': 'collapse', dataset: { fromBytes: String(c.from_bytes), toBytes: String(c.to_bytes), worstRatio: String(c.worst_ratio) },
        text: t.collapse(bytesBoth(c.from_bytes), bytesBoth(c.to_bytes), c.from_bytes === c.to_bytes, formatPercent(c.worst_ratio, 2)) }));
    }
    if (!tbl.collapses.length) sec.append(h('p', { class: 'note', 'data-role': 'no-collapse', text: t.noCollapse }));
    sec.append(chartOf(tbl, inTbl, i));
    if (inError) sec.append(h('p', { class: 'note', 'data-role': 'in-place-error' }, [h('span', { text: t.inPlaceError }), ' ', h('span', { lang: 'en', text: inError.message })]));
    // A size of the table for Explore: the largest it can take.
    const largest = tbl.rows.reduce((m, r) => (r.bytes >= 1 && r.bytes <= MAX_BYTES && r.bytes > m ? r.bytes : m), 0);
    sec.append(exploreLinkBox({ collective: tbl.collective, ranks: tbl.ranks, alpha_s: tbl.fit.alpha_s, beta_Bps: tbl.fit.beta_Bps, bytes: largest || null }));
    sec.append(shareBox(tbl, i));
    const sk = skippedBox(tbl.skipped ?? []);
    if (sk) sec.append(sk);
    return sec;
  }

  function shareBox(tbl, i) {
    const href = sharedQuery(tbl);
    const note = h('span', { class: 'note', role: 'status', 'data-role': 'copy-status', text: copyNote[i] === 'copied' ? t.copied : copyNote[i] === 'manual' ? t.copyManual : '' });
    const button = h('button', { type: 'button', 'data-action': 'copy-link', text: t.copyLink });
    button.addEventListener('click', async () => {
      const abs = new URL(href, location.href).href;
      try {
        await navigator.clipboard.writeText(abs);
        copyNote[i] = 'copied';
      } catch {
        copyNote[i] = 'manual';
      }
      note.textContent = copyNote[i] === 'copied' ? t.copied : t.copyManual;
    });
    return h('div', { class: 'measured-share' }, [
      h('p', {}, [button, ' ', h('a', { href, 'data-role': 'share-link', text: t.shareLink }), ' ', note]),
      h('p', { class: 'note', text: t.shareSays }),
    ]);
  }

  function sharedSection(s) {
    const lk = s.link ? links.find((l) => l.id === s.link) : null;
    const sec = h('section', { class: 'measured-table measured-shared', 'data-role': 'shared', 'aria-labelledby': 'm-shared-title' });
    const collective = viewStrings(lang).collectives[EXPLORE_NAME[s.collective]] ?? s.collective;
    sec.append(h('h3', { id: 'm-shared-title', text: t.sharedTitle(collective, s.ranks) }));
    sec.append(h('p', { class: 'note', 'data-role': 'shared-note', text: t.sharedNote }));
    const figs = h('div', { class: 'measured-figures', 'data-role': 'figures' });
    // Whether the link was chosen or the nearest is not in the address: said of neither.
    figs.append(...figures({ ...s, link: lk && s.link_ratio != null ? { ...lk, ratio: s.link_ratio } : null, chosen: null }, figs));
    sec.append(figs);
    sec.append(exploreLinkBox({ collective: s.collective, ranks: s.ranks, alpha_s: s.alpha_s, beta_Bps: s.beta_Bps, bytes: null }));
    return sec;
  }

  // What NCCL built (its INFO lines), when the log has them: drawn to the results' width.
  function topologyBox() {
    const topo = answer?.topo;
    if (!topo || topo.error || !topo.communicators?.length) return [];
    drawnWidth = results.clientWidth || root.clientWidth || innerWidth;
    // Beside the explanation from 700 px of results on (styles.css, .topo-body): 3/5 of them.
    const box = topologySection(topo, lang, topoState, drawnWidth >= 700 ? Math.floor(drawnWidth * 0.6) - 20 : drawnWidth);
    // A log with no table: the fit's reason, said as a note under the drawing's heading.
    if (answer.out?.error) {
      box.insertBefore(h('p', { class: 'note', 'data-role': 'no-fit-table' }, [h('span', { text: topologyStrings(lang).noFitTable }), ' ',
        h('span', { lang: 'en', text: answer.out.error.message })]), box.children[2] ?? null);
    }
    return [box];
  }
  let drawnWidth = 0;
  // The drawing's node boxes are laid out for the width they have: again when it changes much.
  new ResizeObserver(() => {
    const w = results.clientWidth;
    if (answer?.topo?.communicators && Math.abs(w - drawnWidth) > 40) renderResults();
  }).observe(results);

  function renderResults() {
    const out = answer?.out;
    if (!out || out.error) {
      results.replaceChildren(...(shared && !textarea.value.trim() ? [sharedSection(shared)] : []), ...topologyBox());
      return;
    }
    const inTables = answer.inPlace?.error ? [] : answer.inPlace?.tables ?? [];
    const inOf = (tbl) => inTables.find((x) => x.first_line === tbl.first_line && x.last_line === tbl.last_line) ?? null;
    results.replaceChildren(...topologyBox(), ...out.tables.map((tbl, i) => tableSection(tbl, inOf(tbl), i, out.tables.length, answer.inPlace?.error ?? null)));
  }

  function render() {
    renderChrome();
    renderStatus();
    renderError();
    renderResults();
  }

  // --- fitting ------------------------------------------------------------------------------
  let asked = 0;
  let timer = 0;
  async function fit() {
    clearTimeout(timer);
    timer = 0;
    const log = textarea.value;
    const mine = ++asked;
    keptState = shared && !log ? null : keep(storage, log, linkId);
    if (!log.trim()) {
      answer = null;
      status = { state: 'idle' };
      render();
      return;
    }
    status = { state: 'fitting', chars: log.length };
    renderStatus();
    const req = { op: 'fit', log, ...(linkId ? { link: linkId } : {}) };
    // NCCL's own lines, asked only of a log that could hold them (a plain table has no "NCCL INFO").
    const topoAsked = /NCCL INFO/.test(log);
    const out = await askMany([req, { ...req, columns: 'in_place' }, ...(topoAsked ? [{ op: 'nccl.topology', log }] : [])], 'measured-fit');
    if (!out || mine !== asked) return;
    const topo = topoAsked && !out[2]?.error ? out[2] : null;
    if (topo && topoState.log !== log) Object.assign(topoState, { comm: null, channel: null, show: 'ring', log });
    answer = { out: out[0], inPlace: out[1], topo };
    status = out[0].error && topo ? { state: 'topology', communicators: topo.communicators.length, lines: topo.lines, chars: log.length }
      : out[0].error ? { state: 'error', error: out[0].error, chars: log.length }
        : { state: 'done', lines: out[0].lines, tables: out[0].tables.length, skipped: out[0].skipped_lines, chars: log.length };
    // Answers parsed, then drawn in a frame of their own.
    await new Promise((r) => requestAnimationFrame(r));
    if (mine !== asked) return;
    render();
  }
  function fitSoon() {
    clearTimeout(timer);
    status = { state: 'fitting' };
    renderStatus();
    timer = setTimeout(fit, FIT_DELAY_MS);
  }

  textarea.addEventListener('input', () => {
    if (samplePicked && textarea.value !== samplePicked.text) {
      samplePicked = null;
      renderChrome();
    }
    fitSoon();
  });
  async function readFile(file) {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      answer = null;
      status = { state: 'error', error: { code: 'too_large', message: t.fileTooLarge(file.name, formatBytes(file.size), formatBytes(MAX_FILE_BYTES)) } };
      render();
      return;
    }
    status = { state: 'fitting' };
    renderStatus();
    textarea.value = await file.text();
    samplePicked = null;
    renderChrome();
    fit();
  }
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    readFile(file);
  });
  // A file dropped on the text box is read; dropped text is the browser's own insert (an input).
  textarea.addEventListener('dragover', (e) => { if (e.dataTransfer?.types?.includes('Files')) e.preventDefault(); });
  textarea.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    readFile(file);
  });
  sample.addEventListener('change', () => {
    samplePicked = samples?.find((s) => s.file === sample.value) ?? null;
    if (samplePicked) textarea.value = samplePicked.text;
    renderChrome();
    if (samplePicked) fit();
  });
  link.addEventListener('change', () => {
    linkId = link.value;
    if (textarea.value.trim()) fit();
  });

  // The bundled samples (web/tools/samples.mjs): none when they cannot be fetched. The single-file
  // page (file://) fetches nothing: its CSP refuses it, and the browser would log the refusal.
  (location.protocol === 'file:' ? Promise.reject(new Error('file://')) : fetch(new URL('measured/samples.json', location.href))).then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((d) => { samples = Array.isArray(d?.samples) ? d.samples.filter((s) => typeof s?.file === 'string' && typeof s?.text === 'string') : []; })
    .catch(() => { samples = []; })
    .then(() => renderChrome());

  root.append(
    heading, intro,
    h('div', { class: 'measured-input' }, [
      labels.log, textarea, dropHint,
      h('div', { class: 'measured-pick' }, [
        h('div', { class: 'param' }, [labels.file, fileInput]),
        h('div', { class: 'param' }, [labels.sample, sample]),
        h('div', { class: 'param' }, [labels.link, link]),
      ]),
      sampleNote, samplesSaid, statusBox, keptBox,
    ]),
    errorBox, results,
  );
  render();
  if (textarea.value.trim()) fit();

  return {
    root,
    setLang(to) {
      lang = to;
      t = measuredStrings(lang);
      render();
    },
  };
}
