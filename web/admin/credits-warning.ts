/**
 * The credits warning under the header (issue 36 item 1; docs/decisions.md, "Credits a
 * centre tops up offline"): every new candidate spends one credit, so the page warns when
 * an exam's roster has more candidates without an attempt than credits left (naming the
 * exam and how many would be refused), or, failing that, when 10 or fewer credits remain.
 * Only the hall operator adds credits (#/operator).
 */
import type { Workspace } from './types.js';

/** Credits at or below which the page warns even without a roster. */
export const LOW_CREDITS = 10;

/** The warning for a workspace, or null when none is due. */
export function creditsWarning(ws: Workspace): string | null {
  const short = (ws.rosterWaiting ?? []).find((e) => e.waiting > ws.credits);
  const ask = 'Ask the hall operator to add credits (Backups screen → Workspaces and credits).';
  if (short) {
    const refused = short.waiting - ws.credits;
    return `Only ${ws.credits} candidate credits left, but ${short.waiting} candidates on the roster of “${short.title}” have not started yet: ${refused} of them would be refused. ${ask}`;
  }
  if (ws.credits === 0) return `No candidate credits left: new candidates cannot start (those already started can resume). ${ask}`;
  if (ws.credits <= LOW_CREDITS) return `Only ${ws.credits} candidate credit${ws.credits === 1 ? '' : 's'} left. Each new candidate uses one; resuming uses none. ${ask}`;
  return null;
}

/** Shows or hides the warning in `host` (the #credits-warning banner) for `ws` (null: signed out). */
export function showCreditsWarning(host: HTMLElement, ws: Workspace | null): void {
  const text = ws ? creditsWarning(ws) : null;
  host.hidden = text === null;
  host.textContent = text ?? '';
}
