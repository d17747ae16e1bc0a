/**
 * The generation endpoint's quality fields over real HTTP (issue 39 §2): each question carries
 * `quality: { score, features }`, at or above the base model's threshold and best first, and the
 * response says how many candidate items were withheld and why.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_QUALITY_MODEL } from '../../src/core/generation/quality/base-model.js';
import { registerWorkspace, startTestServer, type TestServer } from '../harness.js';

const GEN = '/api/cbt/ai/generate-questions';
const SOIL = readFileSync(new URL('../fixtures/generation/holdout-3/soil-fertility.md', import.meta.url), 'utf8');
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await registerWorkspace(server.baseUrl)).apiKey;
});
afterAll(() => server.close());

describe('POST /api/cbt/ai/generate-questions: quality', () => {
  it('returns scored items best first and counts the withheld ones by reason', async () => {
    const f = new FormData();
    f.append('notes', SOIL);
    f.append('count', '12');
    const res = await fetch(server.baseUrl + GEN, { method: 'POST', body: f, headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.questions.length).toBeGreaterThan(0);
    const scores = body.questions.map((q: any) => q.quality.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    for (const q of body.questions) {
      expect(q.quality.score).toBeGreaterThanOrEqual(BASE_QUALITY_MODEL.threshold);
      expect(Object.keys(q.quality.features)).toEqual(expect.arrayContaining(Object.keys(BASE_QUALITY_MODEL.weights)));
    }
    expect(body.withheld.count).toBeGreaterThan(0);
    expect(body.withheld.reasons.reduce((s: number, r: any) => s + r.count, 0)).toBe(body.withheld.count);
    expect(body.warnings.join(' ')).toMatch(/withheld/);
  });
});
