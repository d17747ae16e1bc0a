/**
 * Entry point of the exam board's page at /board on the hub (docs/hub.md, "The board's
 * page"): restores the session from sessionStorage, draws the header (name, roles, own
 * password change, sign-out) and
 * routes hash URLs to screens: #/papers, #/papers/<id>/<tab>, #/halls, #/accounts. Built with
 * the hall admin page's look and parts (web/admin: dom, ui, api, the question view).
 */
import { Api } from '../admin/api.js';
import { field, h, replace } from '../admin/dom.js';
import { errorBlock, loading, openDialog, toast } from '../admin/ui.js';
import { clearToken, storedToken, storeToken, type BoardCtx } from './session.js';
import type { Me, Role } from './types.js';
import { renderSignIn } from './views/signin.js';
import { renderPapers } from './views/papers.js';
import { renderPaper } from './views/paper.js';
import { renderHalls } from './views/halls.js';
import { renderAccounts } from './views/accounts.js';

type Dispose = (() => void) | void;

const app = document.getElementById('app')!;
const topbar = document.getElementById('topbar')!;
let ctx: BoardCtx | null = null;
let dispose: Dispose;
let routeSeq = 0;

function showHeader(me: Me | null): void {
  topbar.hidden = me === null;
  if (!me) return;
  document.getElementById('who-name')!.textContent = me.name;
  document.getElementById('who-roles')!.textContent = me.roles.join(' · ');
  (document.querySelector('#mainnav a[data-nav="accounts"]') as HTMLElement).hidden = !me.roles.includes('publisher');
}

function signOut(message?: string): void {
  const token = storedToken();
  if (token && ctx) void ctx.api.post('/hub/v1/board/sign-out').catch(() => undefined);
  clearToken();
  ctx = null;
  showHeader(null);
  if (dispose) dispose();
  dispose = undefined;
  if (location.hash !== '#/signin') history.replaceState(null, '', '#/signin');
  renderSignIn(app, { onSignedIn: startSession, message });
}

/** Builds the session for a token the hub accepted. */
async function startSession(token: string): Promise<void> {
  const api = new Api(token);
  const me = await api.get<Me>('/hub/v1/board/me');
  storeToken(token);
  api.onUnauthorized = () => signOut('Your session has ended. Sign in again.');
  ctx = {
    api,
    me,
    can: (role: Role) => me.roles.includes(role) || role === 'viewer',
    navigate(hash) {
      if (location.hash === hash) void route();
      else location.hash = hash;
    },
    signOut,
  };
  showHeader(me);
  if (!location.hash || location.hash === '#/signin') location.hash = '#/papers';
  else await route();
}

/** Renders the screen for the current hash. */
async function route(): Promise<void> {
  if (!ctx) {
    if (location.hash === '#/signin' || !location.hash) signOut();
    return;
  }
  const seq = ++routeSeq;
  if (dispose) dispose();
  dispose = undefined;
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  for (const a of Array.from(document.querySelectorAll('#mainnav a'))) a.classList.toggle('active', a.getAttribute('data-nav') === (parts[0] ?? 'papers'));
  replace(app, loading());
  replace(document.getElementById('print-area')!);
  // each screen is drawn off the page and shown only if no newer navigation began meanwhile:
  // a slow screen must never cover the one asked for after it
  const screen = h('div', { class: 'screen' });
  try {
    let d: Dispose;
    switch (parts[0] ?? 'papers') {
      case 'halls':
        d = await renderHalls(ctx, screen);
        break;
      case 'accounts':
        d = await renderAccounts(ctx, screen);
        break;
      default:
        d = parts[1] ? await renderPaper(ctx, screen, parts[1], parts[2] ?? 'questions') : await renderPapers(ctx, screen);
    }
    if (seq !== routeSeq) {
      if (d) d();
    } else {
      dispose = d;
      replace(app, screen);
    }
  } catch (err) {
    if (seq === routeSeq) replace(app, errorBlock(err));
  }
}

/** The signed-in account changes its own password (PUT /hub/v1/board/me/password). */
async function changePassword(): Promise<void> {
  if (!ctx) return;
  const api = ctx.api;
  const done = await openDialog({
    title: 'Change your password',
    intro: 'Your other sessions (other browsers) are signed out.',
    fields: [
      field('Current password', h('input', { name: 'currentPassword', type: 'password', required: true, autocomplete: 'current-password' })),
      field('New password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' }), 'At least 8 characters.'),
    ],
    submitLabel: 'Change password',
    danger: false,
    onSubmit: async (v) => void (await api.put('/hub/v1/board/me/password', { currentPassword: v.currentPassword, password: v.password })),
  });
  if (done) toast('Password changed.');
}

async function boot(): Promise<void> {
  document.getElementById('signout')!.addEventListener('click', () => signOut('Signed out.'));
  document.getElementById('change-password')!.addEventListener('click', () => void changePassword());
  window.addEventListener('hashchange', () => void route());
  const token = storedToken();
  if (!token) return signOut();
  try {
    await startSession(token);
  } catch {
    clearToken();
    signOut('Your saved session has ended. Sign in again.');
  }
}

void boot();
