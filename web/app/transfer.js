// Progress carried between browsers: Export writes the file, Import checks one and takes it,
// and the record "Open in the full lab" brings from a frame (`carry`) is taken like a restore.

import { own } from '../util/own.js';
import { exportText, parseExerciseState, parseProgressFile } from './progress.js';
import { renderChrome, renderProgress } from './chrome.js';

export function exportProgress(page) {
  const blob = new Blob([exportText(page.store)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `commlab-progress-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function listenToTransfer(page) {
  page.$('[data-action="export"]').addEventListener('click', page.exportProgress);
  page.$('#import-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) await importFile(page, file);
  });
}

async function importFile(page, file) {
  const { store } = page;
  if (!page.docs) {
    page.say((t) => `${t.importFailed}${t.loading}`, 'error');
    return;
  }
  // The whole file is checked (every exercise, field and variant, the parameters by the
  // engine) before anything changes; a bad file leaves the page as it was.
  let parsed;
  try {
    parsed = await parseProgressFile(await file.text(), page.docs, page.lang);
  } catch (err) {
    page.say((t) => `${t.importFailed}${err.message}`, 'error');
    return;
  }
  if (page.embedded) {
    importIntoFrame(page, parsed);
    return;
  }
  // Every new key is written before an old one goes; a refusal puts storage back as it was.
  const result = store.replaceAll(parsed.exercises, parsed.lang);
  if (!result.saved && !result.blocked) {
    const size = `${(result.bytes / 1e6).toPrecision(2)} MB`;
    const why = (t) => (result.quota ? t.importTooLarge(size) : t.importRefusedStorage(String(result.error?.message ?? result.error)));
    page.say((t) => `${t.importFailed}${why(t)}${result.restored ? '' : t.importNotUndone}`, 'error', { topic: 'import' });
    return;
  }
  page.lang = store.lang ?? page.lang;
  renderChrome(page);
  for (const c of page.cards) {
    c.lang = page.lang;
    c.reload();
  }
  page.say((t) => (result.blocked ? t.importedNotKept : t.imported), 'info', { topic: 'import' });
}

// An embedded exercise imports its own part of a file (the other exercises' progress belongs
// to other frames): merged, each variant's newer record kept, the file's variant shown.
function importIntoFrame(page, parsed) {
  const { store, only } = page;
  const ex = own(parsed.exercises, String(only));
  if (!ex || !Object.keys(ex.variants ?? {}).length) {
    page.say((t) => `${t.importFailed}${t.importNothingFor(only)}`, 'error', { topic: 'import' });
    return;
  }
  store.merge(only, ex);
  if (ex.current && !page.cards[0]?.fixed) store.setCurrent(only, ex.current);
  for (const c of page.cards) c.reload();
  renderProgress(page);
  page.say((t) => (store.available ? t.imported : t.importedNotKept), 'info', { topic: 'import' });
}

// What "Open in the full lab" brought from a frame (options.carry): checked like a restore,
// merged (a newer record here stays), its variant shown; then dropped from the address, so a
// reload or a shared link does not bring it again.
export async function takeCarried(page) {
  const carry = page.options.carry;
  if (!carry) return;
  const url = new URL(location.href);
  url.searchParams.delete('carry');
  history.replaceState(history.state, '', url.href);
  const doc = page.docs.get(String(carry.exercise));
  if (!doc) return;
  let state;
  try {
    state = await parseExerciseState(doc, carry.state, page.lang);
  } catch (err) {
    page.say((t) => t.carryRefused(err.message), 'error', { topic: 'carry' });
    return;
  }
  page.store.merge(carry.exercise, state);
  if (state.current) page.store.setCurrent(carry.exercise, state.current);
}
