/**
 * Reading question spreadsheets: .xlsx files written by exceljs inside the tests,
 * and one made by a different producer (test/fixtures/imports/foreign-questions.xlsx,
 * hand-written OOXML zipped with jszip; see that folder's README).
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readQuestionSheet } from '../../src/core/formats/xlsx/read-questions.js';
import { questionsWorkbook } from '../../src/core/formats/xlsx/write-questions.js';
import { TEMPLATE_EXAMPLES, templateWorkbook } from '../../src/core/formats/xlsx/template.js';
import { canonical } from './canonical.js';

async function xlsx(build: (ws: ExcelJS.Worksheet, wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb.addWorksheet('Sheet1'), wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('question spreadsheet written by exceljs', () => {
  it('reads odd headers, formulas, rich text, extra columns and skips empty rows', async () => {
    const bytes = await xlsx((ws) => {
      ws.addRow(['QUESTION TYPE', ' prompt ', 'Marks', 'Option A', 'option b', 'OPTION_C', 'Correct', 'Teacher notes', 'Min Words', 'model answer']);
      ws.addRow(['MCQ', { richText: [{ text: 'What is ', font: { bold: true } }, { text: '$2^3$?' }] }, { formula: '2*1', result: 2 }, '6', '8', '9', 'b', 'ignore me']);
      ws.addRow([]);
      ws.addRow([null, null, null, null, null, null, null, 'only an extra column']);
      ws.addRow(['long essay', 'Discuss.', 10, null, null, null, null, null, 200, 'A model']);
    });
    const r = await readQuestionSheet(bytes);
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([2, 5]);
    expect(r.questions[0]).toEqual({
      type: 'MCQ',
      prompt: 'What is $2^3$?',
      marks: 2,
      options: [
        { keyLabel: 'A', text: '6', isCorrect: false },
        { keyLabel: 'B', text: '8', isCorrect: true },
        { keyLabel: 'C', text: '9', isCorrect: false },
      ],
    });
    expect(r.questions[1]).toEqual({ type: 'LONG_ESSAY', prompt: 'Discuss.', marks: 10, minWords: 200, maxWords: 800, modelAnswer: 'A model' });
  });

  it('accepts a tall merged prompt over blank rows but refuses one merged across two questions', async () => {
    const ok = await xlsx((ws) => {
      ws.addRow(['Type', 'Prompt', 'Option A', 'Option B', 'Correct']);
      ws.addRow(['MCQ', 'A long prompt', 'x', 'y', 'A']);
      ws.addRow([]);
      ws.mergeCells('B2:B3');
    });
    const r1 = await readQuestionSheet(ok);
    expect(r1.errors).toEqual([]);
    expect(r1.questions).toHaveLength(1);

    const bad = await xlsx((ws) => {
      ws.addRow(['Type', 'Prompt', 'Option A', 'Option B', 'Correct']);
      ws.addRow(['MCQ', 'Shared prompt', 'x', 'y', 'A']);
      ws.addRow(['MCQ', null, 'p', 'q', 'B']);
      ws.mergeCells('B2:B3');
    });
    const r2 = await readQuestionSheet(bad);
    expect(r2.errors).toEqual([{ row: 3, column: 'Prompt', message: 'Cell B3 is merged with B2 in another row; unmerge it so that each question has its own row.' }]);
  });

  it('reports every bad row with its row, column and a clear message', async () => {
    const bytes = await xlsx((ws) => {
      ws.addRow(['Type', 'Prompt', 'Marks', 'Option A', 'Option B', 'Option C', 'Correct', 'MinWords']);
      ws.addRow(['MCQ', 'ok', 1, 'x', 'y', null, 'A']);
      ws.addRow(['MCQ', 'no key', 1, 'x', 'y', null, null]);
      ws.addRow(['MCQ', 'gap', 1, 'x', null, 'z', 'A']);
      ws.addRow(['Quiz', 'bad type', 'two', 'x', 'y', null, 'A']);
      ws.addRow(['MCQ', 'two keys', 1, 'x', 'y', null, 'A, B']);
      ws.addRow(['SHORT_ESSAY', 'with options', 1, 'x', null, null, null, 'many']);
      ws.addRow(['TRUE_FALSE', 'tf', 1, null, null, null, 'maybe']);
      ws.addRow(['MCQ', 'div', { formula: '1/0', result: { error: '#DIV/0!' } }, 'x', 'y', null, 'A']);
    });
    const r = await readQuestionSheet(bytes);
    expect(r.errors).toEqual([
      { row: 3, column: 'Correct', message: 'Correct is empty: give the letter of the right option (A–B).' },
      { row: 4, column: 'Option B', message: 'Option B is empty but a later option is filled; fill the options from Option A without gaps.' },
      { row: 5, column: 'Type', message: 'Type "Quiz" is not one of MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY.' },
      { row: 5, column: 'Marks', message: 'Marks must be a number greater than 0, got "two".' },
      { row: 6, column: 'Correct', message: 'Correct is "A, B": give exactly one letter (an MCQ has exactly one correct option).' },
      { row: 7, column: 'Option A', message: 'SHORT_ESSAY questions have no options; clear Option A… or change the Type.' },
      { row: 7, column: 'MinWords', message: 'MinWords must be a whole number of words, got "many".' },
      { row: 8, column: 'Correct', message: 'Correct must be True or False (or A/B), got "maybe".' },
      { row: 9, column: 'Marks', message: 'Cell C9 holds a formula error (#DIV/0!).' },
    ]);
  });

  it('finds the header below a title row and reports a sheet without one', async () => {
    const titled = await xlsx((ws) => {
      ws.addRow(['Mid-term test']);
      ws.addRow(['Prompt', 'Option A', 'Option B', 'Correct']);
      ws.addRow(['Q?', 'x', 'y', 'B']);
    });
    const r = await readQuestionSheet(titled);
    expect(r.questions.map((q) => [q.type, q.options!.find((o) => o.isCorrect)!.text])).toEqual([['MCQ', 'y']]);

    const none = await xlsx((ws) => ws.addRow(['Name', 'Score']));
    expect((await readQuestionSheet(none)).errors[0]!.message).toMatch(/No header row naming a "Prompt" column/);
  });
});

describe('question spreadsheet from another producer (hand-written OOXML)', () => {
  it('reads shared/inline strings, rich text, cached formulas, booleans, a merged title and an extra column', async () => {
    const r = await readQuestionSheet(readFileSync(new URL('../fixtures/imports/foreign-questions.xlsx', import.meta.url)));
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([3, 5, 6, 7]);
    expect(canonical(r.questions)).toEqual(
      canonical([
        {
          type: 'MCQ',
          prompt: 'Which planet is closest to the Sun?',
          marks: 2,
          section: 'Astronomy',
          options: ['Venus', 'Mercury', 'Earth', 'Mars'].map((text, i) => ({ keyLabel: 'ABCD'[i], text, isCorrect: i === 1 })),
        },
        { type: 'TRUE_FALSE', prompt: 'Sound travels faster in water than in air.', marks: 1, section: 'Physics', options: [{ keyLabel: 'A', text: 'True', isCorrect: true }, { keyLabel: 'B', text: 'False', isCorrect: false }] },
        { type: 'MCQ', prompt: 'What is 6 ÷ 2?', marks: 1.5, options: ['3', '2', '12'].map((text, i) => ({ keyLabel: 'ABC'[i], text, isCorrect: i === 0 })) },
        { type: 'SHORT_ESSAY', prompt: 'State Ohm’s law.', marks: 2, section: 'Physics', minWords: 20, maxWords: 100 },
      ]),
    );
  });
});

describe('template and export', () => {
  it('the template has the header, one example per type (importable as they are), drop-downs and an Instructions sheet', async () => {
    const bytes = await templateWorkbook();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Questions', 'Instructions']);
    const ws = wb.getWorksheet('Questions')!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Type', 'Prompt', 'Marks', 'Option A', 'Option B', 'Option C', 'Option D', 'Option E', 'Option F', 'Correct', 'Explanation', 'Section', 'MinWords', 'MaxWords', 'ModelAnswer']);
    expect(ws.getCell('A2').dataValidation).toMatchObject({ type: 'list', formulae: ['"MCQ,TRUE_FALSE,SHORT_ESSAY,LONG_ESSAY"'] });
    expect(ws.getCell('J500').dataValidation).toMatchObject({ type: 'list', formulae: ['"A,B,C,D,E,F,True,False"'] });
    const r = await readQuestionSheet(bytes);
    expect(r.errors).toEqual([]);
    expect(r.questions.map((q) => q.type)).toEqual(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY', 'LONG_ESSAY']);
    expect(canonical(r.questions)).toEqual(canonical(TEMPLATE_EXAMPLES));
  });

  it('export → import gives the same questions, with more than six options and a rubric', async () => {
    const qs = [
      ...TEMPLATE_EXAMPLES,
      { type: 'MCQ' as const, prompt: '= a formula-looking prompt', marks: 0.5, options: 'ABCDEFGH'.split('').map((l, i) => ({ keyLabel: l, text: `opt ${l}`, isCorrect: i === 7 })) },
      { type: 'LONG_ESSAY' as const, prompt: 'Essay', marks: 10, minWords: 150, maxWords: 800, rubric: { name: 'WAEC', totalMarks: 10, criteria: [{ title: 'Content', maxMarks: 10 }] } },
    ];
    const r = await readQuestionSheet(await questionsWorkbook(qs, 'Mock'));
    expect(r.errors).toEqual([]);
    expect(canonical(r.questions)).toEqual(canonical(qs));
  });
});
