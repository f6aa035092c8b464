// The static server sends the page's security headers (README "Embedding in a course site"):
// its CSP as a header with frame-ancestors, nosniff on every response.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFrameAncestors, serve } from '../../web/tools/serve.mjs';

const dir = mkdtempSync(join(tmpdir(), 'commlab-serve-'));
writeFileSync(join(dir, 'index.html'),
  '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'; object-src \'none\'"><p>hi');
writeFileSync(join(dir, 'app.js'), 'export {};');

async function headersOf(server, path) {
  const res = await fetch(server.url + path);
  await res.arrayBuffer();
  return res.headers;
}

test('the page comes with its CSP as a header, framing by its own origin only by default', async () => {
  const server = await serve(dir, 0, { frameAncestors: "'self'" });
  try {
    const h = await headersOf(server, '');
    assert.equal(h.get('content-security-policy'), "default-src 'self'; object-src 'none'; frame-ancestors 'self'");
    assert.equal(h.get('x-content-type-options'), 'nosniff');
    assert.equal(h.get('x-frame-options'), 'SAMEORIGIN');
    assert.equal((await headersOf(server, 'app.js')).get('x-content-type-options'), 'nosniff');
    assert.equal((await headersOf(server, 'missing.js')).get('x-content-type-options'), 'nosniff');
  } finally {
    await server.close();
  }
});

test('a host lists the course sites that may frame the page', async () => {
  const server = await serve(dir, 0, { frameAncestors: "'self' https://course.example.edu" });
  try {
    const h = await headersOf(server, 'index.html');
    assert.match(h.get('content-security-policy'), /; frame-ancestors 'self' https:\/\/course\.example\.edu$/);
    assert.equal(h.get('x-frame-options'), null); // it cannot express a list
  } finally {
    await server.close();
  }
});

test('a source list that would smuggle in another directive is refused', () => {
  assert.throws(() => parseFrameAncestors("'self'; script-src *"), /not allowed/);
  assert.throws(() => parseFrameAncestors(''), /empty/);
  assert.throws(() => parseFrameAncestors("'none' https://a.example"), /alone/);
  assert.equal(parseFrameAncestors('  https://*.example.edu   http://localhost:8080 '),
    'https://*.example.edu http://localhost:8080');
});
