#!/usr/bin/env node
// The embind binding (wasm/bindings.cpp, through wasm/commlab.js) against the C binding it
// replaced (tests/bench/c_binding.cpp, built by ./lab bench as build-wasm/wasm/commlab_cbind),
// on the same requests in one Node process: microseconds per request through each and the
// difference, the binding's cost per request.
// Usage: node tests/bench/binding.mjs [--json]
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CALCULATOR_CASES, timeRequest } from '../node/bench_cases.mjs';
import { folderExercises } from '../node/exercises.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const CBIND = `${ROOT}build-wasm/wasm/commlab_cbind`;

/** The C binding's door: the request written into the module's buffer, the answer read from memory. */
async function loadCBinding() {
  const { default: create } = await import(pathToFileURL(`${CBIND}.mjs`).href);
  const m = await create({ wasmBinary: readFileSync(`${CBIND}.wasm`) });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const answer = m._commlab_answer() >> 2;
  let room = 0;
  let input = null;
  return {
    evaluateText(text) {
      if (!input || text.length * 3 > room || input.buffer !== m.HEAPU8.buffer) {
        room = Math.max(room, text.length * 3, 4096);
        const at = m._commlab_request_buffer(room);
        input = m.HEAPU8.subarray(at, at + room);
      }
      const { written } = encoder.encodeInto(text, input);
      m._commlab_evaluate(written);
      const at = m.HEAPU32[answer];
      return decoder.decode(m.HEAPU8.subarray(at, at + m.HEAPU32[answer + 1]));
    },
  };
}

/** [{label, embind_us, c_us, overhead_us}] or null when the C binding's module is not built. */
export async function bindingCost() {
  if (!existsSync(`${CBIND}.mjs`)) return null;
  const { loadCommlab } = await import(pathToFileURL(`${ROOT}build-wasm/wasm/commlab.js`).href);
  const files = folderExercises();
  const embind = await loadCommlab({ exercises: files });
  const c = await loadCBinding();
  c.evaluateText(JSON.stringify({ op: 'exercise.install', files }));
  const rows = [];
  for (const [label, text] of Object.entries(CALCULATOR_CASES)) {
    // The same answer through both, or the comparison means nothing.
    if (embind.evaluateText(text) !== c.evaluateText(text)) throw new Error(`${label}: the two bindings answer differently`);
    const e = timeRequest(embind, text).us_per_request;
    const b = timeRequest(c, text).us_per_request;
    rows.push({ label, embind_us: e, c_us: b, overhead_us: e - b });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await bindingCost();
  if (!rows) {
    console.log('build-wasm/wasm/commlab_cbind.mjs is missing: cmake --build build-wasm --target commlab_cbind');
    process.exit(1);
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 2));
  else for (const r of rows) console.log(`${r.label.padEnd(18)} embind ${r.embind_us.toFixed(2)} us, C ${r.c_us.toFixed(2)} us, cost ${r.overhead_us.toFixed(2)} us`);
}
