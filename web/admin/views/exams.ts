/**
 * Exam list (GET /exams?workspaceId=) with a "new exam" form (POST /exams). Each row
 * links to the exam's screens and shows its room code, window and counts.
 */
import { formValues, h, hiddenHeader, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import { formatWindow } from '../time.js';
import type { Exam, ExamSummary } from '../types.js';
import { errorBlock } from '../ui.js';
import { examFormFields, readExamForm } from './exam-form.js';

/** Published / paused / draft badge for an exam. */
export function examStateBadge(e: ExamSummary): HTMLElement {
  if (e.isPaused) return h('span', { class: 'badge warn' }, 'Paused');
  return e.isPublished ? h('span', { class: 'badge ok' }, 'Published') : h('span', { class: 'badge' }, 'Draft');
}

/** Draws the exam list. */
export async function renderExamList(ctx: Ctx, host: HTMLElement): Promise<void> {
  const exams = await ctx.api.get<ExamSummary[]>(`/exams?workspaceId=${encodeURIComponent(ctx.workspace.id)}`);

  const errorHost = h('div');
  const form = h('form', { id: 'new-exam-form', class: 'card stack', hidden: true },
    h('h2', null, 'New exam'),
    examFormFields(),
    errorHost,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: () => (form.hidden = true) }, 'Cancel'),
      h('button', { type: 'submit', class: 'primary' }, 'Create exam')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    try {
      const body = { workspaceId: ctx.workspace.id, ...readExamForm(formValues(form), true) };
      const exam = await ctx.api.post<Exam>('/exams', body);
      ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/questions`);
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  });

  const rows = exams.map((e) => h('tr', { 'data-exam-id': e.id },
    h('td', null, h('a', { href: `#/exams/${encodeURIComponent(e.id)}` }, e.title)),
    h('td', null, h('code', { class: 'room-code-small' }, e.accessCode)),
    h('td', null, `${e.durationMins} min`),
    h('td', { class: 'exam-window' }, formatWindow(e.startsAt, e.endsAt)),
    h('td', null, examStateBadge(e)),
    h('td', { class: 'num' }, String(e._count?.questions ?? '—')),
    h('td', { class: 'num' }, String(e._count?.attempts ?? '—')),
    h('td', { class: 'row-actions' },
      h('a', { href: `#/exams/${encodeURIComponent(e.id)}/monitor` }, 'Monitor'), ' · ',
      h('a', { href: `#/exams/${encodeURIComponent(e.id)}/results` }, 'Results'))));

  replace(host,
    h('div', { class: 'page-head' },
      h('h1', null, 'Exams'),
      h('button', { type: 'button', class: 'primary', id: 'new-exam', onclick: () => { form.hidden = false; (form.querySelector('input') as HTMLInputElement).focus(); } }, 'New exam')),
    form,
    exams.length
      ? h('table', { class: 'table', id: 'exam-table' },
        h('thead', null, h('tr', null, ['Title', 'Room code', 'Duration', 'Window', 'State', 'Questions', 'Attempts'].map((t) => h('th', null, t)), hiddenHeader('Actions'))),
        h('tbody', null, rows))
      : h('p', { class: 'empty' }, 'No exams yet. Create the first one.'));
}
