/**
 * Writes questions as a spreadsheet in the import layout (docs/design.md §6), so that
 * GET /exams/:id/questions.xlsx → POST /questions/import-excel gives the same questions,
 * and the import template uses the same sheet. Data validation (drop-down lists)
 * guards the Type and Correct columns.
 */
import type ExcelJS from 'exceljs';
import { loadExcel } from './excel.js';
import { COLUMN_TITLES, OPTION_LETTERS, exportColumns, type ColumnKey } from './columns.js';
import type { ImportedQuestion } from '../types.js';

/** Cell values of one question in column order. */
export function questionRow(q: ImportedQuestion, columns: ColumnKey[]): (string | number | null)[] {
  const options = q.options ?? [];
  const correct = options.findIndex((o) => o.isCorrect);
  const essay = q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY';
  const value = (k: ColumnKey): string | number | null => {
    if (k.startsWith('option')) return options[OPTION_LETTERS.indexOf(k.slice(6) as never)]?.text ?? null;
    switch (k) {
      case 'type':
        return q.type;
      case 'prompt':
        return q.prompt;
      case 'marks':
        return q.marks;
      case 'correct':
        return !essay && correct >= 0 ? OPTION_LETTERS[correct]! : null;
      case 'explanation':
        return q.explanation ?? null;
      case 'section':
        return q.section ?? null;
      case 'minWords':
        return essay ? (q.minWords ?? null) : null;
      case 'maxWords':
        return essay ? (q.maxWords ?? null) : null;
      case 'modelAnswer':
        return q.modelAnswer ?? null;
      case 'rubric':
        return q.rubric ? JSON.stringify(q.rubric) : null;
      default:
        return null;
    }
  };
  return columns.map(value);
}

/** exceljs has range data validation (`worksheet.dataValidations.add`) but its typings omit it. */
type WithValidations = ExcelJS.Worksheet & { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } };

const WIDTHS: Partial<Record<ColumnKey, number>> = { type: 14, prompt: 60, marks: 8, correct: 9, explanation: 40, section: 14, modelAnswer: 40, rubric: 40 };

/**
 * Adds the "Questions" sheet: bold frozen header, wrapped text, drop-down lists on
 * Type and Correct for `validRows` rows below the header.
 */
export function addQuestionSheet(wb: ExcelJS.Workbook, columns: ColumnKey[], rows: (string | number | null)[][], validRows = 1000): ExcelJS.Worksheet {
  const ws = wb.addWorksheet('Questions', { views: [{ state: 'frozen', ySplit: 1 }] }) as WithValidations;
  ws.columns = columns.map((k) => ({ header: COLUMN_TITLES[k], key: k, width: WIDTHS[k] ?? (k.startsWith('option') ? 22 : 11) }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r).alignment = { wrapText: true, vertical: 'top' };
  const last = Math.max(validRows, rows.length) + 1;
  const letter = (k: ColumnKey) => ws.getColumn(columns.indexOf(k) + 1).letter;
  ws.dataValidations.add(`${letter('type')}2:${letter('type')}${last}`, {
    type: 'list',
    allowBlank: true,
    formulae: ['"MCQ,TRUE_FALSE,SHORT_ESSAY,LONG_ESSAY"'],
    showErrorMessage: true,
    errorTitle: 'Type',
    error: 'Choose MCQ, TRUE_FALSE, SHORT_ESSAY or LONG_ESSAY.',
  });
  const optionCount = columns.filter((k) => k.startsWith('option')).length;
  ws.dataValidations.add(`${letter('correct')}2:${letter('correct')}${last}`, {
    type: 'list',
    allowBlank: true,
    formulae: [`"${[...OPTION_LETTERS.slice(0, optionCount), 'True', 'False'].join(',')}"`],
    showErrorMessage: true,
    errorTitle: 'Correct',
    error: 'Give the letter of the correct option (or True/False).',
  });
  return ws;
}

/** The .xlsx bytes of an exam's questions in the import layout. */
export async function questionsWorkbook(questions: ImportedQuestion[], examTitle?: string): Promise<Buffer> {
  const Excel = await loadExcel();
  const wb = new Excel.Workbook();
  wb.creator = 'HallCBT';
  wb.title = examTitle ?? 'Questions';
  const maxOptions = Math.max(0, ...questions.map((q) => q.options?.length ?? 0));
  const columns = exportColumns(maxOptions, questions.some((q) => q.rubric));
  addQuestionSheet(wb, columns, questions.map((q) => questionRow(q, columns)));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
