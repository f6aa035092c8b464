// How the page writes sizes (web/util/units.js): decimal units, the lab's; an exact power of two
// from 1 KiB up in binary units, as the lecture's "64 KB" of 65,536 B means 64 KiB (the engine's
// displays alike: tests/unit_quantity*); another whole number of KiB, MiB or GiB that four
// figures would round says its binary size beside.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes } from '../../web/util/units.js';

test('powers of two in binary units; other sizes decimal, a rounded whole number of KiB, MiB or GiB said beside', () => {
  assert.equal(formatBytes(1024), '1 KiB');
  assert.equal(formatBytes(65536), '64 KiB');
  assert.equal(formatBytes(8 * 1024 ** 2), '8 MiB');
  assert.equal(formatBytes(1024 ** 3), '1 GiB');
  assert.equal(formatBytes(64 * 1024 ** 2 * 3), '201.3 MB (192 MiB)');
  assert.equal(formatBytes(3 * 1024 ** 3), '3.221 GB (3 GiB)');
  // Exact in four figures, or not a whole number of KiB: decimal alone.
  assert.equal(formatBytes(1536), '1.536 KB');
  assert.equal(formatBytes(3072), '3.072 KB');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(64e3), '64 KB');
  assert.equal(formatBytes(1e9), '1 GB');
  assert.equal(formatBytes(123456), '123.5 KB');
  assert.equal(formatBytes(0.5), '0.5 B');
  assert.equal(formatBytes(Number.NaN), '–');
});
