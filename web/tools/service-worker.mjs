#!/usr/bin/env node
// Writes <dist>/sw.js from web/sw.js: the release's files and their version (a hash of their
// contents), and the version into index.html (<meta name="commlab-version">), which the page
// registers the worker under (app/offline.js). A file that changes makes a new release.
// Not cached: compressed siblings, SCORM packages, the single-file page, the course page and its
// script (course sites load those), and the engine's JS door for other pages.
// Usage: node web/tools/service-worker.mjs <dist folder>   (last before compress.mjs)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'sw.js');
const SKIP = [/\.(br|gz)$/, /^scorm\//, /^commlab-single\.html$/, /^course\.html$/, /^embed\.js$/, /^start\.js$/, /^sw\.js$/,
  /^engine\/commlab(\.js|\.d\.ts|_wasm\.mjs)$/, /LICENSE/,
  /^styles\.css$/, /^util\//]; // (the page has its stylesheets inline: web/tools/inline-head.mjs)

/** The release's files under `dist`, sorted, '/'-separated. */
export function releaseFiles(dist) {
  return readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dist, join(e.parentPath ?? e.path, e.name)).split(sep).join('/'))
    .filter((f) => !SKIP.some((re) => re.test(f)))
    .sort();
}

export function writeServiceWorker(dist) {
  const files = releaseFiles(dist);
  if (!files.includes('index.html')) throw new Error(`${dist}: no index.html`);
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(join(dist, f)));
  const version = hash.digest('hex').slice(0, 12);
  const source = readFileSync(SOURCE, 'utf8');
  if (!source.includes("'__VERSION__'") || !source.includes("['__FILES__']")) throw new Error('web/sw.js: the VERSION or FILES placeholder is missing');
  writeFileSync(join(dist, 'sw.js'), source.replace("'__VERSION__'", JSON.stringify(version))
    .replace("['__FILES__']", JSON.stringify(files)));
  const page = join(dist, 'index.html');
  const html = readFileSync(page, 'utf8');
  const meta = `<meta name="commlab-version" content="${version}">`;
  const next = html.replace(/<meta name="commlab-version" content="[^"]*">|(?=<title>)/, (m) => (m ? meta : `${meta}\n  `));
  if (!next.includes(meta)) throw new Error('index.html: no <title> to put the version before');
  writeFileSync(page, next);
  return { version, files: files.length, bytes: files.reduce((s, f) => s + readFileSync(join(dist, f)).length, 0) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2];
  if (!dist) {
    console.error('usage: node web/tools/service-worker.mjs <dist folder>');
    process.exit(2);
  }
  const r = writeServiceWorker(dist);
  console.log(`sw.js: release ${r.version}, ${r.files} files (${(r.bytes / 1024).toFixed(0)} KB) cached for repeat visits and offline`);
}
