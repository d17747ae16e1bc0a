/**
 * The instructions' bundle (public/candidate/instructions.<hash>.js, built by
 * scripts/build-web.mjs): leaves installInstructions where the page's loader finds it (contract.ts).
 */
import type { InstructionsWindow } from './contract.js';
import { installInstructions } from './dialog.js';

(window as unknown as InstructionsWindow).hallcbtInstructions = installInstructions;
