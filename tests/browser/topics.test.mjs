// Topics (?view=topics) and its section views in headless Chromium: every section of the lecture
// in order with its heading, every link opened (drawn without console errors, carrying
// data-lecture of its section), the header button and the cards' links to their sections,
// axe-core, no sideways scroll at 390 px, screenshots in English and Chinese.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { axeViolations, DESKTOP, openPage, PHONE, screenshotDir, shot, useLab } from './helpers.mjs';
import { engine } from './engine.mjs';

const errors = [];
const fresh = (viewport = DESKTOP, locale = 'en-US') => lab.browser.newContext({ viewport, locale });

// A section id as a sortable tuple: "5.6" -> [5, 6], "5" -> [5, -1].
const order = (id) => { const [a, b] = id.split('.').map(Number); return [a, b ?? -1]; };
const before_ = (x, y) => { const [a, b] = order(x); const [c, d] = order(y); return a < c || (a === c && b < d); };

/** [{section, href}] of every link on the Topics page, each under its innermost section. */
function topicLinks(page) {
  return page.locator('[data-section] a[href]').evaluateAll((els) => els.map((a) => ({ section: a.closest('[data-section]').dataset.section, href: a.getAttribute('href'), exercise: a.dataset.exercise ?? null })));
}

async function axeClean(page, what) {
  assert.deepEqual(await axeViolations(page), [], what);
}

const lab = useLab();

describe('topics', () => {
  test('every section §0-§11 in the lecture\'s order, each with its heading, §1-§7 all there; a section without a view says so', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=topics`, errors);
    const sections = await page.locator('[data-section]').evaluateAll((els) => els.map((el) => ({
      id: el.dataset.section,
      heading: el.querySelector(':scope > h3, :scope > h4')?.textContent ?? '',
      links: el.querySelectorAll(':scope > ul a[href]').length,
      none: el.querySelector(':scope > .topic-none')?.textContent ?? '',
      children: el.querySelectorAll(':scope > [data-section]').length,
    })));
    const ids = sections.map((s) => s.id);
    for (let i = 1; i < ids.length; i++) assert.ok(before_(ids[i - 1], ids[i]), `${ids[i - 1]} before ${ids[i]}`);
    for (const top of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']) assert.ok(ids.includes(top), `§${top} is listed`);
    // The lecture's subsections of §1-§7 (P5: 2.1-2.5, 4.1-4.3, 5.1-5.7, 6.1-6.6, 7.1-7.4).
    for (const [n, count] of [[2, 5], [4, 3], [5, 7], [6, 6], [7, 4]]) {
      for (let k = 1; k <= count; k++) assert.ok(ids.includes(`${n}.${k}`), `§${n}.${k} is listed`);
      assert.ok(!ids.includes(`${n}.${count + 1}`), `no §${n}.${count + 1}`);
    }
    for (const s of sections) {
      assert.match(s.heading, new RegExp(`^§${s.id.replace('.', '\\.')} \\S`), `§${s.id} has its heading`);
      assert.ok(s.links > 0 || s.children > 0 || s.none === 'No view for this section yet.', `§${s.id}: links, subsections or "no view yet"`);
      if (s.links) assert.equal(s.none, '', `§${s.id} has links and says none`);
    }
    assert.match(sections.find((s) => s.id === '5.5').heading, /Hierarchical all-reduce/);
    assert.equal(await page.locator('#topics-link').getAttribute('aria-current'), 'page');
    assert.equal(await page.locator('[data-section="9"] .topic-none').count(), 1, '§9 has no view yet (web/README.md "Topics")');
    assert.equal(await page.locator('[data-section="1"] .topic-none').count(), 0, '§1 has the memory view');
    // In Chinese: the lecture's Chinese headings.
    const zh = await openPage(ctx, `${lab.server.url}?view=topics&lang=zh`, errors);
    assert.equal(await zh.locator('[data-section="5.5"] > h4').textContent(), '§5.5 分层 all-reduce');
    assert.equal(await zh.locator('[data-section="2"] > h3').textContent(), '§2 互连');
    assert.equal(await zh.locator('[data-section="9"] .topic-none').textContent(), '本节暂无视图。');
    await ctx.close();
  });

  test('each section view is linked from the sections it draws', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=topics`, errors);
    // The page each link opens is drawn and carries data-lecture of its section: the next test.
    const LINKS = [
      ['1', '?view=memory'], ['2.2', '?view=node'], ['2.3', '?view=node#node-between'], ['2.4', '?view=rdma'],
      ['2.5', '?view=decode#decode-summary'], ['4.2', '?view=bound'], ['4.3', '?view=moe#moe-skew'],
      ['5.7', '?view=decode'], ['6.1', '?view=compare#compare-row-dp'], ['6.1', '?view=memory#memory-replicas'],
      ['6.2', '?view=split'], ['6.2', '?view=split#split-place'], ['6.4', '?view=moe'], ['6.5', '?view=ring'],
      ['6.6', '?view=compare'],
    ];
    for (const [section, href] of LINKS) {
      assert.equal(await page.locator(`[data-section="${section}"] > ul a[href="${href}"]`).count(), 1, `§${section} links ${href}`);
    }
    await ctx.close();
  });

  test('every link on Topics opens a page that draws without console errors and carries data-lecture of its section', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=topics`, errors);
    const links = await topicLinks(page);
    await page.close();
    assert.ok(links.length >= 25, `${links.length} links`);
    const opened = new Set();
    const seen = new Set();
    const todo = links.filter(({ section, href }) => {
      // An exercise is listed under its section and again under §11: opened once.
      if (section === '11' && seen.has(href)) return false;
      seen.add(href);
      return true;
    });
    // Links that differ only in their fragment open one page: it is loaded once and holds each
    // link's section (a load costs 2-3 s here).
    const pages = new Map();
    for (const link of todo) {
      const url = new URL(link.href, lab.server.url);
      url.hash = '';
      if (!pages.has(url.href)) pages.set(url.href, []);
      pages.get(url.href).push(link);
    }
    // Three pages at a time (one browser), each going on to its next address: a navigation in
    // a page that is already open costs about half a first load in a new one here.
    const lane = async (share) => {
      const mine = [];
      let at = null;
      const p = await ctx.newPage();
      p.on('console', (msg) => { if (msg.type() === 'error') mine.push(`${at}: console: ${msg.text()}`); });
      p.on('pageerror', (err) => mine.push(`${at}: pageerror: ${err.message}`));
      for (const [url, group] of share) {
        at = url;
        await p.goto(url);
        await p.waitForSelector('html[data-ready="true"]', { timeout: 15000 });
        assert.equal(await p.locator('#link-problems [data-setting="view"]').count(), 0, `${url} is a view this build knows`);
        for (const { section, href, exercise } of group) {
          // §11 lists the exercises: each card carries the section it illustrates.
          const lecture = section === '11' && exercise ? await p.locator(`[data-exercise="${exercise}"]`).getAttribute('data-lecture') : section;
          assert.ok(lecture, `${href}: the card names its section`);
          await p.waitForSelector(`[data-lecture="${lecture}"]`, { state: 'attached', timeout: 20000 });
          if (exercise) assert.equal(await p.locator(`section.card[data-exercise="${exercise}"]:not([data-prerendered])`).count(), 1, `${href}: the live card`);
          const hash = new URL(href, lab.server.url).hash;
          if (hash) await p.waitForSelector(hash, { state: 'attached', timeout: 20000 }); // the place it points at
          opened.add(section);
        }
        await p.waitForTimeout(50);
        assert.deepEqual(mine, [], `${url}: no console errors`);
      }
      await p.close();
    };
    const walk = [...pages];
    await Promise.all([0, 1, 2].map((k) => lane(walk.filter((_, i) => i % 3 === k))));
    for (const s of ['0.5', '3', '4.1', '4.3', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '6.3', '6.5', '7.1', '7.2', '7.3', '7.4']) assert.ok(opened.has(s), `§${s} has a view that opened`);
    await ctx.close();
  });

  test('the header has Topics beside Explore (not in an embed); each card links its section on Topics', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}`, errors);
    assert.equal(await page.locator('#explore-link + #topics-link').getAttribute('href'), '?view=topics');
    assert.equal(await page.locator('#topics-link').textContent(), 'Topics');
    const card = page.locator('section.card[data-exercise="6"]:not([data-prerendered])');
    assert.equal(await card.getAttribute('data-lecture'), '6.3');
    const link = card.locator('.card-topic');
    assert.equal(await link.getAttribute('href'), '?view=topics#s-6.3');
    await link.click();
    await page.waitForSelector('html[data-ready="true"] [data-section="6.3"]');
    assert.equal(await page.evaluate(() => document.querySelector('[data-aimed]')?.dataset.section), '6.3');
    const box = await page.locator('[data-section="6.3"]').boundingBox();
    assert.ok(box.y > -2 && box.y < DESKTOP.height, `§6.3 scrolled into view (y ${box.y})`);
    const embedded = await openPage(ctx, `${lab.server.url}?exercise=3&embed=1`, errors);
    assert.equal(await embedded.locator('#topics-link').count(), 0, 'no Topics button in an embed');
    assert.equal(await embedded.locator('.card-topic').isVisible(), false, 'no link away from an embedded card');
    const zh = await openPage(ctx, `${lab.server.url}?lang=zh`, errors);
    assert.equal(await zh.locator('#topics-link').textContent(), '章节');
    await ctx.close();
  });

  test('the bandwidth ladder: every rung, ratio and the node\'s inside against outside are the engine\'s; the student\'s pair and efficiency', async () => {
    const ctx = await fresh();
    const page = await openPage(ctx, `${lab.server.url}?view=ladder`, errors);
    const view = page.locator('[data-view="ladder"]');
    assert.equal(await view.getAttribute('data-lecture'), '2.1');
    const want = engine({ op: 'ladder' });
    const rows = await page.locator('.ladder-row[data-link]').evaluateAll((els) => els.map((e) => ({ id: e.dataset.link, level: e.dataset.level, beta: Number(e.dataset.betaBps), alpha: Number(e.dataset.alphaS) })));
    assert.deepEqual(rows, want.rungs.map((r) => ({ id: r.id, level: r.level, beta: r.beta_Bps, alpha: r.alpha_s })));
    assert.deepEqual(rows.map((r) => r.id), ['hbm3', 'nvlink5', 'nvlink4', 'pcie5', 'pcie4', 'ib_ndr', 'roce400', 'ethernet', 'nvme'], 'HBM to NVMe');
    const claims = await page.locator('[data-role="claims"] [data-comparison]').evaluateAll((els) => els.map((e) => ({ faster: e.dataset.faster, slower: e.dataset.slower, ratio: Number(e.dataset.ratio), text: e.textContent })));
    assert.deepEqual(claims.map(({ faster, slower, ratio }) => ({ faster, slower, ratio })), want.comparisons.map((c) => ({ faster: c.faster, slower: c.slower, ratio: c.ratio })));
    assert.equal(claims[0].text, 'HBM3 (H100) is 7.44× faster than NVLink 4: 2.68 TB/s against 360 GB/s.');
    const node = page.locator('#ladder-node');
    assert.equal(await node.getAttribute('data-lecture'), '2.3');
    assert.equal(Number(await node.getAttribute('data-ratio')), want.node.ratio);
    assert.equal(await node.getAttribute('data-faster'), 'inside');
    assert.match(await node.locator('[data-role="node-note"]').textContent(), /3\.6 TB\/s .*400 GB\/s .*inside is 9× outside\.$/);
    // The student's pair: the engine says which is faster, whichever comes first.
    await page.locator('#ladder-a').selectOption('ethernet');
    await page.locator('#ladder-b').selectOption('nvme');
    const mine = engine({ op: 'ladder', pairs: [['ethernet', 'nvme']] }).comparisons[0];
    await page.waitForSelector('[data-role="yours"] [data-comparison="ethernet/nvme"]');
    const yours = page.locator('[data-role="yours"] [data-comparison]');
    assert.equal(await yours.getAttribute('data-faster'), mine.faster);
    assert.equal(await yours.getAttribute('data-faster'), 'nvme');
    assert.equal(Number(await yours.getAttribute('data-ratio')), mine.ratio);
    assert.equal(await yours.textContent(), 'NVMe SSD is 2.24× faster than Ethernet 25G (TCP): 5.6 GB/s against 2.5 GB/s.');
    await page.locator('#ladder-a').selectOption('roce400');
    await page.locator('#ladder-b').selectOption('ib_ndr');
    await page.waitForSelector('[data-role="yours"] [data-comparison="roce400/ib_ndr"]');
    assert.equal(await yours.textContent(), 'RoCE 400G and InfiniBand NDR are equally fast: 40 GB/s each.');
    // Another node, another efficiency: the engine's figures again.
    await page.locator('#ladder-node-pick').selectOption('gb200_nvl72');
    await page.locator('#ladder-efficiency').fill('0.5');
    await page.waitForSelector('[data-view="ladder"][data-efficiency="0.5"]:not([aria-busy]) #ladder-node[data-node="gb200_nvl72"]');
    const half = engine({ op: 'ladder', efficiency: 0.5, node: 'gb200_nvl72' });
    assert.equal(Number(await page.locator('.ladder-row[data-link="nvlink4"]').getAttribute('data-beta-bps')), half.rungs[2].beta_Bps);
    assert.equal(Number(await node.getAttribute('data-inside-bps')), half.node.inside_Bps);
    assert.equal(Number(await node.getAttribute('data-ratio')), half.node.ratio);
    // A value the engine would refuse is said in the page's words; nothing is drawn meanwhile.
    await page.locator('#ladder-efficiency').fill('2');
    assert.equal(await page.locator('[data-view="ladder"] [data-role="settings-error"]').textContent(), 'Efficiency: 2 is outside the allowed range; allowed 0.01 to 1. Nothing is drawn meanwhile.');
    assert.equal(await page.locator('[data-view="ladder"] [data-role="drawn"]').isHidden(), true);
    await page.locator('#ladder-efficiency').fill('0.01');
    await page.waitForSelector('[data-view="ladder"][data-efficiency="0.01"]:not([aria-busy]) [data-role="drawn"]:not([hidden])');
    // In Chinese, the engine's comparison in the lecture's words.
    const zh = await openPage(ctx, `${lab.server.url}?view=ladder&lang=zh`, errors);
    assert.equal(await zh.locator('[data-role="claims"] li').first().textContent(), 'HBM3 (H100) 比 NVLink 4 快 7.44 倍：2.68 TB/s 对 360 GB/s。');
    assert.match(await zh.locator('[data-role="node-note"]').textContent(), /节点内是节点外的 9 倍。$/);
    await ctx.close();
  });

  test('NCCL: the ring\'s protocol crossovers, the protocols\' payload shares, NVLS and the tuner\'s choice are the engine\'s; devices 2 and 1,024, 1 B and 1 GB draw', async () => {
    const ctx = await fresh();
    const mine = [];
    const page = await openPage(ctx, `${lab.server.url}?view=nccl`, mine);
    const view = page.locator('[data-view="nccl-view"]');
    const settled = (k, b, link) => page.waitForSelector(`[data-view="nccl-view"][data-devices="${k}"][data-bytes="${b}"][data-link="${link}"]:not([aria-busy]) [data-role="choice"][data-time-s]`, { timeout: 20000 });
    await settled(8, 1e6, 'nvlink4');
    assert.equal(await view.getAttribute('data-lecture'), '5.6');
    const check = async (k, b, link) => {
      const cross = engine({ op: 'crossover', kind: 'nccl', devices: k, link, algorithms: ['ring'], bytes: b });
      const chart = view.locator('[data-view="nccl"]');
      assert.equal(await chart.getAttribute('data-lecture'), '5.6');
      assert.deepEqual(JSON.parse(await chart.getAttribute('data-boundaries')), cross.boundaries.map((x) => ({ bytes: x.bytes, from: x.from, to: x.to })), `${k} GPUs, ${b} B, ${link}`);
      assert.equal(await chart.getAttribute('data-fastest'), cross.cheapest.name);
      const pick = engine({ op: 'nccl', devices: k, bytes: b, link });
      const ring = engine({ op: 'nccl', devices: k, bytes: b, link, algorithms: ['ring'] });
      const choice = view.locator('[data-role="choice"]');
      assert.deepEqual([await choice.getAttribute('data-algorithm'), await choice.getAttribute('data-protocol'), Number(await choice.getAttribute('data-time-s'))], [pick.algorithm, pick.protocol, pick.time_s]);
      assert.deepEqual([await choice.getAttribute('data-ring-protocol'), Number(await choice.getAttribute('data-ring-time-s'))], [ring.protocol, ring.time_s]);
      const nvls = view.locator('[data-view="crossover"]');
      assert.equal(await nvls.getAttribute('data-lecture'), '5.4');
      assert.equal(Number(await nvls.getAttribute('data-time-s')), engine({ op: 'allreduce', algorithm: 'in_switch', devices: k, bytes: b, link }).time_s);
      return cross;
    };
    // 8 GPUs on NVLink 4: LL below 64 KB, LL128 at 16 MB, Simple from 256 MB (P5 §5.6).
    const lecture = await check(8, 1e6, 'nvlink4');
    assert.deepEqual(lecture.boundaries.map((x) => [x.from, x.to]), [['ring/LL', 'ring/LL128'], ['ring/LL128', 'ring/Simple']]);
    assert.ok(lecture.boundaries[0].bytes > 64e3 && lecture.boundaries[0].bytes < 16e6 && lecture.boundaries[1].bytes > 16e6 && lecture.boundaries[1].bytes < 256e6);
    const proto = engine({ op: 'nccl.protocols', link: 'nvlink4' });
    const drawn = await view.locator('[data-role="protocols"] li[data-protocol]').evaluateAll((els) => els.map((e) => ({ protocol: e.dataset.protocol, payload_share: Number(e.dataset.payloadShare), unit_bytes: Number(e.dataset.unitBytes), payload_bytes: Number(e.dataset.payloadBytes), flag_bytes: Number(e.dataset.flagBytes), bandwidth_Bps: Number(e.dataset.bandwidthBps), step_latency_s: Number(e.dataset.stepLatencyS) })));
    assert.deepEqual(drawn, proto.protocols.map(({ protocol, payload_share, unit_bytes, payload_bytes, flag_bytes, bandwidth_Bps, step_latency_s }) => ({ protocol, payload_share, unit_bytes, payload_bytes, flag_bytes, bandwidth_Bps, step_latency_s })));
    assert.equal(await view.locator('li[data-protocol="LL"]').textContent(), 'LL: each 8 B unit it writes carries 4 B of data and a 4 B flag, so 50% of the link’s 360 GB/s carries payload (180 GB/s); the receiver reads the flag with the data, so a hop costs 470 ns (3.6 µs a call).');
    assert.match(await view.locator('li[data-protocol="LL128"]').textContent(), /each 128 B unit it writes carries 120 B of data and a 8 B flag, so 93\.75% /);
    // Extremes, and another link.
    for (const [k, b, link] of [[2, 1, 'nvlink4'], [1024, 1e9, 'nvlink4'], [1024, 1, 'ib_ndr'], [2, 1e9, 'pcie5']]) {
      await page.locator('#nccl-link').selectOption(link);
      await page.locator('#nccl-devices').fill(String(k));
      await page.locator('#nccl-bytes').fill(String(b));
      await settled(k, b, link);
      await check(k, b, link);
    }
    assert.match(page.url(), /view=nccl&devices=2&bytes=1000000000&link=pcie5/);
    // A value that cannot be used is said, naming the control and the range; nothing drawn.
    await page.locator('#nccl-devices').fill('1');
    assert.equal(await view.locator('[data-role="settings-error"]').textContent(), 'GPUs: 1 is not allowed; allowed a whole number from 2 to 1,024. Nothing is drawn meanwhile.');
    assert.equal(await view.locator('[data-role="drawn"]').isHidden(), true);
    await page.locator('#nccl-devices').fill('8');
    await page.locator('#nccl-bytes').fill('2000000000');
    assert.match(await view.locator('[data-role="settings-error"]').textContent(), /^Message size: 2000000000 B is outside the allowed range; allowed 1 B to 1 GB\./);
    // The address: a bad value is named and the lecture's shown; a good one opens as given.
    const bad = await openPage(ctx, `${lab.server.url}?view=nccl&devices=abc&link=warp`, mine);
    await bad.waitForSelector('[data-view="nccl-view"][data-devices="8"][data-link="nvlink4"]:not([aria-busy]) [data-role="choice"][data-time-s]');
    assert.match(await bad.locator('[data-view="nccl-view"] [data-role="address-problems"]').textContent(), /devices=abc cannot be used .* link=warp cannot be used/);
    const zh = await openPage(ctx, `${lab.server.url}?view=nccl&lang=zh&devices=16&bytes=16000000`, mine);
    await zh.waitForSelector('[data-view="nccl-view"][data-devices="16"]:not([aria-busy]) [data-role="choice"][data-time-s]');
    const pick = engine({ op: 'nccl', devices: 16, bytes: 16e6, link: 'nvlink4' });
    assert.match(await zh.locator('[data-role="choice-note"]').textContent(), new RegExp(`^16 MB、16 块 GPU 时，NCCL 调优器选择 .* · ${pick.protocol}：`));
    assert.deepEqual(mine, [], 'no console errors');
    await ctx.close();
  });

  test('axe-core clean, no sideways scroll at 390 px, screenshots (English and Chinese, 1280 and 390 px)', async () => {
    const dir = screenshotDir();
    for (const viewport of [DESKTOP, PHONE]) {
      for (const lang of ['en', 'zh']) {
        const ctx = await fresh(viewport);
        for (const view of ['topics', 'ladder', 'nccl']) {
          const page = await openPage(ctx, `${lab.server.url}?view=${view}&lang=${lang}`, errors);
          if (view === 'nccl') await page.waitForSelector('[data-view="nccl-view"]:not([aria-busy]) [data-role="choice"][data-time-s] ~ * , [data-view="nccl-view"]:not([aria-busy]) [data-view="nccl"] canvas', { timeout: 20000 });
          const table = page.locator('details.chart-table summary');
          if (await table.count()) await table.first().click(); // the table open, for axe and the width too
          await page.waitForTimeout(100);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= viewport.width, `${view} ${lang}: ${width}px wide in ${viewport.width}px`);
          if (lang === 'en') await axeClean(page, `${view} at ${viewport.width}px`); // the same markup in Chinese
          await shot(page, { path: join(dir, `${view}-${lang}-${viewport.width}.png`), fullPage: view !== 'topics' || viewport.width > 400 });
          await page.close();
        }
        await ctx.close();
      }
    }
  });

  test('views load when opened: the exercises page fetches none of them, a view only its own', async () => {
    const VIEW_MODULES = ['measured', 'sections', 'topics', 'ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];
    const fetched = async (address, ready) => {
      const ctx = await fresh();
      const page = await ctx.newPage();
      const got = [];
      page.on('request', (r) => { const m = new URL(r.url()).pathname.match(/\/views\/(\w+)\.js$/); if (m) got.push(m[1]); });
      await page.goto(`${lab.server.url}${address}`);
      await page.waitForSelector(ready, { state: 'attached', timeout: 20000 });
      await ctx.close();
      return VIEW_MODULES.filter((v) => got.includes(v));
    };
    assert.deepEqual(await fetched('', 'html[data-ready="true"] section.card[data-exercise]:not([data-prerendered])'), []);
    assert.deepEqual(await fetched('?view=ladder', 'html[data-ready="true"] [data-view="ladder"]'), ['sections', 'ladder']);
    assert.deepEqual(await fetched('?view=measured', 'html[data-ready="true"] [data-view="measured"]'), ['measured']);
  });

  test('a section view\'s settings live in the address: a link reproduces them, a change is written, a bad one is named', async () => {
    const ctx = await fresh();
    const valuesOf = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-setting]')]
      .map((e) => [e.dataset.setting, e.type === 'checkbox' ? String(e.checked) : e.value])));
    // The ladder: a number and two pickers from the address, drawn as if chosen by hand.
    const page = await openPage(ctx, `${lab.server.url}?view=ladder&efficiency=0.8&a=pcie5&b=nvlink4`, errors);
    assert.deepEqual(await valuesOf(page), { efficiency: '0.8', a: 'pcie5', b: 'nvlink4', node: 'dgx_h100' });
    assert.equal(await page.locator('span[data-role="yours"]').getAttribute('data-comparison'), 'pcie5/nvlink4');
    const lectureEfficiency = engine({ op: 'ladder', efficiency: 0.8, pairs: [['pcie5', 'nvlink4']] }).comparisons[0];
    assert.equal(await page.locator('span[data-role="yours"]').getAttribute('data-ratio'), String(lectureEfficiency.ratio));
    // A change by hand is written into the address (no new history entry), and a reload keeps it.
    const entries = await page.evaluate(() => history.length);
    await page.selectOption('#ladder-b', 'ib_ndr');
    await page.fill('#ladder-efficiency', '0.7');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('efficiency') === '0.7');
    const query = new URL(page.url()).searchParams;
    assert.deepEqual(Object.fromEntries(query), { view: 'ladder', efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    assert.equal(await page.evaluate(() => history.length), entries);
    // A value the address would not take back (half typed) leaves the address as it was.
    await page.fill('#ladder-efficiency', '7');
    await page.waitForTimeout(100);
    assert.equal(new URL(page.url()).searchParams.get('efficiency'), '0.7');
    await page.fill('#ladder-efficiency', '0.7');
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    assert.deepEqual(await valuesOf(page), { efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    // The language switch draws the view anew: the settings stay.
    await page.click('[data-action="language"]');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh') && document.querySelector('#ladder-b')?.value === 'ib_ndr');
    assert.deepEqual(await valuesOf(page), { efficiency: '0.7', a: 'pcie5', b: 'ib_ndr', node: 'dgx_h100' });
    // A checkbox (RDMA's same PCIe switch) and a whole number.
    const rdma = await openPage(ctx, `${lab.server.url}?view=rdma&same_pcie_switch=false&chunks=8`, errors);
    const rdmaValues = await valuesOf(rdma);
    assert.equal(rdmaValues.same_pcie_switch, 'false');
    assert.equal(rdmaValues.chunks, '8');
    // Bad settings: each named with its value and what is allowed; the view draws with its own
    // (in English: the language chosen above is kept for this origin).
    const mine = [];
    const bad = await openPage(ctx, `${lab.server.url}?view=bound&devices=9999&link=nope&mb=abc&tp=1&lang=en`, mine);
    const named = await bad.locator('#link-problems li').evaluateAll((els) => els.map((li) => [li.dataset.setting, li.textContent]));
    assert.deepEqual(named.map(([k]) => k), ['devices', 'mb', 'link']);
    assert.match(named[0][1], /devices: "9999" is not allowed; allowed: a whole number from 2 to 256\. Shown instead: 8\./);
    assert.match(named[1][1], /mb: "abc" is not allowed; allowed: a number from 0\.000001 to 1,000,000\./);
    assert.match(named[2][1], /link: "nope" is not allowed; allowed: hbm3, .*nvlink4.*\. Shown instead: nvlink4\./);
    assert.deepEqual(await valuesOf(bad), { devices: '8', mb: '8', link: 'nvlink4' });
    assert.equal(mine.length, 3, 'each said to the console too');
    await ctx.close();
  });

  test('every section view takes each of its settings from the address', async () => {
    const ctx = await fresh();
    const views = ['ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];
    const controlsOf = (page) => page.evaluate(() => [...document.querySelectorAll('[data-role="section-view"] [data-setting]')]
      .map((e) => ({ name: e.dataset.setting, kind: e.tagName === 'SELECT' ? 'select' : e.type, value: e.type === 'checkbox' ? String(e.checked) : e.value,
        options: e.tagName === 'SELECT' ? [...e.options].map((o) => o.value) : null, min: Number(e.min), max: Number(e.max), step: e.step })));
    // Another value each control allows: the next option, the number one step (or twice) away, the box toggled.
    const other = (c) => {
      if (c.kind === 'select') return c.options[(c.options.indexOf(c.value) + 1) % c.options.length];
      if (c.kind === 'checkbox') return c.value === 'true' ? 'false' : 'true';
      const x = Number(c.value);
      if (c.step === '1') return String(x + 1 <= c.max ? x + 1 : x - 1);
      return String(x * 2 <= c.max ? x * 2 : x / 2);
    };
    const page = await ctx.newPage();
    const mine = [];
    page.on('console', (msg) => { if (msg.type() === 'error') mine.push(`${page.url()}: ${msg.text()}`); });
    page.on('pageerror', (err) => mine.push(`${page.url()}: ${err.message}`));
    for (const view of views) {
      await page.goto(`${lab.server.url}?view=${view}&lang=en`);
      await page.waitForSelector('html[data-ready="true"]');
      const defaults = await controlsOf(page);
      assert.ok(defaults.length >= 2, `${view}: ${defaults.length} settings`);
      const wanted = Object.fromEntries(defaults.map((c) => [c.name, other(c)]));
      await page.goto(`${lab.server.url}?view=${view}&lang=en&${new URLSearchParams(wanted)}`);
      await page.waitForSelector('html[data-ready="true"]');
      assert.equal(await page.locator('#link-problems li').count(), 0, `${view}: ${await page.locator('#link-problems').innerText()}`);
      const held = Object.fromEntries((await controlsOf(page)).map((c) => [c.name, c.value]));
      assert.deepEqual(held, wanted, `${view}: every setting from the address`);
    }
    assert.deepEqual(mine, [], 'no console errors');
    await ctx.close();
  });

  test('no console errors on any page above', () => {
    assert.deepEqual(errors, []);
  });
});
