/**
 * How much text and maths one question and one exam's paper may hold (issue #34 §3: a
 * self-made exam of 150 questions × 20,000 characters of `$x$` took 64 s of rendering and
 * returned 192 MB per start). The limits bound what a candidate's start costs: the paper's
 * rendered HTML grows with its text (×1–3: Markdown) and much faster with its maths (KaTeX's
 * HTML: ~95 bytes per character of TeX on a maths paper, up to ~155 for `\sqrt`, plus
 * ~260 bytes per `$…$` span). Chosen from the real papers with a wide margin
 * (docs/decisions.md, "Paper size limits"). Pure.
 */

/** Characters of one question's prompt: a comprehension passage of ~1,600 words fits (the largest real prompt: 677). */
export const MAX_PROMPT_CHARS = 10_000;
/** Characters of one option's text (the largest real option: 65). */
export const MAX_OPTION_CHARS = 1_000;
/** Characters of an explanation (never sent to candidates; the largest real one: 771). */
export const MAX_EXPLANATION_CHARS = 10_000;
/** Characters of a model answer (never sent to candidates; the largest real one: 3,094). */
export const MAX_MODEL_ANSWER_CHARS = 10_000;
/** Characters of a rubric's titles and descriptions together (the largest real rubric: 3,353 as JSON). */
export const MAX_RUBRIC_CHARS = 10_000;
/** `$…$` / `$$…$$` spans in one question's prompt and options (the maths paper's largest: 7). */
export const MAX_QUESTION_MATHS_SPANS = 150;
/** Characters of TeX inside those spans, per question (the maths paper's largest: 71). */
export const MAX_QUESTION_MATHS_CHARS = 2_000;

/** Questions in one exam (real papers: 40–60; the hub's and one import's existing limit). */
export const MAX_PAPER_QUESTIONS = 2_000;
/** Characters of prompts and option texts in one exam: what candidates receive (the largest real paper: 6,628). */
export const MAX_PAPER_TEXT_CHARS = 100_000;
/** `$…$` spans in one exam (the 60-question maths paper: 318). */
export const MAX_PAPER_MATHS_SPANS = 1_500;
/** Characters of TeX in one exam (the 60-question maths paper: 2,277). */
export const MAX_PAPER_MATHS_CHARS = 10_000;
/** Characters of everything authored in one exam (with explanations, model answers, rubrics): what the hall holds per cached paper. */
export const MAX_PAPER_AUTHORED_CHARS = 1_000_000;

/** The maths of the renderer (src/core/rich-text.ts MATH): `$$…$$` display or `$…$` inline. */
const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

/** The `$…$` spans of a text and the characters of TeX inside them. */
export function mathsIn(text: string | null | undefined): { spans: number; chars: number } {
  let spans = 0;
  let chars = 0;
  if (text) for (const m of text.matchAll(MATH)) {
    spans++;
    chars += (m[1] ?? m[2] ?? '').length;
  }
  return { spans, chars };
}

/** The parts of a question the sizes are measured on (input or stored shape). */
export interface SizedQuestion {
  prompt: string;
  options?: { text: string }[] | null;
  explanation?: string | null;
  modelAnswer?: string | null;
  rubric?: { name: string; criteria: { title: string; description?: string }[] } | null;
}

/** One question's share of a paper: candidate text, maths spans and TeX characters, and all authored characters. */
export interface QuestionSize {
  text: number;
  spans: number;
  mathsChars: number;
  authored: number;
}

/** Characters of a rubric's name, titles and descriptions. */
export function rubricChars(r: SizedQuestion['rubric']): number {
  return r ? r.name.length + r.criteria.reduce((s, c) => s + c.title.length + (c.description ?? '').length, 0) : 0;
}

/** Measures a question (see QuestionSize). */
export function questionSize(q: SizedQuestion): QuestionSize {
  const parts = [q.prompt, ...(q.options ?? []).map((o) => o.text)];
  let text = 0;
  let spans = 0;
  let mathsChars = 0;
  for (const p of parts) {
    text += p.length;
    const m = mathsIn(p);
    spans += m.spans;
    mathsChars += m.chars;
  }
  const authored = text + (q.explanation?.length ?? 0) + (q.modelAnswer?.length ?? 0) + rubricChars(q.rubric);
  return { text, spans, mathsChars, authored };
}

/** The sum of question sizes. */
export function addSizes(a: QuestionSize, b: QuestionSize): QuestionSize {
  return { text: a.text + b.text, spans: a.spans + b.spans, mathsChars: a.mathsChars + b.mathsChars, authored: a.authored + b.authored };
}

export const NO_SIZE: QuestionSize = { text: 0, spans: 0, mathsChars: 0, authored: 0 };

const n = (x: number) => x.toLocaleString('en-GB');

/**
 * What is over a paper limit for a paper of `count` questions and `total` size, or null.
 * @returns a sentence naming the limit and the figure, for a 400's `errors[].message`
 */
export function paperLimitProblem(count: number, total: QuestionSize): string | null {
  if (count > MAX_PAPER_QUESTIONS) return `The exam would have ${n(count)} questions; at most ${n(MAX_PAPER_QUESTIONS)} per exam.`;
  if (total.text > MAX_PAPER_TEXT_CHARS) return `The exam's prompts and options would hold ${n(total.text)} characters; at most ${n(MAX_PAPER_TEXT_CHARS)} per exam.`;
  if (total.spans > MAX_PAPER_MATHS_SPANS) return `The exam would hold ${n(total.spans)} maths spans ($…$); at most ${n(MAX_PAPER_MATHS_SPANS)} per exam.`;
  if (total.mathsChars > MAX_PAPER_MATHS_CHARS) return `The exam's maths would hold ${n(total.mathsChars)} characters of TeX; at most ${n(MAX_PAPER_MATHS_CHARS)} per exam.`;
  if (total.authored > MAX_PAPER_AUTHORED_CHARS) return `The exam's questions (with explanations, model answers and rubrics) would hold ${n(total.authored)} characters; at most ${n(MAX_PAPER_AUTHORED_CHARS)} per exam.`;
  return null;
}

/** What is over a per-question maths limit, or null. */
export function questionMathsProblem(size: QuestionSize): string | null {
  if (size.spans > MAX_QUESTION_MATHS_SPANS) return `The prompt and options hold ${n(size.spans)} maths spans ($…$); at most ${n(MAX_QUESTION_MATHS_SPANS)} per question.`;
  if (size.mathsChars > MAX_QUESTION_MATHS_CHARS) return `The prompt and options hold ${n(size.mathsChars)} characters of TeX; at most ${n(MAX_QUESTION_MATHS_CHARS)} per question.`;
  return null;
}

/**
 * Adds `incoming` questions one by one to a paper of `count` questions and `total` size.
 * @returns the first incoming question (its index in `incoming`) with which a paper limit
 *   is crossed, and why; null when all of them fit
 */
export function firstOverPaperLimit(count: number, total: QuestionSize, incoming: QuestionSize[]): { index: number; message: string } | null {
  let sum = total;
  for (let i = 0; i < incoming.length; i++) {
    sum = addSizes(sum, incoming[i]!);
    const problem = paperLimitProblem(count + i + 1, sum);
    if (problem) return { index: i, message: problem };
  }
  return null;
}

/**
 * Every per-question limit on an already shaped question (a paper released from a hub,
 * which the hall's input schema never saw): the field lengths and the maths.
 * @returns `{path, message}` of the first limit crossed, or null
 */
export function questionLimitProblem(q: SizedQuestion): { path: string; message: string } | null {
  const fields: [string, string | null | undefined, number][] = [
    ['prompt', q.prompt, MAX_PROMPT_CHARS],
    ...(q.options ?? []).map((o, i): [string, string, number] => [`options.${i}.text`, o.text, MAX_OPTION_CHARS]),
    ['explanation', q.explanation, MAX_EXPLANATION_CHARS],
    ['modelAnswer', q.modelAnswer, MAX_MODEL_ANSWER_CHARS],
  ];
  for (const [path, text, max] of fields) if (text && text.length > max) return { path, message: `${n(text.length)} characters; at most ${n(max)}.` };
  if (rubricChars(q.rubric) > MAX_RUBRIC_CHARS) return { path: 'rubric', message: `${n(rubricChars(q.rubric))} characters of rubric text; at most ${n(MAX_RUBRIC_CHARS)}.` };
  const maths = questionMathsProblem(questionSize(q));
  return maths ? { path: 'prompt', message: maths } : null;
}
