/**
 * Results tab: one row per attempt (GET /exams/:id/attempts) with score, percentage,
 * grade, time taken, violations and essays awaiting review; downloads of the results
 * spreadsheet (GET /exams/:id/results.xlsx, .csv), a printable slip per candidate and
 * "Print all result slips". The table fits a 1024×768 screen without sideways scrolling.
 * Item analysis (GET /exams/:id/analysis) is shown below when the server offers it.
 */
import { h, hiddenHeader, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import { formatDateTime, formatDuration } from '../time.js';
import type { AttemptSummary, Exam } from '../types.js';
import { errorText, toast } from '../ui.js';
import { openResultSlip, printAllResultSlips } from './result-slip.js';
import { renderAnalysis } from './analysis.js';

/** A "provisional" tag for figures that still count unmarked essays as 0 (issue 20). */
export function provisional(a: { pendingReview: boolean; grade: string | null }): HTMLElement | null {
  return a.pendingReview && a.grade !== null ? h('small', { class: 'badge warn provisional', title: 'Essays not marked yet: counted as 0' }, 'provisional') : null;
}

/** Draws the results tab. */
export async function renderResults(ctx: Ctx, host: HTMLElement, exam: Exam): Promise<void> {
  const base = `/exams/${encodeURIComponent(exam.id)}`;
  const attempts = await ctx.api.get<AttemptSummary[]>(`${base}/attempts`);
  const act = (p: Promise<void>) => p.catch((err) => toast(errorText(err), 'error'));
  const done = attempts.filter((a) => a.status === 'COMPLETED' && a.percentage !== null);
  const mean = done.length ? Math.round((done.reduce((s, a) => s + (a.percentage ?? 0), 0) / done.length) * 100) / 100 : null;
  const pending = attempts.filter((a) => a.pendingReview).length;

  const finished = attempts.filter((a) => a.status !== 'IN_PROGRESS').map((a) => a.attemptId);
  const printAll = h('button', { type: 'button', class: 'secondary', id: 'print-all-slips', disabled: !finished.length }, 'Print all result slips');
  printAll.addEventListener('click', () => {
    printAll.disabled = true;
    void act(printAllResultSlips(ctx, exam, finished).then(() => undefined)).finally(() => { printAll.disabled = false; });
  });
  // one "Candidate" column (name over student ID) keeps the table within 1024 px with every action on screen
  const rows = attempts.map((a) => h('tr', { 'data-attempt-id': a.attemptId, 'data-status': a.status },
    h('td', null, h('span', { class: 'cand-name' }, a.candidateName), h('br'), h('small', { class: 'muted cand-id' }, a.studentId)),
    h('td', null, h('span', { class: `badge status-${a.status.toLowerCase()}` }, a.status), a.autoSubmitted ? h('small', { class: 'muted' }, ' (auto-submitted)') : null),
    h('td', { class: 'num', 'data-field': 'score' }, a.score === null ? '—' : `${a.score} / ${a.maxScore}`, provisional(a)),
    h('td', { class: 'num', 'data-field': 'percentage' }, a.percentage === null ? '—' : `${a.percentage}%`, provisional(a)),
    h('td', { 'data-field': 'grade' }, a.grade ?? '—', provisional(a)),
    h('td', null, formatDuration(a.startedAt, a.completedAt)),
    h('td', { class: a.violations ? 'num warn' : 'num' }, String(a.violations)),
    h('td', { 'data-field': 'pending-review' }, a.pendingReview ? h('a', { class: 'badge warn', href: `#/exams/${encodeURIComponent(exam.id)}/review` }, 'Essays to review') : ''),
    h('td', { class: 'muted small' }, formatDateTime(a.completedAt)),
    h('td', { class: 'row-actions' }, a.status !== 'IN_PROGRESS'
      ? h('button', { type: 'button', class: 'link small', 'data-action': 'slip', onclick: () => void act(openResultSlip(ctx, exam, a.attemptId)) }, 'Result slip')
      : null)));

  const analysisHost = h('section', { class: 'card', id: 'analysis', hidden: true });
  replace(host,
    h('div', { class: 'page-head' },
      h('p', { class: 'muted', id: 'results-summary' }, `${attempts.length} attempt${attempts.length === 1 ? '' : 's'}, ${done.length} marked`, mean !== null ? `, mean ${mean}%` : '', pending ? `, ${pending} with essays awaiting review` : '', '.'),
      h('div', { class: 'actions' },
        printAll,
        h('button', { type: 'button', class: 'secondary', id: 'download-csv', onclick: () => void act(ctx.api.download(`${base}/results.csv`, `results-${exam.accessCode}.csv`)) }, 'Download .csv'),
        h('button', { type: 'button', class: 'primary', id: 'download-xlsx', onclick: () => void act(ctx.api.download(`${base}/results.xlsx`, `results-${exam.accessCode}.xlsx`)) }, 'Download .xlsx'))),
    attempts.length
      ? h('div', { class: 'results-fit' }, h('table', { class: 'table', id: 'results-table' },
        h('thead', null, h('tr', null, ['Candidate', 'Status', 'Score', '%', 'Grade', 'Time taken', 'Violations', 'Review', 'Submitted'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
        h('tbody', null, rows)))
      : h('p', { class: 'empty' }, 'No attempts yet.'),
    analysisHost);
  void renderAnalysis(ctx, analysisHost, exam);
}
