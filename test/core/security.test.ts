/**
 * The shared security table (docs/design.md §13): every route the OpenAPI document marks as
 * key-protected answers 401 without a key and with a wrong key, and 404 when another
 * workspace's key names this workspace's objects — exactly as if they did not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let owner: Awaited<ReturnType<typeof registerWorkspace>>;
let intruder: Awaited<ReturnType<typeof registerWorkspace>>;
const ids: Record<string, string> = {};
let routes: { method: string; path: string; multipart: boolean; operator: boolean }[] = [];

beforeAll(async () => {
  s = await startTestServer();
  owner = await registerWorkspace(s.baseUrl);
  intruder = await registerWorkspace(s.baseUrl);
  const e = await createExam(s.baseUrl, owner.apiKey, owner.id);
  const [q] = await addQuestions(s.baseUrl, owner.apiKey, owner.id, e.id, sampleMcqs(2));
  const roster = await api(s.baseUrl, owner.apiKey).post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'SEC-1', candidateName: 'Sec One' }] });
  const a = await startAttempt(s.baseUrl, e.accessCode, 'SEC-1', roster.body.candidates[0].pin);
  await api(s.baseUrl, owner.apiKey).post(`/attempts/${a.attemptId}/force-submit`, { reason: 'set up' });
  const ev = s.deps.sqlite.prepare('SELECT id FROM outbox_events WHERE workspace_id = ?').get(owner.id) as { id: string };
  Object.assign(ids, { exam: e.id, question: q!.id, attempt: a.attemptId, event: ev.id, candidate: roster.body.candidates[0].id });
  const doc = (await api(s.baseUrl).get('/openapi.json')).body;
  for (const [path, ops] of Object.entries<Record<string, { security?: unknown[]; requestBody?: { content?: Record<string, unknown> } }>>(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // operator: whole-appliance routes that take the hall operator's credential, not a workspace key
      const operator = !!op.security?.some((req) => Object.hasOwn(req as object, 'operatorKeyHeader'));
      if (op.security?.length) routes.push({ method: method.toUpperCase(), path, multipart: !!op.requestBody?.content?.['multipart/form-data'], operator });
    }
  }
});
afterAll(() => s.close());

/** A concrete URL for a templated path, filled with the owner's objects. */
function concrete(path: string): string {
  const idFor = path.startsWith('/system/workspaces') ? owner.id : path.startsWith('/exams') ? ids.exam : path.startsWith('/questions') ? ids.question : path.startsWith('/attempts') ? ids.attempt : path.startsWith('/webhooks') ? ids.event : 'x';
  return path.replace('{id}', idFor!).replace('{candidateId}', ids.candidate!).replace('{questionId}', ids.question!);
}

/** A body that passes validation, so that what answers is the tenancy check. */
function bodyFor(method: string, path: string): unknown {
  if (path.endsWith('/pause') || path.endsWith('/resume') || path.endsWith('/reinstate') || path.endsWith('/force-submit')) return { reason: 'security table' };
  if (path.endsWith('/extend')) return { minutes: 5, reason: 'security table' };
  if (path.endsWith('/sign-in-throttle/clear')) return { studentId: 'SEC-1', reason: 'security table' };
  if (path.endsWith('/seats/allow')) return { address: '127.0.0.9', reason: 'security table' };
  if (path.endsWith('/release')) return { releaseCode: 'ABC-DEF-GHJ-KMN-PQR-STV-WXY' };
  if (path.endsWith('/credits')) return { add: 5, note: 'security table' };
  if (path.endsWith('/essay-review/{questionId}/approve')) return { approvals: [{ attemptId: 'att_securitytable', score: 1 }], reason: 'security table' };
  if (path.endsWith('/roster')) return { candidates: [{ studentId: 'X', candidateName: 'X' }] };
  if (path.endsWith('/questions/reorder')) return { questionIds: [ids.question] };
  if (path === '/questions/bulk') return { workspaceId: owner.id, examId: ids.exam, questions: sampleMcqs(1) };
  if (path === '/exams' && method === 'POST') return { workspaceId: owner.id, title: 'x', durationMins: 5 };
  if (path.startsWith('/questions/') && method === 'PATCH') return { marks: 2 };
  if (path.startsWith('/exams/') && method === 'PATCH') return { title: 'renamed' };
  return method === 'GET' || method === 'DELETE' ? undefined : {};
}

describe('security table', () => {
  it('covers the protected routes', () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  it('answers 401 without a key and with a wrong key on every protected route', async () => {
    for (const r of routes) {
      const url = concrete(r.path) + (r.path === '/exams' && r.method === 'GET' ? `?workspaceId=${owner.id}` : '');
      for (const key of [undefined, 'cbt_notARealKeyAtAllnotARealKeyAtAll00']) {
        const res = await fetch(s.baseUrl + url, { method: r.method, headers: key ? { 'x-api-key': key, 'content-type': 'application/json' } : { 'content-type': 'application/json' }, body: r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}' });
        expect(res.status, `${r.method} ${r.path} with key=${key}`).toBe(401);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
    }
  });

  it('answers 404 to another workspace for every object-scoped route', async () => {
    const k = api(s.baseUrl, intruder.apiKey);
    let checked = 0;
    for (const r of routes) {
      if (r.multipart || r.operator) continue; // operator routes: 403 to any workspace key (below)
      const scoped = r.path.includes('{') || r.path === '/questions/bulk' || r.path === '/exams';
      if (!scoped) continue;
      const url = concrete(r.path) + (r.path === '/exams' && r.method === 'GET' ? `?workspaceId=${owner.id}` : '');
      const body = bodyFor(r.method, r.path);
      const res = r.method === 'GET' ? await k.get(url) : r.method === 'DELETE' ? await k.del(url) : r.method === 'PATCH' ? await k.patch(url, body) : r.method === 'PUT' ? await k.put(url, body) : await k.post(url, body);
      expect(res.status, `${r.method} ${r.path}: ${JSON.stringify(res.body)}`).toBe(404);
      checked++;
    }
    expect(checked).toBeGreaterThan(18);
    // and nothing of the owner's changed
    const mine = await api(s.baseUrl, owner.apiKey).get(`/exams/${ids.exam}`);
    expect(mine.body.title).toBe('Test exam');
    expect(mine.body.questions).toHaveLength(2);
  });

  it('answers 403 to a workspace key on every hall-operator route, changing nothing', async () => {
    const operatorRoutes = routes.filter((r) => r.operator);
    expect(operatorRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /system/workspaces', 'POST /system/workspaces/{id}/credits', 'POST /system/backups']));
    for (const key of [owner.apiKey, intruder.apiKey]) {
      const k = api(s.baseUrl, key);
      for (const r of operatorRoutes) {
        const body = bodyFor(r.method, r.path);
        const res = r.method === 'GET' ? await k.get(concrete(r.path)) : r.method === 'DELETE' ? await k.del(concrete(r.path)) : await k.post(concrete(r.path), body);
        expect(res.status, `${r.method} ${r.path}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
    }
    expect((await api(s.baseUrl, owner.apiKey).get('/workspaces/me')).body.credits).toBe(29);
  });
});
