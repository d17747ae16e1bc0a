/**
 * The calculator's bundle (public/candidate/calculator.<hash>.js, built by
 * scripts/build-web.mjs): leaves installCalculator where the page's loader finds it (contract.ts).
 */
import type { CalculatorWindow } from './contract.js';
import { installCalculator } from './panel.js';

(window as unknown as CalculatorWindow).hallcbtCalculator = installCalculator;
