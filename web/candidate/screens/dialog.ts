/**
 * Modal dialogs for the exam screen: the submit confirmation (issue 4 point 8: lists
 * unanswered and flagged questions, each a link back to it) and a blocking overlay
 * (submitting…, paused by the invigilator), and the exam's instructions (issue 37). Focus is
 * kept inside an open dialog and returned where it was when it closes; Escape closes the
 * confirmation and the instructions (instructions/dialog.ts, opened through `openModal`).
 * While one is open the exam's shortcut keys do nothing (`dialogOpen`, exam-pane.ts).
 */
import { h } from '../dom.js';

export interface ConfirmSubmitInput {
  unanswered: number[];
  flagged: number[];
  /** answers still kept only on this computer (they go with the submission) */
  unsaved: number;
  onGo(index: number): void;
  onConfirm(): void;
}

let openDialog: HTMLElement | null = null;

/** True while a modal (confirmation or overlay) is open. */
export function dialogOpen(): boolean {
  return !!openDialog && !!openDialog.parentNode;
}

/** Closes the open modal, if any, and restores focus. */
export function closeDialog(): void {
  if (!openDialog) return;
  const d = openDialog;
  openDialog = null;
  const back = (d as HTMLElement & { _returnFocus?: HTMLElement | null })._returnFocus;
  if (d.parentNode) d.parentNode.removeChild(d);
  if (back && document.body.contains(back)) back.focus();
}

/**
 * Opens `dialog` as the one modal (closing any other): labelled by the element `labelId`,
 * focus on `focus` (else its heading), Escape closing it when `dismissable`. Exported for the
 * instructions' bundle (instructions/contract.ts), whose dialog must count as open here.
 */
export function openModal(dialog: HTMLElement, labelId: string, focus: HTMLElement | null, dismissable: boolean): void {
  closeDialog();
  const backdrop = h('div.backdrop', {}, dialog);
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', labelId);
  (backdrop as HTMLElement & { _returnFocus?: Element | null })._returnFocus = document.activeElement as HTMLElement | null;
  backdrop.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && dismissable) {
      e.preventDefault();
      closeDialog();
    } else if (e.key === 'Tab') trapTab(dialog, e);
  });
  document.body.appendChild(backdrop);
  openDialog = backdrop;
  const target = focus || (dialog.querySelector('h2') as HTMLElement | null);
  if (target) {
    if (target.tagName === 'H2') target.setAttribute('tabindex', '-1');
    target.focus();
  }
}

function trapTab(dialog: HTMLElement, e: KeyboardEvent): void {
  const items = dialog.querySelectorAll('button, [href], input, textarea, [tabindex]:not([tabindex="-1"])');
  if (!items.length) return e.preventDefault();
  const first = items[0] as HTMLElement;
  const last = items[items.length - 1] as HTMLElement;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

function jumpList(label: string, items: number[], onGo: (i: number) => void): HTMLElement {
  const list = h('ul.jump-list', { 'aria-label': label });
  for (const i of items) {
    const b = h('button.link', { type: 'button' }, String(i + 1));
    b.setAttribute('aria-label', `Go to question ${i + 1}`);
    b.addEventListener('click', () => {
      closeDialog();
      onGo(i);
    });
    list.appendChild(h('li', {}, b));
  }
  return list;
}

/** Opens the submit confirmation. */
export function confirmSubmit(input: ConfirmSubmitInput): void {
  const back = h('button.secondary.big', { type: 'button', id: 'cancel-submit' }, 'Go back to my exam');
  const confirm = h('button.danger.big', { type: 'button', id: 'confirm-submit' }, 'Submit now');
  back.addEventListener('click', closeDialog);
  confirm.addEventListener('click', () => {
    closeDialog();
    input.onConfirm();
  });
  const n = input.unanswered.length;
  const dialog = h(
    'div.dialog',
    { id: 'submit-dialog' },
    h('h2', { id: 'submit-title' }, 'Submit your exam?'),
    n
      ? h('p.warn', {}, `You have not answered ${n} question${n === 1 ? '' : 's'}:`)
      : h('p', {}, 'You have answered every question.'),
    n ? jumpList('Unanswered questions', input.unanswered, input.onGo) : null,
    input.flagged.length ? h('p', {}, 'Flagged for review:') : null,
    input.flagged.length ? jumpList('Flagged questions', input.flagged, input.onGo) : null,
    input.unsaved
      ? h('p.notice', {}, `${input.unsaved} answer${input.unsaved === 1 ? ' is' : 's are'} still being saved; they are sent together with your submission.`)
      : null,
    h('p', {}, 'After you submit you cannot change any answer.'),
    h('div.actions', {}, back, confirm),
  );
  openModal(dialog, 'submit-title', back, true);
}

/**
 * Shows a blocking overlay (no way to dismiss it by keyboard); replaces any open dialog.
 * @returns the overlay's text element, to update while it is shown
 */
export function showOverlay(id: string, title: string, text: string): HTMLElement {
  const p = h('p', { id: id + '-text' }, text);
  const dialog = h('div.dialog.overlay', { id }, h('h2', { id: id + '-title' }, title), p);
  openModal(dialog, id + '-title', null, false);
  return p;
}
