/**
 * Micro-benchmark behind a proposal in docs/benchmarks.md: what a flush's per-attempt
 * UPDATE (durable_seq, last_seen_at/last_saved_at) costs when the attempts row carries
 * the ~9 KB layout_json of a 60-question paper inline — SQLite rewrites the whole record,
 * overflow pages included — against the same UPDATE on a narrow WITHOUT ROWID side
 * table. WAL, synchronous=FULL, 10,000 attempts, random ids, BATCH updates per
 * transaction (argv[2], default 250), 40 transactions each.
 *
 *   node scripts/bench/micro/wide-row.mjs 250
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const N = 10_000;
const BATCH = Number(process.argv[2] ?? 250);
const ROUNDS = 40;

function open(file) {
  for (const s of ['', '-wal', '-shm']) rmSync(file + s, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE attempts (id TEXT PRIMARY KEY, exam_id TEXT, status TEXT, violations INT DEFAULT 0, layout_json TEXT NOT NULL, last_seen_at INT, last_saved_at INT, durable_seq INT DEFAULT 0)');
  db.exec('CREATE TABLE attempt_activity (attempt_id TEXT PRIMARY KEY, last_seen_at INT, last_saved_at INT, durable_seq INT DEFAULT 0) WITHOUT ROWID');
  const layout = JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ questionId: `q_${'x'.repeat(16)}${i}`, optionIds: [1, 2, 3, 4].map((j) => `opt_${'y'.repeat(16)}${j}`) })));
  const ins = db.prepare('INSERT INTO attempts (id, exam_id, status, layout_json) VALUES (?,?,?,?)');
  const insActivity = db.prepare('INSERT INTO attempt_activity (attempt_id) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      ins.run(`att_${i}`, 'ex', 'IN_PROGRESS', layout);
      insActivity.run(`att_${i}`);
    }
  })();
  return { db, layoutChars: layout.length };
}

const cases = [
  ['attempts (wide row, layout_json inline)', 'UPDATE attempts SET last_seen_at = ?, last_saved_at = ? WHERE id = ?'],
  ['attempt_activity (narrow WITHOUT ROWID table)', 'UPDATE attempt_activity SET last_seen_at = ?, last_saved_at = ? WHERE attempt_id = ?'],
];
for (const [name, sql] of cases) {
  const file = join(tmpdir(), `hallcbt-wide-${process.pid}.sqlite`);
  const { db, layoutChars } = open(file);
  const upd = db.prepare(sql);
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    db.transaction(() => {
      for (let i = 0; i < BATCH; i++) upd.run(Date.now(), Date.now(), `att_${Math.floor(Math.random() * N)}`);
    })();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: layout_json ${layoutChars} chars; ${BATCH} updates per transaction: median ${times[ROUNDS / 2].toFixed(2)} ms, max ${times[ROUNDS - 1].toFixed(2)} ms`);
  db.close();
  for (const s of ['', '-wal', '-shm']) rmSync(file + s, { force: true });
}
