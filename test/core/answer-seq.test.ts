/**
 * What the server does with a save's `seq` beyond the happy path, through the real HTTP
 * server: seq is bounded (issue 22: 2^53 − 1 was accepted, the server then assigned 2^53
 * and every later save equalled it and was ignored), and a seq the server refused does not
 * hold durableSeq back (issue 20 item 1: a client that drops a refused answer would leave a
 * gap no replay can fill).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';
import { MAX_SEQ } from '../../src/modules/attempts/schemas.js';

let s: TestServer;
let accessCode: string;
let n = 0;
beforeAll(async () => {
  s = await startTestServer();
  const ws = await registerWorkspace(s.baseUrl);
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
  accessCode = e.accessCode;
});
afterAll(() => s.close());

async function fresh() {
  const a = await startAttempt(s.baseUrl, accessCode, `SEQ-${++n}`);
  const c = api(s.baseUrl);
  const [q1, q2, q3] = a.questions;
  const answers = async () => (await c.get(`/attempts/${a.attemptId}?questions=0`)).body as { durableSeq: number; answers: { questionId: string; optionId: string; seq: number }[] };
  return { id: a.attemptId, c, q1: q1!, q2: q2!, q3: q3!, answers };
}

describe('seq bounds', () => {
  it('accepts seq up to 2^31 − 1 and refuses more (2^53 − 1 included) with a clear 400 that changes nothing', async () => {
    const { id, c, q1, answers } = await fresh();
    for (const seq of [MAX_SEQ + 1, Number.MAX_SAFE_INTEGER]) {
      const put = await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[0]!.id, seq });
      expect(put.status).toBe(400);
      expect(put.headers.get('content-type')).toContain('application/problem+json');
      expect(JSON.stringify(put.body.errors)).toContain(`seq must be at most ${MAX_SEQ}`);
      const batch = await c.post(`/attempts/${id}/answers`, { answers: [{ questionId: q1.id, optionId: q1.options[0]!.id, seq }] });
      expect(batch.status).toBe(400);
    }
    expect((await answers()).answers).toEqual([]);
    const ok = await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[1]!.id, seq: MAX_SEQ });
    expect(ok.status).toBe(200);
    expect(ok.body.seq).toBe(MAX_SEQ);
  });

  it('refuses to assign a seq past the bound (400), instead of handing out one that every later save would equal', async () => {
    const { id, c, q1, q2, answers } = await fresh();
    expect((await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[0]!.id, seq: MAX_SEQ })).status).toBe(200);
    const unnumbered = await c.put(`/attempts/${id}/answers/${q2.id}`, { optionId: q2.options[2]!.id });
    expect(unnumbered.status).toBe(400);
    expect(unnumbered.body.detail).toContain(`seq ${MAX_SEQ}`);
    const after = await answers();
    expect(after.answers.map((a) => a.questionId)).toEqual([q1.id]);
    // a numbered save at the bound is still judged normally
    const stale = await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[3]!.id, seq: MAX_SEQ });
    expect(stale.body.applied).toBe(0);
  });
});

describe('a refused seq', () => {
  it('does not hold durableSeq back: the next flush makes the later seqs durable', async () => {
    const { id, c, q1, q3, answers } = await fresh();
    expect((await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[0]!.id, seq: 1 })).status).toBe(200);
    // seq 2 names an option of another question: refused, never stored
    const refused = await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q3.options[0]!.id, seq: 2 });
    expect(refused.status).toBe(400);
    expect((await c.put(`/attempts/${id}/answers/${q3.id}`, { optionId: q3.options[1]!.id, seq: 3 })).status).toBe(200);
    await s.deps.buffer.flush();
    const after = await answers();
    expect(after.durableSeq).toBe(3);
    expect(after.answers.find((a) => a.questionId === q1.id)).toMatchObject({ optionId: q1.options[0]!.id, seq: 1 });
  });

  it('is not counted when the attempt holds that seq already (a reused seq): neither durableSeq nor the stored watermark claims it before it is written', async () => {
    const { id, c, q1, q3 } = await fresh();
    const stored = () => (s.deps.sqlite.prepare('SELECT durable_seq AS w FROM attempts WHERE id = ?').get(id) as { w: number }).w;
    expect((await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[0]!.id, seq: 1 })).status).toBe(200);
    // the same seq again, refused: the answer held under seq 1 is still only in memory
    expect((await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q3.options[0]!.id, seq: 1 })).status).toBe(400);
    expect(s.deps.buffer.durableSeq(id)).toBe(0);
    expect(stored()).toBe(0);
    await s.deps.buffer.flush();
    expect(s.deps.buffer.durableSeq(id)).toBe(1);
  });

  it('closes a gap below later saves: durableSeq rises past its own seq, to the top of the run it completes', async () => {
    const { id, c, q1, q2, answers } = await fresh();
    expect((await c.put(`/attempts/${id}/answers/${q1.id}`, { optionId: q1.options[0]!.id, seq: 2 })).status).toBe(200);
    expect((await c.put(`/attempts/${id}/answers/${q2.id}`, { optionId: q2.options[0]!.id, seq: 3 })).status).toBe(200);
    await s.deps.buffer.flush();
    expect((await answers()).durableSeq).toBe(0); // seq 1 never arrived: the gap holds it
    // seq 1 arrives on a save to a question not in the paper: refused, yet received
    const refused = await c.put(`/attempts/${id}/answers/q_not_in_this_paper`, { optionId: q1.options[1]!.id, seq: 1 });
    expect(refused.status).toBe(404);
    await s.deps.buffer.flush();
    const after = await answers();
    expect(after.durableSeq).toBe(3);
    expect(after.answers.find((a) => a.questionId === q1.id)).toMatchObject({ optionId: q1.options[0]!.id, seq: 2 });
  });
});
