/**
 * Results of an exam for the school (issue 6 §3): GET /exams/:id/results.xlsx and
 * results.csv. One row per attempt: student ID, name, score, max, percentage, grade,
 * status, violations, started, completed, time taken, pending review, then one column
 * per question with the chosen option's key label (the examiner's label, whatever
 * order the candidate saw), or for essays the approved marks ("pending" until an
 * examiner approves). The .xlsx adds an "Item analysis" sheet.
 *
 * The records come from the hall's database: answers of attempts still in progress may not be flushed yet
 * (see modules/imports/exam-data.ts); completed attempts are complete.
 */
import type ExcelJS from 'exceljs';
import { loadExcel } from './xlsx/excel.js';
import Papa from 'papaparse';
import type { StoredQuestion } from '../questions/schemas.js';
import type { AnswerRecord, AttemptRecord, ExamAnalysisReport } from '../analysis/records.js';

type Cell = string | number | Date | null;

export const RESULT_HEADERS = ['Student ID', 'Candidate name', 'Score', 'Max score', 'Percentage', 'Grade', 'Status', 'Violations', 'Started (UTC)', 'Completed (UTC)', 'Time taken (s)', 'Pending review'];

/** Time on the clock (stoppages credited back), in whole seconds, as GET /exams/:id/attempts reports it. */
export function timeTakenSeconds(a: AttemptRecord): number | null {
  return a.completed_at ? Math.max(0, Math.round((a.completed_at - a.started_at - a.credited_ms) / 1000)) : null;
}

function questionCell(q: StoredQuestion, a: AnswerRecord | undefined): Cell {
  if (!a) return null;
  if (q.options.length) return q.options.find((o) => o.id === a.option_id)?.keyLabel ?? null;
  if (a.review_json && a.awarded_marks !== null) return a.awarded_marks;
  return a.text && a.text.trim() ? 'pending' : null;
}

/** Header and rows of the results table (dates as Date objects). */
export function resultsTable(questions: StoredQuestion[], attempts: AttemptRecord[], answers: Map<string, Map<string, AnswerRecord>>): { headers: string[]; rows: Cell[][] } {
  const headers = [...RESULT_HEADERS, ...questions.map((_, i) => `Q${i + 1}`)];
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  const rows = attempts.map((a) => {
    const mine = answers.get(a.id);
    return [
      a.student_id,
      a.candidate_name,
      a.score,
      a.max_score,
      a.percentage,
      a.grade,
      a.status,
      a.violations,
      date(a.started_at),
      date(a.completed_at),
      timeTakenSeconds(a),
      a.status === 'COMPLETED' ? (a.pending_review ? 'yes' : 'no') : null,
      ...questions.map((q) => questionCell(q, mine?.get(q.id))),
    ];
  });
  return { headers, rows };
}

/** Guards a CSV text cell against formula injection (OWASP "CSV Injection"). */
function csvSafe(v: Cell): string | number {
  if (v === null) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(v)) return `'${v}`;
  return v;
}

/** results.csv text (UTF-8 with BOM so Excel shows accents; dates ISO 8601 UTC). */
export function resultsCsv(table: { headers: string[]; rows: Cell[][] }): string {
  return `\uFEFF${Papa.unparse({ fields: table.headers, data: table.rows.map((r) => r.map(csvSafe)) }, { newline: '\r\n' })}\r\n`;
}

function analysisSheet(wb: ExcelJS.Workbook, a: ExamAnalysisReport): void {
  const ws = wb.addWorksheet('Item analysis');
  ws.addRow(['Candidates analysed (completed attempts)', a.candidates]);
  ws.addRow(['Mean score', a.mean, `of ${a.maxScore}`]);
  ws.addRow(['Standard deviation', a.standardDeviation]);
  ws.addRow(['KR-20 reliability', a.kr20]);
  ws.addRow([]);
  const letters = [...new Set(a.questions.flatMap((q) => q.options.map((o) => o.keyLabel)))];
  const header = ws.addRow(['Question', 'Type', 'Marks', 'Key', 'Facility index', 'Discrimination index', 'Point-biserial (corrected)', ...letters.map((l) => `Chose ${l}`), 'Omitted', 'Flags', 'Prompt']);
  header.font = { bold: true };
  for (const q of a.questions) {
    const share = (l: string) => q.options.find((o) => o.keyLabel === l)?.share ?? null;
    ws.addRow([
      `Q${q.number}`,
      q.type,
      q.marks,
      q.options.find((o) => o.isCorrect)?.keyLabel ?? null,
      q.facilityIndex,
      q.discriminationIndex,
      q.pointBiserial,
      ...letters.map(share),
      q.options.length ? q.omitted.share : null,
      q.flags.join('; '),
      (q.prompt ?? '').replace(/\s+/g, ' ').slice(0, 200),
    ]);
  }
  ws.getColumn(1).width = 40;
}

/** results.xlsx bytes: a "Results" sheet and an "Item analysis" sheet. */
export async function resultsWorkbook(examTitle: string, table: { headers: string[]; rows: Cell[][] }, analysis: ExamAnalysisReport): Promise<Buffer> {
  const Excel = await loadExcel();
  const wb = new Excel.Workbook();
  wb.creator = 'HallCBT';
  wb.title = `${examTitle} results`;
  const ws = wb.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1, xSplit: 2 }] });
  ws.addRow(table.headers).font = { bold: true };
  for (const r of table.rows) ws.addRow(r);
  for (const col of [9, 10]) ws.getColumn(col).numFmt = 'yyyy-mm-dd hh:mm:ss';
  ws.getColumn(2).width = 28;
  for (const col of [9, 10]) ws.getColumn(col).width = 20;
  analysisSheet(wb, analysis);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
