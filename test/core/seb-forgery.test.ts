/**
 * Issue #34, finding 6: Safe Exam Browser can be forged. Through the real HTTP server:
 * - the .seb file is not given out for the room code alone (the Config Key is computable
 *   from it, so whoever has the file can answer the Config Key check); the admin (API key)
 *   and the per-exam download code in the seb:// link get it;
 * - an exam with registered Browser Exam Keys requires X-SafeExamBrowser-RequestHash =
 *   SHA-256(absolute URL + BEK) for one of them on every candidate request;
 * - the monitor tells a Config-Key-only seat from a BEK-verified one;
 * - the JavaScript API's value is what docs/operations.md §12 says it is: one value per
 *   page URL (replayable), good for the Config check only, never for the BEK check;
 * - the BEK values a centre registers can be confirmed against what its seats sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addQuestions, api, createExam, registerWorkspace, ROOT, sampleMcqs, startTestServer, type TestServer } from '../harness.js';

const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
const ckHeader = (url: string, key: string) => ({ 'x-safeexambrowser-configkeyhash': sha(url + key) });
const bekHeader = (url: string, bek: string) => ({ 'x-safeexambrowser-requesthash': sha(url + bek) });

type SebShape = { configKey: string; configUrl: string; sebUrl: string; startUrl: string };
type SebExam = { id: string; accessCode: string; safeExamBrowser: SebShape };

let s: TestServer;
let ws: { id: string; apiKey: string };
let exam: SebExam;
const BEK_WIN = sha('SEB_Windows_3.9.0 x64 + this configuration');
const BEK_MAC = sha('SEB_macOS_3.5 + this configuration');

beforeAll(async () => {
  // every candidate here starts from this one loopback address, as no hall does: the one-attempt-per-computer rule of open rooms is off (it has its own tests, test/security/open-room.test.ts)
  s = await startTestServer({ config: { CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
  ws = await registerWorkspace(s.baseUrl);
  exam = (await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } })) as never;
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, sampleMcqs(2));
});
afterAll(() => s.close());

const url = (path: string) => s.baseUrl + path;
const candidate = api('');
const startBody = (e: SebExam, studentId: string) => ({ accessCode: e.accessCode, studentId, candidateName: `Candidate ${studentId}`, candidatePin: '2468' });

async function bekExam(keys: string[]): Promise<SebExam> {
  const e = (await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl, browserExamKeys: keys } })) as never as SebExam;
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
  return e;
}

describe('who gets the .seb file', () => {
  it('refuses it for the room code alone (the old keyless URL) and for a wrong download code', async () => {
    const roomOnly = await fetch(url(`/rooms/${exam.accessCode}/safe-exam-browser.seb`));
    expect([401, 404]).toContain(roomOnly.status);
    expect(roomOnly.headers.get('content-type')).not.toBe('application/seb');
    const wrong = await fetch(url(`/rooms/${exam.accessCode}/safe-exam-browser/ABCDEFGHJK.seb`));
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get('content-type')).toContain('application/problem+json');
  });

  it('serves it with the API key and with the download code of the seb:// link', async () => {
    const admin = await fetch(url(`/exams/${exam.id}/safe-exam-browser.seb`), { headers: { 'x-api-key': ws.apiKey } });
    expect(admin.status).toBe(200);
    const bytes = Buffer.from(await admin.arrayBuffer());
    const details = (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/safe-exam-browser`)).body;
    expect(details.downloadCode).toMatch(/^[A-Z2-9]{10}$/);
    expect(exam.safeExamBrowser.configUrl).toBe(url(`/rooms/${exam.accessCode}/safe-exam-browser/${details.downloadCode}.seb`));
    expect(exam.safeExamBrowser.sebUrl).toBe(exam.safeExamBrowser.configUrl.replace(/^http:/, 'seb:'));
    const byCode = await fetch(exam.safeExamBrowser.configUrl);
    expect(byCode.status).toBe(200);
    expect(byCode.headers.get('content-type')).toBe('application/seb');
    expect(Buffer.from(await byCode.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('never shows the download code to a candidate (refusal problem, room check)', async () => {
    const details = (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/safe-exam-browser`)).body;
    expect(details.downloadCode).toMatch(/^[A-Z2-9]{10}$/);
    const refused = await candidate.post(url('/attempts/start'), startBody(exam, 'S-NOCODE'));
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(details.downloadCode);
    const check = await candidate.get(url(`/rooms/${exam.accessCode}/safe-exam-browser`));
    expect(check.status).toBe(200);
    expect(JSON.stringify(check.body)).not.toContain(details.downloadCode);
  });

  it('changes the download code when the quit password changes (revoking a leaked link)', async () => {
    const e = (await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } })) as never as SebExam;
    const before = e.safeExamBrowser.configUrl;
    const after = (await api(s.baseUrl, ws.apiKey).patch(`/exams/${e.id}`, { safeExamBrowser: { quitPassword: 'ROTATE-123' } })).body.safeExamBrowser.configUrl;
    expect(after).not.toBe(before);
    expect((await fetch(before)).status).toBe(404);
    expect((await fetch(after)).status).toBe(200);
  });
});

describe('an exam with registered Browser Exam Keys', () => {
  it('refuses the Config Key alone, a RequestHash from an unregistered build, and one for another URL; accepts a registered key’s', async () => {
    const e = await bekExam([BEK_WIN, BEK_MAC.toUpperCase()]);
    const p = url('/attempts/start');
    const ck = ckHeader(p, e.safeExamBrowser.configKey);
    // the forgery of finding 6: the Config Key computed from the .seb file, per request
    const forged = await candidate.post(p, startBody(e, 'S-FORGED'), ck);
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'SEB_REQUIRED', reason: 'bek-missing', locked: false });
    const other = await candidate.post(p, startBody(e, 'S-OTHERBUILD'), { ...ck, ...bekHeader(p, sha('a patched SEB build')) });
    expect(other.status).toBe(403);
    expect(other.body.reason).toBe('bek-mismatch');
    const elsewhere = await candidate.post(p, startBody(e, 'S-ELSEWHERE'), { ...ck, ...bekHeader(url('/attempts/other'), BEK_WIN) });
    expect(elsewhere.status).toBe(403);
    const n = s.deps.sqlite.prepare("SELECT count(*) AS n FROM attempts WHERE student_id IN ('S-FORGED','S-OTHERBUILD','S-ELSEWHERE')").get() as { n: number };
    expect(n.n).toBe(0);
    for (const [id, bek] of [['S-WIN', BEK_WIN], ['S-MAC', BEK_MAC]] as const) {
      const ok = await candidate.post(p, startBody(e, id), { ...ck, ...bekHeader(p, bek) });
      expect(ok.status).toBe(200);
    }
  });

  it('locks a running attempt whose save carries only the Config Key', async () => {
    const e = await bekExam([BEK_WIN]);
    const p = url('/attempts/start');
    const a = (await candidate.post(p, startBody(e, 'S-MID'), { ...ckHeader(p, e.safeExamBrowser.configKey), ...bekHeader(p, BEK_WIN) })).body;
    const q = a.questions[0];
    const save = url(`/attempts/${a.attemptId}/answers/${q.id}`);
    const ok = await candidate.put(save, { optionId: q.options[0].id, seq: 1 }, { ...ckHeader(save, e.safeExamBrowser.configKey), ...bekHeader(save, BEK_WIN) });
    expect(ok.status).toBe(200);
    const forged = await candidate.put(save, { optionId: q.options[1].id, seq: 2 }, ckHeader(save, e.safeExamBrowser.configKey));
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ reason: 'bek-missing', locked: true });
  });
});

describe('the monitor', () => {
  it('shows the Config check and the BEK check separately', async () => {
    const plainSeb = await bekExam([]);
    const withBek = await bekExam([BEK_WIN]);
    const p = url('/attempts/start');
    await candidate.post(p, startBody(plainSeb, 'S-CKONLY'), ckHeader(p, plainSeb.safeExamBrowser.configKey));
    await candidate.post(p, startBody(withBek, 'S-BEKOK'), { ...ckHeader(p, withBek.safeExamBrowser.configKey), ...bekHeader(p, BEK_WIN) });
    const mon = async (e: SebExam, studentId: string) => (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`)).body.attempts.find((x: { studentId: string }) => x.studentId === studentId);
    expect(await mon(plainSeb, 'S-CKONLY')).toMatchObject({ sebValid: true, sebCheck: { configKey: 'ok', browserExamKey: 'not-checked', evidence: 'request' } });
    expect(await mon(withBek, 'S-BEKOK')).toMatchObject({ sebValid: true, sebCheck: { configKey: 'ok', browserExamKey: 'ok', evidence: 'request' } });
  });
});

describe('the JavaScript API value (docs/operations.md §12, docs/decisions.md)', () => {
  it('is one value per page URL: accepted unchanged on every request for the Config check, marked "page" on the monitor', async () => {
    const e = await bekExam([]);
    const page = url(`/?room=${e.accessCode}`);
    const js = { 'x-seb-page-url': page, 'x-seb-config-key-hash': sha(page + e.safeExamBrowser.configKey) };
    const a = (await candidate.post(url('/attempts/start'), startBody(e, 'S-JSAPI'), js)).body;
    // the very same header value on other URLs: it is not per request, so it is replayable
    expect((await candidate.get(url(`/attempts/${a.attemptId}?questions=0`), js)).status).toBe(200);
    const q = a.questions[0];
    expect((await candidate.put(url(`/attempts/${a.attemptId}/answers/${q.id}`), { optionId: q.options[0].id, seq: 1 }, js)).status).toBe(200);
    const row = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`)).body.attempts.find((x: { studentId: string }) => x.studentId === 'S-JSAPI');
    expect(row.sebCheck).toMatchObject({ configKey: 'ok', browserExamKey: 'not-checked', evidence: 'page' });
  });

  it('never counts as the BEK check: a page value computed from a registered BEK is refused', async () => {
    const e = await bekExam([BEK_WIN]);
    const page = url(`/?room=${e.accessCode}`);
    const js = { 'x-seb-page-url': page, 'x-seb-config-key-hash': sha(page + e.safeExamBrowser.configKey), 'x-seb-browser-exam-key-hash': sha(page + BEK_WIN) };
    const r = await candidate.post(url('/attempts/start'), startBody(e, 'S-JSBEK'), js);
    expect(r.status).toBe(403);
    expect(r.body.reason).toBe('bek-missing');
  });

  it('is described that way in docs/operations.md §12', () => {
    const ops = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    // §12 as plain words: line breaks and Markdown emphasis do not count
    const s12 = ops.slice(ops.indexOf('## 12.'), ops.indexOf('\n## 13.') > 0 ? ops.indexOf('\n## 13.') : undefined).replace(/\*\*/g, '').replace(/\s+/g, ' ');
    expect(s12).toContain('the same value on every request of every seat');
    expect(s12).toContain('never counts for the Browser Exam Key check');
    expect(s12).not.toMatch(/a captured header cannot be replayed/);
  });
});

describe('getting a centre’s Browser Exam Keys', () => {
  it('lists the RequestHash each SEB build sent, and tells which one a registered key explains', async () => {
    const e = await bekExam([]);
    const p = url('/attempts/start');
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) SEB/3.9.0 (x64)';
    const r = await candidate.post(p, startBody(e, 'S-SIGHT'), { ...ckHeader(p, e.safeExamBrowser.configKey), ...bekHeader(p, BEK_WIN), 'user-agent': ua });
    expect(r.status).toBe(200);
    const before = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/safe-exam-browser`)).body.browserExamKeySightings;
    expect(before).toEqual([expect.objectContaining({ client: ua, requestUrl: p, requestHash: sha(p + BEK_WIN), matchesKey: null })]);
    await api(s.baseUrl, ws.apiKey).patch(`/exams/${e.id}`, { safeExamBrowser: { browserExamKeys: [BEK_WIN] } });
    const after = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/safe-exam-browser`)).body.browserExamKeySightings;
    expect(after).toEqual([expect.objectContaining({ client: ua, matchesKey: BEK_WIN })]);
  });
});
