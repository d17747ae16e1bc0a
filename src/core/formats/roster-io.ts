/**
 * Rosters as files (issue 6 §5): POST /exams/:id/roster/import reads a CSV or .xlsx
 * with columns studentId, candidateName, phone, the optional access arrangements
 * extraTimePercent ("25" or "25%") and extraTimeMins, and subjects (section names separated
 * by `;`, `,` or `|`, issue 37 item 3) (headers case- and space-insensitive, with common
 * aliases such as "Student ID", "Name", "Mobile", "Extra time %", "Extra minutes";
 * docs/decisions.md, "Extra time from the roster"), and an optional `centre`
 * column that only the hub reads (the hall a candidate sits at: docs/hub.md, "Candidates
 * and centres"; the hall ignores it); GET /exams/:id/roster.xlsx
 * writes the roster with PINs for printing. Rows are checked with the roster's own
 * schema; every problem is reported as `{row, column, message}` and nothing is stored
 * when any row is wrong.
 */
import { loadExcel } from './xlsx/excel.js';
import Papa from 'papaparse';
import { rosterCandidateSchema, type RosterInput } from '../roster/schemas.js';
import { cellText, mergeRole } from './xlsx/cells.js';
import { findHeader, loadWorkbook } from './xlsx/read-questions.js';
import { normaliseHeader } from './xlsx/columns.js';
import type { SheetError } from './xlsx/row-question.js';

type RosterColumn = 'studentId' | 'candidateName' | 'phone' | 'extraTimePercent' | 'extraTimeMins' | 'subjects' | 'centre';
const TITLES: Record<RosterColumn, string> = { studentId: 'studentId', candidateName: 'candidateName', phone: 'phone', extraTimePercent: 'extraTimePercent', extraTimeMins: 'extraTimeMins', subjects: 'subjects', centre: 'centre' };
const ALIASES: Record<string, RosterColumn> = {
  studentid: 'studentId',
  student: 'studentId',
  studentno: 'studentId',
  studentnumber: 'studentId',
  admissionno: 'studentId',
  admissionnumber: 'studentId',
  regno: 'studentId',
  candidateid: 'studentId',
  candidatename: 'candidateName',
  name: 'candidateName',
  fullname: 'candidateName',
  studentname: 'candidateName',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  telephone: 'phone',
  tel: 'phone',
  gsm: 'phone',
  // not "subject": a class list's single "Subject" column is no subject combination
  subjects: 'subjects',
  subjectcombination: 'subjects',
  centre: 'centre',
  center: 'centre',
  examcentre: 'centre',
  examcenter: 'centre',
  centreid: 'centre',
  centrename: 'centre',
  hall: 'centre',
  hallid: 'centre',
  extratimepercent: 'extraTimePercent',
  extratimepct: 'extraTimePercent',
  extrapercent: 'extraTimePercent',
  extratimemins: 'extraTimeMins',
  extratimeminutes: 'extraTimeMins',
  extramins: 'extraTimeMins',
  extraminutes: 'extraTimeMins',
};
/** A header's column; "Extra time %" is the percentage (a bare "Extra time" is too ambiguous to read). */
const columnFor = (t: string): RosterColumn | null => {
  const n = normaliseHeader(t);
  return n === 'extratime' && t.includes('%') ? 'extraTimePercent' : (ALIASES[n] ?? null);
};

export interface RosterRead {
  candidates: RosterInput[];
  /** file row of each candidate */
  rows: number[];
  /** each candidate's `centre` cell (a hub hall's id or name), null when empty or absent */
  centres: (string | null)[];
  errors: SheetError[];
}

/**
 * A cell of an extra-time column as a number: "25", "25%", "25.0" → 25; blank → undefined;
 * anything else → the text itself, which the schema refuses as not a number.
 */
function wholeNumber(text: string | undefined): number | string | undefined {
  if (!text) return undefined;
  const t = text.replace(/\s*%$/, '').trim();
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : text;
}

/** Validates raw rows (1-based file row numbers) into candidates. */
function validateRows(raw: { row: number; values: Partial<Record<RosterColumn, string>> }[], out: RosterRead): void {
  const seen = new Map<string, number>();
  for (const { row, values } of raw) {
    if (!values.studentId && !values.candidateName && !values.phone && !values.subjects) continue;
    const { centre, ...fields } = values;
    const subjects = fields.subjects ? fields.subjects.split(/[;,|]/).map((t) => t.trim()).filter(Boolean) : undefined;
    const r = rosterCandidateSchema.safeParse({ ...fields, phone: fields.phone || undefined, subjects, extraTimePercent: wholeNumber(fields.extraTimePercent), extraTimeMins: wholeNumber(fields.extraTimeMins) });
    if (!r.success) {
      for (const i of r.error.issues) out.errors.push({ row, column: TITLES[i.path[0] as RosterColumn] ?? null, message: i.message });
      continue;
    }
    const first = seen.get(r.data.studentId);
    if (first !== undefined) {
      out.errors.push({ row, column: TITLES.studentId, message: `studentId ${r.data.studentId} also appears on row ${first}.` });
      continue;
    }
    seen.set(r.data.studentId, row);
    out.candidates.push(r.data);
    out.rows.push(row);
    out.centres.push(centre?.trim() || null);
  }
}

/**
 * Reads a roster .xlsx (first sheet with a studentId header in its first 10 rows).
 * @throws BankFormatError when the bytes cannot be read as a workbook (truncated or corrupt zip)
 */
export async function readRosterXlsx(bytes: Uint8Array): Promise<RosterRead> {
  const out: RosterRead = { candidates: [], rows: [], centres: [], errors: [] };
  const header = findHeader<RosterColumn>(await loadWorkbook(bytes), 'studentId', columnFor);
  if (!header) {
    out.errors.push({ row: 1, column: TITLES.studentId, message: 'No header row naming a studentId column (e.g. "Student ID") was found in the first 10 rows.' });
    return out;
  }
  out.errors.push(...header.errors);
  const raw: { row: number; values: Partial<Record<RosterColumn, string>> }[] = [];
  for (let r = header.row + 1; r <= header.sheet.rowCount; r++) {
    const values: Partial<Record<RosterColumn, string>> = {};
    for (const [col, key] of header.columns) {
      const cell = header.sheet.getRow(r).getCell(col);
      if (mergeRole(cell) === 'other-row') out.errors.push({ row: r, column: TITLES[key], message: `Cell ${cell.address} is merged with ${cell.master.address}; unmerge it so each candidate has their own row.` });
      const t = cellText(cell);
      if (t) values[key] = t;
    }
    raw.push({ row: r, values });
  }
  validateRows(raw, out);
  return out;
}

/**
 * The CSV's delimiter as its first non-empty line (the header) uses it: a comma, or the
 * semicolon or tab a spreadsheet in another locale writes. Not guessed from the rows: a
 * subjects cell ("Mathematics; Physics; Chemistry") holds more semicolons than a row holds
 * commas, and a guess from the rows split the file at them.
 */
function headerDelimiter(text: string): string {
  const header = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const count = (d: string) => header.split(d).length - 1;
  return [',', ';', '\t'].reduce((best, d) => (count(d) > count(best) ? d : best), ',');
}

/** Reads roster CSV text (comma, semicolon or tab separated, as its header row is; header row required). */
export function readRosterCsv(text: string): RosterRead {
  const out: RosterRead = { candidates: [], rows: [], centres: [], errors: [] };
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false, delimiter: headerDelimiter(text) });
  const lines = parsed.data;
  const headerIndex = lines.slice(0, 10).findIndex((cells) => cells.some((c) => columnFor(c) === 'studentId'));
  if (headerIndex < 0) {
    out.errors.push({ row: 1, column: TITLES.studentId, message: 'No header row naming a studentId column (e.g. "studentId,candidateName,phone") was found.' });
    return out;
  }
  const cols = lines[headerIndex]!.map(columnFor);
  const raw = lines.slice(headerIndex + 1).map((cells, i) => {
    const values: Partial<Record<RosterColumn, string>> = {};
    cells.forEach((c, j) => {
      const key = cols[j];
      if (key && c.trim()) values[key] = c.trim();
    });
    return { row: headerIndex + i + 2, values };
  });
  validateRows(raw, out);
  return out;
}

/** Roster .xlsx for printing: one row per candidate with the PIN and the room code. */
export async function rosterWorkbook(exam: { title: string; accessCode: string }, entries: { studentId: string; candidateName: string; phone: string | null; pin: string }[]): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  wb.creator = 'HallCBT';
  const ws = wb.addWorksheet('Roster', { pageSetup: { orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0 }, views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = [
    { header: 'studentId', key: 'studentId', width: 16 },
    { header: 'candidateName', key: 'candidateName', width: 32 },
    { header: 'phone', key: 'phone', width: 18 },
    { header: 'PIN', key: 'pin', width: 10 },
    { header: 'Room code', key: 'room', width: 12 },
    { header: 'Exam', key: 'exam', width: 36 },
  ];
  ws.getRow(1).font = { bold: true };
  for (const e of entries) ws.addRow({ studentId: e.studentId, candidateName: e.candidateName, phone: e.phone ?? '', pin: e.pin, room: exam.accessCode, exam: exam.title });
  // PINs and IDs are text: keep leading zeros
  for (const k of ['studentId', 'phone', 'pin']) ws.getColumn(k).numFmt = '@';
  return Buffer.from(await wb.xlsx.writeBuffer());
}
