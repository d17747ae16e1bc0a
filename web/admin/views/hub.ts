/**
 * Exam board (issue #24, hall side): enrol this hall with a hub (GET /hub-link,
 * POST /hub-link/enrol), sync now, the papers from the hub — sealed (scheduled, nothing
 * readable until release) or released (a normal exam) — loading a package file from a USB
 * stick (POST /hub-link/packages) and opening a sealed paper with the release code the exam
 * body reads out (POST /hub-link/packages/:id/release). Enrolling and removing the link
 * (DELETE /hub-link) also need the hall operator's credential (issue #34, finding 1): the
 * one this tab signed in with at #/operator, or typed here (then kept for the tab, as the
 * operator sign-in keeps it).
 */
import { field, formValues, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import { formatDateTime } from '../time.js';
import { ApiError } from '../api.js';
import { confirmDialog, errorBlock, errorText, toast } from '../ui.js';
import { KeyAndOperatorApi, rememberOperatorCredential, storedOperatorCredential } from './operator.js';

interface HubLink {
  enrolled: boolean;
  hubUrl: string | null;
  hallId: string | null;
  enrolledAt: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  failures: number;
  nextSyncAt: string | null;
  results: { pending: number; delivered: number; failed: number };
}
interface HubPackage {
  packageId: string;
  title: string;
  startsAt: string;
  durationMins: number;
  version: number;
  state: 'SEALED' | 'RELEASED' | 'SUPERSEDED' | 'TOO_LATE';
  source: string;
  releasedAt: string | null;
  releasedBy: string | null;
  examId: string | null;
}

/** The operator credential field: empty when this tab holds one already (then it is used). */
function operatorField(): HTMLElement {
  return field('Hall operator credential', h('input', { name: 'operatorKey', type: 'password', autocomplete: 'off', placeholder: storedOperatorCredential() ? 'signed in as operator' : 'cbtop_…', required: !storedOperatorCredential() }),
    'Printed when HallCBT was installed; choosing where this hall connects belongs to the hall’s operator.');
}

/**
 * Runs `call` with the workspace key and the operator credential (typed, else the tab's);
 * keeps a credential that worked and forgets one that was refused.
 */
async function asOperator<T>(ctx: Ctx, typed: string, call: (api: KeyAndOperatorApi) => Promise<T>): Promise<T> {
  const credential = typed.trim() || storedOperatorCredential() || '';
  try {
    const result = await call(new KeyAndOperatorApi(ctx.api.apiKey, credential));
    rememberOperatorCredential(credential);
    return result;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403) && err.code === 'OPERATOR_REQUIRED') rememberOperatorCredential(null);
    throw err;
  }
}

/** Draws the exam-board screen. */
export async function renderHub(ctx: Ctx, host: HTMLElement): Promise<void> {
  const link = await ctx.api.get<HubLink>('/hub-link');
  const again = () => void renderHub(ctx, host).catch((err) => toast(errorText(err), 'error'));
  if (!link.enrolled) {
    const err = h('div');
    const form = h('form', { id: 'hub-enrol-form', class: 'stack' },
      field('Hub address', h('input', { name: 'hubUrl', type: 'url', required: true, placeholder: 'https://board.example.org', class: 'wide' })),
      field('Enrolment code (from the exam board, used once)', h('input', { name: 'enrolmentCode', required: true, autocomplete: 'off', spellcheck: 'false' })),
      field('This hall’s name', h('input', { name: 'hallName', required: true, value: ctx.workspace.name })),
      operatorField(),
      h('button', { type: 'submit' }, 'Enrol this hall'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      replace(err);
      try {
        const { operatorKey, ...body } = formValues(form) as Record<string, string>;
        await asOperator(ctx, operatorKey ?? '', (api) => api.post('/hub-link/enrol', body));
        toast('Enrolled. Papers from the exam board will appear here.');
        again();
      } catch (ex) {
        replace(err, errorBlock(ex));
      }
    });
    replace(host, h('h1', null, 'Exam board'),
      h('section', { class: 'card' }, h('h2', null, 'Enrol with an exam board’s hub'),
        h('p', null, 'Papers published by the exam board arrive sealed: this machine cannot read them until the release code is typed at the start time, or the hub releases them online.'),
        form, err));
    return;
  }

  const packages = await ctx.api.get<HubPackage[]>('/hub-link/packages');
  const syncBtn = h('button', { type: 'button', id: 'hub-sync', class: 'secondary', onclick: async () => {
    try {
      const r = await ctx.api.post<{ received: string[]; released: string[]; resultsDelivered: number; error: string | null }>('/hub-link/sync');
      toast(r.error ? `Sync failed: ${r.error}` : `Synced: ${r.received.length} new paper(s), ${r.released.length} released, ${r.resultsDelivered} result(s) sent.`, r.error ? 'error' : undefined);
      again();
    } catch (ex) {
      toast(errorText(ex), 'error');
    }
  } }, 'Sync now');

  const fileInput = h('input', { type: 'file', id: 'hub-package-file', accept: '.json,application/json' }) as HTMLInputElement;
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    try {
      await ctx.api.post('/hub-link/packages', JSON.parse(await file.text()));
      toast('Package loaded. It stays sealed until its release code is typed.');
      again();
    } catch (ex) {
      toast(ex instanceof SyntaxError ? 'That file is not a HallCBT package.' : errorText(ex), 'error');
    }
  });

  const removeErr = h('div');
  const removeForm = h('form', { id: 'hub-remove-form', class: 'stack' },
    h('p', { class: 'small' }, 'Removing the link stops all contact with the hub at once. Sealed papers are dropped; released exams stay but send no more results up.'),
    operatorField(),
    h('button', { type: 'submit', class: 'danger' }, 'Remove the link'));
  removeForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(removeErr);
    if (!(await confirmDialog('Remove the link to the exam board', 'The hall stops all contact with the hub at once. Sealed papers are dropped; to use a hub again, enrol with a new code.', 'Remove'))) return;
    try {
      await asOperator(ctx, String(formValues(removeForm).operatorKey ?? ''), (api) => api.del('/hub-link'));
      toast('The link to the exam board is removed.');
      again();
    } catch (ex) {
      replace(removeErr, errorBlock(ex));
    }
  });

  const rows = packages.map((p) => {
    let action: HTMLElement;
    if (p.state === 'RELEASED') {
      action = h('a', { href: `#/exams/${encodeURIComponent(p.examId ?? '')}`, class: 'small' }, 'Open the exam');
    } else if (p.state === 'SUPERSEDED') {
      action = h('span', { class: 'small' }, 'A newer version replaced this one.');
    } else if (p.state === 'TOO_LATE') {
      action = h('span', { class: 'small' }, 'Arrived after an earlier version was released; not opened.');
    } else {
      const err = h('div', { class: 'small' });
      const codeInput = h('input', { name: 'releaseCode', required: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'ABC-DEF-GHJ-KMN-PQR-STV-WXY', 'aria-label': `Release code for ${p.title}`, class: 'release-code' });
      action = h('form', { class: 'inline-form', 'data-release': p.packageId }, codeInput, h('button', { type: 'submit', class: 'small' }, 'Release'), err);
      action.addEventListener('submit', async (e) => {
        e.preventDefault();
        replace(err);
        try {
          await ctx.api.post(`/hub-link/packages/${encodeURIComponent(p.packageId)}/release`, formValues(action as HTMLFormElement));
          toast(`“${p.title}” is released and ready for candidates.`);
          again();
        } catch (ex) {
          replace(err, errorText(ex));
        }
      });
    }
    return h('tr', { 'data-package-id': p.packageId, 'data-state': p.state.toLowerCase() },
      h('td', null, p.title, p.version > 1 ? h('span', { class: 'small' }, ` (version ${p.version})`) : ''),
      h('td', null, formatDateTime(p.startsAt)),
      h('td', { class: 'num' }, `${p.durationMins} min`),
      h('td', null, h('span', { class: `badge hub-${p.state.toLowerCase()}` }, p.state === 'SEALED' ? 'Sealed' : p.state === 'SUPERSEDED' ? 'Superseded' : p.state === 'TOO_LATE' ? 'Too late' : `Released (${p.releasedBy === 'hub' ? 'by the hub' : 'by code'})`)),
      h('td', null, action));
  });

  replace(host, h('h1', null, 'Exam board'),
    h('section', { class: 'card' }, h('h2', null, 'Hub'),
      h('p', null, 'Enrolled with ', h('code', null, link.hubUrl ?? ''), ' as ', h('code', null, link.hallId ?? ''), ` on ${formatDateTime(link.enrolledAt)}.`),
      h('p', { id: 'hub-last-sync' }, `Last sync: ${link.lastSyncAt ? formatDateTime(link.lastSyncAt) : 'not yet'}`, link.lastError ? h('span', { class: 'error-text' }, ` — ${link.lastError}`) : '',
        link.failures && link.nextSyncAt ? h('span', { class: 'small' }, ` (${link.failures} failed in a row; next try ${formatDateTime(link.nextSyncAt)})`) : ''),
      h('p', { id: 'hub-results' }, `Results to the exam board: ${link.results.delivered} sent, ${link.results.pending} waiting for the internet, ${link.results.failed} refused.`),
      syncBtn,
      h('details', { id: 'hub-remove' }, h('summary', null, 'Remove the link (hall operator)'), removeForm, removeErr)),
    h('section', { class: 'card' }, h('h2', null, 'Papers'),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Load a package file (USB)'), fileInput),
      packages.length
        ? h('table', { class: 'table', id: 'hub-packages' }, h('thead', null, h('tr', null, h('th', null, 'Paper'), h('th', null, 'Starts'), h('th', null, 'Duration'), h('th', null, 'State'), h('th', null, 'Action'))), h('tbody', null, rows))
        : h('p', { class: 'muted' }, 'No papers yet.')));
}
