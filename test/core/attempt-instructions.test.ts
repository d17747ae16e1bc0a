/**
 * `GET /attempts/{id}/instructions` (issue 37, "the instructions after a reload"): the exam's
 * instructions during the exam, rendered and sanitised as the preview's, for the attempt
 * whose id the page holds — the attempt id being the capability, as for GET /attempts/{id}.
 * The start response does not carry them (test/core/paper-size.test.ts keeps it small).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

const ENGLISH = 'Answer **all** questions in Use of English.\n\n- Calculators are *not* allowed\n\n<script>alert(1)</script><img src=x onerror="alert(2)">Energy: $E = mc^2$';

/** An exam with `instructions` (null: none) and two questions, published with a room code. */
async function exam(instructions: string | null, overrides: Record<string, unknown> = {}) {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { instructions, ...overrides });
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
  return e;
}

describe('GET /attempts/{id}/instructions', () => {
  it('gives the running attempt its exam’s instructions, rendered and sanitised as the preview’s, in the form asked for', async () => {
    const e = await exam(ENGLISH);
    const started = await startAttempt(s.baseUrl, e.accessCode, 'GIN-1');
    // the start response stays without them
    expect(JSON.stringify(started)).not.toContain('Use of English');
    const r = await api(s.baseUrl).get(`/attempts/${started.attemptId}/instructions`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['instructionsHtml']);
    const html = r.body.instructionsHtml as string;
    expect(html).toContain('<strong>all</strong>');
    expect(html).toContain('<li>Calculators are <em>not</em> allowed</li>');
    expect(html).not.toMatch(/<script|onerror|<img/i);
    // what the preview showed before the clock started, byte for byte
    const preview = await api(s.baseUrl).post('/attempts/preview', { accessCode: e.accessCode, studentId: 'GIN-1', candidateName: 'x', candidatePin: '1234' });
    expect(preview.body.instructionsHtml).toBe(html);
    // ?math=mathml: the maths as MathML only, as the paper
    const mathml = await api(s.baseUrl).get(`/attempts/${started.attemptId}/instructions?math=mathml`);
    expect(mathml.body.instructionsHtml).toContain('<math');
    expect(mathml.body.instructionsHtml).not.toContain('katex-html');
    expect((await api(s.baseUrl).get(`/attempts/${started.attemptId}/instructions?math=latex`)).status).toBe(400);
  });

  it('answers null for an exam without instructions, and each attempt only its own exam’s', async () => {
    const plain = await exam(null);
    const other = await exam('Section B: answer two questions only.');
    const a = await startAttempt(s.baseUrl, plain.accessCode, 'GIN-2');
    const b = await startAttempt(s.baseUrl, other.accessCode, 'GIN-3');
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}/instructions`)).body).toEqual({ instructionsHtml: null });
    expect((await api(s.baseUrl).get(`/attempts/${b.attemptId}/instructions`)).body.instructionsHtml).toContain('Section B');
  });

  it('refuses without a valid attempt id (404), a locked attempt (403) and a malformed id (400) as problem details', async () => {
    const e = await exam(ENGLISH, { maxTabViolations: 1 });
    // no attempt id the server issued: nothing to read (the id is the capability; there is no other credential)
    const unknown = await api(s.baseUrl).get('/attempts/att_0000000000000000000000/instructions');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(unknown.body)).not.toContain('Use of English');
    expect((await api(s.baseUrl).get(`/attempts/${'x'.repeat(65)}/instructions`)).status).toBe(400);
    // a disqualified attempt is locked for every candidate read
    const started = await startAttempt(s.baseUrl, e.accessCode, 'GIN-4');
    for (let i = 0; i < 2; i++) await api(s.baseUrl).post(`/attempts/${started.attemptId}/telemetry`, { type: 'TAB_SWITCH' });
    const locked = await api(s.baseUrl).get(`/attempts/${started.attemptId}/instructions`);
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('DISQUALIFIED');
    expect(JSON.stringify(locked.body)).not.toContain('Use of English');
  });
});
