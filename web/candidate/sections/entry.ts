/**
 * The subject tabs' bundle (public/candidate/sections.<hash>.js, built by
 * scripts/build-web.mjs): leaves installSections where the page's loader finds it (contract.ts).
 */
import type { SectionsWindow } from './contract.js';
import { installSections } from './tabs.js';

(window as unknown as SectionsWindow).hallcbtSections = installSections;
