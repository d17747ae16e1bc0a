/**
 * One essay question's calibrated review on a real hall (issue 39 §1): the scripts of
 * every submitted attempt go to the calibrated engine with the marks the examiner has
 * approved; markFirst before any approval, calibrated recommendations once three are
 * approved, a group approval that re-grades and audits every attempt (and stores none when
 * one is bad), and nothing of another workspace's exam. Scripts: test/core/essay-seed.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { seedEssayHall, type EssayHall } from './essay-seed.js';

let s: TestServer;
let hall: EssayHall;
const url = (what: 'recommendations' | 'approve', h = hall) => `/exams/${h.exam.id}/essay-review/${h.questionId}/${what}`;

beforeAll(async () => {
  s = await startTestServer();
  hall = await seedEssayHall(s.baseUrl, 10);
});
afterAll(() => s.close());

describe('calibrated review of one essay question', () => {
  it('before any approval: every script, markFirst names 3 of them, one uncalibrated recommendation each', async () => {
    const r = await api(s.baseUrl, hall.ws.apiKey).get(url('recommendations'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, engine: 'hallcbt-calibrated-1', examId: hall.exam.id, questionId: hall.questionId, maxMarks: hall.question.marks });
    const ids = hall.scripts.map((x) => x.attemptId);
    expect(r.body.scripts.map((x: any) => x.attemptId)).toEqual(ids);
    expect(r.body.scripts.every((x: any) => x.awardedMarks === null && x.wordCount > 0)).toBe(true);
    expect(r.body.markFirst).toHaveLength(3);
    expect(r.body.markFirst.every((id: string) => ids.includes(id))).toBe(true);
    expect(r.body.recommendations.map((x: any) => x.attemptId).sort()).toEqual([...ids].sort());
    for (const rec of r.body.recommendations) {
      expect(rec.calibrated).toBe(false);
      expect(['high', 'medium', 'low']).toContain(rec.confidence);
      expect(rec.criteriaScores.map((c: any) => c.criterionId)).toEqual(hall.question.rubric.criteria.map((_, i) => `c${i + 1}`));
    }
    // the screen reads the texts of this question's answers only
    const k = api(s.baseUrl, hall.ws.apiKey);
    expect((await k.get(`/exams/${hall.exam.id}/essay-reviews?status=all&questionId=${hall.questionId}`)).body).toHaveLength(hall.scripts.length);
    expect((await k.get(`/exams/${hall.exam.id}/essay-reviews?status=all&questionId=q_other`)).body).toEqual([]);
  });

  it("after the examiner approves the 3 markFirst scripts, the rest are calibrated to them; markFirst names only unapproved scripts", async () => {
    const k = api(s.baseUrl, hall.ws.apiKey);
    const first = (await k.get(url('recommendations'))).body.markFirst as string[];
    const human = new Map(hall.scripts.map((x) => [x.attemptId, x.human]));
    for (const id of first) expect((await k.post(`/attempts/${id}/essay-scores/${hall.questionId}`, { score: human.get(id) })).status).toBe(200);
    const r = await k.get(url('recommendations'));
    expect(r.status).toBe(200);
    for (const x of r.body.scripts) expect(x.awardedMarks).toBe(first.includes(x.attemptId) ? human.get(x.attemptId) : null);
    expect(r.body.recommendations).toHaveLength(hall.scripts.length - 3);
    expect(r.body.recommendations.some((x: any) => first.includes(x.attemptId))).toBe(false);
    expect(r.body.recommendations.every((x: any) => x.calibrated === true)).toBe(true);
    expect(r.body.markFirst.some((id: string) => first.includes(id))).toBe(false);
  });

  it('a group approval with one bad approval stores none; a good one re-grades every attempt in one request, one audit row and one regraded event each', async () => {
    const k = api(s.baseUrl, hall.ws.apiKey);
    const recs = (await k.get(url('recommendations'))).body.recommendations as { attemptId: string; totalScore: number; criteriaScores: { criterionId: string; score: number }[]; confidence: string }[];
    const approvals = recs.map((x) => ({ attemptId: x.attemptId, criteriaScores: x.criteriaScores.map((c) => ({ criterionId: c.criterionId, score: c.score })), recommended: { totalScore: x.totalScore, confidence: x.confidence } }));
    const events = () => (s.deps.sqlite.prepare("SELECT count(*) AS n FROM outbox_events WHERE workspace_id = ? AND type = 'exam.attempt.regraded'").get(hall.ws.id) as { n: number }).n;
    const before = events();

    const bad = await k.post(url('approve'), { approvals: [...approvals.slice(1), { ...approvals[0]!, criteriaScores: [{ criterionId: 'c1', score: 99 }] }] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.errors[0].path).toBe(`approvals.${approvals.length - 1}.criteriaScores.0.score`);
    expect((await k.post(url('approve'), { approvals: [approvals[0], approvals[0]] })).status).toBe(400);
    expect((await k.get(url('recommendations'))).body.recommendations).toHaveLength(approvals.length);
    expect(events()).toBe(before);

    const ok = await k.post(url('approve'), { approvals, reason: 'high-confidence recommendations read' });
    expect(ok.status).toBe(200);
    expect(ok.body.approved).toBe(approvals.length);
    const totals = new Map(approvals.map((a) => [a.attemptId, a.criteriaScores.reduce((t, c) => t + c.score, 0)]));
    const attempts = new Map(((await k.get(`/exams/${hall.exam.id}/attempts`)).body as any[]).map((a) => [a.attemptId, a]));
    for (const res of ok.body.results) {
      expect(res.awardedMarks).toBe(totals.get(res.attemptId));
      expect(res).toMatchObject({ score: res.awardedMarks, maxScore: hall.question.marks, pendingReview: false });
      expect(attempts.get(res.attemptId)).toMatchObject({ score: res.awardedMarks, pendingReview: false });
    }
    const audit = ((await k.get('/workspaces/me/audit')).body as any[]).filter((a) => a.action === 'essay.approve' && a.detail?.group === approvals.length);
    expect(audit.map((a) => a.targetId).sort()).toEqual([...totals.keys()].sort());
    expect(audit.every((a) => a.reason === 'high-confidence recommendations read')).toBe(true);
    expect(events()).toBe(before + approvals.length);
    const after = await k.get(url('recommendations'));
    expect(after.body.recommendations).toEqual([]);
    expect(after.body.markFirst).toEqual([]);
    expect((await k.get(`/exams/${hall.exam.id}/essay-reviews`)).body).toEqual([]);
  });

  it("404 for another workspace's exam, an attempt of another exam in a group, a question that is not an essay; 401 without a key", async () => {
    const other = await registerWorkspace(s.baseUrl);
    const o = api(s.baseUrl, other.apiKey);
    for (const r of [await o.get(url('recommendations')), await o.post(url('approve'), { approvals: [{ attemptId: hall.scripts[0]!.attemptId, score: 1 }] })]) {
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
    // the other workspace's own exam, with the first hall's attempt in its group
    const theirs = await createExam(s.baseUrl, other.apiKey, other.id);
    const [essay, mcq] = await addQuestions(s.baseUrl, other.apiKey, other.id, theirs.id, [{ prompt: 'Explain money.', type: 'SHORT_ESSAY', marks: 5, modelAnswer: 'A medium of exchange.' }, ...sampleMcqs(1)]);
    expect((await o.post(`/exams/${theirs.id}/essay-review/${essay!.id}/approve`, { approvals: [{ attemptId: hall.scripts[0]!.attemptId, score: 1 }] })).status).toBe(404);
    expect((await o.get(`/exams/${theirs.id}/essay-review/${mcq!.id}/recommendations`)).status).toBe(404);
    // no scripts yet: empty lists, no engine asked
    expect((await o.get(`/exams/${theirs.id}/essay-review/${essay!.id}/recommendations`)).body).toMatchObject({ engine: null, scripts: [], markFirst: [], recommendations: [] });
    expect((await api(s.baseUrl).get(url('recommendations'))).status).toBe(401);
  });

  it('the OpenAPI document describes both routes', async () => {
    const doc = (await api(s.baseUrl).get('/openapi.json')).body;
    expect(doc.paths['/exams/{id}/essay-review/{questionId}/recommendations'].get.responses['200']).toBeDefined();
    expect(doc.paths['/exams/{id}/essay-review/{questionId}/approve'].post.requestBody).toBeDefined();
    expect(doc.components.schemas.EssayGroupApproval).toBeDefined();
  });
});
