#!/usr/bin/env node
// The page's words are JSON in the source (web/util/strings/), imported as JSON modules
// (`import EN from './strings/en.json' with { type: 'json' }`), which Node and the browser both
// read. In <dist> each such import becomes the object itself, written into the module that
// imports it, and the .json file goes: the words then come with their module, one request as
// before, preloaded with it (web/tools/preload.mjs) and inlined with it into the single-file page
// (web/tools/build-single.mjs), which handles modules only.
// Usage: node web/tools/inline-json.mjs <dist folder>
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const JSON_IMPORT_RE = /^import\s+([A-Za-z_$][\w$]*)\s+from\s+'(\.{1,2}\/[^']+\.json)'\s+with\s+\{\s*type:\s*'json'\s*\};?[ \t]*$/gm;

/** `code` (the module at `path`) with its JSON imports written in; calls `used` with each file. */
export function inlineJson(code, path, used = () => {}) {
  const out = code.replace(JSON_IMPORT_RE, (m, name, spec) => {
    const file = join(dirname(path), spec);
    used(file);
    // A string for JSON.parse, which V8 reads faster than the same object as a literal.
    return `const ${name} = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))))});`;
  });
  if (/^\s*import\s[^;]*\.json['"]/m.test(out)) throw new Error(`${path}: a JSON import this tool does not handle`);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2];
  if (!dist) {
    console.error('usage: node web/tools/inline-json.mjs <dist folder>');
    process.exit(2);
  }
  const inlined = new Set();
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const code = readFileSync(path, 'utf8');
    const out = inlineJson(code, path, (file) => inlined.add(file));
    if (out !== code) writeFileSync(path, out);
  }
  for (const file of inlined) rmSync(file);
  console.log(`inlined ${inlined.size} JSON files into their modules`);
}
