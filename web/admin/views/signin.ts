/**
 * Sign-in screen: e-mail + password (POST /workspaces/login; an unknown e-mail creates a
 * new hall with 30 credits), an API key (checked with GET /workspaces/me), or registering
 * a standalone hall (POST /workspaces/standalone), whose key and webhook secret are shown
 * once. Hands the accepted key to `onSignedIn`.
 */
import { Api } from '../api.js';
import { copyText, field, formValues, h, replace } from '../dom.js';
import type { Workspace } from '../types.js';
import { errorBlock } from '../ui.js';

export interface SignInOptions {
  onSignedIn: (apiKey: string, ws?: Workspace) => Promise<void>;
  message?: string;
}

type Tab = 'password' | 'key' | 'register';

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
      replace(errorHost, errorBlock(err));
    } finally {
      btn.disabled = false;
    }
  };

  const passwordForm = h('form', { id: 'signin-password', class: 'stack' },
    field('E-mail', h('input', { name: 'email', type: 'email', required: true, autocomplete: 'username' })),
    field('Password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'current-password' }), 'A new e-mail address creates a new hall with 30 free candidate credits.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  passwordForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(passwordForm, async () => {
      const v = formValues(passwordForm);
      const res = await anon.post<Workspace & { apiKey: string }>('/workspaces/login', { email: v.email, password: v.password });
      await opts.onSignedIn(res.apiKey);
    });
  });

  const keyForm = h('form', { id: 'signin-key', class: 'stack' },
    field('API key', h('input', { name: 'apiKey', type: 'password', required: true, autocomplete: 'off', placeholder: 'cbt_…' }), 'Kept only in this browser tab (sessionStorage) until you sign out or close it.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in with key'));
  keyForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(keyForm, async () => {
      const key = String(formValues(keyForm).apiKey);
      const ws = await new Api(key).get<Workspace>('/workspaces/me');
      await opts.onSignedIn(key, ws);
    });
  });

  const registerForm = h('form', { id: 'signin-register', class: 'stack' },
    field('Hall / centre name', h('input', { name: 'name', required: true, maxlength: 200 })),
    field('Your name', h('input', { name: 'ownerName', required: true, maxlength: 200 })),
    field('E-mail', h('input', { name: 'email', type: 'email', required: true })),
    field('Webhook URL (where results are sent)', h('input', { name: 'webhookUrl', type: 'url', required: true, placeholder: 'https://school.example/cbt-results' })),
    h('button', { type: 'submit', class: 'primary' }, 'Register hall'));
  registerForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(registerForm, async () => {
      const v = formValues(registerForm);
      const res = await anon.post<{ id: string; name: string; credits: number; apiKey: string; webhookSecret: string }>('/workspaces/standalone', v);
      showSecretsOnce(host, res, opts);
    });
  });

  const forms: Record<Tab, HTMLFormElement> = { password: passwordForm, key: keyForm, register: registerForm };
  const labels: Record<Tab, string> = { password: 'E-mail & password', key: 'API key', register: 'Register a new hall' };
  const tabs = h('div', { class: 'tabs', role: 'tablist' }, (Object.keys(forms) as Tab[]).map((t) =>
    h('button', { type: 'button', role: 'tab', class: t === tab ? 'tab active' : 'tab', 'data-tab': t, 'aria-selected': String(t === tab), onclick: () => renderSignIn(host, opts, t) }, labels[t])));

  replace(host, h('section', { class: 'card signin' },
    h('h1', null, 'HallCBT — invigilator & examiner'),
    opts.message ? h('p', { class: 'notice' }, opts.message) : null,
    tabs, forms[tab], errorHost,
    h('p', { class: 'muted operator-link' }, h('a', { href: '#/operator', id: 'operator-link' }, 'Hall operator (backups) →'))));
  (forms[tab].querySelector('input') as HTMLInputElement | null)?.focus();
}

/** After registration: the key and secret are shown exactly once, with copy buttons. */
function showSecretsOnce(host: HTMLElement, res: { name: string; credits: number; apiKey: string; webhookSecret: string }, opts: SignInOptions): void {
  const secret = (label: string, value: string, id: string) => h('div', { class: 'secret' },
    h('span', { class: 'field-label' }, label),
    h('code', { id }, value),
    h('button', { type: 'button', class: 'secondary small', onclick: () => void copyText(value) }, 'Copy'));
  replace(host, h('section', { class: 'card signin' },
    h('h1', null, `Hall “${res.name}” registered`),
    h('p', null, `You have ${res.credits} candidate credits. Write these down now: they are shown only once. `,
      'Set a password on the Account screen to sign in with your e-mail next time.'),
    secret('API key', res.apiKey, 'new-api-key'),
    secret('Webhook signing secret', res.webhookSecret, 'new-webhook-secret'),
    h('button', { type: 'button', class: 'primary', id: 'continue-signed-in', onclick: () => void opts.onSignedIn(res.apiKey) }, 'Continue to the hall')));
}
