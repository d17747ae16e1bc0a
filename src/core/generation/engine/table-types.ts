/**
 * The shapes of tables and of the items planned from them (docs/decisions.md, "Tables make
 * items"), and what table-items.ts and member-items.ts both read of a cell.
 */

/** A table of the material: its header cells, its body rows (each as long as the header) and where it is. */
export interface MaterialTable {
  header: string[];
  rows: string[][];
  citation: string;
}

/** An MCQ planned from a table: its stem, key, three distractors, the row it asks about and the table's place. */
export interface TableItem {
  stem: string;
  key: string;
  distractors: string[];
  /** the table's header and the row the key is read from, as the explanation quotes them (`| cell | cell |`) */
  header: string;
  row: string;
  citation: string;
  /** "forward" asks for a value, "reverse" for the thing with a value, "contrast" for a subject's statement, "member" for a member of a list's column (member-items.ts) */
  form: 'forward' | 'reverse' | 'contrast' | 'member';
  /** which table and row: one item per row */
  place: string;
  /** which table, column and form: a table's items take turns between these */
  lane: string;
}

/** A cell of figures alone: "1,500", "0.000009", "–", "₦ 32,000". */
export const FIGURES = /^[\p{N}\p{Sc}.,\s%–—\-−+×÷()/:]*$/u;

/** A row written back as the material wrote it, `| cell | cell |` (an item's explanation quotes it). */
export const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
