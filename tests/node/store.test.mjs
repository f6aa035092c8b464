// web/app/store.js under Node with a fake Storage (web/README.md "Progress and storage"): saved state
// is untrusted (bad keys and values set aside, never used, never on Object.prototype), a full
// storage keeps changes pending and saves them once space returns, and an import either lands
// whole or leaves storage byte for byte as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store, isQuotaError, isVariantKey } from '../../web/app/store.js';

/**
 * A Storage of `budget_chars` characters (keys and values, as browsers count them); setItem past
 * it throws the browser's QuotaExceededError. `blocked`: every access throws SecurityError.
 */
function fakeStorage(budget_chars = Infinity, { blocked = false } = {}) {
  const map = new Map();
  const guard = () => { if (blocked) throw new DOMException('blocked', 'SecurityError'); };
  const used = () => [...map].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    map,
    budget_chars,
    get length() { guard(); return map.size; },
    key(i) { guard(); return [...map.keys()][i] ?? null; },
    getItem(k) { guard(); return map.has(k) ? map.get(k) : null; },
    setItem(k, v) {
      guard();
      const text = String(v);
      const after = used() - (map.has(k) ? k.length + map.get(k).length : 0) + k.length + text.length;
      if (after > this.budget_chars) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      map.set(k, text);
    },
    removeItem(k) { guard(); map.delete(k); },
  };
}

// A timer the test runs by hand: {set, clear, run()}.
function manualTimer() {
  const due = [];
  return {
    due,
    set: (f, ms) => { const t = { f, ms }; due.push(t); return t; },
    clear: (t) => { const i = due.indexOf(t); if (i >= 0) due.splice(i, 1); },
    run() { const t = due.shift(); t?.f(); return t?.ms; },
  };
}

const snapshot = (s) => Object.fromEntries([...s.map].sort());
const asideKeys = (s) => [...s.map.keys()].filter((k) => k.startsWith('commlab.corrupt.'));

test('the variant key shape is the one card/variant.js writes', () => {
  for (const k of ['lecture', 'devices=5;bytes=256000;alpha_s=5e-6;beta_Bps=4e+10', 'nodes=4;intra_link=nvlink4']) assert.ok(isVariantKey(k), k);
  for (const k of ['__proto__', 'constructor', 'toString', '', 'a=1;', '=1', 'a=1;;b=2', 'x']) assert.ok(!isVariantKey(k), k);
  assert.ok(isQuotaError(new DOMException('x', 'QuotaExceededError')));
  assert.ok(!isQuotaError(new DOMException('x', 'SecurityError')));
});

test('hostile saved keys and values are set aside, never used, never reach Object.prototype', () => {
  for (const lang of ['"__proto__"', '"constructor"', '"toString"', '42', '"fr"', 'not json']) {
    const s = fakeStorage();
    s.setItem('commlab.v2.lang', lang);
    s.setItem('commlab.v2.progress.__proto__.x', JSON.stringify({ attempts: 1 }));
    s.setItem('commlab.v2.progress.2.__proto__', JSON.stringify({ attempts: 1 }));
    s.setItem('commlab.v2.progress.2.lecture', JSON.stringify({ attempts: 3 }));
    s.setItem('commlab.v2.progress.3.lecture', '[1,2]');
    s.setItem('commlab.v2.current.constructor', JSON.stringify('lecture'));
    s.setItem('commlab.v2.current.2', JSON.stringify({ not: 'a key' }));
    const store = new Store(s, { setTimer: null });
    store.load();
    assert.equal(store.lang, null, lang);
    assert.equal(Object.prototype.variants, undefined);
    assert.equal({}.current, undefined);
    assert.deepEqual(Object.keys(store.data), ['2']);
    assert.deepEqual(store.variants(2), ['lecture']);
    assert.equal(store.current(2), null);
    assert.equal(store.record('constructor', 'lecture'), null);
    assert.equal(store.record(2, 'toString'), null);
    assert.equal(store.current('__proto__'), null);
    // Each refused value is under commlab.corrupt.<time>.<its key>, byte for byte, and gone from its key.
    const aside = asideKeys(s);
    assert.equal(aside.length, 6, aside.join(' '));
    for (const [key, text] of [['commlab.v2.lang', lang], ['commlab.v2.progress.__proto__.x', '{"attempts":1}'], ['commlab.v2.progress.3.lecture', '[1,2]']]) {
      const found = aside.find((k) => k.endsWith(`.${key}`));
      assert.ok(found && /^commlab\.corrupt\.\d+\./.test(found), key);
      assert.equal(s.getItem(found), text);
      assert.equal(s.getItem(key), null);
    }
    assert.equal(store.setAsideKeys.length, 6);
    assert.deepEqual(Object.keys(store.setAsideRecords()).sort(), aside.sort());
  }
});

test('a storage event for a key of the wrong shape is ignored', () => {
  const store = new Store(fakeStorage(), { setTimer: null });
  store.load();
  assert.equal(store.external('commlab.v2.progress.__proto__.x', '{"attempts":1}'), null);
  assert.equal(store.external('commlab.v2.progress.2.constructor', '{"attempts":1}'), null);
  assert.equal(Object.prototype.variants, undefined);
  assert.equal(store.external('commlab.v2.progress.2.lecture', '{"attempts":1}'), '2');
  assert.equal(store.record(2, 'lecture').attempts, 1);
});

test('storage full: the change stays in memory, is said once, and is saved when space returns', () => {
  const s = fakeStorage(400);
  const timer = manualTimer();
  const store = new Store(s, { setTimer: timer.set, clearTimer: timer.clear });
  store.load();
  const heard = [];
  store.onSave((state) => heard.push(state));
  store.update(2, 'lecture', (r) => { r.answers.steps = '6'; r.attempts = 1; });
  assert.equal(s.getItem('commlab.v2.progress.2.lecture') !== null, true, 'a small record fits');
  store.update(2, 'lecture', (r) => { r.answers.time = 'x'.repeat(200); r.attempts = 2; });
  assert.equal(heard.length, 1);
  assert.equal(heard[0].saved, false);
  assert.equal(heard[0].quota, true);
  assert.ok(store.unsaved());
  assert.equal(store.record(2, 'lecture').attempts, 2, 'kept in memory');
  assert.equal(JSON.parse(s.getItem('commlab.v2.progress.2.lecture')).attempts, 1, 'storage keeps the last saved version');
  // The next change builds on the unsaved one, not on the older saved record.
  store.update(2, 'lecture', (r) => { r.attempts += 1; });
  assert.equal(store.record(2, 'lecture').attempts, 3);
  assert.equal(heard.length, 1, 'said once');
  // Retries back off while storage stays full.
  assert.equal(timer.run(), 2000);
  assert.equal(timer.run(), 4000);
  assert.equal(timer.due[0].ms, 8000);
  // Space returns: the next retry saves it, and the listeners hear so.
  s.budget_chars = Infinity;
  timer.run();
  assert.ok(!store.unsaved());
  assert.equal(heard.length, 2);
  assert.equal(heard[1].saved, true);
  assert.equal(timer.due.length, 0, 'no more retries');
  const reloaded = new Store(s, { setTimer: null });
  reloaded.load();
  assert.equal(reloaded.record(2, 'lecture').attempts, 3);
  assert.equal(reloaded.record(2, 'lecture').answers.time.length, 200);
});

test('retry() (a storage event) saves at once when space was freed', () => {
  const s = fakeStorage(100);
  const store = new Store(s, { setTimer: null });
  store.load();
  store.setLang('zh');
  store.update(5, 'lecture', (r) => { r.answers.time = '1 ms'; });
  assert.ok(store.unsaved());
  s.budget_chars = Infinity;
  store.retry();
  assert.ok(!store.unsaved());
  assert.equal(s.getItem('commlab.v2.lang'), '"zh"');
});

test('an import too large for storage changes nothing, byte for byte; one that fits replaces all', () => {
  const s = fakeStorage(2000);
  const store = new Store(s, { setTimer: null });
  store.load();
  store.setLang('en');
  store.update(2, 'lecture', (r) => { r.answers.steps = '6'; r.solved = true; });
  store.update(3, 'devices=32;bytes=256000;alpha_s=5e-6;beta_Bps=4e+10', (r) => { r.attempts = 1; });
  store.setCurrent(3, 'devices=32;bytes=256000;alpha_s=5e-6;beta_Bps=4e+10');
  s.setItem('commlab.author.v1.draft', '{"id": 9}');
  const before = snapshot(s);
  const memory = JSON.stringify(store.snapshot(2));
  const huge = {
    2: { current: 'lecture', variants: { lecture: { answers: { steps: '7' }, attempts: 1 } } },
    4: { current: 'lecture', variants: { lecture: { answers: {}, messages: { hierarchical: 'y'.repeat(3000) } } } },
  };
  const r = store.replaceAll(huge, 'zh');
  assert.equal(r.saved, false);
  assert.equal(r.quota, true);
  assert.equal(r.restored, true);
  assert.ok(r.bytes > 6000, String(r.bytes));
  assert.deepEqual(snapshot(s), before, 'storage exactly as it was');
  assert.equal(JSON.stringify(store.snapshot(2)), memory, 'memory as it was');
  assert.equal(store.lang, 'en');
  // One that fits: new keys written, old progress keys gone, the draft left alone.
  const ok = store.replaceAll({ 6: { current: 'lecture', variants: { lecture: { attempts: 2 } } } }, 'zh');
  assert.equal(ok.saved, true);
  assert.deepEqual(Object.keys(snapshot(s)).sort(), ['commlab.author.v1.draft', 'commlab.v2.current.6', 'commlab.v2.lang', 'commlab.v2.progress.6.lecture']);
  assert.equal(store.lang, 'zh');
  assert.equal(store.record(6, 'lecture').attempts, 2);
  assert.equal(store.record(2, 'lecture'), null);
});

test('an import where the browser has no storage is taken in memory and says so', () => {
  const store = new Store(fakeStorage(Infinity, { blocked: true }), { setTimer: null });
  store.load();
  assert.equal(store.available, false);
  const r = store.replaceAll({ 2: { current: 'lecture', variants: { lecture: { attempts: 1 } } } }, 'en');
  assert.deepEqual(r, { saved: false, blocked: true });
  assert.equal(store.record(2, 'lecture').attempts, 1);
});

test('a version-1 state is dropped only once what it held is saved', () => {
  const s = fakeStorage(Infinity);
  s.setItem('commlab.progress.v1', JSON.stringify({ format: 'commlab-progress', version: 1, exercises: { 2: { attempts: 1 } } }));
  const store = new Store(s, { setTimer: null });
  store.load();
  assert.ok(store.legacy);
  s.budget_chars = 0; // nothing more fits
  store.adopt({ 2: { current: 'lecture', variants: { lecture: { attempts: 1 } } } });
  store.persist(2);
  assert.equal(store.dropLegacy(), false);
  assert.notEqual(s.getItem('commlab.progress.v1'), null, 'the old key stays while the new ones are not saved');
  // A refused version-1 record is copied aside before the old key may go.
  s.budget_chars = Infinity;
  const aside = store.setAsideLegacy(2, { attempts: 1 });
  assert.match(aside, /^commlab\.corrupt\.\d+\.commlab\.progress\.v1\.2$/);
  assert.equal(s.getItem(aside), '{"attempts":1}');
});

test('reset removes what was waiting to be saved too', () => {
  const s = fakeStorage(50);
  const store = new Store(s, { setTimer: null });
  store.load();
  store.update(2, 'lecture', (r) => { r.answers.steps = '6'; });
  assert.ok(store.unsaved());
  store.reset();
  assert.ok(!store.unsaved());
  assert.deepEqual(store.variants(2), []);
});
