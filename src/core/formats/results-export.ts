/**
 * Results of an exam for the school (issue 6 §3): GET /exams/:id/results.xlsx and
 * results.csv. One row per attempt: student ID, name, score, max, percentage, grade,
 * status, violations, started, completed, time taken, pending review, then for an exam
 * with sections one column per section with the candidate's score in it (empty for a
 * section they did not sit; issue 37 item 5), then one column per question with the chosen option's key label (the examiner's label, whatever
 * order the candidate saw), or for essays the approved marks ("pending" until an
 * examiner approves; empty for a question the candidate was not given). Every roster candidate without an attempt has a row with status
 * ABSENT. Times are hall time with the zone named (hall-time.ts; docs/decisions.md,
 * "Results files name every candidate and give hall time"). The .xlsx adds an "Item analysis" sheet.
 *
 * The records are the domain's shapes (core/analysis/records.ts): the hall maps its rows to them
 * (modules/imports/exam-data.ts; answers of attempts still in progress may not be flushed yet,
 * completed attempts are complete), the hub its result events (hub/results.ts).
 */
import type ExcelJS from 'exceljs';
import { loadExcel } from './xlsx/excel.js';
import Papa from 'papaparse';
import type { StoredQuestion } from '../questions/schemas.js';
import type { AnswerRecord, AttemptRecord, ExamAnalysisReport } from '../analysis/records.js';
import { formatHallTime, hallTimeZone, wallClockDate } from './hall-time.js';

type Cell = string | number | Date | null;

/** The results table: `timeZone` (IANA) is the zone its Date cells are shown in (this machine's when absent). */
export interface ResultsTable {
  headers: string[];
  rows: Cell[][];
  timeZone?: string;
}

/** A roster candidate, for the ABSENT rows. */
export interface RosterCandidate {
  studentId: string;
  candidateName: string;
}

/** Status of a roster candidate who never started the exam. */
export const ABSENT = 'ABSENT';

/** The fixed columns; the two time columns name the zone: "Started (hall time, Africa/Lagos)". */
export function resultHeaders(timeZone: string): string[] {
  return ['Student ID', 'Candidate name', 'Score', 'Max score', 'Percentage', 'Grade', 'Status', 'Violations', `Started (hall time, ${timeZone})`, `Completed (hall time, ${timeZone})`, 'Time taken (s)', 'Pending review'];
}
const isTimeHeader = (h: string) => /^(Started|Completed) \(hall time, /.test(h);

/** Time on the clock (stoppages credited back), in whole seconds, as GET /exams/:id/attempts reports it. */
export function timeTakenSeconds(a: AttemptRecord): number | null {
  return a.completedAt ? Math.max(0, Math.round((a.completedAt - a.startedAt - a.creditedMs) / 1000)) : null;
}

function questionCell(q: StoredQuestion, a: AnswerRecord | undefined): Cell {
  if (!a) return null;
  if (q.options.length) return q.options.find((o) => o.id === a.optionId)?.keyLabel ?? null;
  if (a.approvedMarks !== null) return a.approvedMarks;
  return a.text && a.text.trim() ? 'pending' : null;
}

/** Header of a section's score column. */
export const sectionHeader = (name: string): string => `${name} (section score)`;

/**
 * Header and rows of the results table (dates as Date objects): one row per attempt, then
 * one ABSENT row per `roster` candidate whose student ID has no attempt (roster order).
 * `timeZone` (IANA, default this machine's) names the zone the files show times in;
 * `sections` (the exam's section names in order) gives the section columns, followed by
 * any other section an attempt was scored under (a section renamed since).
 */
export function resultsTable(questions: StoredQuestion[], attempts: AttemptRecord[], answers: Map<string, Map<string, AnswerRecord>>, roster: RosterCandidate[] = [], timeZone = hallTimeZone(), sections: string[] = []): ResultsTable {
  const sectionNames = [...new Set([...sections, ...attempts.flatMap((a) => (a.sectionScores ?? []).map((x) => x.section))])];
  const headers = [...resultHeaders(timeZone), ...sectionNames.map(sectionHeader), ...questions.map((_, i) => `Q${i + 1}`)];
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  const rows = attempts.map((a) => {
    const mine = answers.get(a.id);
    const given = a.questionIds ? new Set(a.questionIds) : null;
    const scored = new Map((a.sectionScores ?? []).map((x) => [x.section, x.score]));
    return [
      a.studentId,
      a.candidateName,
      a.score,
      a.maxScore,
      a.percentage,
      a.grade,
      a.status,
      a.violations,
      date(a.startedAt),
      date(a.completedAt),
      timeTakenSeconds(a),
      a.status === 'COMPLETED' ? (a.pendingReview ? 'yes' : 'no') : null,
      ...sectionNames.map((n) => scored.get(n) ?? null),
      ...questions.map((q) => (given && !given.has(q.id) ? null : questionCell(q, mine?.get(q.id)))),
    ];
  });
  const started = new Set(attempts.map((a) => a.studentId));
  for (const c of roster) {
    if (started.has(c.studentId)) continue;
    rows.push([c.studentId, c.candidateName, null, null, null, null, ABSENT, null, null, null, null, null, ...sectionNames.map(() => null), ...questions.map(() => null)]);
  }
  return { headers, rows, timeZone };
}

/** Guards a CSV text cell against formula injection (OWASP "CSV Injection"); dates as hall time with the offset. */
function csvSafe(v: Cell, timeZone: string): string | number {
  if (v === null) return '';
  if (v instanceof Date) return formatHallTime(v.getTime(), timeZone);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(v)) return `'${v}`;
  return v;
}

/** results.csv text (UTF-8 with BOM so Excel shows accents; dates "2026-11-27 14:05:09 (UTC+01:00)" in the table's zone). */
export function resultsCsv(table: ResultsTable): string {
  const tz = table.timeZone ?? hallTimeZone();
  return `\uFEFF${Papa.unparse({ fields: table.headers, data: table.rows.map((r) => r.map((v) => csvSafe(v, tz))) }, { newline: '\r\n' })}\r\n`;
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

/**
 * results.xlsx bytes: a "Results" sheet and an "Item analysis" sheet. Times are real
 * spreadsheet dates holding the hall's wall-clock time; their headers name the zone.
 */
export async function resultsWorkbook(examTitle: string, table: ResultsTable, analysis: ExamAnalysisReport): Promise<Buffer> {
  const Excel = await loadExcel();
  const wb = new Excel.Workbook();
  wb.creator = 'HallCBT';
  wb.title = `${examTitle} results`;
  const ws = wb.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1, xSplit: 2 }] });
  const tz = table.timeZone ?? hallTimeZone();
  ws.addRow(table.headers).font = { bold: true };
  for (const r of table.rows) ws.addRow(r.map((v) => (v instanceof Date ? wallClockDate(v.getTime(), tz) : v)));
  const dateColumns = table.headers.flatMap((h, i) => (isTimeHeader(h) ? [i + 1] : []));
  for (const col of dateColumns) {
    ws.getColumn(col).numFmt = 'yyyy-mm-dd hh:mm:ss';
    ws.getColumn(col).width = 24;
  }
  ws.getColumn(table.headers.indexOf('Candidate name') + 1).width = 28;
  analysisSheet(wb, analysis);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
