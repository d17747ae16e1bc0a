/**
 * Scripts of the candidate page fetched only when an exam needs them (the calculator,
 * calculator/load.ts; the subject tabs, exam-pane.ts): each is a bundle of its own
 * (scripts/build-web.mjs), kept by the service worker once fetched (sw.ts), so the first
 * load's budget (test/e2e/page-weight.test.ts) pays only for these few lines.
 */
import { h } from './dom.js';

/** Runs `then` at once when `present()`, else once the script at `src` has loaded. */
export function lazyScript(src: string, present: () => unknown, then: () => void): void {
  if (present()) then();
  else document.head.appendChild(h('script', { src, onload: then }));
}
