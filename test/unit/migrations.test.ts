/**
 * Upgrading a hall machine: migrations run at start-up on the existing database
 * (docs/operations.md "Upgrading"). A database at migration 0001 with an attempt in
 * progress keeps that attempt's question order when 0002 moves layouts to their table.
 */
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/db/index.js';
import { SessionCache } from '../../src/modules/sessions/session-cache.js';
import { tempDir } from '../harness.js';

const dir = tempDir('hallcbt-migrate-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of drizzle/ holding only the first `n` migrations. */
function firstMigrations(n: number): string {
  const out = join(dir, `migrations-${n}`);
  mkdirSync(join(out, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, n);
  writeFileSync(join(out, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) cpSync(join(MIGRATIONS_DIR, `${e.tag}.sql`), join(out, `${e.tag}.sql`));
  return out;
}

describe('migrations on an existing database', () => {
  it('0002 moves each attempt’s layout to attempt_layouts and the attempt still loads', () => {
    const file = join(dir, 'old.sqlite');
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: firstMigrations(2) });
    const layout = [{ questionId: 'q_2', optionIds: ['o_b', 'o_a'] }, { questionId: 'q_1', optionIds: [] }];
    old.prepare("INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at) VALUES ('w','w','STANDALONE_HALL','o','e','e',30,'d','s','s',0)").run();
    old.prepare("INSERT INTO exams (id, workspace_id, title, access_code, duration_mins, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, created_at, updated_at) VALUES ('e','w','t','C',10,3,0,0,1,1,0,0)").run();
    old.prepare("INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, status, started_at, layout_json, durable_seq) VALUES ('a','e','w','s','n','IN_PROGRESS',0,?,7)").run(JSON.stringify(layout));
    old.close();

    const { sqlite } = openDatabase(file);
    const columns = (sqlite.prepare('PRAGMA table_info(attempts)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('layout_json');
    expect(columns).toContain('durable_seq');
    const cache = new SessionCache(sqlite);
    expect(cache.attempt('a')?.row.id).toBe('a');
    expect(cache.layout('a')).toEqual(layout);
    expect(sqlite.prepare("SELECT durable_seq AS w FROM attempts WHERE id = 'a'").get()).toEqual({ w: 7 });
    expect((sqlite.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check).toBe('ok');
    sqlite.close();
  });
});
