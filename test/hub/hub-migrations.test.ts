/**
 * Upgrading a hub (docs/hub.md): migrations run at start-up on the existing database. A
 * database at hub migration 0006, holding results of one candidate from two halls, gets
 * `hub_sittings` from 0007 filled with the hall of each candidate's first stored result: the
 * claim a later result from another hall meets (test/hub/centres.test.ts tests that refusal);
 * and `hub_current_results` from 0008 with each attempt's newest event, the fields a row
 * stored before 0004 keeps only in its body read from there.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../harness.js';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';
import { openHubDatabase } from '../../src/hub/db/index.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

const HUB_MIGRATIONS = new URL('../../drizzle-hub/', import.meta.url).pathname;

/** A copy of drizzle-hub/ holding only the first `n` migrations. */
function firstMigrations(dir: string, n: number): string {
  const out = join(dir, `hub-migrations-${n}`);
  mkdirSync(join(out, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(HUB_MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, n);
  writeFileSync(join(out, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) cpSync(join(HUB_MIGRATIONS, `${e.tag}.sql`), join(out, `${e.tag}.sql`));
  return out;
}

describe.skipIf(skipWhy !== null)('hub migrations on an existing database', () => {
  let cluster: PgCluster;
  const dir = tempDir('hallcbt-hub-migrate-');
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('0007 fills hub_sittings from the results held: each candidate’s first stored result’s hall', async () => {
    const url = cluster.createDatabase('hub_upgrade');
    const old = new pg.Pool({ connectionString: url, max: 1 });
    await migrate(drizzle(old), { migrationsFolder: firstMigrations(dir, 7) });
    const row = (eventId: string, hallId: string, studentId: string, receivedAt: string) =>
      old.query(
        `INSERT INTO hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, grade, status, body, hall_sent_at, received_at)
         VALUES ($1, $2, 'hex_1', $3, 'exam.attempt.completed', $4, 1, 2, 'F9', 'COMPLETED', '{}'::jsonb, $5, $5)`,
        [eventId, hallId, `att_${eventId}`, studentId, receivedAt],
      );
    // S-1 first at Kano then (before the rule) also at Lagos; S-2 at Lagos with a later regrade
    await row('evt_k1', 'hall_kano', 'S-1', '2026-11-25T09:10:00Z');
    await row('evt_l1', 'hall_lagos', 'S-1', '2026-11-25T09:20:00Z');
    await row('evt_l2', 'hall_lagos', 'S-2', '2026-11-25T09:05:00Z');
    await row('evt_l2b', 'hall_lagos', 'S-2', '2026-11-25T09:30:00Z');
    // the regrade is of the same attempt; the first S-2 row is in the layout before 0004 (name, violations, completion only in the body)
    await old.query("UPDATE hub_results SET attempt_id = 'att_evt_l2', candidate_name = 'Bola Ade', violations = 1, completed_at = '2026-11-25T09:04:00.000Z', score = 2 WHERE event_id = 'evt_l2b'");
    await old.query(`UPDATE hub_results SET body = '{"attempt":{"candidateName":"Ada Obi","violations":3,"completedAt":"2026-11-25T09:09:00.000Z"}}'::jsonb WHERE event_id = 'evt_k1'`);
    await old.end();

    const upgraded = await openHubDatabase(url, { max: 1 });
    try {
      const sittings = (await upgraded.pool.query('SELECT exam_id, student_id, hall_id, event_id FROM hub_sittings ORDER BY student_id')).rows;
      expect(sittings).toEqual([
        { exam_id: 'hex_1', student_id: 'S-1', hall_id: 'hall_kano', event_id: 'evt_k1' },
        { exam_id: 'hex_1', student_id: 'S-2', hall_id: 'hall_lagos', event_id: 'evt_l2' },
      ]);
      const current = (await upgraded.pool.query('SELECT hall_id, attempt_id, event_id, candidate_name, violations, completed_at, score FROM hub_current_results ORDER BY hall_id, attempt_id')).rows;
      expect(current).toEqual([
        { hall_id: 'hall_kano', attempt_id: 'att_evt_k1', event_id: 'evt_k1', candidate_name: 'Ada Obi', violations: 3, completed_at: '2026-11-25T09:09:00.000Z', score: 1 },
        { hall_id: 'hall_lagos', attempt_id: 'att_evt_l1', event_id: 'evt_l1', candidate_name: '', violations: 0, completed_at: null, score: 1 },
        { hall_id: 'hall_lagos', attempt_id: 'att_evt_l2', event_id: 'evt_l2b', candidate_name: 'Bola Ade', violations: 1, completed_at: '2026-11-25T09:04:00.000Z', score: 2 },
      ]);
      // the index the old lock-and-look-up used is gone with it
      const indexes = (await upgraded.pool.query("SELECT indexname FROM pg_indexes WHERE tablename = 'hub_results'")).rows.map((r: { indexname: string }) => r.indexname);
      expect(indexes).not.toContain('hub_results_exam_student_idx');
    } finally {
      await upgraded.close();
    }
  });
});
