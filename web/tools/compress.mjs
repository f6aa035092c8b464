#!/usr/bin/env node
// Precompressed siblings for a static host: X.br (brotli, quality 11) and X.gz (gzip -9) beside
// every text or wasm file X of a folder, so the server (serve.mjs, nginx's gzip_static and
// brotli_static) sends them without compressing on each request.
// Usage: node web/tools/compress.mjs <folder> [--except <subfolder>]...
// `./lab build` leaves dist/exercises/ out: an instructor edits those documents in place on the
// server, and a host with gzip_static / brotli_static would go on sending the stale sibling.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Extensions worth compressing (images like .png are compressed already). */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg']);

/** Content encodings as served, each with its file suffix and its compressor at maximum effort. */
export const ENCODINGS = {
  br: {
    suffix: '.br',
    compress: (bytes) => brotliAsync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        // Text and wasm alike: generic mode, the brotli CLI's default.
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_GENERIC,
      },
    }),
  },
  gzip: { suffix: '.gz', compress: (bytes) => gzipAsync(bytes, { level: 9 }) },
};

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes X.br and X.gz for every compressible file X under `dir`, but those under the
 * subfolders named in `except`; a sibling that would not be smaller than X is not written (the
 * server then sends X itself). Resolves to [{path, raw_bytes, br_bytes, gzip_bytes}] (null where
 * not written). The files are compressed side by side in zlib's thread pool (every core).
 */
export async function compressFolder(dir, { except = [] } = {}) {
  const skipped = except.map((name) => join(dir, name) + sep);
  const paths = [...files(dir)].filter((path) => COMPRESSIBLE.has(extname(path)) && !skipped.some((s) => path.startsWith(s)));
  return Promise.all(paths.map(async (path) => {
    const raw = readFileSync(path);
    const row = { path, raw_bytes: raw.length };
    await Promise.all(Object.entries(ENCODINGS).map(async ([name, { suffix, compress }]) => {
      const packed = await compress(raw);
      row[`${name}_bytes`] = packed.length < raw.length ? packed.length : null;
      if (packed.length < raw.length) writeFileSync(path + suffix, packed);
    }));
    return row;
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const except = args.flatMap((a, i) => (args[i - 1] === '--except' ? [a] : []));
  const dir = args.find((a, i) => a !== '--except' && args[i - 1] !== '--except') ?? 'dist';
  const rows = await compressFolder(dir, { except });
  const sum = (key) => rows.reduce((s, r) => s + (r[key] ?? r.raw_bytes), 0);
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
  console.log(`compressed ${rows.length} files of ${dir}: ${kb(sum('raw_bytes'))} raw, ` +
    `${kb(sum('gzip_bytes'))} gzip -9, ${kb(sum('br_bytes'))} brotli q11`);
}
