#!/usr/bin/env node
// The page's modulepreload links, written from its module graph: every module that boot.js
// reaches through static imports, so the browser fetches them all at once instead of level by
// level, and a module added or made lazy (import()) never leaves the list stale. They replace
// the lines between the two preload markers of <dist>/index.html.
// Usage: node web/tools/preload.mjs <dist folder>
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

// `import ... from './x.js'`, `export ... from './x.js'` and `import './x.js'` at a line's start
// (the page's modules keep one statement to a line); `import('./x.js')` is lazy and not matched.
const STATIC_IMPORT_RE = /^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s)?\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The modules `entry` reaches through static imports, as paths relative to `root`, in the order first met. */
export function staticGraph(root, entry) {
  const seen = new Set();
  const visit = (file) => {
    const rel = relative(root, file).split(sep).join('/');
    if (seen.has(rel)) return;
    seen.add(rel);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT_RE)) visit(normalize(join(dirname(file), m[1])));
  };
  visit(join(root, entry));
  return [...seen];
}

export const BEGIN = '<!-- modulepreload: begin (web/tools/preload.mjs) -->';
export const END = '<!-- modulepreload: end -->';

/** index.html with the links between the markers written for `modules`. */
export function withPreloads(html, modules) {
  const begin = html.indexOf(BEGIN);
  const end = html.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`index.html: the markers ${BEGIN} ... ${END} are missing`);
  const indent = html.slice(html.lastIndexOf('\n', begin) + 1, begin);
  const links = modules.map((m) => `${indent}<link rel="modulepreload" href="${m}">\n`).join('');
  return `${html.slice(0, begin + BEGIN.length)}\n${links}${indent}${html.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2];
  if (!dist) {
    console.error('usage: node web/tools/preload.mjs <dist folder>');
    process.exit(2);
  }
  // boot.js itself is the page's module script: the rest of the graph is preloaded.
  const modules = staticGraph(dist, 'boot.js').filter((m) => m !== 'boot.js');
  const file = join(dist, 'index.html');
  writeFileSync(file, withPreloads(readFileSync(file, 'utf8'), modules));
  console.log(`index.html: ${modules.length} modules preloaded`);
}
