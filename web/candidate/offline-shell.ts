/**
 * Reloading the candidate page while the server is unreachable (issue 20). Where the
 * browser allows a service worker (HTTPS, or http://localhost), sw.ts keeps the page shell
 * loadable offline and the exam continues from the answers kept on this PC. On plain
 * HTTP (the hall LAN default) it cannot: the sign-in screen says, before the exam, that
 * reloading needs the hall network and that the page's own "Try again" button is the way
 * back when the connection drops.
 */

/** True when this page can keep its shell offline (a secure context with service workers). */
export function canKeepShellOffline(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext === true && 'serviceWorker' in navigator;
}

/** Registers /sw.js where allowed; failures are ignored (the page works without it). */
export function registerOfflineShell(): void {
  if (!canKeepShellOffline()) return;
  try {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  } catch {
    /* a browser that refuses: the page still works online */
  }
}

/** The sentence the sign-in screen shows on plain HTTP, or null where the shell is kept offline. */
export function reloadAdvice(): string | null {
  if (canKeepShellOffline()) return null;
  return 'Do not reload this page during the exam: reloading needs the hall network. If the connection drops, your answers stay on this computer; use the page’s own “Try again” button, not the browser’s reload.';
}
