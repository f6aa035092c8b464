// The lab's service worker (web/README.md "Offline and updates"): repeat visits and offline use
// from one cache per release. `./lab build` writes VERSION (a hash of every file it lists) and
// FILES (the page's files, relative to this script) into dist/sw.js (web/tools/service-worker.mjs).
//
// - A release is installed whole into its own cache before it serves anything, and the page is
//   served from one release only: a waiting release takes over when the page asks (the page's
//   "Reload" after it says a new version is ready) or when no tab uses the old one.
// - Files of a release: cache first. exercises/: from the cache, refreshed from the network behind
//   it (an instructor may edit them in place: the next visit has the edit).
// - Anything else (another path on the host): the network, untouched.
const VERSION = '__VERSION__';
const FILES = ['__FILES__'];
const CACHE = `commlab-${VERSION}`;
const PREFIX = 'commlab-';
const scope = new URL(self.registration.scope);
const listed = new Set(FILES.map((f) => new URL(f, scope).href));

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...listed].map((url) => new Request(url, { cache: 'reload' })))));
});

// Where this release replaced another, it keeps a note of that for the page to say once.
const UPDATED = new URL('.commlab-updated', scope).href;

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then(async (keys) => {
    const old = keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE);
    if (old.length) {
      const cache = await caches.open(CACHE);
      await cache.put(UPDATED, new Response(JSON.stringify({ from: old.map((k) => k.slice(PREFIX.length)) })));
    }
    await Promise.all(old.map((k) => caches.delete(k)));
    await self.clients.claim();
  }));
});

self.addEventListener('message', (event) => {
  const type = event.data?.type;
  if (type === 'take-over') self.skipWaiting();
  if (type === 'updated?') {
    // {version, from: the release replaced, or null}, said to one page once.
    event.waitUntil(caches.open(CACHE).then(async (cache) => {
      const note = await cache.match(UPDATED);
      if (note) await cache.delete(UPDATED);
      const from = note ? (await note.json()).from : null;
      event.source?.postMessage({ type: 'updated', version: VERSION, from });
    }));
  }
});

/** The release's own URL for `url`: the page at the scope's root or index.html, any query. */
function keyOf(url) {
  const u = new URL(url);
  if (u.origin !== scope.origin || !u.pathname.startsWith(scope.pathname)) return null;
  u.hash = '';
  u.search = '';
  if (u.href === scope.href) u.pathname += 'index.html';
  return listed.has(u.href) ? u.href : null;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const key = keyOf(request.url);
  if (!key) return;
  const exercise = key.startsWith(new URL('exercises/', scope).href);
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const hit = await cache.match(key);
    if (exercise) {
      const fresh = fetch(request, { cache: 'no-cache' }).then((res) => {
        if (res.ok) return cache.put(key, res.clone()).then(() => res);
        return res;
      });
      if (hit) {
        event.waitUntil(fresh.catch(() => {}));
        return hit;
      }
      return fresh;
    }
    return hit ?? fetch(request);
  }));
});
