/**
 * The hall operator's screen at #/operator (docs/design.md §4, §11; issue 22 part 2): its own
 * sign-in with the operator credential (printed at install), separate from any
 * workspace's API key, then the backups (the list, the retention settings and "Back up
 * now") and the workspaces with their credits, which only the operator tops up
 * (operator-credits.ts). The credential lives only in this tab's sessionStorage, like the workspace key,
 * and travels only in the `x-operator-key` header.
 */
import { Api, ApiError } from '../api.js';
import { field, formValues, h, replace } from '../dom.js';
import { errorBlock, loading, toast } from '../ui.js';
import { renderWorkspaceCredits } from './operator-credits.js';

const KEY = 'hallcbt.admin.operator';

interface BackupList {
  intervalMins: number;
  keep: number;
  retention: string;
  secondDirConfigured: boolean;
  backups: { file: string; bytes: number; createdAt: string }[];
}

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The operator credential this tab holds (signed in at #/operator or on the exam-board screen), or null. */
export function storedOperatorCredential(): string | null {
  return stored();
}

/** Keeps `credential` for this tab (null forgets it), as the operator sign-in does. */
export function rememberOperatorCredential(credential: string | null): void {
  try {
    if (credential) sessionStorage.setItem(KEY, credential);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* storage refused: the credential is asked for again next time */
  }
}

/**
 * A client that sends a workspace key and the operator credential together: routes that
 * act for a workspace on the whole appliance's behalf (enrolling with a hub, removing the
 * link: issue #34, finding 1). Its 401s do not sign the examiner out.
 */
export class KeyAndOperatorApi extends Api {
  constructor(apiKey: string | null, private readonly credential: string) {
    super(apiKey);
  }
  override headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...super.headers(extra), 'x-operator-key': this.credential };
  }
}

/** A client that sends the operator credential instead of a workspace key. */
class OperatorApi extends Api {
  constructor(private readonly credential: string) {
    super(null);
  }
  override headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'x-operator-key': this.credential, ...extra };
  }
}

/** Draws the operator screen into `host`: sign-in when no credential is held, else backups. */
export async function renderOperator(host: HTMLElement): Promise<void> {
  const credential = stored();
  if (!credential) return renderOperatorSignIn(host);
  replace(host, loading());
  const api = new OperatorApi(credential);
  try {
    renderBackups(host, api, await api.get<BackupList>('/system/backups'));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      sessionStorage.removeItem(KEY);
      return renderOperatorSignIn(host, 'The operator credential is no longer accepted (was it rotated?). Sign in again.');
    }
    replace(host, errorBlock(err));
  }
}

function renderOperatorSignIn(host: HTMLElement, message?: string): void {
  const errorHost = h('div');
  const form = h('form', { id: 'operator-signin', class: 'stack' },
    field('Operator credential', h('input', { name: 'operatorKey', type: 'password', required: true, autocomplete: 'off', placeholder: 'cbtop_…' }),
      'Printed once when HallCBT was installed (or first started). On the hall machine, `scripts/operator rotate` makes a new one.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in as operator'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const btn = form.querySelector('button[type=submit]') as HTMLButtonElement;
    btn.disabled = true;
    replace(errorHost);
    const credential = String(formValues(form).operatorKey).trim();
    void new OperatorApi(credential).get<BackupList>('/system/backups').then(
      (list) => {
        sessionStorage.setItem(KEY, credential);
        renderBackups(host, new OperatorApi(credential), list);
      },
      (err) => {
        btn.disabled = false;
        replace(errorHost, errorBlock(err));
      },
    );
  });
  replace(host, h('section', { class: 'card signin' },
    h('h1', null, 'Hall operator'),
    h('p', null, 'Backups of the whole appliance and the halls’ credits belong to the hall’s operator. A hall’s API key or examiner password does not open them.'),
    message ? h('p', { class: 'notice' }, message) : null,
    form, errorHost,
    h('p', null, h('a', { href: '#/signin' }, '← Examiner & invigilator sign-in'))));
  (form.querySelector('input') as HTMLInputElement).focus();
}

const size = (bytes: number) => (bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

function renderBackups(host: HTMLElement, api: OperatorApi, list: BackupList): void {
  const now = h('button', { type: 'button', class: 'primary', id: 'backup-now' }, 'Back up now');
  now.addEventListener('click', () => {
    now.disabled = true;
    void api.post<{ file: string; copiedToSecondDir: boolean; secondDirError?: string }>('/system/backups').then(
      async (b) => {
        toast(`Backup ${b.file} taken${b.secondDirError ? `; the second copy failed: ${b.secondDirError}` : ''}.`, b.secondDirError ? 'error' : 'ok');
        renderBackups(host, api, await api.get<BackupList>('/system/backups'));
      },
      (err) => {
        now.disabled = false;
        toast(err instanceof Error ? err.message : String(err), 'error');
      },
    );
  });
  const creditsHost = h('div', { id: 'operator-credits' });
  const signOut = h('button', { type: 'button', class: 'link', id: 'operator-signout', onclick: () => { sessionStorage.removeItem(KEY); renderOperatorSignIn(host, 'Signed out.'); } }, 'Sign out operator');
  replace(host, h('section', { class: 'operator' },
    h('div', { class: 'page-head' }, h('h1', null, 'Backups'), h('div', { class: 'actions' }, now, signOut)),
    h('p', { class: 'muted', id: 'backup-settings' },
      list.intervalMins ? `A backup is taken every ${list.intervalMins} minutes. ` : 'Scheduled backups are off. ',
      `Kept: ${list.retention.replace('CBT_BACKUP_KEEP', String(list.keep))}.`,
      list.secondDirConfigured ? ' Each is also copied to the second backup folder.' : ''),
    list.backups.length
      ? h('table', { class: 'table', id: 'backup-list' },
        h('thead', null, h('tr', null, h('th', null, 'Backup'), h('th', null, 'Taken'), h('th', null, 'Size'))),
        h('tbody', null, list.backups.map((b) => h('tr', null, h('td', { class: 'mono' }, b.file), h('td', null, new Date(b.createdAt).toLocaleString()), h('td', null, size(b.bytes))))))
      : h('p', { class: 'empty', id: 'backup-list' }, 'No backups yet.'),
    h('p', { class: 'muted' }, 'To restore one, stop HallCBT and run scripts/restore on the hall machine (docs/operations.md).'),
    creditsHost));
  void renderWorkspaceCredits(creditsHost, api);
}
