// The `nccl.topology` op natively and in wasm (core/OPS.md): NCCL_DEBUG=INFO logs of every format
// and launcher the synthesizer writes (tests/nccl_synth_topology.hpp), one with an nccl-tests
// table, the fuzz seeds, a 1,024-rank log and the errors answer alike byte for byte through the
// CLI and through the wasm module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadLab, ROOT } from './exercises.mjs';
import { CLI, NCCL_SYNTH } from './native.mjs';

const native = (requests) =>
  execFileSync(CLI, ['eval'], { input: requests.join('\n') + '\n', maxBuffer: 256 << 20 })
    .toString()
    .split('\n')
    .filter((l) => l !== '');
const synth = (...args) => execFileSync(NCCL_SYNTH, ['topology', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

test('NCCL INFO logs of every format and launcher read alike natively and in wasm', { skip: !existsSync(NCCL_SYNTH) }, async () => {
  const logs = [
    synth('--ranks', '16', '--nodes', '2', '--channels', '4', '--busbw', '150'),
    ...['2.19', '2.12', '2.7', '2.4', '2.3'].map((f) => synth('--ranks', '8', '--nodes', '2', '--channels', '2', '--format', f)),
    ...['openmpi', 'intelmpi', 'srun'].map((l) => synth('--ranks', '8', '--nodes', '2', '--channels', '2', '--launcher', l)),
    synth('--ranks', '16', '--nodes', '2', '--channels', '2', '--nvls', '--busbw', '480'),
    synth('--ranks', '8', '--nodes', '1', '--channels', '2', '--shm'),
    synth('--ranks', '16', '--nodes', '4', '--channels', '2', '--net', 'Socket', '--no-graph'),
    ...readdirSync(`${ROOT}tests/fuzz/logs/`).filter((f) => f.startsWith('topology_')).map((f) => readFileSync(`${ROOT}tests/fuzz/logs/${f}`, 'utf8')),
  ];
  const requests = logs.map((log) => JSON.stringify({ op: 'nccl.topology', log }));
  requests.push(JSON.stringify({ op: 'nccl.topology', log: logs[0], gpu: 'b200', nic: 'roce400' }),
    JSON.stringify({ op: 'nccl.topology', log: '' }), JSON.stringify({ op: 'nccl.topology', log: 'hello\n' }),
    JSON.stringify({ op: 'nccl.topology', log: logs[0], nic: 'warp' }));
  const answers = native(requests);
  assert.equal(answers.length, requests.length);
  const lab = await loadLab();
  requests.forEach((req, i) => assert.equal(lab.evaluateText(req), answers[i], `request ${i}`));
  const first = JSON.parse(answers[0]);
  assert.equal(first.communicators[0].ranks, 16);
  assert.equal(first.communicators[0].nodes.length, 2);
  assert.ok(['matches', 'below', 'above'].includes(first.communicators[0].explanation.verdict));
  assert.equal(JSON.parse(answers.at(-3)).error.code, 'invalid_value');
});

test('a 1,024-rank log reads alike natively and in wasm', { skip: !existsSync(NCCL_SYNTH) }, async () => {
  const log = synth('--ranks', '1024', '--nodes', '128', '--channels', '16');
  const req = JSON.stringify({ op: 'nccl.topology', log });
  const lab = await loadLab();
  const wasm = lab.evaluateText(req);
  assert.equal(wasm, native([req])[0]);
  const comm = JSON.parse(wasm).communicators[0];
  assert.equal(comm.ranks, 1024);
  assert.equal(comm.nodes.length, 128);
  assert.ok(comm.channels.every((c) => (c.rebuilt_ring ?? c.ring).length === 1024), 'each ring whole (rebuilt where NCCL cut it)');
});
