// The friendly JS door to the engine: loads the wasm module and wraps the one JSON request
// API (SPEC "One request API, three doors"). evaluate() never throws; the typed calls throw a
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
  constructor(module) {
    this.#module = module;
  }

  /** Request text in, response text out, exactly as the CLI's `commlab eval`. */
  evaluateText(requestText) {
    const m = this.#module;
    const text = String(requestText);
    // UTF-8 takes at most 3 bytes per UTF-16 unit; the module's buffer is reused.
    const room = text.length * 3;
    const at = m._commlab_request_buffer(room);
    const { written } = encoder.encodeInto(text, m.HEAPU8.subarray(at, at + room));
    const out = m._commlab_evaluate(written);
    const bytes = m._commlab_answer_bytes();
    return decodeAnswer(m.HEAPU8, out, bytes);  // HEAPU8 read after the call: memory may grow
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
}

// Short ASCII answers (the calculators') are read by hand: TextDecoder's fixed cost per call
// is larger than this loop over a few hundred bytes.
function decodeAnswer(heap, at, bytes) {
  const view = heap.subarray(at, at + bytes);
  if (bytes > 2048) return decoder.decode(view);
  for (let i = 0; i < bytes; i++) if (view[i] > 0x7f) return decoder.decode(view);
  return String.fromCharCode.apply(null, view);
}

const inNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/**
 * Loads the engine. `options.wasmBinary` may pass the bytes of commlab_wasm.wasm (the
 * single-file page does); otherwise the browser fetches it from beside this module and Node
 * reads it from disk.
 */
export async function loadCommlab(options = {}) {
  const settings = { ...options };
  if (!settings.wasmBinary && inNode) {
    const { readFile } = await import('node:fs/promises');
    settings.wasmBinary = await readFile(new URL('./commlab_wasm.wasm', import.meta.url));
  }
  const module = await createCommlabModule(settings);
  return new Commlab(module);
}
