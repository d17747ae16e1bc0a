/**
 * Issue 20 item 4: README's "A whole exam with curl" runs as written, top to bottom, in
 * sh against the real server, with a real webhook receiver on loopback (B and HOOK are
 * the only things set from outside, as a reader would set them). Every step answers, the
 * variables come from the responses, and step 7's filter shows the delivered event.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReceiver, startTestServer, type TestServer } from '../harness.js';

const run = promisify(execFile);
let s: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  s = await startTestServer({ jobs: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

/** The first ```sh block under the README heading `heading`. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`## ${heading}`);
  expect(at).toBeGreaterThan(-1);
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  return m![1]!;
}

describe('README: a whole exam with curl', () => {
  it('runs top to bottom and ends with the delivered webhook event', async () => {
    const script = readmeBlock('A whole exam with curl');
    const { stdout } = await run('sh', ['-eu', '-c', script], { env: { ...process.env, B: s.baseUrl, HOOK: receiver.url }, timeout: 60_000 });
    const lines = stdout.trim().split('\n');
    const json = lines.map((l) => JSON.parse(l));
    const [ws, exam, bulk, start, save, submit, delivered] = json;
    expect(ws).toMatchObject({ type: 'STANDALONE_HALL', credits: 30, apiKey: expect.stringMatching(/^cbt_/) });
    expect(exam).toMatchObject({ id: expect.stringMatching(/^ex_/), accessCode: expect.any(String) });
    expect(bulk).toMatchObject({ created: 1 });
    expect(start).toMatchObject({ attemptId: expect.stringMatching(/^att_/), durableSeq: 0 });
    expect(save).toMatchObject({ saved: true, seq: 1 });
    expect(submit).toMatchObject({ score: 1, maxScore: 1, grade: 'A1', status: 'COMPLETED' });
    expect(json).toHaveLength(7);
    expect(delivered).toEqual([expect.objectContaining({ type: 'exam.attempt.completed', status: 'DELIVERED' })]);
    // the receiver really got it, signed with the hall's secret
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.headers['x-cbt-signature']).toBe(`sha256=${createHmac('sha256', ws.webhookSecret).update(got.body).digest('hex')}`);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'exam.attempt.completed', data: { attemptId: start.attemptId, grade: 'A1' } });
  }, 90_000);
});
