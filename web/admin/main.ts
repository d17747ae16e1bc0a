/**
 * Entry point of the invigilator/examiner page at /admin: restores the session from
 * sessionStorage, draws the header (workspace name, credits, the credits warning) and routes hash URLs to
 * screens. Each screen may return a dispose function (the live monitor closes its
 * event stream with it).
 */
import { Api } from './api.js';
import { startClockCheck } from './clock-check.js';
import { showCreditsWarning } from './credits-warning.js';
import { replace } from './dom.js';
import { clearKey, fetchWorkspace, storedKey, storeKey, type Ctx } from './session.js';
import type { Workspace } from './types.js';
import { errorBlock, loading, toast } from './ui.js';
import { renderSignIn } from './views/signin.js';
import { renderExamList } from './views/exams.js';
import { renderExam } from './views/exam-shell.js';
import { renderDeliveries } from './views/deliveries.js';
import { renderConnect } from './views/connect.js';
import { renderAccount } from './views/account.js';
import { renderHub } from './views/hub.js';
import { renderOperator } from './views/operator.js';

/** The hall operator's screen has its own sign-in and needs no workspace session. */
const isOperatorRoute = () => location.hash.startsWith('#/operator');

export type Dispose = (() => void) | void;

const app = document.getElementById('app')!;
const topbar = document.getElementById('topbar')!;
let ctx: Ctx | null = null;
let dispose: Dispose;
let routeSeq = 0;
/** stops the time-sync checks of the signed-in session */
let stopClockCheck: (() => void) | null = null;

function showHeader(ws: Workspace | null): void {
  topbar.hidden = ws === null;
  showCreditsWarning(document.getElementById('credits-warning')!, ws);
  if (!ws) return;
  document.getElementById('ws-name')!.textContent = ws.name;
  document.getElementById('ws-credits')!.textContent = String(ws.credits);
}

function signOut(message?: string): void {
  clearKey();
  ctx = null;
  if (stopClockCheck) stopClockCheck();
  stopClockCheck = null;
  showHeader(null);
  if (dispose) dispose();
  dispose = undefined;
  if (location.hash !== '#/signin') history.replaceState(null, '', '#/signin');
  renderSignIn(app, { onSignedIn: startSession, message });
}

/** Builds the session context for a key that the server accepted. */
async function startSession(apiKey: string, ws?: Workspace): Promise<void> {
  const api = new Api(apiKey);
  const workspace = ws ?? (await fetchWorkspace(api));
  storeKey(apiKey);
  api.onUnauthorized = () => signOut('Your API key is no longer accepted. Sign in again.');
  const c: Ctx = {
    api,
    workspace,
    async refreshWorkspace() {
      c.workspace = await fetchWorkspace(api);
      showHeader(c.workspace);
      return c.workspace;
    },
    navigate(hash) {
      if (location.hash === hash) void route();
      else location.hash = hash;
    },
    signOut,
  };
  ctx = c;
  showHeader(workspace);
  if (stopClockCheck) stopClockCheck();
  stopClockCheck = startClockCheck(api, document.getElementById('clock-warning')!);
  if (!location.hash || location.hash === '#/signin') location.hash = '#/exams';
  else await route();
}

/** Renders the screen for the current hash. */
async function route(): Promise<void> {
  if (isOperatorRoute()) {
    ++routeSeq; // a screen still loading must not replace this one
    if (dispose) dispose();
    dispose = undefined;
    for (const a of Array.from(document.querySelectorAll('#mainnav a'))) a.classList.toggle('active', a.getAttribute('data-nav') === 'operator');
    return renderOperator(app);
  }
  if (!ctx) {
    if (location.hash === '#/signin' || !location.hash) signOut();
    return;
  }
  const seq = ++routeSeq;
  if (dispose) dispose();
  dispose = undefined;
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  for (const a of Array.from(document.querySelectorAll('#mainnav a'))) a.classList.toggle('active', a.getAttribute('data-nav') === (parts[0] ?? 'exams'));
  replace(app, loading());
  replace(document.getElementById('print-area')!); // each screen fills it with what it prints
  try {
    let d: Dispose;
    switch (parts[0] ?? 'exams') {
      case 'exams':
        d = parts[1] ? await renderExam(ctx, app, parts[1], parts[2] ?? 'settings', parts[3]) : await renderExamList(ctx, app);
        break;
      case 'deliveries':
        d = await renderDeliveries(ctx, app);
        break;
      case 'connect':
        d = await renderConnect(ctx, app);
        break;
      case 'account':
        d = await renderAccount(ctx, app);
        break;
      case 'hub':
        d = await renderHub(ctx, app);
        break;
      default:
        d = await renderExamList(ctx, app);
    }
    if (seq !== routeSeq) {
      if (d) d(); // a newer navigation already replaced this screen
    } else dispose = d;
  } catch (err) {
    if (seq === routeSeq) replace(app, errorBlock(err));
  }
  // credits move as candidates start; keep the header honest without polling
  if (seq === routeSeq) ctx?.refreshWorkspace().catch(() => undefined);
}

async function boot(): Promise<void> {
  document.getElementById('signout')!.addEventListener('click', () => signOut('Signed out.'));
  window.addEventListener('hashchange', () => void route());
  if (isOperatorRoute()) {
    const key = storedKey();
    if (!key) return route();
    return startSession(key).catch(() => {
      clearKey();
      return route();
    });
  }
  const key = storedKey();
  if (!key) return signOut();
  try {
    await startSession(key);
  } catch (err) {
    signOut('Your saved session has ended. Sign in again.');
    if (!(err instanceof Error)) toast(String(err), 'error');
  }
}

void boot();
