// Runs the browser test files (all of tests/browser/, or those named) against the browsers and
// static servers of dist/ started here: Chromium's headless shell and the full Chromium
// (helpers.launch says which file takes which), and two servers (as deployed, and framed by a
// course site on localhost). Each file connects to them instead of starting its own. ./lab test
// runs this.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_OPTIONS, DIST, FRAMED_BY_LOCALHOST, SHELL_OPTIONS } from './helpers.mjs';
import { serve } from '../../web/tools/serve.mjs';

const files = process.argv.slice(2);
// Each file appends its page loads here (helpers.mjs); printed at the end, the most first.
const loadsFile = join(fileURLToPath(new URL('../../build-wasm/', import.meta.url)), `page-loads-${process.pid}.tsv`);
mkdirSync(join(loadsFile, '..'), { recursive: true });
rmSync(loadsFile, { force: true });
const browsers = [await chromium.launchServer(SHELL_OPTIONS), await chromium.launchServer(CHROMIUM_OPTIONS)];
const servers = [await serve(DIST, 0), await serve(DIST, 0, { frameAncestors: FRAMED_BY_LOCALHOST })];
// The files that time the page (long tasks while dragging or typing, a check's latency, a frame's
// ready within its 10 s) run first, two at a time and apart from the rest; the others
// COMMLAB_BROWSER_JOBS at a time (default 3: a page loading leaves a core waiting on the other's work).
const TIMED = ['author.test.mjs', 'embed.test.mjs', 'scorm.test.mjs', 'views.test.mjs'];
const jobs = Number(process.env.COMMLAB_BROWSER_JOBS ?? 3);
const here = fileURLToPath(new URL('.', import.meta.url));
// The longest files first (minutes each: the truth walk, Topics' links, the page), so that the
// pool does not end on one of them alone.
const LONG = ['walk.test.mjs', 'topics.test.mjs', 'page.test.mjs', 'engine_failure.test.mjs', 'storage.test.mjs', 'charts.test.mjs'];
const rank = (f) => { const i = LONG.indexOf(basename(f)); return i < 0 ? LONG.length : i; };
const all = (files.length ? files : readdirSync(here).filter((f) => f.endsWith('.test.mjs')).map((f) => join(here, f)))
  .sort((a, b) => rank(a) - rank(b));
const timed = all.filter((f) => TIMED.includes(basename(f)));
const rest = all.filter((f) => !TIMED.includes(basename(f)));
const env = {
  ...process.env,
  COMMLAB_BROWSER_WS: browsers[0].wsEndpoint(),
  COMMLAB_FULL_BROWSER_WS: browsers[1].wsEndpoint(),
  COMMLAB_LOADS_FILE: loadsFile,
  COMMLAB_SERVER_URLS: JSON.stringify({ default: servers[0].url, [FRAMED_BY_LOCALHOST]: servers[1].url }),
};
const run = (list, concurrency) => (list.length === 0 ? Promise.resolve(0) : new Promise((resolve) => {
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...list], { stdio: 'inherit', env });
  child.on('exit', (status) => resolve(status ?? 1));
}));
const code = Math.max(await run(timed, 2), await run(rest, jobs));
if (existsSync(loadsFile)) {
  const rows = readFileSync(loadsFile, 'utf8').trim().split('\n').map((line) => line.split('\t')).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, n]) => sum + Number(n), 0);
  console.log(`# page loads: ${total} in ${rows.length} files (${rows.slice(0, 8).map(([f, n]) => `${f.replace('tests/browser/', '')} ${n}`).join(', ')}, ...)`);
  rmSync(loadsFile);
}
for (const s of servers) await s.close();
for (const b of browsers) await b.close();
process.exit(code);
