/**
 * The exam paper, prepared once per exam and cached (issue 8: "the paper for an exam
 * prepared once"): questions in position order with their options, answer keys and
 * marks, plus the candidate view of one attempt's layout with every answer-key field
 * removed (spec: no isCorrect anywhere; docs/design.md §7: nor explanation, modelAnswer, rubric).
 */
import type { ExamRow, QuestionRow } from '../../db/rows.js';
import { sebGateFor, type SebGate } from '../seb-check/index.js';
import type { GradablePaper, PaperOption, PaperQuestion } from '../../core/grading/paper.js';
import { renderRich, type MathForm } from '../../core/rich-text.js';
import { byOptionId, cachedRendering, renderCounts, renderQuestion, type RenderedQuestion } from './render-cache.js';
import { renderQuestionText } from './rendered-question.js';
import { drawProblems, parseSections, type ExamSection, type SittingSection } from '../../core/exams/sections.js';
import type { LayoutEntry } from '../../core/exams/layout-codec.js';

export type { PaperOption, PaperQuestion };

/** The hall's paper: the gradable paper plus the exam row it was built from. */
export interface Paper extends GradablePaper {
  exam: ExamRow;
  /** whether the exam has a roster (then studentId + issued PIN are required) */
  hasRoster: boolean;
  /** Safe Exam Browser check of every candidate request; null when the exam does not require SEB (issue 25) */
  seb: SebGate | null;
  /** the exam's sections in order; null when it has none (issue 37) */
  sections: ExamSection[] | null;
  /** why candidates cannot start (a section draws more questions than it has); [] when they can */
  sectionProblems: string[];
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
  const sections = parseSections(exam.sections_json);
  return {
    exam,
    questions,
    byId: new Map(questions.map((q) => [q.id, q])),
    maxScore: questions.reduce((s, q) => s + q.marks, 0),
    hasRoster,
    seb: sebGateFor(exam),
    sections,
    sectionProblems: sections ? drawProblems(sections, questions) : [],
  };
}

const rendering: Record<MathForm, WeakMap<Paper, Promise<void>>> = { html: new WeakMap(), mathml: new WeakMap() };

/**
 * Makes every question of `paper` ready in `form` (renderedQuestion): each question version
 * is rendered once, in the render thread, and kept in render-cache.ts across rebuilds of the
 * paper, so a start only looks the HTML up (issue #34 §3). Concurrent callers share one
 * pass; a paper already made ready resolves at once. Only the asked-for form is rendered
 * (a hall of current browsers never renders `html`).
 */
export function renderPaper(paper: Paper, form: MathForm = 'html'): Promise<void> {
  let p = rendering[form].get(paper);
  if (!p) {
    const done = rendered[form];
    p = Promise.all(paper.questions.map((q) => (done.has(q) ? undefined : renderQuestion(q, form).then((r) => void done.set(q, r))))).then(
      () => undefined,
      (e: unknown) => {
        rendering[form].delete(paper);
        throw e;
      },
    );
    rendering[form].set(paper, p);
  }
  return p;
}

/**
 * One attempt's fixed order: questions and, per question, the shown option order. In an
 * exam with sections every entry names the section it was given under, and the layout is
 * the candidate's whole paper (their sections and draws; nothing added later joins it).
 */
export type Layout = LayoutEntry[];

/** Whether a layout was laid out by sections (a fixed selection of the paper). */
export const isSectioned = (layout: Layout): boolean => layout.length > 0 && layout[0]!.section !== undefined;

/** Fisher–Yates shuffle with a caller-supplied random integer source. */
function shuffled<T>(items: T[], randomInt: (n: number) => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * The layout of a new attempt, honouring the exam's shuffle options (docs/design.md §7).
 * With `sitting` (the candidate's sections and drawn questions, core/exams/sections.ts
 * `drawSitting`), only those questions, section after section in the sitting's order;
 * shuffled questions are shuffled within their section.
 */
export function newLayout(paper: Paper, randomInt: (n: number) => number, sitting: SittingSection[] | null = null): Layout {
  const entry = (q: PaperQuestion, section?: string) => ({
    questionId: q.id,
    optionIds: (paper.exam.shuffle_choices && q.type === 'MCQ' ? shuffled(q.options, randomInt) : q.options).map((o) => o.id),
    ...(section !== undefined ? { section } : {}),
  });
  const order = <T>(qs: T[]) => (paper.exam.shuffle_questions ? shuffled(qs, randomInt) : qs);
  if (!sitting) return order(paper.questions).map((q) => entry(q));
  return sitting.flatMap((s) => order(s.questionIds.map((id) => paper.byId.get(id)!)).map((q) => entry(q, s.name)));
}

/**
 * The candidate's sections as laid out (issue 37 item 4): each section with the ids of its
 * questions in the order shown, questions deleted since the start left out; null for a
 * layout without sections.
 */
export function layoutSections(paper: Paper, layout: Layout): { name: string; questionIds: string[] }[] | null {
  if (!isSectioned(layout)) return null;
  const out: { name: string; questionIds: string[] }[] = [];
  for (const l of layout) {
    if (!paper.byId.has(l.questionId)) continue;
    let last = out[out.length - 1];
    if (!last || last.name !== l.section) out.push((last = { name: l.section!, questionIds: [] }));
    last.questionIds.push(l.questionId);
  }
  return out;
}

/**
 * The paper one attempt is graded on: the whole paper, or for a sectioned layout only the
 * questions the candidate was given (that still exist), with their total marks.
 */
export function attemptPaper(paper: Paper, layout: Layout): GradablePaper {
  if (!isSectioned(layout)) return paper;
  const questions = layout.map((l) => paper.byId.get(l.questionId)).filter((q): q is PaperQuestion => !!q);
  return { questions, byId: new Map(questions.map((q) => [q.id, q])), maxScore: questions.reduce((s, q) => s + q.marks, 0) };
}

/**
 * A question as the candidate's session carries it. The members are written in this order:
 * the ids are random (incompressible) and each one placed after its text, not before it,
 * keeps the runs of text that repeat across questions unbroken. That makes the 60-question
 * maths paper's brotli start ~60 B smaller, at the median and the worst of 300 shuffles
 * (docs/decisions.md, "Members of a candidate's question in a fixed order").
 */
export interface CandidateQuestion {
  type: PaperQuestion['type'];
  prompt: string;
  /** the prompt rendered to sanitised HTML by the server (issue 26; added to the spec's fields) */
  promptHtml: string;
  marks: number;
  section: string | null;
  minWords: number | null;
  maxWords: number | null;
  id: string;
  /** `html`: the option text rendered inline to sanitised HTML */
  options: { keyLabel: string; text: string; html: string; id: string }[];
}

/** Rendered HTML of the questions of cached papers, kept as long as the paper that holds the question. */
const rendered: Record<MathForm, WeakMap<PaperQuestion, RenderedQuestion>> = { html: new WeakMap(), mathml: new WeakMap() };

/**
 * The question's prompt and options rendered to sanitised HTML (Markdown + KaTeX +
 * sanitize-html, src/core/rich-text.ts) with maths in `form`: what `renderPaper` made
 * ready, or render-cache.ts's copy of this version. Rendered here, on the event loop, only
 * when neither has it (a caller that did not await `renderPaper`; counted in renderCounts).
 */
export function renderedQuestion(q: PaperQuestion, form: MathForm = 'html'): RenderedQuestion {
  let r = rendered[form].get(q) ?? cachedRendering(q, form);
  if (!r) {
    renderCounts.questions++;
    r = byOptionId(q.options.map((o) => o.id), renderQuestionText({ prompt: q.prompt, options: q.options.map((o) => o.text), form }));
  }
  rendered[form].set(q, r);
  return r;
}

const LABELS = 'ABCDEFGHIJ';

/**
 * Candidate view of the paper in the attempt's layout, maths in `form`: keyLabels follow
 * the shown order (A, B, C…). Questions deleted since the attempt started are left out;
 * questions added since are appended (so an examiner's fix reaches candidates).
 */
export function candidateQuestions(paper: Paper, layout: Layout, form: MathForm = 'html'): CandidateQuestion[] {
  return shownOrder(paper, layout).map(({ q, opts }) => {
    const r = renderedQuestion(q, form);
    // members in the order that compresses best: each random id after the text it belongs to (see CandidateQuestion)
    return {
      type: q.type,
      prompt: q.prompt,
      promptHtml: r.promptHtml,
      marks: q.marks,
      section: q.section,
      minWords: q.minWords,
      maxWords: q.maxWords,
      id: q.id,
      options: opts.map((o, i) => ({ keyLabel: LABELS[i] ?? String(i + 1), text: o.text, html: r.optionHtml.get(o.id) ?? renderRich(o.text || '', true, form), id: o.id })),
    };
  });
}

/**
 * The paper's questions in the attempt's layout, each with its options in the shown order:
 * questions deleted since the attempt started are left out, questions added since are
 * appended in paper order (not to a sectioned layout: the candidate's selection is fixed
 * at start), and options added since follow the laid-out ones.
 */
export function shownOrder(paper: Paper, layout: Layout): { q: PaperQuestion; opts: PaperOption[] }[] {
  const out: { q: PaperQuestion; opts: PaperOption[] }[] = [];
  const seen = new Set<string>();
  const push = (q: PaperQuestion, optionIds: string[]) => {
    seen.add(q.id);
    const opts = optionIds.map((id) => q.optionsById.get(id)).filter((o): o is PaperOption => !!o);
    for (const o of q.options) if (!optionIds.includes(o.id)) opts.push(o);
    out.push({ q, opts });
  };
  for (const l of layout) {
    const q = paper.byId.get(l.questionId);
    if (q) push(q, l.optionIds);
  }
  if (!isSectioned(layout)) for (const q of paper.questions) if (!seen.has(q.id)) push(q, q.options.map((o) => o.id));
  return out;
}

const instructionsRendered: Record<MathForm, WeakMap<Paper, string | null>> = { html: new WeakMap(), mathml: new WeakMap() };

/**
 * The exam's instructions (issue 36) as the candidate's instructions screen shows them:
 * Markdown + LaTeX rendered and sanitised by the question renderer (renderRich), once per
 * paper and form (a new paper is built whenever the examiner changes the exam).
 * @returns sanitised HTML, or null when the exam has no instructions
 */
export function instructionsHtml(paper: Paper, form: MathForm = 'html'): string | null {
  const done = instructionsRendered[form];
  if (!done.has(paper)) done.set(paper, paper.exam.instructions ? renderRich(paper.exam.instructions, false, form) : null);
  return done.get(paper)!;
}
