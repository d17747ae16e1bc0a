/**
 * Question generation with an LLM (issue 7 §3): the most informative passages are sent
 * numbered, the model answers JSON in a fixed schema, and only questions whose answer is
 * supported by the passage they cite are kept (MCQ key, TRUE_FALSE statement, essay model
 * answer), with citations and ids assigned here. Any failure throws LlmFailure.
 */
import { z } from 'zod';
import { buildEssay } from '../../../core/generation/engine/essay-items.js';
import { joinCitations, mdEscape } from '../../../core/generation/engine/markdown.js';
import type { Passage } from '../../../core/generation/passage.js';
import type { GeneratedQuestion, GeneratedType, RequestedDifficulty } from '../../../core/generation/schemas.js';
import { hasDuplicateOrBannedOptions, supportedBy } from '../../../core/generation/support.js';
import { shortId } from '../../../core/generation/text/seed.js';
import type { JobRunner } from '../../../uploads/job-pool.js';
import { selectInChild } from '../engine-jobs.js';
import { chatJson, LlmFailure, type LlmSettings } from './client.js';
import { PASSAGE_BUDGET } from './select.js';

/** The JSON the model must return. */
export const LlmQuestionsSchema = z.object({
  questions: z.array(
    z.object({
      type: z.enum(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY']),
      difficulty: z.enum(['simple', 'intermediate', 'hard']),
      prompt: z.string().min(5).max(2000),
      passages: z.array(z.number().int()).min(1).max(4),
      options: z.array(z.string().max(300)).max(6),
      answerIndex: z.number().int(),
      answerText: z.string().max(2000),
      explanation: z.string().max(2000),
    }),
  ),
});
type LlmQuestion = z.infer<typeof LlmQuestionsSchema>['questions'][number];

const TIER_HELP = 'simple = recall of one fact from one passage; intermediate = application or the relation of two facts; hard = synthesis across passages; balanced = start simple and progress to hard.';

function messages(sent: Passage[], count: number, difficulty: RequestedDifficulty, types: GeneratedType[], subject?: string) {
  const numbered = sent.map((p, i) => `[${i + 1}] (${p.citation})\n${p.text}`).join('\n\n');
  return [
    {
      role: 'system' as const,
      content:
        'You write exam questions for teachers in West African schools. Use ONLY the numbered passages. ' +
        'For MCQ give 4 distinct options, exactly one correct, its text copied from the cited passage, distractors of the same kind from the material; never "all of the above". ' +
        'For TRUE_FALSE give options ["True","False"] and put in answerText the exact sentence of the passage that decides it. ' +
        'For SHORT_ESSAY give options [] and answerIndex -1 and put a model answer made of sentences from the passages in answerText. ' +
        'passages lists the numbers of the passages each question is grounded in. explanation quotes the passage.',
    },
    {
      role: 'user' as const,
      content: `Write ${count} questions of types ${types.join(', ')} at difficulty "${difficulty}" (${TIER_HELP})${subject ? ` for the subject "${subject}"` : ''}.\n\n${numbered}`,
    },
  ];
}

/** Turns one model question into a GeneratedQuestion, or null when it is unsupported or malformed. */
function accept(q: LlmQuestion, sent: Passage[], model: string): GeneratedQuestion | null {
  const cited = [...new Set(q.passages)].filter((n) => n >= 1 && n <= sent.length).map((n) => sent[n - 1]!);
  if (!cited.length) return null;
  const citation = joinCitations(cited.map((p) => p.citation));
  const id = shortId('q_', model, q.type, q.prompt, citation);
  if (q.type === 'SHORT_ESSAY') {
    if (!supportedBy(q.answerText, cited, 0.6)) return null;
    const sentences = q.answerText.split(/(?<=[.!?])\s+/).filter((s) => s.trim()).slice(0, 4);
    const essay = buildEssay({ term: '', sentences: sentences.map((text, idx) => ({ idx, passageIndex: 0, citation, text, stems: new Set<string>(), usable: true, reason: null, noise: false, score: 0 })), difficulty: q.difficulty }, 0);
    return { ...essay, id, prompt: q.prompt, explanation: q.explanation };
  }
  const options = q.type === 'TRUE_FALSE' ? ['True', 'False'] : q.options;
  if (options.length < 2 || q.answerIndex < 0 || q.answerIndex >= options.length) return null;
  if (q.type === 'TRUE_FALSE' && !supportedBy(q.answerText, cited)) return null;
  if (q.type === 'MCQ' && !supportedBy(options[q.answerIndex]!, cited)) return null;
  const out: GeneratedQuestion = {
    id,
    prompt: q.prompt,
    type: q.type,
    marks: 1,
    difficulty: q.difficulty,
    citation,
    explanation: q.explanation || `The material (${citation}) says: “${mdEscape(q.answerText)}”`,
    options: options.map((text, i) => ({ id: shortId('opt_', id, text), keyLabel: 'ABCDEF'[i]!, text: mdEscape(text), isCorrect: i === q.answerIndex })),
  };
  return hasDuplicateOrBannedOptions(out) ? null : out;
}

/**
 * Generates with the LLM; the passages it sees are chosen in a job process of `jobs`.
 * @returns kept questions and how many the model wrote.
 * @throws LlmFailure when the call fails or no question survives the checks.
 */
export async function generateWithLlm(jobs: JobRunner, settings: LlmSettings, passages: Passage[], count: number, difficulty: RequestedDifficulty, types: GeneratedType[], subject?: string) {
  const sent = await selectInChild(jobs, passages, PASSAGE_BUDGET);
  const answer = await chatJson(settings, messages(sent, count, difficulty, types, subject), 'generated_questions', LlmQuestionsSchema);
  const kept = answer.questions.map((q) => accept(q, sent, settings.model)).filter((q): q is GeneratedQuestion => q !== null && types.includes(q.type)).slice(0, count);
  if (!kept.length) throw new LlmFailure(`wrote ${answer.questions.length} question(s), none supported by the passage it cites`);
  return { questions: kept, written: answer.questions.length };
}
