#!/usr/bin/env node
// A tiny static server for dist/ on 127.0.0.1, used by `./lab serve` and by the browser tests.
// Usage: node web/tools/serve.mjs <folder> [port]   (port 0: any free port)
//        COMMLAB_FRAME_ANCESTORS="'self' https://course.example.edu" lets that site frame the page.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/**
 * Serves `dir` on 127.0.0.1:`port`; resolves to {url, close}. `frameAncestors` (default: the
 * COMMLAB_FRAME_ANCESTORS environment variable, else 'self') lists who may frame the page.
 */
export function serve(dir, port = 0, { frameAncestors = process.env.COMMLAB_FRAME_ANCESTORS ?? "'self'" } = {}) {
  const ancestors = parseFrameAncestors(frameAncestors);
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400, { 'x-content-type-options': 'nosniff' }).end();
      return;
    }
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403, { 'x-content-type-options': 'nosniff' }).end();
      return;
    }
    if (path.endsWith('/')) file = join(file, 'index.html');
    try {
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, {
        'content-type': type,
        'cache-control': 'no-cache',
        ...securityHeaders(body, type, ancestors),
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
        .end('not found\n');
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
