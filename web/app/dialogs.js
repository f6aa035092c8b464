// The page's two dialogs: Reset (everything, or an embedded exercise alone) and the question
// before leaving a variant with answers typed but not checked.

import { strings } from '../util/i18n.js';
import { renderProgress } from './chrome.js';

// A dialog of an embedded exercise opens beside what opened it: the frame is as tall as its
// content, so its middle may be far outside the part of the course page in view.
// Its height is measured first (opened unseen), so that it fits in the frame, and the browser's
// scroll to the focused button then brings the course page to it.
function showDialog(page, d, opener = document.activeElement) {
  d.style.removeProperty('--dialog-top');
  if (page.embedded && opener?.getBoundingClientRect) {
    d.style.visibility = 'hidden';
    d.show();
    const height = d.getBoundingClientRect().height;
    d.close();
    d.style.visibility = '';
    const r = opener.getBoundingClientRect();
    const top = Math.min(r.top - 16, window.innerHeight - height - 8);
    d.style.setProperty('--dialog-top', `${Math.max(8, Math.round(top))}px`);
  }
  d.showModal();
}

// The full page resets everything; an embedded exercise resets itself only.
export function listenToReset(page) {
  const { $ } = page;
  const dialog = $('#reset-dialog');
  $('[data-action="reset"]').addEventListener('click', (e) => showDialog(page, dialog, e.currentTarget));
  $('[data-action="reset-cancel"]').addEventListener('click', () => dialog.close());
  $('[data-action="reset-confirm"]').addEventListener('click', () => {
    dialog.close();
    if (page.embedded) {
      resetEmbedded(page);
      return;
    }
    page.store.reset();
    for (const c of page.cards) c.reload();
    renderProgress(page);
  });
}

export function resetEmbedded(page) {
  page.store.resetExercise(page.only);
  for (const c of page.cards) c.reload();
  renderProgress(page);
  page.hostState?.flush(); // the host hears the reset at once
}

// Leaving a variant with typed but unchecked answers asks first (cards call this).
export function confirmLeave(page, { unchecked, fromLecture }) {
  const { $ } = page;
  const leaveDialog = $('#leave-dialog');
  const t = strings(page.lang);
  const zh = page.lang === 'zh';
  $('#leave-text').textContent = `${t.leaveUnchecked(unchecked.join(zh ? '、' : ', '))}${zh ? '' : ' '}${fromLecture ? t.leaveKeptLecture : t.leaveKept}`;
  const opener = document.activeElement;
  return new Promise((resolve) => {
    const done = (yes) => {
      leaveDialog.removeEventListener('close', onClose);
      leaveDialog.close();
      resolve(yes);
      if (!yes) opener?.focus?.();
    };
    const onClose = () => done(false); // Escape
    leaveDialog.addEventListener('close', onClose);
    $('[data-action="leave-confirm"]').onclick = () => done(true);
    $('[data-action="leave-cancel"]').onclick = () => done(false);
    showDialog(page, leaveDialog, opener);
    $('[data-action="leave-cancel"]').focus();
  });
}
