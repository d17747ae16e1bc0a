/**
 * Account screen: the workspace's details, renaming it (PATCH /workspaces/me) and setting
 * the password used for e-mail sign-in (PUT /workspaces/me/password) — needed once for a
 * hall registered through the API, which has no password yet (docs/design.md §4).
 */
import { field, formValues, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Workspace } from '../types.js';
import { errorBlock, toast } from '../ui.js';

/** Draws the account screen. */
export async function renderAccount(ctx: Ctx, host: HTMLElement): Promise<void> {
  const ws = await ctx.refreshWorkspace();

  const nameForm = h('form', { id: 'rename-form', class: 'inline-form' },
    field('Hall name', h('input', { name: 'name', required: true, maxlength: 200, value: ws.name })),
    h('button', { type: 'submit', class: 'secondary' }, 'Rename'));
  nameForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await ctx.api.patch<Workspace>('/workspaces/me', { name: formValues(nameForm).name });
      await ctx.refreshWorkspace();
      toast('Hall renamed.');
    } catch (err) {
      toast(String((err as Error).message), 'error');
    }
  });

  const pwError = h('div');
  const pwForm = h('form', { id: 'password-form', class: 'stack narrow' },
    field('New password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' }), 'At least 8 characters.'),
    field('Repeat it', h('input', { name: 'repeat', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' })),
    h('button', { type: 'submit', class: 'primary' }, ws.hasPassword ? 'Change password' : 'Set password'), pwError);
  pwForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const v = formValues(pwForm);
    replace(pwError);
    if (v.password !== v.repeat) {
      replace(pwError, h('div', { class: 'error', role: 'alert' }, 'The two passwords differ.'));
      return;
    }
    try {
      await ctx.api.put('/workspaces/me/password', { password: v.password });
      pwForm.reset();
      await ctx.refreshWorkspace();
      toast('Password saved. You can now sign in with your e-mail and this password.');
      replace(pwStatus, 'A password is set.');
    } catch (err) {
      replace(pwError, errorBlock(err));
    }
  });
  const pwStatus = h('p', { id: 'password-status', class: ws.hasPassword ? 'muted' : 'notice' },
    ws.hasPassword ? 'A password is set.' : 'This hall has no password yet (it was registered through the API). Set one to sign in with your e-mail.');

  const dl = h('dl', { class: 'facts' },
    h('dt', null, 'Workspace ID'), h('dd', null, h('code', null, ws.id)),
    h('dt', null, 'Type'), h('dd', null, ws.type ?? '—'),
    h('dt', null, 'Owner'), h('dd', null, ws.ownerName ?? '—'),
    h('dt', null, 'E-mail'), h('dd', null, ws.ownerEmail ?? '—'),
    h('dt', null, 'Credits left'), h('dd', { id: 'account-credits' }, String(ws.credits)),
    h('dt', null, 'Exams / questions'), h('dd', null, ws._count ? `${ws._count.exams} / ${ws._count.questions}` : '—'));

  replace(host,
    h('h1', null, 'Account'),
    h('section', { class: 'card' }, dl, nameForm),
    h('section', { class: 'card' }, h('h2', null, 'Password for e-mail sign-in'), pwStatus, pwForm));
}
