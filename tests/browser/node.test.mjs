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
import { check, first, settled } from './truth/node.mjs';

const errors = [];
const fresh = (...args) => lab.fresh(...args);
// The view's settings as a student sets them; `check` holds the picture's parts, every link's
// figures, the ratio and its case and the highlights to the engine (truth/node.mjs, the truth walk's own).
const at = (changes = {}) => ({ ...first, ...changes });

// The view in Chinese at its defaults: checked on the Chinese page of the layout checks.
async function chinese(zh) {
  await check(zh, at({ traffic: 'pp' })); // as the layout checks set it up
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
      const { node: inside } = await check(page, at({ node: id, nodes }));
      const preset = presets.nodes.find((p) => p.id === id);
      assert.match(await page.locator('#node-between').textContent(), new RegExp(`inside is ${inside.ratio}× outside`));
      for (const [part, linkId] of [['node-nvlink', preset.intra_link], ['node-nic', preset.nic_link]]) {
        const l = links.find((x) => x.id === linkId);
        const title = await page.locator(`g.${part} > title`).textContent();
        assert.ok(title.startsWith(`${l.label}: α ${formatTime(l.alpha_s)}, β `), title);
        assert.equal(await page.locator(`details.chart-table tr[data-link="${linkId}"] td`).nth(2).textContent(), formatTime(l.alpha_s));
      }
    }
    assert.match(await page.locator('#node-between').textContent(), /^GB200 NVL72: 72 GPUs on NVLink 5 .* inside is 18× outside/);
    // Traffic: TP on the first node's NVLink; PP on the NICs and rails; DP nowhere (check counts the highlights).
    await page.locator('#node-pick').selectOption('dgx_h100');
    await page.locator('#node-count').fill('2');
    await page.locator('#node-traffic').selectOption('tp');
    await check(page, at({ traffic: 'tp' }));
    assert.equal(await page.locator('.node-nvlink line.node-hot').count(), 8);
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 0);
    assert.match(await page.locator('[data-role="placement"]').textContent(), /^Tensor parallelism: .* stay on NVLink 4/);
    await page.locator('#node-traffic').selectOption('pp');
    await check(page, at({ traffic: 'pp' }));
    assert.equal(await page.locator('.node-nvlink line.node-hot').count(), 0);
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 16);
    assert.equal(await page.locator('.node-hot-rails').count(), 1);
    await page.locator('#node-count').fill('1');
    await check(page, at({ nodes: 1, traffic: 'pp' }));
    assert.equal(await page.locator('.node-nic line.node-hot').count(), 0);
    assert.match(await page.locator('[data-role="placement"]').textContent(), /draw two nodes or more/);
    await page.locator('#node-traffic').selectOption('dp');
    await check(page, at({ nodes: 1, traffic: 'dp' }));
    assert.equal(await page.locator('.node-hot, .node-hot-rails').count(), 0);
    // Extremes and out of range.
    await page.locator('#node-count').fill('8');
    await check(page, at({ nodes: 8, traffic: 'dp' }));
    await page.locator('#node-count').fill('9');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'Nodes drawn: 9 is not allowed; allowed a whole number from 1 to 8. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px with the table open, screenshots; the Chinese sentences at the defaults', () => checkViewLayout(lab, 'node', { ready: async (page) => {
    await settled(page, first);
    await page.locator('#node-traffic').selectOption('pp');
    await settled(page, at({ traffic: 'pp' }));
  }, errors, more: async (page, lang, viewport) => {
    if (lang === 'zh' && viewport.width === DESKTOP.width) await chinese(page);
  } }));

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
