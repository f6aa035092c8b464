// The page's modulepreload links (web/tools/preload.mjs): every module boot.js reaches through
// static imports, none that the page imports lazily (the authoring view, SCORM, the section views).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BEGIN, END, staticGraph, withPreloads } from '../../web/tools/preload.mjs';
import { ROOT } from './exercises.mjs';

const WEB = join(ROOT, 'web');

test('the static graph holds what the page imports at start and nothing it imports lazily', () => {
  const graph = staticGraph(WEB, 'boot.js');
  assert.equal(graph[0], 'boot.js');
  for (const m of ['app/main.js', 'card/card.js', 'engine/door.js', 'util/i18n.js', 'app/address.js', 'util/own.js']) {
    assert.ok(graph.includes(m), `${m} is imported at start`);
  }
  for (const m of ['app/author.js', 'app/scorm.js', 'app/suspend.js', 'views/measured.js', 'views/topics.js', 'util/section_strings.js']) {
    assert.ok(!graph.includes(m), `${m} is imported only when asked for`);
  }
  assert.equal(new Set(graph).size, graph.length);
});

test('the links replace what was between the markers; markers missing is an error', () => {
  const html = `<head>\n  ${BEGIN}\n  <link rel="modulepreload" href="old.js">\n  ${END}\n</head>\n`;
  assert.equal(withPreloads(html, ['a.js', 'b/c.js']),
    `<head>\n  ${BEGIN}\n  <link rel="modulepreload" href="a.js">\n  <link rel="modulepreload" href="b/c.js">\n  ${END}\n</head>\n`);
  assert.throws(() => withPreloads('<head></head>', ['a.js']), /markers/);
});

test('dist/index.html preloads exactly the graph', { skip: !existsSync(join(ROOT, 'dist/index.html')) }, () => {
  const html = readFileSync(join(ROOT, 'dist/index.html'), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(preloaded, staticGraph(join(ROOT, 'dist'), 'boot.js').filter((m) => m !== 'boot.js'));
});
