#!/usr/bin/env node
// A tiny static server for dist/ on 127.0.0.1, used by `./lab serve` and by the browser tests.
// Usage: node web/tools/serve.mjs <folder> [port]   (port 0: any free port)
//        COMMLAB_FRAME_ANCESTORS="'self' https://course.example.edu" lets that site frame the page.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMPRESSIBLE, ENCODINGS } from './compress.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

// The page's own policy (index.html's meta tag) as a header, so it also covers what a meta tag
// cannot: frame-ancestors, which decides who may frame the page. Each HTML file keeps the
// policy of its own meta tag (the single-file build allows its inline code by hash).
const DEFAULT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'";
const META_CSP = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;

/**
 * Who may frame the page: a frame-ancestors source list ("'self' https://course.example.edu").
 * Each source is 'self', 'none', a scheme ("https:") or an origin with an optional wildcard
 * host or port; anything else (a ';' or ',' that would start another directive) is refused.
 */
export function parseFrameAncestors(text) {
  const sources = String(text).trim().split(/\s+/).filter(Boolean);
  const valid = /^('self'|'none'|[a-z][a-z0-9+.-]*:|[a-z][a-z0-9+.-]*:\/\/(\*\.)?[a-z0-9.-]+(:(\d+|\*))?|(\*\.)?[a-z0-9.-]+(:(\d+|\*))?)$/i;
  if (sources.length === 0) throw new Error("frame ancestors: empty; allowed: 'self', 'none' or origins");
  for (const s of sources) {
    if (!valid.test(s)) {
      throw new Error(`frame ancestors: source ${JSON.stringify(s)} is not allowed; allowed: 'self', 'none', ` +
        'a scheme (https:) or an origin (https://course.example.edu, https://*.example.edu)');
    }
  }
  if (sources.includes("'none'") && sources.length > 1) throw new Error("frame ancestors: 'none' must stand alone");
  return sources.join(' ');
}

/** The security headers of one response: CSP (with frame-ancestors), nosniff, referrer policy. */
export function securityHeaders(body, type, frameAncestors) {
  const headers = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  if (type.startsWith('text/html')) {
    const meta = META_CSP.exec(body.toString('utf8'));
    headers['content-security-policy'] = `${meta ? meta[1] : DEFAULT_CSP}; frame-ancestors ${frameAncestors}`;
    // Older browsers know only X-Frame-Options, which can say "same origin" but not a list.
    if (frameAncestors === "'self'") headers['x-frame-options'] = 'SAMEORIGIN';
    if (frameAncestors === "'none'") headers['x-frame-options'] = 'DENY';
  }
  return headers;
}

// A file name carrying a content hash (app.3f2a9c1d.js) never changes content: cache it for a
// year. Anything else may change under the same name: revalidate each time (ETag, 304).
const HASHED_NAME = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function cacheControl(path) {
  return HASHED_NAME.test(path) ? IMMUTABLE : 'no-cache';
}

/**
 * The content encoding to send, given an Accept-Encoding header and the encodings on disk:
 * br over gzip (smaller), else 'identity'. A q of 0 refuses; '*' stands for unnamed ones.
 */
export function negotiate(acceptEncoding, available) {
  const q = new Map();
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const accepts = (name) => (q.has(name) ? q.get(name) : (q.get('*') ?? 0)) > 0;
  return ['br', 'gzip'].find((name) => available.includes(name) && accepts(name)) ?? 'identity';
}

// ETags are hashes of the bytes sent, so a rebuild with the same content still answers 304.
// Files are read once per (path, size, mtime) and kept: dist/ is a few megabytes.
const cache = new Map();

async function readCached(path) {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path}: not a file`);
  const hit = cache.get(path);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit;
  const body = await readFile(path);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  const entry = { size: info.size, mtimeMs: info.mtimeMs, body, etag };
  cache.set(path, entry);
  return entry;
}

/**
 * The real path of `path` (every symlink followed) when it lies inside `realRoot` (itself a real
 * path), else null: a symlink in the folder that points out of it is not served.
 */
export async function realPathInside(path, realRoot) {
  let real;
  try {
    real = await realpath(path);
  } catch {
    return null;
  }
  const prefix = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
  return real === realRoot || real.startsWith(prefix) ? real : null;
}

/** True when an If-None-Match header names `etag` (weak comparison, as for GET). */
function matches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  const strip = (tag) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

/**
 * Serves `dir` on 127.0.0.1:`port`; resolves to {url, close}. `frameAncestors` (default: the
 * COMMLAB_FRAME_ANCESTORS environment variable, else 'self') lists who may frame the page.
 * A file X is sent as its precompressed sibling X.br or X.gz (web/tools/compress.mjs) when the
 * client accepts it and the sibling is not older than X; X.br and X.gz are never resources of
 * their own (404). Nothing whose real path (symlinks followed) lies outside the folder's real
 * path is served (404), nor a path that climbs out of it (403).
 */
export function serve(dir, port = 0, { frameAncestors = process.env.COMMLAB_FRAME_ANCESTORS ?? "'self'" } = {}) {
  const ancestors = parseFrameAncestors(frameAncestors);
  const root = resolve(dir);
  // The folder's own real path, once (it may itself be a symlink, say dist -> build/dist).
  const realRoot = realpath(root).catch(() => root);
  const notFound = (res) => res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
    .end('not found\n');
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'x-content-type-options': 'nosniff' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400, { 'x-content-type-options': 'nosniff' }).end();
      return;
    }
    let file = normalize(join(root, path));
    if (path.includes('\0') || (file !== root && !file.startsWith(root + sep))) {
      res.writeHead(403, { 'x-content-type-options': 'nosniff' }).end();
      return;
    }
    if (path.endsWith('/')) file = join(file, 'index.html');
    const ext = extname(file);
    if (Object.values(ENCODINGS).some(({ suffix }) => ext === suffix)) {
      notFound(res);
      return;
    }
    try {
      const base = await realRoot;
      const real = await realPathInside(file, base);
      if (!real) throw new Error(`${file}: not inside ${base}`);
      // Read by its real path; named (type, caching) by the name asked for.
      const original = await readCached(real);
      const type = Object.hasOwn(TYPES, ext) ? TYPES[ext] : 'application/octet-stream';
      const headers = {
        'content-type': type,
        'cache-control': cacheControl(file),
        ...securityHeaders(original.body, type, ancestors),
      };
      let sent = original;
      if (COMPRESSIBLE.has(ext)) {
        headers.vary = 'Accept-Encoding';
        const available = [];
        // A sibling older than X is stale (X was edited after compress.mjs ran): X is sent.
        const siblings = {};
        for (const [name, { suffix }] of Object.entries(ENCODINGS)) {
          const sibling = await realPathInside(file + suffix, base);
          const info = sibling && await stat(sibling).catch(() => null);
          if (info?.isFile() && info.mtimeMs >= original.mtimeMs) {
            available.push(name);
            siblings[name] = sibling;
          }
        }
        const encoding = negotiate(req.headers['accept-encoding'], available);
        if (encoding !== 'identity') {
          sent = await readCached(siblings[encoding]);
          headers['content-encoding'] = encoding;
        }
      }
      headers.etag = sent.etag;
      if (matches(req.headers['if-none-match'], sent.etag)) {
        delete headers['content-type'];
        res.writeHead(304, headers).end();
        return;
      }
      headers['content-length'] = sent.body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : sent.body);
    } catch {
      notFound(res);
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await serve(dir, Number(port));
  console.log(`commlab: serving ${dir} at ${url} (Ctrl-C stops); frame-ancestors ` +
    parseFrameAncestors(process.env.COMMLAB_FRAME_ANCESTORS ?? "'self'"));
}
