/**
 * A paper's questions, drawn as candidates see them (the hall's question view, web/shared's
 * renderer: Markdown + KaTeX, sanitised; the correct option marked), with the hall's question
 * editor and live preview for authors: add (POST /hub/v1/exams/{id}/questions/bulk), edit
 * (PATCH …/questions/{questionId}), delete and move (…/questions/reorder). A change after
 * publication makes the next version, sealed for the halls at once (docs/hub.md, "Editing
 * after publication").
 */
import { h, replace } from '../../admin/dom.js';
import { questionExtras, questionView } from '../../admin/question-view.js';
import type { Ctx } from '../../admin/session.js';
import type { Exam, Question, Workspace } from '../../admin/types.js';
import { confirmDialog, errorText, toast } from '../../admin/ui.js';
import { renderQuestionEditor, toQuestionInput } from '../../admin/views/question-editor.js';
import type { BoardCtx } from '../session.js';
import type { Paper } from '../types.js';
import { HubPathApi } from '../hub-api.js';

/** The hall editor's context, for its draft mode (its save button hands the question back: nothing reaches a hall route; its rubric templates come from the hub's path). */
function editorCtx(ctx: BoardCtx): Ctx {
  return { api: new HubPathApi(ctx.api.apiKey), workspace: { id: '', name: '' } as Workspace, refreshWorkspace: async () => ({}) as Workspace, navigate: ctx.navigate, signOut: ctx.signOut };
}

/** Draws the questions tab of `paper` into `host`. */
export function renderPaperQuestions(ctx: BoardCtx, host: HTMLElement, paper: Paper, reload: () => void): void {
  const base = `/hub/v1/exams/${encodeURIComponent(paper.id)}`;
  const questions = paper.questions;
  const sections = [...new Set(questions.map((q) => q.section).filter((s): s is string => Boolean(s)))];
  const panel = h('div', { id: 'question-panel' });
  const author = ctx.can('author');

  const openEditor = (q?: Question) => {
    renderQuestionEditor(editorCtx(ctx), panel, { id: paper.id, questions } as unknown as Exam, {
      question: q,
      sections,
      onDone: (saved) => (saved ? reload() : replace(panel)),
      onSaveDraft: (draft) => {
        const save = q?.id ? ctx.api.patch(`${base}/questions/${encodeURIComponent(q.id)}`, toQuestionInput(draft, true)) : ctx.api.post(`${base}/questions/bulk`, { questions: [toQuestionInput(draft)] });
        save.then(() => {
          const sealed = paper.publishedVersion === null ? '' : ': the halls get the new version at their next sync';
          toast(`${q ? 'Question saved' : 'Question added'}${sealed}.`);
          reload();
        }, (err) => toast(errorText(err), 'error'));
      },
    });
    const save = panel.querySelector('#save-question');
    if (save) save.textContent = q ? 'Save question' : 'Add question';
    panel.scrollIntoView({ block: 'start' });
  };
  const move = async (index: number, delta: -1 | 1) => {
    const ids = questions.map((q) => q.id!);
    const j = index + delta;
    [ids[index], ids[j]] = [ids[j]!, ids[index]!];
    try {
      await ctx.api.post(`${base}/questions/reorder`, { questionIds: ids });
      reload();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };
  const remove = async (q: Question, n: number) => {
    if (!(await confirmDialog('Delete question', `Delete question ${n}?`, 'Delete'))) return;
    try {
      await ctx.api.del(`${base}/questions/${encodeURIComponent(q.id!)}`);
      toast('Question deleted.');
      reload();
    } catch (err) {
      toast(errorText(err), 'error');
    }
  };

  const list = questions.map((q, i) => h('div', { class: 'question-item', 'data-question-id': q.id ?? '' },
    questionView(q, i + 1),
    questionExtras(q),
    author ? h('div', { class: 'row-actions' },
      h('button', { type: 'button', class: 'link small', disabled: i === 0, 'aria-label': `Move question ${i + 1} up`, onclick: () => void move(i, -1) }, '↑ Up'),
      h('button', { type: 'button', class: 'link small', disabled: i === questions.length - 1, 'aria-label': `Move question ${i + 1} down`, onclick: () => void move(i, 1) }, '↓ Down'),
      h('button', { type: 'button', class: 'link small', 'data-action': 'edit', onclick: () => openEditor(q) }, 'Edit'),
      h('button', { type: 'button', class: 'link small danger-text', 'data-action': 'delete', onclick: () => void remove(q, i + 1) }, 'Delete')) : null));
  const totalMarks = questions.reduce((a, q) => a + Number(q.marks), 0);
  replace(host,
    h('div', { class: 'page-head' },
      h('p', { class: 'muted' }, `${questions.length} question${questions.length === 1 ? '' : 's'}, ${totalMarks} marks in all${sections.length ? `, sections: ${sections.join(', ')}` : ''}.`),
      author ? h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'secondary', onclick: () => ctx.navigate(`#/papers/${encodeURIComponent(paper.id)}/import`) }, 'Import questions'),
        h('button', { type: 'button', class: 'primary', id: 'add-question', onclick: () => openEditor() }, 'Add question')) : null),
    panel,
    questions.length ? h('div', { class: 'question-list', id: 'question-list' }, list) : h('p', { class: 'empty' }, 'No questions yet: add one, or import a paper.'));
}
