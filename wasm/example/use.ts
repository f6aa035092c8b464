// A course page's script using the engine through the typed door (wasm/README.md "The JS door").
// `./lab test` checks it with tsc --noEmit (tests/node/types.test.mjs).
import { CommlabError, loadCommlab } from '../commlab.js';

const lab = await loadCommlab();
const answer = lab.evaluate({ op: 'allreduce', algorithm: 'ring', devices: 8, bytes: '1 GB', link: 'nvlink4' });
if ('error' in answer) {
  console.log(`refused: ${answer.error.code}: ${answer.error.message}`);
} else {
  console.log(`ring all-reduce of 1 GB on 8 GPUs: ${(answer.time_s * 1e3).toFixed(2)} ms in ${answer.steps} steps`);
}
try {
  const t = lab.call('transfer', { link: { alpha_s: 2e-6, beta_Bps: 360e9 }, bytes: 65536 });
  console.log(`64 KB: ${(t.time_s * 1e6).toFixed(2)} us, n½ = ${t.n_half_bytes} B`);
} catch (e) {
  if (e instanceof CommlabError) console.log(e.code);
}
console.log(lab.version().module, lab.ops().length);
