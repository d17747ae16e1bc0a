/**
 * Micro-benchmark of the event loop's share of one answer flush
 * (src/modules/answers/answer-buffer.ts `flush`): taking the snapshot, marking the
 * entries clean and checking the watermarks, without the database work — the job goes to
 * a writer that answers at once (the real server's writer thread does that work on the
 * other core). A hall of N attempts saves one answer each (the steady hall's shape: 2 s
 * saves flushed every 1 s give ~N/2 answers per flush, here N per flush), then one flush;
 * JOBS times. Prints the median flush time in ms and in µs per answer. Build first
 * (`npm run build`).
 *
 *   node scripts/bench/micro/flush-loop.mjs [N=5000] [JOBS=20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIST = new URL('../../../dist/src/', import.meta.url);
const { openDatabase } = await import(new URL('db/index.js', DIST).href);
const { AnswerBuffer } = await import(new URL('modules/answers/index.js', DIST).href);

const [N, JOBS] = [Number(process.argv[2] ?? 5000), Number(process.argv[3] ?? 20)];
const dir = mkdtempSync(join(tmpdir(), 'hallcbt-flushloop-'));
const { sqlite } = openDatabase(join(dir, 'db.sqlite'), 'FULL');
/** commits nothing and answers at once: only the event loop's part is measured */
const instant = { kind: 'thread', write: async () => ({ batches: 1, maxBatchMs: 0, skipped: [], postMs: 0 }), close: async () => {} };
const buffer = new AnswerBuffer(sqlite, { writer: instant });
const qids = Array.from({ length: 60 }, (_, i) => `q_${'x'.repeat(18)}${String(i).padStart(2, '0')}`);
const aids = Array.from({ length: N }, (_, i) => `att_${'a'.repeat(20)}${String(i).padStart(5, '0')}`);

const results = [];
for (let j = 0; j < JOBS + 2; j++) {
  // like requests: a fresh string per save (the route's param), the paper's question id
  for (let a = 0; a < N; a++) buffer.save(`${aids[a]}`.slice(0), qids[(a + j) % 60], 'opt_1', null);
  const activity = aids.flatMap((id) => [id, 0, -1, Date.now(), Date.now()]);
  const t0 = performance.now();
  await buffer.flush(activity);
  const ms = performance.now() - t0;
  if (j >= 2) results.push(ms); // the first two warm the JIT and fill the seq state
}
results.sort((a, b) => a - b);
const med = results[Math.floor(results.length / 2)];
console.log(JSON.stringify({ N, jobs: JOBS, medianFlushMs: +med.toFixed(2), usPerAnswer: +((med * 1000) / N).toFixed(2) }));
sqlite.close();
rmSync(dir, { recursive: true, force: true });
