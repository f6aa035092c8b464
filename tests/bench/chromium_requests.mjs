// The calculator requests of tests/node/bench_wasm.mjs timed in headless Chromium, where a
// student meets the engine: the shipped module (dist/engine/commlab.js) with the shipped exercise
// documents installed, the same timing loop (timeRequest) run in a page of the static server.
import { CALCULATOR_CASES, timeRequest } from '../node/bench_cases.mjs';
import { launch, serve } from '../browser/helpers.mjs';

/** {results: {case: {us}}, browser_version}: microseconds a request in Chromium, each case. */
export async function chromiumTimes(cases = CALCULATOR_CASES) {
  const server = await serve();
  const browser = await launch({ asUsers: true });
  try {
    const page = await browser.newPage();
    // A page of the server's origin that starts nothing of its own (index.html would boot the app
    // and its worker beside the measurement).
    await page.goto(`${server.url}/exercises/index.json`);
    await page.evaluate(`globalThis.timeRequest = ${timeRequest}`);
    const us = await page.evaluate(async (cases) => {
      const { loadCommlab } = await import('/engine/commlab.js');
      // The documents the server lists (exercises/index.json), each fetched.
      const { files: names } = await (await fetch('/exercises/index.json')).json();
      const files = await Promise.all(names.map(async (file) => ({ file, text: await (await fetch(`/exercises/${file}`)).text() })));
      const lab = await loadCommlab({ exercises: files });
      const problems = lab.installed.problems;
      if (problems.length) throw new Error(JSON.stringify(problems));
      const out = {};
      for (const [name, text] of Object.entries(cases)) {
        const reply = JSON.parse(lab.evaluateText(text));
        if (reply.error && name !== 'bad_request') throw new Error(`${name}: ${reply.error.message}`);
        out[name] = globalThis.timeRequest(lab, text).us_per_request;
      }
      return out;
    }, cases);
    const results = {};
    for (const [name, value] of Object.entries(us)) results[name] = { us: value };
    return { results, browser_version: browser.version() };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { results, browser_version: version } = await chromiumTimes();
  console.log(`wasm in Chromium ${version}`);
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(20)} ${r.us.toFixed(2).padStart(10)} us/request`);
}
