// Repeat visits and offline use (web/README.md "Offline and updates"): the page registers
// sw.js once it is ready and idle, so the worker's install never competes with the first load.
// A new release is never mixed into a page already open: the page says it is ready and reloads
// into it when asked; a page that opens on a new release says so once. Saved work lives in the
// page's storage, which a release does not touch.

/** The release the build wrote into index.html (web/tools/service-worker.mjs), or null. */
const release = () => document.querySelector('meta[name="commlab-version"]')?.content ?? null;

export function startOffline(page) {
  const sw = navigator.serviceWorker;
  // COMMLAB_NO_SW: tests that do not test it (tests/browser/helpers.mjs) keep it out.
  if (!sw || !/^https?:$/.test(location.protocol) || !release() || globalThis.COMMLAB_NO_SW) return;
  let asked = false;
  const offer = (waiting) => {
    page.say((t) => t.updateReady, 'info', {
      topic: 'release',
      action: {
        name: 'release-reload',
        label: (t) => t.updateReload,
        run: () => {
          asked = true;
          waiting.postMessage({ type: 'take-over' });
        },
      },
    });
  };
  sw.addEventListener('controllerchange', () => {
    if (asked) location.reload();
  });
  sw.addEventListener('message', (e) => {
    if (e.data?.type === 'updated' && e.data.from?.length && !page.notices.said()) page.say((t) => t.updated, 'info', { topic: 'release' });
  });
  const register = () => sw.register('sw.js').then((reg) => {
    const watch = (w) => w?.addEventListener('statechange', () => {
      if (w.state === 'installed' && sw.controller) offer(w);
    });
    if (reg.waiting && sw.controller) offer(reg.waiting);
    watch(reg.installing);
    reg.addEventListener('updatefound', () => watch(reg.installing));
    sw.controller?.postMessage({ type: 'updated?' });
  }).catch((err) => {
    // A host that does not serve sw.js (or a browser that refuses it here): the page works online.
    console.info(`commlab: no offline copy (${String(err?.message ?? err)})`);
  });
  (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 500)))(register, { timeout: 3000 });
}
