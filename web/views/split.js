// Tensor and sequence parallelism (`?view=split`, P5 §6.2). Three parts, each from the engine:
// (1) the `sharding_check` op runs Megatron's split (gate/up by columns, down by rows; heads,
// output projection by rows) and the wrong one (gate/up by rows) on random matrices against one
// device: the errors, and the bytes each all-reduces with the engine's ratio; (2) the `tp` op's
// sequence-parallel block: the same bytes sent, the activations' memory per GPU; (3) the `tp`
// op on two links: a decode step's all-reduces beside the weight read. The page draws and words
// the engine's figures; every ratio it states is the engine's (bytes_ratio, comm_to_compute).

import { h } from '../util/dom.js';
import { splitStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

// The ranges the engine accepts (its errors name them): sharding_check shards 1-64 and tokens
// 1-256 (a multiple of shards: sequence parallelism gives each shard T/k); tp 1-4,096, tokens 1-1e8.
export const SPLIT_RANGES = Object.freeze({ tokens: { min: 1, max: 256 }, tp: { min: 1, max: 4096 }, tpTokens: { min: 1, max: 100000000 } });
// Tensor-parallel degrees offered for the check (powers of two up to the engine's 64 shards).
export const SHARD_CHOICES = [1, 2, 4, 8, 16, 32, 64];
// Errors within this of one device are rounding (doubles, sums in another order): "equal".
const AGREE_ABS = 1e-9;

/**
 * The shapes sent with `shards` = k: the engine's default (hidden 32, ffn 3.5 × hidden as
 * Llama-3-70B's, 16 query / 4 KV heads), widened so that k divides hidden, ffn and the heads.
 */
export function checkShape(k) {
  const hidden = Math.max(32, 2 * k);
  return { hidden, ffn: (hidden * 7) / 2, q_heads: Math.max(16, k), kv_heads: Math.max(4, k), head_dim: 8 };
}

const SVG = 'http://www.w3.org/2000/svg';
function s(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text != null) node.textContent = text;
  return node;
}
const times = (x) => String(Number(x.toPrecision(3)));
const sci = (x) => (x === 0 ? '0' : x.toExponential(1));
const percent = (x) => `${Number((x * 100).toPrecision(3))}%`;

export function createSplitView(lang, links = []) {
  const t = splitStrings(lang);
  const root = h('section', { class: 'split card', dataset: { view: 'split', lecture: '6.2' }, 'aria-labelledby': 'split-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const linkName = (id) => links.find((l) => l.id === id)?.label ?? id;
  const linkPicker = (id, value) => {
    const sel = h('select', { id, 'data-setting': id.replace('split-', '') }, links.map((l) => h('option', { value: l.id, text: l.label })));
    sel.value = links.some((l) => l.id === value) ? value : links[0]?.id ?? '';
    return sel;
  };

  // (1) The split check.
  const shards = h('select', { id: 'split-shards', 'data-setting': 'shards' }, SHARD_CHOICES.map((k) => h('option', { value: String(k), text: String(k) })));
  shards.value = '4';
  const tokens = h('input', { id: 'split-tokens', type: 'number', min: String(SPLIT_RANGES.tokens.min), max: String(SPLIT_RANGES.tokens.max), step: '4', value: '16', 'data-setting': 'tokens' });
  const checkProblem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'check-error', hidden: true });
  const checkDrawn = h('div', { 'data-role': 'check-drawn' });
  const checkSentence = h('p', { class: 'split-sentence', 'data-role': 'check-sentence', 'aria-live': 'polite' });
  const picture = h('div', { class: 'split-picture', 'data-role': 'picture' });
  const byteBars = h('div', { class: 'split-bars', 'data-role': 'bytes', role: 'img' });
  const checkTable = h('div');
  checkDrawn.append(
    checkSentence,
    h('figure', { class: 'split-figure' }, [h('figcaption', { text: t.pictureCaption }), picture]),
    h('figure', { class: 'split-figure' }, [h('figcaption', { text: t.bytesCaption }), byteBars]),
    checkTable,
  );

  // (2) and (3): a model on tp GPUs.
  const model = h('select', { id: 'split-model', 'data-setting': 'model' });
  const tp = h('input', { id: 'split-tp', type: 'number', min: String(SPLIT_RANGES.tp.min), max: String(SPLIT_RANGES.tp.max), step: '1', value: '8', 'data-setting': 'tp' });
  const tpTokens = h('input', { id: 'split-tp-tokens', type: 'number', min: String(SPLIT_RANGES.tpTokens.min), max: String(SPLIT_RANGES.tpTokens.max), step: '1', value: '1', 'data-setting': 'tp-tokens' });
  const inside = linkPicker('split-inside', 'nvlink4');
  const across = linkPicker('split-across', 'ib_ndr');
  const tpProblem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'tp-error', hidden: true });
  const tpDrawn = h('div', { 'data-role': 'tp-drawn' });
  const spSentence = h('p', { class: 'split-sentence', 'data-role': 'sp-sentence' });
  const spBars = h('div', { class: 'split-bars', 'data-role': 'sp', role: 'img' });
  const placeSentence = h('p', { class: 'split-sentence', id: 'split-place', 'data-role': 'place-sentence', 'aria-live': 'polite' });
  const placeBars = h('div', { class: 'split-bars', 'data-role': 'place', role: 'img' });
  const tpTable = h('div');
  tpDrawn.append(
    h('h3', { text: t.spTitle }),
    spSentence,
    h('figure', { class: 'split-figure' }, [h('figcaption', { text: t.spCaption }), spBars]),
    h('h3', { text: t.placeTitle }),
    placeSentence,
    h('figure', { class: 'split-figure' }, [h('figcaption', { text: t.placeCaption }), placeBars]),
    tpTable,
  );

  root.append(
    h('h2', { id: 'split-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('h3', { text: t.checkTitle }),
    h('div', { class: 'params explore-params' }, [field(t.shards, shards, 'split-shards'), field(t.tokens, tokens, 'split-tokens')]),
    checkProblem,
    checkDrawn,
    h('h3', { text: t.tpTitle }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, model, 'split-model'), field(t.tp, tp, 'split-tp'), field(t.tpTokens, tpTokens, 'split-tp-tokens'),
      field(t.inside, inside, 'split-inside'), field(t.across, across, 'split-across'),
    ]),
    tpProblem,
    tpDrawn,
  );

  // A whole number in [lo, hi] typed, or ''.
  const wholeIn = (input, { min, max }) => {
    const v = Number(input.value);
    return input.value.trim() !== '' && Number.isInteger(v) && v >= min && v <= max ? v : null;
  };
  const checkTurns = settingsRefresh(checkProblem, checkDrawn);
  const tpTurns = settingsRefresh(tpProblem, tpDrawn);
  // Busy while either part's requests are out.
  let busy = 0;
  const busyAdd = (d) => { busy += d; if (busy > 0) root.setAttribute('aria-busy', 'true'); else root.removeAttribute('aria-busy'); };

  async function runCheck() {
    const turn = checkTurns.turn();
    const k = Number(shards.value);
    const wrong = rangeProblem([{ input: tokens, range: SPLIT_RANGES.tokens, say: (v) => t.tokensRange(v) }]);
    if (wrong) return checkTurns.say(wrong);
    const tok = Number(tokens.value);
    const shape = checkShape(k);
    busyAdd(1);
    // null when a later check superseded this one (door.js askMany): that one draws.
    const answers = await askMany([{ op: 'sharding_check', shards: k, tokens: tok, ...shape }], 'split-check');
    busyAdd(-1);
    if (turn.stale || !answers) return;
    const [out] = answers;
    Object.assign(root.dataset, { shards: String(k), tokens: String(tok) });
    if (out?.error) {
      // The engine's own reason, in the page's words: T/k tokens a shard, or a check too large.
      const m = String(out.error.message ?? '');
      const why = out.error.code === 'invalid_value' && m.startsWith("field 'tokens'") ? t.tokensMultiple(tok, k)
        : out.error.code === 'out_of_range' && m.includes("'tokens' x") ? t.tooLarge(tok, shape.hidden, shape.ffn) : t.failed;
      root.dataset.checkError = out.error.code;
      clearCheck(); // no figures of an earlier check left behind
      return checkTurns.say(why);
    }
    delete root.dataset.checkError;
    checkTurns.say('');
    drawCheck(out);
  }

  // The split check's figures (root data), emptied while the engine refuses the settings (kept in
  // their place, so that the root's attributes come in the same order however the view got here).
  const CHECK_FIGURES = ['correctBytes', 'wrongBytes', 'bytesRatio', 'maxAbsError', 'wrongMaxAbsError', 'spMaxAbsError', 'attentionMaxAbsError', 'hidden', 'ffn', 'qHeads', 'kvHeads'];
  function clearCheck() {
    for (const k of CHECK_FIGURES) if (k in root.dataset) root.dataset[k] = '';
    delete checkSentence.dataset.agree;
    checkSentence.textContent = '';
    for (const part of [picture, byteBars, checkTable]) part.replaceChildren();
  }

  function drawCheck(out) {
    const { mlp, attention: att } = out;
    const worst = Math.max(mlp.max_abs_error, mlp.wrong_max_abs_error, mlp.sp_max_abs_error, att.max_abs_error);
    const agree = worst <= AGREE_ABS ? 'agree' : 'differ';
    Object.assign(root.dataset, {
      correctBytes: String(mlp.correct_bytes), wrongBytes: String(mlp.wrong_bytes), bytesRatio: String(mlp.bytes_ratio),
      maxAbsError: String(mlp.max_abs_error), wrongMaxAbsError: String(mlp.wrong_max_abs_error), spMaxAbsError: String(mlp.sp_max_abs_error),
      attentionMaxAbsError: String(att.max_abs_error), hidden: String(mlp.hidden), ffn: String(mlp.ffn), qHeads: String(att.q_heads), kvHeads: String(att.kv_heads),
    });
    checkSentence.dataset.agree = agree;
    checkSentence.textContent = t.checkSentence({ agree, worst: sci(worst), ratio: times(mlp.bytes_ratio), k: out.shards });
    picture.replaceChildren(
      splitSvg('megatron', out, t.megatron, [t.byColumns, t.byRows], [t.allreduce(`${out.tokens}×${mlp.hidden}`)]),
      splitSvg('wrong', out, t.wrong, [t.byRowsWrong, t.whole], [t.allreduceTwice(`${out.tokens}×${mlp.ffn}`)]),
      h('p', { class: 'note', 'data-role': 'attention-note', text: t.attentionNote({ q: att.q_heads, kv: att.kv_heads, k: out.shards, err: sci(att.max_abs_error) }) }),
    );
    const most = Math.max(mlp.correct_bytes, mlp.wrong_bytes);
    byteBars.setAttribute('aria-label', t.bytesLabel({ right: formatBytes(mlp.correct_bytes), wrong: formatBytes(mlp.wrong_bytes), ratio: times(mlp.bytes_ratio) }));
    byteBars.replaceChildren(
      bar('right', t.megatron, mlp.correct_bytes, most, formatBytes(mlp.correct_bytes), 'split-ok'),
      bar('wrong', t.wrong, mlp.wrong_bytes, most, `${formatBytes(mlp.wrong_bytes)} (${times(mlp.bytes_ratio)}×)`, 'split-bad'),
    );
    checkTable.replaceChildren(table(t.checkTable, [t.colSplit, t.colCut, t.colBytes, t.colError], [
      ['megatron', t.megatron, `${t.byColumns}; ${t.byRows}`, fig(formatBytes(mlp.correct_bytes), mlp.correct_bytes), fig(sci(mlp.max_abs_error), mlp.max_abs_error)],
      ['wrong', t.wrong, `${t.byRowsWrong}; ${t.whole}`, fig(`${formatBytes(mlp.wrong_bytes)} (${times(mlp.bytes_ratio)}×)`, mlp.wrong_bytes), fig(sci(mlp.wrong_max_abs_error), mlp.wrong_max_abs_error)],
      ['sp', t.sp, t.spCut, fig(formatBytes(mlp.correct_bytes), mlp.correct_bytes), fig(sci(mlp.sp_max_abs_error), mlp.sp_max_abs_error)],
      ['attention', t.attention, t.attentionCut, '–', fig(sci(att.max_abs_error), att.max_abs_error)],
    ]));
  }

  // One split as a picture: X (T × hidden), gate/up (hidden × ffn) striped by its cut, SiLU,
  // down (ffn × hidden), with an orange all-reduce where the split must sum.
  function splitSvg(kind, out, title, [firstCut, downCut], allreduces) {
    const k = out.shards;
    const stripes = Math.min(k, 16); // past 16 the stripes would be hairlines: the label says k
    const W = 620;
    const H = 140;
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'split-svg', role: 'img', 'data-split': kind, 'data-shards': k, 'data-tokens': out.tokens, 'data-hidden': out.mlp.hidden, 'data-ffn': out.mlp.ffn, 'aria-label': `${title}: ${firstCut}; ${downCut}; ${allreduces.join('; ')}` });
    svg.append(s('text', { x: 4, y: 14, class: 'split-svg-title' }, title));
    const box = (x, y, w, hh, label, sub) => {
      svg.append(s('rect', { x, y, width: w, height: hh, class: 'split-m' }));
      svg.append(s('text', { x: x + w / 2, y: y + hh + 14, 'text-anchor': 'middle', class: 'split-svg-label' }, label));
      if (sub) svg.append(s('text', { x: x + w / 2, y: y + hh + 27, 'text-anchor': 'middle', class: 'split-svg-sub' }, sub));
    };
    const cut = (x, y, w, hh, byColumns) => {
      for (let i = 1; i < stripes; i++) {
        const line = byColumns ? { x1: x + (w * i) / stripes, y1: y, x2: x + (w * i) / stripes, y2: y + hh } : { x1: x, y1: y + (hh * i) / stripes, x2: x + w, y2: y + (hh * i) / stripes };
        svg.append(s('line', { ...line, class: 'split-cut' }));
      }
    };
    const arrow = (x1, x2, y) => svg.append(s('line', { x1, y1: y, x2, y2: y, class: 'split-arrow' }));
    const ar = (x, y, label, above = 14) => {
      svg.append(s('circle', { cx: x, cy: y, r: 9, class: 'split-ar' }));
      svg.append(s('text', { x, y: y - above, 'text-anchor': 'middle', class: 'split-svg-ar' }, label));
    };
    const y = 38;
    box(8, y, 50, 40, t.x, `${out.tokens}×${out.mlp.hidden}`);
    arrow(58, 90, y + 20);
    box(90, y - 10, 120, 60, t.gateUp, `${out.mlp.hidden}×${out.mlp.ffn}`);
    cut(90, y - 10, 120, 60, kind === 'megatron');
    svg.append(s('text', { x: 150, y: y + 50 + 40, 'text-anchor': 'middle', class: 'split-svg-cut' }, `${firstCut} (${k})`));
    if (kind === 'megatron') {
      arrow(210, 260, y + 20);
    } else {
      arrow(210, 260, y + 20);
      ar(235, y + 20, allreduces[0], 40);
    }
    box(260, y + 5, 60, 30, t.silu, kind === 'megatron' ? t.local : t.full);
    arrow(320, 360, y + 20);
    box(360, y - 10, 80, 60, t.down, `${out.mlp.ffn}×${out.mlp.hidden}`);
    if (kind === 'megatron') cut(360, y - 10, 80, 60, false);
    svg.append(s('text', { x: 400, y: y + 50 + 40, 'text-anchor': 'middle', class: 'split-svg-cut' }, kind === 'megatron' ? `${downCut} (${k})` : downCut));
    arrow(440, 540, y + 20);
    if (kind === 'megatron') ar(490, y + 20, allreduces[0]);
    box(540, y, 50, 40, t.y, `${out.tokens}×${out.mlp.hidden}`);
    // Never drawn narrower than its width: on a phone the box scrolls sideways, and the text
    // stays at its own size (11 px and up).
    svg.style.minWidth = `${W}px`;
    return h('div', { class: 'split-svg-box', tabindex: '0' }, svg); // a keyboard scrolls it too
  }

  // A horizontal bar: a share of the largest value, the figure beside it.
  function bar(key, name, value, most, text, cls) {
    const fill = h('span', { class: `split-fill ${cls}` });
    fill.style.width = `${most > 0 ? ((value / most) * 100).toFixed(2) : 0}%`;
    return h('div', { class: 'split-row', dataset: { bar: key, value: String(value) } }, [
      h('span', { class: 'split-name', text: name }),
      h('span', { class: 'split-track' }, fill),
      h('span', { class: 'split-value', text }),
    ]);
  }

  // A table cell that shows a figure: its text, the figure itself in data-value.
  const fig = (text, value) => ({ text, value });
  function table(caption, cols, rows) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    details.append(h('table', {}, [
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, rows.map(([key, head, ...cells]) => h('tr', { dataset: { row: key } }, [h('th', { scope: 'row', text: head }),
        ...cells.map((c) => (typeof c === 'string' ? h('td', { text: c }) : h('td', { text: c.text, dataset: { value: String(c.value) } })))]))),
    ]));
    return details;
  }

  let models = null;
  async function runTp() {
    const turn = tpTurns.turn();
    const wrong = rangeProblem([
      { input: tp, range: SPLIT_RANGES.tp, say: (v) => t.tpRange(v) },
      { input: tpTokens, range: SPLIT_RANGES.tpTokens, say: (v) => t.tpTokensRange(v) },
    ]);
    if (wrong) return tpTurns.say(wrong);
    const k = Number(tp.value);
    const tok = Number(tpTokens.value);
    const base = { op: 'tp', tp: k, tokens: tok, phase: 'decode' };
    if (model.value) base.model = model.value;
    busyAdd(1);
    const answers = await askMany([{ op: 'presets' }, { ...base, link: inside.value }, { ...base, link: across.value }], 'split-tp');
    busyAdd(-1);
    if (turn.stale || !answers) return;
    const [presets, a, b] = answers;
    if (presets?.error || a?.error || b?.error) return tpTurns.say(t.failed);
    if (!models) {
      models = presets.models;
      model.replaceChildren(...models.map((m) => h('option', { value: m.id, text: m.label })));
      model.value = a.model.id;
    }
    tpTurns.say('');
    drawTp(a, b);
  }

  function drawTp(a, b) {
    const sp = a.sequence_parallel;
    const place = a.comm_time_s === 0 ? 'none' : a.comm_to_compute < 1 && b.comm_to_compute >= 1 ? 'inside'
      : a.comm_to_compute >= 1 && b.comm_to_compute >= 1 ? 'neither' : a.comm_to_compute < 1 && b.comm_to_compute < 1 ? 'both' : 'across';
    Object.assign(root.dataset, {
      model: a.model.id, tp: String(a.tp), tpTokens: String(a.tokens), inside: inside.value, across: across.value,
      bytesSentPerGpu: String(a.bytes_sent_per_gpu), spBytesSentPerGpu: String(sp.bytes_sent_per_gpu),
      activationBytesPerGpu: String(sp.activation_bytes_per_gpu), tpActivationBytesPerGpu: String(sp.tp_activation_bytes_per_gpu),
      insideCommTimeS: String(a.comm_time_s), acrossCommTimeS: String(b.comm_time_s), weightReadTimeS: String(a.weight_read_time_s),
      insideCommToCompute: String(a.comm_to_compute), acrossCommToCompute: String(b.comm_to_compute), allreduces: String(a.allreduces), place,
    });
    const w = {
      model: a.model.label, k: a.tp, tokens: a.tokens, count: a.allreduces, sent: formatBytes(a.bytes_sent_per_gpu), spSent: formatBytes(sp.bytes_sent_per_gpu),
      tpAct: formatBytes(sp.tp_activation_bytes_per_gpu), spAct: formatBytes(sp.activation_bytes_per_gpu),
      inside: linkName(inside.value), across: linkName(across.value), insideTime: formatTime(a.comm_time_s), acrossTime: formatTime(b.comm_time_s),
      read: formatTime(a.weight_read_time_s), insideRatio: a.comm_to_compute, acrossRatio: b.comm_to_compute,
    };
    spSentence.textContent = t.spSentence(w);
    const mostAct = Math.max(sp.tp_activation_bytes_per_gpu, sp.activation_bytes_per_gpu);
    spBars.setAttribute('aria-label', t.spLabel(w));
    spBars.replaceChildren(
      bar('tp-activation', t.tpAct, sp.tp_activation_bytes_per_gpu, mostAct, w.tpAct, 'split-bad'),
      bar('sp-activation', t.spAct, sp.activation_bytes_per_gpu, mostAct, w.spAct, 'split-ok'),
    );
    placeSentence.dataset.place = place;
    placeSentence.textContent = t.placeSentence[place]({ ...w, insideText: ratioText(a.comm_to_compute), acrossText: ratioText(b.comm_to_compute) });
    const mostTime = Math.max(a.comm_time_s, b.comm_time_s, a.weight_read_time_s);
    placeBars.setAttribute('aria-label', t.placeLabel(w));
    placeBars.replaceChildren(
      bar('inside', t.commOn(w.inside), a.comm_time_s, mostTime, w.insideTime, 'split-ok'),
      bar('across', t.commOn(w.across), b.comm_time_s, mostTime, w.acrossTime, 'split-bad'),
      bar('weight-read', t.weightRead, a.weight_read_time_s, mostTime, w.read, 'split-read'),
    );
    tpTable.replaceChildren(table(t.tpTable(w), [t.colWhat, t.colInside(w.inside), t.colAcross(w.across)], [
      ['allreduces', t.rowAllreduces, fig(String(a.allreduces), a.allreduces), fig(String(b.allreduces), b.allreduces)],
      ['sent', t.rowSent, fig(w.sent, a.bytes_sent_per_gpu), fig(formatBytes(b.bytes_sent_per_gpu), b.bytes_sent_per_gpu)],
      ['sp-sent', t.rowSpSent, fig(w.spSent, sp.bytes_sent_per_gpu), fig(formatBytes(b.sequence_parallel.bytes_sent_per_gpu), b.sequence_parallel.bytes_sent_per_gpu)],
      ['tp-activation', t.tpAct, fig(w.tpAct, sp.tp_activation_bytes_per_gpu), fig(formatBytes(b.sequence_parallel.tp_activation_bytes_per_gpu), b.sequence_parallel.tp_activation_bytes_per_gpu)],
      ['sp-activation', t.spAct, fig(w.spAct, sp.activation_bytes_per_gpu), fig(formatBytes(b.sequence_parallel.activation_bytes_per_gpu), b.sequence_parallel.activation_bytes_per_gpu)],
      ['comm', t.rowComm, fig(w.insideTime, a.comm_time_s), fig(w.acrossTime, b.comm_time_s)],
      ['weight-read', t.weightRead, fig(w.read, a.weight_read_time_s), fig(formatTime(b.weight_read_time_s), b.weight_read_time_s)],
      ['ratio', t.rowRatio, fig(ratioText(a.comm_to_compute), a.comm_to_compute), fig(ratioText(b.comm_to_compute), b.comm_to_compute)],
    ]));
  }
  // comm_to_compute in words: a percentage below 1, "2.6×" from 1.
  const ratioText = (x) => (x >= 1 ? `${times(x)}×` : percent(x));

  shards.addEventListener('change', () => {
    const k = Number(shards.value);
    tokens.step = String(k);
    // Keep the tokens a multiple of the shards (T/k a shard), within the engine's 1-256.
    const tok = wholeIn(tokens, SPLIT_RANGES.tokens);
    if (tok !== null) tokens.value = String(Math.min(SPLIT_RANGES.tokens.max - (SPLIT_RANGES.tokens.max % k), Math.max(k, tok - (tok % k))));
    runCheck();
  });
  tokens.addEventListener('input', runCheck);
  tp.addEventListener('input', runTp);
  tpTokens.addEventListener('input', runTp);
  for (const c of [model, inside, across]) c.addEventListener('change', runTp);
  const ready = Promise.all([runCheck(), runTp()]);
  return { root, ready };
}
