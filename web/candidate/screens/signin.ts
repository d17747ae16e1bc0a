/**
 * Sign-in screen (issue 4 point 1): room code, full name, student ID and PIN →
 * `POST /attempts/preview` (every check of a start, but no clock starts: issue 20). Problems come back as clear sentences (messages.ts): wrong
 * code, wrong PIN, not open yet (with the local opening time), credits exhausted,
 * disqualified, already submitted… The room code can be pre-filled from `?room=` (the
 * QR code / link an invigilator shares).
 */
import { call } from '../api.js';
import { h, mount } from '../dom.js';
import { messageFor } from '../messages.js';
import { reloadAdvice } from '../offline-shell.js';
import { paperQuery } from '../math.js';
import type { Credentials, Preview, Problem } from '../types.js';
import { showSebRequired } from '../seb.js';

interface Field {
  name: 'accessCode' | 'candidateName' | 'studentId' | 'candidatePin';
  label: string;
  hint: string;
  attrs: Record<string, string>;
}

const FIELDS: Field[] = [
  { name: 'accessCode', label: 'Room code', hint: 'The code on the board, e.g. K7P2QX', attrs: { autocapitalize: 'characters', autocomplete: 'off', spellcheck: 'false', maxlength: '32' } },
  { name: 'candidateName', label: 'Full name', hint: 'As on your exam slip', attrs: { autocomplete: 'name', maxlength: '120' } },
  { name: 'studentId', label: 'Student ID', hint: 'Your exam or registration number', attrs: { autocomplete: 'off', spellcheck: 'false', maxlength: '64' } },
  { name: 'candidatePin', label: 'PIN', hint: '4 to 8 digits. First time here without a PIN slip? Choose one and remember it.', attrs: { type: 'password', inputmode: 'numeric', autocomplete: 'off', maxlength: '8' } },
];

type Values = Credentials;

/** Checks the form before sending; returns a message per invalid field. */
export function validateSignIn(v: Values): Partial<Record<Field['name'], string>> {
  const errors: Partial<Record<Field['name'], string>> = {};
  if (!v.accessCode) errors.accessCode = 'Enter the room code.';
  if (!v.candidateName) errors.candidateName = 'Enter your full name.';
  if (!v.studentId) errors.studentId = 'Enter your student ID.';
  else if (v.studentId.length > 64) errors.studentId = 'A student ID has at most 64 characters.';
  if (!/^\d{4,8}$/.test(v.candidatePin)) errors.candidatePin = 'The PIN is 4 to 8 digits.';
  return errors;
}

/**
 * Shows the sign-in form.
 * @param onSignedIn called with the preview after a 200, and the values that got it
 * @param notice optional message shown above the form: a problem (red, announced at once),
 *   or with `calm` a confirmation such as "Exam finished" (green, a polite status: issue 36)
 */
export function showSignIn(onSignedIn: (preview: Preview, credentials: Credentials) => void, notice?: { title: string; text: string; calm?: boolean }): void {
  const calm = !!notice && !!notice.calm;
  const alertBox = h('div.alert', { id: 'signin-alert', role: 'alert', tabindex: '-1', hidden: !notice || calm });
  const calmBox = calm ? h('div.notice.ok.confirm', { id: 'signin-notice', role: 'status' }, h('strong', {}, notice!.title), h('p', {}, notice!.text)) : null;
  const inputs = {} as Record<Field['name'], HTMLInputElement>;
  const errs = {} as Record<Field['name'], HTMLElement>;
  const button = h('button.primary.big', { type: 'submit' }, 'Sign in') as HTMLButtonElement;

  const showAlert = (title: string, text: string) => {
    if (calmBox) calmBox.hidden = true;
    alertBox.hidden = false;
    alertBox.innerHTML = '';
    alertBox.appendChild(h('strong', {}, title));
    alertBox.appendChild(h('p', {}, text));
    alertBox.focus();
  };

  const form = h(
    'form.card.signin',
    { novalidate: true, 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to your exam'),
    calmBox,
    alertBox,
    reloadAdvice() ? h('p.note', { id: 'reload-advice' }, reloadAdvice()) : null,
    ...FIELDS.map((f) => {
      const input = h('input', { id: f.name, name: f.name, type: 'text', required: true, 'aria-describedby': `${f.name}-hint ${f.name}-err`, ...f.attrs }) as HTMLInputElement;
      inputs[f.name] = input;
      errs[f.name] = h('p.field-error', { id: `${f.name}-err` });
      return h('div.field', {}, h('label', { for: f.name }, f.label), h('p.hint', { id: `${f.name}-hint` }, f.hint), input, errs[f.name]);
    }),
    button,
  );
  if (notice && !calm) {
    alertBox.appendChild(h('strong', {}, notice.title));
    alertBox.appendChild(h('p', {}, notice.text));
  }
  const room = new URLSearchParams(location.search).get('room');
  if (room) inputs.accessCode.value = room.toUpperCase();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const values = {} as Values;
    for (const f of FIELDS) values[f.name] = inputs[f.name].value.trim().replace(/\s+/g, ' ');
    values.accessCode = values.accessCode.replace(/\s/g, '').toUpperCase();
    const errors = validateSignIn(values);
    let first: HTMLInputElement | null = null;
    for (const f of FIELDS) {
      const msg = errors[f.name] || '';
      errs[f.name].textContent = msg;
      inputs[f.name].setAttribute('aria-invalid', msg ? 'true' : 'false');
      if (msg && !first) first = inputs[f.name];
    }
    if (first) return first.focus();
    button.disabled = true;
    button.textContent = 'Signing in…';
    const res = await call<Preview>('POST', '/attempts/preview' + paperQuery(), values);
    button.disabled = false;
    button.textContent = 'Sign in';
    if (res.kind === 'ok') return onSignedIn(res.body, values);
    const problem: Problem | null = res.kind === 'problem' ? res.problem : null;
    if (problem && problem.code === 'SEB_REQUIRED') return showSebRequired(problem, () => showSignIn(onSignedIn, notice));
    const msg = messageFor(problem);
    showAlert(msg.title, msg.text);
    if (problem && (problem.code === 'SIGN_IN_FAILED' || problem.code === 'PIN_INVALID')) inputs.candidatePin.value = '';
  });

  mount(
    h(
      'main.screen.center',
      { id: 'screen-signin' },
      h('p.brand', {}, 'HallCBT · Computer-based test'),
      form,
      h('p.small', {}, 'Problems signing in? Raise your hand and an invigilator will help you.'),
    ),
    notice ? '#signin-alert' : '#accessCode',
  );
}
