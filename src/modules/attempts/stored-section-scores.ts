/**
 * An attempt's per-section scores as finalize stored them (issue 37 item 5; docs/decisions.md,
 * "Sections, draws and subject combinations"): read by the result views and by the event a
 * finished attempt records, apart from both so neither imports the other.
 */
import type { SectionScore } from '../../core/grading/section-scores.js';
import type { AttemptRow } from '../../db/rows.js';

/** The attempt's stored per-section scores; null when its exam has no sections. */
export function storedSectionScores(a: Pick<AttemptRow, 'section_scores_json'>): SectionScore[] | null {
  return a.section_scores_json ? (JSON.parse(a.section_scores_json) as SectionScore[]) : null;
}
