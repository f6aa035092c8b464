import { createServer } from 'node:http';
import { serve } from './helpers.mjs';
import { chromium } from 'playwright-core';
const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', ...(process.env.ARGS ? process.env.ARGS.split(' ') : [])] });
const lab = await serve(undefined, { frameAncestors: "'self' http://localhost:*" });
const page1 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
<div data-commlab-exercise="3"></div><div data-commlab-exercise="1"></div>
<script src="${lab.url}embed.js" defer></script></body></html>`;
const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page1));
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const browser = await launch();
const page = await browser.newPage();
if (process.env.CDP) {
  const cdp = await page.context().newCDPSession(page);
  console.log('setCookieControls', await cdp.send('Network.setCookieControls', { enableThirdPartyCookieRestriction: false, disableThirdPartyCookieMetadata: false, disableThirdPartyCookieHeuristics: false }).catch((e) => String(e)));
}
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
await page.goto(`http://localhost:${server.address().port}/`);
await page.waitForTimeout(4000);
const frames = page.frames().filter((f) => f.url().includes('exercise='));
for (const f of frames) {
  console.log(f.url(), await f.evaluate(async () => {
    const out = { storage: (() => { try { localStorage.length; return 'ok'; } catch (e) { return String(e); } })() };
    try {
      const w = new SharedWorker('engine/probe-shared.js', { name: 'probe' });
      out.created = true;
      out.reply = await new Promise((res) => { w.port.onmessage = (e) => res(e.data); w.onerror = (e) => res('error ' + e.message); w.port.postMessage('hi'); setTimeout(() => res('timeout'), 3000); });
    } catch (e) { out.error = String(e); }
    return out;
  }));
}
// Top level, same site as the lab:
const p2 = await browser.newPage();
await p2.goto(lab.url + '?exercise=3&embed=1');
await p2.waitForTimeout(2000);
console.log('top', await p2.evaluate(async () => { try { const w = new SharedWorker('engine/probe-shared.js', { name: 'probe' }); return await new Promise((res) => { w.port.onmessage = (e) => res(e.data); w.port.postMessage('hi'); setTimeout(() => res('timeout'), 3000); }); } catch (e) { return String(e); } }));
await browser.close(); server.close(); lab.close();
