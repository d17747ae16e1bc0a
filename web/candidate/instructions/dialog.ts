/**
 * The exam's instructions during the exam (issue 37, "the instructions after a reload"): an
 * "Instructions" button on the top bar, before the view toggles, opening them in a modal
 * dialog with a Close button (Escape closes; screens/dialog.ts keeps the focus inside and the
 * exam's shortcut keys off meanwhile). The dialog sits below the top bar, so the clock stays
 * in view, running. The text is this PC's copy (`hallcbt.<attemptId>.instructions`,
 * storage.ts: the preview's, kept at sign-in) or, when the PC has none, the server's
 * `GET /attempts/:id/instructions`, asked once and kept — so a later reload without the
 * server still has it.
 */
import { h } from '../dom.js';
import { attemptKey, readJson, writeJson } from '../storage.js';
import type { InstallInstructions } from './contract.js';

declare const __INSTRUCTIONS_CSS__: string;

/** What `show` needs of the page (contract.ts). */
interface Page {
  open: Parameters<InstallInstructions>[3];
  close: Parameters<InstallInstructions>[4];
  maths: Parameters<InstallInstructions>[5];
}

/** Installs the button when the attempt's exam has instructions (none: nothing). */
export const installInstructions: InstallInstructions = (attemptId, query, api, open, close, maths) => {
  const host: Page = { open, close, maths };
  const key = attemptKey(attemptId, 'instructions');
  const kept = readJson<string | null | undefined>(key, undefined);
  if (kept !== undefined) return addButton(host, kept);
  void api<{ instructionsHtml: string | null }>('GET', '/attempts/' + encodeURIComponent(attemptId) + '/instructions' + query).then((r) => {
    if (r.kind !== 'ok') return; // no answer: no button until the next load asks again
    writeJson(key, r.body.instructionsHtml);
    addButton(host, r.body.instructionsHtml);
  });
};

function addButton(host: Page, html: string | null): void {
  const bar = document.querySelector('#screen-exam .topbar');
  if (!html || !bar || document.getElementById('open-instructions')) return;
  if (!document.getElementById('instructions-css')) document.head.appendChild(h('link', { id: 'instructions-css', rel: 'stylesheet', href: __INSTRUCTIONS_CSS__ }));
  const button = h('button.look', { type: 'button', id: 'open-instructions', 'aria-haspopup': 'dialog' }, 'Instructions');
  button.addEventListener('click', () => show(host, html));
  bar.insertBefore(button, bar.querySelector('.looks'));
}

function show(host: Page, html: string): void {
  host.maths([{ promptHtml: html }]);
  const close = h('button.secondary.big', { type: 'button', id: 'close-instructions' }, 'Close');
  close.addEventListener('click', () => host.close());
  const dialog = h(
    'div.dialog',
    { id: 'instructions-dialog' },
    h('h2', { id: 'instructions-title' }, 'Instructions'),
    h('div.rich', { id: 'instructions-text', html, tabindex: '0' }),
    h('div.actions', {}, close),
  );
  host.open(dialog, 'instructions-title', close, true);
  const bar = document.querySelector('#screen-exam .topbar');
  if (bar && dialog.parentNode) (dialog.parentNode as HTMLElement).style.top = Math.max(0, bar.getBoundingClientRect().bottom) + 'px';
}
