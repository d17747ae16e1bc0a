/**
 * POST /api/cbt/ai/grade-essays over real HTTP (issue 39 §1): one question's scripts, the
 * examiner's marks on some; validation problems, markFirst, one recommendation per unmarked
 * script, calibration once a script is marked, and "low" confidence where the engine alone
 * cannot vouch for a low mark. The question is a human-marked one of
 * test/fixtures/quality/essay-marking-2.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import type { MarkedQuestion } from '../../scripts/essay-quality.js';

const BATCH = '/api/cbt/ai/grade-essays';
const Q = JSON.parse(readFileSync(new URL('../fixtures/quality/essay-marking-2/waec-financial-accounting-trial-balance-errors.json', import.meta.url), 'utf8')) as MarkedQuestion;
const human = new Map(Q.scripts.map((s) => [s.id, s.examinerScore]));
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await registerWorkspace(server.baseUrl)).apiKey;
});
afterAll(() => server.close());

async function post(body: object, apiKey: string | null = key) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) };
  const res = await fetch(server.baseUrl + BATCH, { method: 'POST', body: JSON.stringify(body), headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as any };
}

/** The question with its scripts; `marked` ids carry the examiner's marks. */
function batch(marked: string[] = [], scripts = Q.scripts.map((s) => ({ id: s.id, studentResponse: s.text }))) {
  return {
    questionPrompt: Q.prompt,
    modelAnswer: Q.modelAnswer,
    maxMarks: Q.marks,
    rubricCriteria: Q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })),
    scripts: scripts.map((s) => (marked.includes(s.id) ? { ...s, examinerScore: human.get(s.id) } : s)),
  };
}

describe('POST /api/cbt/ai/grade-essays', () => {
  it('400 (problem details) for 0 or 501 scripts, a mark above maxMarks, repeated ids; 401 without the key', async () => {
    for (const body of [
      batch([], []),
      batch([], Array.from({ length: 501 }, (_, i) => ({ id: `s${i}`, studentResponse: 'Money is a medium of exchange.' }))),
      { ...batch(), scripts: [{ id: 'a', studentResponse: 'x', examinerScore: Q.marks + 0.5 }] },
      { ...batch(), scripts: [{ id: 'a', studentResponse: 'x' }, { id: 'a', studentResponse: 'y' }] },
      { ...batch(), scripts: [{ id: 'a', studentResponse: 'x', examinerScore: -1 }] },
    ]) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.type).toContain('application/problem+json');
    }
    expect((await post(batch(), null)).status).toBe(401);
  });

  it('nothing marked: markFirst names 3 scripts to mark; one uncalibrated recommendation per script; a low mark the engine cannot vouch for is "low"', async () => {
    const r = await post(batch());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, engine: 'hallcbt-calibrated-1' });
    expect(r.body.markFirst).toHaveLength(3);
    expect(new Set(r.body.markFirst).size).toBe(3);
    expect(r.body.recommendations.map((x: any) => x.id)).toEqual(Q.scripts.map((s) => s.id));
    for (const rec of r.body.recommendations) {
      expect(rec.calibrated).toBe(false);
      expect(rec.criteriaScores).toHaveLength(Q.rubric.criteria.length);
      if (rec.totalScore < Q.marks * 0.4) expect(rec.confidence).toBe('low');
    }
    // The paraphrase the engine cannot read (the examiner gave 7 of 8) is not a confident low mark.
    const para = r.body.recommendations.find((x: any) => x.id === 's02-paraphrase');
    expect(para.totalScore).toBeLessThan(Q.marks * 0.4);
    expect(para.confidence).toBe('low');
  });

  it('one script marked: the rest are calibrated; three marked (markFirst): one recommendation per unmarked script, nearer the examiner', async () => {
    const first = (await post(batch())).body;
    const one = await post(batch(first.markFirst.slice(0, 1)));
    expect(one.status).toBe(200);
    expect(one.body.recommendations).toHaveLength(Q.scripts.length - 1);
    expect(one.body.recommendations.every((x: any) => x.calibrated)).toBe(true);
    expect(one.body.markFirst).not.toContain(first.markFirst[0]);
    expect(one.body.markFirst.length).toBeGreaterThanOrEqual(2);

    const marked = first.markFirst.slice(0, 3) as string[];
    const three = await post(batch(marked));
    expect(three.status).toBe(200);
    const recs = three.body.recommendations as { id: string; totalScore: number; criteriaScores: { score: number; maxMarks: number }[]; confidence: string; calibrated: boolean }[];
    expect(recs.map((x) => x.id).sort()).toEqual(Q.scripts.map((s) => s.id).filter((id) => !marked.includes(id)).sort());
    for (const rec of recs) {
      expect(rec.calibrated).toBe(true);
      expect(['high', 'medium', 'low']).toContain(rec.confidence);
      expect(rec.totalScore * 2).toBe(Math.round(rec.totalScore * 2));
      expect(rec.criteriaScores.reduce((s, c) => s + c.score, 0)).toBeCloseTo(rec.totalScore);
      for (const c of rec.criteriaScores) expect(c.score).toBeLessThanOrEqual(c.maxMarks);
    }
    expect(three.body.markFirst.some((id: string) => marked.includes(id))).toBe(false);
    const mae = (rs: { id: string; totalScore: number }[]) => rs.reduce((s, x) => s + Math.abs(x.totalScore - human.get(x.id)!), 0) / rs.length;
    const before = first.recommendations.filter((x: any) => !marked.includes(x.id));
    expect(mae(recs)).toBeLessThan(mae(before));
  });

  it('is described in /openapi.json', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as any;
    const op = doc.paths[BATCH].post;
    expect(op.description).toMatch(/markFirst/);
    expect(op.responses['200']).toBeDefined();
    expect(doc.components.schemas.GradeEssaysRequest).toBeTruthy();
  });

  it('takes a batch of 500 scripts of real length: the body may be up to 8 MB (the JSON default is 1 MB)', async () => {
    // 1.5 MB of JSON whitespace around a small batch: what the body limit counts, without grading 1.5 MB of text
    const body = JSON.stringify(batch()).replace(/^\{/, '{' + ' '.repeat(1_500_000));
    const res = await fetch(server.baseUrl + BATCH, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': key } });
    expect(res.status).toBe(200);
    const tooLarge = await fetch(server.baseUrl + BATCH, { method: 'POST', body: JSON.stringify(batch()).replace(/^\{/, '{' + ' '.repeat(8 * 1024 * 1024)), headers: { 'content-type': 'application/json', 'x-api-key': key } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('content-type')).toContain('application/problem+json');
  });
});
