/**
 * Fetches the subject tabs' script (content-hashed name the build passes in as
 * `__SECTIONS__`) for a paper of two or more sections, and installs it once it has
 * arrived (docs/decisions.md, "A page built for 180 questions").
 */
import { lazyScript } from '../lazy.js';
import type { Session } from '../types.js';
import type { SectionsHandle, SectionsHost, SectionsWindow } from './contract.js';

declare const __SECTIONS__: string;

/** True for a paper of two or more sections: `sections` when the server sends it, else the questions' `section` names. */
export function sectioned(s: Session): boolean {
  return (s.sections ? s.sections.length : new Set(s.questions.map((q) => q.section || '')).size) > 1;
}

/** Loads the tabs and calls `ready` with them once installed. */
export function loadSections(host: SectionsHost, ready: (handle: SectionsHandle) => void): void {
  const w = window as unknown as SectionsWindow;
  lazyScript(__SECTIONS__, () => w.hallcbtSections, () => w.hallcbtSections && ready(w.hallcbtSections(host)));
}
