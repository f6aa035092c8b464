// The wasm module as the tests use it: with the source tree's exercise documents installed
// (none is compiled in; the page's worker installs dist/exercises/ the same way).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The documents of a folder as the CLI reads it: its index.json's files, else every *.json but index.json and schema.json. */
export function folderExercises(dir = join(ROOT, 'exercises')) {
  let names;
  try {
    names = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).files;
  } catch {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'index.json' && n !== 'schema.json').sort();
  }
  return names.map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

/** A fresh engine with the documents of `dir` (the source tree's exercises/) installed. */
export async function loadLab(dir) {
  const lab = await loadCommlab({ exercises: folderExercises(dir) });
  if (lab.installed.problems.length) throw new Error(`exercises do not install: ${JSON.stringify(lab.installed.problems)}`);
  return lab;
}
