/**
 * SHORT_ESSAY items from the material: a prompt about a key term, a model answer made of
 * the source sentences about it, and a rubric with one criterion per idea of the model
 * answer plus one for clarity, whose maxMarks (in half marks) sum to the question's marks.
 */
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { contentStems } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';
import { shortId } from '../text/seed.js';
import { explainFrom, joinCitations, mdEscape } from './markdown.js';
import { rejectReason, SPOKEN_NUMBERING, type SourceSentence } from './sentences.js';

/** Marks per tier: more ideas to synthesise, more marks. */
export const ESSAY_MARKS: Record<QuestionDifficulty, number> = { simple: 4, intermediate: 6, hard: 8 };
/** SHORT_ESSAY length bounds (docs/api-overview.md, "Limits": 20 to 100 words). */
export const SHORT_ESSAY_WORDS = { min: 20, max: 100 } as const;

/** Splits `total` marks into `k` parts in half marks, the remainder going to the first parts. */
export function splitMarks(total: number, k: number): number[] {
  const halves = Math.round(total * 2);
  const base = Math.floor(halves / k);
  return Array.from({ length: k }, (_, i) => (base + (i < halves - base * k ? 1 : 0)) / 2);
}

/** A short label for an idea: its first words, up to ~9, with an ellipsis when cut. */
export function ideaLabel(sentence: string): string {
  const w = sentence.replace(/[.!]$/, '').split(/\s+/);
  return w.length <= 9 ? w.join(' ') : `${w.slice(0, 9).join(' ')}…`;
}

/** Fewest words of a model answer's sentence: shorter ones are captions or list fragments, not explanation. */
export const ESSAY_SENTENCE_MIN_WORDS = 7;

/**
 * True when `sentence` can be a sentence of an essay's model answer: a clause of at least
 * ESSAY_SENTENCE_MIN_WORDS words that opens with no list numbering ("Two, …", "Number two, …")
 * and has a verb (issue 39 §2, round 4 item 33: a model answer of caption fragments is no answer).
 */
export function isEssayClause(sentence: string): boolean {
  const w = sentence.split(/\s+/).filter(Boolean);
  if (w.length < ESSAY_SENTENCE_MIN_WORDS || SPOKEN_NUMBERING.test(sentence)) return false;
  return rejectReason(sentence, true) === null && !isReducedRelative(sentence);
}

/**
 * A noun phrase and a past participle with no auxiliary, the participle followed by a
 * preposition ("Government conducted according to the provisions of the constitution.",
 * "Acts passed by the legislature."): a slide's caption, not a sentence of an answer (issue 39
 * §2, round 5 item 7).
 */
export function isReducedRelative(sentence: string): boolean {
  const tags = tagSentence(sentence);
  const i = tags.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (i <= 0) return false;
  const t = tags[i]!;
  return t.pos === 'VERB' && /ed$/i.test(t.text) && /^(?:NOUN|PROPN)$/.test(tags[i - 1]!.pos) && (tags[i + 1]?.pos === 'ADP' || /^according$/i.test(tags[i + 1]?.text ?? ''));
}

/**
 * True when `sentence` makes a point of its own beside `chosen` (the essay's other ideas): at most
 * half of its content words, the essay's `term` set aside, are already in any one of them. Ideas
 * pasted from overlapping sentences ("Constitutionalism means government conducted under the
 * constitution" beside "Government conducted according to the constitution") mark one point
 * twice (issue 39 §2, round 5 item 7).
 */
export function isDistinctPoint(sentence: string, chosen: readonly string[], term: string): boolean {
  const skip = new Set(contentStems(term));
  const own = new Set(contentStems(sentence).filter((x) => !skip.has(x)));
  if (!own.size) return false;
  return chosen.every((c) => {
    const other = new Set(contentStems(c).filter((x) => !skip.has(x)));
    const shared = [...own].filter((x) => other.has(x)).length;
    return shared * 2 < Math.min(own.size, other.size || own.size);
  });
}

/** What the essay asks: `term` and, for the intermediate tier, a related term. */
export interface EssayPlan {
  term: string;
  relatedTerm?: string;
  sentences: SourceSentence[];
  difficulty: QuestionDifficulty;
  /** True when the first sentence defines `term` and the others say more about it: the prompt asks for both. */
  defined?: boolean;
}

/** Builds the essay question for a plan. */
export function buildEssay(plan: EssayPlan, seed: number): GeneratedQuestion {
  const { term, sentences, difficulty } = plan;
  const marks = ESSAY_MARKS[difficulty];
  const t = mdEscape(term);
  const span = `Write ${SHORT_ESSAY_WORDS.min}–${SHORT_ESSAY_WORDS.max} words.`;
  const further = sentences.length - 1;
  const count = ['no', 'one', 'two', 'three', 'four'][further] ?? String(further);
  const prompt = plan.defined
    ? `Define ${t} and explain ${count} other important point${further === 1 ? '' : 's'} about ${t}${difficulty === 'hard' ? ', showing how they are connected' : ''}. ${span}`
    : difficulty === 'simple'
      ? `Explain what the material says about ${t}. ${span}`
      : difficulty === 'intermediate' && plan.relatedTerm
        ? `Explain the relationship between ${t} and ${mdEscape(plan.relatedTerm)}, as presented in the material. ${span}`
        : `Drawing on different parts of the material, discuss ${t}. ${span}`;
  const id = shortId('q_', seed, 'ESSAY', difficulty, term, ...sentences.map((s) => s.idx));
  const contentMarks = splitMarks(marks - 1, sentences.length);
  const criteria = sentences.map((s, i) => ({
    id: `c${i + 1}`,
    title: `Idea ${i + 1}: ${ideaLabel(s.text)}`,
    maxMarks: contentMarks[i]!,
    description: `Conveys the point made in the material (${s.citation}): “${s.text}”`,
  }));
  criteria.push({ id: `c${sentences.length + 1}`, title: 'Clarity and organisation', maxMarks: 1, description: 'Answers in clear, connected sentences within the word limit, staying on the question.' });
  return {
    id,
    prompt,
    type: 'SHORT_ESSAY',
    marks,
    difficulty,
    citation: joinCitations(sentences.map((s) => s.citation)),
    explanation: explainFrom('A full answer makes these points from the material.', sentences.map((s) => ({ citation: s.citation, text: s.text }))),
    options: [],
    minWords: SHORT_ESSAY_WORDS.min,
    maxWords: SHORT_ESSAY_WORDS.max,
    modelAnswer: sentences.map((s) => s.text).join(' '),
    rubric: { name: 'Key ideas from the material', totalMarks: marks, criteria },
  };
}
