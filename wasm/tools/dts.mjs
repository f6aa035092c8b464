#!/usr/bin/env node
// Writes wasm/commlab.d.ts, the TypeScript declaration of the JS door (wasm/commlab.js), from
// what the engine itself says: its op list (`ops`, the full module) and its answers to the golden
// requests (tests/golden/requests.ndjson). For each op, a request interface with every field the
// golden requests send and an answer interface with every field its answers hold, typed by the
// values seen; a field in every request or answer of the op is required, the others optional.
// tests/node/types.test.mjs writes it again and fails when the file differs, and checks every
// required field against the engine's answers: the declaration cannot drift from the engine.
// Usage: node wasm/tools/dts.mjs [--check]   (needs build-wasm/: ./lab build)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DTS = `${ROOT}wasm/commlab.d.ts`;

/**
 * The TypeScript type of a JSON value, one level deep (nested objects stay open records). In a
 * request, a byte count is a number or a string with a unit ("256 KB": core/README.md "Model
 * conventions") and a link object is its figures.
 */
function typeOf(v, key, inRequest) {
  if (inRequest && (key === 'bytes' || /_bytes$/.test(key ?? '')) && (typeof v === 'number' || typeof v === 'string')) return 'number | string';
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const el = [...new Set(v.map((x) => typeOf(x, null, false)))].sort();
    if (!el.length) return 'unknown[]';
    return el.length === 1 && !/[ |<]/.test(el[0]) ? `${el[0]}[]` : `Array<${el.join(' | ')}>`;
  }
  if (typeof v === 'object') return inRequest && (key === 'link' || /_link$/.test(key ?? '')) ? 'LinkFigures' : 'Record<string, unknown>';
  return typeof v;
}

/** The interface name of an op: 'exercise.solve' -> 'ExerciseSolve'. */
export const pascal = (op) => op.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/** {op: {requests: n, request: {field: {types, count}}, answer: {...}}} from the engine's answers. */
export function shapes(lab, lines) {
  const ops = lab.ops().map((o) => o.op);
  const out = Object.fromEntries(ops.map((op) => [op, { requests: 0, request: {}, answer: {} }]));
  for (const line of lines) {
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (!r || typeof r !== 'object' || Array.isArray(r) || !Object.hasOwn(out, r.op)) continue;
    const a = lab.evaluate(r);
    if (a.error) continue;
    const shape = out[r.op];
    shape.requests += 1;
    for (const [which, obj] of [['request', r], ['answer', a]]) {
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'op') continue;
        const f = (shape[which][k] ??= { types: new Set(), count: 0 });
        const t = typeOf(v, k, which === 'request');
        for (const x of t === 'number | string' ? ['number', 'string'] : [t]) f.types.add(x);
        f.count += 1;
      }
    }
  }
  return out;
}

function fields(map, n) {
  return Object.keys(map).sort().map((k) => {
    const f = map[k];
    return `  ${k}${f.count === n ? '' : '?'}: ${[...f.types].sort().join(' | ')};`;
  });
}

export function declaration(lab, lines) {
  const all = shapes(lab, lines);
  const ops = Object.keys(all);
  const missing = ops.filter((op) => all[op].requests === 0);
  if (missing.length) throw new Error(`no golden request answers ${missing.join(', ')}: add one to tests/golden/requests.ndjson`);
  const blocks = ops.map((op) => {
    const s = all[op];
    const name = pascal(op);
    return [
      `/** \`${op}\`: ${lab.ops().find((o) => o.op === op).summary} */`,
      `export interface ${name}Request {`, `  op: '${op}';`, ...fields(s.request, s.requests), '}',
      `export interface ${name}Answer {`, `  op: '${op}';`, ...fields(s.answer, s.requests), '}',
    ].join('\n');
  });
  return `// The JS door's types (wasm/README.md "The JS door"). Written by wasm/tools/dts.mjs from the
// engine's op list and its answers to tests/golden/requests.ndjson: do not edit by hand.

/** A link given by its figures instead of a catalogue id (P5 §3): latency and effective bandwidth. */
export interface LinkFigures {
  alpha_s: number;
  beta_Bps: number;
}

${blocks.join('\n\n')}

/** Every op's request, by op. */
export interface Requests {
${ops.map((op) => `  '${op}': ${pascal(op)}Request;`).join('\n')}
}

/** Every op's answer, by op. */
export interface Answers {
${ops.map((op) => `  '${op}': ${pascal(op)}Answer;`).join('\n')}
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
  /** Request text in, answer text out, exactly as \`commlab eval\`. */
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
  /** The answer to installing \`options.exercises\`, when given. */
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
`;
}

export function goldenLines() {
  return readFileSync(`${ROOT}tests/golden/requests.ndjson`, 'utf8').split('\n').filter((l) => l.trim());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { loadCommlab } = await import(pathToFileURL(`${ROOT}build-wasm/wasm/commlab.js`).href);
  const { folderExercises } = await import(pathToFileURL(`${ROOT}tests/node/exercises.mjs`).href);
  const lab = await loadCommlab({ exercises: folderExercises() });
  const text = declaration(lab, goldenLines());
  if (process.argv.includes('--check')) {
    const same = readFileSync(DTS, 'utf8') === text;
    console.log(same ? 'wasm/commlab.d.ts is current' : 'wasm/commlab.d.ts differs: run node wasm/tools/dts.mjs');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(DTS, text);
  console.log(`wrote ${DTS} (${Object.keys(shapes(lab, goldenLines())).length} ops)`);
}
