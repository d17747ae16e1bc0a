/**
 * The exam's own instructions during the exam (issue 37, "the instructions after a reload"),
 * the page's side: the preview's copy is kept with the attempt at sign-in
 * (`hallcbt.<attemptId>.instructions`, storage.ts), and the exam screen loads the
 * instructions' bundle (instructions/contract.ts) only when the exam has some — or when this
 * PC has no copy, and the bundle asks the server. A bundle of its own, fetched at the exam's
 * start (so it is there offline later): the first load's budget (test/e2e/page-weight.test.ts)
 * pays only for these lines.
 */
import { call } from './api.js';
import type { InstructionsWindow } from './instructions/contract.js';
import { lazyScript } from './lazy.js';
import { paperQuery, styleMaths } from './math.js';
import { closeDialog, openModal } from './screens/dialog.js';
import { attemptKey, readJson, writeJson } from './storage.js';

/** the instructions' script, content-hashed (scripts/build-web.mjs) */
declare const __INSTRUCTIONS__: string;

/** Keeps the exam's instructions for the attempt: sanitised HTML from the server, null when it has none. */
export function keepInstructions(attemptId: string, html: string | null | undefined): void {
  writeJson(attemptKey(attemptId, 'instructions'), html || null);
}

/** Loads the Instructions button unless this PC knows the exam has no instructions. */
export function loadInstructions(attemptId: string): void {
  const w = window as unknown as InstructionsWindow;
  if (readJson(attemptKey(attemptId, 'instructions'), '') !== null) lazyScript(__INSTRUCTIONS__, () => w.hallcbtInstructions, () => w.hallcbtInstructions!(attemptId, paperQuery(), call, openModal, closeDialog, styleMaths));
}
