/**
 * Results of a JAMB-style sitting (issue 37 items 2 and 5): candidates who were given
 * different questions are graded on their own paper; `sectionScores` in
 * GET /attempts/{id}/result, the webhook's data and the submit response sum to the total
 * score; the results CSV has one column per section and leaves questions a candidate was not
 * given empty; the item analysis counts, for each question, only the candidates given it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startReceiver, startTestServer, waitFor, type TestServer } from '../harness.js';

let s: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer();
  receiver = await startReceiver();
  ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

type Started = Awaited<ReturnType<typeof startAttempt>> & { sections: { name: string; questionIds: string[] }[] };
type SectionScore = { section: string; score: number; maxScore: number };

/** English: 5 questions of 1 mark, 3 drawn; Physics: 4 of 2 marks, 2 drawn; Biology: 2 of 1.5 marks, optional. */
async function sittingExam() {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, {
    title: 'UTME mock',
    sections: [{ name: 'English', draw: 3 }, { name: 'Physics', draw: 2 }, { name: 'Biology', compulsory: false }],
  });
  const make = (section: string, n: number, marks: number) => sampleMcqs(n).map((q, i) => ({ ...q, prompt: `${section} ${i + 1}`, section, marks }));
  const qs = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...make('English', 5, 1), ...make('Physics', 4, 2), ...make('Biology', 2, 1.5)]);
  return { exam: e, questions: qs };
}

/** Answers every given question: the key (option A) where `right(questionIndex)`, else option B. */
async function answerAndSubmit(a: Started, right: (i: number) => boolean) {
  const answers = a.questions.map((q, i) => {
    const key = q.options.find((o) => o.text.startsWith('A:'))!;
    const wrong = q.options.find((o) => o.text.startsWith('B:'))!;
    return { questionId: q.id, optionId: right(i) ? key.id : wrong.id };
  });
  const r = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers });
  expect(r.status).toBe(200);
  return r.body;
}

describe('per-section scores', () => {
  it('sum to the total score, over the questions the candidate was given, in the result, the submit response and the webhook', async () => {
    const { exam, questions } = await sittingExam();
    const a = (await startAttempt(s.baseUrl, exam.accessCode, 'S-1')) as Started;
    expect(a.sections.map((x) => [x.name, x.questionIds.length])).toEqual([['English', 3], ['Physics', 2], ['Biology', 2]]);
    // right on every other question
    const submitted = await answerAndSubmit(a, (i) => i % 2 === 0);
    const marks = new Map(questions.map((q) => [q.id, q.marks]));
    const expected = a.sections.map((x) => {
      const ids = a.questions.map((q, i) => ({ id: q.id, i })).filter((q) => x.questionIds.includes(q.id));
      return { section: x.name, score: ids.filter((q) => q.i % 2 === 0).reduce((t, q) => t + marks.get(q.id)!, 0), maxScore: ids.reduce((t, q) => t + marks.get(q.id)!, 0) };
    });
    const total = expected.reduce((t, x) => t + x.score, 0);
    // the candidate's paper: 3 × 1 + 2 × 2 + 2 × 1.5 = 10 marks, not the whole paper's 16
    expect(submitted).toMatchObject({ score: total, maxScore: 10, sectionScores: expected });

    const result = await api(s.baseUrl, ws.apiKey).get(`/attempts/${a.attemptId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.sectionScores).toEqual(expected);
    expect(result.body.score).toBe(total);
    expect(result.body.sectionScores.reduce((t: number, x: SectionScore) => t + x.score, 0)).toBe(result.body.score);
    expect(result.body.sectionScores.reduce((t: number, x: SectionScore) => t + x.maxScore, 0)).toBe(result.body.maxScore);
    // only the questions the candidate was given, each with its section
    expect(result.body.answers.map((x: { questionId: string }) => x.questionId).sort()).toEqual(a.questions.map((q) => q.id).sort());
    expect(result.body.answers.every((x: { questionId: string; section: string }) => a.sections.find((sec) => sec.name === x.section)!.questionIds.includes(x.questionId))).toBe(true);

    // the results table and monitor count the candidate's own questions
    const rows = (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/attempts`)).body as { attemptId: string; totalQuestions: number; sectionScores: SectionScore[] }[];
    expect(rows.find((r) => r.attemptId === a.attemptId)).toMatchObject({ totalQuestions: 7, sectionScores: expected });

    await waitFor(() => receiver.received.find((r) => JSON.parse(r.body).data.attemptId === a.attemptId));
    const event = JSON.parse(receiver.received.find((r) => JSON.parse(r.body).data.attemptId === a.attemptId)!.body);
    expect(event.type).toBe('exam.attempt.completed');
    expect(event.data).toMatchObject({ score: total, maxScore: 10, sectionScores: expected });
  });

  it('are absent from an exam without sections (the result and webhook as before)', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const a = (await startAttempt(s.baseUrl, e.accessCode, 'PLAIN-R')) as Started;
    const submitted = await answerAndSubmit(a, () => true);
    expect(submitted.sectionScores).toBeUndefined();
    expect((await api(s.baseUrl, ws.apiKey).get(`/attempts/${a.attemptId}/result`)).body.sectionScores).toBeNull();
    await waitFor(() => receiver.received.find((r) => JSON.parse(r.body).data.attemptId === a.attemptId));
    expect(JSON.parse(receiver.received.find((r) => JSON.parse(r.body).data.attemptId === a.attemptId)!.body).data.sectionScores).toBeUndefined();
  });
});

describe('results export and item analysis over different papers', () => {
  it('the CSV has one column per section and empty cells for questions not given; an item counts only the candidates given it', async () => {
    const { exam, questions } = await sittingExam();
    const papers: Started[] = [];
    for (let i = 0; i < 6; i++) {
      const a = (await startAttempt(s.baseUrl, exam.accessCode, `P-${i}`)) as Started;
      papers.push(a);
      // everyone gets every question they were given right
      await answerAndSubmit(a, () => true);
    }
    const csv = await fetch(`${s.baseUrl}/exams/${exam.id}/results.csv`, { headers: { 'x-api-key': ws.apiKey } }).then((r) => r.text());
    const lines = Papa.parse<string[]>(csv.replace(/^\uFEFF/, '').trim()).data;
    const header = lines[0]!;
    expect(header.filter((h) => h.endsWith('(section score)'))).toEqual(['English (section score)', 'Physics (section score)', 'Biology (section score)']);
    const physicsCol = header.indexOf('Physics (section score)');
    const q1 = header.indexOf('Q1');
    for (const a of papers) {
      const row = lines.find((l) => l[0] === a.studentId)!;
      expect(Number(row[physicsCol])).toBe(4);
      questions.forEach((q, j) => expect(row[q1 + j], `${a.studentId} Q${j + 1}`).toBe(a.questions.some((x) => x.id === q.id) ? 'A' : ''));
    }

    const analysis = await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/analysis`);
    expect(analysis.status).toBe(200);
    expect(analysis.body.candidates).toBe(6);
    for (const item of analysis.body.questions as { questionId: string; candidates: number; facilityIndex: number | null; omitted: { count: number } }[]) {
      const given = papers.filter((a) => a.questions.some((q) => q.id === item.questionId)).length;
      expect(item.candidates, item.questionId).toBe(given);
      // everyone who was given it got it right: facility 1, nobody omitted it
      expect(item.facilityIndex).toBe(given ? 1 : null);
      expect(item.omitted.count).toBe(0);
    }
    // 6 candidates × (3 + 2 + 2) questions each
    expect(analysis.body.questions.reduce((t: number, q: { candidates: number }) => t + q.candidates, 0)).toBe(42);
    expect(analysis.body.kr20).toBeNull();
  });
});
