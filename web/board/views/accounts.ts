/**
 * Board accounts (publishers): who may sign in and with which roles — author (papers and
 * imports), publisher (halls, publishing, release codes, accounts), viewer (read only).
 * Create (POST /hub/v1/board/accounts), change roles, set a new password, disable or enable
 * (PATCH …/accounts/{id}; a new password or disabling ends the account's sessions). Every
 * change is kept in the hub's audit trail.
 */
import { field, h, hiddenHeader, replace } from '../../admin/dom.js';
import { formatDateTime } from '../../admin/time.js';
import { errorText, openDialog, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Account, Role } from '../types.js';

const ROLES: Array<[Role, string]> = [['author', 'Author — papers and imports'], ['publisher', 'Publisher — halls, publishing, release codes, accounts'], ['viewer', 'Viewer — read only']];

function roleBoxes(current: Role[] = []): HTMLElement {
  return h('fieldset', { class: 'roles' }, h('legend', null, 'Roles'), ROLES.map(([r, label]) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: `role-${r}`, checked: current.includes(r) }), ` ${label}`)));
}
const rolesOf = (v: Record<string, string | boolean>) => ROLES.map(([r]) => r).filter((r) => v[`role-${r}`] === true);

/** Draws the accounts screen into `host`. */
export async function renderAccounts(ctx: BoardCtx, host: HTMLElement): Promise<void> {
  const accounts = await ctx.api.get<Account[]>('/hub/v1/board/accounts');
  const reload = () => ctx.navigate('#/accounts');
  const create = async () => {
    const done = await openDialog({
      title: 'New account',
      fields: [
        field('Name', h('input', { name: 'name', required: true, maxlength: 200 })),
        field('E-mail', h('input', { name: 'email', type: 'email', required: true })),
        field('Password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' }), 'At least 8 characters; give it to the person privately.'),
        roleBoxes(['viewer']),
      ],
      submitLabel: 'Create account',
      danger: false,
      onSubmit: async (v) => void (await ctx.api.post('/hub/v1/board/accounts', { name: v.name, email: v.email, password: v.password, roles: rolesOf(v) })),
    });
    if (done) {
      toast('Account created.');
      reload();
    }
  };
  const edit = async (a: Account) => {
    const done = await openDialog({
      title: `Change ${a.name}`,
      fields: [roleBoxes(a.roles), field('New password (optional)', h('input', { name: 'password', type: 'password', minlength: 8, autocomplete: 'new-password' }), 'Signs the account out everywhere.')],
      submitLabel: 'Save',
      danger: false,
      onSubmit: async (v) => void (await ctx.api.patch(`/hub/v1/board/accounts/${encodeURIComponent(a.id)}`, { roles: rolesOf(v), ...(v.password ? { password: v.password } : {}) })),
    });
    if (done) {
      toast('Account changed.');
      reload();
    }
  };
  const toggle = async (a: Account) => {
    try {
      await ctx.api.patch(`/hub/v1/board/accounts/${encodeURIComponent(a.id)}`, { disabled: !a.disabled });
      toast(a.disabled ? 'Account enabled.' : 'Account disabled: its sessions have ended.');
      reload();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };
  replace(host,
    h('div', { class: 'page-head' }, h('h1', null, 'Accounts'), h('button', { type: 'button', class: 'primary', id: 'new-account', onclick: () => void create() }, 'New account')),
    h('table', { class: 'table', id: 'accounts' },
      h('thead', null, h('tr', null, ['Name', 'E-mail', 'Roles', 'Since'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
      h('tbody', null, accounts.map((a) => h('tr', { 'data-account-id': a.id, class: a.disabled ? 'row-muted' : null },
        h('td', null, a.name), h('td', null, a.email), h('td', null, a.disabled ? `${a.roles.join(', ')} (disabled)` : a.roles.join(', ')), h('td', null, formatDateTime(a.createdAt)),
        h('td', null,
          h('button', { type: 'button', class: 'link small', onclick: () => void edit(a) }, 'Change'),
          a.id === ctx.me.id ? null : h('button', { type: 'button', class: 'link small danger-text', onclick: () => void toggle(a) }, a.disabled ? 'Enable' : 'Disable')))))));
}
