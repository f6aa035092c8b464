// Inside a node and between nodes (?view=node, P5 §2.2 and §2.3) in headless Chromium: the picture
// has the preset's GPUs, NICs and rails (the engine's presets), every link's hover title and table
// row carry the engine's α and β (its links op), the inside-against-outside sentence is the
// engine's ladder (9× for a DGX H100, 18× for a GB200 NVL72); the traffic choice highlights where
// each parallelism's traffic goes; Topics links to it; axe-core; no sideways scroll; screenshots.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkViewLayout, DESKTOP, openPage, useLab } from './helpers.mjs';
import { formatTime } from '../../web/util/units.js';
import { engine } from './engine.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);
const settled = (page, { node, nodes, traffic = 'none' }) => page.waitForSelector(
  `[data-view="node"][data-node="${node}"][data-nodes="${nodes}"][data-traffic="${traffic}"]:not([aria-busy]) .node-svg`, { timeout: 20000 });

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await settled(zh, { node: 'dgx_h100', nodes: 2, traffic: 'pp' }); // as the layout checks set it up
  assert.match(await zh.locator('#node-between').textContent(), /节点内是节点外的 9 倍/);
}

const lab = useLab();

describe('node view', () => {
  test('GPUs, NICs, rails and links are the engine\'s; the ratio is its ladder\'s; traffic highlights follow the choice', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=node`, errors);
    const view = page.locator('[data-view="node"]');
    assert.equal(await view.getAttribute('data-lecture'), '2.2');
    assert.equal(await page.locator('#node-between').getAttribute('data-lecture'), '2.3');
    const presets = engine({ op: 'presets' });
    const links = engine({ op: 'links' }).links;
    for (const [id, nodes] of [['dgx_h100', 2], ['gb200_nvl72', 3]]) {
      if (id !== 'dgx_h100') {
        await page.locator('#node-pick').selectOption(id);
        await page.locator('#node-count').fill(String(nodes));
      }
      await settled(page, { node: id, nodes });
      const preset = presets.nodes.find((p) => p.id === id);
      assert.equal(await page.locator('.node-gpu').count(), preset.gpus * nodes);
      assert.equal(await page.locator('.node-nic-box').count(), preset.nics * nodes);
      assert.equal(await page.locator('.node-rail').count(), preset.nics);
      const ladder = engine({ op: 'ladder', node: id }).node;
      assert.equal(Number(await view.getAttribute('data-ratio')), ladder.ratio);
      assert.equal(Number(await view.getAttribute('data-inside-bps')), ladder.inside_Bps);
      assert.equal(Number(await view.getAttribute('data-outside-bps')), ladder.outside_Bps);
      assert.match(await page.locator('#node-between').textContent(), new RegExp(`inside is ${ladder.ratio}× outside`));
      for (const [part, linkId] of [['node-nvlink', preset.intra_link], ['node-nic', preset.nic_link]]) {
        const l = links.find((x) => x.id === linkId);
        const title = await page.locator(`g.${part} > title`).textContent();
        assert.ok(title.startsWith(`${l.label}: α ${formatTime(l.alpha_s)}, β `), title);
        assert.equal(await page.locator(`g.${part}`).getAttribute('data-link'), linkId);
        assert.equal(await page.locator(`details.chart-table tr[data-link="${linkId}"] td`).nth(2).textContent(), formatTime(l.alpha_s));
      }
    }
    assert.match(await page.locator('#node-between').textContent(), /^GB200 NVL72: 72 GPUs on NVLink 5 .* inside is 18× outside/);
    // Traffic: TP on the first node's NVLink; PP on the NICs and rails; DP nowhere.
    await page.locator('#node-pick').selectOption('dgx_h100');
    await page.locator('#node-count').fill('2');
    await page.locator('#node-traffic').selectOption('tp');
    await settled(page, { node: 'dgx_h100', nodes: 2, traffic: 'tp' });
    assert.equal(await page.locator('.node-nvlink line.node-hot').count(), 8);
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 0);
    assert.match(await page.locator('[data-role="placement"]').textContent(), /^Tensor parallelism: .* stay on NVLink 4/);
    await page.locator('#node-traffic').selectOption('pp');
    await settled(page, { node: 'dgx_h100', nodes: 2, traffic: 'pp' });
    assert.equal(await page.locator('.node-nvlink line.node-hot').count(), 0);
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 16);
    assert.equal(await page.locator('.node-hot-rails').count(), 1);
    await page.locator('#node-count').fill('1');
    await settled(page, { node: 'dgx_h100', nodes: 1, traffic: 'pp' });
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 0);
    assert.match(await page.locator('[data-role="placement"]').textContent(), /draw two nodes or more/);
    await page.locator('#node-traffic').selectOption('dp');
    await settled(page, { node: 'dgx_h100', nodes: 1, traffic: 'dp' });
    assert.equal(await page.locator('.node-hot, .node-hot-rails').count(), 0);
    // Extremes and out of range.
    await page.locator('#node-count').fill('8');
    await settled(page, { node: 'dgx_h100', nodes: 8, traffic: 'dp' });
    await page.locator('#node-count').fill('9');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'Nodes drawn: 9 is not allowed; allowed a whole number from 1 to 8. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'node', { ready: async (page) => {
    await settled(page, { node: 'dgx_h100', nodes: 2 });
    await page.locator('#node-traffic').selectOption('pp');
    await settled(page, { node: 'dgx_h100', nodes: 2, traffic: 'pp' });
  }, errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
