/**
 * The exam paper, prepared once per exam and cached (issue 8: "the paper for an exam
 * prepared once"): questions in position order with their options, answer keys and
 * marks, plus the candidate view of one attempt's layout with every answer-key field
 * removed (spec: no isCorrect anywhere; DESIGN §7: nor explanation, modelAnswer, rubric).
 */
import type { ExamRow, QuestionRow } from '../../db/rows.js';
import { sebGateFor } from '../seb/gate.js';
import type { SebGate } from '../seb/verify.js';
import type { GradablePaper, PaperOption, PaperQuestion } from '../../core/grading/paper.js';
import { renderRich, type MathForm } from '../../platform/rich-text.js';

export type { PaperOption, PaperQuestion };

/** The hall's paper: the gradable paper plus the exam row it was built from. */
export interface Paper extends GradablePaper {
  exam: ExamRow;
  /** whether the exam has a roster (then studentId + issued PIN are required) */
  hasRoster: boolean;
  /** Safe Exam Browser check of every candidate request; null when the exam does not require SEB (issue 25) */
  seb: SebGate | null;
}

/** Builds a paper from rows (questions already in position order). */
export function buildPaper(exam: ExamRow, rows: QuestionRow[], hasRoster: boolean): Paper {
  const questions = rows.map((q): PaperQuestion => {
    const options = JSON.parse(q.options_json) as PaperOption[];
    return {
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      marks: q.marks,
      section: q.section,
      minWords: q.min_words,
      maxWords: q.max_words,
      options,
      optionsById: new Map(options.map((o) => [o.id, o])),
      rubric: q.rubric_json ? JSON.parse(q.rubric_json) : null,
      modelAnswer: q.model_answer,
    };
  });
  return { exam, questions, byId: new Map(questions.map((q) => [q.id, q])), maxScore: questions.reduce((s, q) => s + q.marks, 0), hasRoster, seb: sebGateFor(exam) };
}

const rendering: Record<MathForm, WeakMap<Paper, Promise<void>>> = { html: new WeakMap(), mathml: new WeakMap() };
/** Time one slice of renderPaper may hold the event loop (ms). */
const RENDER_SLICE_MS = 8;

/**
 * Renders every question of `paper` in `form` (renderedQuestion) in slices of about
 * RENDER_SLICE_MS, yielding to the event loop between them: a 60-question maths paper
 * costs ~0.2–1 s of CPU once, which must not stall the saves of candidates already
 * writing. Concurrent callers share one pass; a paper already rendered resolves at once.
 * Only the asked-for form is rendered (a hall of current browsers never renders `html`).
 */
export function renderPaper(paper: Paper, form: MathForm = 'html'): Promise<void> {
  let p = rendering[form].get(paper);
  if (!p) {
    p = (async () => {
      let i = 0;
      while (i < paper.questions.length) {
        const until = performance.now() + RENDER_SLICE_MS;
        do renderedQuestion(paper.questions[i++]!, form);
        while (i < paper.questions.length && performance.now() < until);
        if (i < paper.questions.length) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    rendering[form].set(paper, p);
  }
  return p;
}

/** One attempt's fixed order: questions and, per question, the shown option order. */
export type Layout = { questionId: string; optionIds: string[] }[];

/** Fisher–Yates shuffle with a caller-supplied random integer source. */
function shuffled<T>(items: T[], randomInt: (n: number) => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** The layout of a new attempt, honouring the exam's shuffle options (DESIGN §7). */
export function newLayout(paper: Paper, randomInt: (n: number) => number): Layout {
  const qs = paper.exam.shuffle_questions ? shuffled(paper.questions, randomInt) : paper.questions;
  return qs.map((q) => ({ questionId: q.id, optionIds: (paper.exam.shuffle_choices && q.type === 'MCQ' ? shuffled(q.options, randomInt) : q.options).map((o) => o.id) }));
}

export interface CandidateQuestion {
  id: string;
  type: PaperQuestion['type'];
  prompt: string;
  /** the prompt rendered to sanitised HTML by the server (issue 26; added to the spec's fields) */
  promptHtml: string;
  marks: number;
  section: string | null;
  minWords: number | null;
  maxWords: number | null;
  /** `html`: the option text rendered inline to sanitised HTML */
  options: { id: string; keyLabel: string; text: string; html: string }[];
}

/** Rendered HTML of a question, kept as long as the paper that holds the question. */
interface RenderedQuestion {
  promptHtml: string;
  optionHtml: Map<string, string>;
}
const rendered: Record<MathForm, WeakMap<PaperQuestion, RenderedQuestion>> = { html: new WeakMap(), mathml: new WeakMap() };

/**
 * The question's prompt and options rendered to sanitised HTML (Markdown + KaTeX +
 * sanitize-html, src/platform/rich-text.ts) with maths in `form`, once per question and
 * form of a cached paper: the candidate page ships no renderer (issue 26).
 */
export function renderedQuestion(q: PaperQuestion, form: MathForm = 'html'): RenderedQuestion {
  let r = rendered[form].get(q);
  if (!r) {
    r = { promptHtml: renderRich(q.prompt || '', false, form), optionHtml: new Map(q.options.map((o) => [o.id, renderRich(o.text || '', true, form)])) };
    rendered[form].set(q, r);
  }
  return r;
}

const LABELS = 'ABCDEFGHIJ';

/**
 * Candidate view of the paper in the attempt's layout, maths in `form`: keyLabels follow
 * the shown order (A, B, C…). Questions deleted since the attempt started are left out;
 * questions added since are appended (so an examiner's fix reaches candidates).
 */
export function candidateQuestions(paper: Paper, layout: Layout, form: MathForm = 'html'): CandidateQuestion[] {
  const out: CandidateQuestion[] = [];
  const seen = new Set<string>();
  const push = (q: PaperQuestion, optionIds: string[]) => {
    seen.add(q.id);
    const opts = optionIds.map((id) => q.optionsById.get(id)).filter((o): o is PaperOption => !!o);
    for (const o of q.options) if (!optionIds.includes(o.id)) opts.push(o);
    const r = renderedQuestion(q, form);
    out.push({
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      promptHtml: r.promptHtml,
      marks: q.marks,
      section: q.section,
      minWords: q.minWords,
      maxWords: q.maxWords,
      options: opts.map((o, i) => ({ id: o.id, keyLabel: LABELS[i] ?? String(i + 1), text: o.text, html: r.optionHtml.get(o.id) ?? renderRich(o.text || '', true, form) })),
    });
  };
  for (const l of layout) {
    const q = paper.byId.get(l.questionId);
    if (q) push(q, l.optionIds);
  }
  for (const q of paper.questions) if (!seen.has(q.id)) push(q, q.options.map((o) => o.id));
  return out;
}
