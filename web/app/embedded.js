// An embedded exercise's host protocol. The host may keep the progress (the frame's storage is
// often blocked or partitioned): it hears every change as commlab:state and answers ready with
// commlab:restore. Typing posts the state within STATE_DELAY_MS; a check, a reset, a restore
// and leaving at once (app/frame.js stateReporter). A frame fixed to one variant keeps and
// posts that variant alone.

import { pick } from '../util/i18n.js';
import { fixedState, frameSnapshot, listenToHost, reportHeight, stateReporter, tellHost } from './frame.js';
import { parseExerciseState, restoreSaved } from './progress.js';
import { requestStorage } from './storage_access.js';
import { switchLanguage } from './chrome.js';
import { resetEmbedded } from './dialogs.js';

export function startEmbedded(page) {
  const { store, only, $ } = page;
  const card = page.cards[0];
  const fixedKey = card?.fixed?.key ?? null;
  let restored = false;
  const hostState = stateReporter(only, () => frameSnapshot(store, only, fixedKey));
  page.hostState = hostState;
  const postState = hostState.flush;
  store.onChange((id) => { if (id === null || id === String(only)) hostState.soon(); });
  // Checked and coalesced by app/frame.js: a flood of resets is one reset.
  listenToHost(only, {
    lang: (to) => { if (to !== page.lang) switchLanguage(page, to, { remember: false }); },
    reset: () => { if (card) resetEmbedded(page); },
    restore: async (raw) => {
      if (!card) return;
      restored = true;
      let state;
      try {
        state = await parseExerciseState(card.doc, fixedState(raw, fixedKey), page.lang);
      } catch (err) {
        page.say((t) => t.restoreRefused(err.message), 'error', { topic: 'host-restore' });
        return;
      }
      page.unsay('host-restore'); // a refusal said before is over: this state was taken
      if (store.merge(only, state)) card.reload();
      postState();
    },
  });
  reportHeight(only, [page.main, page.notice, $('.embed-foot')], () => $('.embed-foot'));
  // `title`: the exercise's title in both languages, {en, zh} (the host names its frame with it).
  tellHost({ type: 'commlab:ready', exercise: only, lang: page.lang, title: card ? { en: pick(card.doc.title, 'en'), zh: pick(card.doc.title, 'zh') } : null });
  // Without its own storage and without a host that keeps progress, the frame says so, and
  // where the browser has the Storage Access API it asks for storage on the student's click.
  if (!store.available) {
    setTimeout(() => {
      if (restored) return;
      if (typeof document.requestStorageAccess !== 'function') {
        page.say((t) => t.storageNone, 'error');
        return;
      }
      page.say((t) => t.storageAskNone, 'error', { topic: 'storage-access', action: { name: 'storage-access', label: (t) => t.storageAsk, run: askStorage } });
    }, 1500);
  }
  async function askStorage() {
    const storage = await requestStorage();
    if (!storage || !store.attach(storage)) {
      page.say((t) => t.storageAskRefused, 'error', { topic: 'storage-access' });
      return;
    }
    await restoreSaved(store, page.docs, page.lang);
    card?.reload();
    postState();
    page.say((t) => t.storageAskGranted, 'info', { topic: 'storage-access' });
  }
}
