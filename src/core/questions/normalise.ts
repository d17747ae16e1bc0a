/**
 * One validated question input → the values both programs store (docs/design.md §6): option
 * keyLabels default to A, B, C…; option ids are kept when the caller says so (a PATCH
 * keeps candidates' saved answers valid) or made with `newOptionId`; essay word limits
 * default per type (spec Limits); objective questions carry no essay fields and essays no
 * options. The hall keeps these as columns, the hub inside its exam's JSON. Pure.
 */
import { ESSAY_WORD_DEFAULTS, type QuestionInput } from './schemas.js';

const LABELS = 'ABCDEFGHIJ';

export interface NormalisedQuestion {
  type: QuestionInput['type'];
  prompt: string;
  marks: number;
  options: { id: string; keyLabel: string; text: string; isCorrect: boolean }[];
  explanation: string | null;
  section: string | null;
  minWords: number | null;
  maxWords: number | null;
  modelAnswer: string | null;
  rubric: { name: string; totalMarks: number; criteria: { id: string; title: string; maxMarks: number; description: string }[] } | null;
  difficulty: string | null;
  citation: string | null;
}

/**
 * @param q a question that passed `questionInputSchema`
 * @param newOptionId makes an option id (e.g. `opt_…`); redrawn when it repeats one of the question's ids
 * @param keepOptionIds option ids of the stored question that an input option may keep
 */
export function normaliseQuestion(q: QuestionInput, newOptionId: () => string, keepOptionIds: ReadonlySet<string> = new Set()): NormalisedQuestion {
  const objective = q.type === 'MCQ' || q.type === 'TRUE_FALSE';
  // option ids are short (unique within their question only): a new one never repeats an id of this question
  const taken = new Set((q.options ?? []).map((o) => o.id).filter((id): id is string => !!id && keepOptionIds.has(id)));
  const fresh = () => {
    let id = newOptionId();
    while (taken.has(id)) id = newOptionId();
    taken.add(id);
    return id;
  };
  const options = objective
    ? (q.options ?? []).map((o, i) => ({ id: o.id && keepOptionIds.has(o.id) ? o.id : fresh(), keyLabel: o.keyLabel ?? LABELS[i]!, text: o.text, isCorrect: !!o.isCorrect }))
    : [];
  const words = objective ? null : ESSAY_WORD_DEFAULTS[q.type as 'SHORT_ESSAY' | 'LONG_ESSAY'];
  const rubric = q.rubric
    ? { name: q.rubric.name, totalMarks: q.rubric.totalMarks, criteria: q.rubric.criteria.map((c, i) => ({ id: c.id ?? `c${i + 1}`, title: c.title, maxMarks: c.maxMarks, description: c.description ?? '' })) }
    : null;
  return {
    type: q.type,
    prompt: q.prompt,
    marks: q.marks,
    options,
    explanation: q.explanation ?? null,
    section: q.section ?? null,
    minWords: objective ? null : (q.minWords ?? words!.min),
    maxWords: objective ? null : (q.maxWords ?? words!.max),
    modelAnswer: objective ? null : (q.modelAnswer ?? null),
    rubric: objective ? null : rubric,
    difficulty: q.difficulty ?? null,
    citation: q.citation ?? null,
  };
}
