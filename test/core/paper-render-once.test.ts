/**
 * Issue #34 §3: a question is rendered once per version and maths form — not per start,
 * not again when its exam's cached paper is rebuilt (a pause, an exam edit), and once for
 * several first starts at the same moment (single flight) — and what candidates receive is
 * exactly what the renderer makes (src/core/rich-text.ts), in well-formed JSON.
 * Renders are counted by render-cache.ts `renderCounts` (the server runs in this process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { renderCounts } from '../../src/modules/sessions/render-cache.js';
import { renderRich } from '../../src/core/rich-text.js';
import { candidateQuestions, renderPaper } from '../../src/modules/sessions/paper.js';
import { candidateQuestionsJson } from '../../src/modules/sessions/paper-json.js';
// @ts-expect-error plain ESM script without types
import { mathsPaper } from '../../scripts/bench/network/paper.mjs';

type Q = { id: string; prompt: string; promptHtml: string; options: { id: string; text: string; html: string }[] };

describe('rendering once per question version', () => {
  let server: TestServer;
  let ws: { id: string; apiKey: string };
  let exam: { id: string; accessCode: string };
  let ids: string[] = [];
  const start = (studentId: string, query = '') => fetch(`${server.baseUrl}/attempts/start${query}`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: JSON.stringify({ accessCode: exam.accessCode, studentId, candidateName: `C ${studentId}`, candidatePin: '2468' }) });

  beforeAll(async () => {
    // every candidate here starts from this one loopback address, as no hall does: the one-attempt-per-computer rule of open rooms is off (it has its own tests, test/security/open-room.test.ts)
    server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000, CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
    ws = await registerWorkspace(server.baseUrl);
    exam = await createExam(server.baseUrl, ws.apiKey, ws.id, { durationMins: 60, shuffleQuestions: true, shuffleChoices: true });
    ids = (await addQuestions(server.baseUrl, ws.apiKey, ws.id, exam.id, mathsPaper(12))).map((q) => q.id);
  });
  afterAll(async () => server?.close());

  it('five first starts at once render each question once, and what they receive is the renderer’s HTML', async () => {
    const before = renderCounts.questions;
    const rs = await Promise.all([1, 2, 3, 4, 5].map((i) => start(`ONCE-${i}`)));
    expect(renderCounts.questions - before).toBe(ids.length);
    for (const r of rs) {
      expect(r.status).toBe(200);
      const text = await r.text();
      // well-formed and written as JSON.stringify writes it
      expect(JSON.stringify(JSON.parse(text))).toBe(text);
      const qs = (JSON.parse(text) as { questions: Q[] }).questions;
      expect(qs.map((q) => q.id).sort()).toEqual([...ids].sort());
      for (const q of qs) {
        expect(q.promptHtml).toBe(renderRich(q.prompt, false, 'html'));
        for (const o of q.options) expect(o.html).toBe(renderRich(o.text, true, 'html'));
      }
    }
  });

  it('a pause, a resume and an exam edit (the paper rebuilt) render nothing again; an edited question renders once', async () => {
    const key = api(server.baseUrl, ws.apiKey);
    const before = renderCounts.questions;
    expect((await key.post(`/exams/${exam.id}/pause`, { reason: 'fire drill' })).status).toBe(200);
    expect((await key.post(`/exams/${exam.id}/resume`, { reason: 'drill over' })).status).toBe(200);
    expect((await key.patch(`/exams/${exam.id}`, { title: 'Renamed' })).status).toBe(200);
    expect((await start('AFTER-1')).status).toBe(200);
    expect(renderCounts.questions - before).toBe(0);
    expect((await key.patch(`/questions/${ids[0]}`, { prompt: 'Now: $\\frac{a}{b}$?' })).status).toBe(200);
    const r = await start('AFTER-2');
    expect(renderCounts.questions - before).toBe(1);
    const q = ((await r.json()) as { questions: Q[] }).questions.find((x) => x.id === ids[0])!;
    expect(q.promptHtml).toBe(renderRich('Now: $\\frac{a}{b}$?', false, 'html'));
    // the MathML form is a version of its own: rendered once for the whole paper
    expect((await start('MML-1', '?math=mathml')).status).toBe(200);
    expect((await start('MML-2', '?math=mathml')).status).toBe(200);
    expect(renderCounts.questions - before).toBe(1 + ids.length);
  });

  it('writes the questions byte for byte as JSON.stringify of the candidate view, in both forms, whatever the layout', async () => {
    const r = await start('BYTES-1');
    const attemptId = ((await r.json()) as { attemptId: string }).attemptId;
    const paper = server.deps.sessions.paper(exam.id)!;
    const layout = server.deps.sessions.layout(attemptId);
    // a layout that lost a question and an option, as after an examiner's edit: both are appended
    const edited = [{ ...layout[0]!, optionIds: layout[0]!.optionIds.slice(1) }, ...layout.slice(2)];
    for (const form of ['html', 'mathml'] as const) {
      await renderPaper(paper, form);
      for (const l of [layout, edited]) expect(candidateQuestionsJson(paper, l, form).json.toString()).toBe(JSON.stringify(candidateQuestions(paper, l, form)));
    }
  });
});
