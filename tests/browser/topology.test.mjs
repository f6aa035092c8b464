// What NCCL built, drawn in the measured view (?view=measured, views/topology.js): a 16-rank,
// two-node NCCL_DEBUG=INFO log with an nccl-tests table (written by the native nccl_synth) is
// pasted; every channel's drawn ring (`data-ring`) and tree (`data-tree`) are the engine's answer
// to nccl.topology, asked of the page's own module; the node boxes hold the ranks the engine
// placed on each host; the hops across nodes carry the transport NCCL printed; the explanation's
// figures and verdict are the engine's. Then the channel and tree choices, Chinese, 390 px (no
// sideways scroll, no text under 11 px, axe-core), and a 1,024-rank log drawn compact.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axeViolations, DESKTOP, engineEval, openPage, PHONE, screenshotDir, shot, smallText, useLab } from './helpers.mjs';
import { NCCL_SYNTH } from '../node/native.mjs';

const lab = useLab();
const synth = (...args) => execFileSync(NCCL_SYNTH, ['topology', ...args], { maxBuffer: 64 << 20 }).toString();

async function paste(page, text) {
  await page.evaluate((t) => {
    const box = document.querySelector('#m-log');
    box.value = t;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.waitForSelector('[data-role="fit-status"]:is([data-state="done"], [data-state="error"], [data-state="topology"])', { timeout: 30000 });
  await page.waitForSelector('[data-role="topology"]', { timeout: 30000 });
}

// What the page drew: each channel's ring and tree, the node boxes, the hops across nodes.
const drawn = (page) => page.evaluate(() => ({
  rings: [...document.querySelectorAll('g.topo-ring')].map((g) => ({ channel: Number(g.dataset.channel), ring: g.dataset.ring })),
  trees: [...document.querySelectorAll('g.topo-tree')].map((g) => ({ channel: Number(g.dataset.channel), tree: g.dataset.tree })),
  nodes: [...document.querySelectorAll('g.topo-node')].map((g) => ({ host: g.dataset.host, ranks: g.dataset.ranks })),
  net: [...document.querySelectorAll('g.topo-hop-net')].map((g) => `${g.dataset.from}>${g.dataset.to} ${g.dataset.transport}`),
  figure: { ...document.querySelector('[data-role="topo-drawing"]').dataset },
  explain: Object.fromEntries([...document.querySelectorAll('[data-role^="topo-"]')].map((e) => [e.dataset.role, { ...e.dataset, text: e.textContent }])),
}));

describe('what NCCL built, in the measured view', () => {
  test('a 16-rank two-node log: every channel\'s ring and tree are the engine\'s, the boxes its hosts, the explanation its figures', async () => {
    const log = synth('--ranks', '16', '--nodes', '2', '--channels', '4', '--busbw', '42');
    const ctx = await lab.fresh(DESKTOP);
    const page = await openPage(ctx, `${lab.server.url}?view=measured`, lab.errors);
    await paste(page, log);
    const topo = await engineEval(page, { op: 'nccl.topology', log });
    assert.ok(!topo.error, JSON.stringify(topo.error));
    const comm = topo.communicators[0];
    assert.equal(comm.ranks, 16);
    assert.equal(comm.nodes.length, 2);
    let d = await drawn(page);
    assert.deepEqual(d.rings, comm.channels.map((c) => ({ channel: c.channel, ring: (c.rebuilt_ring ?? c.ring).join(' ') })));
    assert.ok(d.rings.length >= 4, 'a ring a channel');
    const trees = [...new Set(comm.trees.map((x) => x.channel))].map((ch) => ({
      channel: ch, tree: comm.trees.filter((x) => x.channel === ch).map((x) => `${x.rank}:${x.parent}`).join(' '),
    }));
    assert.deepEqual(d.trees, trees);
    assert.deepEqual(d.nodes, comm.nodes.map((n) => ({ host: n.host, ranks: n.ranks.join(' ') })));
    // The drawn channel's hops across nodes: those of its ring whose ends the engine put on two hosts.
    const host = new Map(comm.nodes.flatMap((n, i) => n.ranks.map((r) => [r, i])));
    const ring = comm.channels[0].rebuilt_ring ?? comm.channels[0].ring;
    const across = ring.map((r, i) => [r, ring[(i + 1) % ring.length]]).filter(([a, b]) => host.get(a) !== host.get(b));
    assert.equal(d.net.length, across.length);
    assert.equal(across.length, comm.explanation.channels[0].cross_node_hops);
    for (const n of d.net) assert.match(n, /^\d+>\d+ NET\//, 'a hop across nodes carries its NET transport');
    // The explanation: the engine's prediction, measurement and verdict.
    const x = comm.explanation;
    assert.equal(Number(d.explain['topo-predicted'].busbwBps), x.predicted_busbw_Bps);
    assert.equal(Number(d.explain['topo-measured'].busbwBps), x.measured.busbw_Bps);
    assert.equal(d.explain['topo-verdict'].verdict, x.verdict);
    assert.equal(d.explain['topo-channel'].crossNodeHops, String(x.channels[0].cross_node_hops));
    // Another channel, then its tree.
    await page.locator('[data-role="topo-channel-pick"]').selectOption(String(comm.channels[1].channel));
    d = await drawn(page);
    assert.equal(d.figure.channel, String(comm.channels[1].channel));
    assert.equal(d.explain['topo-channel'].channel, String(comm.channels[1].channel));
    await page.locator('[data-role="topo-show-pick"]').selectOption('tree');
    await page.waitForSelector('g.topo-tree path, g.topo-tree circle');
    assert.equal((await drawn(page)).figure.show, 'tree');
    assert.equal(await page.locator('g.topo-tree circle.topo-root').count(), comm.trees.filter((x) => x.channel === comm.channels[1].channel && x.parent < 0).length);

    // Chinese and 390 px: the same drawing, nothing sideways, no text under 11 px, axe-core.
    const dir = screenshotDir();
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') await page.locator('[data-action="language"]').click();
      await page.locator('[data-role="topo-show-pick"]').selectOption('ring');
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, `${lang} ${viewport.width}: sideways scroll`);
        assert.deepEqual(await smallText(page, '[data-role="topology"]'), [], `${lang} ${viewport.width}`);
        if (lang === 'en') assert.deepEqual(await axeViolations(page), []);
        await shot(page.locator('[data-role="topology"]'), { path: join(dir, `topology-${lang}-${viewport.width}.png`) });
      }
      assert.deepEqual((await drawn(page)).rings, d.rings, 'the rings stay through the switch and resize');
    }
    await ctx.close();
    assert.deepEqual(lab.errors, []);
  });

  test('1,024 ranks on 128 nodes are drawn compact, each ring the engine\'s', async () => {
    const log = synth('--ranks', '1024', '--nodes', '128', '--channels', '8', '--no-noise');
    const ctx = await lab.fresh(DESKTOP);
    const page = await openPage(ctx, `${lab.server.url}?view=measured`, lab.errors);
    const t0 = Date.now();
    await paste(page, log);
    const t_ms = Date.now() - t0;
    const d = await drawn(page);
    assert.equal(d.figure.compact, 'true');
    assert.equal(d.nodes.length, 128);
    const topo = await engineEval(page, { op: 'nccl.topology', log });
    assert.deepEqual(d.rings.map((r) => r.ring), topo.communicators[0].channels.map((c) => (c.rebuilt_ring ?? c.ring).join(' ')));
    assert.ok(t_ms < 15000, `pasted to drawn in ${t_ms} ms`);
    await ctx.close();
    assert.deepEqual(lab.errors, []);
  });
});
