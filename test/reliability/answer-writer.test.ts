/**
 * The answer writer thread (issue 8): flush jobs committed on a second connection while
 * the event loop goes on. What is new against the in-process flush is that saves, stale
 * replays, seals and sign-ins now run WHILE a job is in flight, so the durableSeq promise
 * (docs/design.md §7: every answer with seq ≤ durableSeq is on disk) is checked here with flushes
 * that start and finish as separate steps, against a second read-only connection that
 * sees exactly what a killed process leaves.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerBuffer, type FlushStats } from '../../src/modules/answers/answer-buffer.js';
import { PART_ROWS, threadWriter } from '../../src/modules/answers/answer-writer.js';
import { commitAll, type FlushJob, type TransactionTurn } from '../../src/modules/answers/answer-commit.js';
import { afterWriteTurn, openDatabase, setWriteHandoff, withWriteTurn } from '../../src/db/index.js';
import { rmSync } from 'node:fs';
import { tempDir } from '../harness.js';
import type { Logger } from '../../src/platform/logger.js';
import { silentLogger } from '../../src/platform/logger.js';
import { candidateSave, durableWorld, hallOps, signInReplay, type Given } from './durable-world.js';

const world = durableWorld('writer-');
const { sqlite, disk, file, notOnDisk, attempt } = world;
const writers: AnswerBuffer[] = [];
afterAll(async () => {
  for (const b of writers) await b.close();
  world.close();
});

/**
 * A buffer on the shared file whose jobs go to a writer thread; by default one chunk of
 * `batchRows` per transaction (many transactions, so the tests below see the turns between
 * them), or up to `maxTxRows` rows while the server does not wait (the server's default).
 */
function threaded(batchRows = 3, logger: Logger = silentLogger, target = file, maxTxRows = batchRows): AnswerBuffer {
  const b = new AnswerBuffer(sqlite, { writer: threadWriter(target, sqlite, logger, 'NORMAL', batchRows, maxTxRows) });
  writers.push(b);
  return b;
}
/**
 * Flushes `b` while the server's connection writes system_state `key` in every turn of the
 * event loop, the ways its requests do: a statement and a transaction (announced, blocking
 * until the thread's COMMIT) and a request handler's write awaiting the thread's turn.
 * @returns the flush's figures and how many writes went in meanwhile
 */
async function flushWhileServerWrites(b: AnswerBuffer, key: string): Promise<{ stats: FlushStats; writes: number }> {
  const mark = sqlite.prepare('INSERT INTO system_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  let done = false;
  let writes = 0;
  const flushing = b.flush().finally(() => (done = true));
  while (!done) {
    mark.run(key, String(++writes));
    sqlite.transaction(() => mark.run(key, String(++writes)))();
    expect(await withWriteTurn(sqlite, () => sqlite.transaction(() => mark.run(key, String(++writes)))())).toMatchObject({ changes: 1 });
    await new Promise<void>((r) => setImmediate(r));
  }
  return { stats: await flushing, writes };
}
const storedWatermark = (att: string) => (disk.prepare('SELECT durable_seq AS w FROM attempts WHERE id = ?').get(att) as { w: number }).w;

describe('answer writer thread', () => {
  it('commits on its own thread: the event loop keeps turning while a large job is written', async () => {
    const b = threaded(128);
    const att = attempt();
    for (let i = 1; i <= 20_000; i++) b.save(att, `q${i}`, 'x', null, i);
    let ticks = 0;
    let done = false;
    const flushing = b.flush().finally(() => (done = true));
    while (!done) {
      await new Promise<void>((r) => setImmediate(r));
      ticks++;
    }
    const stats: FlushStats = await flushing;
    expect(stats.writer).toBe('thread');
    expect(stats.rows).toBe(20_000);
    expect(ticks).toBeGreaterThan(1);
    expect(b.durableSeq(att)).toBe(20_000);
    expect(storedWatermark(att)).toBe(20_000);
    expect((disk.prepare('SELECT count(*) AS c FROM answers WHERE attempt_id = ?').get(att) as { c: number }).c).toBe(20_000);
  });

  it('takes turns with the server connection: its writes and transactions go in between the thread\'s, none fails', async () => {
    const b = threaded(16);
    const att = attempt();
    for (let i = 1; i <= 5_000; i++) b.save(att, `q${i}`, 'x', null, i);
    const { stats, writes } = await flushWhileServerWrites(b, 'turn-test');
    expect(stats.batches).toBeGreaterThan(300);
    expect(writes).toBeGreaterThan(3);
    expect(disk.prepare("SELECT value FROM system_state WHERE key = 'turn-test'").get()).toEqual({ value: String(writes) });
    expect(b.durableSeq(att)).toBe(5_000);
  });

  it('withWriteTurn runs the write only once the other writer gave its turn, and gives it back after', async () => {
    const other = durableWorld('turn-');
    const log: string[] = [];
    let give: () => void = () => {};
    setWriteHandoff(other.sqlite, {
      enter: () => {},
      leave: () => {},
      turn: () => new Promise((resolve) => (give = () => resolve(() => log.push('released')))),
    });
    try {
      const pending = withWriteTurn(other.sqlite, () => log.push('wrote'));
      await new Promise<void>((r) => setTimeout(r, 20)); // the event loop turns while the turn is awaited
      expect(log).toEqual([]);
      give();
      await pending;
      expect(log).toEqual(['wrote', 'released']);
      // a write that throws gives the turn back too
      const refused = withWriteTurn(other.sqlite, () => {
        throw new Error('refused');
      });
      give();
      await expect(refused).rejects.toThrow('refused');
      expect(log).toEqual(['wrote', 'released', 'released']);
      setWriteHandoff(other.sqlite, null);
      expect(await withWriteTurn(other.sqlite, () => 'no handoff: at once')).toBe('no handoff: at once');
    } finally {
      setWriteHandoff(other.sqlite, null);
      other.close();
    }
  });

  it('withWriteTurn on a FULL connection commits relaxed, then syncs the WAL before it resolves', async () => {
    const dir = tempDir('turn-full-');
    const { sqlite: full } = openDatabase(join(dir, 'db.sqlite'));
    try {
      expect(full.pragma('synchronous', { simple: true })).toBe(2);
      let during = -1;
      const mark = full.prepare("INSERT INTO system_state (key, value) VALUES ('k', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
      await withWriteTurn(full, () => {
        during = full.pragma('synchronous', { simple: true }) as number;
        full.transaction(() => mark.run('1'))();
      });
      expect(during).toBe(1); // NORMAL while writing: no fsync on the event loop
      expect(full.pragma('synchronous', { simple: true })).toBe(2);
      expect(full.prepare("SELECT value FROM system_state WHERE key = 'k'").get()).toEqual({ value: '1' });
      await expect(withWriteTurn(full, () => {
        mark.run('2');
        throw new Error('after a commit');
      })).rejects.toThrow('after a commit');
      expect(full.prepare("SELECT value FROM system_state WHERE key = 'k'").get()).toEqual({ value: '2' });
      expect(full.pragma('synchronous', { simple: true })).toBe(2);
      // a caller that chooses its own sync (telemetry) keeps the connection's setting
      await afterWriteTurn(full, () => (during = full.pragma('synchronous', { simple: true }) as number));
      expect(during).toBe(2);
    } finally {
      full.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes last-seen / last-saved times in the same job, alone or with the attempt\'s watermark', async () => {
    const b = threaded();
    const [seenOnly, saving] = [attempt(), attempt()];
    b.save(saving, 'q1', 'x', null, 1);
    const stats = await b.flush([seenOnly, 0, -1, 1_000, null, saving, 0, -1, 2_000, 2_500]);
    expect(stats).toMatchObject({ rows: 1, activityRows: 2, writer: 'thread' });
    const row = (id: string) => disk.prepare('SELECT durable_seq AS w, last_seen_at AS seen, last_saved_at AS saved FROM attempts WHERE id = ?').get(id);
    expect(row(seenOnly)).toEqual({ w: 0, seen: 1_000, saved: null });
    expect(row(saving)).toEqual({ w: 1, seen: 2_000, saved: 2_500 });
    await b.flush([saving, 0, -1, 3_000, null]); // a null time leaves the stored one
    expect(row(saving)).toEqual({ w: 1, seen: 3_000, saved: 2_500 });
  });

  it('takes further chunks into a transaction only while the server does not wait, up to the most rows', () => {
    const att = attempt();
    const job: FlushJob = { answers: Array.from({ length: 100 }, (_, i) => [att, `q${i}`, 'x', null, i + 1, 0]).flat(), attempts: [], at: 1 };
    /** the server "waits" at the checks listed (1-based), as the thread's handoff would say */
    const scripted = (waitsAt: number[]): TransactionTurn => {
      let checks = 0;
      return { take() {}, give() {}, wanted: () => waitsAt.includes(++checks) };
    };
    const batches = (turn: TransactionTurn) => commitAll(sqlite, job, 10, undefined, turn, 40).batches;
    expect(batches(scripted([]))).toBe(3 + 1); // 40 + 40 + 20 rows, and the marker
    expect(batches(scripted([1, 3]))).toBe(4 + 1); // 10 | 20 | 40 | 30
    expect(batches({ take() {}, give() {}, wanted: () => true })).toBe(10 + 1); // a chunk each
    expect(commitAll(sqlite, job, 10).batches).toBe(10 + 1); // no turn, no most: a chunk each
    expect((disk.prepare('SELECT count(*) AS c FROM answers WHERE attempt_id = ?').get(att) as { c: number }).c).toBe(100);
  });

  it('commits a job in a few large transactions when the server does not write, and lets its writes in when it does', async () => {
    const b = threaded(16, silentLogger, file, 1024);
    const att = attempt();
    for (let i = 1; i <= 20_000; i++) b.save(att, `q${i}`, 'x', null, i);
    const quiet = await b.flush();
    expect(quiet.batches).toBeLessThanOrEqual(Math.ceil(20_000 / 1024) + 2); // answers, the watermark row, the marker
    // a long commit (some 20 transactions), so the writes below overlap it
    for (let i = 20_001; i <= 40_000; i++) b.save(att, `q${i}`, 'y', null, i);
    const { stats: busy, writes } = await flushWhileServerWrites(b, 'merge-test');
    expect(writes).toBeGreaterThan(3);
    // the thread ended transactions early for the waiting writes
    expect(busy.batches).toBeGreaterThan(quiet.batches);
    expect(disk.prepare("SELECT value FROM system_state WHERE key = 'merge-test'").get()).toEqual({ value: String(writes) });
    expect(b.durableSeq(att)).toBe(40_000);
    expect((disk.prepare('SELECT count(*) AS c FROM answers WHERE attempt_id = ?').get(att) as { c: number }).c).toBe(40_000);
  });

  it('sends a job larger than a message in parts and commits all of it, answers and activity rows', async () => {
    const b = threaded(64);
    const atts = Array.from({ length: 30 }, () => attempt());
    const answers = PART_ROWS * 2 + 52;
    for (let i = 0; i < answers; i++) b.save(atts[i % atts.length]!, `q${i}`, `o${i}`, null, Math.floor(i / atts.length) + 1);
    const seenOnly = Array.from({ length: PART_ROWS * 2 + 7 }, () => attempt());
    const stats = await b.flush(seenOnly.flatMap((id, i) => [id, 0, -1, 10_000 + i, null]));
    expect(stats).toMatchObject({ rows: answers, activityRows: seenOnly.length, writer: 'thread' });
    expect((disk.prepare(`SELECT count(*) AS c FROM answers WHERE attempt_id IN (${atts.map(() => '?').join(',')})`).get(...atts) as { c: number }).c).toBe(answers);
    const last = answers - 1;
    expect(disk.prepare('SELECT option_id AS o FROM answers WHERE attempt_id = ? AND question_id = ?').get(atts[last % atts.length], `q${last}`)).toEqual({ o: `o${last}` });
    for (const att of atts) expect(storedWatermark(att)).toBe(b.durableSeq(att));
    expect(storedWatermark(atts[0]!)).toBe(Math.ceil(answers / atts.length));
    const seen = disk.prepare(`SELECT id, last_seen_at AS t FROM attempts WHERE id IN (${seenOnly.map(() => '?').join(',')})`).all(...seenOnly) as { id: string; t: number }[];
    expect(new Map(seen.map((r) => [r.id, r.t]))).toEqual(new Map(seenOnly.map((id, i) => [id, 10_000 + i])));
  });

  it('settles a replay that arrived while its newer answer was in flight, in memory and on disk', async () => {
    const b = threaded();
    const att = attempt();
    for (const [q, s] of [['q1', 1], ['q2', 2], ['q3', 3], ['q4', 5]] as const) b.save(att, q, 'x', null, s);
    const flushing = b.flush();
    b.save(att, 'q4', 'old', null, 4); // the page replays seq 4; seq 5 of q4 is being written
    await flushing;
    expect(b.durableSeq(att)).toBe(5);
    expect(storedWatermark(att)).toBe(5);
    expect(new AnswerBuffer(sqlite).durableSeq(att)).toBe(5);
  });

  it('never lets a job taken before a lowering raise the stored watermark over an answer only in memory', async () => {
    const b = threaded();
    const att = attempt();
    for (let s = 1; s <= 5; s++) b.save(att, `q${s}`, 'x', null, s);
    b.save(att, 'q7', 'x', null, 7); // seq 6 was lost with a crashed process
    await b.flush();
    expect(b.durableSeq(att)).toBe(5);
    expect(b.seal(att)).toBe(7); // a sign-in on a new PC: seq 6 stops holding the watermark
    b.save(att, 'q8', 'x', null, 8);
    // hold the write lock on the server's connection, so the job must wait for it...
    sqlite.exec('BEGIN IMMEDIATE');
    const flushing = b.flush();
    await new Promise((r) => setTimeout(r, 50));
    // ...while the old PC's queue replays seq 6: below the watermark, only in memory
    b.save(att, 'q6', 'x', null, 6);
    expect(b.durableSeq(att)).toBe(5);
    sqlite.exec('COMMIT');
    await flushing;
    // the process dies before the next flush: what it left must not claim seq 6
    const given = new Map([1, 2, 3, 4, 5, 6, 7, 8].map((s) => [s, `q${s}`]));
    expect(storedWatermark(att)).toBe(5);
    expect(notOnDisk(att, given, new AnswerBuffer(sqlite).durableSeq(att))).toEqual([]);
    await b.flush();
    expect(b.durableSeq(att)).toBe(8);
  });

  it('keeps the durableSeq promise for any interleaving with jobs in flight (property)', async () => {
    const op = hallOps('begin' as const, 'end' as const);
    // one writer thread for the run; a "restarted process" is a new buffer on it
    const writer = threadWriter(file, sqlite, silentLogger, 'NORMAL', 3);
    const b0 = new AnswerBuffer(sqlite, { writer });
    writers.push(b0);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const att = attempt();
        let b = b0;
        let inFlight: Promise<unknown> | null = null;
        const given: Given = { answers: new Map(), counter: 0 };
        for (const o of ops) {
          if (o.kind === 'begin') inFlight ??= b.flush();
          else if (o.kind === 'end') {
            await inFlight;
            inFlight = null;
          } else if (o.kind === 'lost') ++given.counter;
          else if (o.kind === 'seal') signInReplay(b, att, given, world.committed);
          else if (o.kind === 'crash') {
            // killed once the job in flight reached the disk (or before it started); the
            // next process is a buffer reading the file, with its own writer thread
            await inFlight;
            inFlight = null;
            b = new AnswerBuffer(sqlite, { writer });
          } else candidateSave(b, att, given, o);
          const missing = notOnDisk(att, given.answers, b.durableSeq(att));
          if (missing.length) throw new Error(missing.join('; '));
        }
        await inFlight;
        const missing = notOnDisk(att, given.answers, new AnswerBuffer(sqlite).durableSeq(att));
        if (missing.length) throw new Error(`stored watermark: ${missing.join('; ')}`);
      }),
      { numRuns: 60 },
    );
  });

  it('falls back to writing on the server connection when the thread fails, and says so', async () => {
    const errors: string[] = [];
    const logger: Logger = { info() {}, warn() {}, error: (m) => errors.push(m) };
    const b = threaded(3, logger, join(file, '..', 'missing', 'db.sqlite'));
    const att = attempt();
    b.save(att, 'q1', 'x', null, 1);
    await b.flush().catch(() => undefined); // the thread may fail while this job waits for it
    await new Promise((r) => setTimeout(r, 200));
    b.save(att, 'q2', 'x', null, 2);
    const stats = await b.flush();
    expect(stats.writer).toBe('in-process');
    expect(b.durableSeq(att)).toBe(2);
    expect(world.committed(att).size).toBe(2);
    expect(errors).toEqual(['answer writer thread failed; answers are now written on the main thread']);
  });
});
