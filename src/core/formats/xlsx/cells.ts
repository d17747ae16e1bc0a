/**
 * Reading one spreadsheet cell as text, whatever produced the file: exceljs gives a
 * cell's value as a number, string, boolean, Date, formula (`{formula, result}` or
 * `{sharedFormula, result}`), rich text (`{richText: [{text}]}`), hyperlink
 * (`{text, hyperlink}`) or error (`{error}`). Formulas count as their cached result,
 * rich text is flattened to its plain text, and a merged cell is reported for what it
 * is so the caller can decide (docs/design.md §6 / issue 6: "formulas, merged cells … import
 * correctly or fail with a clear per-row error").
 */
import type { Cell, CellValue } from 'exceljs';

/** Plain text of a cell value; '' for empty. Numbers keep JS formatting (1.5 → "1.5"). */
export function valueText(v: CellValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().replace(/T00:00:00\.000Z$/, '').replace('.000Z', 'Z');
  const o = v as unknown as Record<string, unknown>;
  if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
  if ('formula' in o || 'sharedFormula' in o) return 'result' in o ? valueText(o.result as CellValue) : '';
  if ('hyperlink' in o) return valueText(o.text as CellValue);
  if ('error' in o) return '';
  if ('text' in o) return valueText(o.text as CellValue);
  return '';
}

/** True when the cell is a formula whose cached result is an error (#DIV/0!, #REF!…). */
export function isErrorValue(v: CellValue | undefined): string | null {
  if (!v || typeof v !== 'object' || v instanceof Date) return null;
  const o = v as unknown as Record<string, unknown>;
  const target = ('formula' in o || 'sharedFormula' in o ? o.result : o) as Record<string, unknown> | undefined;
  return target && typeof target === 'object' && 'error' in target ? String(target.error) : null;
}

/** How a cell takes part in a merged range. */
export type MergeRole = 'none' | 'master' | 'same-row' | 'other-row';

/** 'same-row': a non-master cell merged sideways; 'other-row': merged with a cell in another row. */
export function mergeRole(cell: Cell): MergeRole {
  if (!cell.isMerged) return 'none';
  const master = cell.master;
  if (!master || master.address === cell.address) return 'master';
  return master.row === cell.row ? 'same-row' : 'other-row';
}

/** Trimmed text of a cell, with line endings normalised; '' for non-master merged cells. */
export function cellText(cell: Cell): string {
  const role = mergeRole(cell);
  if (role === 'same-row' || role === 'other-row') return '';
  return valueText(cell.value).replace(/\r\n?/g, '\n').trim();
}
