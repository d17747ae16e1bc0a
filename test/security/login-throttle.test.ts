/**
 * Examiner sign-in (issue 22 part 3, docs/design.md §4): failures are held back per e-mail +
 * address and per address with growing waits — never a lock another computer's guesses
 * can put on the owner — and a failure costs the same work (one scrypt) whatever the
 * account's state, so timing does not tell an account without a password from one with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { seat } from './from-address.js';

const clock = new ManualClock(Date.parse('2026-11-22T09:00:00Z'));
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ clock });
});
afterAll(() => s.close());

const PASSWORD = 'the right password';
async function account(tag: string): Promise<string> {
  const email = `${tag}.${Date.now()}@example.com`;
  expect((await api(s.baseUrl).post('/workspaces/login', { email, password: PASSWORD })).status).toBe(200);
  return email;
}

describe('POST /workspaces/login failures', () => {
  it('someone else’s wrong passwords never lock the owner out', async () => {
    const email = await account('owner');
    const guesser = seat('127.0.0.2', s.baseUrl);
    const codes: number[] = [];
    for (let i = 0; i < 13; i++) codes.push((await guesser.post('/workspaces/login', { email, password: `guess ${i}` })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10).every((c) => c === 429)).toBe(true);
    const owner = await seat('127.0.0.3', s.baseUrl).post('/workspaces/login', { email, password: PASSWORD });
    expect(owner.status).toBe(200);
  }, 60_000);

  it('grows the wait for the guessing computer instead of locking the account', async () => {
    const email = await account('waits');
    const pc = seat('127.0.0.4', s.baseUrl);
    for (let i = 0; i < 10; i++) await pc.post('/workspaces/login', { email, password: `guess ${i}` });
    const held = await pc.post('/workspaces/login', { email, password: PASSWORD });
    expect(held.status).toBe(429);
    const wait = Number(held.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    clock.advance(wait * 1000 + 1000);
    expect((await pc.post('/workspaces/login', { email, password: 'one more guess' })).status).toBe(401);
    const longer = Number((await pc.post('/workspaces/login', { email, password: PASSWORD })).headers['retry-after']);
    expect(longer).toBeGreaterThan(wait);
    clock.advance(longer * 1000 + 1000);
    expect((await pc.post('/workspaces/login', { email, password: PASSWORD })).status).toBe(200);
  }, 60_000);

  it('an account without a password takes as long to refuse as a wrong password', async () => {
    const noPassword = `nopw.${Date.now()}@example.com`;
    await registerWorkspace(s.baseUrl, { email: noPassword });
    const withPassword = await account('timed');
    const timed = async (email: string, i: number) => {
      const t0 = performance.now();
      const r = await seat(`127.0.1.${i}`, s.baseUrl).post('/workspaces/login', { email, password: `not it ${i}` });
      expect(r.status).toBe(401);
      return performance.now() - t0;
    };
    const a: number[] = [];
    const b: number[] = [];
    // alternated, so a busy moment of the machine falls on both
    for (let i = 0; i < 4; i++) {
      a.push(await timed(noPassword, 10 + i));
      b.push(await timed(withPassword, 20 + i));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const [ma, mb] = [median(a), median(b)];
    expect(ma, `no password ${ma.toFixed(1)} ms vs wrong password ${mb.toFixed(1)} ms`).toBeGreaterThanOrEqual(mb * 0.5);
    expect(mb, `wrong password ${mb.toFixed(1)} ms vs no password ${ma.toFixed(1)} ms`).toBeGreaterThanOrEqual(ma * 0.5);
  }, 60_000);
});
