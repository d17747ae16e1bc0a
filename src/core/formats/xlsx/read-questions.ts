/**
 * Reads a question spreadsheet (.xlsx) into QuestionInputs, all-or-nothing
 * (docs/design.md §6). The sheet is the first one whose first 10 rows hold a header row naming
 * a Prompt column (so a title row above the header, or an Instructions sheet in front,
 * is fine). Empty rows are skipped; columns we do not know are ignored; formulas count
 * as their cached result; rich text is flattened; a cell merged sideways counts once;
 * a cell merged with a cell of another row is an error for that row unless the row is
 * otherwise empty (a tall prompt cell spanning blank rows is fine).
 */
import type ExcelJS from 'exceljs';
import { loadExcel } from './excel.js';
import { cellText, isErrorValue, mergeRole } from './cells.js';
import { COLUMN_TITLES, columnForHeader, type ColumnKey } from './columns.js';
import { rowToQuestion, type RowValues, type SheetError } from './row-question.js';
import { questionWarnings } from '../checks.js';
import { BankFormatError, type ImportedQuestion, type ImportWarning } from '../types.js';

export interface SheetRead {
  questions: ImportedQuestion[];
  /** Excel row number of each question */
  rows: number[];
  errors: SheetError[];
  warnings: (ImportWarning & { row: number })[];
}

/** Loads workbook bytes. @throws BankFormatError when exceljs cannot read them */
export async function loadWorkbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const Excel = await loadExcel();
  const wb = new Excel.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (e) {
    throw new BankFormatError(`The file could not be read as an .xlsx workbook (${(e as Error).message.slice(0, 120)}).`);
  }
  return wb;
}

export interface HeaderRow<K extends string = ColumnKey> {
  sheet: ExcelJS.Worksheet;
  row: number;
  columns: Map<number, K>;
  errors: SheetError[];
}

/**
 * Finds the header row: in the first 10 rows of each sheet, the first row that names
 * the `required` column (Prompt for questions). @returns null when no sheet has one
 */
export function findHeader<K extends string>(wb: ExcelJS.Workbook, required: K, resolve: (t: string) => K | null): HeaderRow<K> | null {
  for (const sheet of wb.worksheets) {
    for (let r = 1; r <= Math.min(10, sheet.rowCount); r++) {
      const columns = new Map<number, K>();
      const errors: SheetError[] = [];
      const seen = new Map<string, number>();
      sheet.getRow(r).eachCell((cell, col) => {
        const key = resolve(cellText(cell));
        if (!key) return;
        const first = seen.get(key);
        if (first !== undefined) errors.push({ row: r, column: cellText(cell), message: `Two columns are headed "${cellText(cell)}" (${sheet.getColumn(first).letter} and ${sheet.getColumn(col).letter}); keep one.` });
        else {
          seen.set(key, col);
          columns.set(col, key);
        }
      });
      if ([...columns.values()].includes(required)) return { sheet, row: r, columns, errors };
    }
  }
  return null;
}

/** Reads the question rows of a workbook. Never throws for row problems: they are in `errors`. */
export async function readQuestionSheet(bytes: Uint8Array): Promise<SheetRead> {
  const wb = await loadWorkbook(bytes);
  const header = findHeader<ColumnKey>(wb, 'prompt', columnForHeader);
  const out: SheetRead = { questions: [], rows: [], errors: [], warnings: [] };
  if (!header) {
    out.errors.push({ row: 1, column: COLUMN_TITLES.prompt, message: 'No header row naming a "Prompt" column was found in the first 10 rows of any sheet. Start from the template (GET /questions/import-excel/template).' });
    return out;
  }
  out.errors.push(...header.errors);
  const { sheet, columns } = header;
  for (let r = header.row + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const values: RowValues = {};
    const rowErrors: SheetError[] = [];
    for (const [col, key] of columns) {
      const cell = row.getCell(col);
      const title = COLUMN_TITLES[key];
      if (mergeRole(cell) === 'other-row') {
        rowErrors.push({ row: r, column: title, message: `Cell ${cell.address} is merged with ${cell.master.address} in another row; unmerge it so that each question has its own row.` });
        continue;
      }
      const error = isErrorValue(cell.value);
      if (error) rowErrors.push({ row: r, column: title, message: `Cell ${cell.address} holds a formula error (${error}).` });
      const text = cellText(cell);
      if (text) values[key] = text;
    }
    if (Object.keys(values).length === 0) continue; // empty row (or only the tail of a tall merged cell)
    if (rowErrors.length) {
      out.errors.push(...rowErrors);
      continue;
    }
    const res = rowToQuestion(values, r);
    if ('errors' in res) {
      out.errors.push(...res.errors);
      continue;
    }
    out.warnings.push(...questionWarnings(res.question).map((message) => ({ index: out.questions.length, row: r, message })));
    out.questions.push(res.question);
    out.rows.push(r);
  }
  if (!out.questions.length && !out.errors.length) {
    out.errors.push({ row: header.row + 1, column: null, message: 'The sheet has a header row but no questions below it.' });
  }
  return out;
}
