/**
 * One upload must not hold every place (issue #34, finding 8; docs/decisions.md, "Upload
 * lanes, a quota per workspace, abandoned uploads leave at once"), against the real server
 * process during an exam (an attempt in progress: the job processes run 10 % of the time):
 * - a 9.5 MB paste from workspace A holding the main lane, with A's further uploads trying
 *   to fill the queue, does not keep a one-line Aiken import from B (nor from A) out: it
 *   completes (201), in the small lane;
 * - a workspace holds at most its quota of places in a lane (429 UPLOAD_QUOTA) while
 *   another workspace's upload in that lane is admitted and completes;
 * - an upload whose client goes away — while waiting, while its body streams, while its job
 *   runs — gives its place back at once (GET /health `uploads`, polled with a bound).
 */
import { describe, expect, it } from 'vitest';
import { hallProcessSuite } from './hall-process.js';
import { aikenBank, bigPaste, importBank, lanes, newWorkspace, stalledUpload, until, type Stalled } from './upload-lanes.js';

const { startHall } = hallProcessSuite('lanes');
const oneLine = 'Which is the largest?\nA. one\nB. two\nC. three\nD. four\nANSWER: D\n';

describe('upload lanes, quota and abandoned uploads (real server process, exam in progress)', () => {
  it('a 9.5 MB paste from A holds the main lane and A tries to fill its queue: one-line Aiken imports from B and from A still complete (201)', async () => {
    // LANES_CAP=100 measures the same without the exam's cap (docs/reliability.md, finding 8)
    const cap = process.env.LANES_CAP ?? '10';
    const hall = await startHall('small-lane', { CBT_JOB_CPU_PERCENT_IN_EXAM: cap });
    const a = { apiKey: hall.apiKey, workspaceId: hall.workspaceId, examId: hall.examId };
    const b = await newWorkspace(hall.server.baseUrl, 2);
    const base = hall.server.baseUrl;
    const idle = await importBank(base, b, oneLine);
    expect(idle.status, JSON.stringify(idle.body)).toBe(201);
    const gone = new AbortController();
    const big = importBank(base, a, bigPaste(), gone.signal).catch((e: Error) => e);
    await until(() => lanes(base), (l) => l?.main.running === 1, 15_000);
    const stalled: Stalled[] = [];
    try {
      for (let i = 0; i < 4; i++) stalled.push(await stalledUpload(base, a));
      const fromB = await importBank(base, b, oneLine);
      const fromA = await importBank(base, a, oneLine);
      console.log(`one-line Aiken import during an exam (cap ${cap} %): idle ${idle.ms.toFixed(0)} ms; while A's 9.5 MB paste runs: from B ${fromB.ms.toFixed(0)} ms, from A ${fromA.ms.toFixed(0)} ms`);
      expect(fromB.status, JSON.stringify(fromB.body)).toBe(201);
      expect(fromB.body.created).toBe(1);
      expect(fromA.status, JSON.stringify(fromA.body)).toBe(201);
      // A's surplus: one waits (its quota: one read, one waiting), the rest are refused with the quota's problem
      const answers = await until(() => stalled.map((s) => s.answer()), (v) => v.filter(Boolean).length >= 3);
      const refused = answers.filter((x) => x?.status === 429);
      expect(refused.length, JSON.stringify(answers)).toBe(3);
      for (const r of refused) {
        expect(r!.text).toMatch(/retry-after: 5/i);
        expect(r!.text).toMatch(/"code":"UPLOAD_QUOTA"/);
        expect(r!.text).toMatch(/at most 2 at a time per workspace/);
      }
    } finally {
      for (const s of stalled) s.socket.destroy();
      gone.abort();
      await big;
    }
  }, 120_000);

  it('a workspace over its quota in a lane gets 429 UPLOAD_QUOTA while another workspace’s upload in that lane is admitted and completes', async () => {
    const hall = await startHall('quota');
    const base = hall.server.baseUrl;
    const a = { apiKey: hall.apiKey, workspaceId: hall.workspaceId, examId: hall.examId };
    const b = await newWorkspace(base, 2);
    const reading = await stalledUpload(base, a);
    await until(() => lanes(base), (l) => l?.main.running === 1);
    const waiting = await stalledUpload(base, a);
    const third = await stalledUpload(base, a);
    const refused = await until(() => third.answer(), (x) => x !== null);
    expect(refused?.status, refused?.text).toBe(429);
    expect(refused!.text).toMatch(/"code":"UPLOAD_QUOTA"/);
    expect(refused!.text).toMatch(/"quota":2/);
    expect(refused!.text).toMatch(/retry-after: 5/i);
    // B's bank of ~330 KB (over the small lane's 256 KB: the main lane) waits and is read once A's go
    const fromB = importBank(base, b, aikenBank(3000));
    await until(() => lanes(base), (l) => l?.main.waiting === 2);
    expect(waiting.answer()).toBeNull();
    reading.socket.destroy();
    waiting.socket.destroy();
    third.socket.destroy();
    const done = await fromB;
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(400); // read and parsed: more than 2,000 questions
    expect(String(done.body.detail)).toMatch(/at most 2000/);
  }, 120_000);

  it('an upload whose client goes away — while waiting, mid-body while read, while its job runs — gives its place back at once', async () => {
    const hall = await startHall('abandon');
    const base = hall.server.baseUrl;
    const ws = [{ apiKey: hall.apiKey, workspaceId: hall.workspaceId, examId: hall.examId }];
    for (let i = 2; i <= 6; i++) ws.push(await newWorkspace(base, i));
    const reading = await stalledUpload(base, ws[0]!);
    await until(() => lanes(base), (l) => l?.main.running === 1);
    const queued: Stalled[] = [];
    for (let i = 1; i <= 4; i++) queued.push(await stalledUpload(base, ws[i]!));
    expect(await until(() => lanes(base), (l) => l?.main.waiting === 4)).toMatchObject({ main: { running: 1, waiting: 4 } });
    // the queue is full: a sixth upload is refused
    const full = await stalledUpload(base, ws[5]!);
    expect((await until(() => full.answer(), (x) => x !== null))?.status).toBe(503);
    full.socket.destroy();
    // one waiting client goes away mid-body: its place is free at once
    queued[0]!.socket.destroy();
    expect(await until(() => lanes(base), (l) => l?.main.waiting === 3)).toMatchObject({ main: { running: 1, waiting: 3 } });
    // so the next upload is admitted, and read once the others go (the one read now goes mid-body)
    const next = importBank(base, ws[5]!, aikenBank(3000));
    await until(() => lanes(base), (l) => l?.main.waiting === 4);
    reading.socket.destroy();
    for (const q of queued.slice(1)) q.socket.destroy();
    const done = await next;
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(400);
    expect(String(done.body.detail)).toMatch(/at most 2000/);
    // a 9.5 MB paste whose job runs (at 10 %): its client goes away, its job is cancelled and the lane is free
    const gone = new AbortController();
    const big = importBank(base, ws[0]!, bigPaste(), gone.signal).catch((e: Error) => e);
    await until(() => lanes(base), (l) => l?.main.running === 1, 15_000);
    await new Promise((r) => setTimeout(r, 1_500)); // its body is in; its job runs
    gone.abort();
    await big;
    expect(await until(() => lanes(base), (l) => l?.main.running === 0)).toMatchObject({ main: { running: 0, waiting: 0 } });
    const after = await importBank(base, ws[1]!, aikenBank(3000));
    expect(after.status).toBe(400);
  }, 180_000);
});
