/**
 * Exams that only open in Safe Exam Browser (issue 25), through the real HTTP server:
 * the exam's SEB settings and .seb file, and the check of every candidate request
 * (start, poll, saves, telemetry, submit) by X-SafeExamBrowser-ConfigKeyHash computed per
 * request URL as SEB computes it, by a Browser Exam Key, or by the JavaScript API's value
 * for the candidate page; a failed check mid-exam keeps the answers, locks the attempt,
 * and the invigilator's reinstate reopens it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { configKey } from '../../src/core/seb/config-key.js';
import { readSebFile } from '../../src/core/seb/config-file.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';

const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
/** The header SEB adds to a request of `url` when its configuration has Config Key `key`. */
const ck = (url: string, key: string) => ({ 'x-safeexambrowser-configkeyhash': sha(url + key) });

let s: TestServer;
let ws: { id: string; apiKey: string };
let exam: { id: string; accessCode: string; safeExamBrowser: { configKey: string; startUrl: string; configUrl: string; sebUrl: string; required: boolean } };
let other: typeof exam;
let qs: { id: string; options: { id: string }[] }[];

beforeAll(async () => {
  // every candidate here starts from this one loopback address, as no hall does: the one-attempt-per-computer rule of open rooms is off (it has its own tests, test/security/open-room.test.ts)
  s = await startTestServer({ config: { CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
  ws = await registerWorkspace(s.baseUrl);
  exam = (await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } })) as never;
  other = (await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } })) as never;
  qs = (await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, sampleMcqs(3))) as never;
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, other.id, sampleMcqs(1));
});
afterAll(() => s.close());

const startBody = (studentId: string) => ({ accessCode: exam.accessCode, studentId, candidateName: `Candidate ${studentId}`, candidatePin: '2468' });
const url = (path: string) => s.baseUrl + path;
const candidate = api('');
async function start(studentId: string) {
  const r = await candidate.post(url('/attempts/start'), startBody(studentId), ck(url('/attempts/start'), exam.safeExamBrowser.configKey));
  expect(r.status).toBe(200);
  return r.body as { attemptId: string; questions: { id: string; options: { id: string }[] }[] };
}

describe('the exam’s Safe Exam Browser settings', () => {
  it('carries requireSafeExamBrowser and safeExamBrowser {required, configKey, startUrl} on create and read', async () => {
    expect(exam.safeExamBrowser.required).toBe(true);
    expect(exam.safeExamBrowser.configKey).toMatch(/^[0-9a-f]{64}$/);
    expect(exam.safeExamBrowser.startUrl).toBe(`${s.baseUrl}/?room=${exam.accessCode}`);
    // issue #34 finding 6: the link carries the exam's download code (the room code alone no longer gets the file)
    expect(exam.safeExamBrowser.sebUrl).toMatch(new RegExp(`^seb://${new URL(s.baseUrl).host}/rooms/${exam.accessCode}/safe-exam-browser/[A-Z2-9]{10}\\.seb$`));
    const read = await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}`);
    expect(read.body.requireSafeExamBrowser).toBe(true);
    expect(read.body.safeExamBrowser.configKey).toBe(exam.safeExamBrowser.configKey);
    const plain = await createExam(s.baseUrl, ws.apiKey, ws.id);
    expect(plain.requireSafeExamBrowser).toBe(false);
    expect(plain.safeExamBrowser).toMatchObject({ required: false, configKey: null, startUrl: null });
  });

  it('serves the .seb file (API key, and keyless behind the download code) whose Config Key is the exam’s', async () => {
    const a = await fetch(url(`/exams/${exam.id}/safe-exam-browser.seb`), { headers: { 'x-api-key': ws.apiKey } });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/seb');
    const bytes = Buffer.from(await a.arrayBuffer());
    expect(configKey(readSebFile(bytes))).toBe(exam.safeExamBrowser.configKey);
    const b = await fetch(exam.safeExamBrowser.configUrl);
    expect(Buffer.from(await b.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(url(`/exams/${exam.id}/safe-exam-browser.seb`))).status).toBe(401);
    const details = await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/safe-exam-browser`);
    expect(details.body.quitPassword).toMatch(/^[A-Z2-9]{10}$/);
    expect(readSebFile(bytes).hashedQuitPassword).toBe(sha(details.body.quitPassword));
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await api(s.baseUrl).get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/exams/{id}/safe-exam-browser.seb', '/rooms/{code}/safe-exam-browser/{file}', '/rooms/{code}/safe-exam-browser']));
    expect(Object.keys(doc.components.schemas.CreateExam.properties)).toContain('requireSafeExamBrowser');
    expect(Object.keys(doc.components.schemas.PatchExam.properties)).toContain('requireSafeExamBrowser');
    expect(Object.keys(doc.components.schemas.Exam.properties)).toEqual(expect.arrayContaining(['requireSafeExamBrowser', 'safeExamBrowser']));
  });

  it('answers 404 for an unknown room, and 429 once one address has tried too many unknown rooms', async () => {
    const t = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 3 } });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${t.baseUrl}/rooms/NOPE${i}X/safe-exam-browser`)).status);
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('refuses a bad Browser Exam Key with 400 and changes nothing', async () => {
    const r = await api(s.baseUrl, ws.apiKey).patch(`/exams/${exam.id}`, { safeExamBrowser: { browserExamKeys: ['not-hex'] } });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect((await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}`)).body.safeExamBrowser.browserExamKeys).toEqual([]);
  });
});

describe('every candidate request is checked', () => {
  it('start: refused without the header, with a hash for another URL, and with another exam’s key; nothing is started', async () => {
    const p = url('/attempts/start');
    for (const headers of [{}, ck(url('/attempts/other'), exam.safeExamBrowser.configKey), ck(p, other.safeExamBrowser.configKey), { 'x-safeexambrowser-configkeyhash': 'zz' }]) {
      const r = await candidate.post(p, startBody('S-REFUSED'), headers);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ type: '/problems/safe-exam-browser-required', title: 'Safe Exam Browser required', code: 'SEB_REQUIRED', locked: false });
      // issue #34 finding 6: no link to the .seb file for a refused browser (the invigilator hands it out)
      expect(r.body.sebUrl).toBeUndefined();
    }
    const n = s.deps.sqlite.prepare("SELECT count(*) AS n FROM attempts WHERE student_id = 'S-REFUSED'").get() as { n: number };
    expect(n.n).toBe(0);
  });

  it('a stale key (the configuration before the quit password changed) is refused', async () => {
    const stale = exam.safeExamBrowser.configKey;
    const e2 = await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e2.id, sampleMcqs(1));
    const before = (e2 as never as typeof exam).safeExamBrowser.configKey;
    const patched = await api(s.baseUrl, ws.apiKey).patch(`/exams/${e2.id}`, { safeExamBrowser: { quitPassword: 'NEW-PASS-77' } });
    expect(patched.body.safeExamBrowser.configKey).not.toBe(before);
    const p = url('/attempts/start');
    const body = { ...startBody('S-STALE'), accessCode: e2.accessCode };
    expect((await candidate.post(p, body, ck(p, before))).status).toBe(403);
    expect((await candidate.post(p, body, ck(p, stale))).status).toBe(403);
    expect((await candidate.post(p, body, ck(p, patched.body.safeExamBrowser.configKey))).status).toBe(200);
  });

  it('with the right hash per URL: start, poll, save, telemetry and submit all pass, and the monitor shows the seat valid', async () => {
    const key = exam.safeExamBrowser.configKey;
    const a = await start('S-OK');
    const poll = `/attempts/${a.attemptId}?questions=0`;
    expect((await candidate.get(url(poll), ck(url(poll), key))).status).toBe(200);
    const q = a.questions[0]!;
    const save = `/attempts/${a.attemptId}/answers/${q.id}`;
    expect((await candidate.put(url(save), { optionId: q.options[0]!.id, seq: 1 }, ck(url(save), key))).status).toBe(200);
    const batch = `/attempts/${a.attemptId}/answers`;
    expect((await candidate.post(url(batch), { answers: [{ questionId: q.id, optionId: q.options[1]!.id, seq: 2 }] }, ck(url(batch), key))).status).toBe(200);
    const tel = `/attempts/${a.attemptId}/telemetry`;
    expect((await candidate.post(url(tel), { type: 'NETWORK_ONLINE', meta: { action: 'x' } }, ck(url(tel), key))).status).toBe(200);
    const mon = await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/monitor`);
    expect(mon.body.attempts.find((x: { attemptId: string }) => x.attemptId === a.attemptId).sebValid).toBe(true);
    const sub = `/attempts/${a.attemptId}/submit`;
    const done = await candidate.post(url(sub), {}, ck(url(sub), key));
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('COMPLETED');
  });

  it('a save without the header mid-exam keeps the answers, stops and locks the attempt; the invigilator reinstates it', async () => {
    const key = exam.safeExamBrowser.configKey;
    const a = await start('S-LOCK');
    const q = a.questions[0]!;
    const save = (path: string) => `/attempts/${a.attemptId}/answers/${path}`;
    expect((await candidate.put(url(save(q.id)), { optionId: q.options[0]!.id, seq: 1 }, ck(url(save(q.id)), key))).status).toBe(200);
    // the same save replayed with a hash computed for another question's URL
    const q2 = a.questions[1]!;
    const bad = await candidate.put(url(save(q2.id)), { optionId: q2.options[0]!.id, seq: 2 }, ck(url(save(q.id)), key));
    expect(bad.status).toBe(403);
    expect(bad.body).toMatchObject({ type: '/problems/safe-exam-browser-required', code: 'SEB_REQUIRED', reason: 'mismatch', locked: true });
    const row = s.deps.sqlite.prepare('SELECT status, lock_reason FROM attempts WHERE id = ?').get(a.attemptId);
    expect(row).toEqual({ status: 'DISQUALIFIED', lock_reason: 'SAFE_EXAM_BROWSER' });
    // the answer saved before is on disk; the refused one was not taken
    const stored = s.deps.sqlite.prepare('SELECT question_id, option_id FROM answers WHERE attempt_id = ?').all(a.attemptId);
    expect(stored).toEqual([{ question_id: q.id, option_id: q.options[0]!.id }]);
    // locked even for SEB itself until the invigilator acts
    const poll = `/attempts/${a.attemptId}`;
    const locked = await candidate.get(url(poll), ck(url(poll), key));
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({ code: 'DISQUALIFIED', lockReason: 'SAFE_EXAM_BROWSER' });
    const mon = await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/monitor`);
    expect(mon.body.attempts.find((x: { attemptId: string }) => x.attemptId === a.attemptId)).toMatchObject({ status: 'DISQUALIFIED', lockReason: 'SAFE_EXAM_BROWSER', sebValid: false });
    const re = await api(s.baseUrl, ws.apiKey).post(`/attempts/${a.attemptId}/reinstate`, { reason: 'SEB restarted with the hall configuration' });
    expect(re.status).toBe(200);
    expect(re.body.lockReason).toBeNull();
    const back = await candidate.get(url(poll), ck(url(poll), key));
    expect(back.status).toBe(200);
    expect(back.body.answers).toEqual([expect.objectContaining({ questionId: q.id, optionId: q.options[0]!.id })]);
    const audit = s.deps.sqlite.prepare("SELECT action FROM audit_log WHERE target_id = ? AND action = 'attempt.reinstate'").all(a.attemptId);
    expect(audit).toHaveLength(1);
  });

  it('telemetry and submit with another exam’s key lock the attempt too', async () => {
    for (const kind of ['telemetry', 'submit'] as const) {
      const a = await start(`S-${kind}`);
      const p = `/attempts/${a.attemptId}/${kind}`;
      const r = await candidate.post(url(p), kind === 'telemetry' ? { type: 'TAB_SWITCH' } : {}, ck(url(p), other.safeExamBrowser.configKey));
      expect(r.status).toBe(403);
      expect(r.body.locked).toBe(true);
    }
  });

  it('accepts a listed Browser Exam Key (X-SafeExamBrowser-RequestHash, with the Config Key) and the JavaScript API’s value for the candidate page', async () => {
    const p = url('/attempts/start');
    const page = `${s.baseUrl}/?room=${exam.accessCode}`;
    const js = { 'x-seb-page-url': `${page}#top`, 'x-seb-config-key-hash': sha(page + exam.safeExamBrowser.configKey) };
    expect((await candidate.post(p, startBody('S-JS'), js)).status).toBe(200);
    // the value for a page of another server does not pass
    const foreign = 'http://evil.example/?room=X';
    expect((await candidate.post(p, startBody('S-JS2'), { 'x-seb-page-url': foreign, 'x-seb-config-key-hash': sha(foreign + exam.safeExamBrowser.configKey) })).status).toBe(403);
    // issue #34 finding 6: a registered Browser Exam Key is required on top of the Config Key
    // ("also require", no longer "also accept"); the exam goes back to the Config Key check after
    const bek = sha('a pinned SEB build');
    await api(s.baseUrl, ws.apiKey).patch(`/exams/${exam.id}`, { safeExamBrowser: { browserExamKeys: [bek.toUpperCase()] } });
    const withCk = (h: Record<string, string>) => ({ ...ck(p, exam.safeExamBrowser.configKey), ...h });
    expect((await candidate.post(p, startBody('S-BEK'), withCk({ 'x-safeexambrowser-requesthash': sha(p + bek) }))).status).toBe(200);
    expect((await candidate.post(p, startBody('S-BEK2'), withCk({ 'x-safeexambrowser-requesthash': sha(p + sha('another build')) }))).status).toBe(403);
    expect((await candidate.post(p, startBody('S-BEK3'), { 'x-safeexambrowser-requesthash': sha(p + bek) })).status).toBe(403);
    await api(s.baseUrl, ws.apiKey).patch(`/exams/${exam.id}`, { safeExamBrowser: { browserExamKeys: [] } });
  });

  it('exams without SEB need no header; the page’s room check says what is required', async () => {
    const plain = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, plain.id, sampleMcqs(1));
    expect((await candidate.post(url('/attempts/start'), { ...startBody('S-PLAIN'), accessCode: plain.accessCode })).status).toBe(200);
    expect((await candidate.get(url(`/rooms/${plain.accessCode}/safe-exam-browser`))).body).toMatchObject({ required: false, verified: true });
    const p = `/rooms/${exam.accessCode}/safe-exam-browser`;
    expect((await candidate.get(url(p))).body).toEqual({ required: true, verified: false, reason: 'missing' });
    expect((await candidate.get(url(p), ck(url(p), exam.safeExamBrowser.configKey))).body.verified).toBe(true);
  });
});

describe('behind a reverse proxy', () => {
  it('hashes the URL the browser used only when the proxy is listed in CBT_TRUSTED_PROXIES', async () => {
    const check = async (trusted: string[]) => {
      const t = await startTestServer({ config: { CBT_TRUSTED_PROXIES: trusted } });
      try {
        const w = await registerWorkspace(t.baseUrl);
        const e = (await createExam(t.baseUrl, w.apiKey, w.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: 'https://exam.example.org' } })) as never as typeof exam;
        expect(e.safeExamBrowser.sebUrl).toMatch(new RegExp(`^sebs://exam\\.example\\.org/rooms/${e.accessCode}/safe-exam-browser/[A-Z2-9]{10}\\.seb$`));
        const path = `/rooms/${e.accessCode}/safe-exam-browser`;
        const r = await fetch(t.baseUrl + path, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'exam.example.org', ...ck(`https://exam.example.org${path}`, e.safeExamBrowser.configKey) } });
        return ((await r.json()) as { verified: boolean }).verified;
      } finally {
        await t.close();
      }
    };
    expect(await check(['127.0.0.1'])).toBe(true);
    expect(await check([])).toBe(false);
  });
});
