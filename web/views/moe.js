// Experts (`?view=moe`, P5 §6.4 and §4.3): an MoE layer's dispatch and combine are all-to-alls.
// From the engine's `moe` op: the bytes each GPU receives a layer (one expert hot makes its GPU
// receive more, and every GPU waits for it), one all-to-all's time split into α and bytes, and
// the step's all-to-alls. Decode (few tokens) is latency-bound, prefill (many) is not. The page
// draws and words the engine's figures; bar heights are shares of the engine's largest value.

import { h } from '../util/dom.js';
import { moeStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblems, settingsRefresh } from './settings_check.js';
import { sourcesNote } from './sources.js';
import { viewStrings } from '../util/i18n.js';

// The settings' ranges (the engine's moe op accepts batch_tokens 1 to 1e8, hot_factor above 0 to 1e6;
// the page offers the part a student needs).
export const MOE_RANGES = Object.freeze({ tokens: { min: 1, max: 100000000 }, hot: { min: 0.1, max: 1000 } });
// The two phases of §6.4 as token counts of one step (the engine's default batch is decode's).
const PHASES = Object.freeze({ decode: 64, prefill: 32768 });
const MODELS = ['mixtral_8x7b', 'deepseek_v3'];

const ratio = (x) => String(Number(x.toPrecision(3)));
// A count of tokens as it is (4,096, not 4100; a share of an uneven split to two decimals).
const tokenCount = (x) => Number(x.toFixed(2)).toLocaleString('en');
const percent = (x) => `${Math.round(x * 100)}%`;
// The divisors of n: the expert-parallel degrees that place experts evenly (the engine's rule).
const divisors = (n) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

export function createMoe(lang) {
  const t = moeStrings(lang);
  const s = { model: 'mixtral_8x7b', ep: 8, tokens: PHASES.decode, hot: 4 };
  const root = h('section', { class: 'moe card', dataset: { view: 'moe', lecture: '6.4' }, 'aria-labelledby': 'moe-title' });
  const pickModel = h('select', { id: 'moe-model', 'data-setting': 'model' });
  const pickEp = h('select', { id: 'moe-ep', 'data-setting': 'ep' });
  const tokens = h('input', { id: 'moe-tokens', type: 'number', min: String(MOE_RANGES.tokens.min), max: String(MOE_RANGES.tokens.max), step: '1', value: String(s.tokens), 'data-setting': 'tokens' });
  const hot = h('input', { id: 'moe-hot', type: 'number', min: String(MOE_RANGES.hot.min), max: String(MOE_RANGES.hot.max), step: '0.5', value: String(s.hot), 'data-setting': 'hot' });
  const phaseButtons = Object.keys(PHASES).map((p) => h('button', { type: 'button', class: 'moe-phase', dataset: { phase: p }, text: t.phase[p](PHASES[p]) }));
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const sentence = h('p', { class: 'moe-sentence', 'data-role': 'sentence', 'aria-live': 'polite' });
  const bars = h('div', { class: 'moe-bars', 'data-role': 'recv', role: 'img' });
  const split = h('div', { class: 'moe-split', 'data-role': 'split', role: 'img' });
  const splitText = h('p', { class: 'note', 'data-role': 'split-note' });
  const facts = h('ul', { class: 'moe-facts', 'data-role': 'facts' });
  const tableBox = h('div');
  const sourcesBox = h('div');
  const drawn = h('div', { 'data-role': 'drawn' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  root.append(
    h('h2', { id: 'moe-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, pickModel, 'moe-model'), field(t.ep, pickEp, 'moe-ep'),
      field(t.tokens, tokens, 'moe-tokens'), field(t.hot, hot, 'moe-hot'),
    ]),
    h('div', { class: 'moe-phases', role: 'group', 'aria-label': t.phasesLabel }, phaseButtons),
    problem,
    drawn,
  );
  drawn.append(
    sentence,
    h('figure', { class: 'moe-figure', id: 'moe-skew', dataset: { lecture: '4.3' } }, [h('figcaption', { text: t.recvCaption }), bars]),
    h('figure', { class: 'moe-figure' }, [h('figcaption', { text: t.splitCaption }), split, splitText]),
    facts,
    tableBox,
    sourcesBox,
  );

  let models = null;
  const turns = settingsRefresh(problem, drawn);
  async function run() {
    const turn = turns.begin(rangeProblems([
      { input: tokens, range: MOE_RANGES.tokens, say: (v) => t.tokensRange(v) },
      { input: hot, range: MOE_RANGES.hot, whole: false, say: (v) => t.hotRange(v) },
    ]).join(' '));
    if (!turn) return;
    Object.assign(s, { tokens: Number(tokens.value), hot: Number(hot.value) });
    root.setAttribute('aria-busy', 'true');
    const answers = await askMany([
      { op: 'moe', model: s.model, ep: s.ep, batch_tokens: s.tokens, hot_factor: s.hot },
      { op: 'presets' },
    ], 'moe');
    // null: a later change superseded this request (the door's key), and that one draws.
    if (turn.stale || !answers) return;
    const [out, presets] = answers;
    root.removeAttribute('aria-busy');
    if (out?.error || presets?.error) {
      turns.say(t.failed);
      return;
    }
    if (!models) fillModels(presets.models);
    draw(out);
    sourcesBox.replaceChildren(sourcesNote(viewStrings(lang).presetSources, presets, [out.model.id]));
  }

  function fillModels(list) {
    models = list.filter((m) => MODELS.includes(m.id));
    pickModel.replaceChildren(...models.map((m) => h('option', { value: m.id, dataset: { experts: String(m.experts), topK: String(m.top_k) }, text: t.modelOption(m.label ?? m.id, m.experts, m.top_k) })));
    pickModel.value = s.model;
    fillEp();
  }
  function fillEp() {
    const m = models.find((x) => x.id === s.model);
    const allowed = divisors(m.experts);
    if (!allowed.includes(s.ep)) s.ep = allowed.filter((d) => d <= 8).pop();
    pickEp.replaceChildren(...allowed.map((d) => h('option', { value: String(d), text: String(d) })));
    pickEp.value = String(s.ep);
  }

  function draw(out) {
    const recv = out.recv_bytes_per_gpu_layer;
    const most = Math.max(...recv);
    const alphaShare = out.alltoall_time_s > 0 ? out.alltoall_alpha_time_s / out.alltoall_time_s : 0;
    const routing = out.ep === 1 ? 'local' : Math.abs(out.skew - 1) < 1e-9 ? 'even' : out.skew > 1 ? 'hot' : 'cold';
    const bound = out.ep === 1 ? 'none' : alphaShare >= 0.5 ? 'latency' : 'bandwidth';
    Object.assign(root.dataset, {
      model: out.model.id, ep: String(out.ep), tokens: String(out.batch_tokens), hot: String(out.hot_factor),
      skew: String(out.skew), alphaShare: String(alphaShare), routing, bound,
      alltoallTimeS: String(out.alltoall_time_s), alltoallAlphaTimeS: String(out.alltoall_alpha_time_s),
      stepTimeS: String(out.step_time_s), busiestRecvBytes: String(out.busiest_recv_bytes_layer), meanRecvBytes: String(out.mean_recv_bytes_layer),
      tokensPerGpu: String(out.tokens_per_gpu), remoteFraction: String(out.remote_fraction), dispatchBytesPerGpuLayer: String(out.dispatch_bytes_per_gpu_layer),
      combineBytesPerGpuLayer: String(out.combine_bytes_per_gpu_layer), bytesPerGpuStep: String(out.bytes_per_gpu_step), hotProbability: String(out.hot_probability),
      alltoallsPerStep: String(out.alltoalls_per_step), topK: String(out.model.top_k),
    });
    // The busiest GPUs: every GPU that receives the engine's busiest bytes (a cold expert leaves
    // all the others tied), when routing is uneven.
    const busiest = (i) => (routing === 'hot' || routing === 'cold') && recv[i] === out.busiest_recv_bytes_layer;
    const words = {
      ep: out.ep, skew: ratio(out.skew), busiest: formatBytes(out.busiest_recv_bytes_layer), mean: formatBytes(out.mean_recv_bytes_layer),
      expertGpu: formatBytes(recv[0]), // the hot (or cold) expert's GPU: the engine lists it first
      share: percent(alphaShare), bytesShare: percent(1 - alphaShare), time: formatTime(out.alltoall_time_s),
    };
    sentence.dataset.routing = routing;
    sentence.dataset.bound = bound;
    sentence.textContent = `${t.routing[routing](words)} ${t.bound[bound](words)}`;

    // Receive bytes a layer, one bar a GPU; the busiest highlighted (P5 §4.3).
    bars.setAttribute('aria-label', t.recvLabel(words));
    bars.replaceChildren(...recv.map((b, i) => {
      const bar = h('span', { class: `moe-bar${busiest(i) ? ' moe-busiest' : ''}`, dataset: { gpu: String(i), recvBytes: String(b) }, title: t.gpuBar(i, formatBytes(b)) });
      bar.style.height = `${most > 0 ? ((b / most) * 100).toFixed(2) : 0}%`;
      return bar;
    }));
    // One all-to-all: α rounds against bytes over the link (P5 §6.4).
    const a = h('span', { class: 'moe-alpha', dataset: { timeS: String(out.alltoall_alpha_time_s) } });
    a.style.width = `${(alphaShare * 100).toFixed(2)}%`;
    const b = h('span', { class: 'moe-bytes', dataset: { timeS: String(out.alltoall_time_s - out.alltoall_alpha_time_s) } });
    b.style.width = `${((1 - alphaShare) * 100).toFixed(2)}%`;
    split.setAttribute('aria-label', t.splitLabel(words));
    split.replaceChildren(a, b);
    splitText.textContent = t.splitNote({
      ...words, alpha: formatTime(out.alltoall_alpha_time_s), bytes: formatTime(out.alltoall_time_s - out.alltoall_alpha_time_s),
      count: out.alltoalls_per_step, step: formatTime(out.step_time_s),
    });
    facts.replaceChildren(...[
      ['tokens-per-gpu', t.factTokens(tokenCount(out.tokens_per_gpu))],
      ['dispatch', t.factDispatch(formatBytes(out.dispatch_bytes_per_gpu_layer), formatBytes(out.combine_bytes_per_gpu_layer), percent(out.remote_fraction))],
      ['step-bytes', t.factStep(formatBytes(out.bytes_per_gpu_step))],
      ['hot', t.factHot(percent(out.hot_probability), out.model.top_k)],
    ].map(([k, text]) => h('li', { dataset: { fact: k, ...(k === 'tokens-per-gpu' ? { tokensPerGpu: String(out.tokens_per_gpu) } : {}) }, text })));
    tableBox.replaceChildren(dataTable(out, recv, busiest));
  }

  function dataTable(out, recv, busiest) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    details.append(h('table', {}, [
      h('caption', { text: t.tableCaption }),
      h('thead', {}, h('tr', {}, [t.colGpu, t.colRecv, t.colVsMean].map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, recv.map((b, i) => h('tr', { dataset: { gpu: String(i) } }, [
        h('th', { scope: 'row', dataset: { busiest: String(busiest(i)) }, text: busiest(i) ? t.gpuBusiest(i) : t.gpu(i) }),
        h('td', { 'data-recv-bytes': String(b), text: formatBytes(b) }),
        h('td', { text: out.mean_recv_bytes_layer > 0 ? `${ratio(b / out.mean_recv_bytes_layer)}×` : '–' }),
      ]))),
    ]));
    return details;
  }

  pickModel.addEventListener('change', () => { s.model = pickModel.value; fillEp(); run(); });
  pickEp.addEventListener('change', () => { s.ep = Number(pickEp.value); run(); });
  tokens.addEventListener('input', run);
  hot.addEventListener('input', run);
  // A preset is a change of the tokens like a typed one: 'change' bubbles to the page, which
  // writes it into the address (app/view_settings.js), so a redraw (a language switch) keeps it.
  for (const btn of phaseButtons) {
    btn.addEventListener('click', () => {
      tokens.value = String(PHASES[btn.dataset.phase]);
      tokens.dispatchEvent(new Event('change', { bubbles: true }));
      run();
    });
  }
  const ready = run();
  return { root, ready };
}
