// The JS door's types (wasm/README.md "The JS door"). Written by wasm/tools/dts.mjs from the
// engine's op list and its answers to tests/golden/requests.ndjson: do not edit by hand.

/** A link given by its figures instead of a catalogue id (P5 §3): latency and effective bandwidth. */
export interface LinkFigures {
  alpha_s: number;
  beta_Bps: number;
}

/** `ops`: this list */
export interface OpsRequest {
  op: 'ops';
}
export interface OpsAnswer {
  op: 'ops';
  ops: Array<Record<string, unknown>>;
}

/** `links`: the link catalogue of P5 §2.1 (nominal and effective bandwidth, alpha) */
export interface LinksRequest {
  op: 'links';
  efficiency?: number;
}
export interface LinksAnswer {
  op: 'links';
  efficiency: number;
  links: Array<Record<string, unknown>>;
}

/** `ladder`: the bandwidth ladder of P5 §2.1: each level's links, pairs compared (faster, by how much), a node inside vs outside (§2.3) */
export interface LadderRequest {
  op: 'ladder';
  efficiency?: number;
  node?: string;
  pairs?: string[][];
}
export interface LadderAnswer {
  op: 'ladder';
  comparisons: Array<Record<string, unknown>>;
  efficiency: number;
  levels: string[];
  node: Record<string, unknown>;
  rungs: Array<Record<string, unknown>>;
}

/** `gpudirect`: a message between GPUs of two nodes: through host memory, chunked through it, or GPUDirect RDMA (§2.4) */
export interface GpudirectRequest {
  op: 'gpudirect';
  bytes?: number | string;
  chunks?: number;
  link?: string;
  same_pcie_switch?: boolean;
}
export interface GpudirectAnswer {
  op: 'gpudirect';
  bytes: number;
  chunks: number;
  fastest: string;
  host_link: Record<string, unknown>;
  link: Record<string, unknown>;
  nccl_path: string;
  paths: Array<Record<string, unknown>>;
  pipelined_case: string;
  pipelined_over_gpudirect: number;
  same_pcie_switch: boolean;
  staged_over_gpudirect: number;
}

/** `transfer`: one message on one link: alpha-beta time, n_1/2, bandwidth fraction (§3) */
export interface TransferRequest {
  op: 'transfer';
  bytes: number | string;
  efficiency?: number;
  link: LinkFigures | string;
}
export interface TransferAnswer {
  op: 'transfer';
  alpha_s: number;
  bandwidth_fraction: number;
  beta_Bps: number;
  bytes: number;
  latency_bound: boolean;
  link: Record<string, unknown>;
  n_half_bytes: number;
  time_s: number;
}

/** `allreduce`: all-reduce by algorithm, including hierarchical and auto (§5) */
export interface AllreduceRequest {
  op: 'allreduce';
  algorithm: string;
  bytes: number | string;
  devices?: number;
  gpus_per_node?: number;
  in_switch_available?: boolean;
  inter_algorithm?: string;
  inter_link?: string;
  intra_link?: string;
  link?: string;
  nodes?: number;
}
export interface AllreduceAnswer {
  op: 'allreduce';
  algorithm: string;
  alpha_time_s: number;
  beta_time_s: number;
  bytes: number;
  bytes_sent_per_device: number;
  candidates?: Array<Record<string, unknown>>;
  chunks?: number;
  devices: number;
  link?: Record<string, unknown>;
  lower_bound_bytes: number;
  phases?: Array<Record<string, unknown>>;
  steps: number;
  time_s: number;
}

/** `collective`: cost of any of the six collectives or send/recv (§4) */
export interface CollectiveRequest {
  op: 'collective';
  algorithm?: string;
  bytes: number | string;
  collective: string;
  devices?: number;
  link: string;
}
export interface CollectiveAnswer {
  op: 'collective';
  algorithm: string;
  alpha_time_s: number;
  beta_time_s: number;
  bytes: number;
  bytes_sent_per_device: number;
  collective: string;
  devices: number;
  link: Record<string, unknown>;
  lower_bound_bytes: number;
  steps: number;
  time_s: number;
}

/** `nccl`: NCCL protocols LL / LL128 / Simple and its (algorithm, protocol) choice (§5.6) */
export interface NcclRequest {
  op: 'nccl';
  algorithms?: string[];
  bytes: number | string;
  devices: number;
  link: string;
  transport?: string;
}
export interface NcclAnswer {
  op: 'nccl';
  algorithm: string;
  bandwidth_Bps: number;
  bytes: number;
  candidates: Array<Record<string, unknown>>;
  devices: number;
  latency_s: number;
  left_out: Array<Record<string, unknown>>;
  protocol: string;
  time_s: number;
  transport: string;
}

/** `nccl.protocols`: what NCCL's protocols are: latencies, the unit carrying a flag, the payload share of the bandwidth (§5.6) */
export interface NcclProtocolsRequest {
  op: 'nccl.protocols';
  algorithm?: string;
  link: LinkFigures | string;
  transport?: string;
}
export interface NcclProtocolsAnswer {
  op: 'nccl.protocols';
  algorithm: string;
  link: Record<string, unknown>;
  protocols: Array<Record<string, unknown>>;
  transport: string;
}

/** `crossover`: exact sizes where the cheapest all-reduce algorithm or NCCL pair changes (§5.3, §5.6) */
export interface CrossoverRequest {
  op: 'crossover';
  algorithms?: string[];
  bytes?: number | string;
  devices: number;
  from_bytes?: number | string;
  in_switch_available?: boolean;
  kind?: string;
  link: LinkFigures | string;
  to_bytes?: number | string;
}
export interface CrossoverAnswer {
  op: 'crossover';
  boundaries: Array<Record<string, unknown>> | unknown[];
  candidates: string[];
  cheapest?: Record<string, unknown>;
  devices: number;
  from_bytes: number;
  kind: string;
  link: Record<string, unknown>;
  rel_tolerance: number;
  to_bytes: number;
  transport?: string;
  winners: Array<Record<string, unknown>>;
}

/** `simulate`: the collective-step engine: explicit schedule run on buffers, verified, timed (§4-5) */
export interface SimulateRequest {
  op: 'simulate';
  algorithm?: string;
  bytes: number | string;
  collective?: string;
  devices?: number;
  gpus_per_node?: number;
  inter_algorithm?: string;
  links?: Array<Record<string, unknown>>;
  mode?: string;
  nodes?: number;
  pair_bytes?: number[][];
  seed?: number;
  topology?: string;
  trace_limit?: number;
}
export interface SimulateAnswer {
  op: 'simulate';
  against_bound: string;
  algorithm: string;
  alpha_time_s: number;
  beta_time_s: number;
  bytes: number;
  bytes_received_per_device: number;
  bytes_sent_per_device: number;
  chunks?: number;
  closed_form: Record<string, unknown> | null;
  collective: string;
  devices: number;
  elements_per_device?: number;
  inter_algorithm?: string;
  lower_bound_bytes: number;
  messages: number;
  mode: string;
  peak_buffer_bytes?: number;
  per_device: Record<string, unknown>;
  ring_steps?: number;
  schedule: Record<string, unknown>;
  steps: number;
  steps_against_ring?: string;
  switch_bytes_received?: number;
  switch_node?: number;
  time_s: number;
  topology: Record<string, unknown>;
  verification: string;
  verified: boolean | null;
}

/** `presets`: models, GPUs and nodes; any field can be overridden in a request (§1-2) */
export interface PresetsRequest {
  op: 'presets';
}
export interface PresetsAnswer {
  op: 'presets';
  efficiency: number;
  gpus: Array<Record<string, unknown>>;
  mfu: number;
  models: Array<Record<string, unknown>>;
  nodes: Array<Record<string, unknown>>;
  sources: Record<string, unknown>;
}

/** `tp`: tensor / sequence parallel all-reduces of a decode step or a prefill (§6.2) */
export interface TpRequest {
  op: 'tp';
  algorithm?: string;
  link?: string;
  phase?: string;
  protocol?: string;
  tokens?: number;
  tp?: number;
}
export interface TpAnswer {
  op: 'tp';
  allreduce_bytes: number;
  allreduces: number;
  bound: string;
  bytes_sent_per_gpu: number;
  comm_time_s: number;
  comm_to_compute: number;
  compute_time_s: number;
  flops_per_layer?: number;
  layer_compute_s?: number;
  model: Record<string, unknown>;
  per_allreduce: Record<string, unknown>;
  phase: string;
  sequence_parallel: Record<string, unknown>;
  tokens: number;
  tp: number;
  weight_read_time_s: number;
}

/** `memory`: fits or not: weights and KV per GPU vs its memory, GPUs needed, KV room, batch-1 decode lower bound on 1 and n GPUs, replicas (§1, §6.1) */
export interface MemoryRequest {
  op: 'memory';
  batch?: number;
  context_tokens?: number;
  gpu?: string;
  gpus?: number;
  model?: Record<string, unknown> | string;
  replicas?: number;
}
export interface MemoryAnswer {
  op: 'memory';
  batch: number;
  context_tokens: number;
  decode_time_effective_s: number;
  decode_time_s: number;
  fits: boolean;
  gpu: Record<string, unknown>;
  gpus: number;
  hbm_bytes: number;
  hbm_efficiency: number;
  kv_bytes: number;
  kv_bytes_per_gpu: number;
  kv_bytes_per_token: number;
  kv_room_bytes_per_gpu: number;
  max_context_tokens: number;
  min_gpus: number;
  min_gpus_power_of_two: number;
  min_gpus_with_kv: number;
  model: Record<string, unknown>;
  one_gpu_decode_time_effective_s: number;
  one_gpu_decode_time_s: number;
  one_gpu_fits: boolean;
  replicas: number;
  speedup: number;
  tokens_per_s: number;
  tokens_per_s_effective: number;
  total_gpus: number;
  traffic_bytes_between_replicas: number;
  used_bytes_per_gpu: number;
  used_fraction: number;
  weight_bytes: number;
  weight_bytes_per_gpu: number;
  weights_fit: boolean;
}

/** `sharding_check`: Megatron MLP / attention split run on random matrices vs one device (§6.2) */
export interface ShardingCheckRequest {
  op: 'sharding_check';
  kind?: string;
  seed?: number;
  shards?: number;
  tokens?: number;
}
export interface ShardingCheckAnswer {
  op: 'sharding_check';
  attention: Record<string, unknown>;
  kind: string;
  mlp?: Record<string, unknown>;
  shards: number;
  tokens: number;
}

/** `pipeline`: pipeline decode simulator: token interval, utilisation, timeline (§6.3) */
export interface PipelineRequest {
  op: 'pipeline';
  link?: string;
  max_stage_visits?: number;
  microbatches?: number;
  stage_time_s?: number;
  stages?: number;
  timeline_tokens?: number;
  tokens?: number;
  transfer_bytes?: number | string;
  transfer_time_s?: number;
}
export interface PipelineAnswer {
  op: 'pipeline';
  makespan_s: number;
  measured_interval_s: number;
  microbatch0_token_ends_s: number[] | unknown[];
  microbatches: number;
  microbatches_to_fill: number;
  stage_time_s: number;
  stages: number;
  steady_bound: string;
  steady_interval_s: number;
  steady_tokens_per_s: number;
  steady_utilisation: number;
  timeline: Array<Record<string, unknown>> | unknown[];
  token_interval_s: number;
  tokens: number;
  tokens_per_s: number;
  transfer_time_s: number;
  trip_s: number;
  utilisation: number;
}

/** `moe`: expert parallel dispatch / combine bytes and time, with a hot expert (§6.4) */
export interface MoeRequest {
  op: 'moe';
  batch_tokens?: number;
  ep?: number;
  hot_factor?: number;
  model?: string;
}
export interface MoeAnswer {
  op: 'moe';
  alltoall_alpha_time_s: number;
  alltoall_time_s: number;
  alltoalls_per_step: number;
  batch_tokens: number;
  busiest_recv_bytes_layer: number;
  bytes_per_gpu_step: number;
  combine_bytes_per_gpu_layer: number;
  dispatch_bytes_per_gpu_layer: number;
  ep: number;
  hot_factor: number;
  hot_probability: number;
  mean_recv_bytes_layer: number;
  model: Record<string, unknown>;
  recv_bytes_per_gpu_layer: number[];
  remote_fraction: number;
  skew: number;
  step_time_s: number;
  tokens_per_gpu: number;
}

/** `parallelisms`: the comparison table of §6.6: each parallelism's traffic a step, pattern, time on the node's NVLink and NIC, where it belongs */
export interface ParallelismsRequest {
  op: 'parallelisms';
  cp?: number;
  model?: string;
  node?: string;
  phase?: string;
  pp?: number;
  tokens?: number;
  tp?: number;
}
export interface ParallelismsAnswer {
  op: 'parallelisms';
  cp: number;
  cross_share: number;
  ep: number;
  model: Record<string, unknown>;
  node: Record<string, unknown>;
  phase: string;
  pp: number;
  rows: Array<Record<string, unknown>>;
  tokens: number;
  tp: number;
}

/** `ring_attention`: ring attention: KV-hiding threshold, causal imbalance, zig-zag (§6.5) */
export interface RingAttentionRequest {
  op: 'ring_attention';
  devices?: number;
  link?: string;
  prompt_tokens?: number;
  tokens_per_device?: number;
}
export interface RingAttentionAnswer {
  op: 'ring_attention';
  causal: Record<string, unknown>;
  compute_time_s: number;
  devices: number;
  flops_per_token2: number;
  hidden: boolean;
  hidden_with_alpha: boolean;
  hiding_case: string;
  kv_bytes_per_token: number;
  threshold_tokens: number;
  threshold_with_alpha_tokens: number;
  tokens_per_device: number;
  transfer_time_s: number;
}

/** `ring_attention_check`: ring attention with online softmax run vs one device (§6.5) */
export interface RingAttentionCheckRequest {
  op: 'ring_attention_check';
  causal?: boolean;
  devices?: number;
  layout?: string;
  tokens_per_device?: number;
}
export interface RingAttentionCheckAnswer {
  op: 'ring_attention_check';
  causal: boolean;
  devices: number;
  head_dim: number;
  layout: string;
  max_abs_error: number;
  max_abs_output: number;
  tokens_per_device: number;
}

/** `overlap`: chunked / TP prefill / two-batch overlap as compute and comm timelines (§7) */
export interface OverlapRequest {
  op: 'overlap';
  algorithm?: string;
  alpha_per_chunk_s?: number;
  chunks?: number;
  comm_s?: number;
  compute_s?: number;
  kind: string;
  tokens?: number;
}
export interface OverlapAnswer {
  op: 'overlap';
  chunk_allreduce_bytes?: number;
  chunk_comm_s?: number;
  chunks?: number;
  compute_end_s: number;
  exposed_comm_s: number;
  intervals: Array<Record<string, unknown>>;
  layer_comm_s?: number;
  layer_compute_s?: number;
  layer_overlapped_s?: number;
  layer_serial_s?: number;
  layers?: number;
  model_outcome?: string;
  model_overlapped_s?: number;
  model_saved_s?: number;
  model_serial_s?: number;
  outcome: string;
  saved_s: number;
  serial_s: number;
  slowdown: number;
  speedup: number;
  total_s: number;
}

/** `fit`: nccl-tests logs read and fitted to the ring model: alpha, bus bandwidth, residuals, collapses, nearest link (§0.5, §5.1) */
export interface FitRequest {
  op: 'fit';
  columns?: string;
  link?: string;
  log: string;
  ranks?: number;
}
export interface FitAnswer {
  op: 'fit';
  lines: number;
  skipped_lines: number;
  tables: Array<Record<string, unknown>>;
}

/** `nccl.topology`: NCCL's own INFO lines read: each communicator's rings, trees, transports and hosts, the hops that cross nodes, the link that bounds the rings and the bus bandwidth it predicts, beside nccl-tests' (§4-5) */
export interface NcclTopologyRequest {
  op: 'nccl.topology';
  gpu?: string;
  log: string;
  nic?: string;
  nvlink?: string;
}
export interface NcclTopologyAnswer {
  op: 'nccl.topology';
  communicators: Array<Record<string, unknown>>;
  in_switch: unknown[];
  lines: number;
  rejected: unknown[];
  rejected_lines: number;
  skipped_lines: number;
  topology_lines: number;
}

/** `kv_transfer`: a prompt's KV over NICs: after prefill vs layer by layer (§2.5, §7.3) */
export interface KvTransferRequest {
  op: 'kv_transfer';
  link?: string;
  model?: Record<string, unknown>;
  nics?: number;
  tokens?: number;
}
export interface KvTransferAnswer {
  op: 'kv_transfer';
  against_prefill: string;
  all_nics_s: number;
  kv_bytes: number;
  kv_bytes_per_token: number;
  layer_compute_s: number;
  layer_transfer_s: number;
  layerwise_exposed_s: number;
  link: Record<string, unknown>;
  model: Record<string, unknown>;
  nics: number;
  one_nic_s: number;
  prefill_s: number;
  timeline: Record<string, unknown>;
  tokens: number;
  tp: number;
}

/** `exercise.list`: the exercises of P5 §11: id and title */
export interface ExerciseListRequest {
  op: 'exercise.list';
}
export interface ExerciseListAnswer {
  op: 'exercise.list';
  exercises: Array<Record<string, unknown>>;
}

/** `exercise.get`: one exercise document: statement, params, answers with their rule, hints */
export interface ExerciseGetRequest {
  op: 'exercise.get';
  id: number;
}
export interface ExerciseGetAnswer {
  op: 'exercise.get';
  answers: Array<Record<string, unknown>>;
  compute: Record<string, unknown>;
  conclusions: Array<Record<string, unknown>>;
  hints: Record<string, unknown>;
  id: number;
  params: Array<Record<string, unknown>>;
  params_display: Record<string, unknown>;
  solution: Record<string, unknown>;
  statement: Record<string, unknown>;
  statement_filled: Record<string, unknown>;
  title: Record<string, unknown>;
  variant: Record<string, unknown>;
}

/** `exercise.solve`: an exercise's answers and filled worked solution for given params */
export interface ExerciseSolveRequest {
  op: 'exercise.solve';
  id: number;
  params?: Record<string, unknown>;
}
export interface ExerciseSolveAnswer {
  op: 'exercise.solve';
  answers: Record<string, unknown>;
  conclusion_cases: Record<string, unknown>;
  conclusions: Record<string, unknown>;
  display: Record<string, unknown>;
  id: number;
  params: Record<string, unknown>;
  params_display: Record<string, unknown>;
  ranges: Record<string, unknown>;
  solution: Record<string, unknown>;
  statement: Record<string, unknown>;
  values: Record<string, unknown>;
}

/** `exercise.check`: verdicts on typed answers: correct, incorrect or format-error */
export interface ExerciseCheckRequest {
  op: 'exercise.check';
  answers: Record<string, unknown>;
  id: number;
}
export interface ExerciseCheckAnswer {
  op: 'exercise.check';
  all_correct: boolean;
  id: number;
  verdicts: Record<string, unknown>;
}

/** `exercise.variant`: fresh params for an exercise, deterministic for a seed */
export interface ExerciseVariantRequest {
  op: 'exercise.variant';
  id: number;
  seed: number;
}
export interface ExerciseVariantAnswer {
  op: 'exercise.variant';
  id: number;
  params: Record<string, unknown>;
}

/** `exercise.install`: installs the exercise documents the host ships (replacing all): ids, titles, problems */
export interface ExerciseInstallRequest {
  op: 'exercise.install';
  files: Array<Record<string, unknown>> | unknown[];
}
export interface ExerciseInstallAnswer {
  op: 'exercise.install';
  exercises: Array<Record<string, unknown>> | unknown[];
  problems: Array<Record<string, unknown>> | unknown[];
}

/** `exercise.load`: adds an exercise document (JSON, answers declared as requests) for this session */
export interface ExerciseLoadRequest {
  op: 'exercise.load';
  doc: Record<string, unknown>;
  file: string;
}
export interface ExerciseLoadAnswer {
  op: 'exercise.load';
  id: number;
  title: Record<string, unknown>;
}

/** `exercise.lint`: every problem of an exercise document, each naming its path in the file */
export interface ExerciseLintRequest {
  op: 'exercise.lint';
  file: string;
  text: string;
}
export interface ExerciseLintAnswer {
  op: 'exercise.lint';
  ok: boolean;
  problems: string[] | unknown[];
}

/** `link.match`: the catalogue link whose effective figures are alpha_s and beta_Bps: matched, id, label */
export interface LinkMatchRequest {
  op: 'link.match';
  alpha_s: number;
  beta_Bps: number;
}
export interface LinkMatchAnswer {
  op: 'link.match';
  id: string;
  label: string;
  matched: boolean;
}

/** `model.match`: the model preset of this shape (layers, hidden, experts) and the name of bytes_per_value: matched, id, label, precision */
export interface ModelMatchRequest {
  op: 'model.match';
  bytes_per_value?: number;
  experts?: number;
  hidden: number;
  layers: number;
}
export interface ModelMatchAnswer {
  op: 'model.match';
  id: string;
  label: string;
  matched: boolean;
  precision: string;
}

/** Every op's request, by op. */
export interface Requests {
  'ops': OpsRequest;
  'links': LinksRequest;
  'ladder': LadderRequest;
  'gpudirect': GpudirectRequest;
  'transfer': TransferRequest;
  'allreduce': AllreduceRequest;
  'collective': CollectiveRequest;
  'nccl': NcclRequest;
  'nccl.protocols': NcclProtocolsRequest;
  'crossover': CrossoverRequest;
  'simulate': SimulateRequest;
  'presets': PresetsRequest;
  'tp': TpRequest;
  'memory': MemoryRequest;
  'sharding_check': ShardingCheckRequest;
  'pipeline': PipelineRequest;
  'moe': MoeRequest;
  'parallelisms': ParallelismsRequest;
  'ring_attention': RingAttentionRequest;
  'ring_attention_check': RingAttentionCheckRequest;
  'overlap': OverlapRequest;
  'fit': FitRequest;
  'nccl.topology': NcclTopologyRequest;
  'kv_transfer': KvTransferRequest;
  'exercise.list': ExerciseListRequest;
  'exercise.get': ExerciseGetRequest;
  'exercise.solve': ExerciseSolveRequest;
  'exercise.check': ExerciseCheckRequest;
  'exercise.variant': ExerciseVariantRequest;
  'exercise.install': ExerciseInstallRequest;
  'exercise.load': ExerciseLoadRequest;
  'exercise.lint': ExerciseLintRequest;
  'link.match': LinkMatchRequest;
  'model.match': ModelMatchRequest;
}

/** Every op's answer, by op. */
export interface Answers {
  'ops': OpsAnswer;
  'links': LinksAnswer;
  'ladder': LadderAnswer;
  'gpudirect': GpudirectAnswer;
  'transfer': TransferAnswer;
  'allreduce': AllreduceAnswer;
  'collective': CollectiveAnswer;
  'nccl': NcclAnswer;
  'nccl.protocols': NcclProtocolsAnswer;
  'crossover': CrossoverAnswer;
  'simulate': SimulateAnswer;
  'presets': PresetsAnswer;
  'tp': TpAnswer;
  'memory': MemoryAnswer;
  'sharding_check': ShardingCheckAnswer;
  'pipeline': PipelineAnswer;
  'moe': MoeAnswer;
  'parallelisms': ParallelismsAnswer;
  'ring_attention': RingAttentionAnswer;
  'ring_attention_check': RingAttentionCheckAnswer;
  'overlap': OverlapAnswer;
  'fit': FitAnswer;
  'nccl.topology': NcclTopologyAnswer;
  'kv_transfer': KvTransferAnswer;
  'exercise.list': ExerciseListAnswer;
  'exercise.get': ExerciseGetAnswer;
  'exercise.solve': ExerciseSolveAnswer;
  'exercise.check': ExerciseCheckAnswer;
  'exercise.variant': ExerciseVariantAnswer;
  'exercise.install': ExerciseInstallAnswer;
  'exercise.load': ExerciseLoadAnswer;
  'exercise.lint': ExerciseLintAnswer;
  'link.match': LinkMatchAnswer;
  'model.match': ModelMatchAnswer;
}

export type Op = keyof Requests;
export type Request = Requests[Op];

/** What the engine answers instead when it refuses a request (core/README.md "Errors"). */
export interface ErrorAnswer {
  error: { code: string; message: string };
}

export class CommlabError extends Error {
  readonly code: string;
  constructor(code: string, message: string);
}

export interface Version {
  /** The project's version. */
  engine: string;
  /** 'lean' (the exercises' and Explore's ops) or 'full' (every op). */
  module: 'lean' | 'full';
}

export interface ExerciseFile {
  file: string;
  text: string;
}

export interface Commlab {
  /** Request text in, answer text out, exactly as `commlab eval`. */
  evaluateText(requestText: string): string;
  /** A request in, its answer out; never throws: a refusal is an ErrorAnswer. */
  evaluate<R extends Request>(request: R): Answers[R['op']] | ErrorAnswer;
  /** evaluate({...fields, op}); throws CommlabError on a refusal. */
  call<O extends Op>(op: O, fields?: Omit<Requests[O], 'op'>): Answers[O];
  ops(): Array<{ op: Op; summary: string }>;
  version(): Version;
  transfer(link: string | LinkFigures, bytes: number | string): TransferAnswer;
  allreduce(algorithm: string, devices: number, bytes: number | string, link: string | LinkFigures): AllreduceAnswer;
  hierarchical(nodes: number, gpusPerNode: number, bytes: number | string, intraLink: string, interLink: string): AllreduceAnswer;
  collective(collective: string, devices: number, bytes: number | string, link: string | LinkFigures, algorithm?: string): CollectiveAnswer;
  nccl(devices: number, bytes: number | string, link: string | LinkFigures): NcclAnswer;
  links(): LinksAnswer['links'];
  installExercises(files: Iterable<ExerciseFile>): ExerciseInstallAnswer;
  /** The answer to installing `options.exercises`, when given. */
  installed?: ExerciseInstallAnswer;
}

export interface LoadOptions {
  /** Exercise documents to install at once ([{file, text}]). */
  exercises?: ExerciseFile[];
  /** The bytes of commlab_wasm.wasm (else fetched beside the module, or read from disk under Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  onAbort?: (what: unknown) => void;
  instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
}

export function loadCommlab(options?: LoadOptions): Promise<Commlab>;
