// The storage the page can have: its own localStorage, or one that refuses every read and
// write where the browser blocks it; and, for a frame whose own is blocked, storage asked of
// the browser on a click (the Storage Access API).

export function safeStorage() {
  try {
    return globalThis.localStorage;
  } catch {
    const blocked = () => { throw new Error('blocked'); };
    return { getItem: blocked, setItem: blocked, removeItem() {}, key: blocked, get length() { return blocked(); } };
  }
}

// The handle's localStorage where the browser gives one, else the frame's own once access is
// granted; null when refused.
export async function requestStorage() {
  try {
    const handle = await document.requestStorageAccess({ localStorage: true });
    if (handle?.localStorage) return handle.localStorage;
  } catch (err) {
    try {
      await document.requestStorageAccess();
    } catch (again) {
      console.warn('commlab: the browser refused storage access:', again?.message ?? again, err?.message ?? err);
      return null;
    }
  }
  try {
    const storage = globalThis.localStorage;
    storage.length; // throws while still blocked
    return storage;
  } catch {
    return null;
  }
}
