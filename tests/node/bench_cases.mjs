// The calculator requests both wasm benchmarks run (Node: bench_wasm.mjs; Chromium:
// tests/bench/chromium_requests.mjs), the same texts as tests/bench/bench_evaluate.cpp, and the
// one timing loop they share.
export const CALCULATOR_CASES = {
  transfer: '{"op":"transfer","link":"nvlink4","bytes":65536}',
  allreduce_ring: '{"op":"allreduce","algorithm":"ring","devices":16,"bytes":262144,"link":"ib_ndr"}',
  allreduce_auto: '{"op":"allreduce","algorithm":"auto","devices":64,"bytes":1000000,"link":"ib_ndr"}',
  hierarchical:
    '{"op":"allreduce","algorithm":"hierarchical","nodes":4,"gpus_per_node":8,"bytes":1e9,"intra_link":"nvlink4","inter_link":"ib_ndr"}',
  bad_request: '{"op":"transfer","link":"warp","bytes":-1}',
  // The request behind every calculator move of an exercise card: its compute section run.
  exercise1_solve: '{"op":"exercise.solve","id":1}',
  exercise2_solve: '{"op":"exercise.solve","id":2}',
  exercise3_solve: '{"op":"exercise.solve","id":3}',
  exercise4_solve: '{"op":"exercise.solve","id":4}',
  exercise5_solve: '{"op":"exercise.solve","id":5}',
  exercise6_solve: '{"op":"exercise.solve","id":6}',
  exercise7_solve: '{"op":"exercise.solve","id":7}',
  exercise8_solve: '{"op":"exercise.solve","id":8}',
};

/**
 * Microseconds a request of `evaluateText(text)` takes: 2,000 calls to warm up (V8 tiers the
 * module up), then batches of 1,000 until half a second has passed, by wall time; with
 * `cpuUsage` (Node's process.cpuUsage) the CPU time of those batches too. Self-contained (no
 * imports, no closure): Playwright runs this same function in the page.
 */
export function timeRequest(lab, text, cpuUsage = null) {
  for (let i = 0; i < 2000; i++) lab.evaluateText(text);
  let n = 0;
  const start = performance.now();
  const cpuStart = cpuUsage?.();
  let elapsed = 0;
  while (elapsed < 500) {
    for (let i = 0; i < 1000; i++) lab.evaluateText(text);
    n += 1000;
    elapsed = performance.now() - start;
  }
  const cpu = cpuUsage?.(cpuStart);
  return { us_per_request: (elapsed * 1000) / n, cpu_us_per_request: cpu ? (cpu.user + cpu.system) / n : null };
}
