/**
 * Sign-in to the board's page: e-mail and password (POST /hub/v1/board/sign-in → a session
 * token), or, the first time, the hub's API key (printed once at the hub's first start) to
 * create the first account (POST /hub/v1/board/accounts with all three roles), which then
 * signs in. Refusals show as the hub's sentence.
 */
import { Api, ApiError } from '../../admin/api.js';
import { field, formValues, h, replace } from '../../admin/dom.js';
import { errorBlock } from '../../admin/ui.js';

export interface SignInOptions {
  onSignedIn: (token: string) => Promise<void>;
  message?: string;
}

type Tab = 'password' | 'first';

function refusal(err: unknown): HTMLElement {
  if (err instanceof ApiError && (err.status === 401 || err.status === 429) && !err.errors?.length) return h('div', { class: 'error', role: 'alert' }, err.detail);
  return errorBlock(err);
}

/** Draws the sign-in screen into `host`. */
export function renderSignIn(host: HTMLElement, opts: SignInOptions, tab: Tab = 'password'): void {
  const anon = new Api(null);
  const errorHost = h('div');
  const busy = async (form: HTMLFormElement, fn: () => Promise<void>) => {
    const btn = form.querySelector('button[type=submit]') as HTMLButtonElement;
    btn.disabled = true;
    replace(errorHost);
    try {
      await fn();
    } catch (err) {
      replace(errorHost, refusal(err));
    } finally {
      btn.disabled = false;
    }
  };
  const signIn = async (email: string, password: string) => {
    const res = await anon.post<{ token: string }>('/hub/v1/board/sign-in', { email, password });
    await opts.onSignedIn(res.token);
  };

  const passwordForm = h('form', { id: 'signin-password', class: 'stack' },
    field('E-mail', h('input', { name: 'email', type: 'email', required: true, autocomplete: 'username' })),
    field('Password', h('input', { name: 'password', type: 'password', required: true, autocomplete: 'current-password' })),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  passwordForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(passwordForm, async () => {
      const v = formValues(passwordForm);
      await signIn(String(v.email), String(v.password));
    });
  });

  const firstForm = h('form', { id: 'signin-first', class: 'stack' },
    h('p', { class: 'muted' }, 'The hub printed its API key once, at its first start. With it, create the first account of the board (author, publisher and viewer); that account then creates the others on the Accounts screen.'),
    field('Hub API key', h('input', { name: 'apiKey', type: 'password', required: true, autocomplete: 'off', placeholder: 'cbt_…' })),
    field('Your name', h('input', { name: 'name', required: true, maxlength: 200 })),
    field('E-mail', h('input', { name: 'email', type: 'email', required: true, autocomplete: 'username' })),
    field('Password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' }), 'At least 8 characters.'),
    h('button', { type: 'submit', class: 'primary' }, 'Create the account and sign in'));
  firstForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(firstForm, async () => {
      const v = formValues(firstForm);
      await new Api(String(v.apiKey)).post('/hub/v1/board/accounts', { name: v.name, email: v.email, password: v.password, roles: ['author', 'publisher', 'viewer'] });
      await signIn(String(v.email), String(v.password));
    });
  });

  const forms: Record<Tab, HTMLFormElement> = { password: passwordForm, first: firstForm };
  const labels: Record<Tab, string> = { password: 'E-mail & password', first: 'First account (hub API key)' };
  const tabs = h('div', { class: 'tabs', role: 'tablist' }, (Object.keys(forms) as Tab[]).map((t) =>
    h('button', { type: 'button', role: 'tab', class: t === tab ? 'tab active' : 'tab', 'data-tab': t, 'aria-selected': String(t === tab), onclick: () => renderSignIn(host, opts, t) }, labels[t])));
  replace(host, h('section', { class: 'card signin' },
    h('h1', null, 'HallCBT — exam board'),
    opts.message ? h('p', { class: 'notice' }, opts.message) : null,
    tabs, forms[tab], errorHost));
  (forms[tab].querySelector('input') as HTMLInputElement | null)?.focus();
}
