// Runs the browser test files (all of tests/browser/, or those named) one after another against
// one Chromium and one static server of dist/ started here (two: as deployed, and framed by a
// course site on localhost): each file connects to them (helpers.launch, helpers.serve) instead
// of starting its own. ./lab test runs this.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_OPTIONS, DIST, FRAMED_BY_LOCALHOST } from './helpers.mjs';
import { serve } from '../../web/tools/serve.mjs';

const files = process.argv.slice(2);
// Each file appends its page loads here (helpers.mjs); printed at the end, the most first.
const loadsFile = join(fileURLToPath(new URL('../../build-wasm/', import.meta.url)), `page-loads-${process.pid}.tsv`);
mkdirSync(join(loadsFile, '..'), { recursive: true });
rmSync(loadsFile, { force: true });
const browser = await chromium.launchServer(CHROMIUM_OPTIONS);
const servers = [await serve(DIST, 0), await serve(DIST, 0, { frameAncestors: FRAMED_BY_LOCALHOST })];
// COMMLAB_BROWSER_JOBS files at a time (default 1: the long-task and timing checks assume the
// machine is not shared with another file).
const jobs = Number(process.env.COMMLAB_BROWSER_JOBS ?? 1);
const child = spawn(process.execPath, ['--test', `--test-concurrency=${jobs}`, ...(files.length ? files : [fileURLToPath(new URL('.', import.meta.url))])], {
  stdio: 'inherit',
  env: {
    ...process.env,
    COMMLAB_BROWSER_WS: browser.wsEndpoint(),
    COMMLAB_LOADS_FILE: loadsFile,
    COMMLAB_SERVER_URLS: JSON.stringify({ default: servers[0].url, [FRAMED_BY_LOCALHOST]: servers[1].url }),
  },
});
const code = await new Promise((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
if (existsSync(loadsFile)) {
  const rows = readFileSync(loadsFile, 'utf8').trim().split('\n').map((line) => line.split('\t')).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, n]) => sum + Number(n), 0);
  console.log(`# page loads: ${total} in ${rows.length} files (${rows.slice(0, 8).map(([f, n]) => `${f.replace('tests/browser/', '')} ${n}`).join(', ')}, ...)`);
  rmSync(loadsFile);
}
for (const s of servers) await s.close();
await browser.close();
process.exit(code);
