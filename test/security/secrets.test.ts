/**
 * Secrets at rest and in logs (issue 9, part 4; docs/design.md §4): a whole exam runs on the
 * real server process — a workspace with a password, a rotated webhook secret, a
 * rostered exam with server-issued PINs (one re-issued), a candidate-chosen PIN, answers,
 * submits, delivered webhooks and an online backup — and then every file in the data
 * directory (the database, its -wal and -shm, the backups) and everything the server
 * printed on stdout/stderr are searched for the API key, the webhook secrets, the
 * password and the PINs in plaintext. None may appear. The installation key file
 * (secret.key, mode 0600) is the one file skipped: it is the key that seals the others.
 *
 * Positive controls prove the search looks at the right bytes: the candidates' names and
 * the essay text are found in the same files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, spawnServer, startReceiver, waitFor, type SpawnedServer } from '../harness.js';

/** Every regular file under `dir`, except the installation key. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return filesUnder(p);
    return n === 'secret.key' ? [] : [p];
  });
}

/** Where `needle` occurs; digit-only needles (PINs) must not touch other digits to count. */
function findIn(haystack: Buffer | string, needle: string): number {
  const text = typeof haystack === 'string' ? haystack : haystack.toString('latin1');
  const n = typeof haystack === 'string' ? needle : Buffer.from(needle, 'utf8').toString('latin1');
  if (!/^\d+$/.test(needle)) return text.split(n).length - 1;
  return (text.match(new RegExp(`(?<!\\d)${n}(?!\\d)`, 'g')) ?? []).length;
}

let server: SpawnedServer | null = null;
afterAll(async () => {
  await server?.stop();
});

describe('secrets in plaintext', () => {
  it('are absent from the database files, the backups and the logs after a whole exam', async () => {
    const receiver = await startReceiver();
    server = await spawnServer({ env: { CBT_FLUSH_INTERVAL_MS: '200' } });
    const s = server;
    const email = `secrets-${Date.now()}@example.com`;
    const reg = await api(s.baseUrl).post('/workspaces/standalone', { name: 'Secret Hall', ownerName: 'Owner', email, webhookUrl: receiver.url });
    expect(reg.status).toBe(201);
    const apiKey = reg.body.apiKey as string;
    const k = api(s.baseUrl, apiKey);
    const secrets: Record<string, string> = { apiKey, webhookSecret: reg.body.webhookSecret };

    const password = 'Zebra-Quartz-Lantern-8841';
    expect((await k.put('/workspaces/me/password', { password })).status).toBe(200);
    expect((await api(s.baseUrl).post('/workspaces/login', { email, password })).status).toBe(200);
    expect((await api(s.baseUrl).post('/workspaces/login', { email, password: `${password}-wrong` })).status).toBe(401);
    secrets.password = password;
    const rotated = await k.post('/workspaces/me/webhook-secret');
    expect(rotated.status).toBe(200);
    secrets.rotatedWebhookSecret = rotated.body.webhookSecret;

    // a rostered exam: server-issued PINs, one re-issued
    const exam = (await k.post('/exams', { workspaceId: reg.body.id, title: 'Sealed PINs', durationMins: 30 })).body;
    const questions = [
      { prompt: 'Two plus two?', type: 'MCQ', marks: 1, options: [{ text: '4', isCorrect: true }, { text: '5', isCorrect: false }] },
      { prompt: 'Explain osmosis.', type: 'SHORT_ESSAY', marks: 5 },
    ];
    const qs = (await k.post('/questions/bulk', { workspaceId: reg.body.id, examId: exam.id, questions })).body.questions;
    const roster = await k.post(`/exams/${exam.id}/roster`, { candidates: [1, 2, 3].map((i) => ({ studentId: `SEC-${i}`, candidateName: `Adaeze Okonkwo-${i}` })) });
    expect(roster.status).toBe(201);
    const entries = roster.body.candidates as { id: string; studentId: string; pin: string }[];
    const reissued = await k.post(`/exams/${exam.id}/roster/${entries[2]!.id}/pin`);
    secrets.oldPin3 = entries[2]!.pin;
    entries[2]!.pin = reissued.body.pin;
    entries.forEach((e, i) => (secrets[`rosterPin${i + 1}`] = e.pin));
    for (const e of entries) {
      const st = await api(s.baseUrl).post('/attempts/start', { accessCode: exam.accessCode, studentId: e.studentId, candidateName: 'x', candidatePin: e.pin });
      expect(st.status).toBe(200);
      await api(s.baseUrl).put(`/attempts/${st.body.attemptId}/answers/${qs[0].id}`, { optionId: qs[0].options[0].id });
      await api(s.baseUrl).put(`/attempts/${st.body.attemptId}/answers/${qs[1].id}`, { text: `Osmosis moves water across a membrane, wrote ${e.studentId}.` });
      expect((await api(s.baseUrl).post(`/attempts/${st.body.attemptId}/submit`, {})).status).toBe(200);
    }

    // an exam without a roster: the candidate chooses the PIN
    const open = (await k.post('/exams', { workspaceId: reg.body.id, title: 'Chosen PIN', durationMins: 30 })).body;
    await k.post('/questions/bulk', { workspaceId: reg.body.id, examId: open.id, questions: questions.slice(0, 1) });
    secrets.chosenPin = '90817263';
    const own = await api(s.baseUrl).post('/attempts/start', { accessCode: open.accessCode, studentId: 'SEC-OWN', candidateName: 'Chidi Own-Pin', candidatePin: secrets.chosenPin });
    expect(own.status).toBe(200);
    expect((await api(s.baseUrl).post('/attempts/start', { accessCode: open.accessCode, studentId: 'SEC-OWN', candidateName: 'Chidi Own-Pin', candidatePin: '11112222' })).status).toBe(401);
    expect((await api(s.baseUrl).post(`/attempts/${own.body.attemptId}/submit`, {})).status).toBe(200);

    await waitFor(() => receiver.received.length >= 4, 20_000);
    // backups are the hall operator's: its credential was shown once in the banner of this
    // fresh start (by design), and must be nowhere in the data directory
    const operator = /(cbtop_[0-9A-Za-z]{40})/.exec(s.logs.join(''))![1]!;
    expect((await k.post('/system/backups')).status).toBe(403);
    expect((await api(s.baseUrl).post('/system/backups', {}, { 'x-operator-key': operator })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 600)); // a flush and a heartbeat

    const scan = (label: string) => {
      const files = filesUnder(s.dataDir);
      expect(files.some((f) => f.endsWith('.sqlite-wal')), `${label}: the WAL is searched too`).toBe(label === 'running');
      const hits: string[] = [];
      const contents = files.map((f) => [f, readFileSync(f)] as const);
      for (const [name, value] of Object.entries(secrets)) {
        for (const [f, bytes] of contents) if (findIn(bytes, value)) hits.push(`${name} in ${f.slice(s.dataDir.length)}`);
        if (findIn(s.logs.join(''), value)) hits.push(`${name} in the server log`);
      }
      for (const [f, bytes] of contents) if (findIn(bytes, operator)) hits.push(`operator credential in ${f.slice(s.dataDir.length)}`);
      // positive controls: the same search finds ordinary data in the same files
      expect(contents.some(([, b]) => findIn(b, 'Adaeze Okonkwo-1') > 0), `${label}: candidate name found`).toBe(true);
      expect(contents.some(([, b]) => findIn(b, 'wrote SEC-2.') > 0), `${label}: essay text found`).toBe(true);
      expect(files.some((f) => f.includes('backups')), `${label}: a backup is searched`).toBe(true);
      return hits;
    };
    expect(scan('running')).toEqual([]);
    await s.stop(); // graceful: checkpoints the WAL into the main file
    server = null;
    expect(scan('stopped')).toEqual([]);
    expect(s.logs.join('').length).toBeGreaterThan(1000);
    await receiver.close();
  }, 90_000);
});
