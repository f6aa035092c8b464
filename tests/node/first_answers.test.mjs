// dist/engine/first.json (web/tools/prerender.mjs) holds the engine's answers to the page's first
// batch, computed at build so the cards come alive before the wasm has loaded: each equals what
// the engine answers now with the documents dist/exercises/ serves, and it names the fingerprint
// of each of those documents (the page uses the answers only while they are the served ones).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, folderExercises, loadLab } from './exercises.mjs';
import { documentHash, fingerprints, sameFingerprints } from '../../web/engine/documents.js';

const file = join(ROOT, 'dist/engine/first.json');
const served = join(ROOT, 'dist/exercises');

test('the build\'s answers to the first batch are the engine\'s', { skip: !existsSync(file) && 'run ./lab build first' }, async () => {
  const kept = JSON.parse(readFileSync(file, 'utf8'));
  const lab = await loadLab(served);
  assert.ok(kept.requests.length >= 18, 'list, links, and a document and answers per exercise');
  assert.equal(kept.responses.length, kept.requests.length);
  kept.requests.forEach((request, i) => {
    assert.deepEqual(kept.responses[i], lab.evaluate(request), JSON.stringify(request));
  });
  // Every document the build read, by its fingerprint; an edit of one changes it.
  const docs = folderExercises(served);
  assert.deepEqual(kept.documents, fingerprints(docs));
  assert.ok(docs.length >= 8);
  const edited = docs.map((d) => (d.file === '03.json' ? { ...d, text: d.text.replace('"en": "', '"en": "Edited. ') } : d));
  assert.equal(sameFingerprints(kept.documents, fingerprints(edited)), false);
  assert.equal(sameFingerprints(kept.documents, fingerprints(docs.slice(1))), false);
  assert.notEqual(documentHash('a'), documentHash('b'));
});

test('the shared engine\'s name carries the fingerprint of the engine the build ships', { skip: !existsSync(file) && 'run ./lab build first' }, async () => {
  // A frame opened after a release must not join the old engine still running on a course page
  // (web/start.js: a SharedWorker is matched by its address and name).
  const { createHash } = await import('node:crypto');
  const { readdirSync } = await import('node:fs');
  const engine = join(ROOT, 'dist/engine');
  const scripts = readdirSync(engine).filter((f) => f.endsWith('.js')).sort();
  const hash = createHash('sha256');
  for (const f of ['commlab_wasm.wasm', 'commlab_lean.wasm', 'commlab_wasm.mjs', ...scripts]) hash.update(readFileSync(join(engine, f)));
  const start = readFileSync(join(ROOT, 'dist/start.js'), 'utf8');
  assert.match(start, new RegExp(`name: 'commlab-engine-${hash.digest('hex').slice(0, 12)}'`));
  assert.doesNotMatch(start, /name: 'commlab-engine'/);
});
