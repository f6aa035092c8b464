// Small messages in inference (`?view=decode`, P5 §5.7, §2.5, §6.2): a tensor-parallel decode
// step does 2 all-reduces a layer (Llama-3-70B on TP8: 160 of B x 8192 x 2 bytes); the engine's
// `tp` op, asked once per all-reduce algorithm in one batch, gives the step's communication,
// split into its α part and its β part, against the weight read (decode) or the GEMMs (prefill).
// The page draws: bar lengths are the engine's times on one linear axis, never figures.

import { h } from '../util/dom.js';
import { viewStrings } from '../util/i18n.js';
import { decodeStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { askMany } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';
import { sourcesNote } from './sources.js';

// Every all-reduce algorithm the `tp` op accepts (its error names them), the ring first.
export const DECODE_ALGORITHMS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
// §5.7's kernels written for small messages, asked of the same op: NCCL's ring under its LL
// protocol (§5.6) and vLLM's custom all-reduce in one or two shots (it says where it cannot run).
export const DECODE_KERNELS = [{ algorithm: 'ring', protocol: 'LL' }, { algorithm: 'one_shot' }, { algorithm: 'two_shot' }];
const LIMITS = { tp: [1, 4096], tokens: [1, 1e8] };

/** The α share of one all-reduce: alpha_time_s / time_s, both the engine's (0 when nothing is sent). */
export function alphaShare(perAllreduce) {
  return perAllreduce.time_s > 0 ? perAllreduce.alpha_time_s / perAllreduce.time_s : 0;
}


/** A share as a percentage ("99.7%"). Presentation only. */
const percent = (x) => `${Number((x * 100).toPrecision(3))}%`;

export function createDecodeView(lang, links) {
  const t = decodeStrings(lang);
  const vt = viewStrings(lang);
  const root = h('section', { class: 'decode card', dataset: { view: 'decode', lecture: '5.7' }, 'aria-labelledby': 'decode-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const model = h('select', { id: 'decode-model', 'data-setting': 'model' });
  const gpu = h('select', { id: 'decode-gpu', 'data-setting': 'gpu' });
  const tp = h('input', { id: 'decode-tp', type: 'number', min: '1', max: '4096', step: '1', value: '8', 'data-setting': 'tp' });
  const link = h('select', { id: 'decode-link', 'data-setting': 'link' }, links.map((l) => h('option', { value: l.id, text: l.label })));
  link.value = links.some((l) => l.id === 'nvlink4') ? 'nvlink4' : links[0]?.id ?? '';
  const phase = h('select', { id: 'decode-phase', 'data-setting': 'phase' }, ['decode', 'prefill'].map((p) => h('option', { value: p, text: t.phases[p] })));
  const tokens = h('input', { id: 'decode-tokens', type: 'number', min: '1', max: '100000000', step: '1', value: '1', 'data-setting': 'tokens' });
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const summary = h('p', { class: 'decode-summary', id: 'decode-summary', 'data-role': 'summary', dataset: { lecture: '2.5' } });
  const picture = h('div', { class: 'decode-picture', 'data-role': 'picture', role: 'img' });
  const sentences = h('ul', { class: 'decode-sentences', 'data-role': 'sentences' });
  const tableBox = h('div');
  const sourcesBox = h('div');
  root.append(
    h('h2', { id: 'decode-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.model, model, 'decode-model'), field(t.gpu, gpu, 'decode-gpu'), field(t.tp, tp, 'decode-tp'),
      field(t.link, link, 'decode-link'), field(t.phase, phase, 'decode-phase'), field(t.tokens, tokens, 'decode-tokens'),
    ]),
    problem,
    drawn,
  );
  // §2.5's other transfers for the same model: a prompt's KV to the decode machine, and a cold start.
  const transfers = h('section', { class: 'decode-transfers', id: 'decode-transfers', dataset: { lecture: '2.5' }, 'aria-labelledby': 'decode-transfers-title' });
  drawn.append(summary, h('figure', { class: 'decode-figure' }, [h('figcaption', { text: t.caption }), picture]), sentences, tableBox, transfers, sourcesBox);

  // A whole number in [lo, hi] typed, or the words that say why not.
  const sayWrong = () => rangeProblem([
    { input: tp, range: LIMITS.tp, say: (v) => t.range.tp(v) },
    ...(tokensFromEngine ? [] : [{ input: tokens, range: LIMITS.tokens, say: (v) => t.range.tokens(v) }]),
  ]);

  const turns = settingsRefresh(problem, drawn);
  let presetsAnswer = null;
  // After a change of phase the engine's own token count for it is asked for and shown.
  let tokensFromEngine = false;
  async function run() {
    const turn = turns.begin(sayWrong());
    if (!turn) return;
    root.setAttribute('aria-busy', 'true');
    const base = { op: 'tp', tp: Number(tp.value), link: link.value, phase: phase.value };
    if (!tokensFromEngine) base.tokens = Number(tokens.value);
    if (model.value) base.model = model.value;
    if (gpu.value) base.gpu = gpu.value;
    // One batch: the presets (the pickers) and the step under every algorithm, side by side.
    const answers = await askMany([{ op: 'presets' }, ...DECODE_ALGORITHMS.map((algorithm) => ({ ...base, algorithm })),
      ...DECODE_KERNELS.map((k) => ({ ...base, ...k }))], 'decode');
    if (turn.stale || !answers) return; // superseded (door.js askMany): the later one draws
    root.removeAttribute('aria-busy');
    const [presets, ...steps] = answers;
    if (presets?.error || steps.some((r) => r?.error)) {
      turns.say(t.failed);
      return;
    }
    if (!presetsAnswer) fillPickers(presets);
    if (tokensFromEngine) {
      // The engine's count for the phase, written into the address as a typed one would be.
      tokens.value = String(steps[0].tokens);
      tokensFromEngine = false;
      tokens.dispatchEvent(new Event('change', { bubbles: true }));
    }
    Object.assign(root.dataset, { model: steps[0].model.id, gpu: gpu.value, tp: String(steps[0].tp), link: link.value, phase: steps[0].phase, tokens: String(steps[0].tokens) });
    draw(steps);
    sourcesBox.replaceChildren(sourcesNote(vt.presetSources, presets, [steps[0].model.id, gpu.value]));
    await drawTransfers(turn, steps[0].model);
  }

  function fillPickers(presets) {
    presetsAnswer = presets;
    model.replaceChildren(...presets.models.map((m) => h('option', { value: m.id, text: m.label })));
    model.value = 'llama3_70b';
    gpu.replaceChildren(...presets.gpus.map((g) => h('option', { value: g.id, text: g.label })));
    gpu.value = 'h100';
  }

  const algoName = (a) => t.kernels[a] ?? vt.algorithms[a] ?? a;
  // Why vLLM's kernel cannot run at a step's settings: the limit the engine names, in words.
  const whyNot = (s) => t.notHere({ limit: s.per_allreduce.limit, tp: s.tp, bytes: formatBytes(s.allreduce_bytes), limitBytes: formatBytes(s.per_allreduce.limit_bytes) });

  function draw(steps) {
    const first = steps[0];
    const against = first.phase === 'decode' ? t.weightRead : t.compute;
    Object.assign(summary.dataset, { allreduces: String(first.allreduces), allreduceBytes: String(first.allreduce_bytes), computeTimeS: String(first.compute_time_s) });
    summary.textContent = t.summary({
      model: first.model.label, tp: first.tp, allreduces: first.allreduces, bytes: formatBytes(first.allreduce_bytes),
      tokens: first.tokens, phase: t.phases[first.phase], against, againstTime: formatTime(first.compute_time_s),
    });
    // One linear axis for every bar: the longest of the communication and the compute side.
    const longest = Math.max(...steps.map((s) => Math.max(s.comm_time_s, s.compute_time_s)));
    const width = (x) => `${(longest > 0 ? (x / longest) * 100 : 0).toFixed(2)}%`;
    const rows = [];
    const items = [];
    for (const [i, s] of steps.entries()) {
      const p = s.per_allreduce;
      // The kernels follow the algorithms in the batch: their heading goes before the first.
      if (i === DECODE_ALGORITHMS.length) rows.push(h('h3', { class: 'decode-group', text: t.kernelsTitle }));
      if (p.applies === false) {
        // vLLM's kernel outside its limits: said in words, nothing drawn (NCCL runs instead).
        const why = whyNot(s);
        rows.push(h('div', { class: 'decode-row', dataset: { algorithm: p.algorithm, applies: 'false', limit: p.limit, bound: 'none' } }, [
          h('span', { class: 'decode-name', text: algoName(p.algorithm) }),
          h('span', { class: 'decode-bars' }, h('span', { class: 'decode-na', text: why })),
        ]));
        items.push(h('li', { dataset: { algorithm: p.algorithm, bound: 'none', applies: 'false' } }, [h('strong', { text: `${algoName(p.algorithm)}${t.colon}` }), why]));
        continue;
      }
      const share = alphaShare(p);
      const alphaPart = s.allreduces * p.alpha_time_s; // the step's α: all-reduces × α time each
      const betaPart = s.allreduces * p.beta_time_s;
      const al = h('span', { class: 'bar bar-alpha' });
      al.style.width = width(alphaPart);
      const be = h('span', { class: 'bar bar-beta' });
      be.style.width = width(betaPart);
      const wr = h('span', { class: 'bar bar-compute' });
      wr.style.width = width(s.compute_time_s);
      const bound = s.bound; // the engine's: latency when α is at least half of each all-reduce
      rows.push(h('div', {
        class: 'decode-row',
        dataset: {
          algorithm: p.algorithm, commTimeS: String(s.comm_time_s), computeTimeS: String(s.compute_time_s), commToCompute: String(s.comm_to_compute),
          alphaTimeS: String(p.alpha_time_s), betaTimeS: String(p.beta_time_s), allreduceTimeS: String(p.time_s), steps: String(p.steps), alphaShare: String(share), bound,
          ...(p.applies === undefined ? {} : { applies: 'true' }), ...(p.vllm_picks === undefined ? {} : { vllmPicks: String(p.vllm_picks) }),
        },
      }, [
        h('span', { class: 'decode-name', text: algoName(p.algorithm) }),
        h('span', { class: 'decode-bars' }, [
          h('span', { class: 'decode-track' }, [h('span', { class: 'decode-box' }, h('span', { class: 'decode-stack' }, [al, be])), h('span', { class: 'decode-value', text: `${t.comm} ${formatTime(s.comm_time_s)}` })]),
          h('span', { class: 'decode-track' }, [h('span', { class: 'decode-box' }, wr), h('span', { class: 'decode-value', text: `${against} ${formatTime(s.compute_time_s)}` })]),
        ]),
      ]));
      items.push(h('li', { dataset: { algorithm: p.algorithm, bound, ...(p.vllm_picks === undefined ? {} : { vllmPicks: String(p.vllm_picks) }) } }, [
        h('strong', { text: `${algoName(p.algorithm)}${t.colon}` }),
        t.sentence({ bound, ratio: s.comm_to_compute, ratioText: percent(s.comm_to_compute), times: String(Number(s.comm_to_compute.toPrecision(3))), against, share: percent(share), steps: p.steps }),
        ...(p.vllm_picks ? [t.vllmPicks(formatBytes(s.allreduce_bytes), s.tp)] : []),
      ]));
    }
    picture.setAttribute('aria-label', t.pictureLabel);
    picture.replaceChildren(
      h('div', { class: 'decode-legend', 'aria-hidden': 'true' }, [
        h('span', { class: 'swatch bar-alpha' }), h('span', { text: t.alphaLegend }),
        h('span', { class: 'swatch bar-beta' }), h('span', { text: t.betaLegend }),
        h('span', { class: 'swatch bar-compute' }), h('span', { text: against }),
      ]),
      ...rows,
    );
    sentences.replaceChildren(...items);
    tableBox.replaceChildren(dataTable(steps, against));
  }

  // §2.5 (code 01 demo 3): the KV of a 4,096-token prompt over one NIC and over a node's NICs
  // (kv_transfer), and the weights read at a cold start from one NVMe SSD or from CPU memory over
  // the node's PCIe links, a GPU's share each (memory's weight_bytes_per_gpu, then transfer).
  const NODE_GPUS = 8; // a DGX H100: 8 GPUs, 8 NICs, 8 PCIe links (the lecture's node)
  async function drawTransfers(turn, m) {
    const first = await askMany([{ op: 'kv_transfer', model: m.id, tokens: 4096 }, { op: 'memory', model: m.id, gpus: NODE_GPUS }], 'decode-transfers');
    if (turn.stale || !first || first.some((r) => !r || r.error)) return;
    const [kv, mem] = first;
    const loads = await askMany([{ op: 'transfer', link: 'nvme', bytes: mem.weight_bytes }, { op: 'transfer', link: 'pcie5', bytes: mem.weight_bytes_per_gpu }], 'decode-loads');
    if (turn.stale || !loads || loads.some((r) => !r || r.error)) return;
    const [ssd, host] = loads;
    const row = (key, what, bytes, how, time) => h('tr', { dataset: { transfer: key, bytes: String(bytes), timeS: String(time) } }, [
      h('th', { scope: 'row', text: what }), h('td', { text: formatBytes(bytes) }), h('td', { text: how }), h('td', { text: formatTime(time) }),
    ]);
    Object.assign(transfers.dataset, { model: m.id, nics: String(kv.nics), kvBytes: String(kv.kv_bytes), oneNicS: String(kv.one_nic_s), allNicsS: String(kv.all_nics_s), prefillS: String(kv.prefill_s), ssdS: String(ssd.time_s), hostS: String(host.time_s) });
    transfers.replaceChildren(
      h('h3', { id: 'decode-transfers-title', text: t.transfersTitle }),
      h('table', { class: 'decode-transfers-table' }, [
        h('thead', {}, h('tr', {}, [t.colTransfer, t.colBytes, t.colHow, t.colTime].map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', {}, [
          row('kv-one-nic', t.kvOne, kv.kv_bytes, t.oneNic, kv.one_nic_s),
          row('kv-all-nics', t.kvAll(kv.nics), kv.kv_bytes, t.allNics(kv.nics), kv.all_nics_s),
          row('cold-ssd', t.coldSsd, mem.weight_bytes, t.ssd, ssd.time_s),
          row('cold-host', t.coldHost(NODE_GPUS), mem.weight_bytes, t.host(NODE_GPUS), host.time_s),
        ]),
      ]),
      h('p', { 'data-role': 'transfers-sentence', 'data-says': kv.against_prefill, text: t.transfersSentence({
        model: m.label, kv: formatBytes(kv.kv_bytes), one: formatTime(kv.one_nic_s), all: formatTime(kv.all_nics_s), nics: kv.nics, prefill: formatTime(kv.prefill_s),
        weights: formatBytes(mem.weight_bytes), ssd: formatTime(ssd.time_s), host: formatTime(host.time_s), gpus: NODE_GPUS,
        hidden: kv.against_prefill === 'less',
      }) }),
    );
  }

  function dataTable(steps, against) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    const cols = [t.colAlgorithm, t.colSteps, t.colAllreduce, t.colAlpha, t.colBeta, t.colComm, against, t.colRatio, t.colShare];
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, steps.map((s) => {
        const p = s.per_allreduce;
        if (p.applies === false) {
          return h('tr', { dataset: { algorithm: p.algorithm, applies: 'false', limit: p.limit } }, [
            h('th', { scope: 'row', text: algoName(p.algorithm) }),
            h('td', { colspan: String(cols.length - 1), text: whyNot(s) }),
          ]);
        }
        return h('tr', { dataset: {
          algorithm: p.algorithm, steps: String(p.steps), allreduceTimeS: String(p.time_s), alphaTimeS: String(p.alpha_time_s), betaTimeS: String(p.beta_time_s),
          commTimeS: String(s.comm_time_s), computeTimeS: String(s.compute_time_s), commToCompute: String(s.comm_to_compute), alphaShare: String(alphaShare(p)),
        } }, [
          h('th', { scope: 'row', text: algoName(p.algorithm) }),
          ...[String(p.steps), formatTime(p.time_s), formatTime(p.alpha_time_s), formatTime(p.beta_time_s), formatTime(s.comm_time_s),
            formatTime(s.compute_time_s), percent(s.comm_to_compute), percent(alphaShare(p))].map((v) => h('td', { text: v })),
        ]);
      })),
    ]));
    return details;
  }

  tp.addEventListener('input', run);
  tokens.addEventListener('input', () => { tokensFromEngine = false; run(); });
  for (const c of [model, gpu, link]) c.addEventListener('change', run);
  phase.addEventListener('change', () => { tokensFromEngine = true; run(); });
  const ready = run();
  return { root, ready };
}
