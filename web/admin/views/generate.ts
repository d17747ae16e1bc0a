/**
 * Question generation (docs/design.md §10): upload material (PDF, DOCX, PPTX, text, audio or
 * video) or paste notes → POST /api/cbt/ai/generate-questions → preview every question
 * as candidates will see it, with its difficulty and citation → keep or drop each, edit
 * any inline → import the kept ones into the exam in one step (POST /questions/bulk).
 * Nothing is stored until the import; then the examiner's keep / edit / discard of every
 * item is recorded for this workspace's quality model (generate-verdicts.ts, issue 39 §2).
 * Each item shows its quality score, and the summary what the model withheld and why.
 */
import { ApiError } from '../api.js';
import { field, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam, Question } from '../types.js';
import { errorBlock, toast } from '../ui.js';
import { questionExtras, questionView } from '../question-view.js';
import { renderQuestionEditor, toQuestionInput } from './question-editor.js';
import { confirmAdding } from './confirm-adding.js';
import { recordVerdicts, verdictsBar, type ReviewedItem } from './generate-verdicts.js';

/** A generated question; `quality` when the engine scored it (issue 39 §2). */
type GeneratedQuestion = Question & { quality?: { score: number; features?: Record<string, number> } };

interface GenerateResponse {
  engine: string;
  difficulty: string;
  totalGenerated: number;
  questions: GeneratedQuestion[];
  warnings?: string[];
  /** items the quality model held back, and why */
  withheld?: { count: number; reasons: { reason: string; count: number }[] };
}

/** Draws the generation tab. */
export function renderGenerate(ctx: Ctx, host: HTMLElement, exam: Exam): void {
  const file = h('input', { type: 'file', name: 'file', id: 'gen-file', accept: '.pdf,.docx,.pptx,.txt,.md,.mp3,.wav,.mp4,.srt,.vtt' });
  const notes = h('textarea', { name: 'notes', id: 'gen-notes', rows: 6, placeholder: 'Or paste lesson notes, a chapter or a transcript (Markdown is fine).' });
  const subject = h('input', { name: 'subject', id: 'gen-subject', maxlength: 200, placeholder: 'e.g. SS2 Biology — photosynthesis' });
  const difficulty = h('select', { name: 'difficulty', id: 'gen-difficulty' },
    [['balanced', 'Balanced (progressive mix)'], ['simple', 'Simple (recall)'], ['intermediate', 'Intermediate (application)'], ['hard', 'Hard (synthesis)']].map(([v, l]) => h('option', { value: v }, l)));
  const count = h('input', { name: 'count', id: 'gen-count', type: 'number', min: 1, max: 50, value: 10 });
  const types = ['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY'].map((t) => h('input', { type: 'checkbox', class: 'gen-type', value: t, checked: true }));
  const errorHost = h('div');
  const results = h('div', { id: 'gen-results' });
  const go = h('button', { type: 'submit', class: 'primary', id: 'gen-run' }, 'Generate questions');

  const form = h('form', { class: 'card stack', id: 'generate-form' },
    h('h2', null, 'Generate questions from material'),
    h('p', { class: 'muted' }, 'Works without internet. Questions are only suggestions: review, edit and keep the good ones. Each cites where in the material it comes from.'),
    h('div', { class: 'grid2' }, field('Material (PDF, Word, PowerPoint, text, audio or video, up to 40 MB)', file), field('Subject', subject)),
    field('Notes', notes),
    h('div', { class: 'grid3' }, field('Difficulty', difficulty), field('How many', count),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Types'), h('div', { class: 'checks' },
        types.map((cb, i) => h('label', { class: 'check' }, cb, ' ', ['Multiple choice', 'True/false', 'Short essay'][i]!))))),
    errorHost,
    h('div', { class: 'actions' }, go),
    verdictsBar(ctx));

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    const f = file.files?.[0];
    if (!f && !notes.value.trim()) {
      replace(errorHost, h('div', { class: 'error', role: 'alert' }, 'Choose a file or paste some notes.'));
      return;
    }
    const fd = new FormData();
    if (f) fd.set('file', f, f.name);
    if (notes.value.trim()) fd.set('notes', notes.value);
    if (subject.value.trim()) fd.set('subject', subject.value.trim());
    fd.set('difficulty', difficulty.value);
    fd.set('count', count.value || '10');
    const chosen = types.filter((t) => t.checked).map((t) => t.value);
    if (chosen.length && chosen.length < 3) fd.set('types', chosen.join(','));
    go.disabled = true;
    go.textContent = 'Reading the material…';
    try {
      const res = await ctx.api.form<GenerateResponse>('/api/cbt/ai/generate-questions', fd);
      showReview(ctx, results, exam, res);
    } catch (err) {
      replace(errorHost, errorBlock(err));
    } finally {
      go.disabled = false;
      go.textContent = 'Generate questions';
    }
  });
  replace(host, form, results);
}

/** The review list: keep/drop, edit, import the kept questions. */
function showReview(ctx: Ctx, host: HTMLElement, exam: Exam, res: GenerateResponse): void {
  const items: ReviewedItem[] = res.questions.map((q) => ({ generated: q, q: { ...q, id: undefined } as Question, edited: false, keep: true }));
  const score = (i: number) => res.questions[i]!.quality?.score;
  const sections = [...new Set((exam.questions ?? []).map((q) => q.section).filter((s): s is string => Boolean(s)))];
  const editorHost = h('div');
  const list = h('div', { class: 'question-list', id: 'gen-list' });
  const errorHost = h('div');
  const importBtn = h('button', { type: 'button', class: 'primary', id: 'gen-import' });

  const draw = () => {
    const kept = items.filter((i) => i.keep).length;
    importBtn.textContent = `Import ${kept} question${kept === 1 ? '' : 's'} into this exam`;
    importBtn.disabled = kept === 0;
    replace(list, items.map((it, i) => {
      const keep = h('input', { type: 'checkbox', class: 'gen-keep', checked: it.keep, 'aria-label': `Keep question ${i + 1}` });
      keep.addEventListener('change', () => { it.keep = keep.checked; draw(); });
      return h('div', { class: it.keep ? 'question-item' : 'question-item dropped', 'data-index': String(i) },
        questionView(it.q, i + 1), questionExtras(it.q),
        h('div', { class: 'row-actions' },
          score(i) === undefined ? null : h('span', { class: 'muted small gen-quality', title: 'How likely the quality model thinks you keep this question as it is' }, `Quality ${Math.round(score(i)! * 100)}%`),
          it.edited ? h('span', { class: 'muted small gen-edited' }, 'edited') : null,
          h('label', { class: 'check' }, keep, ' keep'),
          h('button', { type: 'button', class: 'link small', 'data-action': 'edit', onclick: () => {
            renderQuestionEditor(ctx, editorHost, exam, { question: it.q, sections, onDone: () => replace(editorHost), onSaveDraft: (edited) => {
              it.q = structuredClone(edited);
              // an editor saved without a change is still "keep"
              it.edited = JSON.stringify(toQuestionInput(it.q)) !== JSON.stringify(toQuestionInput(it.generated));
              replace(editorHost);
              draw();
            } });
            editorHost.scrollIntoView({ block: 'start' });
          } }, 'Edit')));
    }));
  };

  importBtn.addEventListener('click', async () => {
    replace(errorHost);
    const kept = items.filter((i) => i.keep);
    if (!(await confirmAdding(ctx, exam))) return;
    importBtn.disabled = true;
    try {
      const r = await ctx.api.post<{ created: number }>('/questions/bulk', { workspaceId: ctx.workspace.id, examId: exam.id, questions: kept.map((i) => toQuestionInput(i.q)) });
      toast(`${r.created} question${r.created === 1 ? '' : 's'} imported.`);
      await recordVerdicts(ctx, res.engine, exam.id, items);
      ctx.navigate(`#/exams/${encodeURIComponent(exam.id)}/questions`);
    } catch (err) {
      // errors name the index among the kept questions: point back at the shown numbers
      if (err instanceof ApiError && err.errors) {
        for (const e of err.errors) if (typeof e.index === 'number') e.index = items.indexOf(kept[e.index]!);
      }
      replace(errorHost, errorBlock(err));
      importBtn.disabled = false;
    }
  });

  draw();
  replace(host,
    h('section', { class: 'card' },
      h('div', { class: 'page-head' },
        h('p', { id: 'gen-summary' }, `${res.totalGenerated} question${res.totalGenerated === 1 ? '' : 's'} generated by ${res.engine} (${res.difficulty}).`),
        importBtn),
      res.withheld?.count
        ? h('p', { class: 'muted', id: 'gen-withheld' }, `${res.withheld.count} more held back by the quality model: `,
          res.withheld.reasons.map((r) => `${r.reason} (${r.count})`).join('; '), '.')
        : null,
      res.warnings?.length ? h('div', { class: 'notice' }, h('ul', null, res.warnings.map((w) => h('li', null, w)))) : null,
      errorHost),
    editorHost, list);
}
