/**
 * A hall with one essay question and its submitted scripts, for the calibrated essay
 * review tests (API and admin page): the question, its rubric and its scripts are a
 * human-marked question of test/fixtures/quality/essay-marking-2 (never essay-marking-4,
 * the hold-out), so each script's `human` mark is a real examiner's.
 */
import { readFileSync } from 'node:fs';
import { addQuestions, api, createExam, registerWorkspace, startAttempt } from '../harness.js';
import type { MarkedQuestion } from '../../scripts/essay-quality.js';

/** The seeded hall: the workspace, the exam, its essay question's id and each script's attempt with the examiner's mark. */
export interface EssayHall {
  ws: { id: string; apiKey: string };
  exam: { id: string; accessCode: string };
  questionId: string;
  question: MarkedQuestion;
  scripts: { attemptId: string; candidateName: string; text: string; human: number }[];
}

/**
 * Seeds a workspace with an exam of one essay question (`file` of essay-marking-2) and
 * `n` candidates who each answer it with one of the question's scripts and submit.
 */
export async function seedEssayHall(baseUrl: string, n = 10, file = 'waec-commerce-wholesaler-services.json'): Promise<EssayHall> {
  const question = JSON.parse(readFileSync(new URL(`../fixtures/quality/essay-marking-2/${file}`, import.meta.url), 'utf8')) as MarkedQuestion;
  const ws = await registerWorkspace(baseUrl);
  const exam = await createExam(baseUrl, ws.apiKey, ws.id, { title: question.subject });
  const [q] = await addQuestions(baseUrl, ws.apiKey, ws.id, exam.id, [{
    prompt: question.prompt,
    type: (question as unknown as { type: string }).type,
    marks: question.marks,
    modelAnswer: question.modelAnswer,
    rubric: { name: 'Marking guide', totalMarks: question.marks, criteria: question.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })) },
  }]);
  const scripts: EssayHall['scripts'] = [];
  for (const [i, s] of question.scripts.filter((x) => x.text.trim()).slice(0, n).entries()) {
    const candidateName = `Candidate ${String(i + 1).padStart(2, '0')}`;
    const a = await startAttempt(baseUrl, exam.accessCode, `ESSAY-${i + 1}`, '1234', candidateName);
    const sub = await api(baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers: [{ questionId: q!.id, text: s.text }] });
    if (sub.status !== 200) throw new Error(`submit failed: ${sub.status} ${JSON.stringify(sub.body)}`);
    scripts.push({ attemptId: a.attemptId, candidateName, text: s.text, human: s.examinerScore });
  }
  return { ws, exam, questionId: q!.id, question, scripts };
}
