// The section views' own words in English and Chinese (?view=ladder ... ?view=ring), apart from
// util/i18n.js so that a page loads them only with a view that needs them (they were half of
// i18n.js, 84 KB raw, on every page).

import { pick, wordsIn } from './i18n.js';

// The bandwidth ladder (`?view=ladder`, views/ladder.js, P5 §2.1 and §2.3).
const LADDER_STRINGS = {
  en: {
    title: 'The bandwidth ladder (§2.1)',
    intro: 'Every link of the lecture on its level of the hierarchy, from HBM inside a GPU to an NVMe SSD: its effective bandwidth per GPU and direction (nominal × efficiency) and its assumed α, both on log scales. Each sentence below is the engine’s comparison of the two numbers.',
    efficiency: 'Efficiency (effective ÷ nominal)',
    efficiencyRange: (v) => `Efficiency: ${v === '' ? 'nothing typed' : `${v} is outside the allowed range`}; allowed 0.01 to 1. Nothing is drawn meanwhile.`,
    caption: 'Bandwidth (left) and α (right) of each link, grouped by level, log scales.',
    pictureLabel: 'The links’ bandwidth and α on log scales; the same figures are in the table below.',
    betaAxis: 'effective bandwidth (log)', alphaAxis: 'α (log)',
    levels: { gpu: 'Inside a GPU', nvlink_domain: 'In an NVLink domain', node: 'In a node (PCIe)', network: 'Between nodes', storage: 'Storage' },
    claimsTitle: 'What the lecture says, as the engine finds it',
    faster: (a, b, r, x, y) => `${a} is ${r}× faster than ${b}: ${x} against ${y}.`,
    same: (a, b, x) => `${a} and ${b} are equally fast: ${x} each.`,
    compareA: 'Compare', compareB: 'with',
    nodeTitle: 'Inside a node against outside it (§2.3)',
    node: 'Node',
    nodeNote: (n) => `${n.label}: ${n.gpus} GPUs × ${n.intra} give ${n.inside} per direction inside the node (${n.insideEff} effective); ${n.nics} NICs × ${n.nic} give ${n.outside} (${n.outsideEff}) to the outside: `
      + (n.equal ? 'the same inside and out.' : n.faster === 'inside' ? `inside is ${n.ratio}× outside.` : `outside is ${n.ratio}× inside.`),
    table: 'The links as a table',
    colLink: 'Link', colLevel: 'Level', colNominal: 'Nominal', colEffective: 'Effective', colAlpha: 'α', colHalf: 'n½',
    failed: 'The engine could not answer for these settings: change a setting.',
  },
  zh: {
    title: '带宽阶梯（§2.1）',
    intro: '讲义里的每种链路按互连层次排列，从 GPU 内部的 HBM 到 NVMe SSD：每块 GPU 每方向的有效带宽（标称 × 效率）和假设的 α，都用对数刻度。下面每句话都是引擎对两个数的比较。',
    efficiency: '效率（有效 ÷ 标称）',
    efficiencyRange: (v) => `效率：${v === '' ? '没有输入' : `${v} 超出允许范围`}；允许 0.01 到 1。在此之前不绘图。`,
    caption: '各链路的带宽（左）和 α（右），按层次分组，对数刻度。',
    pictureLabel: '各链路的带宽和 α（对数刻度）；同样的数字见下方表格。',
    betaAxis: '有效带宽（对数）', alphaAxis: 'α（对数）',
    levels: { gpu: 'GPU 内部', nvlink_domain: 'NVLink 域内', node: '节点内（PCIe）', network: '节点之间', storage: '存储' },
    claimsTitle: '讲义的说法，由引擎算出',
    faster: (a, b, r, x, y) => `${a} 比 ${b} 快 ${r} 倍：${x} 对 ${y}。`,
    same: (a, b, x) => `${a} 和 ${b} 一样快：各 ${x}。`,
    compareA: '比较', compareB: '和',
    nodeTitle: '节点内与节点外（§2.3）',
    node: '节点',
    nodeNote: (n) => `${n.label}：${n.gpus} 块 GPU × ${n.intra}，节点内每方向合计 ${n.inside}（有效 ${n.insideEff}）；${n.nics} 张网卡 × ${n.nic}，对外合计 ${n.outside}（有效 ${n.outsideEff}）：`
      + (n.equal ? '内外一样。' : n.faster === 'inside' ? `节点内是节点外的 ${n.ratio} 倍。` : `节点外是节点内的 ${n.ratio} 倍。`),
    table: '链路数据表',
    colLink: '链路', colLevel: '层次', colNominal: '标称', colEffective: '有效', colAlpha: 'α', colHalf: 'n½',
    failed: '引擎无法按这些设置作答：请修改设置。',
  },
};

/** The bandwidth ladder's words in `lang`. */
export function ladderStrings(lang) {
  return wordsIn(LADDER_STRINGS, lang);
}

// NCCL (`?view=nccl`, views/nccl.js, P5 §5.6): the ring's protocols, NVLS, the tuner's choice.
const NCCL_STRINGS = {
  en: {
    title: 'NCCL: protocols, NVLS and the tuner’s choice (§5.6)',
    intro: 'One algorithm, three ways of handing data to the next GPU. LL and LL128 put a flag into the data itself, so the receiver knows at once that it has arrived (low latency) but part of every store is flag (less bandwidth); Simple writes plain data and signals with a flag after a memory fence (full bandwidth, more latency a hop). Which is cheapest depends on the message size, as for the algorithms of §5.3.',
    devices: 'GPUs', bytes: 'Message size (bytes)', link: 'Link',
    devicesRange: (v) => `GPUs: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 2 to 1,024. Nothing is drawn meanwhile.`,
    bytesRange: (v) => `Message size: ${v === '' ? 'nothing typed' : `${v} B is outside the allowed range`}; allowed 1 B to 1 GB. Nothing is drawn meanwhile.`,
    badSetting: (p) => `The address’s ${p.setting}=${p.value} cannot be used (${{ devices: 'a whole number from 2 to 1,024', bytes: '1 B to 1 GB', link: 'a link of the catalogue' }[p.setting]}); the lecture’s value is shown.`,
    chartTitle: 'Ring all-reduce: time against message size for each protocol',
    chartCaption: 'The engine’s NCCL model of the ring alone, log-log; the shaded bands and the lines are the exact sizes where the cheapest protocol changes (the engine’s crossover op).',
    protocolsTitle: 'What each protocol is',
    flagged: (p) => `each ${p.unit} unit it writes carries ${p.payload} of data and a ${p.flag} flag, so ${p.share} of the link’s ${p.beta} carries payload (${p.bw}); the receiver reads the flag with the data, so a hop costs ${p.hop} (${p.base} a call).`,
    fenced: (p) => `plain data at ${p.share} of the link’s ${p.beta} (${p.bw}); the receiver learns that it arrived from a flag written after a memory fence, once a chunk, so a hop costs ${p.hop} (${p.base} a call).`,
    protocolTable: 'The protocols as a table',
    colProtocol: 'Protocol', colUnit: 'Unit', colPayload: 'Data', colFlag: 'Flag', colShare: 'Payload share', colBandwidth: 'Bandwidth', colHop: 'Latency a hop', colBase: 'Latency a call',
    fence: 'fence + flag a chunk',
    nvlsTitle: 'NVLS: reduction in the switch (§5.4)',
    nvlsNote: 'NVLS (NVLink SHARP) is NCCL’s in-switch reduction: each GPU sends its data to the NVSwitch once and receives the sum once. Below, the engine’s in-switch all-reduce beside the ring, the point marked at the size picked above.',
    choiceTitle: 'NCCL’s choice at this size',
    choiceNote: (size, k, pair, time, ringProtocol, ringTime) => `At ${size} on ${k} GPUs NCCL’s tuner picks ${pair}: ${time}. Among the ring’s protocols alone the cheapest is ${ringProtocol}: ${ringTime}.`,
    choiceCaption: 'Every (algorithm, protocol) pair the tuner weighs, as the engine models it',
    colPair: 'Algorithm · protocol', colTime: 'Time', colLatency: 'Latency',
    failed: 'The engine could not answer for these settings: change a setting.',
  },
  zh: {
    title: 'NCCL：协议、NVLS 与调优器的选择（§5.6）',
    intro: '同一个算法，把数据交给下一块 GPU 有三种方式。LL 和 LL128 把标志位放进数据本身，接收方一读就知道数据到了（延迟低），但每次写入都有一部分是标志（带宽打折）；Simple 写普通数据，在内存屏障之后再用一个标志通知（带宽满，每一跳延迟更高）。哪种最便宜取决于消息大小，和 §5.3 选算法是同一个道理。',
    devices: 'GPU 数', bytes: '消息大小（字节）', link: '链路',
    devicesRange: (v) => `GPU 数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 2 到 1,024 的整数。在此之前不绘图。`,
    bytesRange: (v) => `消息大小：${v === '' ? '没有输入' : `${v} B 超出允许范围`}；允许 1 B 到 1 GB。在此之前不绘图。`,
    badSetting: (p) => `地址中的 ${p.setting}=${p.value} 无法使用（${{ devices: '2 到 1,024 的整数', bytes: '1 B 到 1 GB', link: '链路目录中的链路' }[p.setting]}）；显示的是讲义的值。`,
    chartTitle: 'ring all-reduce：各协议的时间与消息大小',
    chartCaption: '引擎的 NCCL 模型（只看 ring），双对数坐标；色带和竖线是最便宜的协议发生变化的精确大小（crossover 操作）。',
    protocolsTitle: '每种协议是什么',
    flagged: (p) => `每个 ${p.unit} 的写入单元里有 ${p.payload} 数据和 ${p.flag} 标志，所以链路 ${p.beta} 中只有 ${p.share} 用来传数据（${p.bw}）；接收方连同数据一起读到标志，所以每一跳 ${p.hop}（每次调用 ${p.base}）。`,
    fenced: (p) => `写普通数据，用到链路 ${p.beta} 的 ${p.share}（${p.bw}）；接收方靠内存屏障之后写入的标志得知数据已到，每块一次，所以每一跳 ${p.hop}（每次调用 ${p.base}）。`,
    protocolTable: '协议数据表',
    colProtocol: '协议', colUnit: '单元', colPayload: '数据', colFlag: '标志', colShare: '数据占比', colBandwidth: '带宽', colHop: '每跳延迟', colBase: '每次调用延迟',
    fence: '屏障 + 每块一个标志',
    nvlsTitle: 'NVLS：在交换机里归约（§5.4）',
    nvlsNote: 'NVLS（NVLink SHARP）是 NCCL 的交换机内归约：每块 GPU 把数据发给 NVSwitch 一次、再收一次结果。下图是引擎算出的交换机内 all-reduce 与 ring 的对比，标出的点是上面所选大小下的交换机内归约。',
    choiceTitle: '这个大小下 NCCL 的选择',
    choiceNote: (size, k, pair, time, ringProtocol, ringTime) => `${size}、${k} 块 GPU 时，NCCL 调优器选择 ${pair}：${time}。只看 ring 的三种协议，最便宜的是 ${ringProtocol}：${ringTime}。`,
    choiceCaption: '调优器权衡的每个（算法，协议）组合，按引擎的模型',
    colPair: '算法 · 协议', colTime: '时间', colLatency: '延迟',
    failed: '引擎无法按这些设置作答：请修改设置。',
  },
};

/** The NCCL view's words in `lang`. */
export function ncclStrings(lang) {
  return wordsIn(NCCL_STRINGS, lang);
}

// Experts (`?view=moe`, views/moe.js, P5 §6.4 and §4.3): MoE dispatch and combine all-to-alls.
const MOE_STRINGS = {
  en: {
    title: 'Experts: MoE dispatch and combine all-to-alls (§6.4, §4.3)',
    intro: 'Expert parallelism puts an MoE layer’s experts on different GPUs. Every token is sent to the GPUs of its top-k experts (dispatch) and the results come back (combine): two all-to-alls a layer. A hot expert makes its GPU receive more, and every GPU waits for it. Decode sends few tokens, so the α of talking to every other GPU dominates; prefill sends many.',
    model: 'Model', ep: 'GPUs (expert parallel)', tokens: 'Tokens a step', hot: 'Hot expert: times as likely as each other',
    modelOption: (label, experts, k) => `${label} (${experts} experts, top-${k})`,
    phasesLabel: 'Decode or prefill',
    phase: { decode: (n) => `Decode: ${n} tokens`, prefill: (n) => `Prefill: ${n.toLocaleString('en')} tokens` },
    tokensRange: (v) => `Tokens a step: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 100,000,000. Nothing is drawn meanwhile.`,
    hotRange: (v) => `Hot expert: ${v === '' ? 'nothing typed' : `${v} is outside the allowed range`}; allowed 0.1 to 1,000 (1: no hot expert). Nothing is drawn meanwhile.`,
    failed: 'The engine could not answer for these settings; nothing is drawn.',
    routing: {
      hot: (w) => `The hot expert’s GPU receives ${w.skew}× the mean (${w.busiest} against ${w.mean} a layer), and every GPU waits for it;`,
      even: (w) => `Routing is even: each of the ${w.ep} GPUs receives ${w.mean} a layer;`,
      cold: (w) => `The cold expert’s GPU receives ${w.skew}× the mean (${w.expertGpu} against ${w.mean} a layer); each other GPU receives ${w.busiest}, and every GPU waits for them;`,
      local: () => 'One GPU holds every expert: nothing crosses to another GPU',
    },
    bound: {
      latency: (w) => `latency-bound: α is ${w.share} of the all-to-all (${w.time}).`,
      bandwidth: (w) => `bandwidth-bound: the bytes are ${w.bytesShare} of the all-to-all (${w.time}).`,
      none: () => '(no all-to-all).',
    },
    recvCaption: 'Dispatch bytes each GPU receives in one MoE layer (the busiest in orange)',
    recvLabel: (w) => `Bars of the bytes each of ${w.ep} GPUs receives a layer; the busiest receives ${w.busiest}, the mean is ${w.mean}.`,
    gpuBar: (i, b) => `GPU ${i}: ${b}`,
    splitCaption: 'One all-to-all: α, the rounds (orange), against the bytes over the link (blue)',
    splitLabel: (w) => `α is ${w.share} of one all-to-all, the bytes ${w.bytesShare}.`,
    splitNote: (w) => `One all-to-all takes ${w.time}: α ${w.alpha} (${w.share}), bytes ${w.bytes}. A step has ${w.count} of them (dispatch and combine in every MoE layer): ${w.step}.`,
    factTokens: (n) => `Tokens on each GPU: ${n}.`,
    factDispatch: (d, c, r) => `Each GPU sends ${d} a layer in dispatch and ${c} in combine; ${r} of a token’s experts sit on other GPUs.`,
    factStep: (b) => `Bytes each GPU sends a step (all MoE layers, both all-to-alls): ${b}.`,
    factHot: (p, k) => `Chance a token picks the hot expert among its top-${k}: ${p}.`,
    table: 'Data table',
    tableCaption: 'Dispatch bytes each GPU receives in one MoE layer',
    colGpu: 'GPU', colRecv: 'Receives a layer', colVsMean: 'Against the mean',
    gpu: (i) => `GPU ${i}`,
    gpuBusiest: (i) => `GPU ${i} (busiest)`,
  },
  zh: {
    title: '专家并行：MoE 的 dispatch 与 combine all-to-all（§6.4、§4.3）',
    intro: '专家并行把 MoE 层的专家分到不同的卡上。每个 token 被发到它的 top-k 专家所在的卡（dispatch），算完再发回来（combine）：每层两次 all-to-all。热门专家所在的卡要收的数据更多，所有卡都要等它。decode 时 token 少，和其他每块卡各交换一次的 α 占主导；prefill 时 token 多。',
    model: '模型', ep: 'GPU 数（专家并行）', tokens: '每步 token 数', hot: '热门专家：被选概率是其他专家的几倍',
    modelOption: (label, experts, k) => `${label}（${experts} 个专家，top-${k}）`,
    phasesLabel: 'decode 或 prefill',
    phase: { decode: (n) => `decode：${n} 个 token`, prefill: (n) => `prefill：${n.toLocaleString('en')} 个 token` },
    tokensRange: (v) => `每步 token 数：${v === '' ? '未填写' : `${v} 不允许`}；允许 1 到 100,000,000 的整数。在此期间不绘制。`,
    hotRange: (v) => `热门专家：${v === '' ? '未填写' : `${v} 超出允许范围`}；允许 0.1 到 1,000（1 表示没有热门专家）。在此期间不绘制。`,
    failed: '引擎无法回答这些设置；不绘制。',
    routing: {
      hot: (w) => `热门专家所在的卡收到平均的 ${w.skew} 倍（每层 ${w.busiest} 对 ${w.mean}），所有卡都要等它；`,
      even: (w) => `路由均匀：${w.ep} 块卡每层各收 ${w.mean}；`,
      cold: (w) => `冷门专家所在的卡收到平均的 ${w.skew} 倍（每层 ${w.expertGpu} 对 ${w.mean}）；其余每张卡收到 ${w.busiest}，所有卡都要等它们；`,
      local: () => '一块卡放下全部专家：没有数据发往其他卡',
    },
    bound: {
      latency: (w) => `受延迟限制：α 占 all-to-all（${w.time}）的 ${w.share}。`,
      bandwidth: (w) => `受带宽限制：字节占 all-to-all（${w.time}）的 ${w.bytesShare}。`,
      none: () => '（没有 all-to-all）。',
    },
    recvCaption: '一个 MoE 层里每块卡收到的 dispatch 字节（最忙的为橙色）',
    recvLabel: (w) => `${w.ep} 块卡每层收到的字节柱状图；最忙的收 ${w.busiest}，平均 ${w.mean}。`,
    gpuBar: (i, b) => `GPU ${i}：${b}`,
    splitCaption: '一次 all-to-all：α 即轮数（橙色）对链路上的字节（蓝色）',
    splitLabel: (w) => `α 占一次 all-to-all 的 ${w.share}，字节占 ${w.bytesShare}。`,
    splitNote: (w) => `一次 all-to-all 用时 ${w.time}：α ${w.alpha}（${w.share}），字节 ${w.bytes}。每步有 ${w.count} 次（每个 MoE 层的 dispatch 与 combine）：${w.step}。`,
    factTokens: (n) => `每块卡上的 token：${n}。`,
    factDispatch: (d, c, r) => `每块卡每层 dispatch 发送 ${d}，combine 发送 ${c}；一个 token 的专家有 ${r} 在其他卡上。`,
    factStep: (b) => `每块卡每步发送的字节（全部 MoE 层、两次 all-to-all）：${b}。`,
    factHot: (p, k) => `一个 token 的 top-${k} 里有热门专家的概率：${p}。`,
    table: '数据表',
    tableCaption: '一个 MoE 层里每块卡收到的 dispatch 字节',
    colGpu: 'GPU', colRecv: '每层收到', colVsMean: '与平均相比',
    gpu: (i) => `GPU ${i}`,
    gpuBusiest: (i) => `GPU ${i}（最忙）`,
  },
};

export function moeStrings(lang) {
  return wordsIn(MOE_STRINGS, lang);
}

// Small messages in inference (`?view=decode`, views/decode.js, P5 §5.7, §2.5, §6.2).
const DECODE_STRINGS = {
  en: {
    title: 'Small messages in inference: a decode step’s all-reduces (§5.7)',
    intro: 'With tensor parallelism every layer ends in two all-reduces of the activations: B × hidden × 2 bytes, a few KB in decode. Each costs the algorithm’s steps × α however small it is, so in decode the step’s communication is nearly all latency, set against the time to read the weights from HBM. Below, every all-reduce algorithm side by side, as the engine’s tp op computes it, then the kernels inference engines write for small messages: NCCL’s LL protocol, and vLLM’s custom all-reduce, which reads the other GPUs’ memory over NVLink in one or two steps. In prefill the messages are large and the β part takes over (§2.5, §6.2).',
    model: 'Model', gpu: 'GPU', tp: 'Tensor-parallel GPUs (tp)', link: 'Link', phase: 'Phase', tokens: 'Tokens (batch in decode, prompt in prefill)',
    phases: { decode: 'decode', prefill: 'prefill' },
    range: {
      tp: (v) => `Tensor-parallel GPUs: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 4,096. Nothing is drawn meanwhile.`,
      tokens: (v) => `Tokens: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 100,000,000. Nothing is drawn meanwhile.`,
    },
    weightRead: 'weight read', compute: 'compute', colon: ': ',
    summary: (s) => `${s.model} on ${s.tp} GPUs, ${s.phase}, ${s.tokens} token(s): ${s.allreduces} all-reduces a step, each ${s.bytes}; the ${s.against} takes ${s.againstTime}.`,
    caption: 'Per algorithm: the step’s communication (α part, then β part) above the time it is set against, on one linear axis.',
    pictureLabel: 'Each algorithm’s communication a step, split into α and β, beside the weight read or compute; the same figures are in the table below.',
    comm: 'communication', alphaLegend: 'α part (steps × α, every all-reduce)', betaLegend: 'β part (bytes ÷ β)',
    sentence: (x) => (x.bound === 'none' ? 'one GPU: no all-reduce, no communication.'
      : `communication is ${x.ratio >= 10 ? `${x.times}×` : x.ratioText} of the ${x.against}; α is ${x.share} of each all-reduce (${x.steps} ${x.steps === 1 ? 'step' : 'steps'}): ${x.bound === 'latency' ? 'latency-bound' : 'bandwidth-bound'}.`),
    table: 'The step as a table',
    colAlgorithm: 'Algorithm', colSteps: 'Steps', colAllreduce: 'One all-reduce', colAlpha: 'its α part', colBeta: 'its β part', colComm: 'Communication a step', colRatio: 'Communication ÷ compute side', colShare: 'α share',
    failed: 'The engine could not answer for these settings: change a setting.',
    kernelsTitle: 'Kernels written for small messages (§5.7): NCCL’s LL protocol and vLLM’s custom all-reduce',
    kernels: { 'ring/LL': 'NCCL ring, LL protocol', one_shot: 'vLLM custom, one shot', two_shot: 'vLLM custom, two shots' },
    notHere: (x) => `does not run here: ${x.limit === 'link' ? 'it reads the other GPUs’ memory directly, so every pair must be joined by NVLink, and this link is not' : x.limit === 'devices' ? `vLLM’s kernel takes 2, 4, 6 or 8 GPUs, not ${x.tp}` : `each all-reduce is ${x.bytes}, over vLLM’s limit of ${x.limitBytes}`}; NCCL runs instead.`,
    vllmPicks: (bytes, tp) => ` vLLM launches this one for ${bytes} on ${tp} GPUs.`,
    transfersTitle: 'Other transfers in inference (§2.5)', colTransfer: 'Transfer', colBytes: 'Bytes', colHow: 'Over', colTime: 'Time',
    kvOne: 'KV of a 4,096-token prompt to the decode machine', kvAll: (n) => `the same over the node’s ${n} NICs`, oneNic: 'one InfiniBand NDR NIC', allNics: (n) => `${n} NICs, 1/${n} each`,
    coldSsd: 'Cold start: the weights from one NVMe SSD', coldHost: (n) => `Cold start: the weights from CPU memory, 1/${n} a GPU`, ssd: 'one NVMe SSD', host: (n) => `${n} PCIe Gen5 links`,
    transfersSentence: (x) => `${x.model}: a 4,096-token prompt’s KV is ${x.kv}, ${x.one} over one NIC and ${x.all} over ${x.nics}, ${x.hidden ? 'less than' : 'more than'} the ${x.prefill} its prefill takes; a cold start reads ${x.weights} of weights in ${x.ssd} from one NVMe SSD, ${x.host} from CPU memory over ${x.gpus} PCIe links.`,
  },
  zh: {
    title: '推理里的小消息：一个 decode 步的 all-reduce（§5.7）',
    intro: '张量并行时每层末尾有两次激活值的 all-reduce：B × hidden × 2 字节，decode 时只有几 KB。无论消息多小，每次都要付出算法的步数 × α，所以 decode 时一步的通信几乎全是延迟，与从 HBM 读权重的时间相比。下面把每种 all-reduce 算法并排列出，数字来自引擎的 tp 操作；然后是推理引擎为小消息写的内核：NCCL 的 LL 协议，以及 vLLM 的 custom all-reduce，经 NVLink 直接读其他卡的显存，一两步完成。prefill 时消息很大，β 部分占主导（§2.5、§6.2）。',
    model: '模型', gpu: 'GPU', tp: '张量并行 GPU 数（tp）', link: '链路', phase: '阶段', tokens: 'token 数（decode 为批大小，prefill 为提示长度）',
    phases: { decode: 'decode', prefill: 'prefill' },
    range: {
      tp: (v) => `张量并行 GPU 数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 4,096 的整数。在此之前不绘图。`,
      tokens: (v) => `token 数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 100,000,000 的整数。在此之前不绘图。`,
    },
    weightRead: '读权重', compute: '计算', colon: '：',
    summary: (s) => `${s.model}，${s.tp} 块 GPU，${s.phase}，${s.tokens} 个 token：每步 ${s.allreduces} 次 all-reduce，每次 ${s.bytes}；${s.against}需要 ${s.againstTime}。`,
    caption: '每种算法：一步的通信（先 α 部分，后 β 部分），下方是与之相比的时间，同一线性坐标。',
    pictureLabel: '每种算法一步的通信，分成 α 和 β，旁边是读权重或计算的时间；同样的数字见下方表格。',
    comm: '通信', alphaLegend: 'α 部分（步数 × α，所有 all-reduce）', betaLegend: 'β 部分（字节 ÷ β）',
    sentence: (x) => (x.bound === 'none' ? '单块 GPU：没有 all-reduce，没有通信。'
      : `通信是${x.against}的 ${x.ratio >= 10 ? `${x.times} 倍` : x.ratioText}；α 占每次 all-reduce 的 ${x.share}（${x.steps} 步）：${x.bound === 'latency' ? '受延迟限制' : '受带宽限制'}。`),
    table: '一步的数据表',
    colAlgorithm: '算法', colSteps: '步数', colAllreduce: '一次 all-reduce', colAlpha: '其中 α', colBeta: '其中 β', colComm: '每步通信', colRatio: '通信 ÷ 对比时间', colShare: 'α 占比',
    failed: '引擎无法按这些设置作答：请修改设置。',
    kernelsTitle: '为小消息写的内核（§5.7）：NCCL 的 LL 协议与 vLLM 的 custom all-reduce',
    kernels: { 'ring/LL': 'NCCL ring，LL 协议', one_shot: 'vLLM custom，一步（one-shot）', two_shot: 'vLLM custom，两步（two-shot）' },
    notHere: (x) => `这里不能用：${x.limit === 'link' ? '它直接读写其他卡的显存，每两块卡之间都要有 NVLink，这条链路不是' : x.limit === 'devices' ? `vLLM 的内核只支持 2、4、6、8 块卡，不支持 ${x.tp} 块` : `每次 all-reduce 有 ${x.bytes}，超过 vLLM 的上限 ${x.limitBytes}`}；改用 NCCL。`,
    vllmPicks: (bytes, tp) => `vLLM 在 ${tp} 块卡、${bytes} 时用的就是这个。`,
    transfersTitle: '推理里的其他传输（§2.5）', colTransfer: '传输', colBytes: '字节', colHow: '经过', colTime: '时间',
    kvOne: '4,096 token 提示的 KV 搬到 decode 机器', kvAll: (n) => `同上，经节点的 ${n} 张网卡`, oneNic: '一张 InfiniBand NDR 网卡', allNics: (n) => `${n} 张网卡，各 1/${n}`,
    coldSsd: '冷启动：从一块 NVMe SSD 读权重', coldHost: (n) => `冷启动：权重已在 CPU 内存，每块卡 1/${n}`, ssd: '一块 NVMe SSD', host: (n) => `${n} 条 PCIe Gen5`,
    transfersSentence: (x) => `${x.model}：4,096 token 提示的 KV 有 ${x.kv}，经一张网卡 ${x.one}，经 ${x.nics} 张 ${x.all}，${x.hidden ? '少于' : '多于'}它的 prefill 所需的 ${x.prefill}；冷启动要读 ${x.weights} 的权重，从一块 NVMe SSD 要 ${x.ssd}，从 CPU 内存经 ${x.gpus} 条 PCIe 要 ${x.host}。`,
  },
};

/** The decode view's words in `lang`. */
export function decodeStrings(lang) {
  return wordsIn(DECODE_STRINGS, lang);
}

// §2.4 RDMA view (views/rdma.js): one message between nodes through host memory or by GPUDirect.
const RDMA_STRINGS = {
  en: {
    title: 'RDMA and GPUDirect: a message from a GPU to a GPU in another node (§2.4)',
    intro: 'Without GPUDirect the bytes go through host memory: GPU → CPU memory over PCIe, across the network, CPU memory → GPU over PCIe. One stage after another the times add up; in chunks the three stages overlap and the slowest link sets the pace, but both hosts’ memory still moves every byte. With GPUDirect RDMA the NIC reads and writes GPU memory itself: only the network is left. The times below are the engine’s gpudirect op (code 01 demo 4 sends 1 GB).',
    mb: 'Message size (MB)', chunks: 'Chunks (pipelined path)', link: 'Network link (NIC)', hostLink: 'GPU ↔ host memory link',
    sameSwitch: 'GPU and NIC under one PCIe switch',
    range: {
      mb: (v) => `Message size: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a number of MB from 0.000001 (1 byte) to 1,000,000,000. Nothing is drawn meanwhile.`,
      chunks: (v) => `Chunks: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 1,048,576. Nothing is drawn meanwhile.`,
    },
    refused: (m) => `The engine refused these settings: ${m}`,
    failed: 'The engine could not answer for these settings: change a setting.',
    caption: 'Each path’s stages on one linear time axis, from the engine’s start and end times; the path NCCL takes is marked.',
    pictureLabel: 'The three paths of a message between nodes, each stage as a bar from its start to its end; the same figures are in the table below.',
    paths: { host_staged: 'Through host memory, one stage after another', host_pipelined: 'Through host memory, in pipelined chunks', gpudirect: 'GPUDirect RDMA' },
    stages: { gpu_to_host: 'GPU → host memory', network: 'network', host_to_gpu: 'host memory → GPU' },
    gpu: 'GPU', hostMemory: 'host memory', remoteHost: 'remote host memory', remoteGpu: 'remote GPU',
    ncclBadge: 'NCCL’s path',
    direct: (x) => `GPUDirect RDMA moves ${x.bytes} in ${x.direct}, the network alone; through host memory one stage after another it takes ${x.staged}, ${x.ratio} as long.`,
    pipelined: {
      overlaps: (x) => `In ${x.chunks} chunks through host memory it takes ${x.time} (${x.ratio} GPUDirect’s), paced by the ${x.pacedBy} stage; both hosts’ memory still moves ${x.memory} (each writes the message and reads it back).`,
      worse: (x) => `In ${x.chunks} chunks through host memory it takes ${x.time}, longer than not chunking at all (${x.staged}): every chunk pays each link’s α, and so many small chunks cost more than the overlap saves.`,
    },
    nccl: {
      direct: (x) => `NCCL takes ${x.path} here: the GPU and its NIC sit under one PCIe switch.`,
      host: () => 'NCCL copies through host memory here, in chunks: without a PCIe switch shared by GPU and NIC it does not use GPUDirect RDMA. This is why each GPU gets a NIC beside it.',
    },
    table: 'The paths as a table',
    colPath: 'Path', colStage: 'Stage', colLink: 'Link', colStart: 'Starts', colEnd: 'Ends', colBusy: 'Link busy', colTime: 'Path time', colCopies: 'Host copies', colMemory: 'Host memory traffic',
  },
  zh: {
    title: 'RDMA 与 GPUDirect：从一块 GPU 传到另一节点的 GPU（§2.4）',
    intro: '没有 GPUDirect 时数据要经主机内存中转：GPU 经 PCIe 到 CPU 内存，过网络，再从 CPU 内存经 PCIe 到 GPU。三段依次进行时时间相加；分块流水时三段重叠，最慢的链路决定节奏，但两端主机内存仍要搬运每一个字节。GPUDirect RDMA 让网卡直接读写显存：只剩网络这一段。下面的时间来自引擎的 gpudirect 操作（代码 01 演示 4 传 1 GB）。',
    mb: '消息大小（MB）', chunks: '分块数（流水路径）', link: '网络链路（网卡）', hostLink: 'GPU ↔ 主机内存链路',
    sameSwitch: 'GPU 与网卡在同一个 PCIe 交换机下',
    range: {
      mb: (v) => `消息大小：${v === '' ? '没有输入' : `${v} 不允许`}；允许 0.000001（1 字节）到 1,000,000,000 MB。在此之前不绘图。`,
      chunks: (v) => `分块数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 1,048,576 的整数。在此之前不绘图。`,
    },
    refused: (m) => `引擎拒绝了这些设置：${m}`,
    failed: '引擎无法按这些设置作答：请修改设置。',
    caption: '每条路径的各段画在同一条线性时间轴上，起止时间来自引擎；标出了 NCCL 走的路径。',
    pictureLabel: '跨节点消息的三条路径，每段是从开始到结束的一条横条；同样的数字见下方表格。',
    paths: { host_staged: '经主机内存中转，三段依次', host_pipelined: '经主机内存中转，分块流水', gpudirect: 'GPUDirect RDMA' },
    stages: { gpu_to_host: 'GPU → 主机内存', network: '网络', host_to_gpu: '主机内存 → GPU' },
    gpu: 'GPU', hostMemory: '主机内存', remoteHost: '远端主机内存', remoteGpu: '远端 GPU',
    ncclBadge: 'NCCL 的路径',
    direct: (x) => `GPUDirect RDMA 传 ${x.bytes} 用 ${x.direct}，只有网络本身；经主机内存三段依次要 ${x.staged}，是它的 ${x.ratio}。`,
    pipelined: {
      overlaps: (x) => `分成 ${x.chunks} 块经主机内存流水要 ${x.time}（GPUDirect 的 ${x.ratio}），节奏由“${x.pacedBy}”这一段决定；两端主机内存仍要搬运 ${x.memory}（各写入一遍、再读出一遍）。`,
      worse: (x) => `分成 ${x.chunks} 块经主机内存流水要 ${x.time}，比不分块（${x.staged}）还慢：每块都要付每条链路的 α，块太多太小时付出的比重叠省下的还多。`,
    },
    nccl: {
      direct: (x) => `这里 NCCL 走 ${x.path}：GPU 和它的网卡挂在同一个 PCIe 交换机下。`,
      host: () => '这里 NCCL 经主机内存分块中转：GPU 和网卡不在同一个 PCIe 交换机下时它不用 GPUDirect RDMA。这也是为什么每块 GPU 要配一张“就近”的网卡。',
    },
    table: '路径数据表',
    colPath: '路径', colStage: '段', colLink: '链路', colStart: '开始', colEnd: '结束', colBusy: '链路占用', colTime: '路径时间', colCopies: '主机内存副本', colMemory: '主机内存流量',
  },
};

/** The RDMA view's words in `lang`. */
export function rdmaStrings(lang) {
  return wordsIn(RDMA_STRINGS, lang);
}

// §6.2 split view (`?view=split`, views/split.js, P5 §6.2): tensor and sequence parallelism.
const SPLIT_STRINGS = {
  en: {
    title: 'Tensor and sequence parallelism: where to cut a layer (§6.2)',
    intro: 'Tensor parallelism cuts every layer’s matrices over k GPUs. Megatron-LM cuts the MLP’s gate and up by columns and down by rows, so SiLU and the product stay on each GPU and one all-reduce sums the outputs; attention is cut by heads, its output projection by rows: two all-reduces a layer. Cutting the first matrix by rows instead must all-reduce the whole T × ffn intermediate before SiLU. Below, the engine runs both on random matrices against one device.',
    checkTitle: 'The split checked against one device',
    shards: 'Shards (GPUs)', tokens: 'Tokens T (a multiple of the shards)',
    tokensRange: (v) => `Tokens: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 256. Nothing is drawn meanwhile.`,
    tokensMultiple: (tok, k) => `Tokens: ${tok} is not a multiple of the ${k} shards; sequence parallelism gives each shard T/${k} tokens. Nothing is drawn meanwhile.`,
    tooLarge: (tok, hidden, ffn) => `Tokens: ${tok} × hidden ${hidden} × ffn ${ffn} is too large for the quick check; fewer tokens or shards. Nothing is drawn meanwhile.`,
    failed: 'The engine could not answer for these settings; nothing is drawn.',
    checkSentence: (w) => (w.agree === 'agree'
      ? `Both splits equal one device to ${w.worst}; the wrong split sends ${w.ratio}× the bytes.`
      : `A split differs from one device by ${w.worst}; the wrong split sends ${w.ratio}× the bytes.`),
    pictureCaption: 'The MLP on k shards: which matrix is cut how, and where the all-reduce (orange) sits',
    bytesCaption: 'Bytes all-reduced for one MLP block (BF16)',
    megatron: 'Megatron split', wrong: 'Wrong split',
    byColumns: 'by columns', byRows: 'by rows', byRowsWrong: 'by rows', whole: 'whole on each shard',
    allreduce: (shape) => `all-reduce ${shape}`,
    allreduceTwice: (shape) => `2 all-reduces ${shape} (gate, up)`,
    x: 'X', y: 'Y', gateUp: 'gate, up', silu: 'SiLU ×', local: 'local', full: 'after the sum', down: 'down',
    attentionNote: (w) => `Attention: ${w.q} query and ${w.kv} KV heads cut by heads over ${w.k} shards, the output projection by rows, one all-reduce; it equals one device to ${w.err}.`,
    bytesLabel: (w) => `Bars: the Megatron split all-reduces ${w.right}, the wrong split ${w.wrong}, ${w.ratio}× as much.`,
    checkTable: 'The splits against one device',
    colSplit: 'Split', colCut: 'Cut', colBytes: 'All-reduced bytes', colError: 'Largest error against one device',
    sp: 'Sequence parallel', spCut: 'all-gather, the Megatron split, reduce-scatter; T/k tokens a shard outside',
    attention: 'Attention', attentionCut: 'Q, K, V by heads; output projection by rows',
    table: 'Data table',
    tpTitle: 'A model on tensor-parallel GPUs',
    model: 'Model', tp: 'Tensor-parallel GPUs (tp)', tpTokens: 'Tokens (batch of a decode step)', inside: 'Link inside the domain', across: 'Link to compare',
    tpRange: (v) => `Tensor-parallel GPUs: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 4,096. Nothing is drawn meanwhile.`,
    tpTokensRange: (v) => `Tokens: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 100,000,000. Nothing is drawn meanwhile.`,
    spTitle: 'Tensor against sequence parallelism',
    spSentence: (w) => `${w.model} on ${w.k} GPUs, ${w.tokens} token(s): both send ${w.sent} a GPU a step (an all-reduce is a reduce-scatter and an all-gather); the activations outside the MLP and attention take ${w.tpAct} on each GPU with tensor parallelism, ${w.spAct} with sequence parallelism.`,
    spCaption: 'Activation memory a GPU outside the MLP and attention (RMSNorm, residual)',
    spLabel: (w) => `Bars: tensor parallelism holds ${w.tpAct} of activations a GPU, sequence parallelism ${w.spAct}.`,
    tpAct: 'Tensor parallel: activations a GPU', spAct: 'Sequence parallel: activations a GPU',
    placeTitle: 'Where tensor parallelism belongs',
    placeCaption: 'A decode step’s all-reduces on each link, beside the weight read',
    placeSentence: {
      inside: (w) => `On ${w.across} the ${w.count} all-reduces take ${w.acrossText} the weight read (${w.acrossTime} against ${w.read}); on ${w.inside} ${w.insideText} (${w.insideTime}): tensor parallelism belongs inside the ${w.inside} domain.`,
      across: (w) => `On ${w.inside} the ${w.count} all-reduces take ${w.insideText} the weight read (${w.insideTime} against ${w.read}); on ${w.across} ${w.acrossText} (${w.acrossTime}): here ${w.across} is the faster place.`,
      both: (w) => `On both links the ${w.count} all-reduces take less than the weight read (${w.read}): ${w.insideText} on ${w.inside} (${w.insideTime}), ${w.acrossText} on ${w.across} (${w.acrossTime}).`,
      neither: (w) => `On both links the ${w.count} all-reduces take longer than the weight read (${w.read}): ${w.insideText} on ${w.inside} (${w.insideTime}), ${w.acrossText} on ${w.across} (${w.acrossTime}); fewer GPUs a model.`,
      none: (w) => `One GPU: no all-reduce; the weight read takes ${w.read}.`,
    },
    placeLabel: (w) => `Bars: the all-reduces take ${w.insideTime} on ${w.inside} and ${w.acrossTime} on ${w.across}; the weight read ${w.read}.`,
    commOn: (link) => `All-reduces on ${link}`, weightRead: 'Weight read',
    tpTable: (w) => `${w.model} on ${w.k} GPUs, ${w.tokens} token(s), one decode step`,
    colWhat: 'Figure', colInside: (l) => l, colAcross: (l) => l,
    rowAllreduces: 'All-reduces a step', rowSent: 'Bytes sent a GPU a step (tensor parallel)', rowSpSent: 'Bytes sent a GPU a step (sequence parallel)',
    rowComm: 'Communication a step', rowRatio: 'Communication against the weight read',
  },
  zh: {
    title: '张量并行与序列并行：一层该从哪里切（§6.2）',
    intro: '张量并行把每一层的矩阵切到 k 块卡上。Megatron-LM 把 MLP 的 gate 和 up 按列切、down 按行切，SiLU 和逐元素乘法留在每块卡上，一次 all-reduce 把输出加起来；注意力按头切，输出投影按行切：每层两次 all-reduce。如果第一个矩阵按行切，SiLU 之前就必须 all-reduce 出完整的 T × ffn 中间结果。下面由引擎在随机矩阵上把两种切法与单卡比较。',
    checkTitle: '切法与单卡结果的比较',
    shards: '分片数（GPU）', tokens: 'token 数 T（分片数的倍数）',
    tokensRange: (v) => `token 数：${v === '' ? '未填写' : `${v} 不允许`}；允许 1 到 256 的整数。在此期间不绘制。`,
    tokensMultiple: (tok, k) => `token 数：${tok} 不是分片数 ${k} 的倍数；序列并行让每个分片处理 T/${k} 个 token。在此期间不绘制。`,
    tooLarge: (tok, hidden, ffn) => `token 数：${tok} × hidden ${hidden} × ffn ${ffn} 对快速检查来说太大；请减少 token 或分片。在此期间不绘制。`,
    failed: '引擎无法回答这些设置；不绘制。',
    checkSentence: (w) => (w.agree === 'agree'
      ? `两种切法都与单卡一致，误差在 ${w.worst} 以内；错误的切法要传 ${w.ratio} 倍的字节。`
      : `有一种切法与单卡相差 ${w.worst}；错误的切法要传 ${w.ratio} 倍的字节。`),
    pictureCaption: 'k 个分片上的 MLP：哪个矩阵怎么切，all-reduce（橙色）在哪里',
    bytesCaption: '一个 MLP 块 all-reduce 的字节（BF16）',
    megatron: 'Megatron 切法', wrong: '错误的切法',
    byColumns: '按列切', byRows: '按行切', byRowsWrong: '按行切', whole: '每个分片一整份',
    allreduce: (shape) => `all-reduce ${shape}`,
    allreduceTwice: (shape) => `2 次 all-reduce ${shape}（gate、up）`,
    x: 'X', y: 'Y', gateUp: 'gate、up', silu: 'SiLU ×', local: '本地', full: '求和之后', down: 'down',
    attentionNote: (w) => `注意力：${w.q} 个查询头、${w.kv} 个 KV 头按头切到 ${w.k} 个分片，输出投影按行切，一次 all-reduce；与单卡的误差为 ${w.err}。`,
    bytesLabel: (w) => `柱状图：Megatron 切法 all-reduce ${w.right}，错误的切法 ${w.wrong}，是它的 ${w.ratio} 倍。`,
    checkTable: '各切法与单卡的比较',
    colSplit: '切法', colCut: '怎么切', colBytes: 'all-reduce 字节', colError: '与单卡的最大误差',
    sp: '序列并行', spCut: 'all-gather、Megatron 切法、reduce-scatter；其余部分每个分片 T/k 个 token',
    attention: '注意力', attentionCut: 'Q、K、V 按头切；输出投影按行切',
    table: '数据表',
    tpTitle: '一个模型放在张量并行的 GPU 上',
    model: '模型', tp: '张量并行 GPU 数（tp）', tpTokens: 'token 数（decode 一步的批大小）', inside: '域内链路', across: '对比的链路',
    tpRange: (v) => `张量并行 GPU 数：${v === '' ? '未填写' : `${v} 不允许`}；允许 1 到 4,096 的整数。在此期间不绘制。`,
    tpTokensRange: (v) => `token 数：${v === '' ? '未填写' : `${v} 不允许`}；允许 1 到 100,000,000 的整数。在此期间不绘制。`,
    spTitle: '张量并行对比序列并行',
    spSentence: (w) => `${w.model}，${w.k} 块 GPU，${w.tokens} 个 token：两者每块卡每步都发送 ${w.sent}（all-reduce 就是 reduce-scatter 加 all-gather）；MLP 和注意力之外的激活，张量并行时每块卡占 ${w.tpAct}，序列并行时 ${w.spAct}。`,
    spCaption: '每块卡在 MLP 和注意力之外的激活显存（RMSNorm、残差）',
    spLabel: (w) => `柱状图：张量并行每块卡存 ${w.tpAct} 激活，序列并行 ${w.spAct}。`,
    tpAct: '张量并行：每块卡的激活', spAct: '序列并行：每块卡的激活',
    placeTitle: '张量并行该放在哪里',
    placeCaption: '一个 decode 步的 all-reduce 在各链路上的时间，旁边是读权重',
    placeSentence: {
      inside: (w) => `走 ${w.across} 时 ${w.count} 次 all-reduce 是读权重的 ${w.acrossText}（${w.acrossTime} 对 ${w.read}）；走 ${w.inside} 是 ${w.insideText}（${w.insideTime}）：张量并行应放在 ${w.inside} 域内。`,
      across: (w) => `走 ${w.inside} 时 ${w.count} 次 all-reduce 是读权重的 ${w.insideText}（${w.insideTime} 对 ${w.read}）；走 ${w.across} 是 ${w.acrossText}（${w.acrossTime}）：这里 ${w.across} 更合适。`,
      both: (w) => `两条链路上 ${w.count} 次 all-reduce 都比读权重（${w.read}）快：${w.inside} 上是 ${w.insideText}（${w.insideTime}），${w.across} 上是 ${w.acrossText}（${w.acrossTime}）。`,
      neither: (w) => `两条链路上 ${w.count} 次 all-reduce 都比读权重（${w.read}）慢：${w.inside} 上是 ${w.insideText}（${w.insideTime}），${w.across} 上是 ${w.acrossText}（${w.acrossTime}）；请减少每个模型的 GPU 数。`,
      none: (w) => `单块 GPU：没有 all-reduce；读权重需要 ${w.read}。`,
    },
    placeLabel: (w) => `柱状图：all-reduce 在 ${w.inside} 上需要 ${w.insideTime}，在 ${w.across} 上需要 ${w.acrossTime}；读权重 ${w.read}。`,
    commOn: (link) => `${link} 上的 all-reduce`, weightRead: '读权重',
    tpTable: (w) => `${w.model}，${w.k} 块 GPU，${w.tokens} 个 token，一个 decode 步`,
    colWhat: '数字', colInside: (l) => l, colAcross: (l) => l,
    rowAllreduces: '每步 all-reduce 次数', rowSent: '每块卡每步发送（张量并行）', rowSpSent: '每块卡每步发送（序列并行）',
    rowComm: '每步通信', rowRatio: '通信与读权重之比',
  },
};

/** The §6.2 split view's words in `lang`. */
export function splitStrings(lang) {
  return wordsIn(SPLIT_STRINGS, lang);
}

// §4.2 bound view (views/bound.js): the least each device must send in an all-reduce.
const BOUND_STRINGS = {
  en: {
    title: 'The least each device must send: an all-reduce’s lower bound (§4.2)',
    intro: 'An all-reduce’s result depends on every device’s data, so each device must send at least 2(k − 1)/k × D bytes: (k − 1)/k × D for the reduce-scatter and as much for the all-gather. Below, every algorithm is run by the engine’s step engine on these settings (on real buffers where they fit, the result checked on every device) and its bytes a device are set against that bound. The algorithms differ only in how they send: the steps (how many α) and the bytes (the D/β term).',
    devices: 'Devices (k)', mb: 'Data a device (MB)', link: 'Link',
    range: {
      devices: (v) => `Devices: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 2 to 256. Nothing is drawn meanwhile.`,
      mb: (v) => `Data a device: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a number of MB from 0.000001 (1 byte) to 1,000,000. Nothing is drawn meanwhile.`,
    },
    refused: (m) => `The engine refused these settings: ${m}`,
    failed: 'The engine could not answer for these settings: change a setting.',
    caption: 'Bytes each device sends, per algorithm, on one linear axis; the line is the lower bound.',
    pictureLabel: 'Each all-reduce algorithm’s bytes a device against the lower bound; the same figures are in the table below.',
    steps: (n) => `${n} step${n === 1 ? '' : 's'}`,
    legendMeets: 'meets the bound', legendAbove: 'above it', legendBelow: 'below it (the switch sums)', legendBound: (b) => `lower bound ${b}`,
    and: ', ',
    verifiedAll: (n) => `All ${n} algorithms end with the same result: the engine ran each on real buffers and every device holds the elementwise sum of all inputs.`,
    verifiedSome: (x) => `Run on real buffers and checked: ${x.verified || 'none'}; too large for that here, counted only (bytes, steps and time): ${x.counted}.`,
    meets: (x) => `Bandwidth-optimal: ${x.names} send exactly the lower bound, ${x.bound} a device.`,
    above: (x) => `Above the bound: ${x.name} sends ${x.sent} a device against ${x.bound}, in ${x.steps} steps: fewer αs or a simpler pattern, paid for in bytes.`,
    below: (x) => `Below the bound: ${x.name} sends only ${x.sent} a device, below the ${x.bound} any device-to-device algorithm must send: the switch does the sum (§5.4).`,
    table: 'The algorithms as a table',
    colAlgorithm: 'Algorithm', colSent: 'Bytes a device', colLower: 'Lower bound', colSteps: 'Steps', colTime: 'Time', colRun: 'Run',
    runVerified: 'on buffers, verified', runCounted: 'counted',
    growthTitle: 'The bound as devices are added',
    colDevices: 'Devices', colBound: 'Lower bound a device',
    growthSentence: (x) => `With ${x.bytes} a device the bound is ${x.first} on ${x.firstK} devices and ${x.last} on ${x.lastK}: it approaches 2 × D and hardly grows, so adding devices does not make each send more.`,
  },
  zh: {
    title: '每个设备至少要传多少：all-reduce 的下界（§4.2）',
    intro: 'all-reduce 的结果依赖所有设备的数据，所以每个设备至少要发送 2(k − 1)/k × D 字节：reduce-scatter 和 all-gather 各 (k − 1)/k × D。下面每种算法都由引擎的步进引擎按这些设置运行（放得下时在真实缓冲区上运行，并检查每个设备的结果），每个设备发送的字节与下界对比。算法的差别只在”怎么传”：步数（付几次 α）和字节（D/β 那一项）。',
    devices: '设备数（k）', mb: '每个设备的数据（MB）', link: '链路',
    range: {
      devices: (v) => `设备数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 2 到 256 的整数。在此之前不绘图。`,
      mb: (v) => `每个设备的数据：${v === '' ? '没有输入' : `${v} 不允许`}；允许 0.000001（1 字节）到 1,000,000 MB。在此之前不绘图。`,
    },
    refused: (m) => `引擎拒绝了这些设置：${m}`,
    failed: '引擎无法按这些设置作答：请修改设置。',
    caption: '每种算法每个设备发送的字节，同一线性坐标；竖线是下界。',
    pictureLabel: '每种 all-reduce 算法每个设备发送的字节与下界对比；同样的数字见下方表格。',
    steps: (n) => `${n} 步`,
    legendMeets: '恰好达到下界', legendAbove: '高于下界', legendBelow: '低于下界（交换机做加法）', legendBound: (b) => `下界 ${b}`,
    and: '、',
    verifiedAll: (n) => `${n} 种算法的结果完全一样：引擎在真实缓冲区上运行了每一种，每个设备都得到所有输入的逐元素和。`,
    verifiedSome: (x) => `在真实缓冲区上运行并检查：${x.verified || '无'}；这里太大，只计数（字节、步数和时间）：${x.counted}。`,
    meets: (x) => `${x.names} 每个设备恰好发送下界 ${x.bound}：带宽最优。`,
    above: (x) => `${x.name} 每个设备发送 ${x.sent}，高于下界 ${x.bound}，共 ${x.steps} 步：用字节换来更少的 α 或更简单的模式。`,
    below: (x) => `${x.name} 每个设备只发送 ${x.sent}，低于任何设备间算法都必须发送的 ${x.bound}：加法由交换机完成（§5.4）。`,
    table: '算法数据表',
    colAlgorithm: '算法', colSent: '每个设备的字节', colLower: '下界', colSteps: '步数', colTime: '时间', colRun: '运行方式',
    runVerified: '缓冲区上运行并验证', runCounted: '只计数',
    growthTitle: '加设备时的下界',
    colDevices: '设备数', colBound: '每个设备的下界',
    growthSentence: (x) => `每个设备 ${x.bytes} 时，下界在 ${x.firstK} 个设备上是 ${x.first}，在 ${x.lastK} 个设备上是 ${x.last}：趋近 2 × D，几乎不增长，加卡不会让每块卡多传。`,
  },
};

/** The §4.2 bound view's words in `lang`. */
export function boundStrings(lang) {
  return wordsIn(BOUND_STRINGS, lang);
}

// §1 memory view (`?view=memory`, views/memory.js, P5 §1 and §6.1).
const MEMORY_NAMES = {
  en: { gpus: 'GPUs (one replica)', context: 'Context tokens', batch: 'Batch (sequences)', replicas: 'Replicas' },
  zh: { gpus: 'GPU 数（一个副本）', context: '上下文 token 数', batch: 'batch（序列数）', replicas: '副本数' },
};
const MEMORY_ALLOWED = {
  en: { gpus: '1 to 4,096', context: '0 to 100,000,000', batch: '1 to 1,000,000', replicas: '1 to 100,000' },
  zh: { gpus: '1 到 4,096', context: '0 到 100,000,000', batch: '1 到 1,000,000', replicas: '1 到 100,000' },
};
const memoryGpus = (n) => (n === 1 ? '1 GPU' : `${n} GPUs`);
const MEMORY_STRINGS = {
  en: {
    sep: ' ', // between two sentences
    title: 'Why several GPUs: memory, decode speed and replicas (§1, §6.1)',
    intro: 'One GPU has a fixed memory and bandwidth. A model’s weights and its KV cache must fit the memory; split over n GPUs, each holds and reads 1/n of the weights. Batch-1 decode reads every weight once a step, so its time is at least bytes ÷ bandwidth. More replicas serve more requests, with no traffic between them, but each holds all the weights.',
    model: 'Model', gpu: 'GPU', ...MEMORY_NAMES.en,
    modelOption: (label, bytes, b) => `${label} (${bytes}, ${b === 1 ? 'FP8' : b === 2 ? 'BF16' : `${b} B a parameter`})`,
    gpuOption: (label, hbm, bw) => `${label} (${hbm}, ${bw})`,
    range: (key, v) => `${MEMORY_NAMES.en[key]}: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from ${MEMORY_ALLOWED.en[key]}. Nothing is drawn meanwhile.`,
    failed: 'The engine could not answer for these settings; nothing is drawn.',
    fits: {
      fits: (w) => `Fits: ${w.n === 1 ? `one ${w.gpu} holds` : `each of the ${w.n} ${w.gpu} holds`} ${w.weightsGpu} of weights and ${w.kvGpu} of KV cache, ${w.used} of its ${w.hbm} (${w.share}).`,
      kv: (w) => `Does not fit: the weights fit (${w.weightsGpu} ${w.n === 1 ? `on one ${w.gpu}` : `on each of the ${w.n} ${w.gpu}`}), but with ${w.kvGpu} of KV cache ${w.n === 1 ? 'it needs' : 'each needs'} ${w.used} of its ${w.hbm}. It takes ${w.minKv} GPUs, or at most ${w.maxContext} tokens of context at batch ${w.batch}.`,
      weights: (w) => `Does not fit: ${w.model}’s weights are ${w.weightsGpu} ${w.n === 1 ? `on one ${w.gpu}` : `on each of the ${w.n} ${w.gpu}`}, more than its ${w.hbm}. The weights alone need ${w.min} GPUs.`,
    },
    barsCaption: 'Memory of each GPU: weights (blue) and KV cache (orange) against the GPU’s memory (the line)',
    barsLabel: (w) => `${w.n === 1 ? 'The GPU' : `Each of ${w.n} GPUs`} uses ${w.used} (weights ${w.weightsGpu}, KV ${w.kvGpu}) of ${w.hbm}.`,
    line: (hbm) => `${hbm} memory`,
    gpuBar: (i, w) => `GPU ${i}: weights ${w.weightsGpu}, KV ${w.kvGpu}, of ${w.hbm}`,
    legend: 'Blue: weights; orange: KV cache; a red outline: more than the memory.',
    drawnOf: (shown, n) => `${shown} of the ${n} GPUs drawn: each holds the same.`,
    factMin: (w) => `GPUs the weights need: ${w.min} (with this KV cache: ${w.minKv}).`,
    factRoom: (w) => `Left for KV on each GPU after the weights: ${w.room}.`,
    factShort: (w) => `The weights alone are ${w.room} more than each GPU’s memory: no room for KV.`,
    factContext: (w) => `Longest context that fits at batch ${w.batch}: ${w.maxContext} tokens.`,
    decodeCaption: 'Batch-1 decode, lower bound a step: the weights read once, on one GPU and on n',
    rowOne: (bw) => `1 GPU, nominal ${bw}`,
    rowOneEff: (eff) => `1 GPU, effective (${eff} of nominal)`,
    rowN: (n, bw) => `${memoryGpus(n)}, nominal ${bw}`,
    rowNEff: (n, eff) => `${memoryGpus(n)}, effective (${eff} of nominal)`,
    valueOver: (time) => `${time} (does not fit)`,
    decodeNoteOne: (w) => `One GPU reads all ${w.weightsGpu}: ${w.decode} at the nominal ${w.nominal}, ${w.decodeEff} at the effective ${w.eff} (the figure §5.7 uses).`,
    decodeNote: (w) => `On ${w.n} GPUs each reads ${w.weightsGpu}: ${w.decode} at the nominal ${w.nominal}, ${w.decodeEff} at the effective ${w.eff} (the figure §5.7 uses); ${w.speedup}× faster than one GPU.`,
    oneDoesNotFit: (w) => `One GPU’s ${w.one} is a bound only: the model does not fit on one.`,
    moeNote: (w) => `${w.model} is a mixture of experts: a batch-1 step reads only its chosen experts, so these times, which read every weight, are above its bound.`,
    replicasTitle: 'Replicas: data parallelism (§6.1)',
    replicasSentence: {
      one: (w) => `One replica of ${memoryGpus(w.n)}: at most ${w.tps} tokens a second at batch 1 (${w.tpsEff} at the effective bandwidth). More replicas multiply it.`,
      many: (w) => `${w.replicas} replicas × ${memoryGpus(w.n)} = ${w.total} GPUs: at most ${w.tps} tokens a second in all at batch 1 (${w.tpsEff} at the effective bandwidth), ${w.replicas}× one replica’s.`,
    },
    replicasOver: () => 'As set, a replica does not fit its GPUs.',
    factThroughput: (w) => `Total GPUs: ${w.total}.`,
    factTraffic: (w) => `No traffic between replicas: ${w.traffic} at inference (each serves its own requests).`,
    factEachHolds: (w) => `Each replica holds all ${w.weights} of the weights.`,
    table: 'Data table',
    tableCaption: 'The engine’s memory answer for these settings',
    colQuantity: 'Quantity', colValue: 'Value',
    colWeights: 'Weights', colWeightsGpu: 'Weights on each GPU', colKv: 'KV cache (context × batch × bytes a token)',
    colKvGpu: 'KV cache on each GPU', colUsed: 'Used on each GPU', colHbm: 'Memory of each GPU', colFits: 'Fits',
    colRoom: 'Left for KV on each GPU (negative: the weights do not fit)', colMin: 'GPUs the weights need',
    colMinKv: 'GPUs weights and KV need', colContext: 'Longest context that fits (tokens)', colTotal: 'Total GPUs (all replicas)',
    colTps: (bw) => `Tokens a second, all replicas, batch 1 (${bw})`, colTraffic: 'Traffic between replicas',
    yes: 'yes', no: 'no',
  },
  zh: {
    sep: '',
    title: '为什么要多卡：显存、decode 速度与副本（§1、§6.1）',
    intro: '一块 GPU 的显存和带宽是固定的。模型的权重和 KV cache 必须放进显存；切到 n 块卡上，每块卡放、读 1/n 的权重。batch 1 的 decode 每步要把权重读一遍，所以时间至少是字节 ÷ 带宽。多放几个副本能服务更多请求，副本之间不通信，但每个副本都要放下全部权重。',
    model: '模型', gpu: 'GPU', ...MEMORY_NAMES.zh,
    modelOption: (label, bytes, b) => `${label}（${bytes}，${b === 1 ? 'FP8' : b === 2 ? 'BF16' : `每个参数 ${b} B`}）`,
    gpuOption: (label, hbm, bw) => `${label}（${hbm}，${bw}）`,
    range: (key, v) => `${MEMORY_NAMES.zh[key]}：${v === '' ? '未填写' : `${v} 不允许`}；允许 ${MEMORY_ALLOWED.zh[key]} 的整数。在此期间不绘制。`,
    failed: '引擎无法回答这些设置；不绘制。',
    fits: {
      fits: (w) => `放得下：${w.n} 块 ${w.gpu} 每块放 ${w.weightsGpu} 权重和 ${w.kvGpu} KV cache，共 ${w.used}，占显存 ${w.hbm} 的 ${w.share}。`,
      kv: (w) => `放不下：权重放得下（${w.n} 块 ${w.gpu} 每块 ${w.weightsGpu}），但加上 ${w.kvGpu} KV cache 每块要 ${w.used}，超过显存 ${w.hbm}。需要 ${w.minKv} 块卡，或者 batch ${w.batch} 时上下文最多 ${w.maxContext} 个 token。`,
      weights: (w) => `放不下：${w.model} 的权重在 ${w.n} 块 ${w.gpu} 上每块 ${w.weightsGpu}，超过显存 ${w.hbm}。仅权重就需要 ${w.min} 块卡。`,
    },
    barsCaption: '每块卡的显存：权重（蓝）和 KV cache（橙），对照卡的显存（横线）',
    barsLabel: (w) => `${w.n} 块卡每块用 ${w.used}（权重 ${w.weightsGpu}，KV ${w.kvGpu}），显存 ${w.hbm}。`,
    line: (hbm) => `显存 ${hbm}`,
    gpuBar: (i, w) => `GPU ${i}：权重 ${w.weightsGpu}，KV ${w.kvGpu}，显存 ${w.hbm}`,
    legend: '蓝：权重；橙：KV cache；红框：超过显存。',
    drawnOf: (shown, n) => `画出 ${n} 块卡中的 ${shown} 块：每块放的一样多。`,
    factMin: (w) => `权重需要的卡数：${w.min}（加上这些 KV cache：${w.minKv}）。`,
    factRoom: (w) => `放下权重后每块卡留给 KV 的显存：${w.room}。`,
    factShort: (w) => `仅权重就比每块卡的显存多 ${w.room}：没有 KV 的空间。`,
    factContext: (w) => `batch ${w.batch} 时放得下的最长上下文：${w.maxContext} 个 token。`,
    decodeCaption: 'batch 1 的 decode 每步下界：把权重读一遍，单卡对 n 卡',
    rowOne: (bw) => `1 块卡，标称 ${bw}`,
    rowOneEff: (eff) => `1 块卡，有效（标称的 ${eff}）`,
    rowN: (n, bw) => `${n} 块卡，标称 ${bw}`,
    rowNEff: (n, eff) => `${n} 块卡，有效（标称的 ${eff}）`,
    valueOver: (time) => `${time}（放不下）`,
    decodeNoteOne: (w) => `一块卡读全部 ${w.weightsGpu}：按标称 ${w.nominal} 为 ${w.decode}，按有效带宽（标称的 ${w.eff}，§5.7 用的值）为 ${w.decodeEff}。`,
    decodeNote: (w) => `${w.n} 块卡每块读 ${w.weightsGpu}：按标称 ${w.nominal} 为 ${w.decode}，按有效带宽（标称的 ${w.eff}，§5.7 用的值）为 ${w.decodeEff}；比单卡快 ${w.speedup} 倍。`,
    oneDoesNotFit: (w) => `单卡的 ${w.one} 只是下界：模型在一块卡上放不下。`,
    moeNote: (w) => `${w.model} 是混合专家模型：batch 1 的一步只读被选中的专家，这里按读全部权重算的时间高于它的下界。`,
    replicasTitle: '副本：数据并行（§6.1）',
    replicasSentence: {
      one: (w) => `一个 ${w.n} 卡的副本：batch 1 时每秒最多 ${w.tps} 个 token（按有效带宽 ${w.tpsEff}）。多放几个副本，吞吐就翻几倍。`,
      many: (w) => `${w.replicas} 个副本 × ${w.n} 块卡 = ${w.total} 块卡：batch 1 时合计每秒最多 ${w.tps} 个 token（按有效带宽 ${w.tpsEff}），是一个副本的 ${w.replicas} 倍。`,
    },
    replicasOver: () => '按当前设置，一个副本放不进它的卡。',
    factThroughput: (w) => `卡的总数：${w.total}。`,
    factTraffic: (w) => `副本之间不通信：推理时为 ${w.traffic}（各自服务自己的请求）。`,
    factEachHolds: (w) => `每个副本都放下全部 ${w.weights} 权重。`,
    table: '数据表',
    tableCaption: '引擎对这些设置的 memory 回答',
    colQuantity: '量', colValue: '值',
    colWeights: '权重', colWeightsGpu: '每块卡的权重', colKv: 'KV cache（上下文 × batch × 每 token 字节）',
    colKvGpu: '每块卡的 KV cache', colUsed: '每块卡已用', colHbm: '每块卡的显存', colFits: '放得下',
    colRoom: '每块卡留给 KV 的显存（负数：权重放不下）', colMin: '权重需要的卡数',
    colMinKv: '权重和 KV 需要的卡数', colContext: '放得下的最长上下文（token）', colTotal: '卡的总数（全部副本）',
    colTps: (bw) => `每秒 token 数，全部副本，batch 1（${bw}）`, colTraffic: '副本之间的通信量',
    yes: '是', no: '否',
  },
};

/** The memory view's words in `lang` (§1 memory view). */
export function memoryStrings(lang) {
  return wordsIn(MEMORY_STRINGS, lang);
}

// §6.6 compare view (`?view=compare`, views/compare.js, P5 §6.6): the comparison table of parallelisms.
const COMPARE_STRINGS = {
  en: {
    title: 'The parallelisms side by side: traffic, pattern, and where each belongs (§6.6)',
    intro: 'Each way of splitting a model over GPUs moves different bytes in a different pattern. For the model and node chosen below, the engine gives each one’s traffic in one step on the node’s NVLink and on its NIC, beside the compute it runs with. Real deployments combine them (TP8 inside a node, PP2 across nodes): heavy traffic goes on the fast links, light traffic may cross the slow ones (§6.6).',
    model: 'Model', node: 'Node', phase: 'Phase', tokens: 'Tokens (a decode batch, or a prompt)',
    tp: 'Tensor parallel degree (TP, also SP)', pp: 'Pipeline stages (PP)', ep: 'Expert parallel degree (EP)', cp: 'Context parallel degree (CP, ring)',
    phases: { decode: 'decode', prefill: 'prefill' },
    range: (k, v, lo, hi) => `${{ tokens: 'Tokens', tp: 'TP degree', pp: 'Pipeline stages', ep: 'EP degree', cp: 'CP degree' }[k]}: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from ${lo.toLocaleString('en-US')} to ${hi.toLocaleString('en-US')}. Nothing is drawn meanwhile.`,
    failed: 'The engine did not answer; nothing is drawn.',
    refused: (m) => `The engine refused these settings: ${m}`,
    summary: (x) => `${x.model} on ${x.node} (${x.gpus} GPUs joined by ${x.nvlink}; ${x.nic} between nodes), ${x.phase} of ${x.tokens} tokens. One step, per GPU:`,
    tableCaption: 'Each parallelism’s communication in one step',
    caption: 'Time a step on each link (log axis)', pictureLabel: 'Bars: each parallelism’s communication time a step on NVLink and on the NIC, on a log axis',
    logAxis: 'log axis', nothingMoves: 'No parallelism here sends anything: every degree is 1.',
    colRow: 'Parallelism', colPattern: 'Pattern', colBytes: 'Bytes per GPU a step', colMessages: 'Messages a step',
    colTime: (l) => `Time on ${l}`, colCompute: 'Compute a step', colShare: (l) => `Share of the compute (${l}, the engine’s)`, colBelongs: 'Belongs on',
    rows: { dp: 'Data parallel (replicas)', tp: 'Tensor parallel', sp: 'Sequence parallel', pp: 'Pipeline parallel', ep: 'Expert parallel', cp: 'Context parallel (ring attention)' },
    patterns: { dp: 'none', tp: 'all-reduce', sp: 'reduce-scatter + all-gather', pp: 'point-to-point send/recv', ep: 'all-to-all', cp: 'ring send/recv' },
    noTraffic: { anywhere: 'no traffic at inference', none: 'nothing (degree 1)', noExperts: 'no experts' },
    messages: (r) => (r.messages === 0 ? '—' : {
      tp: () => `${r.messages} all-reduces`, sp: () => `${r.messages} reduce-scatters + ${r.messages} all-gathers`,
      pp: () => `${r.messages} (one a stage boundary)`, ep: () => `${r.messages} all-to-alls`, cp: () => `${r.messages} (a layer’s ring steps × layers)`,
    }[r.id]()),
    belongs: { anywhere: 'anywhere', none: 'anywhere (no traffic)', noExperts: '— (no experts)', nvlink: 'inside the NVLink domain', cross: 'may cross nodes' },
    rule: (share) => `The rule of “belongs on”: traffic that sits on a step’s critical path (tensor, sequence, pipeline and expert parallel) stays inside the NVLink domain when its time on the NIC is more than ${share} of the compute of the step, and may cross nodes otherwise (§6.2: TP on InfiniBand is slower than reading the weights; §6.3: a pipeline’s few activations fear no crossing). Ring attention overlaps its KV with the attention (§6.5): it may cross nodes when the NIC’s transfer hides behind a ring step’s compute (the engine’s hidden). Every figure and the placement are the engine’s parallelisms op; its compute is the tp op’s (the whole model for the pipeline, a 1/EP share for the experts).`,
    most: (x) => `${x.row} moves the most: ${x.bytes} per GPU a step, ${x.nvlink} on NVLink and ${x.nic} on the NIC.`,
    inside: (rows, gpus) => `Must stay inside the node’s NVLink domain (${gpus} GPUs): ${rows.join(', ')}.`,
    cross: (rows) => `May cross nodes over the NIC: ${rows.join(', ')}.`,
    tpWider: (tp, gpus) => `TP${tp} is wider than the node’s ${gpus} GPUs: its all-reduces would have to cross the NIC.`,
    combine: (tp, pp) => `So combine them as the lecture does: TP${tp} inside a node, PP${pp} across nodes.`,
  },
  zh: {
    title: '并行方式对照：通信量、模式和该放在哪里（§6.6）',
    intro: '把模型切到多块卡上的每种方式，传的字节和通信模式都不一样。对下面选的模型和节点，引擎给出每种方式一步在节点的 NVLink 上和网卡上的通信，和它旁边的计算对比。真实部署常常组合使用（节点内 TP8、节点间 PP2）：通信多的放在快链路上，通信少的才能跨慢链路（§6.6）。',
    model: '模型', node: '节点', phase: '阶段', tokens: 'token 数（decode 的批，或一段提示）',
    tp: '张量并行度（TP，也是 SP）', pp: '流水线段数（PP）', ep: '专家并行度（EP）', cp: '上下文并行度（CP，环）',
    phases: { decode: 'decode', prefill: 'prefill' },
    range: (k, v, lo, hi) => `${{ tokens: 'token 数', tp: 'TP 并行度', pp: '流水线段数', ep: 'EP 并行度', cp: 'CP 并行度' }[k]}：${v === '' ? '没有填写' : `${v} 不允许`}；允许 ${lo.toLocaleString('zh-CN')} 到 ${hi.toLocaleString('zh-CN')} 的整数。在此之前不画图。`,
    failed: '引擎没有回答，不画图。',
    refused: (m) => `引擎拒绝了这些设置：${m}`,
    summary: (x) => `${x.model} 在 ${x.node} 上（${x.gpus} 块卡由 ${x.nvlink} 相连；节点之间走 ${x.nic}），${x.phase} ${x.tokens} 个 token。一步、每块卡：`,
    tableCaption: '每种并行方式一步的通信',
    caption: '每条链路上一步的通信时间（对数轴）', pictureLabel: '条形图：每种并行方式一步在 NVLink 和网卡上的通信时间，对数轴',
    logAxis: '对数轴', nothingMoves: '这里没有哪种并行方式要传数据：并行度都是 1。',
    colRow: '并行方式', colPattern: '通信模式', colBytes: '每块卡一步的字节', colMessages: '一步的消息数',
    colTime: (l) => `${l} 上的时间`, colCompute: '一步的计算', colShare: (l) => `占计算的比例（${l}，引擎给出）`, colBelongs: '该放在',
    rows: { dp: '数据并行（副本）', tp: '张量并行', sp: '序列并行', pp: '流水线并行', ep: '专家并行', cp: '上下文并行（ring attention）' },
    patterns: { dp: '无', tp: 'all-reduce', sp: 'reduce-scatter + all-gather', pp: '点对点 send/recv', ep: 'all-to-all', cp: '环上 send/recv' },
    noTraffic: { anywhere: '推理时不通信', none: '无（并行度 1）', noExperts: '没有专家' },
    messages: (r) => (r.messages === 0 ? '—' : {
      tp: () => `${r.messages} 次 all-reduce`, sp: () => `${r.messages} 次 reduce-scatter + ${r.messages} 次 all-gather`,
      pp: () => `${r.messages}（每个段边界一次）`, ep: () => `${r.messages} 次 all-to-all`, cp: () => `${r.messages}（每层环上的步数 × 层数）`,
    }[r.id]()),
    belongs: { anywhere: '任意位置', none: '任意位置（不通信）', noExperts: '—（没有专家）', nvlink: 'NVLink 域内', cross: '可以跨节点' },
    rule: (share) => `“该放在”的规则：在一步关键路径上的通信（张量、序列、流水线、专家并行），在网卡上的时间超过这一步计算的 ${share} 时，放在 NVLink 域内，否则可以跨节点（§6.2：TP 走 InfiniBand 比读一遍权重还慢；§6.3：流水线只传很少的激活，跨节点也不怕）。ring attention 把 KV 的传输藏在注意力计算后面（§6.5）：网卡上的传输能藏在一个环步的计算后面（引擎的 hidden）时可以跨节点。每个数字和放置都来自引擎的 parallelisms 操作；其中的计算时间是 tp 操作的（流水线取整个模型，专家取 1/EP 的份额）。`,
    most: (x) => `${x.row}传得最多：每块卡一步 ${x.bytes}，NVLink 上 ${x.nvlink}，网卡上 ${x.nic}。`,
    inside: (rows, gpus) => `必须留在节点的 NVLink 域内（${gpus} 块卡）：${rows.join('、')}。`,
    cross: (rows) => `可以经网卡跨节点：${rows.join('、')}。`,
    tpWider: (tp, gpus) => `TP${tp} 比节点的 ${gpus} 块卡还宽：它的 all-reduce 只能跨网卡。`,
    combine: (tp, pp) => `所以像讲义那样组合：节点内 TP${tp}，节点间 PP${pp}。`,
  },
};

export function compareStrings(lang) {
  return wordsIn(COMPARE_STRINGS, lang);
}

// §2.2 node view (views/node.js): a node's NVLink domain and a rail-optimised network of nodes.
const NODE_STRINGS = {
  en: {
    title: 'Inside a node and between nodes: NVSwitch, NICs and rails (§2.2, §2.3)',
    intro: 'In a DGX H100 the 8 GPUs all connect to NVSwitch: any two talk at the NVLink’s full rate, not only neighbours. That reach is one NVLink domain; a GB200 NVL72 makes a whole rack of 72 GPUs one domain. Out of the node, each GPU has a NIC beside it, and in a rail-optimised network NIC i of every node goes to rail switch i, the rails joined above by a spine. Hover a link for its α and β (the engine’s catalogue); pick a parallelism to see where its traffic goes.',
    node: 'Node', nodes: 'Nodes drawn', trafficLabel: 'Show the traffic of',
    traffic: { none: 'nothing', tp: 'tensor parallelism (TP)', ep: 'expert parallelism (EP)', pp: 'pipeline parallelism (PP)', dp: 'data parallelism (replicas)' },
    range: (v) => `Nodes drawn: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 8. Nothing is drawn meanwhile.`,
    failed: 'The engine could not answer: reload the page.',
    caption: 'Nodes with their GPUs on NVSwitch and a NIC beside each GPU, the NICs on rail switches, the rails on a spine. Highlighted: where the chosen traffic goes.',
    pictureLabel: (x) => `${x.nodes} × ${x.label}: ${x.gpus} GPUs a node on NVSwitch, ${x.nics} NICs a node on ${x.nics} rail switches joined by a spine.`,
    linkTitle: (x) => `${x.label}: α ${x.alpha}, β ${x.beta} effective a direction (nominal ${x.nominal})`,
    nvswitch: (l) => `NVSwitch: every GPU of the node on ${l}, any to any at full rate`,
    rail: (i) => `rail switch ${i}: NIC ${i} of every node`, railsLabel: (n) => `${n} rails`, spine: 'spine',
    rowLabels: { nvswitch: 'NVSwitch', gpus: 'GPUs', nics: 'NICs' },
    ratio: (x) => `${x.label}: ${x.gpus} GPUs on ${x.intra} move ${x.inside} a direction inside the node; its ${x.nics} NICs on ${x.nic} move ${x.outside} out of it: ${x.faster === 'inside' ? `inside is ${x.ratio}× outside` : `outside is ${x.ratio}× inside`} (the engine’s ladder).`,
    placement: {
      none: () => 'Pick a parallelism above to see which links its traffic uses.',
      tp: (x) => `Tensor parallelism: two all-reduces every layer among the GPUs of one layer’s split, small and many, so they stay on ${x.intra} through NVSwitch (highlighted: the first node’s ${x.gpus} GPUs).`,
      ep: (x) => `Expert parallelism: two all-to-alls every layer among the experts’ GPUs; inside the NVLink domain they use ${x.intra} (highlighted); across nodes they would cross the NICs, the main problem of large-scale EP (§6.4).`,
      pp: (x) => (x.nodes > 1 ? `Pipeline parallelism: one activation a micro-batch from a stage to the next, GPU i of one node to GPU i of the next through NIC i and rail i (highlighted): little traffic, so it may cross nodes on ${x.nic}.` : 'Pipeline parallelism crosses nodes: draw two nodes or more to see its path.'),
      dp: () => 'Data parallelism at inference: each replica serves its own requests and sends nothing to the others, so nothing is highlighted; replicas can sit anywhere (§6.1).',
    },
    table: 'The links as a table',
    colPart: 'Part', colLink: 'Link', colCount: 'How many a node', colAlpha: 'α', colBeta: 'β effective', colNominal: 'Nominal', colTotal: 'Node total (effective)',
    rowNvlink: 'GPU ↔ NVSwitch', rowNic: 'NIC ↔ rail switch',
  },
  zh: {
    title: '节点内与节点之间：NVSwitch、网卡与轨道（§2.2、§2.3）',
    intro: 'DGX H100 里 8 块 GPU 都连到 NVSwitch：任意两块卡都能以 NVLink 全速通信，而不是只能和相邻的卡说话。这个范围是一个 NVLink 域；GB200 NVL72 把整个机柜的 72 块 GPU 连成一个域。出了节点，每块 GPU 旁边有一张网卡；轨道优化的网络里，每个节点的第 i 张网卡都连到第 i 个轨道交换机，轨道之上再由 spine 连起来。把鼠标放在链路上可看它的 α 和 β（引擎的链路表）；选一种并行方式可看它的流量走哪里。',
    node: '节点', nodes: '画几个节点', trafficLabel: '显示哪种流量',
    traffic: { none: '不显示', tp: '张量并行（TP）', ep: '专家并行（EP）', pp: '流水线并行（PP）', dp: '数据并行（副本）' },
    range: (v) => `画几个节点：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 8 的整数。在此之前不绘图。`,
    failed: '引擎无法作答：请重新加载页面。',
    caption: '节点里的 GPU 连在 NVSwitch 上，每块 GPU 旁有一张网卡，网卡连到轨道交换机，轨道连到 spine。高亮的是所选流量经过的链路。',
    pictureLabel: (x) => `${x.nodes} 个 ${x.label}：每个节点 ${x.gpus} 块 GPU 连在 NVSwitch 上，${x.nics} 张网卡连到 ${x.nics} 个轨道交换机，轨道由 spine 相连。`,
    linkTitle: (x) => `${x.label}：α ${x.alpha}，每方向有效 β ${x.beta}（标称 ${x.nominal}）`,
    nvswitch: (l) => `NVSwitch：节点内每块 GPU 经 ${l} 相连，任意两块全速通信`,
    rail: (i) => `第 ${i} 个轨道交换机：每个节点的第 ${i} 张网卡`, railsLabel: (n) => `${n} 条轨道`, spine: 'spine',
    rowLabels: { nvswitch: 'NVSwitch', gpus: 'GPU', nics: '网卡' },
    ratio: (x) => `${x.label}：${x.gpus} 块 GPU 经 ${x.intra} 在节点内每方向合计 ${x.inside}；${x.nics} 张 ${x.nic} 网卡对外合计 ${x.outside}：${x.faster === 'inside' ? `节点内是节点外的 ${x.ratio} 倍` : `节点外是节点内的 ${x.ratio} 倍`}（引擎的带宽阶梯）。`,
    placement: {
      none: () => '在上面选一种并行方式，看它的流量用哪些链路。',
      tp: (x) => `张量并行：每层两次 all-reduce，在同一层切开的几块卡之间，小而多，所以留在 NVSwitch 的 ${x.intra} 上（高亮：第一个节点的 ${x.gpus} 块 GPU）。`,
      ep: (x) => `专家并行：每层两次 all-to-all，在各专家所在的卡之间；在 NVLink 域内走 ${x.intra}（高亮）；跨节点就要经过网卡，这是大规模专家并行的主要矛盾（§6.4）。`,
      pp: (x) => (x.nodes > 1 ? `流水线并行：每个微批一份激活，从一段传到下一段，一个节点的第 i 块 GPU 经第 i 张网卡和第 i 条轨道到下一个节点的第 i 块 GPU（高亮）：通信少，可以经 ${x.nic} 跨节点。` : '流水线并行会跨节点：画两个或更多节点才能看到它的路径。'),
      dp: () => '推理时的数据并行：每个副本各自服务自己的请求，彼此不通信，所以没有高亮；副本放在哪里都行（§6.1）。',
    },
    table: '链路数据表',
    colPart: '部分', colLink: '链路', colCount: '每个节点几条', colAlpha: 'α', colBeta: '有效 β', colNominal: '标称', colTotal: '节点合计（有效）',
    rowNvlink: 'GPU ↔ NVSwitch', rowNic: '网卡 ↔ 轨道交换机',
  },
};

/** The §2.2 node view's words in `lang`. */
export function nodeStrings(lang) {
  return wordsIn(NODE_STRINGS, lang);
}

// §6.5 ring view (views/ring.js): ring attention's hiding threshold and the causal zig-zag.
const RING_STRINGS = {
  en: {
    title: 'Context parallelism and ring attention: when the KV hides, and the causal zig-zag (§6.5)',
    intro: 'Context parallelism cuts the sequence by tokens over k GPUs; in ring attention each keeps its queries while the K and V blocks go once round the ring. A ring step’s attention grows with the square of the block, its KV block only linearly: above a block size the transfer hides behind the compute. With a causal mask the devices’ work is uneven, and a zig-zag layout (each device takes a block from each end) evens it. Every figure is the engine’s ring_attention op, for one layer.',
    model: 'Model', devices: 'Devices on the ring (k)', tokens: 'Prompt tokens', linkA: 'Link', linkB: 'Compared with',
    range: {
      devices: (v) => `Devices on the ring: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 1,024. Nothing is drawn meanwhile.`,
      tokens: (v) => `Prompt tokens: ${v === '' ? 'nothing typed' : `${v} is not allowed`}; allowed a whole number from 1 to 2,000,000,000. Nothing is drawn meanwhile.`,
    },
    refused: (m) => `The engine refused these settings: ${m}`,
    failed: 'The engine could not answer for these settings: change a setting.',
    hidingTitle: 'A ring step: attention against the KV block’s transfer',
    hidingCaption: 'One ring step of one layer on each link: the attention it computes and the KV block it sends, on one linear axis.',
    hidingLabel: 'A ring step’s compute and its KV transfer on the two links; the same figures are in the table below.',
    computeLegend: 'attention of one step', transferLegend: 'KV block’s transfer (α included)', computeShort: 'compute', transferShort: 'KV',
    hiding: (x) => (x.hidden
      ? `${x.link}: ${x.n} tokens a device is above the ${x.threshold} at which the KV hides, so its transfer (${x.transfer}) hides behind the step’s attention (${x.compute}).`
      : `${x.link}: ${x.n} tokens a device is below the ${x.threshold} the KV needs to hide: its transfer (${x.transfer}) is not covered by the step’s attention (${x.compute}).`),
    causalTitle: 'The causal mask: each device’s work',
    causalNone: 'Too few tokens a device for a whole block: no causal layout to show.',
    zigzagOdd: 'Zig-zag needs an even number of tokens a device (a block from each end): none shown for these settings.',
    layouts: { contiguous: 'contiguous', zigzag: 'zig-zag' },
    layoutCaption: {
      contiguous: (r) => `Contiguous blocks: device i holds the i-th block; the busiest does ${r}× the mean.`,
      zigzag: (r) => `Zig-zag: each device holds a block from each end; the busiest does ${r}× the mean.`,
    },
    colsLabel: (l) => `Each device’s (query, key) pairs in the ${l} layout, as column heights.`,
    deviceWork: (i, w) => `device ${i}: ${w} pairs`,
    causalSentence: (x) => `On ${x.devices} devices the causal mask leaves the contiguous layout’s busiest device ${x.contiguous}× the mean work, and every ring step waits for it; zig-zag brings it to ${x.zigzag}×.`,
    table: 'The ring step as a table',
    colLink: 'Link', colTokens: 'Tokens a device', colThreshold: 'Hides above (tokens)', colThresholdAlpha: 'With α (tokens)', colCompute: 'Step’s attention', colTransfer: 'KV block’s transfer', colHidden: 'Hidden',
    yes: 'yes', no: 'no',
  },
  zh: {
    title: '上下文并行与 ring attention：KV 何时藏得住，以及因果掩码的之字形（§6.5）',
    intro: '上下文并行把序列按 token 切到 k 块卡上；ring attention 里每块卡拿着自己的 Q，K、V 块沿环传一圈。每一步的注意力随块长平方增长，KV 块只线性增长：块足够大时，传输就藏在计算后面。带因果掩码时各卡工作量不均，之字形切法（每块卡从两端各取一块）把它拉平。所有数字来自引擎的 ring_attention 操作，按一层计。',
    model: '模型', devices: '环上的卡数（k）', tokens: '提示 token 数', linkA: '链路', linkB: '对比链路',
    range: {
      devices: (v) => `环上的卡数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 1,024 的整数。在此之前不绘图。`,
      tokens: (v) => `提示 token 数：${v === '' ? '没有输入' : `${v} 不允许`}；允许 1 到 2,000,000,000 的整数。在此之前不绘图。`,
    },
    refused: (m) => `引擎拒绝了这些设置：${m}`,
    failed: '引擎无法按这些设置作答：请修改设置。',
    hidingTitle: '环上的一步：注意力计算对比 KV 块的传输',
    hidingCaption: '每条链路上一层的一个环步：它计算的注意力和它传的 KV 块，同一线性坐标。',
    hidingLabel: '两条链路上一个环步的计算和 KV 传输；同样的数字见下方表格。',
    computeLegend: '一步的注意力', transferLegend: 'KV 块的传输（含 α）', computeShort: '计算', transferShort: 'KV',
    hiding: (x) => (x.hidden
      ? `${x.link}：每块卡 ${x.n} 个 token，超过 KV 能藏住的 ${x.threshold}，所以传输（${x.transfer}）藏在这一步的注意力（${x.compute}）后面。`
      : `${x.link}：每块卡 ${x.n} 个 token，低于 KV 藏住所需的 ${x.threshold}：传输（${x.transfer}）盖不住，这一步的注意力只有 ${x.compute}。`),
    causalTitle: '因果掩码：各卡的工作量',
    causalNone: '每块卡的 token 太少，不成块：没有可显示的因果切法。',
    zigzagOdd: '之字形需要每块卡的 token 数为偶数（两端各一块）：这些设置下不显示。',
    layouts: { contiguous: '连续', zigzag: '之字形' },
    layoutCaption: {
      contiguous: (r) => `连续切块：第 i 块卡拿第 i 块；最忙的卡是平均的 ${r} 倍。`,
      zigzag: (r) => `之字形：每块卡从两端各拿一块；最忙的卡是平均的 ${r} 倍。`,
    },
    colsLabel: (l) => `${l}切法下各卡的 (query, key) 对数，用柱高表示。`,
    deviceWork: (i, w) => `第 ${i} 块卡：${w} 对`,
    causalSentence: (x) => `${x.devices} 块卡上，因果掩码让连续切法里最忙的卡做平均的 ${x.contiguous} 倍，环上每一步都要等它；之字形把它降到 ${x.zigzag} 倍。`,
    table: '环步数据表',
    colLink: '链路', colTokens: '每块卡的 token', colThreshold: '超过多少能藏住（token）', colThresholdAlpha: '计入 α（token）', colCompute: '一步的注意力', colTransfer: 'KV 块的传输', colHidden: '藏得住',
    yes: '是', no: '否',
  },
};

/** The §6.5 ring view's words in `lang`. */
export function ringStrings(lang) {
  return wordsIn(RING_STRINGS, lang);
}
