/**
 * The result screen's scores per subject (issue 37's leftovers; docs/operations.md §13,
 * item 5): one row per section the candidate sat, "score / maximum", in the exam's order,
 * under the total (screens/result.ts asks for it only for a result with `sectionScores`).
 */
import { h } from '../dom.js';
import type { SectionScore } from '../types.js';
import type { SectionScoresTable } from './contract.js';

/** the bundle's stylesheet (sections.css under its content-hashed name: scripts/build-web.mjs) */
declare const __SECTIONS_CSS__: string;

const fmt = (n: number) => String(Math.round(n * 100) / 100);

/** A table `#section-scores`: each section's name (row header) and its score out of its maximum; links the bundle's stylesheet once. */
export const sectionScoresTable: SectionScoresTable = (scores: SectionScore[], provisional: boolean) => {
  if (!document.getElementById('sections-css')) document.head.appendChild(h('link', { id: 'sections-css', rel: 'stylesheet', href: __SECTIONS_CSS__ }));
  return h(
    'table.section-scores',
    { id: 'section-scores' },
    h('caption', {}, provisional ? 'By subject (provisional)' : 'By subject'),
    h('tbody', {}, ...scores.map((s) => h('tr', {}, h('th', { scope: 'row' }, s.section), h('td', {}, `${fmt(s.score)} / ${fmt(s.maxScore)}`)))),
  );
};
