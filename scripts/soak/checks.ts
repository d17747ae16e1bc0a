/**
 * The campaign's checks.
 *
 * While the server is down (between SIGKILL and restart) the database file is opened
 * read-only with better-sqlite3 — exactly what the next process will find on disk:
 * (b) `PRAGMA integrity_check` = ok; (a) every answer at or below the acknowledged
 * durableSeq is in the `answers` table; (c) every COMPLETED attempt has exactly one
 * `exam.attempt.completed` outbox row and no other attempt has one, every acknowledged
 * submit is COMPLETED, and every event the receiver got is still in the outbox.
 *
 * After the restart, `checkClock` judges (d): the time an in-progress candidate lost
 * across an outage must be no more than the time some server process was running.
 */
import Database from 'better-sqlite3';
import type { ServerAnswer, VirtualCandidate } from './candidate.js';
import type { PhaseClock } from './phases.js';
import type { Receiver } from './receiver.js';
import type { ServerProcess } from './server-process.js';
import type { Tally } from './tally.js';

/** Rounding of two whole-second remainingSeconds readings plus request latency. */
export const CLOCK_TOLERANCE_S = 1.5;
/** The heartbeat interval (runtime.ts): credit counts from the last heartbeat, so a candidate may gain up to this. */
export const HEARTBEAT_S = 2;

/**
 * Runs every offline check on the database file; the server must not be running. Failures
 * land in `t`; `clock` (optional) gets each check's duration.
 */
export function checkOnDisk(dbFile: string, candidates: VirtualCandidate[], receiver: Receiver, t: Tally, label: string, clock?: PhaseClock): void {
  let db: Database.Database;
  try {
    db = new Database(dbFile, { readonly: true, fileMustExist: true });
  } catch (e) {
    t.integrityFailures.push(`${label}: cannot open the database read-only: ${(e as Error).message}`);
    return;
  }
  try {
    let t0 = performance.now();
    t.integrityChecks++;
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const verdict = rows.map((r) => r.integrity_check).join('; ');
    if (verdict !== 'ok') t.integrityFailures.push(`${label}: ${verdict}`);
    clock?.add('on-disk (b) integrity_check', performance.now() - t0);
    t0 = performance.now();

    const answers = db.prepare('SELECT question_id AS questionId, option_id AS optionId, text, seq FROM answers WHERE attempt_id = ?');
    for (const c of candidates) {
      const r = c.lostDurable(answers.all(c.attemptId) as ServerAnswer[]);
      t.answersChecked += r.checked;
      t.lost.push(...r.lost.map((l) => `${label} (on disk): ${l}`));
    }
    clock?.add('on-disk (a) acknowledged answers present', performance.now() - t0);
    t0 = performance.now();

    t.outboxChecks++;
    const attempts = db
      .prepare(
        `SELECT a.id, a.status, (SELECT count(*) FROM outbox_events o WHERE o.type = 'exam.attempt.completed'
           AND json_extract(o.body, '$.data.attemptId') = a.id) AS events FROM attempts a`,
      )
      .all() as { id: string; status: string; events: number }[];
    const status = new Map(attempts.map((a) => [a.id, a.status]));
    for (const a of attempts) {
      const want = a.status === 'COMPLETED' ? 1 : 0;
      if (a.events !== want) t.outboxProblems.push(`${label}: attempt ${a.id} is ${a.status} with ${a.events} completed-event rows (want ${want})`);
    }
    for (const c of candidates) {
      if (c.submitAcked && status.get(c.attemptId) !== 'COMPLETED') t.outboxProblems.push(`${label}: submit of ${c.attemptId} was acknowledged but the attempt is ${status.get(c.attemptId)}`);
    }
    const known = new Set((db.prepare('SELECT id FROM outbox_events').all() as { id: string }[]).map((r) => r.id));
    for (const id of receiver.eventIds) if (!known.has(id)) t.outboxProblems.push(`${label}: event ${id} was delivered but is no longer in the outbox`);
    clock?.add('on-disk (c) outbox', performance.now() - t0);
  } catch (e) {
    t.integrityFailures.push(`${label}: check failed: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * (d) After a restart: `body` is the candidate's first GET /attempts/:id, arriving at
 * `at` (epoch ms). Compares the time charged with the time a server was alive.
 */
export function checkClock(c: VirtualCandidate, body: { status: string; remainingSeconds: number }, at: number, server: ServerProcess, t: Tally, label: string): void {
  if (body.status !== 'IN_PROGRESS' || !c.lastClock) return;
  const { remainingSeconds: before, at: t0 } = c.lastClock;
  const chargedS = before - body.remainingSeconds;
  const elapsedS = (at - t0) / 1000;
  const aliveS = server.aliveWithin(t0, at) / 1000;
  t.creditChecks++;
  if (elapsedS - aliveS > CLOCK_TOLERANCE_S) t.creditChecksDiscriminating++;
  t.secondsCredited += Math.max(0, elapsedS - chargedS);
  if (chargedS > aliveS + CLOCK_TOLERANCE_S) {
    t.creditFailures.push(`${label}: ${c.attemptId} lost ${chargedS} s of exam time over ${elapsedS.toFixed(1)} s of which a server ran only ${aliveS.toFixed(1)} s`);
  } else if (chargedS < -(HEARTBEAT_S + CLOCK_TOLERANCE_S)) {
    t.creditFailures.push(`${label}: ${c.attemptId} gained ${-chargedS} s (more than the heartbeat interval)`);
  }
}
