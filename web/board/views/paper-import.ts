/**
 * Import questions into a paper, with the hub's import routes (src/hub/question-imports.ts):
 * pasted text or a file in Aiken, GIFT, Moodle XML, past-paper Markdown, a pasted paper
 * (numbered questions, lettered options, Answer/Solution lines or an answer key) or QTI 3.0
 * (POST /hub/v1/exams/{id}/questions/import; "Check" is its dry run: what would be stored,
 * with warnings by line), and the hall's spreadsheet template (.xlsx: POST
 * …/questions/import-excel; errors by row and column). All or nothing.
 */
import { field, h, replace } from '../../admin/dom.js';
import { questionView } from '../../admin/question-view.js';
import type { Question } from '../../admin/types.js';
import { errorBlock, toast } from '../../admin/ui.js';
import type { BoardCtx } from '../session.js';
import type { Paper } from '../types.js';

/** The formats the import route reads (`format`; detected from the text when empty). */
export const FORMATS: Array<[string, string]> = [['', 'Detect automatically'], ['pasted-paper', 'Pasted paper (1. question, A. options, Answer lines or a key)'], ['aiken', 'Aiken'], ['gift', 'GIFT (Moodle)'], ['moodle-xml', 'Moodle XML'], ['past-paper', 'Past-paper Markdown'], ['qti', 'QTI 3.0']];

type Note = { index?: number; line?: number; row?: number; message?: string; reason?: string };
interface ImportResult {
  created?: number;
  format?: string;
  questions: Question[];
  warnings?: Note[];
  skipped?: Note[];
  errors?: Note[];
}
const where = (n: Note) => (n.line ? `line ${n.line}` : n.row ? `row ${n.row}` : n.index !== undefined ? `#${n.index + 1}` : '');
const noteText = (n: Note) => `${where(n)}${where(n) ? ': ' : ''}${n.message ?? n.reason ?? ''}`;

/** Draws the import tab of `paper` into `host`. */
export function renderPaperImport(ctx: BoardCtx, host: HTMLElement, paper: Paper): void {
  const base = `/hub/v1/exams/${encodeURIComponent(paper.id)}`;
  const format = h('select', { name: 'format', id: 'import-format' }, FORMATS.map(([v, label]) => h('option', { value: v }, label)));
  const text = h('textarea', { name: 'text', id: 'import-text', rows: 14, placeholder: '1. What is the value of 2^3?\nA. 6\nB. 8\nC. 9\nAnswer: B' });
  const file = h('input', { type: 'file', id: 'import-file', accept: '.txt,.gift,.xml,.md,.zip,.xlsx' });
  const report = h('div', { id: 'import-report', 'aria-live': 'polite' });

  const send = async (dryRun: boolean) => {
    replace(report);
    const f = file.files?.[0];
    try {
      let res: ImportResult;
      if (f && /\.xlsx$/i.test(f.name)) {
        if (dryRun) throw new Error('A spreadsheet is checked as it is imported: choose Import.');
        const fd = new FormData();
        fd.set('file', f);
        res = await ctx.api.form<ImportResult>(`${base}/questions/import-excel`, fd);
      } else {
        const fd = new FormData();
        if (f) fd.set('file', f);
        else if (text.value.trim()) fd.set('text', text.value);
        else throw new Error('Paste the questions, or choose a file.');
        if (format.value) fd.set('format', format.value);
        fd.set('dryRun', String(dryRun));
        res = await ctx.api.form<ImportResult>(`${base}/questions/import`, fd);
      }
      const notes = [...(res.errors ?? []), ...(res.skipped ?? []), ...(res.warnings ?? [])];
      const count = dryRun ? res.questions.length : (res.created ?? res.questions.length);
      replace(report, h('section', { class: 'card', id: 'import-result' },
        h('p', { class: notes.length ? 'warn' : 'ok' }, `${count} question${count === 1 ? '' : 's'} ${dryRun ? 'recognised' : 'imported'}${res.format ? ` (${res.format})` : ''}${notes.length ? `, ${notes.length} note${notes.length === 1 ? '' : 's'}` : ''}.`),
        notes.length ? h('ul', { class: 'notes' }, notes.map((n) => h('li', null, noteText(n)))) : null,
        dryRun ? h('div', { class: 'question-list' }, res.questions.slice(0, 50).map((q, i) => questionView(q, paper.questions.length + i + 1))) : null));
      if (!dryRun) {
        toast(`${count} questions imported.`);
        ctx.navigate(`#/papers/${encodeURIComponent(paper.id)}/questions`);
      }
    } catch (err) {
      replace(report, errorBlock(err));
    }
  };

  replace(host, h('section', { class: 'card stack', id: 'import-card' },
    h('h2', null, 'Import questions'),
    h('p', { class: 'muted' }, 'Paste a paper or question bank, or choose a file. Check shows what would be stored, line by line, before anything is; Import stores all the questions or none.'),
    field('Format', format),
    field('Paste here', text),
    field('…or a file', file, 'Aiken, GIFT, Moodle XML, Markdown, QTI 3.0 (.zip or .xml), or the spreadsheet template (.xlsx).'),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'link', id: 'download-template', onclick: () => void ctx.api.download('/hub/v1/questions/import-excel/template', 'HallCBT_question_template.xlsx').catch((e) => replace(report, errorBlock(e))) }, 'Download the spreadsheet template'),
      h('button', { type: 'button', class: 'secondary', id: 'import-check', onclick: () => void send(true) }, 'Check'),
      h('button', { type: 'button', class: 'primary', id: 'import-go', onclick: () => void send(false) }, 'Import')),
    report));
}
