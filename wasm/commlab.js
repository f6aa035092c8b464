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

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class Commlab {
  #module;
  #answer; // address of the module's {address, bytes} of the last answer
  #room = 0; // bytes of the module's request buffer
  #input = null; // a view of that buffer (renewed when the buffer or the memory grows)
  constructor(module) {
    this.#module = module;
    this.#answer = module._commlab_answer() >> 2;
  }

  /** Request text in, response text out, exactly as the CLI's `commlab eval`. */
  evaluateText(requestText) {
    const m = this.#module;
    const text = String(requestText);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (!this.#input || text.length * 3 > this.#room || this.#input.buffer !== m.HEAPU8.buffer) {
      this.#room = Math.max(this.#room, text.length * 3, 4096);
      const at = m._commlab_request_buffer(this.#room);
      this.#input = m.HEAPU8.subarray(at, at + this.#room);
    }
    const { written } = encoder.encodeInto(text, this.#input);
    m._commlab_evaluate(written);
    const at = m.HEAPU32[this.#answer]; // read after the call: memory may have grown
    return decoder.decode(m.HEAPU8.subarray(at, at + m.HEAPU32[this.#answer + 1]));
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
