/**
 * Crash test (issue 3): the real server as a child process, answers saved, a flush
 * awaited, more answers, then SIGKILL and a restart on the same data directory.
 * Every answer at or below the acknowledged durableSeq must be there, the completed
 * attempt's webhook must still be delivered, and the in-progress attempt must get the
 * downtime credited.
 */
import { describe, expect, it } from 'vitest';
import { api, spawnServer, startReceiver, tempDir, waitFor } from '../harness.js';

describe('kill -9 and restart', () => {
  it('loses nothing acknowledged as durable, delivers the queued webhook, credits the downtime', async () => {
    let receiverUp = false;
    const receiver = await startReceiver(() => (receiverUp ? 200 : 503));
    const dataDir = tempDir();
    // two candidates start from this one loopback address, as no hall does: the open room's one-attempt-per-computer rule is off (it has its own tests, test/security/open-room.test.ts)
    const env = { CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' };
    let server = await spawnServer({ dataDir, env });
    try {
      const reg = await api(server.baseUrl).post('/workspaces/standalone', { name: 'Crash hall', ownerName: 'O', email: 'crash@example.com', webhookUrl: receiver.url });
      const key = reg.body.apiKey as string;
      const ex = await api(server.baseUrl, key).post('/exams', { workspaceId: reg.body.id, title: 'Crash', durationMins: 60 });
      const questions = Array.from({ length: 20 }, (_, i) => ({ prompt: `Q${i}`, type: 'MCQ', marks: 1, options: [{ text: 'right', isCorrect: true }, { text: 'wrong', isCorrect: false }] }));
      await api(server.baseUrl, key).post('/questions/bulk', { workspaceId: reg.body.id, examId: ex.body.id, questions });
      const start = (id: string) => api(server.baseUrl).post('/attempts/start', { accessCode: ex.body.accessCode, studentId: id, candidateName: id, candidatePin: '4321' });
      const live = (await start('LIVE')).body;
      const done = (await start('DONE')).body;
      // DONE submits while the receiver is down: its event waits in the outbox
      await api(server.baseUrl).post(`/attempts/${done.attemptId}/submit`, { answers: [{ questionId: done.questions[0].id, optionId: done.questions[0].options[0].id }] });

      // LIVE saves 10 answers, waits until they are durable, then saves 10 more
      const given = new Map<number, { questionId: string; optionId: string }>();
      let seq = 0;
      for (const q of live.questions.slice(0, 10)) {
        given.set(++seq, { questionId: q.id, optionId: q.options[seq % 2].id });
        await api(server.baseUrl).put(`/attempts/${live.attemptId}/answers/${q.id}`, { optionId: q.options[seq % 2].id, seq });
      }
      const durable = await waitFor(async () => {
        const r = await api(server.baseUrl).get(`/attempts/${live.attemptId}`);
        return r.body.durableSeq >= 10 ? r.body : null;
      });
      let acknowledged = durable.durableSeq as number;
      let before = durable.remainingSeconds as number;
      for (const q of live.questions.slice(10)) {
        given.set(++seq, { questionId: q.id, optionId: q.options[seq % 2].id });
        const r = await api(server.baseUrl).put(`/attempts/${live.attemptId}/answers/${q.id}`, { optionId: q.options[seq % 2].id, seq });
        acknowledged = Math.max(acknowledged, r.body.durableSeq);
        before = r.body.remainingSeconds;
      }
      await server.kill();
      await new Promise((r) => setTimeout(r, 8000)); // the power is out for 8 s
      receiverUp = true;
      server = await spawnServer({ dataDir, env });

      const after = await api(server.baseUrl).get(`/attempts/${live.attemptId}`);
      expect(after.status).toBe(200);
      expect(after.body.status).toBe('IN_PROGRESS');
      const saved = new Map(after.body.answers.map((a: { seq: number; questionId: string; optionId: string }) => [a.questionId, a]));
      for (const [s, a] of given) {
        if (s <= acknowledged) expect(saved.get(a.questionId), `answer seq ${s}`).toMatchObject({ optionId: a.optionId, seq: s });
      }
      expect(after.body.durableSeq).toBeGreaterThanOrEqual(acknowledged);
      // downtime credited: without it the candidate would have lost 8+ s
      expect(after.body.remainingSeconds).toBeGreaterThanOrEqual(before - 4);
      // the completed attempt's event is delivered after the restart, exactly once
      await waitFor(() => receiver.received.length >= 1, 15_000);
      const ev = JSON.parse(receiver.received[0]!.body);
      expect(ev.data.attemptId).toBe(done.attemptId);
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await server.stop();
      await receiver.close();
    }
  }, 90_000);
});
