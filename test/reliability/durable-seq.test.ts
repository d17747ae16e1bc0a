/**
 * The durableSeq promise, checked against what a crash would leave (docs/design.md §7): every
 * answer a candidate gave with seq ≤ durableSeq must be on disk — the committed row of
 * its question carries that seq or a newer one. "On disk" is read through a second
 * connection to the same database file, which sees only committed transactions, i.e.
 * what the next process finds after SIGKILL.
 *
 * The crash campaign (scripts/soak.ts) found the case pinned down in the first test: an
 * answer overwritten by a newer, still-buffered answer to the same question was counted
 * as durable, so the page forgot it, and a kill before the next flush left the question
 * with an even older answer on disk. The third test is the same promise after a sign-in
 * seals the watermark (`seal()`): a lost answer the page replays afterwards is below the
 * watermark at once, but it is only in memory until the next flush.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerBuffer } from '../../src/modules/answers/answer-buffer.js';
import { inProcessWriter, type AnswerWriter } from '../../src/modules/answers/answer-writer.js';
import { ATTEMPT_FIELDS, type FlushJob } from '../../src/modules/answers/answer-commit.js';
import { candidateSave, durableWorld, hallOps, signInReplay, type Given } from './durable-world.js';

const world = durableWorld('durable-');
const { sqlite, notOnDisk } = world;
afterAll(() => world.close());

let n = 0;
/** A fresh buffer for attempt `att`, and `save(q, seq)` that records what was given. */
function givenAnswers(att: string) {
  const b = new AnswerBuffer(sqlite);
  const given = new Map<number, string>();
  const save = (q: string, seq: number) => {
    given.set(seq, q);
    b.save(att, q, `opt_${seq}`, null, seq);
  };
  return { b, given, save };
}

describe('durableSeq against the committed state', () => {
  it('does not count an answer as durable when only a newer, unflushed answer supersedes it', async () => {
    const att = `att_overwrite_${++n}`;
    const { b, given, save } = givenAnswers(att);
    save('q1', 1);
    await b.flush(); // q1 seq 1 on disk
    save('q1', 2); // dirty
    save('q2', 3); // dirty
    save('q1', 4); // overwrites seq 2 in memory; seq 2 was never on disk
    expect(notOnDisk(att, given, b.durableSeq(att))).toEqual([]);
    await b.flush();
    expect(b.durableSeq(att)).toBe(4);
    expect(notOnDisk(att, given, b.durableSeq(att))).toEqual([]);
  });

  it('does not count a late replayed answer as durable while the newer one is still buffered', () => {
    const att = `att_replay_${++n}`;
    const b = new AnswerBuffer(sqlite);
    b.save(att, 'q1', 'newer', null, 5);
    b.save(att, 'q1', 'older', null, 3); // replayed from a queue, ignored: seq 5 wins
    const given = new Map([[5, 'q1'], [3, 'q1']]);
    expect(notOnDisk(att, given, b.durableSeq(att))).toEqual([]);
  });

  it('does not count an answer replayed after a sign-in sealed the watermark as durable before it is written', async () => {
    const att = `att_seal_${++n}`;
    const { b, given, save } = givenAnswers(att);
    save('q1', 1);
    await b.flush();
    save('q3', 3); // seq 2 went to a process that crashed: this one never received it
    b.seal(att); // the candidate signs in again (POST /attempts/start): the watermark jumps to 3
    save('q2', 2); // the page replays seq 2; the reply's durableSeq must not cover it yet
    expect(notOnDisk(att, given, b.durableSeq(att))).toEqual([]);
    await b.flush();
    expect(notOnDisk(att, given, b.durableSeq(att))).toEqual([]);
    expect(b.durableSeq(att)).toBe(3);
  });

  it('keeps that promise across a crash: the stored watermark never claims an answer replayed after a seal', async () => {
    const att = world.attempt();
    const { b, given, save } = givenAnswers(att);
    save('q1', 1);
    await b.flush();
    save('q3', 3);
    b.seal(att); // stored watermark 3: seq 2 was lost with an earlier process
    save('q2', 2); // the page replays seq 2 after signing in
    expect(b.durableSeq(att)).toBe(1);
    const afterCrash = new AnswerBuffer(sqlite); // SIGKILL before the flush: seq 2 is gone
    expect(notOnDisk(att, given, afterCrash.durableSeq(att))).toEqual([]);
    await b.flush(); // (the process that did not crash) writing seq 2 brings the watermark back
    expect(b.durableSeq(att)).toBe(3);
    expect(new AnswerBuffer(sqlite).durableSeq(att)).toBe(3);
  });

  it('stores the watermark a flush moves in that flush job, before its one sync, not in a later write', async () => {
    const [one, two] = [world.attempt(), world.attempt()];
    const real = inProcessWriter(sqlite);
    const jobs: FlushJob[] = [];
    // the real writer, with each job it is given recorded
    const recording: AnswerWriter = { kind: real.kind, write: (job) => (jobs.push(job), real.write(job)), close: () => real.close() };
    const b = new AnswerBuffer(sqlite, { writer: recording });
    b.save(one, 'q1', 'a', null, 1); // one entry
    b.save(one, 'q1', 'b', null, 2); // …covering two seqs
    b.save(two, 'q1', 'a', null, 1); // two entries
    b.save(two, 'q2', 'b', null, 2);
    await b.flush();
    expect(jobs).toHaveLength(1);
    const rows = jobs[0]!.attempts;
    const stored = new Map<unknown, unknown>();
    for (let i = 0; i < rows.length; i += ATTEMPT_FIELDS) stored.set(rows[i], rows[i + 2]);
    expect(stored).toEqual(new Map([[one, 2], [two, 2]]));
    expect([b.durableSeq(one), b.durableSeq(two)]).toEqual([2, 2]);
  });

  it('after a job, stores each attempt\'s watermark that seqs settled while the job was in flight carried further', async () => {
    const [first, second] = [world.attempt(), world.attempt()];
    const real = inProcessWriter(sqlite);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    // the real writer, started only when the test opens the gate (the job is then "in flight")
    const gated: AnswerWriter = { kind: real.kind, write: async (job) => (await gate, real.write(job)), close: () => real.close() };
    const b = new AnswerBuffer(sqlite, { writer: gated });
    for (let seq = 1; seq <= 5; seq++) b.save(first, `q${seq}`, 'a', null, seq); // its job watermark: 5
    b.save(second, 'q1', 'a', null, 1);
    b.save(second, 'q1', 'b', null, 3); // seq 2 not received yet: its job watermark is 1
    const flushed = b.flush();
    b.save(second, 'q1', 'c', null, 2); // the late seq 2 arrives while the job is in flight: superseded by seq 3
    release();
    await flushed;
    expect([b.durableSeq(first), b.durableSeq(second)]).toEqual([5, 3]);
    const stored = (id: string) => (sqlite.prepare('SELECT durable_seq AS w FROM attempts WHERE id = ?').get(id) as { w: number }).w;
    expect([stored(first), stored(second)]).toEqual([5, 3]); // not 1: a restart would hold seq 2 and 3 back
  });

  it('holds for any interleaving of saves, lost and stale replays, seals and flushes (property)', async () => {
    const op = hallOps('flush' as const);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        // a real attempts row, so the stored watermark is read back after a crash
        const att = world.attempt();
        let b = new AnswerBuffer(sqlite, { batchRows: 3 });
        const given: Given = { answers: new Map(), counter: 0 };
        for (const o of ops) {
          if (o.kind === 'flush') await b.flush();
          else if (o.kind === 'lost') ++given.counter;
          else if (o.kind === 'seal') signInReplay(b, att, given, world.committed);
          else if (o.kind === 'crash') {
            b = new AnswerBuffer(sqlite, { batchRows: 3 });
            // the page forgets nothing it was not told is durable; what it still holds it replays
            // later as stale saves, so `given` keeps every seq
          } else candidateSave(b, att, given, o);
          const missing = notOnDisk(att, given.answers, b.durableSeq(att));
          if (missing.length) throw new Error(missing.join('; '));
        }
      }),
      { numRuns: 100 },
    );
  });
});
