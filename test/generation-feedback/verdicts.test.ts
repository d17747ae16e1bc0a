/**
 * The examiners' keep / edit / discard verdicts on generated questions over real HTTP (issue
 * 39 §2): recorded in a batch (audited), exported as JSON and CSV, summarised, reset
 * (audited, with a confirm), all per workspace; and generation in a workspace is scored
 * with that workspace's model, which another workspace's verdicts never move.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createExam, registerWorkspace, startTestServer, type TestServer } from '../harness.js';

const V = '/api/cbt/ai/generation-verdicts';
const PHOTO = readFileSync(new URL('../fixtures/generation/photosynthesis.md', import.meta.url), 'utf8');
let server: TestServer;
let a: { id: string; apiKey: string };
let b: { id: string; apiKey: string };

beforeAll(async () => {
  server = await startTestServer();
  a = await registerWorkspace(server.baseUrl);
  b = await registerWorkspace(server.baseUrl);
});
afterAll(() => server.close());

const item = (prompt: string, features: Record<string, number> = { stemWords: 9, blankIsStopPhrase: 0 }) => ({
  id: 'q_gen1',
  type: 'MCQ',
  prompt,
  options: [{ text: 'Chlorophyll', isCorrect: true }, { text: 'Melanin', isCorrect: false }],
  quality: { score: 0.8, features },
});

function batch(examId?: string) {
  return {
    engine: 'hallcbt-extractive-1',
    ...(examId ? { examId } : {}),
    examiner: 'Mrs Adeyemi',
    verdicts: [
      { verdict: 'keep', item: item('Which pigment traps light energy?') },
      { verdict: 'edit', item: item('=The green pigment is ____.'), edited: { ...item('The green pigment in leaves is ____.'), quality: undefined } },
      { verdict: 'discard', item: item('It is shown in the figure above.', { figureReference: 1 }) },
    ],
  };
}

/** POST /api/cbt/ai/generate-questions with notes; returns the status and the quality-model header. */
async function generate(apiKey: string) {
  const f = new FormData();
  f.set('notes', PHOTO);
  f.set('count', '3');
  const res = await fetch(server.baseUrl + '/api/cbt/ai/generate-questions', { method: 'POST', body: f, headers: { 'x-api-key': apiKey } });
  await res.arrayBuffer();
  return { status: res.status, model: res.headers.get('x-cbt-quality-model') };
}

describe('generation verdicts', () => {
  it('record a batch: 201 with the counts; each stored with the item, its features and the edit; one audit row', async () => {
    const exam = await createExam(server.baseUrl, a.apiKey, a.id);
    const r = await api(server.baseUrl, a.apiKey).post(V, batch(exam.id));
    expect(r.status).toBe(201);
    expect(r.body.recorded).toBe(3);
    expect(r.body.summary.counts).toEqual({ keep: 1, edit: 1, discard: 1, total: 3 });
    expect(r.body.summary.model.judgements).toBe(3);

    const out = await api(server.baseUrl, a.apiKey).get(V);
    expect(out.status).toBe(200);
    expect(out.body.verdicts.map((v: any) => v.verdict)).toEqual(['keep', 'edit', 'discard']);
    expect(out.body.verdicts[0]).toMatchObject({ examId: exam.id, examiner: 'Mrs Adeyemi', engine: 'hallcbt-extractive-1', features: { stemWords: 9, blankIsStopPhrase: 0 }, edited: null });
    expect(out.body.verdicts[1].edited.prompt).toBe('The green pigment in leaves is ____.');
    expect(out.body.verdicts[2].features).toEqual({ figureReference: 1 });

    const audit = await api(server.baseUrl, a.apiKey).get('/workspaces/me/audit');
    const rows = audit.body.filter((e: any) => e.action === 'generation.verdicts.record');
    expect(rows).toHaveLength(1);
  });

  it('CSV export: a header and one row per verdict, formula-like cells guarded; another workspace exports none', async () => {
    const res = await fetch(`${server.baseUrl}${V}?format=csv`, { headers: { 'x-api-key': a.apiKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,createdAt,examId,examiner,engine,verdict,type,prompt,features,item,edited');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain(`'=The green pigment is ____.`);

    const other = await api(server.baseUrl, b.apiKey).get(V);
    expect(other.body.verdicts).toEqual([]);
    expect(other.body.summary.counts.total).toBe(0);
  });

  it('bad input is a 400 problem and stores nothing; an exam of another workspace is 404; no key is 401', async () => {
    const c = api(server.baseUrl, b.apiKey);
    const examOfA = await createExam(server.baseUrl, a.apiKey, a.id);
    for (const body of [
      { ...batch(), verdicts: [] },
      { ...batch(), verdicts: [{ verdict: 'edit', item: item('x') }] },
      { ...batch(), verdicts: [{ verdict: 'keep', item: item('x'), edited: item('y') }] },
      { ...batch(), verdicts: [{ verdict: 'maybe', item: item('x') }] },
      { ...batch(), verdicts: [{ verdict: 'keep', item: { type: 'MCQ' } }] },
      { ...batch(), verdicts: [{ verdict: 'keep', item: item('x'), features: { stemWords: 'nine' } }] },
      { ...batch(), engine: '' },
    ]) {
      const r = await c.post(V, body);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await c.post(V, batch(examOfA.id))).status).toBe(404);
    expect((await api(server.baseUrl).post(V, batch())).status).toBe(401);
    expect((await c.get(`${V}/summary`)).body.counts.total).toBe(0);
  });

  it('generation is scored with the workspace\'s own model: its verdicts move it, another workspace\'s never do', async () => {
    const ga = await generate(a.apiKey);
    expect(ga.status).toBe(200);
    expect(ga.model).toMatch(/; judgements=3$/);
    const gb = await generate(b.apiKey);
    expect(gb.model).toMatch(/; judgements=0$/);
    // B's own verdict moves B's model only
    expect((await api(server.baseUrl, b.apiKey).post(V, { engine: 'hallcbt-extractive-1', verdicts: [{ verdict: 'discard', item: item('Bad one') }] })).status).toBe(201);
    expect((await generate(b.apiKey)).model).toMatch(/; judgements=1$/);
    expect((await generate(a.apiKey)).model).toMatch(/; judgements=3$/);
  });

  it('reset: refused without confirm=reset (nothing deleted); deletes only this workspace\'s verdicts, audited with the counts and reason', async () => {
    const c = api(server.baseUrl, a.apiKey);
    const refused = await c.del(V);
    expect(refused.status).toBe(400);
    expect((await c.get(`${V}/summary`)).body.counts.total).toBe(3);
    const r = await c.del(`${V}?confirm=reset&reason=${encodeURIComponent('new syllabus')}`);
    expect(r.status).toBe(200);
    expect(r.body.deleted).toBe(3);
    const summary = (await c.get(`${V}/summary`)).body;
    expect(summary.counts).toEqual({ keep: 0, edit: 0, discard: 0, total: 0 });
    expect(summary.model.judgements).toBe(0);
    expect((await api(server.baseUrl, b.apiKey).get(`${V}/summary`)).body.counts.total).toBe(1);
    const audit = (await c.get('/workspaces/me/audit')).body.find((e: any) => e.action === 'generation.verdicts.reset');
    expect(audit).toMatchObject({ reason: 'new syllabus' });
    expect(JSON.stringify(audit)).toContain('"discard":1');
  });

  it('is documented in /openapi.json', async () => {
    const doc = (await api(server.baseUrl).get('/openapi.json')).body;
    expect(Object.keys(doc.paths[V]).sort()).toEqual(['delete', 'get', 'post']);
    expect(doc.paths[`${V}/summary`].get).toBeTruthy();
    expect(doc.paths['/api/cbt/ai/generate-questions'].post.responses['200'].headers['x-cbt-quality-model']).toBeTruthy();
  });
});
