/**
 * Sign-in screen: e-mail + password (POST /workspaces/login), an API key (checked with
 * GET /workspaces/me), or registering a standalone hall (POST /workspaces/standalone,
 * webhook URL optional), whose key and webhook secret are shown once. Hands the accepted
 * key to `onSignedIn`.
 *
 * An e-mail no hall uses is asked about first: the page signs in with
 * `createIfMissing: false`, and on 404 NO_SUCH_HALL asks "No hall is registered with this
 * e-mail — create a new one?" before the plain sign-in that creates it (docs/decisions.md,
 * "Asking before creating a hall"). Sign-in refusals show as the server's sentence alone.
 */
import { Api, ApiError } from '../api.js';
import { copyText, field, formValues, h, replace } from '../dom.js';
import type { Workspace } from '../types.js';
import { errorBlock, openDialog } from '../ui.js';

/** A sign-in refusal as one sentence (the problem's detail, without its title). */
function signInError(err: unknown): HTMLElement {
  if (err instanceof ApiError && (err.status === 401 || err.status === 404 || err.status === 429) && !err.errors?.length) return h('div', { class: 'error', role: 'alert' }, err.detail);
  return errorBlock(err);
}

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
      replace(errorHost, signInError(err));
    } finally {
      btn.disabled = false;
    }
  };

  const passwordForm = h('form', { id: 'signin-password', class: 'stack' },
    field('E-mail', h('input', { name: 'email', type: 'email', required: true, autocomplete: 'username' })),
    field('Password', h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'current-password' }), 'An e-mail no hall uses yet: you are asked before a new hall (30 free candidate credits) is created.'),
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  passwordForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(passwordForm, async () => {
      const v = formValues(passwordForm);
      const login = (createIfMissing: boolean) => anon.post<Workspace & { apiKey: string }>('/workspaces/login', { email: v.email, password: v.password, createIfMissing });
      let res: Workspace & { apiKey: string };
      try {
        res = await login(false);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404 && err.code === 'NO_SUCH_HALL')) throw err;
        const create = await openDialog({
          title: 'No hall is registered with this e-mail — create a new one?',
          intro: h('p', null, `A new hall for ${String(v.email)} starts with 30 free candidate credits, and this password signs in to it. If you meant another e-mail, choose Cancel and correct it.`),
          submitLabel: 'Create a new hall',
          cancelLabel: 'Cancel',
          danger: false,
        });
        if (!create) return;
        res = await login(true);
      }
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
    field('Webhook URL (where results are sent; optional)', h('input', { name: 'webhookUrl', type: 'url', placeholder: 'https://school.example/cbt-results' }),
      'No internet at the centre? Leave it empty: results wait on this machine until a URL is set on the Deliveries screen.'),
    h('button', { type: 'submit', class: 'primary' }, 'Register hall'));
  registerForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void busy(registerForm, async () => {
      const v = formValues(registerForm);
      if (!String(v.webhookUrl ?? '').trim()) delete v.webhookUrl; // none yet: events wait in the outbox
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
