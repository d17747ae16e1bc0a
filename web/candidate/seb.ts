/**
 * Safe Exam Browser on the candidate page (issue 25).
 * - Newer SEB versions (macOS/iOS 3.x with the modern WebView) send no
 *   X-SafeExamBrowser-* headers; they expose `SafeExamBrowser.security.configKey` (and
 *   `browserExamKey`): SHA-256 of this page's URL (without fragment) + the key. That is one
 *   value per page URL, the same on every request (SEB's Config Key page), so it is not
 *   per-request evidence: the page sends the Config Key value with every API call
 *   together with the URL it was computed for (`x-seb-page-url`), and the server counts it
 *   for the Config check only (docs/operations.md §12). The `browserExamKey` value is not
 *   sent: the server would not count it (one sniffed value would pass every seat).
 *   SEB 3.0 for macOS/iOS fills the values only after `SafeExamBrowser.security.updateKeys(callback)`.
 * - The calm "open this exam in Safe Exam Browser" screen: the .seb link is not shown
 *   (it needs the exam's download code, which the invigilator hands out on slips).
 * - Remembers the quit URL of the exam's configuration for the result screen.
 */
import { h, mount } from './dom.js';
import type { Problem } from './types.js';

interface SebApi {
  version?: string;
  security?: { configKey?: string; browserExamKey?: string; updateKeys?: (cb: () => void) => void };
}

/** The URL SEB computed the JS API's values for: this page as loaded, without fragment. */
const pageUrl = typeof location !== 'undefined' ? location.href.split('#')[0]! : '';
let quitUrl: string | null = null;
let sebLocked = false;

function sebApi(): SebApi | undefined {
  return typeof window !== 'undefined' ? (window as unknown as { SafeExamBrowser?: SebApi }).SafeExamBrowser : undefined;
}

/** Whether the page runs inside Safe Exam Browser (its JavaScript API is present). */
export function inSafeExamBrowser(): boolean {
  return !!sebApi();
}

/** Resolves once the JS API's keys are available (SEB 3.0 needs updateKeys), at most ~2 s. */
export function sebReady(): Promise<void> {
  const api = sebApi();
  const sec = api && api.security;
  if (!sec || sec.configKey || typeof sec.updateKeys !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    try {
      sec.updateKeys!(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/** Headers carrying the JS API's Config Key value for this page; none outside SEB. */
export function sebHeaders(): Record<string, string> {
  const sec = sebApi()?.security;
  if (!sec || !sec.configKey) return {};
  return { 'x-seb-page-url': pageUrl, 'x-seb-config-key-hash': String(sec.configKey) };
}

/** Notes a refusal: a failed SEB check, or a lock because of one (for the lock screen's text). */
export function noteProblem(p: Problem): void {
  if (p.code === 'SEB_REQUIRED' || p.lockReason === 'SAFE_EXAM_BROWSER') sebLocked = true;
}

/** Lock-screen text: why the attempt is locked. */
export function lockText(fallback: string, lockReason?: unknown): string {
  if (sebLocked || lockReason === 'SAFE_EXAM_BROWSER') {
    return 'Your exam was stopped because this computer did not pass the exam’s Safe Exam Browser check.';
  }
  return fallback;
}

/** Remembers the exam configuration's quit URL (from the session). */
export function rememberQuitUrl(url: unknown): void {
  if (typeof url === 'string' && /^https?:\/\//.test(url)) quitUrl = url;
}

/** "Quit Safe Exam Browser" link for the result screen, when the page runs in SEB. */
export function quitLink(): HTMLElement | null {
  if (!quitUrl) return null;
  return h('a.button.secondary.big', { href: quitUrl, id: 'seb-quit' }, 'Quit Safe Exam Browser');
}

/**
 * The calm screen for a browser that fails the exam's SEB checks. It offers no link to
 * the .seb file: that link carries the exam's download code and comes from the invigilator.
 * @param info the server's check or problem: `reason` ('bek-…' when the SEB version is not registered)
 * @param retry "Try again" pressed
 */
export function showSebRequired(info: { reason?: unknown; [k: string]: unknown }, retry: () => void): void {
  const version = info.reason === 'bek-missing' || info.reason === 'bek-mismatch';
  const again = h('button.secondary', { type: 'button', id: 'seb-retry' }, 'Try again');
  again.addEventListener('click', retry);
  mount(
    h(
      'main.screen.center',
      { id: 'screen-seb' },
      h(
        'section.card',
        { 'aria-labelledby': 'seb-title' },
        h('h1', { id: 'seb-title' }, 'Open this exam in Safe Exam Browser'),
        h('p', {}, 'This exam can only be taken in Safe Exam Browser, the exam browser installed on the hall computers. Nothing is wrong with your details.'),
        version
          ? h('p', { id: 'seb-version' }, 'This computer’s Safe Exam Browser is not a version this exam accepts. Raise your hand: the invigilator will move you to another computer.')
          : h('p', { id: 'seb-how' }, 'Open the Safe Exam Browser link or scan the QR code on your PIN slip (or the one the invigilator shows you).'),
        h('p.small', {}, 'Not sure what to do? Raise your hand and an invigilator will help you.'),
        again,
      ),
    ),
    '#seb-title',
  );
}
