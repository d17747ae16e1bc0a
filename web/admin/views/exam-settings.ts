/**
 * Exam settings tab: edit and reschedule (PATCH /exams/:id), publish/unpublish,
 * duplicate (POST /exams/:id/duplicate → new room code, unpublished copy) and delete
 * (DELETE /exams/:id; the server refuses with 409 once candidates have attempts).
 */
import { formValues, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam } from '../types.js';
import { confirmDialog, errorBlock, errorText, toast } from '../ui.js';
import { examFormFields, readExamForm } from './exam-form.js';
import { renderSebCard } from './exam-seb.js';

/** Draws the settings tab. */
export function renderExamSettings(ctx: Ctx, host: HTMLElement, exam: Exam): void {
  const path = `/exams/${encodeURIComponent(exam.id)}`;
  const errorHost = h('div');
  const form = h('form', { id: 'exam-settings-form', class: 'card stack' },
    h('h2', null, 'Settings and schedule'),
    examFormFields(exam),
    errorHost,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Save changes')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    try {
      await ctx.api.patch<Exam>(path, readExamForm(formValues(form), false));
      toast('Exam saved.');
      ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/settings`);
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  });

  const run = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };
  const publish = h('button', { type: 'button', class: exam.isPublished ? 'secondary' : 'primary', id: 'toggle-publish',
    onclick: () => run(async () => {
      await ctx.api.patch<Exam>(path, { isPublished: !exam.isPublished });
      toast(exam.isPublished ? 'Unpublished: candidates can no longer start.' : 'Published: candidates can start with the room code.');
      ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/settings`);
    }) }, exam.isPublished ? 'Unpublish' : 'Publish');
  const duplicate = h('button', { type: 'button', class: 'secondary', id: 'duplicate-exam',
    onclick: () => run(async () => {
      const copy = await ctx.api.post<Exam>(`${path}/duplicate`);
      toast(`Copied as “${copy.title}” with room code ${copy.accessCode} (unpublished).`);
      ctx.navigate(`#/exams/${encodeURIComponent(copy.id)}/settings`);
    }) }, 'Duplicate');
  const del = h('button', { type: 'button', class: 'danger', id: 'delete-exam',
    onclick: () => run(async () => {
      if (!(await confirmDialog('Delete exam', `Delete “${exam.title}” and its questions and roster? This cannot be undone.`, 'Delete'))) return;
      await ctx.api.del(path);
      toast('Exam deleted.');
      ctx.navigate('#/exams');
    }) }, 'Delete');

  const sebHost = h('div', { id: 'seb-host' });
  replace(host, form, sebHost,
    h('section', { class: 'card' }, h('h2', null, 'Actions'), h('div', { class: 'actions left' }, publish, duplicate, del),
      h('p', { class: 'muted' }, 'An exam with attempts cannot be deleted; unpublish it instead.')));
  void renderSebCard(ctx, sebHost, exam).catch((err) => replace(sebHost, errorBlock(err)));
}
