/**
 * The start path of issue 40 §3 and issue 37's start surge.
 *
 * - A question's JSON is written once per cached paper and maths form and copied into
 *   every start (sessions/paper-json.ts): each candidate of a drawn, shuffled paper still
 *   gets their own draw and option order, exactly as `candidateQuestions` writes it for
 *   their stored layout; a resume sends the same bytes; an examiner's edit reaches the
 *   next start.
 * - The open exams' papers are rendered when the hall starts (sessions/warm-up.ts): after a
 *   restart, the first start renders nothing.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, tempDir, type TestServer } from '../harness.js';
import { candidateQuestions, type Layout } from '../../src/modules/sessions/paper.js';
import { parseLayout } from '../../src/core/exams/layout-codec.js';
import { cachedRendering, renderCounts } from '../../src/modules/sessions/render-cache.js';

type Started = { attemptId: string; isResumed: boolean; questions: { id: string; options: { id: string; keyLabel: string }[] }[]; sections: { name: string; questionIds: string[] }[] };

const startRaw = (s: TestServer, accessCode: string, studentId: string, query = '') =>
  fetch(`${s.baseUrl}/attempts/start${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body: JSON.stringify({ accessCode, studentId, candidateName: `Candidate ${studentId}`, candidatePin: '1357' }),
  });

/** The start's raw text and its parsed body (200 expected). */
async function start(s: TestServer, accessCode: string, studentId: string, query = '') {
  const r = await startRaw(s, accessCode, studentId, query);
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return { text, body: JSON.parse(text) as Started };
}

/** The attempt's layout as stored at its start. */
const storedLayout = (s: TestServer, attemptId: string): Layout =>
  parseLayout((s.deps.sqlite.prepare('SELECT layout_json AS j FROM attempt_layouts WHERE attempt_id = ?').get(attemptId) as { j: string }).j);

describe('questions written once per paper, copied per start', () => {
  let s: TestServer;
  let exam: { id: string; accessCode: string };
  let key: ReturnType<typeof api>;

  beforeAll(async () => {
    // several candidates start from this one loopback address: the open room's one-attempt-per-computer rule is off here (test/security/open-room.test.ts has its own)
    s = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000, CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
    const ws = await registerWorkspace(s.baseUrl);
    key = api(s.baseUrl, ws.apiKey);
    exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { sections: [{ name: 'Algebra', draw: 4 }, { name: 'Geometry', draw: 3 }], shuffleQuestions: true, shuffleChoices: true, isPublished: false });
    const qs = (section: string, n: number) => sampleMcqs(n).map((q, i) => ({ ...q, prompt: `${section} block ${i + 1}: $x^${i + 2}$ and **bold**`, section }));
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [...qs('Algebra', 8), ...qs('Geometry', 6)]);
    expect((await key.patch(`/exams/${exam.id}`, { isPublished: true })).status).toBe(200);
  });
  afterAll(async () => s?.close());

  it('gives each candidate their own drawn, shuffled paper as candidateQuestions writes it, and a resume the same bytes', async () => {
    const papers: string[] = [];
    for (const id of ['OWN-1', 'OWN-2', 'OWN-3', 'OWN-4']) {
      const first = await start(s, exam.accessCode, id);
      const layout = storedLayout(s, first.body.attemptId);
      const paper = s.deps.sessions.paper(exam.id)!;
      const expected = JSON.stringify(candidateQuestions(paper, layout));
      // this candidate's draw and option order, byte for byte, in the response as sent
      expect(first.text).toContain(`"questions":${expected}`);
      expect(first.body.questions.map((q) => q.id)).toEqual(layout.map((l) => l.questionId));
      first.body.questions.forEach((q, i) => {
        expect(q.options.map((o) => o.id)).toEqual(layout[i]!.optionIds);
        expect(q.options.map((o) => o.keyLabel)).toEqual(['A', 'B', 'C', 'D']);
      });
      expect(first.body.sections.map((x) => [x.name, x.questionIds.length])).toEqual([['Algebra', 4], ['Geometry', 3]]);
      const again = await start(s, exam.accessCode, id);
      expect(again.body.isResumed).toBe(true);
      expect(again.body.attemptId).toBe(first.body.attemptId);
      expect(again.text).toContain(`"questions":${expected}`);
      papers.push(expected);
    }
    // four draws of 4 of 8 and 3 of 6, shuffled questions and options: not one paper copied to all
    expect(new Set(papers).size).toBe(4);
  });

  it('sends an examiner’s edit (marks, text) at the next start and resume, in both maths forms', async () => {
    const first = await start(s, exam.accessCode, 'EDIT-1');
    const qid = first.body.questions[0]!.id;
    expect((await key.patch(`/questions/${qid}`, { marks: 5, prompt: 'Edited block: $y^2$' })).status).toBe(200);
    for (const query of ['', '?math=mathml']) {
      const resumed = await start(s, exam.accessCode, 'EDIT-1', query);
      const q = (resumed.body.questions as unknown as { id: string; marks: number; prompt: string }[]).find((x) => x.id === qid)!;
      expect(q).toMatchObject({ marks: 5, prompt: 'Edited block: $y^2$' });
      const paper = s.deps.sessions.paper(exam.id)!;
      expect(resumed.text).toContain(`"questions":${JSON.stringify(candidateQuestions(paper, storedLayout(s, resumed.body.attemptId), query ? 'mathml' : 'html'))}`);
    }
  });
});

describe('the open exams’ papers are rendered when the hall starts', () => {
  const dataDir = tempDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('renders a published exam’s questions in both forms at boot, so the first start after a restart renders nothing', async () => {
    const before = await startTestServer({ dataDir });
    const ws = await registerWorkspace(before.baseUrl);
    const e = await createExam(before.baseUrl, ws.apiKey, ws.id, { isPublished: true });
    // text no other test renders (the render cache is the process's)
    const stamp = `${Date.now()}-${Math.random()}`;
    await addQuestions(before.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(5).map((q, i) => ({ ...q, prompt: `Warm ${stamp} ${i}: $\\frac{${i}}{2}$` })));
    const closed = await createExam(before.baseUrl, ws.apiKey, ws.id, { isPublished: false });
    await addQuestions(before.baseUrl, ws.apiKey, ws.id, closed.id, sampleMcqs(2).map((q, i) => ({ ...q, prompt: `Unpublished ${stamp} ${i}` })));
    await before.close();

    const s = await startTestServer({ dataDir, jobs: true });
    try {
      const paper = s.deps.sessions.paper(e.id)!;
      const ready = () => paper.questions.every((q) => cachedRendering(q, 'html') && cachedRendering(q, 'mathml'));
      const until = Date.now() + 30_000;
      while (!ready() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(ready()).toBe(true);
      // an unpublished exam is left alone
      expect(s.deps.sessions.paper(closed.id)!.questions.some((q) => cachedRendering(q, 'html'))).toBe(false);
      const rendered = renderCounts.questions;
      // (one candidate from loopback: the open room's seat rule is met)
      const r = await startRaw(s, e.accessCode, 'FIRST-AFTER-BOOT');
      expect(r.status).toBe(200);
      await r.text();
      expect(renderCounts.questions).toBe(rendered);
    } finally {
      await s.close();
    }
  });
});
