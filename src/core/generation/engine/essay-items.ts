/**
 * SHORT_ESSAY items from the material: a prompt about a key term, a model answer made of
 * the source sentences about it, and a rubric with one criterion per idea of the model
 * answer plus one for clarity, whose maxMarks (in half marks) sum to the question's marks.
 */
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { contentStems } from '../text/nlp.js';
import { singularKind, type ListPoint } from './essay-lists.js';
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
  /** The article the material put before the defined term ("a", "an", "the"; null for none): "Define a layer …". */
  article?: string | null;
  /** Further points about the term the model answer does not use: the rubric accepts them too. */
  alternatives?: SourceSentence[];
  /** The model answer's second sentence lists things of a named kind: the prompt asks for `ask` of them. */
  list?: ListPoint & { ask: number };
}

/**
 * Half marks for a defined-term essay: every further point the same mark (a marking scheme's
 * "any two, 1½ marks each"), the definition the rest of the content marks.
 */
export function definedMarks(contentMarks: number, further: number): { definition: number; perPoint: number } {
  const perPoint = Math.floor((contentMarks * 2) / (further + 1)) / 2;
  return { definition: contentMarks - perPoint * further, perPoint };
}

/** "1½" for 1.5, "2" for 2: marks as a marking scheme writes them. */
function marksText(x: number): string {
  return `${Math.floor(x) || ''}${x % 1 ? '½' : ''}` || '0';
}

/**
 * The rubric of a defined-term essay, written as a marking scheme is (docs/decisions.md,
 * "A generated essay's rubric accepts any correct point"): the definition; then "Any N of: …;
 * accept any other correct point about X (P marks each)" listing the points of the model
 * answer and the others the material makes about X; then clarity. The further points'
 * criterion reads back through the essay marker's guidance (count, per point, the list).
 */
function definedCriteria(plan: EssayPlan, t: string, contentMarks: number) {
  const [def, ...further] = plan.sentences;
  const { definition, perPoint } = definedMarks(contentMarks, further.length);
  const listed = [...further, ...(plan.alternatives ?? [])];
  const count = ['no', 'one', 'two', 'three', 'four'][further.length] ?? String(further.length);
  // (no citations in the list: the explanation has them, and a marker reads every word of a point as its content)
  const points = listed.map((s) => s.text.replace(/[.;]+$/, '')).join('; ');
  const subject = plan.article ? `${plan.article} ${t}` : t;
  return [
    { id: 'c1', title: `Definition of ${t}`, maxMarks: definition, description: `Defines ${t} as the material does (${def!.citation}): “${def!.text}”` },
    {
      id: 'c2',
      title: `Other points about ${t}`,
      maxMarks: perPoint * further.length,
      description: `Any ${count} of: ${points}. Accept any other correct point about ${subject} (${marksText(perPoint)} mark${perPoint === 1 ? '' : 's'}${further.length > 1 ? ' each' : ''}).`,
    },
  ];
}

/**
 * The criteria of a defined-term essay that asks for `list.ask` things of a named kind: the
 * definition (the marks the list leaves), then "Any two of: a; b; c. Accept any other correct
 * problem of X (1 mark each)" — a marking scheme's way, which the essay marker reads back
 * (docs/decisions.md, "A generated essay names what it asks for").
 */
function listCriteria(plan: EssayPlan & { list: NonNullable<EssayPlan['list']> }, t: string, subject: string, contentMarks: number) {
  const { kind, items, place, ask } = plan.list;
  const def = plan.sentences[0]!;
  const of = `of ${subject}${place}`;
  return [
    { id: 'c1', title: `Definition of ${t}`, maxMarks: contentMarks - ask, description: `Defines ${t} as the material does (${def.citation}): “${def.text}”` },
    {
      id: 'c2',
      title: `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${of}`,
      maxMarks: ask,
      description: `Any ${NUMBER_WORDS[ask] ?? ask} of: ${items.join('; ')}. Accept any other correct ${singularKind(kind)} ${of} (1 mark each).`,
    },
  ];
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four'];

/** A sentence that gives an example ("E.g. the habitat of the earthworm is moist soil.", "For example, …"). */
const EXAMPLE_OPENER = /^(?:e\.\s?g\.|for\s+example\b|for\s+instance\b|an?\s+(?:good\s+|common\s+)?example\s+of\b)/i;

/**
 * The criteria of a defined-term essay whose one further point is an example: the prompt asks
 * for an example, and the rubric accepts any correct one (issue 39 §2, round 20: "explain one
 * other important point" beside an "E.g." sentence; the judge asked for "give one example").
 */
function exampleCriteria(plan: EssayPlan, t: string, subject: string, contentMarks: number) {
  const [def, example] = plan.sentences;
  const { definition, perPoint } = definedMarks(contentMarks, 1);
  return [
    { id: 'c1', title: `Definition of ${t}`, maxMarks: definition, description: `Defines ${t} as the material does (${def!.citation}): “${def!.text}”` },
    {
      id: 'c2',
      title: `An example of ${subject}`,
      maxMarks: perPoint,
      // (as definedCriteria writes its points: "Any one of: …", which the essay marker reads back; no citation in the list)
      description: `Any one of: ${example!.text.replace(EXAMPLE_OPENER, '').replace(/^[\s,:]+/, '').replace(/[.;]+$/, '')}. Accept any other correct example of ${subject} (${marksText(perPoint)} mark${perPoint === 1 ? '' : 's'}).`,
    },
  ];
}

/** Builds the essay question for a plan. */
export function buildEssay(plan: EssayPlan, seed: number): GeneratedQuestion {
  const { term, sentences, difficulty } = plan;
  const marks = ESSAY_MARKS[difficulty];
  const t = mdEscape(term);
  const span = `Write ${SHORT_ESSAY_WORDS.min}–${SHORT_ESSAY_WORDS.max} words.`;
  const further = sentences.length - 1;
  const count = ['no', 'one', 'two', 'three', 'four'][further] ?? String(further);
  const subject = plan.article ? `${plan.article} ${t}` : t;
  // (The candidate never has the material: a prompt never points at it. The other forms serve the LLM path, which
  // replaces the prompt with its own.)
  const example = plan.defined && !plan.list && further === 1 && EXAMPLE_OPENER.test(sentences[1]!.text);
  const prompt = example
    ? `Define ${subject} and give one example of ${subject}. ${span}`
    : plan.list
    ? `Define ${subject} and state ${NUMBER_WORDS[plan.list.ask]} ${plan.list.kind} of ${subject}${plan.list.place}. ${span}`
    : plan.defined
    ? `Define ${subject} and explain ${count} other important point${further === 1 ? '' : 's'} about ${subject}. ${span}`
    : plan.relatedTerm
      ? `Explain the relationship between ${t} and ${mdEscape(plan.relatedTerm)}. ${span}`
      : `Discuss ${t}. ${span}`;
  const id = shortId('q_', seed, 'ESSAY', difficulty, term, ...sentences.map((s) => s.idx));
  const contentMarks = splitMarks(marks - 1, sentences.length);
  const criteria = example
    ? exampleCriteria(plan, t, subject, marks - 1)
    : plan.list
    ? listCriteria({ ...plan, list: plan.list }, t, subject, marks - 1)
    : plan.defined && further > 0
      ? definedCriteria(plan, t, marks - 1)
      : sentences.map((s, i) => ({
          id: `c${i + 1}`,
          title: `Idea ${i + 1}: ${ideaLabel(s.text)}`,
          maxMarks: contentMarks[i]!,
          description: `Conveys the point made in the material (${s.citation}): “${s.text}”`,
        }));
  criteria.push({ id: `c${criteria.length + 1}`, title: 'Clarity and organisation', maxMarks: 1, description: 'Answers in clear, connected sentences within the word limit, staying on the question.' });
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
