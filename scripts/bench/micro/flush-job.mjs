/**
 * Micro-benchmark of one answer flush job (src/modules/answers/answer-commit.ts) on the
 * real schema: a hall of N attempts × 60 stored answers, then JOBS flush jobs of the
 * steady-hall shape (one changed answer + watermark + activity times for half the hall,
 * as 2 s saves flushed every 1 s produce), committed by `commitAll` on one connection
 * (synchronous=FULL) with ROWS rows per transaction. Prints per job: transactions,
 * longest transaction, whole job, and µs per saved answer. Build first (`npm run build`).
 *
 *   node scripts/bench/micro/flush-job.mjs [N=2500] [ROWS=128] [JOBS=10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIST = new URL('../../../dist/src/', import.meta.url);
const { openDatabase } = await import(new URL('db/index.js', DIST).href);
const { commitAll } = await import(new URL('modules/answers/index.js', DIST).href);

const [N, ROWS, JOBS] = [Number(process.argv[2] ?? 2500), Number(process.argv[3] ?? 128), Number(process.argv[4] ?? 10)];
const dir = mkdtempSync(join(tmpdir(), 'hallcbt-flushjob-'));
const { sqlite } = openDatabase(join(dir, 'db.sqlite'), 'FULL');
const qid = (i) => `q_${'x'.repeat(18)}${String(i).padStart(2, '0')}`;
const aid = (i) => `att_${'a'.repeat(20)}${String(i).padStart(5, '0')}`;
sqlite.prepare("INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at) VALUES ('w','w','STANDALONE_HALL','o','e','e',30,'d','s','s',0)").run();
sqlite.prepare("INSERT INTO exams (id, workspace_id, title, access_code, duration_mins, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, created_at, updated_at) VALUES ('e','w','t','C',10,3,0,0,1,1,0,0)").run();
const insA = sqlite.prepare("INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, status, started_at) VALUES (?, 'e', 'w', ?, 'Candidate name', 'IN_PROGRESS', 0)");
const insAns = sqlite.prepare('INSERT INTO answers (attempt_id, question_id, option_id, text, seq, updated_at) VALUES (?,?,?,NULL,?,0)');
sqlite.transaction(() => {
  for (let a = 0; a < N; a++) {
    insA.run(aid(a), `S${a}`);
    for (let q = 0; q < 60; q++) insAns.run(aid(a), qid(q), `opt_${'o'.repeat(20)}1`, q + 1);
  }
})();
sqlite.pragma('wal_checkpoint(TRUNCATE)');

let seq = 100;
const results = [];
for (let j = 0; j < JOBS; j++) {
  const answers = [];
  const attempts = [];
  const now = Date.now();
  for (let k = 0; k < N / 2; k++) {
    const a = aid(Math.floor(Math.random() * N));
    seq++;
    answers.push(a, qid(Math.floor(Math.random() * 60)), `opt_${'o'.repeat(20)}2`, null, seq, now);
    attempts.push(a, 0, seq, now, now);
  }
  const t0 = performance.now();
  const r = commitAll(sqlite, { answers, attempts, at: now }, ROWS);
  const ms = performance.now() - t0;
  results.push({ tx: r.batches, maxTxMs: r.maxBatchMs, jobMs: ms, usPerAnswer: (ms * 1000) / (N / 2) });
  sqlite.pragma('wal_checkpoint(PASSIVE)');
}
const med = (k) => results.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
console.log(JSON.stringify({ N, rowsPerTx: ROWS, jobs: JOBS, answersPerJob: N / 2, medianTx: med('tx'), medianMaxTxMs: +med('maxTxMs').toFixed(2), medianJobMs: +med('jobMs').toFixed(2), medianUsPerAnswer: +med('usPerAnswer').toFixed(1) }));
sqlite.close();
rmSync(dir, { recursive: true, force: true });
