import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/index.js';
import { AnswerBuffer } from '../../src/modules/answers/answer-buffer.js';
import type { AnswerWriter } from '../../src/modules/answers/answer-writer.js';
import type { FlushJob } from '../../src/modules/answers/answer-commit.js';
import { SessionCache } from '../../src/modules/sessions/session-cache.js';
import { tempDir } from '../harness.js';

const dirs: string[] = [];
function db() {
  const d = tempDir();
  dirs.push(d);
  return openDatabase(join(d, 'db.sqlite')).sqlite;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const rows = (sqlite: ReturnType<typeof db>, att: string) => sqlite.prepare('SELECT question_id AS q, option_id AS o, text, seq FROM answers WHERE attempt_id = ? ORDER BY question_id').all(att);

describe('AnswerBuffer', () => {
  it('lets a higher seq win and ignores equal or lower ones', () => {
    const b = new AnswerBuffer(db());
    expect(b.save('a', 'q1', 'o1', null, 5)).toEqual({ seq: 5, applied: true });
    expect(b.save('a', 'q1', 'o2', null, 4)).toEqual({ seq: 4, applied: false });
    expect(b.save('a', 'q1', 'o3', null, 5)).toEqual({ seq: 5, applied: false });
    expect(b.answersFor('a', ['q1'])).toEqual([{ questionId: 'q1', optionId: 'o1', text: null, seq: 5 }]);
    expect(b.save('a', 'q2', null, 'essay').seq).toBe(6);
  });

  it('reports a contiguous durability watermark: every seq up to it received and committed', async () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite);
    b.save('a', 'q1', 'x', null, 1);
    b.save('a', 'q2', 'x', null, 2);
    expect(b.durableSeq('a')).toBe(0);
    await b.flush();
    expect(b.durableSeq('a')).toBe(2);
    b.save('a', 'q3', 'x', null, 7);
    b.save('a', 'q4', 'x', null, 4); // arrives out of order; 3, 5 and 6 never arrived
    await b.flush();
    expect(b.durableSeq('a')).toBe(2);
    b.save('a', 'q5', 'x', null, 3);
    b.save('a', 'q4', 'y', null, 5);
    b.save('a', 'q4', 'z', null, 6); // supersedes 5 before it was written
    expect(b.durableSeq('a')).toBe(2);
    await b.flush();
    expect(b.durableSeq('a')).toBe(7);
    expect(rows(sqlite, 'a')).toHaveLength(5);
  });

  it('syncs once per flush: durableSeq moves only after the last (FULL) commit, and FULL is restored', async () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite, { batchRows: 2 });
    const next = [0, 0, 0];
    for (let i = 1; i <= 7; i++) b.save(`a${i % 3}`, `q${i}`, 'x', null, ++next[i % 3]!);
    const seen: number[] = [];
    let done = false;
    const flushing = b.flush().finally(() => (done = true));
    // between batches (the flush yields), nothing committed so far is reported durable
    while (!done) {
      await new Promise<void>((r) => setImmediate(r));
      if (!done) seen.push(b.durableSeq('a0') + b.durableSeq('a1') + b.durableSeq('a2'));
    }
    const stats = await flushing;
    // 7 answers in transactions of 2 (4), 3 attempts' watermarks (2), the synced marker (1)
    expect(stats.batches).toBe(7);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((x) => x === 0)).toBe(true);
    expect(b.dirtyCount).toBe(0);
    expect([b.durableSeq('a0'), b.durableSeq('a1'), b.durableSeq('a2')]).toEqual([2, 3, 2]);
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(sqlite.prepare("SELECT count(*) AS n FROM system_state WHERE key = 'last_flush'").get()).toEqual({ n: 1 });
  });

  it('does not cover answers a crashed process lost: they hold the watermark until replayed', async () => {
    const sqlite = db();
    sqlite.prepare("INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at) VALUES ('w','w','STANDALONE_HALL','o','e','e',30,'d','s','s',0)").run();
    sqlite.prepare("INSERT INTO exams (id, workspace_id, title, access_code, duration_mins, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, created_at, updated_at) VALUES ('e','w','t','C',10,3,0,0,1,1,0,0)").run();
    sqlite.prepare("INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, status, started_at) VALUES ('a','e','w','s','n','IN_PROGRESS',0)").run();
    const first = new AnswerBuffer(sqlite);
    for (let s = 1; s <= 3; s++) first.save('a', `q${s}`, 'x', null, s);
    await first.flush();
    for (let s = 4; s <= 8; s++) first.save('a', `q${s}`, 'x', null, s); // accepted, then the process dies
    // the restarted process: only 1..3 were committed; the browser sends 9 and 10 first
    const second = new AnswerBuffer(sqlite);
    expect(second.durableSeq('a')).toBe(3);
    second.save('a', 'q9', 'x', null, 9);
    second.save('a', 'q10', 'x', null, 10);
    await second.flush();
    expect(second.durableSeq('a')).toBe(3); // not 8, not 10: 4..8 are not here
    for (let s = 4; s <= 8; s++) second.save('a', `q${s}`, 'x', null, s); // the replay
    await second.flush();
    expect(second.durableSeq('a')).toBe(10);
    // the watermark is stored with the answers
    expect(new AnswerBuffer(sqlite).durableSeq('a')).toBe(10);
    // a stale replay of a committed answer settles at once
    second.save('a', 'q11', 'x', null, 12);
    await second.flush();
    second.save('a', 'q11', 'old', null, 11);
    expect(second.durableSeq('a')).toBe(12);
    // a resume on a new device seals: never-received seqs stop holding it back
    second.save('a', 'q12', 'x', null, 20);
    expect(second.seal('a')).toBe(20);
    expect(second.durableSeq('a')).toBe(20);
  });

  it('flushes in bounded batches and keeps an entry dirty if it changed mid-flush', async () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite, { batchRows: 100 });
    for (let att = 0; att < 50; att++) for (let q = 0; q < 10; q++) b.save(`a${att}`, `q${q}`, 'o', null, q + 1);
    const p = b.flush();
    b.save('a49', 'q9', 'changed', null, 11); // after the first batch was taken? either way it must end durable
    const st = await p;
    expect(st.rows).toBeGreaterThanOrEqual(500);
    expect(st.batches).toBeGreaterThanOrEqual(5);
    await b.flush();
    expect(b.dirtyCount).toBe(0);
    expect(sqlite.prepare("SELECT option_id FROM answers WHERE attempt_id = 'a49' AND question_id = 'q9'").get()).toEqual({ option_id: 'changed' });
    expect((sqlite.prepare('SELECT count(*) AS n FROM answers').get() as { n: number }).n).toBe(500);
  });

  it('flushes, in the next flush, an attempt whose first answer arrived while a flush was taking its job', async () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite);
    // more answers than one slice of the snapshot, so taking the job yields to the event loop
    for (let att = 0; att < 600; att++) b.save(`a${att}`, 'q1', 'o', null, 1);
    const first = b.flush();
    // runs in a turn between the job's slices: a new attempt, and one already in the job
    await new Promise<void>((r) => setImmediate(r));
    b.save('late', 'q1', 'x', null, 1);
    b.save('a599', 'q2', 'y', null, 2);
    await first;
    await b.flush();
    expect(b.dirtyCount).toBe(0);
    expect(rows(sqlite, 'late')).toEqual([{ q: 'q1', o: 'x', text: null, seq: 1 }]);
    expect(rows(sqlite, 'a599')).toHaveLength(2);
    expect(b.durableSeq('late')).toBe(1);
    expect(b.durableSeq('a599')).toBe(2);
    expect((sqlite.prepare('SELECT count(*) AS n FROM answers').get() as { n: number }).n).toBe(602);
  });

  it('writes a dirty entry before evicting it: nothing is dropped', () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite, { maxEntries: 10 });
    for (let q = 0; q < 25; q++) b.save('a', `q${String(q).padStart(2, '0')}`, `o${q}`, null, q + 1);
    // 15 were evicted and therefore written; the rest are still dirty in memory
    expect(rows(sqlite, 'a')).toHaveLength(15);
    expect(b.dirtyCount).toBe(10);
    b.flushAllSync();
    expect(rows(sqlite, 'a')).toHaveLength(25);
    // an evicted answer is read back from the database, with its seq still respected
    expect(b.save('a', 'q00', 'older', null, 1).applied).toBe(false);
    expect(b.answersFor('a', ['q00'])[0]).toMatchObject({ optionId: 'o0', seq: 1 });
  });

  it('keeps only dirty answers in memory: committed ones are read from the database and still judge replays', async () => {
    const sqlite = db();
    const b = new AnswerBuffer(sqlite);
    for (let q = 1; q <= 3; q++) b.save('done', `q${q}`, `o${q}`, null, q);
    b.save('busy', 'q1', 'x', null, 1);
    expect(b.cachedCount).toBe(4);
    await b.flush();
    expect(b.cachedCount).toBe(0);
    b.save('busy', 'q2', null, 'still typing', 2);
    expect(b.cachedCount).toBe(1);
    expect(b.answersFor('done', ['q1', 'q2', 'q3', 'q4'])).toEqual([
      { questionId: 'q1', optionId: 'o1', text: null, seq: 1 },
      { questionId: 'q2', optionId: 'o2', text: null, seq: 2 },
      { questionId: 'q3', optionId: 'o3', text: null, seq: 3 },
    ]);
    expect(b.answersFor('busy', ['q2', 'q1'])).toMatchObject([{ text: 'still typing', seq: 2 }, { optionId: 'x', seq: 1 }]);
    // a replay of a committed answer is ignored without a cached entry, and settles at once
    expect(b.save('done', 'q2', 'stale', null, 2)).toEqual({ seq: 2, applied: false });
    expect(b.save('done', 'q2', 'newer', null, 4)).toEqual({ seq: 4, applied: true });
    expect(b.answersFor('done', ['q2'])[0]).toMatchObject({ optionId: 'newer', seq: 4 });
    await b.flush();
    expect(b.durableSeq('done')).toBe(4);
    expect(rows(sqlite, 'done')).toContainEqual({ q: 'q2', o: 'newer', text: null, seq: 4 });
    b.save('busy', 'q3', null, 'more', 3);
    b.release('busy'); // dirty: kept
    b.release('done');
    expect(b.dirtyCount).toBe(1);
    expect(b.durableSeq('busy')).toBe(2);
    expect(b.lastSeq('done')).toBe(4); // the seq state is read back from the database
  });

  it('runs a flush that brings activity times after the one in progress, instead of dropping them', async () => {
    const jobs: FlushJob[] = [];
    const finish: (() => void)[] = [];
    const writer: AnswerWriter = {
      kind: 'in-process',
      write: (job) => {
        jobs.push(job);
        return new Promise((resolve) => finish.push(() => resolve({ batches: 1, maxBatchMs: 0, skipped: [] })));
      },
      close: async () => {},
    };
    const b = new AnswerBuffer(db(), { writer });
    b.save('a', 'q1', 'x', null, 1);
    const first = b.flush();
    const shared = b.flush(); // nothing of its own: shares the run
    const second = b.flush(['a', 0, -1, 1000, 900]);
    await new Promise<void>((r) => setImmediate(r));
    expect(jobs).toHaveLength(1);
    finish[0]!();
    await first;
    await shared;
    await new Promise<void>((r) => setImmediate(r));
    expect(jobs).toHaveLength(2);
    expect(jobs[1]!.attempts).toEqual(['a', 0, -1, 1000, 900]);
    finish[1]!();
    expect((await second).activityRows).toBe(1);
  });

  it('gives activity times back to the session cache when their flush failed', () => {
    const sqlite = db();
    sqlite.prepare("INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at) VALUES ('w','w','STANDALONE_HALL','o','e','e',30,'d','s','s',0)").run();
    sqlite.prepare("INSERT INTO exams (id, workspace_id, title, access_code, duration_mins, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, created_at, updated_at) VALUES ('e','w','t','C',10,3,0,0,1,1,0,0)").run();
    sqlite.prepare("INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, status, started_at) VALUES ('att', 'e', 'w', 's', 'n', 'IN_PROGRESS', 0)").run();
    const sessions = new SessionCache(sqlite);
    const st = sessions.attempt('att')!;
    sessions.seen(st, 4000);
    sessions.seen(st, 5000); // twice before a flush: one row, with the latest time
    const taken = sessions.takeActivity();
    expect(taken.rows).toEqual(['att', 0, -1, 5000, null]);
    expect(sessions.takeActivity().rows).toEqual([]);
    st.lastSeenAt = 6000; // a request after the failed flush took its rows
    sessions.restoreActivity(taken.take);
    expect(sessions.takeActivity().rows).toEqual(['att', 0, -1, 6000, null]);
    // a reloaded attempt (after a write) keeps its pending times; a persisted one is not taken again
    sessions.seen(sessions.attempt('att')!, 7000);
    sessions.reloadAttempt('att');
    expect(sessions.takeActivity().rows).toEqual(['att', 0, -1, 7000, null]);
    // …and so does one reloaded after its times were taken by a flush that then failed
    sessions.seen(sessions.attempt('att')!, 7500);
    const reloaded = sessions.takeActivity();
    sessions.reloadAttempt('att');
    sessions.restoreActivity(reloaded.take);
    expect(sessions.takeActivity().rows).toEqual(['att', 0, -1, 7500, null]);
    sessions.seen(sessions.attempt('att')!, 8000);
    expect(sessions.persistAllActivity()).toBe(1);
    expect(sessions.takeActivity().rows).toEqual([]);
    expect(sqlite.prepare("SELECT last_seen_at AS t FROM attempts WHERE id = 'att'").get()).toEqual({ t: 8000 });
  });

  it('continues seq numbering from the database after a restart', async () => {
    const sqlite = db();
    const b1 = new AnswerBuffer(sqlite);
    b1.save('a', 'q1', 'x', null, 1);
    b1.save('a', 'q2', 'x', null, 41);
    await b1.flush();
    const b2 = new AnswerBuffer(sqlite);
    expect(b2.durableSeq('a')).toBe(1);
    expect(b2.lastSeq('a')).toBe(41);
    expect(b2.save('a', 'q3', 'y', null).seq).toBe(42);
  });
});
