/**
 * A printable result slip for one candidate (GET /attempts/:id/result): score, percentage,
 * grade, times, violations, the score of each section of an exam with sections (issue 37),
 * and each answer with its marks — of the questions the candidate was given — the question
 * rendered from its Markdown. Opened in a dialog; "Print" moves it into the print area (styles.css
 * `.print-result`) and opens the print dialog; "Print all result slips" prints every slip
 * of an exam, one per page.
 */
import { h, rich } from '../dom.js';
import type { Ctx } from '../session.js';
import { formatDateTime, formatDuration } from '../time.js';
import type { AttemptResult, Exam } from '../types.js';
import { openDialog, printNow, setPrintArea } from '../ui.js';

/** Builds the slip element. */
export function resultSlip(hallName: string, exam: Exam, r: AttemptResult): HTMLElement {
  const byId = new Map(r.answers.map((a) => [a.questionId, a]));
  // an exam with sections gives each candidate their own questions: the slip lists those
  const questions = [...(exam.questions ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).filter((q) => !r.sectionScores || byId.has(q.id ?? ''));
  // essays not marked yet: the figures count them as 0 (issue 20)
  const mark = r.pendingReview ? ' (provisional)' : '';
  const fact = (label: string, value: string, cls?: string) => [h('dt', null, label), h('dd', { class: cls ?? null }, value)];
  return h('div', { class: 'result-slip', 'data-attempt-id': r.attemptId },
    h('header', null, h('strong', null, hallName), h('span', null, exam.title)),
    h('dl', { class: 'facts' },
      fact('Candidate', r.candidateName, 'slip-name'),
      fact('Student ID', r.studentId),
      fact('Score', r.score === null ? '—' : `${r.score} / ${r.maxScore}${mark}`, 'slip-score'),
      fact('Percentage', r.percentage === null ? '—' : `${r.percentage}%${mark}`),
      fact('Grade', r.grade === null ? '—' : `${r.grade}${mark}`, 'slip-grade'),
      fact('Status', r.status + (r.autoSubmitted ? ' (submitted automatically)' : '')),
      fact('Started', formatDateTime(r.startedAt)),
      fact('Submitted', formatDateTime(r.completedAt)),
      fact('Time taken', formatDuration(r.startedAt, r.completedAt)),
      fact('Violations', String(r.violations))),
    r.sectionScores?.length
      ? h('table', { class: 'table compact slip-sections' },
        h('thead', null, h('tr', null, ['Section', 'Score'].map((t) => h('th', null, t)))),
        h('tbody', null, r.sectionScores.map((x) => h('tr', null, h('td', null, x.section), h('td', { class: 'num' }, `${x.score} / ${x.maxScore}${mark}`)))))
      : null,
    r.pendingReview ? h('p', { class: 'notice' }, 'Provisional: essays are awaiting the examiner’s review and count as 0 here; the score and grade may rise.') : null,
    h('table', { class: 'table compact' },
      h('thead', null, h('tr', null, ['#', 'Question', 'Answer', 'Marks'].map((t) => h('th', null, t)))),
      h('tbody', null, questions.map((q, i) => {
        const a = byId.get(q.id ?? '');
        const answered = Boolean(a?.optionId || a?.text?.trim());
        const answer = !answered ? 'no answer' : a?.keyLabel ?? `${a!.text!.trim().split(/\s+/).length} words`;
        const mark = a?.awardedMarks ?? (a?.isCorrect ? q.marks : 0);
        return h('tr', { class: a?.isCorrect ? 'ok' : answered && a?.isCorrect === false ? 'bad' : null },
          h('td', null, String(i + 1)),
          // the whole prompt rendered (cutting the Markdown first left raw "**1…"); long ones are clamped by styles.css
          h('td', { class: 'slip-prompt' }, rich(q.prompt)),
          h('td', null, answer, a?.isCorrect === true ? ' ✓' : answered && a?.isCorrect === false ? ' ✗' : ''),
          h('td', { class: 'num' }, `${mark ?? 0} / ${q.marks}`));
      }))));
}

/**
 * Prints every result slip of an exam (each attempt that is not in progress), one slip per
 * page (styles.css `.print-result .result-slip`). Fetches each GET /attempts/:id/result.
 * @returns the number of slips printed (0: nothing to print, no print dialog)
 */
export async function printAllResultSlips(ctx: Ctx, exam: Exam, attemptIds: string[]): Promise<number> {
  const results: AttemptResult[] = [];
  for (const id of attemptIds) results.push(await ctx.api.get<AttemptResult>(`/attempts/${encodeURIComponent(id)}/result`));
  if (!results.length) return 0;
  setPrintArea('result', h('div', { class: 'result-slips' }, results.map((r) => resultSlip(ctx.workspace.name, exam, r))));
  printNow();
  return results.length;
}

/** Fetches the result and shows the slip with a Print button. */
export async function openResultSlip(ctx: Ctx, exam: Exam, attemptId: string): Promise<void> {
  const r = await ctx.api.get<AttemptResult>(`/attempts/${encodeURIComponent(attemptId)}/result`);
  const slip = resultSlip(ctx.workspace.name, exam, r);
  await openDialog({
    title: 'Result slip',
    intro: slip,
    submitLabel: 'Print',
    cancelLabel: 'Close',
    onSubmit: () => {
      setPrintArea('result', resultSlip(ctx.workspace.name, exam, r));
      printNow();
    },
  });
}
