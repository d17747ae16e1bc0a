/**
 * Builders for objective questions from facts (a source sentence plus the span that is
 * its answer). MCQ: the statement(s) with the span blanked; the correct option is the
 * span as written in the source, the others are distractors of the same kind.
 * TRUE_FALSE: the statement(s) as written (true) or with one span swapped for a
 * distractor (false). Explanations quote the source.
 */
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { shortId, shuffled } from '../text/seed.js';
import { blankOut, explainFrom, joinCitations, mdEscape } from './markdown.js';
import type { Falsehood } from './falsehood.js';
import type { SourceSentence } from './sentences.js';
import type { Span } from './spans.js';

/** A sentence and the span of it that a question asks about. */
export interface Fact {
  sentence: SourceSentence;
  span: Span;
}

const LABELS = 'ABCDEFGHIJ';

function options(qid: string, texts: { text: string; isCorrect: boolean }[]) {
  return texts.map((o, i) => ({ id: shortId('opt_', qid, o.text), keyLabel: LABELS[i]!, text: o.text, isCorrect: o.isCorrect }));
}

const STEMS: Record<QuestionDifficulty, (n: number) => string> = {
  simple: () => 'Which option completes this statement?',
  intermediate: () => 'The same word or phrase is missing from both statements below. Which option completes both?',
  hard: (n) => `The same word or phrase is missing from each of these ${n} statements. Which option completes all of them?`,
};

/**
 * MCQ over one or more facts that share the same answer.
 * `distractors` are already of the key's kind and distinct from it.
 */
export function buildMcq(facts: Fact[], difficulty: QuestionDifficulty, distractors: string[], rand: () => number, seed: number): GeneratedQuestion {
  const keyText = facts[0]!.span.text;
  const statements = facts.map((f) => blankOut(f.sentence.text, f.span.start, f.span.end));
  const body = statements.length === 1 ? statements[0]! : statements.map((s, i) => `${i + 1}. ${s}`).join('\n');
  const id = shortId('q_', seed, 'MCQ', difficulty, ...facts.map((f) => `${f.sentence.idx}:${f.span.start}`));
  const opts = shuffled([{ text: mdEscape(keyText), isCorrect: true }, ...distractors.map((d) => ({ text: mdEscape(d), isCorrect: false }))], rand);
  return {
    id,
    prompt: `${STEMS[difficulty](facts.length)}\n\n${body}`,
    type: 'MCQ',
    marks: 1,
    difficulty,
    citation: joinCitations(facts.map((f) => f.sentence.citation)),
    explanation: explainFrom(`The answer is “${mdEscape(keyText)}”.`, facts.map((f) => ({ citation: f.sentence.citation, text: f.sentence.text }))),
    options: options(id, opts),
  };
}

/**
 * TRUE_FALSE over one or more statements; when `falsehood` is given, that range of the first
 * fact's sentence is replaced (falsehood.ts: an antonym or a sibling of the key) and the
 * item's answer is False.
 */
export function buildTrueFalse(facts: Fact[], difficulty: QuestionDifficulty, falsehood: Falsehood | null, seed: number): GeneratedQuestion {
  const shown = facts.map((f, i) =>
    i === 0 && falsehood !== null ? f.sentence.text.slice(0, falsehood.start) + falsehood.replacement + f.sentence.text.slice(falsehood.end) : f.sentence.text,
  );
  const isTrue = falsehood === null;
  const id = shortId('q_', seed, 'TF', difficulty, isTrue ? 'T' : 'F', ...facts.map((f) => `${f.sentence.idx}:${f.span.start}`));
  const prompt =
    shown.length === 1
      ? `True or false? ${mdEscape(shown[0]!)}`
      : `True or false? ${shown.length === 2 ? 'Both' : `All ${shown.length}`} of these statements are correct.\n\n${shown.map((s, i) => `${i + 1}. ${mdEscape(s)}`).join('\n')}`;
  const lead = isTrue
    ? 'True.'
    : `False: the material says “${mdEscape(falsehood.original)}”, not “${mdEscape(falsehood.replacement)}”.`;
  return {
    id,
    prompt,
    type: 'TRUE_FALSE',
    marks: 1,
    difficulty,
    citation: joinCitations(facts.map((f) => f.sentence.citation)),
    explanation: explainFrom(lead, facts.map((f) => ({ citation: f.sentence.citation, text: f.sentence.text }))),
    options: options(id, [
      { text: 'True', isCorrect: isTrue },
      { text: 'False', isCorrect: !isTrue },
    ]),
  };
}
