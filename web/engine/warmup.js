// Warming the engine up: a fresh wasm module runs its first heavy request (the 1,024-device ring)
// 3-5x slower than later ones, until V8 has tiered its hot functions up from the baseline
// compiler. Measured under Node: after 30 rings of 64 devices and a pause (V8 tiers up in the
// background) the first 1,024-device ring takes 1.2x its warm time, against 3-4x cold. The
// worker runs them once the page is ready and idle (it says so: door.js warmUp), one per task,
// so a request from the page never waits behind more than one of them (each takes a few
// milliseconds). Earlier, on two cores, they slowed the page's start by about 100 ms.
export const WARMUP_REQUESTS = [
  ...Array.from({ length: 30 }, () =>
    '{"op":"simulate","collective":"allreduce","algorithm":"ring","devices":64,"bytes":1e9,"mode":"accounting","trace_limit":0}'),
  '{"op":"simulate","collective":"allreduce","algorithm":"ring","devices":8,"bytes":65536,"mode":"data","trace_limit":64}',
  '{"op":"allreduce","algorithm":"auto","devices":64,"bytes":1000000,"link":"ib_ndr"}',
];

/** Runs WARMUP_REQUESTS through `evaluate(text)`, each when `idle()` says nothing waits. */
export function warmWhenIdle(evaluate, idle, { delay_ms = 50 } = {}) {
  let next = 0;
  function step() {
    if (next >= WARMUP_REQUESTS.length) return;
    if (idle()) evaluate(WARMUP_REQUESTS[next++]);
    setTimeout(step, idle() ? 0 : delay_ms);
  }
  setTimeout(step, delay_ms);
}
