// Measures what N frames of the lab cost a course page (web/README.md "Embedding in a course site",
// "One engine per page?"): the memory of the browser's processes (anonymous and shared PSS,
// /proc/<pid>/smaps_rollup,
// summed over every process of the Chromium this script starts, the page's cost as the increase
// over an empty tab) and the CPU time they spend (/proc/<pid>/stat) until every frame has said
// commlab:ready, and the time from navigation to the last ready.
//   node tests/browser/embed_bench.mjs [frames=8] [runs=3]
// COMMLAB_BENCH_ALLOW_3P=1 starts Chromium with third-party storage allowed (TrackingProtection3pcd
// off, as most browsers run today); by default this Debian Chromium blocks it in cross-site frames.
// COMMLAB_BENCH_SHARED=0: no shared engine (each frame its own worker, as before).
// Not a test: one Chromium, no assertion; run it on a quiet machine.
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumOptions } from '../../web/tools/chromium.mjs';
import { serve } from './helpers.mjs';

const FRAMES = Number(process.argv[2] ?? 8);
const RUNS = Number(process.argv[3] ?? 3);
const ALLOW_3P = process.env.COMMLAB_BENCH_ALLOW_3P === '1';
const TICKS_PER_S = 100; // USER_HZ on Linux

function descendants(root) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const out = [];
  const walk = (p) => { for (const [c, pp] of parent) if (pp === p) { out.push(c); walk(c); } };
  walk(root);
  return out;
}

/** {pss_bytes, cpu_s, processes} over every process below this one (the Chromium it started). */
function usage() {
  let pss = 0;
  let ticks = 0;
  const pids = descendants(process.pid);
  for (const pid of pids) {
    try {
      const roll = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      // Anonymous and shared memory only: the file pages (Chromium's own binary) are shared with
      // every other Chromium on the machine, so their share changes as others start and stop.
      for (const field of ['Pss_Anon', 'Pss_Shmem']) pss += Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(roll)?.[1] ?? 0) * 1000;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2).split(' ');
      ticks += Number(stat[11]) + Number(stat[12]); // utime, stime
    } catch { /* exited */ }
  }
  return { pss_bytes: pss, cpu_s: ticks / TICKS_PER_S, processes: pids.length };
}

const lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
const divs = Array.from({ length: FRAMES }, (_, i) => `<div data-commlab-exercise="${(i % 8) + 1}"></div>`).join('\n');
const body = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script>
window.ready = []; document.addEventListener('commlab-ready', () => window.ready.push(performance.now()));
</script>${divs}<script src="${lab.url}embed.js" defer></script>`;
const host = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body));
await new Promise((ok) => host.listen(0, '127.0.0.1', ok));

const rows = [];
for (let run = 0; run < RUNS; run++) {
  const browser = await chromium.launch(chromiumOptions(ALLOW_3P ? ['TrackingProtection3pcd'] : undefined));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // COMMLAB_BENCH_SHARED=0: every frame starts its own engine (app/start.js's dedicated worker).
  if (process.env.COMMLAB_BENCH_SHARED === '0') await ctx.addInitScript(() => { window.COMMLAB_NO_SHARED = true; });
  const page = await ctx.newPage();
  await page.goto('about:blank');
  await page.waitForTimeout(1500);
  const idle = usage();
  await page.goto(`http://localhost:${host.address().port}/`);
  await page.waitForFunction((n) => window.ready.length >= n, FRAMES, { timeout: 120000, polling: 50 });
  const ready_ms = await page.evaluate(() => Math.max(...window.ready));
  const atReady = usage();
  await page.waitForTimeout(3000); // settled (warm-up runs once idle)
  const settled = usage();
  // The engines running: shared workers are targets of their own; the frames say where theirs is.
  const cdp = await browser.newBrowserCDPSession();
  const shared = (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'shared_worker').length;
  rows.push({
    ready_ms: Math.round(ready_ms),
    cpu_to_ready_s: +(atReady.cpu_s - idle.cpu_s).toFixed(2),
    pss_at_ready_MB: +((atReady.pss_bytes - idle.pss_bytes) / 1e6).toFixed(1),
    pss_settled_MB: +((settled.pss_bytes - idle.pss_bytes) / 1e6).toFixed(1),
    processes: settled.processes, shared,
  });
  await browser.close();
}
const median = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
console.log(JSON.stringify({ frames: FRAMES, allow_3p: ALLOW_3P, shared_engine: process.env.COMMLAB_BENCH_SHARED !== '0', runs: rows,
  median: { ready_ms: median('ready_ms'), cpu_to_ready_s: median('cpu_to_ready_s'), pss_settled_MB: median('pss_settled_MB') } }, null, 1));
host.close();
await lab.close();
