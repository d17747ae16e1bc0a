/**
 * How an attempt's layout is kept in `attempt_layouts.layout_json` (docs/decisions.md, "An
 * attempt's layout is stored compactly"). A layout is the candidate's questions in the order
 * shown, each with its options in the order shown and, for a sectioned paper (issue 37), the
 * section it is in.
 *
 * Stored form (written since issue 37's start work): a JSON array of
 * - `[questionId, [optionId, …]]` per question, in order, and
 * - `{"s": sectionName}` before the first question of each section (sectioned papers only).
 * Each section's name is written once, not per question, and no key is repeated per question:
 * a 180-question layout is ~13 KB instead of ~18 KB (flat) or ~22 KB (sectioned) in the first
 * form, and every start writes and fsyncs that row.
 *
 * The first form — an array of `{questionId, optionIds, section?}` objects — is still read, so
 * attempts started before the change (and the benchmark's pre-seated attempts, written by any
 * checkout: scripts/bench/seed.mjs) load as they did. Pure; no I/O.
 */

/** One question of a layout: its id, its options' ids in the order shown, its section (sectioned papers). */
export interface LayoutEntry {
  questionId: string;
  optionIds: string[];
  section?: string;
}

/** The layout as stored: the compact form described above. */
export function serializeLayout(layout: readonly LayoutEntry[]): string {
  const out: unknown[] = [];
  let section: string | undefined;
  for (const e of layout) {
    if (e.section !== undefined && e.section !== section) out.push({ s: (section = e.section) });
    out.push([e.questionId, e.optionIds]);
  }
  return JSON.stringify(out);
}

const isString = (x: unknown): x is string => typeof x === 'string';

/**
 * A stored layout, in either form, as entries (a section marker's name on each question after it).
 * @throws Error when `json` is neither form (a damaged row: the caller's request fails rather than
 *   showing the candidate another paper)
 */
export function parseLayout(json: string): LayoutEntry[] {
  const data: unknown = JSON.parse(json);
  if (!Array.isArray(data)) throw new Error('stored layout is not an array');
  const out: LayoutEntry[] = new Array(data.length);
  let n = 0;
  let section: string | undefined;
  for (const item of data) {
    if (Array.isArray(item)) {
      const [questionId, optionIds] = item as unknown[];
      if (!isString(questionId) || !Array.isArray(optionIds) || !optionIds.every(isString)) throw new Error('stored layout entry is not [questionId, [optionId…]]');
      out[n++] = section === undefined ? { questionId, optionIds } : { questionId, optionIds, section };
    } else if (item && typeof item === 'object' && isString((item as { s?: unknown }).s)) {
      section = (item as { s: string }).s;
    } else if (item && typeof item === 'object' && isString((item as LayoutEntry).questionId)) {
      // the first form: one object per question
      const e = item as LayoutEntry;
      if (!Array.isArray(e.optionIds) || !e.optionIds.every(isString)) throw new Error('stored layout entry has no optionIds');
      out[n++] = e.section === undefined ? { questionId: e.questionId, optionIds: e.optionIds } : { questionId: e.questionId, optionIds: e.optionIds, section: e.section };
    } else {
      throw new Error('stored layout holds an item that is neither a question nor a section');
    }
  }
  out.length = n;
  return out;
}

/**
 * An SQL condition true when the stored layout in `column` (either form) was laid out by
 * sections, read from its text alone (imports/exam-data.ts: only those layouts are parsed).
 */
export const sectionedLayoutSql = (column: string): string => `(${column} LIKE '[{"s":%' OR ${column} LIKE '%"section":"%')`;
