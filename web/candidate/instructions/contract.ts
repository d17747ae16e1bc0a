/**
 * What passes between the page's script and the instructions' own script (issue 37, "the
 * instructions after a reload"): the Instructions button and its dialog are a separate
 * bundle (scripts/build-web.mjs), fetched at the exam's start only when the exam has
 * instructions, or may have (exam-instructions.ts), which leaves its install function on
 * `window.hallcbtInstructions`. What holds the page's state — the HTTP client (its Safe Exam
 * Browser headers), the one open dialog, the maths' stylesheet — is handed over, not bundled
 * twice.
 */
import type { call } from '../api.js';
import type { styleMaths } from '../math.js';
import type { closeDialog, openModal } from '../screens/dialog.js';

/**
 * Puts the Instructions button on the exam screen's top bar (#screen-exam of
 * screens/exam-view.ts) when the exam has instructions; its stylesheet is linked by the
 * bundle. Given, in this order (positional: every byte of the page's own script counts, and
 * an object's keys are not minified): the attempt id; the paper's `?math=` query (math.ts
 * paperQuery: the instructions come in the same form); and the page's `call`, `openModal`,
 * `closeDialog` and `styleMaths`.
 */
export type InstallInstructions = (attemptId: string, query: string, api: typeof call, open: typeof openModal, close: typeof closeDialog, maths: typeof styleMaths) => void;

/** The window as the instructions' bundle leaves it. */
export interface InstructionsWindow {
  hallcbtInstructions?: InstallInstructions;
}
