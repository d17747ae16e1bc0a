/**
 * What passes between the page's script and the calculator's own script (issue 37 item 7):
 * the calculator is a separate bundle (scripts/build-web.mjs), fetched only for an exam that
 * has one (load.ts), which leaves its install function on `window.hallcbtCalculator`.
 */

export type CalculatorKind = 'basic' | 'scientific';

/** What the exam screen keeps of the calculator. */
export interface CalculatorHandle {
  /** removes the button, the panel and the keyboard listener (the attempt is over) */
  destroy(): void;
}

/**
 * Puts the calculator on the exam screen (#screen-exam): its button in the top bar, its
 * panel, Alt+C. `blocked()`: true while it must not open (a dialog is up, the attempt is ending).
 */
export type InstallCalculator = (kind: CalculatorKind, blocked: () => boolean) => CalculatorHandle;

/** The window as the calculator's bundle leaves it. */
export interface CalculatorWindow {
  hallcbtCalculator?: InstallCalculator;
}
