/**
 * Shared page furniture: toasts, modal dialogs (every invigilator action asks for a
 * reason here before it reaches the audit log), error display and the print area.
 */
import { ApiError } from './api.js';
import { field, formValues, h, replace, type Child } from './dom.js';

/** Shows a short message at the bottom of the screen for a few seconds. */
export function toast(message: string, kind: 'ok' | 'error' | 'info' = 'ok'): void {
  const host = document.getElementById('toasts');
  if (!host) return;
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message);
  host.appendChild(el);
  // never more than three: a stack of toasts would cover the tables' action links
  while (host.children.length > 3) host.firstElementChild!.remove();
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 3500);
}

/** An error as a block: the problem's detail plus one line per validation error. */
export function errorBlock(err: unknown): HTMLElement {
  if (err instanceof ApiError) {
    const lines = err.lines();
    return h('div', { class: 'error', role: 'alert' }, h('strong', null, err.title), ' ', err.detail !== err.title ? err.detail : '', lines.length ? h('ul', null, lines.map((l) => h('li', null, l))) : null);
  }
  return h('div', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err));
}

/** Short text for an error (toasts). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return [err.detail, ...err.lines()].join(' · ');
  return err instanceof Error ? err.message : String(err);
}

export interface DialogOptions {
  title: string;
  /** explanatory text above the fields */
  intro?: Child;
  /** named form controls (wrapped with field()) */
  fields?: HTMLElement[];
  submitLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  /** runs on submit with the form's values; throw to keep the dialog open and show the error */
  onSubmit?: (values: Record<string, string | boolean>) => Promise<void> | void;
}

/**
 * Opens a modal form. Resolves with the submitted values (after onSubmit succeeded), or
 * null when cancelled.
 */
export function openDialog(opts: DialogOptions): Promise<Record<string, string | boolean> | null> {
  return new Promise((resolve) => {
    const errorHost = h('div', { class: 'dialog-error' });
    const submit = h('button', { type: 'submit', class: opts.danger ? 'danger' : 'primary' }, opts.submitLabel ?? 'OK');
    const form = h('form', { method: 'dialog', class: 'dialog-form' },
      h('h2', null, opts.title),
      opts.intro ? h('div', { class: 'dialog-intro' }, opts.intro) : null,
      opts.fields ?? [],
      errorHost,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', 'data-action': 'cancel', onclick: () => close(null) }, opts.cancelLabel ?? 'Cancel'), submit));
    const dialog = h('dialog', { class: 'modal' }, form);
    let settled = false;
    const close = (v: Record<string, string | boolean> | null) => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      resolve(v);
    };
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(null);
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const values = formValues(form);
      submit.disabled = true;
      try {
        await opts.onSubmit?.(values);
        close(values);
      } catch (err) {
        replace(errorHost, errorBlock(err));
      } finally {
        submit.disabled = false;
      }
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    (form.querySelector('input, textarea, select') as HTMLElement | null)?.focus();
  });
}

/** A required reason field for audited actions. */
export function reasonField(placeholder = 'e.g. power cut at seat 14'): HTMLElement {
  return field('Reason (kept in the audit log)', h('textarea', { name: 'reason', required: true, minlength: 3, rows: 2, placeholder }));
}

/**
 * Asks for a reason, then runs the action with it. Resolves true when the action ran.
 * `extra` adds fields (e.g. minutes to extend).
 */
export async function withReason(title: string, intro: Child, action: (values: Record<string, string | boolean>) => Promise<void>, extra: HTMLElement[] = [], danger = false): Promise<boolean> {
  const v = await openDialog({ title, intro, fields: [...extra, reasonField()], submitLabel: title, danger, onSubmit: action });
  return v !== null;
}

/** Yes/no confirmation. */
export async function confirmDialog(title: string, intro: Child, submitLabel = 'Yes', danger = true): Promise<boolean> {
  return (await openDialog({ title, intro, submitLabel, danger })) !== null;
}

/**
 * Fills the print-only area (shown only under `@media print`; every other element is
 * hidden there). `kind` selects the print layout in styles.css (slips, result, poster).
 */
export function setPrintArea(kind: 'slips' | 'result' | 'poster', ...content: Child[]): HTMLElement {
  const area = document.getElementById('print-area')!;
  area.className = `print-${kind}`;
  replace(area, ...content);
  return area;
}

/** Opens the browser print dialog for whatever is in the print area. */
export function printNow(): void {
  window.print();
}

/** A "loading…" placeholder. */
export function loading(what = 'Loading…'): HTMLElement {
  return h('p', { class: 'muted loading' }, what);
}
