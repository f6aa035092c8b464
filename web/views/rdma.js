// RDMA and GPUDirect (`?view=rdma`, P5 §2.4, code 01 demo 4): one message from a GPU to a GPU in
// another node by three paths, as the engine's `gpudirect` op times them: through host memory one
// stage after another, through it in pipelined chunks, and GPUDirect RDMA (the NIC reads and writes
// GPU memory). The page draws each stage at the engine's start_s / end_s on one linear time axis;
// every sentence is chosen by the engine's figures (fastest, paced_by, nccl_path, the ratios).

import { h } from '../util/dom.js';
import { rdmaStrings } from '../util/section_strings.js';
import { formatBytes, formatTime } from '../util/units.js';
import { ask } from '../engine/door.js';
import { rangeProblem, settingsRefresh } from './settings_check.js';

// What the inputs allow: the engine's own limits (its errors name them), the size in MB.
const LIMITS = { mb: [1e-6, 1e9], chunks: [1, 1048576] };

/** A ratio as the page shows it ("2.56×"). Presentation only. */
const times = (x) => `${Number(x.toPrecision(3))}×`;

export function createRdmaView(lang, links) {
  const t = rdmaStrings(lang);
  const root = h('section', { class: 'rdma card', dataset: { view: 'rdma', lecture: '2.4' }, 'aria-labelledby': 'rdma-title' });
  const field = (label, control, id) => h('div', { class: 'param' }, [h('label', { for: id, text: label }), control]);
  const linkPicker = (id, setting, fallback) => {
    const s = h('select', { id, 'data-setting': setting }, links.map((l) => h('option', { value: l.id, text: l.label })));
    s.value = links.some((l) => l.id === fallback) ? fallback : links[0]?.id ?? '';
    return s;
  };
  const mb = h('input', { id: 'rdma-mb', type: 'number', min: '0.000001', max: '1000000000', step: 'any', value: '1000', 'data-setting': 'mb' });
  const chunks = h('input', { id: 'rdma-chunks', type: 'number', min: '1', max: '1048576', step: '1', value: '64', 'data-setting': 'chunks' });
  const net = linkPicker('rdma-link', 'link', 'ib_ndr');
  const host = linkPicker('rdma-host-link', 'host_link', 'pcie5');
  const sameSwitch = h('input', { id: 'rdma-switch', type: 'checkbox', checked: true, 'data-setting': 'same_pcie_switch' });
  const problem = h('p', { class: 'card-error', role: 'alert', 'data-role': 'settings-error', hidden: true });
  const drawn = h('div', { 'data-role': 'drawn' });
  const picture = h('div', { class: 'rdma-picture', 'data-role': 'picture', role: 'img', 'aria-label': t.pictureLabel });
  const sentences = h('ul', { class: 'rdma-sentences', 'data-role': 'sentences' });
  const tableBox = h('div');
  root.append(
    h('h2', { id: 'rdma-title', text: t.title }),
    h('p', { class: 'note', text: t.intro }),
    h('div', { class: 'params explore-params' }, [
      field(t.mb, mb, 'rdma-mb'), field(t.chunks, chunks, 'rdma-chunks'), field(t.link, net, 'rdma-link'), field(t.hostLink, host, 'rdma-host-link'),
      h('div', { class: 'param param-check' }, [sameSwitch, h('label', { for: 'rdma-switch', text: t.sameSwitch })]),
    ]),
    problem,
    drawn,
  );
  drawn.append(h('figure', { class: 'rdma-figure' }, [h('figcaption', { text: t.caption }), picture]), sentences, tableBox);

  const sayWrong = () => rangeProblem([
    { input: mb, range: LIMITS.mb, whole: false, say: (v) => t.range.mb(v) },
    { input: chunks, range: LIMITS.chunks, say: (v) => t.range.chunks(v) },
  ]);

  const turns = settingsRefresh(problem, drawn);
  async function run() {
    const turn = turns.begin(sayWrong());
    if (!turn) return;
    root.setAttribute('aria-busy', 'true');
    const request = {
      op: 'gpudirect', bytes: Number(mb.value) * 1e6, chunks: Number(chunks.value),
      link: net.value, host_link: host.value, same_pcie_switch: sameSwitch.checked,
    };
    const typed = mb.value;
    const out = await ask(request, 'rdma');
    if (turn.stale) return;
    root.removeAttribute('aria-busy');
    if (!out || out.error) {
      turns.say(out?.error ? t.refused(out.error.message) : t.failed);
      return;
    }
    Object.assign(root.dataset, {
      mb: typed, link: request.link, hostLink: request.host_link, samePcieSwitch: String(request.same_pcie_switch),
      bytes: String(out.bytes), chunks: String(out.chunks), fastest: out.fastest, ncclPath: out.nccl_path,
      stagedOverGpudirect: String(out.staged_over_gpudirect), pipelinedOverGpudirect: String(out.pipelined_over_gpudirect),
    });
    draw(out);
  }

  const linkName = (id) => links.find((l) => l.id === id)?.label ?? id;

  function draw(out) {
    // One linear axis for every path: the slowest path's end.
    const longest = Math.max(...out.paths.map((p) => p.time_s));
    const pct = (x) => `${(longest > 0 ? (x / longest) * 100 : 0).toFixed(3)}%`;
    const rows = out.paths.map((p) => h('div', {
      class: `rdma-path${p.id === out.nccl_path ? ' rdma-nccl' : ''}`,
      dataset: { path: p.id, timeS: String(p.time_s), hostCopies: String(p.host_copies), hostMemoryBytes: String(p.host_memory_bytes), pacedBy: p.paced_by },
    }, [
      h('div', { class: 'rdma-path-head' }, [
        h('strong', { text: t.paths[p.id] }),
        h('span', { class: 'rdma-time', text: formatTime(p.time_s) }),
        p.id === out.nccl_path ? h('span', { class: 'rdma-badge', text: t.ncclBadge }) : null,
      ]),
      h('p', { class: 'rdma-hops', text: hops(p) }),
      ...p.stages.map((s) => {
        const bar = h('span', { class: `rdma-bar rdma-${s.stage}` });
        bar.style.left = pct(s.start_s);
        bar.style.width = pct(s.end_s - s.start_s);
        return h('div', { class: 'rdma-lane', dataset: { stage: s.stage, link: s.link, startS: String(s.start_s), endS: String(s.end_s), busyS: String(s.busy_s) } }, [
          h('span', { class: 'rdma-stage', text: `${t.stages[s.stage]} (${linkName(s.link)})` }),
          h('span', { class: 'rdma-track' }, bar),
        ]);
      }),
    ]));
    picture.replaceChildren(...rows, h('div', { class: 'rdma-axis', 'aria-hidden': 'true' }, [h('span', { text: '0' }), h('span', { text: formatTime(longest) })]));
    sentences.replaceChildren(...said(out).map((s) => h('li', { dataset: { says: s.key } }, s.text)));
    tableBox.replaceChildren(dataTable(out));
  }

  // The route a path's bytes take, from its stages: GPU, then each stage's destination.
  function hops(p) {
    const where = { gpu_to_host: t.hostMemory, network: p.id === 'gpudirect' ? t.remoteGpu : t.remoteHost, host_to_gpu: t.remoteGpu };
    return [t.gpu, ...p.stages.map((s) => `${where[s.stage]} (${linkName(s.link)})`)].join(' → ');
  }

  // The sentences, each chosen by the engine's figures.
  function said(out) {
    const [staged, piped, direct] = ['host_staged', 'host_pipelined', 'gpudirect'].map((id) => out.paths.find((p) => p.id === id));
    const list = [];
    list.push({ key: 'direct', text: t.direct({ direct: formatTime(direct.time_s), staged: formatTime(staged.time_s), ratio: times(out.staged_over_gpudirect), bytes: formatBytes(out.bytes) }) });
    // The pipeline: near GPUDirect, or slower than not chunking at all (each chunk pays its α).
    const pipeCase = out.pipelined_case; // the engine's: single_chunk, overlaps or worse
    list.push({ key: `pipelined-${pipeCase}`, text: t.pipelined[pipeCase]({
      chunks: out.chunks.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US'), time: formatTime(piped.time_s), ratio: times(out.pipelined_over_gpudirect),
      pacedBy: t.stages[piped.paced_by] ?? piped.paced_by, memory: formatBytes(piped.host_memory_bytes), staged: formatTime(staged.time_s),
    }) });
    list.push({ key: `nccl-${out.nccl_path}`, text: t.nccl[out.nccl_path === 'gpudirect' ? 'direct' : 'host']({ path: t.paths[out.nccl_path] }) });
    return list;
  }

  function dataTable(out) {
    const details = h('details', { class: 'chart-table' }, [h('summary', { text: t.table })]);
    const cols = [t.colPath, t.colStage, t.colLink, t.colStart, t.colEnd, t.colBusy, t.colTime, t.colCopies, t.colMemory];
    details.append(h('table', {}, [
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })))),
      // A path's name and its own figures span the rows of its stages.
      h('tbody', {}, out.paths.flatMap((p) => p.stages.map((s, i) => {
        const span = String(p.stages.length);
        const whole = (v) => h('td', { rowspan: span, text: v });
        return h('tr', { dataset: { path: p.id, stage: s.stage } }, [
          i === 0 ? h('th', { scope: 'rowgroup', rowspan: span, text: t.paths[p.id] }) : null,
          ...[t.stages[s.stage], linkName(s.link), formatTime(s.start_s), formatTime(s.end_s), formatTime(s.busy_s)].map((v) => h('td', { text: v })),
          ...(i === 0 ? [whole(formatTime(p.time_s)), whole(String(p.host_copies)), whole(formatBytes(p.host_memory_bytes))] : []),
        ]);
      }))),
    ]));
    return details;
  }

  for (const c of [mb, chunks]) c.addEventListener('input', run);
  for (const c of [net, host, sameSwitch]) c.addEventListener('change', run);
  const ready = run();
  return { root, ready };
}
