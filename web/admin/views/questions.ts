/**
 * Questions tab: every question drawn as candidates see it (correct option marked),
 * grouped under its section; add, edit, delete, move up/down (POST
 * /exams/:id/questions/reorder with the full new order) and bulk paste.
 */
import { h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam, Question } from '../types.js';
import { confirmDialog, errorText, toast } from '../ui.js';
import { questionExtras, questionView } from '../question-view.js';
import { renderQuestionEditor } from './question-editor.js';
import { renderBulkPaste } from './bulk-paste.js';

/** Draws the questions tab for `exam` (which carries its questions in order). */
export function renderQuestions(ctx: Ctx, host: HTMLElement, exam: Exam): void {
  const questions = [...(exam.questions ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const sections = [...new Set(questions.map((q) => q.section).filter((s): s is string => Boolean(s)))];
  const panel = h('div', { id: 'question-panel' });
  const reload = () => ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/questions`);
  const done = (saved: boolean) => (saved ? reload() : replace(panel));

  const openEditor = (q?: Question) => {
    renderQuestionEditor(ctx, panel, exam, { question: q, sections, onDone: done });
    panel.scrollIntoView({ block: 'start' });
  };

  const move = async (index: number, delta: -1 | 1) => {
    const ids = questions.map((q) => q.id!);
    const j = index + delta;
    if (j < 0 || j >= ids.length) return;
    [ids[index], ids[j]] = [ids[j]!, ids[index]!];
    try {
      await ctx.api.post(`/exams/${encodeURIComponent(exam.id)}/questions/reorder`, { questionIds: ids });
      reload();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };

  const remove = async (q: Question, n: number) => {
    if (!(await confirmDialog('Delete question', `Delete question ${n}? Candidates who already answered it keep their attempt, but it will no longer be marked.`, 'Delete'))) return;
    try {
      await ctx.api.del(`/questions/${encodeURIComponent(q.id!)}`);
      toast('Question deleted.');
      reload();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };

  const list: HTMLElement[] = [];
  let lastSection: string | null | undefined;
  questions.forEach((q, i) => {
    if ((q.section ?? '') !== (lastSection ?? '') || i === 0) {
      // once sections are in use, unlabelled questions get their own heading too
      if (q.section || sections.length) list.push(h('h3', { class: 'section-head' }, q.section || 'No section'));
      lastSection = q.section;
    }
    list.push(h('div', { class: 'question-item', 'data-question-id': q.id ?? '' },
      questionView(q, i + 1),
      questionExtras(q),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'link small', disabled: i === 0, 'aria-label': `Move question ${i + 1} up`, 'data-action': 'up', onclick: () => void move(i, -1) }, '↑ Up'),
        h('button', { type: 'button', class: 'link small', disabled: i === questions.length - 1, 'aria-label': `Move question ${i + 1} down`, 'data-action': 'down', onclick: () => void move(i, 1) }, '↓ Down'),
        h('button', { type: 'button', class: 'link small', 'data-action': 'edit', onclick: () => openEditor(q) }, 'Edit'),
        h('button', { type: 'button', class: 'link small danger-text', 'data-action': 'delete', onclick: () => void remove(q, i + 1) }, 'Delete'))));
  });

  const totalMarks = questions.reduce((a, q) => a + Number(q.marks), 0);
  replace(host,
    h('div', { class: 'page-head' },
      h('p', { class: 'muted' }, `${questions.length} question${questions.length === 1 ? '' : 's'}, ${totalMarks} marks in all${sections.length ? `, sections: ${sections.join(', ')}` : ''}.`),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', id: 'open-bulk', onclick: () => renderBulkPaste(ctx, panel, exam, done) }, 'Bulk paste'),
        h('button', { type: 'button', class: 'primary', id: 'add-question', onclick: () => openEditor() }, 'Add question'))),
    panel,
    questions.length ? h('div', { class: 'question-list', id: 'question-list' }, list) : h('p', { class: 'empty' }, 'No questions yet. Add one, or paste several at once.'));
}
