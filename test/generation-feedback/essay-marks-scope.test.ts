/**
 * An examiner's essay approvals calibrate only their own question in their own workspace
 * (issue 39 §2 "Done when": "a second examiner's calibration is not polluted by the
 * first's (per workspace, per question)"). Workspace A's exam has two essay questions
 * answered by the same candidates; workspace B's exam has the very same question and
 * scripts as A's first. Approvals on A's first question calibrate it alone: A's second
 * question and B's copy get the recommendations they had before, uncalibrated.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, startAttempt, startTestServer, type TestServer } from '../harness.js';
import type { MarkedQuestion } from '../../scripts/essay-quality.js';
import { seedEssayHall, type EssayHall } from '../core/essay-seed.js';

const FIRST = 'waec-commerce-wholesaler-services.json';
const SECOND = 'waec-economics-functions-of-money.json';
const N = 6;
const load = (file: string) => JSON.parse(readFileSync(new URL(`../fixtures/quality/essay-marking-2/${file}`, import.meta.url), 'utf8')) as MarkedQuestion & { type: string };
const asInput = (q: ReturnType<typeof load>) => ({
  prompt: q.prompt,
  type: q.type,
  marks: q.marks,
  modelAnswer: q.modelAnswer,
  rubric: { name: 'Marking guide', totalMarks: q.marks, criteria: q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })) },
});

let s: TestServer;
let a: { ws: { id: string; apiKey: string }; examId: string; q1: string; q2: string; attempts: string[] };
let b: EssayHall;

beforeAll(async () => {
  s = await startTestServer();
  const first = load(FIRST);
  const second = load(SECOND);
  const ws = await registerWorkspace(s.baseUrl);
  const exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Commerce and economics' });
  const [q1, q2] = await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [asInput(first), asInput(second)]);
  const t1 = first.scripts.filter((x) => x.text.trim());
  const t2 = second.scripts.filter((x) => x.text.trim());
  const attempts: string[] = [];
  for (let i = 0; i < N; i++) {
    const at = await startAttempt(s.baseUrl, exam.accessCode, `SCOPE-${i + 1}`);
    const sub = await api(s.baseUrl).post(`/attempts/${at.attemptId}/submit`, { answers: [{ questionId: q1!.id, text: t1[i]!.text }, { questionId: q2!.id, text: t2[i]!.text }] });
    expect(sub.status).toBe(200);
    attempts.push(at.attemptId);
  }
  a = { ws, examId: exam.id, q1: q1!.id, q2: q2!.id, attempts };
  b = await seedEssayHall(s.baseUrl, N, FIRST);
});
afterAll(() => s.close());

const recs = async (apiKey: string, examId: string, questionId: string) => {
  const r = await api(s.baseUrl, apiKey).get(`/exams/${examId}/essay-review/${questionId}/recommendations`);
  expect(r.status).toBe(200);
  return r.body as { recommendations: { attemptId: string; totalScore: number; calibrated: boolean }[]; scripts: { awardedMarks: number | null }[] };
};

describe('essay approvals are kept per question and per workspace', () => {
  it("approving A's first question calibrates it alone: A's second question and B's identical question are untouched", async () => {
    const secondBefore = await recs(a.ws.apiKey, a.examId, a.q2);
    const otherBefore = await recs(b.ws.apiKey, b.exam.id, b.questionId);
    expect(secondBefore.recommendations.every((x) => !x.calibrated)).toBe(true);

    // The first examiner marks three scripts of A's first question at full marks (a scale no engine would reach alone).
    const k = api(s.baseUrl, a.ws.apiKey);
    for (const id of a.attempts.slice(0, 3)) expect((await k.post(`/attempts/${id}/essay-scores/${a.q1}`, { score: load(FIRST).marks })).status).toBe(200);

    const firstAfter = await recs(a.ws.apiKey, a.examId, a.q1);
    expect(firstAfter.recommendations).toHaveLength(N - 3);
    expect(firstAfter.recommendations.every((x) => x.calibrated)).toBe(true);

    const secondAfter = await recs(a.ws.apiKey, a.examId, a.q2);
    expect(secondAfter.scripts.every((x) => x.awardedMarks === null)).toBe(true);
    expect(secondAfter.recommendations).toEqual(secondBefore.recommendations);

    const otherAfter = await recs(b.ws.apiKey, b.exam.id, b.questionId);
    expect(otherAfter.scripts.every((x) => x.awardedMarks === null)).toBe(true);
    expect(otherAfter.recommendations).toEqual(otherBefore.recommendations);
  });

  it("another workspace cannot read or mark A's question: 404, as if it did not exist", async () => {
    const kb = api(s.baseUrl, b.ws.apiKey);
    expect((await kb.get(`/exams/${a.examId}/essay-review/${a.q1}/recommendations`)).status).toBe(404);
    expect((await kb.post(`/attempts/${a.attempts[4]}/essay-scores/${a.q1}`, { score: 1 })).status).toBe(404);
    expect((await recs(a.ws.apiKey, a.examId, a.q1)).scripts.filter((x) => x.awardedMarks !== null)).toHaveLength(3);
  });
});
