/**
 * Shared ground for the durableSeq tests (durable-seq.test.ts, answer-writer.test.ts): a
 * database file with a workspace and an exam, a second read-only connection that sees
 * only committed transactions — what the next process finds after SIGKILL — and the
 * pieces of the property tests: the random operations, a candidate's save (new or a
 * stale replay) and the sign-in replay the page does after a seal.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/index.js';
import type { AnswerBuffer } from '../../src/modules/answers/answer-buffer.js';
import { tempDir } from '../harness.js';

/** Opens a fresh world: `sqlite` for buffers, `notOnDisk()` to judge them, `attempt()` for rows. */
export function durableWorld(prefix: string) {
  const dir = tempDir(prefix);
  const file = join(dir, 'db.sqlite');
  // NORMAL keeps the property tests quick; the second connection sees committed transactions either way
  const { sqlite } = openDatabase(file, 'NORMAL');
  const disk = new Database(file, { readonly: true });
  const onDisk = disk.prepare('SELECT question_id AS q, seq FROM answers WHERE attempt_id = ?');
  sqlite.prepare("INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at) VALUES ('w','w','STANDALONE_HALL','o','e','e',30,'d','s','s',0)").run();
  sqlite.prepare("INSERT INTO exams (id, workspace_id, title, access_code, duration_mins, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, created_at, updated_at) VALUES ('e','w','t','C',10,3,0,0,1,1,0,0)").run();
  let n = 0;
  /** The committed answer rows of an attempt: question → seq. */
  const committed = (attemptId: string) => new Map((onDisk.all(attemptId) as { q: string; seq: number }[]).map((r) => [r.q, r.seq]));
  return {
    file,
    sqlite,
    disk,
    committed,
    /** Inserts a real attempts row (so a stored watermark can be read back) and returns its id. */
    attempt(): string {
      const att = `att_${prefix}${++n}`;
      sqlite.prepare("INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, status, started_at) VALUES (?, 'e', 'w', ?, 'n', 'IN_PROGRESS', 0)").run(att, att);
      return att;
    },
    /**
     * The answers a page would lose (each as a sentence): for each question, the newest seq
     * given, when it is ≤ durableSeq and the question's committed row is older. The page
     * keeps one pending answer per question, the newest (web/candidate/answers.ts), and
     * forgets it once durableSeq covers it; an older seq of a question matters only through
     * the newest one (see the seal exception in answer-buffer.ts's module doc).
     */
    notOnDisk(attemptId: string, given: Map<number, string>, durableSeq: number): string[] {
      const rows = committed(attemptId);
      const newest = new Map<string, number>();
      for (const [seq, q] of given) if ((newest.get(q) ?? 0) < seq) newest.set(q, seq);
      const out: string[] = [];
      for (const [q, seq] of newest) if (seq <= durableSeq && (rows.get(q) ?? 0) < seq) out.push(`seq ${seq} (${q}, its newest) ≤ durableSeq ${durableSeq} but disk has ${rows.get(q) ?? 'nothing'}`);
      return out;
    },
    close() {
      disk.close();
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The random operations of a property run: saves (new, or a stale replay of a seq used
 * `back` saves ago), a seq lost with a crashed process, a sign-in seal, a crash — and
 * the flush operations the caller names (each with weight 2).
 */
export function hallOps<K extends string>(...flushKinds: K[]) {
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('save' as const), q: fc.integer({ min: 0, max: 4 }), stale: fc.boolean(), back: fc.integer({ min: 1, max: 6 }) }) },
    ...flushKinds.map((k) => ({ weight: 2, arbitrary: fc.record({ kind: fc.constant(k) }) })),
    // a seq the page used but this process never received (lost with a crashed one)
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('lost' as const) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('seal' as const) }) },
    // the process dies (SIGKILL): what was not committed is gone; a new buffer starts from the file
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const) }) },
  );
}

/** What the page has given so far: seq → question, and the last seq it used. */
export interface Given {
  answers: Map<number, string>;
  counter: number;
}

/** A candidate's save: a new seq, or (stale) one used `back` saves ago, replayed. */
export function candidateSave(b: AnswerBuffer, att: string, given: Given, o: { q: number; stale: boolean; back: number }): void {
  const seq = o.stale && given.counter > o.back ? given.counter - o.back : ++given.counter;
  const q = o.stale && given.answers.has(seq) ? given.answers.get(seq)! : `q${o.q}`;
  if (!given.answers.has(seq)) given.answers.set(seq, q);
  b.save(att, q, `opt_${seq}`, null, seq);
}

/**
 * A sign-in: the watermark is sealed (which writes the attempt's buffered answers), then
 * the page re-sends every answer the server does not hold; `committed` reads the disk.
 */
export function signInReplay(b: AnswerBuffer, att: string, given: Given, committed: (att: string) => Map<string, number>): void {
  b.seal(att);
  const rows = committed(att);
  for (const [seq, q] of given.answers) if ((rows.get(q) ?? 0) < seq && (b.answersFor(att, [q])[0]?.seq ?? 0) < seq) b.save(att, q, `opt_${seq}`, null, seq);
}
