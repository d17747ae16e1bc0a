/**
 * The subject tabs' bundle (public/candidate/sections.<hash>.js, built by
 * scripts/build-web.mjs): leaves installSections and the result screen's sectionScoresTable
 * where the page's loaders find them (contract.ts).
 */
import type { SectionsWindow } from './contract.js';
import { installSections } from './tabs.js';
import { sectionScoresTable } from './scores.js';

(window as unknown as SectionsWindow).hallcbtSections = installSections;
(window as unknown as SectionsWindow).hallcbtSectionScores = sectionScoresTable;
