// The native build that the Node and browser tests hold the wasm module against: build/ by
// default, the sanitizer build under ./lab test (COMMLAB_NATIVE, tests/README.md "Suites").
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NATIVE = process.env.COMMLAB_NATIVE ?? join(ROOT, 'build');
export const CLI = join(NATIVE, 'commlab');
export const NCCL_SYNTH = join(NATIVE, 'tests', 'nccl_synth');

/** The CLI's answer to one request. */
export const cli = (request) => JSON.parse(execFileSync(CLI, ['eval', JSON.stringify(request)]).toString());
