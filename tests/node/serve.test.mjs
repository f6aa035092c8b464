// The static server sends the page's security headers (web/README.md "Embedding in a course site"):
// its CSP as a header with frame-ancestors, nosniff on every response. It sends the precompressed
// siblings the build writes (web/tools/compress.mjs) and revalidates by ETag (web/README.md "Hosting").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressFolder } from '../../web/tools/compress.mjs';
import { cacheControl, negotiate, parseFrameAncestors, serve } from '../../web/tools/serve.mjs';

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

// A second folder, compressed as ./lab build does: a page, a module, a wasm-like binary, a file
// too small to gain from compression, a content-hashed name and a file beside the folder.
const site = mkdtempSync(join(tmpdir(), 'commlab-serve-site-'));
mkdirSync(join(site, 'dist', 'engine'), { recursive: true });
const dist = join(site, 'dist');
writeFileSync(join(dist, 'index.html'), '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'">' +
  '<p>'.concat('the same sentence again and again. '.repeat(200)));
writeFileSync(join(dist, 'app.js'), `export const words = ${JSON.stringify('abc def '.repeat(500))};\n`);
writeFileSync(join(dist, 'engine', 'engine.wasm'), Buffer.alloc(20000, 7));
writeFileSync(join(dist, 'tiny.json'), '1');
writeFileSync(join(dist, 'app.3f2a9c1d.js'), 'export const hashed = true; '.repeat(50));
writeFileSync(join(site, 'secret.txt'), 'outside dist');
await compressFolder(dist);

/** A raw GET (no transparent decompression): {status, headers, body}. */
function get(server, path, headers = {}, method = 'GET') {
  return new Promise((ok, fail) => {
    const req = request(server.url + path, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

async function withSite(fn) {
  const server = await serve(dist, 0);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

test('the build writes .br and .gz beside every compressible file that gains from it', () => {
  const original = readFileSync(join(dist, 'app.js'));
  assert.deepEqual(brotliDecompressSync(readFileSync(join(dist, 'app.js.br'))), original);
  assert.deepEqual(gunzipSync(readFileSync(join(dist, 'app.js.gz'))), original);
  assert.throws(() => readFileSync(join(dist, 'tiny.json.br')), /ENOENT/);
});

test('br is preferred, then gzip; the body decompresses to the original file', async () => {
  await withSite(async (server) => {
    for (const path of ['app.js', 'engine/engine.wasm', '']) {
      const original = readFileSync(join(dist, path || 'index.html'));
      const br = await get(server, path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(br.headers.vary, 'Accept-Encoding');
      assert.equal(Number(br.headers['content-length']), br.body.length);
      assert.ok(br.body.length < original.length, path);
      assert.deepEqual(brotliDecompressSync(br.body), original);
      const gz = await get(server, path, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(gunzipSync(gz.body), original);
      assert.notEqual(gz.headers.etag, br.headers.etag); // one ETag per representation
    }
    const wasm = await get(server, 'engine/engine.wasm', { 'accept-encoding': 'br' });
    assert.equal(wasm.headers['content-type'], 'application/wasm'); // the original's type, not the sibling's
    const js = await get(server, 'app.js', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
  });
});

test('identity without Accept-Encoding, for unknown encodings and for files without siblings', async () => {
  await withSite(async (server) => {
    for (const [path, accept] of [['app.js', undefined], ['app.js', 'deflate, zstd'], ['app.js', 'br;q=0, gzip;q=0'],
      ['tiny.json', 'br, gzip']]) {
      const res = await get(server, path, accept ? { 'accept-encoding': accept } : {});
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], undefined, `${path} ${accept}`);
      assert.deepEqual(res.body, readFileSync(join(dist, path)));
      assert.equal(Number(res.headers['content-length']), res.body.length);
    }
    assert.equal(negotiate('*', ['gzip']), 'gzip');
    assert.equal(negotiate('*;q=0, gzip', ['br', 'gzip']), 'gzip');
    assert.equal(negotiate('BR', ['br']), 'br');
  });
});

test('an ETag revalidates to 304 with no body, per encoding', async () => {
  await withSite(async (server) => {
    const first = await get(server, 'app.js', { 'accept-encoding': 'br' });
    assert.match(first.headers.etag, /^"[\w-]+"$/);
    const again = await get(server, 'app.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.headers.vary, 'Accept-Encoding');
    assert.equal(again.headers['cache-control'], 'no-cache');
    const weak = await get(server, 'app.js', { 'accept-encoding': 'br', 'if-none-match': `"x", W/${first.headers.etag}` });
    assert.equal(weak.status, 304);
    // The br representation's tag does not validate the gzip one.
    const other = await get(server, 'app.js', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
    assert.equal(other.status, 200);
    const page = await get(server, '', { 'if-none-match': (await get(server, '')).headers.etag });
    assert.equal(page.status, 304);
    assert.match(page.headers['content-security-policy'], /frame-ancestors 'self'$/);
  });
});

test('hashed file names are cached for a year, everything else revalidates', async () => {
  await withSite(async (server) => {
    const hashed = await get(server, 'app.3f2a9c1d.js', { 'accept-encoding': 'br' });
    assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(hashed.headers['content-encoding'], 'br');
    for (const path of ['', 'app.js', 'engine/engine.wasm']) {
      assert.equal((await get(server, path)).headers['cache-control'], 'no-cache', path);
    }
    assert.equal(cacheControl('/x/commlab_wasm.0123abcd.wasm'), 'public, max-age=31536000, immutable');
    assert.equal(cacheControl('/x/commlab_wasm.wasm'), 'no-cache');
    assert.equal(cacheControl('/x/app.3f2a9c1.js'), 'no-cache'); // seven digits: not a hash
    assert.equal(cacheControl('/deadbeef00/app.js'), 'no-cache'); // a folder's name does not count
  });
});

test('the siblings are not resources of their own; nothing outside the folder is served', async () => {
  await withSite(async (server) => {
    for (const path of ['app.js.br', 'app.js.gz', 'engine/engine.wasm.gz', 'missing.js']) {
      const res = await get(server, path, { 'accept-encoding': 'br, gzip' });
      assert.equal(res.status, 404, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
    for (const path of ['..%2fsecret.txt', '%2e%2e/secret.txt', 'engine/..%2f..%2fsecret.txt', 'app.js%00.br']) {
      const res = await get(server, path);
      assert.ok(res.status === 403 || res.status === 404, `${path}: ${res.status}`);
      assert.doesNotMatch(res.body.toString(), /outside dist/);
    }
    assert.equal((await get(server, '%E0%A4%A')).status, 400);
    assert.equal((await get(server, 'engine')).status, 404); // a folder without a slash
    const head = await get(server, 'app.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.ok(Number(head.headers['content-length']) > 0);
    assert.equal((await get(server, 'app.js', {}, 'POST')).status, 405);
  });
});

// An instructor edits a document in place after the build: its older siblings are not sent,
// and `./lab build` writes none for dist/exercises/ (compress.mjs --except exercises).
test('a sibling older than its file is stale: the edited file is sent; an excepted folder gets none', async () => {
  const edited = mkdtempSync(join(tmpdir(), 'commlab-serve-edited-'));
  mkdirSync(join(edited, 'exercises'));
  const doc = JSON.stringify({ statement: 'the lecture says so. '.repeat(100) });
  writeFileSync(join(edited, 'doc.json'), doc);
  writeFileSync(join(edited, 'exercises', '03.json'), doc);
  await compressFolder(edited, { except: ['exercises'] });
  assert.throws(() => readFileSync(join(edited, 'exercises', '03.json.br')), /ENOENT/);
  assert.ok(readFileSync(join(edited, 'doc.json.br')).length < doc.length);
  const server = await serve(edited, 0);
  try {
    assert.equal((await get(server, 'doc.json', { 'accept-encoding': 'br' })).headers['content-encoding'], 'br');
    const newer = doc.replace('the lecture', 'the edited lecture');
    writeFileSync(join(edited, 'doc.json'), newer);
    utimesSync(join(edited, 'doc.json'), new Date(), new Date(Date.now() + 5000));
    const res = await get(server, 'doc.json', { 'accept-encoding': 'br, gzip' });
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.body.toString(), newer);
  } finally {
    await server.close();
  }
});

// A symlink in the folder that points out of it (dist/leak.txt -> /etc/passwd) is not served,
// nor is anything under a linked folder outside; links that stay inside serve as their target.
test('symlinks out of the folder are refused; symlinks inside it and the folder as a symlink serve', async () => {
  const base = mkdtempSync(join(tmpdir(), 'commlab-serve-links-'));
  const folder = join(base, 'dist');
  const outside = join(base, 'outside');
  mkdirSync(join(folder, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(folder, 'index.html'), '<!doctype html><p>inside');
  writeFileSync(join(folder, 'inside.txt'), 'inside the folder');
  writeFileSync(join(folder, 'sub', 'page.js'), 'export const inside = 1;');
  writeFileSync(join(outside, 'secret.txt'), 'outside the folder');
  writeFileSync(join(outside, 'page.js'), 'export const outside = 1;');
  symlinkSync(join(outside, 'secret.txt'), join(folder, 'leak.txt'));
  symlinkSync('/etc/passwd', join(folder, 'passwd.txt'));
  symlinkSync(outside, join(folder, 'out'));
  symlinkSync('../outside/secret.txt', join(folder, 'sub', 'relative.txt'));
  symlinkSync(join(folder, 'inside.txt'), join(folder, 'alias.txt'));
  symlinkSync('sub', join(folder, 'subalias'));
  // A compressed sibling that points out of the folder is not sent: the file itself is.
  const js = `export const words = ${JSON.stringify('abc def '.repeat(500))};\n`;
  writeFileSync(join(folder, 'app.js'), js);
  writeFileSync(join(outside, 'app.js.br'), brotliCompressSync(Buffer.from('export const leaked = 1;')));
  symlinkSync(join(outside, 'app.js.br'), join(folder, 'app.js.br'));
  const linked = join(base, 'dist-link');
  symlinkSync(folder, linked);
  for (const dir of [folder, linked]) {
    const server = await serve(dir, 0);
    try {
      for (const path of ['leak.txt', 'passwd.txt', 'out/secret.txt', 'out/page.js', 'sub/relative.txt', 'out/']) {
        const res = await get(server, path);
        assert.ok(res.status === 404 || res.status === 403, `${dir} ${path}: ${res.status}`);
        assert.doesNotMatch(res.body.toString(), /outside the folder|root:|outside = 1/, path);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
      }
      const plain = await get(server, 'inside.txt');
      assert.equal(plain.status, 200);
      assert.equal(plain.body.toString(), 'inside the folder');
      const alias = await get(server, 'alias.txt');
      assert.equal(alias.status, 200);
      assert.equal(alias.body.toString(), 'inside the folder');
      const viaFolder = await get(server, 'subalias/page.js');
      assert.equal(viaFolder.status, 200);
      assert.equal(viaFolder.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(viaFolder.body.toString(), 'export const inside = 1;');
      const page = await get(server, '');
      assert.equal(page.status, 200);
      assert.match(page.headers['content-security-policy'], /frame-ancestors 'self'$/);
      const app = await get(server, 'app.js', { 'accept-encoding': 'br' });
      assert.equal(app.status, 200);
      assert.equal(app.headers['content-encoding'], undefined);
      assert.equal(app.body.toString(), js);
    } finally {
      await server.close();
    }
  }
});
