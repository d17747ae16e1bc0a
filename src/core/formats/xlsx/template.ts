/**
 * The ready-to-fill question template served at GET /questions/import-excel/template
 * (docs/design.md §6): a "Questions" sheet with the header row, one example of each question
 * type and drop-down lists on Type and Correct, and an "Instructions" sheet explaining
 * every column. The examples import as they are (tests check it).
 */
import { loadExcel } from './excel.js';
import { exportColumns } from './columns.js';
import { addQuestionSheet, questionRow } from './write-questions.js';
import type { ImportedQuestion } from '../types.js';

/** One example per question type, exactly as the importer reads them back. */
export const TEMPLATE_EXAMPLES: ImportedQuestion[] = [
  {
    type: 'MCQ',
    prompt: 'Solve for $x$: $2x + 3 = 11$',
    marks: 1,
    options: [
      { keyLabel: 'A', text: '3', isCorrect: false },
      { keyLabel: 'B', text: '4', isCorrect: true },
      { keyLabel: 'C', text: '7', isCorrect: false },
      { keyLabel: 'D', text: '8', isCorrect: false },
    ],
    explanation: '$2x = 8$, so $x = 4$.',
    section: 'Algebra',
  },
  {
    type: 'TRUE_FALSE',
    prompt: 'Water boils at 100 °C at sea level.',
    marks: 1,
    options: [
      { keyLabel: 'A', text: 'True', isCorrect: true },
      { keyLabel: 'B', text: 'False', isCorrect: false },
    ],
    section: 'Science',
  },
  {
    type: 'SHORT_ESSAY',
    prompt: 'Define photosynthesis in one or two sentences.',
    marks: 3,
    section: 'Biology',
    minWords: 20,
    maxWords: 100,
    modelAnswer: 'Photosynthesis is the process by which green plants use light energy to make glucose from carbon dioxide and water, releasing oxygen.',
  },
  {
    type: 'LONG_ESSAY',
    prompt: 'Discuss three causes of soil erosion in West Africa and how farmers can reduce them.',
    marks: 10,
    section: 'Geography',
    minWords: 150,
    maxWords: 800,
    modelAnswer: 'Causes: deforestation, overgrazing, poor farming on slopes. Remedies: afforestation, controlled grazing, contour ploughing and terracing.',
  },
];

const INSTRUCTIONS: [string, string][] = [
  ['How to use this file', 'Fill one row per question on the "Questions" sheet, keep the header row, then upload the file with POST /questions/import-excel (or the admin page). Replace or delete the example rows.'],
  ['Type', 'MCQ, TRUE_FALSE, SHORT_ESSAY or LONG_ESSAY (drop-down list). Empty means MCQ when options are filled.'],
  ['Prompt', 'The question. Markdown and LaTeX ($x^2$, $$\\frac{a}{b}$$) are allowed. Required.'],
  ['Marks', 'A number greater than 0; decimals allowed. Empty means 1.'],
  ['Option A … Option F', 'MCQ options from Option A without gaps (2 to 10: add columns "Option G" … "Option J" if needed). TRUE_FALSE: leave empty for True/False. Essays: leave empty.'],
  ['Correct', 'MCQ: the letter of the one correct option. TRUE_FALSE: True or False. Essays: leave empty.'],
  ['Explanation', 'Optional; shown to the examiner and in results.'],
  ['Section', 'Optional section label (e.g. "Section A").'],
  ['MinWords / MaxWords', 'Essays only. Defaults: 20/100 for SHORT_ESSAY, 150/800 for LONG_ESSAY.'],
  ['ModelAnswer', 'Essays only: the benchmark answer used when marking.'],
  ['Rubric (optional column)', 'Essays only: JSON such as {"name":"WAEC","totalMarks":10,"criteria":[{"title":"Content","maxMarks":10}]}; its criteria must add up to the question’s marks.'],
  ['Good to know', 'Headers may be in any case and spacing; extra columns are ignored; empty rows are skipped; formulas count as their value. Merged cells spanning two questions are refused: unmerge them. If any row has a problem nothing is imported, and the response lists every problem by row and column.'],
];

/** The template workbook's .xlsx bytes. */
export async function templateWorkbook(): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  wb.creator = 'HallCBT';
  const columns = exportColumns(6, false);
  addQuestionSheet(
    wb,
    columns,
    TEMPLATE_EXAMPLES.map((q) => questionRow(q, columns)),
  );
  const help = wb.addWorksheet('Instructions');
  help.columns = [
    { header: 'Column', key: 'c', width: 26 },
    { header: 'What to put in it', key: 'h', width: 110 },
  ];
  help.getRow(1).font = { bold: true };
  for (const [c, h] of INSTRUCTIONS) help.addRow([c, h]).alignment = { wrapText: true, vertical: 'top' };
  return Buffer.from(await wb.xlsx.writeBuffer());
}
