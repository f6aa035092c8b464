#!/usr/bin/env node
// Bundles the assembled page in <dist> with esbuild (web/README.md "How the page starts"):
//
// - boot.js: the entry module and every module it reaches through static imports, one file;
// - lazy/NAME-HASH.js: what the page imports only when asked (a Topics view, Explore, the author
//   and measured views, a card's pictures, SCORM, uPlot, the main-thread engine), split among
//   themselves. A lazy module that uses a module of boot.js takes boot.js's instance (its
//   namespace, exported by boot.js in `__core` under its path), never a second copy: the page's
//   state (language, engine door) exists once;
// - engine/worker.js: the worker and the engine's glue, one file.
//
// esbuild alone would put the code that boot.js shares with a lazy module into shared chunks,
// nine of them imported by boot.js: nine more requests before the page is usable.
// The module files bundled are then removed from <dist>; engine/commlab.js and its glue stay, the
// engine's JS door for other pages (wasm/README.md).
//
// Usage: node web/tools/bundle.mjs <dist folder>   (after inline-json.mjs: no JSON imports left)
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const TARGET = ['chrome100', 'firefox100', 'safari15'];
const posix = (p) => p.split(sep).join('/');
// Node's own modules, which the engine's glue imports only under Node.
const NODE_BUILTINS = ['node:*', 'module', 'fs', 'path', 'url', 'crypto', 'worker_threads'];

/** Every module of `dist` that `entry` reaches through static imports (absolute paths), and the
 *  targets of the dynamic imports met on the way that are not among them. */
async function graphOf(dist, entry) {
  const result = await esbuild.build({
    entryPoints: [join(dist, entry)], bundle: true, write: false, metafile: true, format: 'esm',
    splitting: true, outdir: join(dist, '.graph'), external: NODE_BUILTINS, logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const core = new Set();
  const visit = (path) => {
    const abs = resolve(path);
    if (core.has(abs)) return;
    core.add(abs);
    for (const i of inputs[path]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(relative(process.cwd(), join(dist, entry)));
  const lazy = new Set();
  for (const path of Object.keys(inputs)) {
    if (!core.has(resolve(path))) continue;
    for (const i of inputs[path].imports) if (i.kind === 'dynamic-import' && !i.external && !core.has(resolve(i.path))) lazy.add(resolve(i.path));
  }
  // The schedule player is an entry too, so that its tests take it by path (boot.js `__lazy`)
  // as the page has it. Each entry more splits the lazy chunks further (every view an entry:
  // Explore loaded in 14 requests instead of 1).
  const player = join(dist, 'views', 'player.js');
  if (Object.keys(inputs).some((p) => resolve(p) === player)) lazy.add(player);
  return { core: [...core], lazy: [...lazy] };
}

/** {absolute path: [export names]} of each module. */
async function exportsOf(paths) {
  const result = await esbuild.build({
    entryPoints: paths, bundle: false, write: false, metafile: true, format: 'esm',
    outdir: '/nonexistent-out', outbase: '/', logLevel: 'silent',
  });
  const out = {};
  for (const o of Object.values(result.metafile.outputs)) if (o.entryPoint) out[resolve(o.entryPoint)] = o.exports;
  return out;
}

export async function bundle(dist) {
  dist = resolve(dist);
  const { core, lazy } = await graphOf(dist, 'boot.js');
  const index = new Set(core);
  const key = (p) => posix(relative(dist, p));
  const names = await exportsOf(core);

  // Pass 1: the lazy modules, split among themselves into dist/lazy/ (one folder, so that
  // '../boot.js' names the page's boot.js from every file there).
  const toCore = {
    name: 'core-from-boot',
    setup(build) {
      build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        const abs = resolve(args.resolveDir, args.path);
        return index.has(abs) ? { path: abs, namespace: 'core' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'core' }, (args) => {
        const list = names[args.path] ?? [];
        const plain = list.filter((n) => n !== 'default');
        const lines = [`import { __core } from '../boot.js';`, `const m = __core[${JSON.stringify(key(args.path))}];`];
        if (plain.length) lines.push(`export const { ${plain.join(', ')} } = m;`);
        if (list.includes('default')) lines.push('export default m.default;');
        return { contents: lines.join('\n'), loader: 'js', resolveDir: dist };
      });
    },
  };
  const lazyBuild = lazy.length ? await esbuild.build({
    entryPoints: lazy, bundle: true, splitting: true, format: 'esm', minify: true, target: TARGET,
    outdir: dist, entryNames: 'lazy/[name]-[hash]', chunkNames: 'lazy/[name]-[hash]', metafile: true,
    external: [...NODE_BUILTINS, '../boot.js'], plugins: [toCore], logLevel: 'warning', legalComments: 'none',
  }) : { metafile: { outputs: {} } };
  const lazyOut = new Map();
  for (const [file, o] of Object.entries(lazyBuild.metafile.outputs)) {
    if (o.entryPoint) lazyOut.set(resolve(o.entryPoint.replace(/^[a-z-]+:/, '')), posix(relative(dist, resolve(file))));
  }

  // Pass 2: boot.js, the page's modules in one file, exporting their namespaces as `__core`
  // (and a loader of each lazy module as `__lazy`); its dynamic imports of lazy modules name
  // pass 1's files.
  const entry = join(dist, '.boot-entry.js');
  writeFileSync(entry, [
    ...core.map((p, i) => `import * as m${i} from './${posix(relative(dist, p))}';`),
    // By path under dist/: tests take the page's own instance of a module this way too.
    `export const __core = Object.freeze({ ${core.map((p, i) => `${JSON.stringify(key(p))}: m${i}`).join(', ')} });`,
    // And each lazy module's import, by the same path.
    `export const __lazy = Object.freeze({ ${[...lazyOut.keys()].map((p) => `${JSON.stringify(key(p))}: () => import('./${key(p)}')`).join(', ')} });`,
  ].join('\n'));
  const toLazy = {
    name: 'lazy-files',
    setup(build) {
      build.onResolve({ filter: /^\.{1,2}\//, namespace: 'file' }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const out = lazyOut.get(resolve(args.resolveDir, args.path));
        return out ? { path: `./${out}`, external: true } : undefined;
      });
    },
  };
  const bootFile = join(dist, 'boot.bundle.js');
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: 'esm', minify: true, target: TARGET, outfile: bootFile,
    external: NODE_BUILTINS, plugins: [toLazy], logLevel: 'warning', legalComments: 'none',
  });
  rmSync(entry);

  // Pass 3: the worker, with everything it imports (the glue, the documents' reader), one file.
  const workerFile = join(dist, 'engine', 'worker.bundle.js');
  await esbuild.build({
    entryPoints: [join(dist, 'engine', 'worker.js')], bundle: true, format: 'esm', minify: true, target: TARGET,
    outfile: workerFile, external: NODE_BUILTINS, logLevel: 'warning', legalComments: 'none',
  });

  // The sources bundled go; the bundles take the names the page and start.js load.
  const keep = new Set(['engine/commlab.js', 'engine/commlab_wasm.mjs', 'start.js', 'embed.js'].map((p) => join(dist, p)));
  const removed = [];
  for (const e of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath ?? e.path, e.name);
    if (!e.isFile() || !/\.m?js$/.test(e.name) || keep.has(path) || path.startsWith(join(dist, 'lazy') + sep)) continue;
    if (path === bootFile || path === workerFile) continue;
    rmSync(path);
    removed.push(path);
  }
  renameSync(bootFile, join(dist, 'boot.js'));
  renameSync(workerFile, join(dist, 'engine', 'worker.js'));
  for (const dir of ['app', 'card', 'views', 'util/strings']) removeEmpty(join(dist, dir));
  const html = join(dist, 'index.html');
  writeFileSync(html, readFileSync(html, 'utf8').replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, ''));
  return { core: core.length, lazy: lazyOut.size, files: Object.keys(lazyBuild.metafile.outputs).length, removed: removed.length };
}

function removeEmpty(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) removeEmpty(join(dir, e.name));
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2];
  if (!dist) {
    console.error('usage: node web/tools/bundle.mjs <dist folder>');
    process.exit(2);
  }
  const r = await bundle(dist);
  console.log(`bundled ${r.core} modules into boot.js, ${r.lazy} lazy entries into ${r.files} files under lazy/, the worker into engine/worker.js (${r.removed} sources removed)`);
}
