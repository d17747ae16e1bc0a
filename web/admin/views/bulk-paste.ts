/**
 * Bulk import into an exam: pasted text (Aiken, GIFT, Moodle XML, the past-paper Markdown
 * layout, or a paper copied from a website or word processor with numbered questions,
 * answers or an answer key and worked solutions; detected by the server or chosen) or a
 * file. The check lists, by line, what the server could not place or left out. Text and bank files go to
 * POST /questions/import (`dryRun` for "Check": what would be stored, with warnings and
 * skipped items); .xlsx files to POST /questions/import-excel. When the import route is
 * missing (404/405), pasted Aiken text is parsed here and sent to POST /questions/bulk.
 * Every route is all-or-nothing (a bad item stores nothing), except that a check which found
 * invalid questions offers "Import the N valid questions" (`skipInvalid=true`), the invalid
 * ones listed by line to fix. When the exam already has submitted attempts, importing asks
 * first and says what happens to their scores (docs/decisions.md, "Imports keep what is
 * good, when asked").
 */
import { ApiError } from '../api.js';
import { field, h, replace } from '../dom.js';
import { parseAiken } from '../aiken.js';
import type { Ctx } from '../session.js';
import type { Exam, Question } from '../types.js';
import { errorBlock, toast } from '../ui.js';
import { questionView } from '../question-view.js';
import { confirmAdding } from './confirm-adding.js';

const EXAMPLE = `What is the value of $2^3$?
A. 6
B. 8
C. 9
D. 16
ANSWER: B

Which gas do plants take in for photosynthesis?
A) Oxygen
B) Nitrogen
C) Carbon dioxide
ANSWER: C`;

const FORMATS: Array<[string, string]> = [['', 'Detect automatically'], ['aiken', 'Aiken'], ['gift', 'GIFT (Moodle)'], ['moodle-xml', 'Moodle XML'], ['past-paper', 'Past-paper Markdown'], ['pasted-paper', 'Pasted paper (1. question, A. options, Answer / Solution lines or an answer key)'], ['qti', 'QTI 3.0 (an item, or a content package .zip)']];

type Note = { index?: number; line?: number; row?: number; message?: string; reason?: string };
/** What the import routes answer (and what the client-side fallback produces). */
export interface ImportResult {
  created: number;
  questions: Question[];
  warnings: Note[];
  skipped: Note[];
  errors?: Note[];
  format?: string;
}

const where = (n: Note) => (n.line ? `line ${n.line}` : n.row ? `row ${n.row}` : n.index !== undefined ? `#${n.index + 1}` : '');
const noteText = (n: Note) => `${where(n)}${where(n) ? ': ' : ''}${n.message ?? n.reason ?? ''}`;
const missingRoute = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 405) && !err.errors;

/**
 * Sends pasted text or a file to the server's import. `dryRun` stores nothing. Falls back
 * to the client-side Aiken parser for pasted text when the route does not exist.
 * @throws ApiError (validation errors listed by index/line/row) or Error (fallback parse errors)
 */
export async function importQuestions(ctx: Ctx, exam: Exam, source: { text?: string; file?: File; format?: string }, dryRun: boolean, skipInvalid = false): Promise<ImportResult> {
  const fd = new FormData();
  fd.set('workspaceId', ctx.workspace.id);
  fd.set('examId', exam.id);
  const xlsx = source.file && /\.xlsx$/i.test(source.file.name);
  if (source.file) fd.set('file', source.file, source.file.name);
  else fd.set('text', source.text ?? '');
  if (source.format && !xlsx) fd.set('format', source.format);
  if (dryRun && !xlsx) fd.set('dryRun', 'true');
  if (skipInvalid && !dryRun && !xlsx) fd.set('skipInvalid', 'true');
  try {
    const res = await ctx.api.form<Partial<ImportResult>>(xlsx ? '/questions/import-excel' : '/questions/import', fd);
    return { created: res.created ?? 0, questions: res.questions ?? [], warnings: res.warnings ?? [], skipped: res.skipped ?? [], errors: res.errors, format: res.format };
  } catch (err) {
    if (!missingRoute(err) || source.file) throw err;
  }
  const parsed = parseAiken(source.text ?? '');
  const errors = parsed.errors.map((e) => ({ line: e.line, message: e.message }));
  if (dryRun) return { created: 0, questions: parsed.questions, warnings: [], skipped: [], errors, format: 'aiken' };
  if (errors.length) throw new Error(errors.map(noteText).join('\n'));
  if (!parsed.questions.length) throw new Error('No questions found in the text.');
  const res = await ctx.api.post<{ created: number; questions: Question[] }>('/questions/bulk', { workspaceId: ctx.workspace.id, examId: exam.id, questions: parsed.questions });
  return { created: res.created, questions: res.questions, warnings: [], skipped: [], format: 'aiken' };
}

/** Draws the import panel; `onDone(true)` after a successful import. */
export function renderBulkPaste(ctx: Ctx, host: HTMLElement, exam: Exam, onDone: (imported: boolean) => void): void {
  const text = h('textarea', { id: 'bulk-text', rows: 14, class: 'mono', placeholder: EXAMPLE });
  const format = h('select', { id: 'bulk-format' }, FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const file = h('input', { type: 'file', id: 'bulk-file', accept: '.txt,.md,.gift,.xml,.xlsx,.zip' });
  const checkHost = h('div', { class: 'bulk-check', id: 'bulk-check' });
  const errorHost = h('div');
  const source = () => ({ text: text.value, file: file.files?.[0], format: format.value });

  const showReport = (r: ImportResult, dry: boolean) => {
    const n = dry ? r.questions.length : r.created;
    const errs = r.errors ?? [];
    const invalid = new Set(errs.flatMap((e) => (e.index === undefined ? [] : [e.index]))).size;
    const valid = r.questions.length - invalid;
    // a check that found invalid questions among valid ones offers to store the valid ones (skipInvalid)
    const importValid = dry && invalid && valid > 0 && errs.every((e) => e.index !== undefined)
      ? h('button', { type: 'button', class: 'primary', id: 'bulk-import-valid', onclick: (ev: Event) => void run(ev.currentTarget as HTMLButtonElement, false, true) }, `Import the ${valid} valid question${valid === 1 ? '' : 's'}`)
      : null;
    replace(checkHost,
      h('p', { class: errs.length ? 'warn' : 'ok' }, `${n} question${n === 1 ? '' : 's'} ${dry ? 'recognised' : 'imported'}`, r.format ? ` (${r.format})` : '',
        errs.length ? `, ${errs.length} problem${errs.length === 1 ? '' : 's'}` : '', '.'),
      errs.length ? h('ul', { class: 'error-list' }, errs.map((e) => h('li', null, noteText(e)))) : null,
      importValid ? h('div', { class: 'actions' }, h('span', { class: 'muted' }, `Fix the ${invalid} question${invalid === 1 ? '' : 's'} listed above later, or:`), importValid) : null,
      r.warnings.length ? h('div', { class: 'notice' }, h('strong', null, 'Warnings'), h('ul', null, r.warnings.map((w) => h('li', null, noteText(w))))) : null,
      r.skipped.length ? h('div', { class: 'notice' }, h('strong', null, 'Skipped'), h('ul', null, r.skipped.map((s) => h('li', null, noteText(s))))) : null,
      dry ? h('div', { class: 'bulk-preview' }, r.questions.slice(0, 50).map((q, i) => questionView(q, i + 1))) : null);
  };

  const run = async (button: HTMLButtonElement, dry: boolean, skipInvalid = false) => {
    replace(errorHost);
    const src = source();
    if (!src.file && !src.text.trim()) {
      replace(errorHost, h('div', { class: 'error', role: 'alert' }, 'Paste some questions or choose a file first.'));
      return;
    }
    button.disabled = true;
    try {
      if (dry && src.file && /\.xlsx$/i.test(src.file.name)) {
        replace(checkHost, h('p', { class: 'muted' }, 'Spreadsheets are checked when you import: nothing is stored if any row has a problem.'));
        return;
      }
      if (!dry && !(await confirmAdding(ctx, exam))) return;
      const r = await importQuestions(ctx, exam, src, dry, skipInvalid);
      showReport(r, dry);
      if (!dry) {
        const left = skipInvalid ? r.skipped.filter((x) => x.index !== undefined).length : 0;
        toast(`${r.created} question${r.created === 1 ? '' : 's'} imported${left ? `, ${left} left out (see the lines listed)` : ''}${r.warnings.length ? `, ${r.warnings.length} warning(s)` : ''}.`);
        onDone(true);
      }
    } catch (err) {
      replace(errorHost, err instanceof ApiError ? errorBlock(err) : h('pre', { class: 'error', role: 'alert' }, (err as Error).message));
    } finally {
      button.disabled = false;
    }
  };
  const check = h('button', { type: 'button', class: 'secondary', id: 'bulk-check-btn' }, 'Check');
  const submit = h('button', { type: 'button', class: 'primary', id: 'bulk-import' }, 'Import questions');
  check.addEventListener('click', () => void run(check, true));
  submit.addEventListener('click', () => void run(submit, false));

  replace(host, h('section', { class: 'card', id: 'bulk-paste' },
    h('h2', null, 'Bulk import'),
    h('p', { class: 'muted' }, 'Paste questions, or choose a file. Aiken: the question, options A. B. C. … (or A) B) …), then a line ANSWER: letter. A paper copied from a website or Word also works: numbered questions (1. / 1) / Q1.), options (A. / (A) / a)), "Answer: C" and "Solution: …" lines or an answer key at the end; solutions become explanations. Press Check first: lines that could not be placed are listed with their line numbers. GIFT, Moodle XML, past-paper Markdown and the .xlsx template also work. Press Import and nothing is stored if any question has a problem; when Check finds some, it offers to import the valid ones.'),
    h('div', { class: 'inline-form' }, field('Format', format), field('…or a file (.txt, .gift, .xml, .md, .xlsx, QTI .zip)', file),
      h('button', { type: 'button', class: 'link small', id: 'excel-template', onclick: () => void ctx.api.download('/questions/import-excel/template', 'hallcbt-questions-template.xlsx').catch((err) => toast(String((err as Error).message), 'error')) }, 'Download the .xlsx template')),
    field('Questions to import (paste them here)', text),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: () => onDone(false) }, 'Cancel'), check, submit),
    errorHost, checkHost));
  text.focus();
}
