// The schedule player's replay model and layout, without a page (views/player_model.js,
// views/player_layout.js): stepping through a schedule shows the right step and what each
// device holds; devices are placed inside the drawing without overlapping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayModel, simulateRequest } from '../../web/views/player_model.js';
import { deviceLayout, overlaps } from '../../web/views/player_layout.js';
import { loadLab } from './exercises.mjs';

// Broadcast from device 0 to two others, one copy a step (a buffer of three blocks).
const copy = (src, dst) => ({ src, dst, op: 'copy', chunk: [0, 3, 3], bytes: 300 });
const broadcast = {
  devices: 3, collective: 'broadcast', algorithm: 'binary_tree', root: 0, time_s: 3e-6,
  schedule: { steps: [{ time_s: 1e-6, messages: 1, trace: [copy(0, 1)] }, { time_s: 2e-6, messages: 1, trace: [copy(0, 2)] }] },
};
const completeAt = (model) => [0, 1, 2].map((d) => model.device(d).complete);

test('stepping forward, back, to the first and the last step shows each step and what the devices hold', () => {
  const model = new ReplayModel();
  assert.equal(model.go(1), false, 'nothing to show before a schedule');
  model.load(broadcast);
  assert.equal(model.count, 2);
  assert.equal(model.step, 0);
  assert.equal(model.current, null);
  assert.deepEqual(completeAt(model), [true, false, false]);
  assert.deepEqual(model.device(1).cells.map((c) => c.holders), [[], [], []]);

  model.forward();
  assert.equal(model.step, 1);
  assert.equal(model.current, broadcast.schedule.steps[0]);
  assert.deepEqual(completeAt(model), [true, true, false]);
  assert.deepEqual(model.device(1).cells.map((c) => c.holders), [[0], [0], [0]]);
  assert.equal(model.device(2).progress, 0);

  model.last();
  assert.equal(model.step, 2);
  assert.ok(model.atEnd);
  assert.deepEqual(completeAt(model), [true, true, true]);
  assert.equal(model.elapsed(), 3e-6);
  model.forward();
  assert.equal(model.step, 2, 'kept at the last step');

  model.back();
  assert.equal(model.step, 1);
  assert.deepEqual(completeAt(model), [true, true, false]);
  model.first();
  model.back();
  assert.equal(model.step, 0, 'kept at the first step');
  assert.equal(model.go(7), true);
  assert.equal(model.step, 2);
});

test('playing advances step by step, stops at the end and starts again from the first', () => {
  const model = new ReplayModel();
  model.load(broadcast);
  assert.ok(model.play());
  assert.ok(model.playing);
  assert.ok(model.advance());
  assert.ok(model.advance());
  assert.equal(model.step, 2);
  assert.equal(model.advance(), false);
  assert.equal(model.playing, false);
  model.play();
  assert.equal(model.step, 0, 'played to the end: from the start again');
  model.pause();
  assert.equal(model.playing, false);
  assert.equal(model.delay(2), 350);
});

test('the engine\'s ring all-reduce: no device is complete before the last step, all are after it', async () => {
  const lab = await loadLab();
  const res = lab.evaluate(simulateRequest({ algorithm: 'ring', devices: 4, topology: 'ring', bytes: 1e6 }, { mode: 'accounting', trace_limit: 20000 }));
  const model = new ReplayModel();
  model.load(res);
  const complete = () => [0, 1, 2, 3].map((d) => model.device(d).complete);
  assert.equal(model.count, 6); // 2 (k - 1) steps
  for (let s = 0; s < model.count; ++s) {
    model.go(s);
    assert.deepEqual(complete(), [false, false, false, false], `step ${s}`);
  }
  model.last();
  assert.deepEqual(complete(), [true, true, true, true]);
  for (let d = 0; d < 4; ++d) for (const c of model.device(d).cells) assert.deepEqual(c.holders, [0, 1, 2, 3]);
});

// Device bodies: circles round a switch or ring, boxes in a grid of nodes.
const bodies = (lay) => lay.devices.map((p) => (lay.two ? { x: p.x, y: p.y, w: p.w, h: p.h } : { x: p.x - lay.r, y: p.y - lay.r, w: 2 * lay.r, h: 2 * lay.r }));
function assertPlaced(lay, n, what) {
  assert.equal(lay.devices.length, n, what);
  const boxes = bodies(lay);
  for (const [i, b] of boxes.entries()) {
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.w <= lay.W && b.y + b.h <= lay.H, `${what}: device ${i} inside ${lay.W} x ${lay.H}`);
    for (let j = 0; j < i; ++j) {
      const apart = lay.two ? !overlaps(b, boxes[j])
        : Math.hypot(lay.devices[i].x - lay.devices[j].x, lay.devices[i].y - lay.devices[j].y) >= 2 * lay.r;
      assert.ok(apart, `${what}: devices ${j} and ${i} overlap`);
    }
  }
}

test('the layout places every device inside the drawing, none over another', () => {
  for (const width of [390, 800]) {
    for (const devices of [2, 8, 16, 32, 64]) {
      for (const kind of ['ring', 'switch']) {
        const lay = deviceLayout({ devices, algorithm: 'ring', topology: { kind } }, width, 4);
        assertPlaced(lay, devices, `${devices} devices, ${kind}, ${width} px`);
        assert.ok(lay.W <= width || width < 560, 'the drawing fits a desktop stage');
      }
    }
    for (const [nodes, gpus] of [[2, 4], [4, 8], [8, 2], [8, 8]]) {
      const lay = deviceLayout({ devices: nodes * gpus, algorithm: 'hierarchical', topology: { kind: 'two_level', nodes, gpus_per_node: gpus } }, width, 4);
      assertPlaced(lay, nodes * gpus, `${nodes} x ${gpus}, ${width} px`);
    }
  }
});

test('each device\'s cells lie side by side in a strip, as many as asked', () => {
  const lay = deviceLayout({ devices: 8, algorithm: 'ring', topology: { kind: 'ring' } }, 800, 4);
  for (const p of lay.devices) {
    assert.equal(p.cells.length, 4);
    for (let c = 1; c < 4; ++c) {
      assert.equal(p.cells[c].y, p.cells[0].y);
      assert.ok(p.cells[c].x >= p.cells[c - 1].x + p.cells[c - 1].w, 'no cell over the one before');
    }
  }
  assert.equal(deviceLayout({ devices: 32, algorithm: 'ring', topology: { kind: 'ring' } }, 800, 4).devices[0].cells, null, 'beyond 16 devices: no cells');
});

// The matrix the schedule player offers (Explore, exercise 3 and 4), replayed on the engine's
// traces: every step's trace is complete, and the collectives whose result lands everywhere end
// with every device complete and none before the first step (P5 §4.1's definitions). The page
// draws what this model holds (tests/browser/player.test.mjs checks the drawing on a sample).
const FLAT = [2, 3, 5, 8, 12, 16, 24, 32, 64];
const TWO = [[2, 2], [2, 4], [4, 4], [4, 8], [3, 8], [2, 16], [8, 2], [16, 4]];
const ALGOS = ['ring', 'recursive_doubling', 'rabenseifner', 'binary_tree', 'double_binary_tree', 'in_switch'];
function playerMatrix() {
  const cases = [];
  const flat = (s) => ({ bytes: 1e6, link: 'nvlink4', topology: 'switch', ...s });
  for (const algorithm of ALGOS) for (const devices of FLAT) cases.push(flat({ algorithm, devices }));
  for (const algorithm of ['ring', 'recursive_doubling']) for (const devices of [5, 8, 12]) cases.push(flat({ algorithm, devices, topology: 'ring' }));
  for (const [nodes, gpus_per_node] of TWO) {
    for (const algorithm of ['hierarchical', 'ring', 'rabenseifner', 'double_binary_tree']) {
      cases.push({ algorithm, nodes, gpus_per_node, bytes: 1e6, topology: 'two_level', intra_link: 'nvlink4', inter_link: 'ib_ndr' });
    }
  }
  for (const devices of FLAT) {
    cases.push(flat({ collective: 'allgather', algorithm: 'ring', devices }), flat({ collective: 'reduce_scatter', algorithm: 'ring', devices }),
      flat({ collective: 'alltoall', algorithm: 'pairwise', devices }), flat({ collective: 'broadcast', algorithm: 'binomial_tree', devices }));
  }
  for (const devices of [3, 8, 16]) {
    cases.push(flat({ collective: 'alltoall', algorithm: 'direct', devices }), flat({ collective: 'broadcast', algorithm: 'scatter_allgather', devices }),
      flat({ collective: 'reduce', algorithm: 'reduce_scatter_gather', devices }));
  }
  cases.push({ collective: 'allgather', algorithm: 'ring', nodes: 4, gpus_per_node: 4, bytes: 1e6, topology: 'two_level' },
    { collective: 'alltoall', algorithm: 'pairwise', nodes: 2, gpus_per_node: 8, bytes: 1e6, topology: 'two_level' });
  return cases;
}

test('every schedule the player offers, replayed step by step, completes as its collective\'s definition says', async () => {
  const lab = await loadLab();
  const failures = [];
  let steps = 0;
  for (const c of playerMatrix()) {
    const res = lab.evaluate(simulateRequest(c, { mode: 'accounting', trace_limit: 20000 }));
    const what = JSON.stringify(c);
    if (res.error) { failures.push(`${what}: ${res.error.message}`); continue; }
    const model = new ReplayModel();
    model.load(res);
    const k = res.devices;
    const complete = () => Array.from({ length: k }, (_, d) => model.device(d).complete).filter((x) => x === true).length;
    for (const [s, st] of res.schedule.steps.entries()) {
      if ((st.trace ?? []).length !== st.messages) failures.push(`${what}: trace of step ${s + 1} has ${(st.trace ?? []).length} of ${st.messages} messages`);
      steps += 1;
    }
    if (['allreduce', 'allgather', 'reduce_scatter', 'alltoall'].includes(res.collective)) {
      if (complete() !== 0) failures.push(`${what}: ${complete()} devices complete before the first step`);
      model.last();
      if (complete() !== k) failures.push(`${what}: ${complete()} of ${k} devices complete at the last step`);
    } else if (res.collective === 'broadcast') {
      model.last();
      if (complete() !== k) failures.push(`${what}: broadcast: ${complete()} of ${k} devices hold the root's data at the end`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(steps > 1500, `${steps} steps`);
});
