// dist/engine/first.json (web/tools/prerender.mjs) holds the engine's answers to the page's first
// batch, computed at build so the cards come alive before the wasm has loaded: each equals what
// the engine answers now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';

const file = new URL('../../dist/engine/first.json', import.meta.url);

test('the build\'s answers to the first batch are the engine\'s', { skip: !existsSync(file) && 'run ./lab build first' }, async () => {
  const kept = JSON.parse(readFileSync(file, 'utf8'));
  const lab = await loadCommlab();
  assert.ok(kept.requests.length >= 18, 'list, links, and a document and answers per exercise');
  assert.equal(kept.responses.length, kept.requests.length);
  kept.requests.forEach((request, i) => {
    assert.deepEqual(kept.responses[i], lab.evaluate(request), JSON.stringify(request));
  });
});
