// The engine's answer to a request, for the browser tests to hold a view against: the full wasm
// module in this Node process, with the source tree's exercises (tests/node/golden.test.mjs holds
// it to the native CLI, request by request).
import { loadLab } from '../node/exercises.mjs';

const lab = await loadLab();

/** The engine's answer to `request` (an error answer included). */
export const engine = (request) => lab.evaluate(request);
