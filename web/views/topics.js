// Topics (`?view=topics`): the lecture's sections in its order (§0-§11 with their subsections),
// each a `[data-section="2.2"]` holding its heading and links to the views and exercises that
// draw it (web/README.md "Topics"). A section without a view says so, with no link. The headings
// are the lecture's own (P5, Chinese with English titles; the subsections' English is ours).
// Every link opens a page whose view carries `data-lecture` with that section.

import { h } from '../util/dom.js';
import { pick, topicStrings } from '../util/i18n.js';
import { DEFAULTS, settingsQuery } from './explore.js';

import { EXERCISE_LECTURE, topicHref } from './section_names.js';

// An Explore address with these settings over the defaults (the address code's own writer).
const explore = (settings, hash = '') => `${settingsQuery({ ...DEFAULTS, ...settings })}${hash}`;

// The lecture's sections: id, heading in both languages, and what draws it today. A link is
// {href, label} (label: a key of topicStrings(lang).links) or {exercise: N} (titled by the
// engine's exercise list).
export const SECTIONS = [
  { id: '0', zh: '本讲导航', en: 'How to read this lecture' },
  { id: '0.1', zh: '学习目标', en: 'Learning goals' },
  { id: '0.2', zh: '先修与本讲范围', en: 'Prerequisites & scope' },
  { id: '0.3', zh: '本讲地图', en: 'Map' },
  { id: '0.4', zh: '记号', en: 'Notation' },
  { id: '0.5', zh: '关于数字', en: 'About the numbers', links: [{ href: '?view=measured', label: 'measured' }] },
  { id: '1', zh: '为什么要多卡', en: 'Why multiple GPUs', links: [{ href: '?view=memory', label: 'memory' }] },
  { id: '2', zh: '互连', en: 'Interconnects' },
  { id: '2.1', zh: '一张层次图', en: 'The hierarchy in one picture', links: [{ href: '?view=ladder', label: 'ladder' }] },
  { id: '2.2', zh: '节点内：NVLink 与 NVSwitch', en: 'Inside a node: NVLink and NVSwitch', links: [{ href: '?view=node', label: 'node' }] },
  { id: '2.3', zh: '节点之间：网卡、InfiniBand 与 RoCE', en: 'Between nodes: NICs, InfiniBand and RoCE', links: [{ href: '?view=ladder#ladder-node', label: 'ladderNode' }, { href: '?view=node#node-between', label: 'nodeBetween' }] },
  { id: '2.4', zh: 'RDMA 与 GPUDirect', en: 'RDMA and GPUDirect', links: [{ href: '?view=rdma', label: 'rdma' }] },
  { id: '2.5', zh: '推理里的具体传输', en: 'Transfers in inference', links: [{ href: '?view=decode#decode-summary', label: 'decodeTransfers' }] },
  { id: '3', zh: 'α–β 模型', en: 'The α–β model', links: [{ exercise: 1 }] },
  { id: '4', zh: '集合通信', en: 'Collective communication' },
  { id: '4.1', zh: '六种操作', en: 'The six operations', links: [
    { href: explore({ collective: 'broadcast', algorithm: 'binomial_tree' }), label: 'broadcast' },
    { href: explore({ collective: 'reduce', algorithm: 'binomial_tree' }), label: 'reduce' },
    { href: explore({ collective: 'reduce_scatter', algorithm: 'ring' }), label: 'reduceScatter' },
    { href: explore({ collective: 'allgather', algorithm: 'ring' }), label: 'allgather' },
  ] },
  { id: '4.2', zh: '每个设备至少要传多少', en: 'The least each device must send', links: [{ href: '?view=bound', label: 'bound' }] },
  { id: '4.3', zh: 'all-to-all 与 MoE', en: 'All-to-all and MoE', links: [{ href: explore({ collective: 'alltoall', algorithm: 'pairwise' }), label: 'alltoall' }, { href: '?view=moe#moe-skew', label: 'moeSkew' }] },
  { id: '5', zh: 'all-reduce 的算法', en: 'All-reduce algorithms' },
  { id: '5.1', zh: 'ring：带宽最优，步数线性', en: 'Ring: bandwidth-optimal, linear in steps', links: [
    { href: explore({ algorithm: 'ring' }), label: 'exploreRing' }, { exercise: 2 },
  ] },
  { id: '5.2', zh: '递归加倍与 Rabenseifner：步数对数', en: 'Recursive doubling and Rabenseifner: logarithmic in steps', links: [
    { href: explore({ algorithm: 'recursive_doubling' }), label: 'recursiveDoubling' },
    { href: explore({ algorithm: 'rabenseifner' }), label: 'rabenseifner' },
    { href: explore({ algorithm: 'binary_tree', bytes: 1e3 }), label: 'tree' },
    { href: explore({ algorithm: 'double_binary_tree' }), label: 'doubleTree' },
  ] },
  { id: '5.3', zh: '消息大小决定算法', en: 'Message size decides the algorithm', links: [
    { href: explore({ algorithm: 'recursive_doubling', devices: 64, link: 'ib_ndr' }), label: 'crossover64' }, { exercise: 3 },
  ] },
  { id: '5.4', zh: '交换机内归约', en: 'In-switch reduction', links: [{ href: explore({ algorithm: 'in_switch' }), label: 'inSwitch' }, { href: '?view=nccl#nccl-nvls', label: 'nvls' }] },
  { id: '5.5', zh: '分层 all-reduce', en: 'Hierarchical all-reduce', links: [
    { href: explore({ algorithm: 'hierarchical', topology: 'two_level', devices: 32, gpus_per_node: 8, link: 'ib_ndr', intra_link: 'nvlink4' }), label: 'hierarchical' },
    { exercise: 4 },
  ] },
  { id: '5.6', zh: 'NCCL', en: 'NCCL', links: [{ href: '?view=nccl', label: 'nccl' }, { href: explore({ algorithm: 'ring' }), label: 'ncclExplore' }] },
  { id: '5.7', zh: '推理里的小消息', en: 'Small messages in inference', links: [{ href: '?view=decode', label: 'decode' }] },
  { id: '6', zh: '并行方式的通信模式', en: 'Communication patterns of parallelism' },
  { id: '6.1', zh: '数据并行（副本）', en: 'Data parallelism (replicas)', links: [{ href: '?view=memory#memory-replicas', label: 'memoryReplicas' }, { href: '?view=compare#compare-row-dp', label: 'compareDp' }] },
  { id: '6.2', zh: '张量并行与序列并行', en: 'Tensor and sequence parallelism', links: [{ href: '?view=split', label: 'split' }, { href: '?view=split#split-place', label: 'splitPlace' }] },
  { id: '6.3', zh: '流水线并行', en: 'Pipeline parallelism', links: [{ exercise: 6 }] },
  { id: '6.4', zh: '专家并行', en: 'Expert parallelism', links: [{ href: '?view=moe', label: 'moe' }] },
  { id: '6.5', zh: '上下文并行与 ring attention', en: 'Context parallelism and ring attention', links: [{ href: '?view=ring', label: 'ring' }, { exercise: 7 }] },
  { id: '6.6', zh: '一张对照表', en: 'A comparison table', links: [{ href: '?view=compare', label: 'compare' }] },
  { id: '7', zh: '计算与通信的重叠', en: 'Overlapping computation and communication' },
  { id: '7.1', zh: '切块流水', en: 'Chunked pipelining', links: [{ href: explore({}, '#ov-title'), label: 'chunked' }] },
  { id: '7.2', zh: '张量并行的 prefill', en: 'Tensor-parallel prefill', links: [{ exercise: 5 }] },
  { id: '7.3', zh: '逐层传输 KV', en: 'Layer-by-layer KV transfer', links: [{ exercise: 8 }] },
  { id: '7.4', zh: '两批交错', en: 'Two-batch overlap', links: [{ href: explore({}, '#ov-title'), label: 'twoBatch' }] },
  { id: '8', zh: '与推理系统的联系', en: 'Connections to inference systems' },
  { id: '9', zh: '小结', en: 'Summary' },
  { id: '10', zh: '常见误区', en: 'Common pitfalls' },
  { id: '11', zh: '练习', en: 'Exercises', links: [{ allExercises: true }, { href: '?view=author', label: 'author' }] },
];

const parentOf = (id) => (id.includes('.') ? id.split('.')[0] : null);

/**
 * The Topics view. `exercises`: the engine's exercise list ({id, title}); §11 lists every one,
 * a section its built-in exercise. Returns {root}.
 */
export function createTopics(lang, exercises) {
  const t = topicStrings(lang);
  const titled = new Map(exercises.map((ex) => [Number(ex.id), ex]));
  const exerciseLink = (id) => {
    const ex = titled.get(id);
    return ex ? h('a', { href: `?exercise=${id}`, dataset: { exercise: String(id) }, text: t.exerciseLink(id, pick(ex.title, lang)) }) : null;
  };
  const linksOf = (s) => (s.links ?? []).flatMap((l) => {
    if (l.allExercises) return exercises.map((ex) => exerciseLink(Number(ex.id)));
    if (l.exercise) return [exerciseLink(l.exercise)];
    return [h('a', { href: l.href, text: t.links[l.label] })];
  }).filter(Boolean);
  const root = h('section', { class: 'topics card', dataset: { view: 'topics' }, 'aria-labelledby': 'topics-title' });
  root.append(h('h2', { id: 'topics-title', text: t.title }), h('p', { class: 'note', text: t.intro }));
  const boxes = new Map();
  for (const s of SECTIONS) {
    const sub = parentOf(s.id) !== null;
    const heading = h(sub ? 'h4' : 'h3', { id: `s-${s.id}-title`, text: `§${s.id} ${lang === 'zh' ? s.zh : s.en}` });
    const box = h('section', { class: sub ? 'topic topic-sub' : 'topic', id: `s-${s.id}`, dataset: { section: s.id }, 'aria-labelledby': `s-${s.id}-title` }, [heading]);
    const links = linksOf(s);
    if (links.length) box.append(h('ul', { class: 'topic-links' }, links.map((a) => h('li', {}, a))));
    else if (!SECTIONS.some((o) => parentOf(o.id) === s.id)) box.append(h('p', { class: 'topic-none', text: t.none }));
    boxes.set(s.id, box);
    (sub ? boxes.get(parentOf(s.id)) : root).append(box);
  }
  return { root };
}
