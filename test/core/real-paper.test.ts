/**
 * Real input: the 50-question WAEC Mathematics 2023 paper (../shared/fixtures/real),
 * ingested through POST /questions/bulk, taken by 30 candidates with known answer sheets
 * (shuffled questions and options), every score and grade checked.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, api, createExam, parsePastPaper, registerWorkspace, startAttempt, startTestServer, type TestServer } from '../harness.js';
import { gradeFor } from '../../src/core/grading/scale.js';
import { describeReal } from '../real-papers.js';
// Fresh clone without ../shared: describeReal (test/real-papers.ts: existsSync of each paper)
// reports this block as skipped under a name saying why, and test/global-setup.ts prints one line.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describeReal('WAEC Mathematics 2023, 30 candidates', () => {
  it('scores every candidate exactly', async () => {
    const paper = parsePastPaper(readFileSync(join(FIXTURES, 'WAEC_Mathematics_2023.md'), 'utf8'));
    expect(paper).toHaveLength(50);
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'WAEC Mathematics 2023', durationMins: 90, shuffleQuestions: true, shuffleChoices: true });
    const bulk = await api(s.baseUrl, ws.apiKey).post('/questions/bulk', { workspaceId: ws.id, examId: e.id, questions: paper.map(({ answer: _a, ...q }) => q) });
    expect(bulk.status).toBe(201);
    expect(bulk.body.created).toBe(50);
    // the correct option text of each stored question (by prompt: unique in this paper)
    const keyText = new Map<string, string>(bulk.body.questions.map((q: { id: string; options: { text: string; isCorrect: boolean }[] }) => [q.id, q.options.find((o) => o.isCorrect)!.text]));

    // numbers correct per candidate: every grade band and its edges
    const correctCounts = [50, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 15, 10, 5, 1, 0, 44, 40, 42, 49];
    const results = await Promise.all(
      correctCounts.map(async (k, i) => {
        const a = await startAttempt(s.baseUrl, e.accessCode, `WAEC-${String(i).padStart(3, '0')}`, String(1000 + i));
        // answer the first k shown questions right, the rest wrong (some left blank)
        const answers = a.questions.flatMap((q, j) => {
          const right = q.options.find((o) => o.text === keyText.get(q.id))!;
          const wrong = q.options.find((o) => o.text !== keyText.get(q.id))!;
          if (j < k) return [{ questionId: q.id, optionId: right.id }];
          return j % 3 === 0 ? [] : [{ questionId: q.id, optionId: wrong.id }];
        });
        // save in two batches as a page would, then submit
        const half = Math.ceil(answers.length / 2);
        await api(s.baseUrl).post(`/attempts/${a.attemptId}/answers`, { answers: answers.slice(0, half) });
        await api(s.baseUrl).post(`/attempts/${a.attemptId}/answers`, { answers: answers.slice(half) });
        const r = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`);
        return { k, r };
      }),
    );
    for (const { k, r } of results) {
      const pct = Math.round((k / 50) * 100 * 100) / 100;
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ score: k, maxScore: 50, percentage: pct, grade: gradeFor(pct), status: 'COMPLETED' });
    }
    const grades = new Set(results.map((x) => x.r.body.grade));
    expect([...grades].sort()).toEqual(['A1', 'B2', 'B3', 'C4', 'C5', 'C6', 'D7', 'E8', 'F9']);
    const list = await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/attempts`);
    expect(list.body).toHaveLength(30);
    expect(list.body.every((x: { status: string }) => x.status === 'COMPLETED')).toBe(true);
  });
});
