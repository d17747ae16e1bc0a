/**
 * Question editor with a live preview drawn by the same renderer the candidate page uses
 * (renderRich: Markdown + KaTeX, sanitised). New questions go to POST /questions/bulk
 * (one item), edits to PATCH /questions/:id. Objective types get option rows; essays get
 * word bounds, a model answer and a rubric.
 */
import { field, h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import { ESSAY_WORDS, questionExtras, questionView } from '../question-view.js';
import type { Exam, Question, QuestionType } from '../types.js';
import { errorBlock, toast } from '../ui.js';
import { hasKey, optionsEditor, trueFalseOptions } from './options-editor.js';
import { rubricEditor } from './rubric-editor.js';
import { confirmAdding } from './confirm-adding.js';

const TYPES: Array<[QuestionType, string]> = [['MCQ', 'Multiple choice'], ['TRUE_FALSE', 'True / false'], ['SHORT_ESSAY', 'Short essay'], ['LONG_ESSAY', 'Extended composition']];
const isEssay = (t: QuestionType) => t === 'SHORT_ESSAY' || t === 'LONG_ESSAY';

/** A fresh draft of the given type: four empty options, none marked correct (issue 36: no silent key). */
function blank(type: QuestionType = 'MCQ', section = ''): Question {
  return { type, marks: 1, prompt: '', section, options: [0, 1, 2, 3].map(() => ({ text: '', isCorrect: false })) };
}

/** What the editor says next to the options when an objective question has no key. */
export const NO_KEY_MESSAGE = 'Mark the correct answer: choose "correct" next to one of the options before saving.';

/**
 * Draft → QuestionInput body: only the fields that apply to its type. For a new question
 * empty text is left out; for an edit (`patch`) it is sent as null so a cleared field is
 * cleared on the server, and a type change drops the other type's fields.
 */
export function toQuestionInput(d: Question, patch = false): Record<string, unknown> {
  const out: Record<string, unknown> = { type: d.type, prompt: d.prompt, marks: d.marks };
  const opt = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') out[key] = value;
    else if (patch) out[key] = null;
  };
  opt('section', d.section?.trim());
  opt('explanation', d.explanation?.trim() ? d.explanation : null);
  opt('difficulty', d.difficulty);
  opt('citation', d.citation?.trim());
  if (isEssay(d.type)) {
    opt('minWords', d.minWords || null);
    opt('maxWords', d.maxWords || null);
    opt('modelAnswer', d.modelAnswer?.trim() ? d.modelAnswer : null);
    opt('rubric', d.rubric?.criteria.length ? { name: d.rubric.name, totalMarks: d.marks, criteria: d.rubric.criteria.map((c) => ({ ...(c.id ? { id: c.id } : {}), title: c.title, maxMarks: Number(c.maxMarks), ...(c.description ? { description: c.description } : {}) })) } : null);
    if (patch) out.options = [];
  } else {
    out.options = (d.options ?? []).map((o) => ({ ...(patch && o.id ? { id: o.id } : {}), keyLabel: o.keyLabel, text: o.text, isCorrect: o.isCorrect }));
    if (patch) Object.assign(out, { minWords: null, maxWords: null, modelAnswer: null, rubric: null });
  }
  return out;
}

export interface EditorOptions {
  /** the question to edit (absent: a new one) */
  question?: Question;
  /** known section names, offered in a list */
  sections: string[];
  onDone: (saved: boolean) => void;
  /**
   * Edit a draft that is not stored yet (generated questions under review): the save
   * button hands the edited question here instead of calling the API.
   */
  onSaveDraft?: (q: Question) => void;
}

/** Draws the editor into `host`. */
export function renderQuestionEditor(ctx: Ctx, host: HTMLElement, exam: Exam, opts: EditorOptions): void {
  const draft: Question = opts.question ? structuredClone(opts.question) : blank('MCQ', opts.sections.at(-1) ?? '');
  const preview = h('div', { class: 'preview', id: 'question-preview' });
  const extras = h('div');
  let timer = 0;
  // shown next to the options when saving an objective question without a key
  const keyError = h('p', { class: 'error', id: 'key-missing', role: 'alert', hidden: true }, NO_KEY_MESSAGE);
  const changed = () => {
    if (hasKey(draft.options)) keyError.hidden = true;
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      replace(preview, questionView(draft, (opts.question?.position ?? exam.questions?.length ?? 0) + (opts.question ? 0 : 1)));
      replace(extras, questionExtras(draft));
      rubric.refresh();
    }, 60);
  };

  const typeSelect = h('select', { name: 'type', id: 'q-type' }, TYPES.map(([t, label]) => h('option', { value: t, selected: t === draft.type }, label)));
  const marks = h('input', { name: 'marks', id: 'q-marks', type: 'number', min: 0.5, step: 0.5, required: true, value: draft.marks });
  const section = h('input', { name: 'section', id: 'q-section', list: 'section-list', value: draft.section ?? '', placeholder: 'e.g. Section A' });
  const prompt = h('textarea', { name: 'prompt', id: 'q-prompt', rows: 6, required: true, placeholder: 'Question text. Markdown and LaTeX: $x^2$, $$\\frac{a}{b}$$' }, draft.prompt);
  const explanation = h('textarea', { name: 'explanation', id: 'q-explanation', rows: 2, placeholder: 'Why the answer is right (optional)' }, draft.explanation ?? '');
  const minWords = h('input', { type: 'number', id: 'q-min-words', min: 1, value: draft.minWords ?? '' });
  const maxWords = h('input', { type: 'number', id: 'q-max-words', min: 1, value: draft.maxWords ?? '' });
  const modelAnswer = h('textarea', { id: 'q-model-answer', rows: 4, placeholder: 'The benchmark answer examiners and the grading helper compare against' }, draft.modelAnswer ?? '');
  const bind = (el: HTMLInputElement | HTMLTextAreaElement, set: (v: string) => void) => el.addEventListener('input', () => { set(el.value); changed(); });
  bind(marks, (v) => (draft.marks = Number(v)));
  bind(section, (v) => (draft.section = v));
  bind(prompt, (v) => (draft.prompt = v));
  bind(explanation, (v) => (draft.explanation = v));
  bind(minWords, (v) => (draft.minWords = v ? Number(v) : null));
  bind(maxWords, (v) => (draft.maxWords = v ? Number(v) : null));
  bind(modelAnswer, (v) => (draft.modelAnswer = v));

  const rubric = rubricEditor(ctx.api, draft, changed);
  const objectiveBox = h('div', { class: 'objective-fields' });
  const essayBox = h('div', { class: 'essay-fields stack' },
    h('div', { class: 'grid2' }, field('Minimum words', minWords), field('Maximum words', maxWords)),
    field('Model answer', modelAnswer), rubric.el);
  const applyType = () => {
    objectiveBox.hidden = isEssay(draft.type);
    essayBox.hidden = !isEssay(draft.type);
    if (isEssay(draft.type)) {
      replace(objectiveBox); // hidden required option inputs would block the form
      const d = ESSAY_WORDS[draft.type as 'SHORT_ESSAY' | 'LONG_ESSAY'];
      minWords.placeholder = String(d[0]);
      maxWords.placeholder = String(d[1]);
    } else {
      if (draft.type === 'TRUE_FALSE') draft.options = trueFalseOptions(draft.options);
      else if ((draft.options ?? []).length < 2) draft.options = blank().options;
      replace(objectiveBox, optionsEditor(draft, changed), keyError);
    }
    // hidden essay controls must not block submitting an objective question
    essayBox.querySelectorAll('input, textarea, select').forEach((el) => ((el as HTMLInputElement).disabled = essayBox.hidden));
  };
  typeSelect.addEventListener('change', () => {
    const prev = draft.type;
    draft.type = typeSelect.value as QuestionType;
    if (prev === 'TRUE_FALSE' && draft.type === 'MCQ') draft.options = blank().options;
    applyType();
    changed();
  });

  const errorHost = h('div');
  const form = h('form', { class: 'stack', id: 'question-form' },
    h('div', { class: 'grid3' }, field('Type', typeSelect), field('Marks', marks), field('Section', section)),
    h('datalist', { id: 'section-list' }, opts.sections.map((s) => h('option', { value: s }))),
    field('Question', prompt, 'Markdown with LaTeX between $…$ (inline) or $$…$$ (display).'),
    objectiveBox, essayBox,
    field('Explanation', explanation),
    errorHost,
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', onclick: () => opts.onDone(false) }, 'Cancel'),
      h('button', { type: 'submit', class: 'primary', id: 'save-question' }, opts.onSaveDraft ? 'Keep changes' : opts.question ? 'Save question' : 'Add question')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorHost);
    if (!isEssay(draft.type) && !hasKey(draft.options)) {
      keyError.hidden = false;
      (objectiveBox.querySelector('input.option-correct') as HTMLInputElement | null)?.focus();
      return;
    }
    try {
      if (opts.onSaveDraft) {
        opts.onSaveDraft(draft);
        return;
      }
      const body = toQuestionInput(draft, Boolean(opts.question?.id));
      if (opts.question?.id) await ctx.api.patch(`/questions/${encodeURIComponent(opts.question.id)}`, body);
      else {
        if (!(await confirmAdding(ctx, exam))) return;
        await ctx.api.post('/questions/bulk', { workspaceId: ctx.workspace.id, examId: exam.id, questions: [body] });
      }
      toast(opts.question ? 'Question saved.' : 'Question added.');
      opts.onDone(true);
    } catch (err) {
      replace(errorHost, errorBlock(err));
    }
  });

  applyType();
  replace(host, h('section', { class: 'card editor', id: 'question-editor' },
    h('h2', null, opts.question ? 'Edit question' : 'New question'),
    h('div', { class: 'editor-grid' },
      form,
      h('div', { class: 'preview-col' }, h('div', { class: 'field-label' }, 'As candidates see it'), preview, extras))));
  changed();
  prompt.focus();
}
