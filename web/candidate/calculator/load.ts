/**
 * Fetches the calculator's script (content-hashed name the build passes in as
 * `__CALCULATOR__`) when an exam has one, at the start of the exam so it works offline
 * afterwards, and installs it once it has arrived; the script links its own stylesheet.
 * Kept out of the page's own script: the first load's budget (test/e2e/page-weight.test.ts)
 * pays only for this loader (docs/decisions.md, "The candidate's calculator").
 */
import { lazyScript } from '../lazy.js';
import type { CalculatorHandle, CalculatorKind, CalculatorWindow } from './contract.js';

declare const __CALCULATOR__: string;

/** Loads and installs the calculator; `destroy` works before it has arrived too. */
export function loadCalculator(kind: CalculatorKind, blocked: () => boolean): CalculatorHandle {
  const w = window as unknown as CalculatorWindow;
  let handle: CalculatorHandle | undefined;
  let gone = false;
  const install = () => {
    if (!gone && w.hallcbtCalculator) handle = w.hallcbtCalculator(kind, blocked);
  };
  lazyScript(__CALCULATOR__, () => w.hallcbtCalculator, install);
  return {
    destroy() {
      gone = true;
      if (handle) handle.destroy();
    },
  };
}
