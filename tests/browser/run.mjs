// Runs the browser test files (all of tests/browser/, or those named) one after another against
// one Chromium started here: each file connects to it (helpers.launch) instead of starting and
// stopping its own. ./lab test runs this.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_OPTIONS } from './helpers.mjs';

const files = process.argv.slice(2);
const server = await chromium.launchServer(CHROMIUM_OPTIONS);
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...(files.length ? files : [fileURLToPath(new URL('.', import.meta.url))])], {
  stdio: 'inherit',
  env: { ...process.env, COMMLAB_BROWSER_WS: server.wsEndpoint() },
});
const code = await new Promise((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
await server.close();
process.exit(code);
