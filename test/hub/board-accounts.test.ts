/**
 * Board accounts on the hub (issue 38 item 3; docs/hub.md, "The board's page"), on a real
 * PostgreSQL: the first account is made with the hub's API key; e-mail + password sign in to
 * a session token (Bearer) that ends at sign-out and when the account is disabled; roles
 * are enforced on the examiner API (author: papers and imports; publisher: halls, publish,
 * release codes, accounts; viewer: read only); an account changes its own password; failed
 * sign-ins are held back (429) and every sign-in and account change is audited.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createHubApp } from '../../src/hub/app.js';
import { pgAvailability } from '../pg/cluster.js';
import { TestHall, asExaminer, hubForSuite, samplePaper, startHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

type Hub = Awaited<ReturnType<typeof startHub>>;
/** Each account made and each sign-in costs one scrypt (N = 2^17): seconds each on a busy 2-core machine. */
const SCRYPT_STEPS_MS = 120_000;

describe.skipIf(skipWhy !== null)('board accounts and roles on the hub', () => {
  let hub: Hub;
  let key: string;
  hubForSuite((started) => ({ hub, key } = started));

  const signIn = async (email: string, password: string) => asExaminer(hub, '', 'POST', '/hub/v1/board/sign-in', { email, password });
  async function account(email: string, roles: string[]): Promise<string> {
    const made = await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email, name: email.split('@')[0], password: 'correct horse 1', roles });
    expect(made.status).toBe(201);
    const res = await signIn(email, 'correct horse 1');
    expect(res.status).toBe(200);
    return res.json.token as string;
  }
  async function audited(action: string): Promise<Record<string, unknown>[]> {
    return (await hub.deps.db.execute(sql`select actor, detail from hub_audit where action = ${action} order by id`)).rows as Record<string, unknown>[];
  }

  it('makes the first account with the API key; e-mail and password sign in to a session that ends at sign-out', async () => {
    const made = await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email: 'Chief@Board.example', name: 'Chief examiner', password: 'a long passphrase', roles: ['publisher', 'author'] });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ email: 'Chief@Board.example', roles: ['publisher', 'author'], disabled: false });
    expect(made.json.passwordHash).toBeUndefined();
    expect((await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email: 'chief@board.example', name: 'Again', password: 'another passphrase', roles: ['viewer'] })).json.code).toBe('EMAIL_TAKEN');

    const res = await signIn(' chief@board.example ', 'a long passphrase');
    expect(res.status).toBe(200);
    expect(res.json.token).toMatch(/^cbtb_[0-9A-Za-z]{40}$/);
    const me = await asExaminer(hub, res.json.token, 'GET', '/hub/v1/board/me');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: made.json.id, name: 'Chief examiner', roles: ['publisher', 'author'] });
    expect((await asExaminer(hub, res.json.token, 'GET', '/hub/v1/halls')).status).toBe(200);

    expect((await asExaminer(hub, res.json.token, 'POST', '/hub/v1/board/sign-out')).status).toBe(204);
    const after = await asExaminer(hub, res.json.token, 'GET', '/hub/v1/halls');
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('SESSION_ENDED');
    expect((await audited('board-account-created'))[0]).toMatchObject({ actor: expect.stringMatching(/^examiner:hexm_/), detail: { accountId: made.json.id, roles: ['publisher', 'author'] } });
    expect((await audited('board-signed-in')).length).toBe(1);
    expect((await audited('board-signed-out')).length).toBe(1);
  }, SCRYPT_STEPS_MS);

  it('enforces roles: authors write papers, publishers publish and read release codes, viewers only read', async () => {
    const author = await account('author@board.example', ['author']);
    const publisher = await account('publisher@board.example', ['publisher']);
    const viewer = await account('viewer@board.example', ['viewer']);

    // an author builds the paper and imports questions; may not publish, read codes, create halls or manage accounts
    const exam = await asExaminer(hub, author, 'POST', '/hub/v1/exams', samplePaper('2026-11-25T09:00:00.000Z'));
    expect(exam.status).toBe(201);
    const fd = new FormData();
    fd.set('text', 'What is 2 + 2?\nA. 3\nB. 4\nANSWER: B\n');
    fd.set('format', 'aiken');
    const imported = await hub.app.request(`/hub/v1/exams/${exam.json.id}/questions/import`, { method: 'POST', headers: { authorization: `Bearer ${author}` }, body: fd });
    expect(imported.status).toBe(201);
    for (const [method, path, body] of [
      ['POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: ['hall_x'] }],
      ['GET', `/hub/v1/exams/${exam.json.id}/release-codes`],
      ['POST', '/hub/v1/halls', { name: 'Ikeja' }],
      ['GET', '/hub/v1/board/accounts'],
    ] as const) {
      const res = await asExaminer(hub, author, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toMatchObject({ code: 'ROLE_REQUIRED', role: 'publisher' });
    }

    // a publisher creates and serves halls, publishes and reads the codes; may not change the paper
    const created = await asExaminer(hub, publisher, 'POST', '/hub/v1/halls', { name: 'Ikeja centre' });
    expect(created.status).toBe(201);
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    expect((await asExaminer(hub, publisher, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hall.hallId] })).status).toBe(200);
    const codes = await asExaminer(hub, publisher, 'GET', `/hub/v1/exams/${exam.json.id}/release-codes`);
    expect(codes.status).toBe(200);
    expect(codes.json[0]).toMatchObject({ hallId: hall.hallId, hallName: 'Ikeja centre' });
    const q = exam.json.questions[0];
    const edit = await asExaminer(hub, publisher, 'PATCH', `/hub/v1/exams/${exam.json.id}/questions/${q.id}`, { marks: 2 });
    expect(edit.status).toBe(403);
    expect(edit.json.role).toBe('author');

    // a viewer reads papers, halls, results and analysis; writes nothing and sees no release code
    for (const path of ['/hub/v1/exams', `/hub/v1/exams/${exam.json.id}`, '/hub/v1/halls', `/hub/v1/exams/${exam.json.id}/results`, `/hub/v1/exams/${exam.json.id}/analysis`]) {
      expect((await asExaminer(hub, viewer, 'GET', path)).status, path).toBe(200);
    }
    const list = await asExaminer(hub, viewer, 'GET', '/hub/v1/exams');
    expect(list.json.find((e: { id: string }) => e.id === exam.json.id)).toMatchObject({ title: 'Board Mathematics mock', questions: 4, candidates: 2, publishedVersion: 1, hallIds: [hall.hallId] });
    expect((await asExaminer(hub, viewer, 'POST', '/hub/v1/exams', samplePaper('2026-11-25T09:00:00.000Z'))).status).toBe(403);
    expect((await asExaminer(hub, viewer, 'GET', `/hub/v1/exams/${exam.json.id}/release-codes`)).status).toBe(403);
    expect((await asExaminer(hub, viewer, 'POST', `/hub/v1/halls/${hall.hallId}/revoke`)).status).toBe(403);
    // every role may see itself
    expect((await asExaminer(hub, viewer, 'GET', '/hub/v1/board/me')).json.roles).toEqual(['viewer']);
  }, SCRYPT_STEPS_MS);

  it('a publisher changes roles and disables accounts (audited): the change holds at once, a disabled account is signed out', async () => {
    const publisher = await account('boss@board.example', ['publisher']);
    const made = await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email: 'clerk@board.example', name: 'Clerk', password: 'clerk passphrase', roles: ['viewer'] });
    const clerk = (await signIn('clerk@board.example', 'clerk passphrase')).json.token as string;
    expect((await asExaminer(hub, clerk, 'POST', '/hub/v1/exams', samplePaper('2026-11-25T09:00:00.000Z'))).status).toBe(403);

    const promoted = await asExaminer(hub, publisher, 'PATCH', `/hub/v1/board/accounts/${made.json.id}`, { roles: ['author'] });
    expect(promoted.status).toBe(200);
    expect(promoted.json.roles).toEqual(['author']);
    expect((await asExaminer(hub, clerk, 'POST', '/hub/v1/exams', samplePaper('2026-11-25T09:00:00.000Z'))).status).toBe(201);

    expect((await asExaminer(hub, publisher, 'PATCH', `/hub/v1/board/accounts/${made.json.id}`, { disabled: true })).json.disabled).toBe(true);
    expect((await asExaminer(hub, clerk, 'GET', '/hub/v1/exams')).status).toBe(401);
    expect((await signIn('clerk@board.example', 'clerk passphrase')).status).toBe(401);
    const changes = await audited('board-account-changed');
    expect(changes.map((r) => r.actor)).toEqual([expect.stringMatching(/^account:bacc_/), expect.stringMatching(/^account:bacc_/)]);
    expect(changes.map((r) => r.detail)).toEqual([{ accountId: made.json.id, roles: ['author'] }, { accountId: made.json.id, disabled: true }]);
    expect((await asExaminer(hub, publisher, 'PATCH', '/hub/v1/board/accounts/bacc_nobody', { disabled: true })).status).toBe(404);
    expect((await asExaminer(hub, publisher, 'PATCH', `/hub/v1/board/accounts/${made.json.id}`, { roles: ['root'] })).status).toBe(400);
  }, SCRYPT_STEPS_MS);

  it('an account changes its own password with the current one; its other sessions end', async () => {
    const first = await account('reader@board.example', ['viewer']);
    const second = (await signIn('reader@board.example', 'correct horse 1')).json.token as string;
    const wrong = await asExaminer(hub, first, 'PUT', '/hub/v1/board/me/password', { currentPassword: 'not it', password: 'a new passphrase' });
    expect(wrong.status).toBe(403);
    expect(wrong.json.code).toBe('PASSWORD_WRONG');
    expect((await asExaminer(hub, key, 'PUT', '/hub/v1/board/me/password', { currentPassword: 'x', password: 'a new passphrase' })).status).toBe(401);
    expect((await asExaminer(hub, first, 'PUT', '/hub/v1/board/me/password', { currentPassword: 'correct horse 1', password: 'a new passphrase' })).status).toBe(204);
    expect((await asExaminer(hub, first, 'GET', '/hub/v1/board/me')).status).toBe(200);
    expect((await asExaminer(hub, second, 'GET', '/hub/v1/board/me')).status).toBe(401);
    expect((await signIn('reader@board.example', 'correct horse 1')).status).toBe(401);
    expect((await signIn('reader@board.example', 'a new passphrase')).status).toBe(200);
    expect((await audited('board-password-change-refused')).length).toBe(1);
    expect((await audited('board-account-changed')).some((r) => (r.detail as { by?: string }).by === 'self')).toBe(true);
  }, SCRYPT_STEPS_MS);

  it('documents the new routes in the hub’s OpenAPI document', async () => {
    const doc = (await asExaminer(hub, '', 'GET', '/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/hub/v1/board/sign-in']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/hub/v1/board/accounts']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/hub/v1/board/accounts/{id}']!)).toEqual(['patch']);
    expect(doc.paths['/hub/v1/exams']!.get).toBeDefined();
  });

  it('refuses a wrong password (audited) and holds an address back after 10 failures for one e-mail (429, Retry-After)', async () => {
    await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email: 'target@board.example', name: 'Target', password: 'the right one', roles: ['viewer'] });
    const wrong = await signIn('target@board.example', 'not the right one');
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('SIGN_IN_FAILED');
    const unknown = await signIn('nobody@board.example', 'whatever it is');
    expect(unknown.status).toBe(401);
    expect(unknown.json.detail).toBe(wrong.json.detail);
    for (let i = 0; i < 9; i++) expect((await signIn('target@board.example', `guess ${i}`)).status).toBe(401);
    const held = await signIn('target@board.example', 'the right one');
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    hub.clock.advance(16 * 60_000);
    expect((await signIn('target@board.example', 'the right one')).status).toBe(200);
    const refused = await audited('board-sign-in-refused');
    expect(refused.filter((r) => (r.detail as { email: string }).email === 'target@board.example').length).toBe(10);
    expect(refused.some((r) => (r.detail as { reason: string }).reason === 'unknown-email')).toBe(true);
    expect((await audited('board-sign-in-throttled')).length).toBe(1);
  }, SCRYPT_STEPS_MS);

  it('keeps failed sign-ins in PostgreSQL: a restarted hub process (or a second one) still holds the address back', async () => {
    await asExaminer(hub, key, 'POST', '/hub/v1/board/accounts', { email: 'kept@board.example', name: 'Kept', password: 'the right one', roles: ['viewer'] });
    for (let i = 0; i < 10; i++) expect((await signIn('kept@board.example', `guess ${i}`)).status).toBe(401);
    expect((await signIn('kept@board.example', 'the right one')).status).toBe(429);
    // a new app on the same database, as after a restart or behind a load balancer
    const restarted = createHubApp(hub.deps);
    const again = await restarted.request('/hub/v1/board/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@board.example', password: 'the right one' }) });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await again.json()) as { detail: string }).detail).not.toMatch(/invigilator/);
    // the e-mail is not stored in the throttle's rows, only a digest
    const keys = (await hub.deps.db.execute(sql`select key from hub_rate_limits where key like 'board-sign-in%'`)).rows.map((r) => String(r.key));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('kept@board.example');
    hub.clock.advance(31 * 60_000);
    const later = await restarted.request('/hub/v1/board/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'kept@board.example', password: 'the right one' }) });
    expect(later.status).toBe(200);
  }, SCRYPT_STEPS_MS);
});
