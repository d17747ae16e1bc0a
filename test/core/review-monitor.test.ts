import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startReceiver, startTestServer, waitFor, type TestServer } from '../harness.js';
import { openEventStream } from '../sse.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ jobs: true });
});
afterAll(() => s.close());

describe('essay review', () => {
  it('queues essays, approves per-criterion scores, re-grades and sends exam.attempt.regraded', async () => {
    const receiver = await startReceiver();
    try {
      const ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
      const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
      const rubric = { name: 'WAEC', totalMarks: 6, criteria: [{ id: 'content', title: 'Content', maxMarks: 4 }, { id: 'expr', title: 'Expression', maxMarks: 2 }] };
      await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...sampleMcqs(2), { prompt: 'Explain osmosis.', type: 'SHORT_ESSAY', marks: 6, modelAnswer: 'Water moves across a semi-permeable membrane.', rubric }]);
      const a = await startAttempt(s.baseUrl, e.accessCode, 'ESS-1');
      const essay = a.questions.find((q) => q.type === 'SHORT_ESSAY')!;
      const mcqs = a.questions.filter((q) => q.type === 'MCQ');
      const sub = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`, {
        answers: [...mcqs.map((q) => ({ questionId: q.id, optionId: q.options[0]!.id })), { questionId: essay.id, text: 'Osmosis is water moving through a membrane from dilute to concentrated.' }],
      });
      expect(sub.body).toMatchObject({ score: 2, maxScore: 8, percentage: 25, grade: 'F9', pendingReview: true });
      const k = api(s.baseUrl, ws.apiKey);
      const queue = await k.get(`/exams/${e.id}/essay-reviews`);
      expect(queue.body).toHaveLength(1);
      expect(queue.body[0]).toMatchObject({ attemptId: a.attemptId, questionId: essay.id, marks: 6, wordCount: 11, review: null });
      expect((await k.post(`/attempts/${a.attemptId}/essay-scores/${essay.id}`, { criteriaScores: [{ criterionId: 'content', score: 5 }] })).status).toBe(400);
      const ok = await k.post(`/attempts/${a.attemptId}/essay-scores/${essay.id}`, { criteriaScores: [{ criterionId: 'content', score: 3.5 }, { criterionId: 'expr', score: 1.5 }], feedback: 'Good definition', reason: 'reviewed' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ awardedMarks: 5, score: 7, maxScore: 8, percentage: 87.5, grade: 'A1', pendingReview: false });
      expect((await k.get(`/exams/${e.id}/essay-reviews`)).body).toHaveLength(0);
      expect((await k.get(`/exams/${e.id}/essay-reviews?status=reviewed`)).body[0].review.awardedMarks).toBe(5);
      await waitFor(() => receiver.received.some((r) => JSON.parse(r.body).type === 'exam.attempt.regraded'));
      const regraded = receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.type === 'exam.attempt.regraded');
      expect(regraded.data).toMatchObject({ attemptId: a.attemptId, score: 7, grade: 'A1', pendingReview: false });
      expect((await k.get('/workspaces/me/audit')).body[0]).toMatchObject({ action: 'essay.approve', targetId: a.attemptId });
    } finally {
      await receiver.close();
    }
  });
});

describe('live hall monitor', () => {
  it('streams snapshots over server-sent events and alerts on disqualification', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { maxTabViolations: 0 });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
    const stream = await openEventStream(`${s.baseUrl}/exams/${e.id}/monitor/stream`, { 'x-api-key': ws.apiKey });
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    const events = stream.events;
    const a = await startAttempt(s.baseUrl, e.accessCode, 'MON-1', '1234', 'Monitored Candidate');
    const q = a.questions[0]!;
    await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id });
    // the save reaches the monitor in the next `delta` (the rows that changed; a `snapshot` only on connect)
    await waitFor(() => events.some((x) => (x.event === 'snapshot' || x.event === 'delta') && x.data.attempts.some((t: { attemptId: string; answered: number }) => t.attemptId === a.attemptId && t.answered === 1)), 4000);
    await api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH' });
    await waitFor(() => events.some((x) => x.event === 'alert' && x.data.kind === 'disqualified' && x.data.attemptId === a.attemptId), 4000);
    await stream.close();
    const other = await registerWorkspace(s.baseUrl);
    expect((await fetch(`${s.baseUrl}/exams/${e.id}/monitor/stream`, { headers: { 'x-api-key': other.apiKey } })).status).toBe(404);
  });
});
