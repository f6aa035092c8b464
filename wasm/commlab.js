// The friendly JS door to the engine: loads the wasm module and wraps the one JSON request
// API (core/README.md "One request API, three doors"). evaluate() never throws; the typed calls throw a
// CommlabError carrying the engine's code and message.
import createCommlabModule from './commlab_wasm.mjs';

export class CommlabError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'CommlabError';
    this.code = code;
  }
}

class Commlab {
  #module;
  constructor(module) {
    this.#module = module;
  }

  /** Request text in, response text out, exactly as the CLI's `commlab eval`. */
  evaluateText(requestText) {
    return this.#module.evaluate(String(requestText));
  }

  /** Every op this module answers, with a one-line summary each (the lean module's have none). */
  ops() {
    return JSON.parse(this.#module.ops()).ops;
  }

  /** {engine: the project's version, module: 'lean' or 'full'}. */
  version() {
    return this.#module.version();
  }

  /** Request object in, response object out; errors come back as {error: {code, message}}. */
  evaluate(request) {
    let text;
    try {
      text = JSON.stringify(request);
    } catch (e) {
      return { error: { code: 'invalid_json', message: `request could not be serialised: ${e.message}` } };
    }
    if (text === undefined) {
      return { error: { code: 'invalid_json', message: 'request: value is not allowed; allowed: a JSON object' } };
    }
    return JSON.parse(this.evaluateText(text));
  }

  /** Like evaluate, but throws CommlabError on an engine error. */
  call(op, fields = {}) {
    const out = this.evaluate({ ...fields, op });
    if (out.error) throw new CommlabError(out.error.code, out.error.message);
    return out;
  }

  // Typed calls for the common questions (P5 §3, §5).
  transfer(link, bytes) {
    return this.call('transfer', { link, bytes });
  }
  allreduce(algorithm, devices, bytes, link) {
    return this.call('allreduce', { algorithm, devices, bytes, link });
  }
  hierarchical(nodes, gpusPerNode, bytes, intraLink, interLink) {
    return this.call('allreduce', {
      algorithm: 'hierarchical', nodes, gpus_per_node: gpusPerNode, bytes,
      intra_link: intraLink, inter_link: interLink,
    });
  }
  collective(collective, devices, bytes, link, algorithm) {
    const fields = { collective, devices, bytes, link };
    if (algorithm !== undefined) fields.algorithm = algorithm;
    return this.call('collective', fields);
  }
  nccl(devices, bytes, link) {
    return this.call('nccl', { devices, bytes, link });
  }
  links() {
    return this.call('links').links;
  }

  /**
   * Installs the exercise documents the host ships (none is compiled in), replacing any before:
   * `files` is [{file: '01.json', text}]. Resolves to the engine's answer {exercises: [{id,
   * title, file}], problems: [{file, code, message}]}: a document with a problem is left out and
   * named, the others work. Throws CommlabError only for a malformed list.
   */
  installExercises(files) {
    return this.call('exercise.install', { files: [...files].map(({ file, text }) => ({ file, text })) });
  }
}

const inNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/**
 * Loads the engine. `options.wasmBinary` may pass the bytes of commlab_wasm.wasm (the
 * single-file page does); otherwise the browser fetches it from beside this module and Node
 * reads it from disk. `options.exercises` ([{file, text}]) are installed at once
 * (installExercises; its answer is `lab.installed`); without them no exercise is installed and
 * exercise requests answer `not_installed` until installExercises is called.
 */
export async function loadCommlab(options = {}) {
  const { exercises, ...settings } = options;
  if (!settings.wasmBinary && inNode) {
    const { readFile } = await import('node:fs/promises');
    settings.wasmBinary = await readFile(new URL('./commlab_wasm.wasm', import.meta.url));
  }
  const module = await createCommlabModule(settings);
  const lab = new Commlab(module);
  if (exercises) lab.installed = lab.installExercises(exercises);
  return lab;
}
