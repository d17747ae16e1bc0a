/**
 * The LLM's essay marks go through the same calibration as the built-in engine's (issue 39
 * §3; docs/llm.md, "Essays"): POST /api/cbt/ai/grade-essays on a hall whose CBT_LLM_BASE_URL
 * is a fake OpenAI-compatible server on 127.0.0.1. Without examiner marks the
 * recommendations are the model's own totals; with marks they are fitted to the examiner's
 * scale; evaluations are reused between requests; a failing model falls back to the rubric
 * engine for the whole batch.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';

let fake: Server;
let calls = 0;
let failing = false;
let hall: TestServer;
let key: string;

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The fake model: every criterion gets level/4 of its marks, where the response says
 * "level N" — a scale the rubric engine (which reads the model answer's ideas) cannot know.
 */
beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const body = await readBody(req);
    calls++;
    if (failing) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model not loaded"}');
    const user: string = body.messages.at(-1).content;
    const level = Number(/level (\d)/.exec(user.split("Candidate's response:")[1] ?? '')?.[1] ?? 0);
    const criteria = [...user.matchAll(/^- (\w+): .*\(max (\d+(?:\.\d+)?)\)/gm)].map((m) => ({ criterionId: m[1]!, score: (Number(m[2]) * level) / 4, feedback: `level ${level}` }));
    const content = JSON.stringify({ criteriaScores: criteria, overallComment: 'ok', strengths: [], areasForImprovement: [] });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  hall = await startTestServer({ config: { CBT_LLM_BASE_URL: baseUrl, CBT_LLM_MODEL: 'fake-3b-q4', CBT_LLM_TIMEOUT_MS: 15_000 } });
  key = (await registerWorkspace(hall.baseUrl)).apiKey;
});
afterAll(async () => {
  await hall.close();
  fake.closeAllConnections();
  await new Promise<void>((r) => fake.close(() => r()));
});

const LEVELS = [4, 4, 3, 3, 2, 2, 1, 1, 0, 4, 2, 1];
const scripts = (marks: Record<string, number> = {}) =>
  LEVELS.map((level, i) => ({ id: `s${i}`, studentResponse: `Script ${i} of the class, written at level ${level} by its candidate.`, ...(marks[`s${i}`] === undefined ? {} : { examinerScore: marks[`s${i}`] }) }));
const batch = (marks?: Record<string, number>) => ({
  questionPrompt: 'Explain how chlorophyll helps a plant make food.',
  modelAnswer: 'Chlorophyll is the green pigment that traps light energy for photosynthesis.',
  rubricCriteria: [{ id: 'c1', title: 'Pigment', maxMarks: 4 }, { id: 'c2', title: 'Energy', maxMarks: 4 }],
  maxMarks: 8,
  scripts: scripts(marks),
});
const grade = (body: object) => api(hall.baseUrl, key).post('/api/cbt/ai/grade-essays', body);

describe('grade-essays with an LLM configured', () => {
  it('no examiner mark: each recommendation is the model\'s own total (uncalibrated), engine names the model', async () => {
    calls = 0;
    const r = await grade(batch());
    expect(r.status).toBe(200);
    expect(r.body.engine).toBe('hallcbt-calibrated-1+fake-3b-q4');
    expect(calls).toBe(LEVELS.length);
    for (const rec of r.body.recommendations) {
      const level = LEVELS[Number(rec.id.slice(1))]!;
      expect(rec.calibrated).toBe(false);
      expect(rec.totalScore).toBe(2 * level);
    }
  });

  it("with marks: the model's evidence is fitted to the examiner's harsher scale, monotone, by the same calibration; no new call for scripts seen", async () => {
    calls = 0;
    // The examiner gives half what the model does.
    const r = await grade(batch({ s0: 4, s2: 3, s4: 2, s6: 1, s8: 0 }));
    expect(r.status).toBe(200);
    expect(calls).toBe(0);
    const by = new Map(r.body.recommendations.map((x: any) => [x.id, x]));
    for (const rec of r.body.recommendations) expect(rec.calibrated).toBe(true);
    const s1 = (by.get('s1') as any).totalScore; // level 4: the model says 8
    const s7 = (by.get('s7') as any).totalScore; // level 1: the model says 2
    expect(s1).toBeGreaterThanOrEqual(3);
    expect(s1).toBeLessThanOrEqual(5);
    expect(s7).toBeLessThan(s1);
    expect(s7).toBeLessThanOrEqual(1.5);
  });

  it('a failing model: the whole batch is graded by the rubric engine, calibrated the same way', async () => {
    failing = true;
    try {
      const body = batch({ s0: 4 });
      body.scripts = body.scripts.map((s) => ({ ...s, studentResponse: `${s.studentResponse} (second sitting)` }));
      const r = await grade(body);
      expect(r.status).toBe(200);
      expect(r.body.engine).toBe('hallcbt-calibrated-1');
      expect(r.body.recommendations.every((x: any) => x.calibrated)).toBe(true);
    } finally {
      failing = false;
    }
  });
});
