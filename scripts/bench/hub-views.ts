/**
 * The hub benchmark's second half (scripts/bench/hub.ts): results seeded straight into
 * PostgreSQL by SQL (`--seed-sql`: the rows the ingest would store for the same halls,
 * candidates and answers, without the 20-minute ingest), and the board page's views timed
 * at that size — the halls view (GET /hub/v1/halls), a paper's results (GET …/results, whole
 * and a page of 100) and its item analysis (GET …/analysis), one request at a time; and the
 * CPU time of processes (/proc), to see where ingest time goes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { gradeFor } from '../../src/core/grading/scale.js';

/** What the seed needs of a bench hall: its index (0-based), id, paper and package. */
export interface SeedHall {
  id: string;
  examId: string;
  packageId: string;
}
/** A paper as the hub returned it on creation: question ids and option ids with the key. */
export interface SeedExam {
  id: string;
  questions: { id: string; options: { id: string; isCorrect: boolean }[] }[];
}

/**
 * Inserts `candidates` results per hall into hub_results (with each attempt's current result
 * in hub_current_results, and the halls view's counts in hub_hall_results) as the ingest stores them (src/hub/result-store.ts: answers without their
 * null / false fields, the hub's marks one per answer): event `evt_b<s·H+h>`
 * of attempt `att_b<s·H+h>`, candidate `C<h+1>-<s+1>`, answer k = option (s + k) mod 4 —
 * exactly the events scripts/bench/hub.ts sends. In chunks of 500 halls, one statement each.
 * @returns seconds taken
 */
export async function seedResultsBySql(client: pg.Client, halls: SeedHall[], exams: SeedExam[], candidates: number, log: (s: string) => void): Promise<number> {
  const t = performance.now();
  const H = halls.length;
  await client.query('CREATE TEMP TABLE bench_halls (i int, hall_id text, exam_id text, package_id text)');
  await client.query('INSERT INTO bench_halls SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])', [halls.map((_, i) => i), halls.map((h) => h.id), halls.map((h) => h.examId), halls.map((h) => h.packageId)]);
  // candidate s answers in pattern s mod 4: the answers, the hub's marks, score and grade of each
  const patterns = exams.flatMap((x) =>
    [0, 1, 2, 3].map((k) => {
      const picked = x.questions.map((q, j) => q.options[(k + j) % 4]!);
      const score = picked.filter((o) => o.isCorrect).length;
      const percentage = Math.round((score / x.questions.length) * 10000) / 100;
      return { exam: x.id, k, answers: JSON.stringify(x.questions.map((q, j) => ({ questionId: q.id, optionId: picked[j]!.id }))), marks: JSON.stringify(picked.map((o) => (o.isCorrect ? 1 : 0))), score, max: x.questions.length, percentage, grade: gradeFor(percentage) };
    }),
  );
  await client.query('CREATE TEMP TABLE bench_patterns (exam_id text, k int, answers jsonb, marks jsonb, score real, max_score real, percentage real, grade text)');
  await client.query('INSERT INTO bench_patterns SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[], $4::jsonb[], $5::real[], $6::real[], $7::real[], $8::text[])', [patterns.map((p) => p.exam), patterns.map((p) => p.k), patterns.map((p) => p.answers), patterns.map((p) => p.marks), patterns.map((p) => p.score), patterns.map((p) => p.max), patterns.map((p) => p.percentage), patterns.map((p) => p.grade)]);
  for (let from = 0; from < H; from += 500) {
    await client.query(
      `INSERT INTO hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, percentage, grade, pending_review, marks, hall_claim, status, candidate_name, violations, completed_at, body, hall_sent_at, received_at)
       SELECT 'evt_b' || (s * $1 + b.i), b.hall_id, b.exam_id, 'att_b' || (s * $1 + b.i), 'exam.attempt.completed', 'C' || (b.i + 1) || '-' || (s + 1),
              p.score, p.max_score, p.percentage, p.grade, false, p.marks, NULL, 'COMPLETED', 'Candidate ' || (s + 1) || ' of hall ' || (b.i + 1), 0, $5,
              jsonb_build_object('eventId', 'evt_b' || (s * $1 + b.i), 'type', 'exam.attempt.completed', 'packageId', b.package_id, 'examId', b.exam_id, 'createdAt', $5::text,
                'attempt', jsonb_build_object('attemptId', 'att_b' || (s * $1 + b.i), 'studentId', 'C' || (b.i + 1) || '-' || (s + 1), 'candidateName', 'Candidate ' || (s + 1) || ' of hall ' || (b.i + 1),
                  'status', 'COMPLETED', 'startedAt', $6::text, 'completedAt', $5::text,
                  'disqualifiedAt', NULL, 'creditedMs', 0, 'violations', 0, 'score', p.score, 'maxScore', p.max_score, 'percentage', p.percentage, 'grade', p.grade, 'pendingReview', false, 'answers', p.answers, 'audit', '[]'::jsonb)),
              now(), now()
         FROM bench_halls b CROSS JOIN generate_series(0, $2 - 1) s JOIN bench_patterns p ON p.exam_id = b.exam_id AND p.k = s % 4
        WHERE b.i >= $3 AND b.i < $4`,
      [H, candidates, from, from + 500, new Date().toISOString(), new Date(Date.now() - 3_000_000).toISOString()],
    );
    // each attempt's current result, as the ingest keeps it (src/hub/result-ingest.ts): one event per attempt here
    await client.query(
      `INSERT INTO hub_current_results (exam_id, hall_id, attempt_id, event_id, type, student_id, candidate_name, status, score, max_score, percentage, grade, pending_review, section_scores, violations, completed_at, hall_claim, hall_sent_at)
       SELECT r.exam_id, r.hall_id, r.attempt_id, r.event_id, r.type, r.student_id, r.candidate_name, r.status, r.score, r.max_score, r.percentage, r.grade, r.pending_review, r.section_scores, r.violations, r.completed_at, r.hall_claim, r.hall_sent_at
         FROM hub_results r JOIN bench_halls b ON b.hall_id = r.hall_id WHERE b.i >= $1 AND b.i < $2`,
      [from, from + 500],
    );
    log(`    seeded ${Math.min(H, from + 500) * candidates} / ${H * candidates} results (${Math.round((performance.now() - t) / 1000)} s)`);
  }
  await client.query('INSERT INTO hub_hall_results (hall_id, exam_id, attempts) SELECT hall_id, exam_id, $1 FROM bench_halls', [candidates]);
  await client.query('ANALYZE');
  return (performance.now() - t) / 1000;
}

/** One view's timing: requests, p50/p95/max in ms, and the size of one response. */
export interface ViewTiming {
  view: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  kb: number;
}

/**
 * Times `n` sequential GETs of each view (issue #38 §7): first the board page's own calls — a
 * page of 100 halls (offsets in turn), a search of the halls, a page of 100 of a paper's
 * candidates (papers and offsets in turn), a paper's item analysis after its first computation
 * (the first `warm` papers, each computed once before the clock runs, that computation timed
 * as its own row) — then the whole (unpaged) API calls the exports and scripts make: every
 * hall, every candidate of a paper.
 * @param get one authorised GET: status and body
 * @param halls the number of halls (for the offsets of the halls' pages)
 */
export async function timeViews(get: (path: string) => Promise<{ status: number; text: string }>, examIds: string[], n: number, halls = 100): Promise<ViewTiming[]> {
  const paper = (i: number) => examIds[i % examIds.length]!;
  const hallPages = Math.max(1, Math.ceil(halls / 100));
  const warm = examIds.slice(0, Math.min(5, examIds.length));
  const out: ViewTiming[] = [];
  out.push(await timeView('page: item analysis, first computation (GET …/analysis)', warm.length, (i) => `/hub/v1/exams/${warm[i]}/analysis`, get));
  const views: [string, (i: number) => string][] = [
    ['page: 100 halls (GET /hub/v1/halls?offset&limit=100)', (i) => `/hub/v1/halls?offset=${(i % hallPages) * 100}&limit=100`],
    ['page: halls searched (…/halls?q=Hall 1…&limit=100)', (i) => `/hub/v1/halls?q=${encodeURIComponent(`Hall ${(i % 9) + 1}${i % 10}`)}&limit=100`],
    ['page: 100 of a paper’s candidates (…/results?offset&limit=100)', (i) => `/hub/v1/exams/${paper(i)}/results?offset=${(i % 3) * 100}&limit=100`],
    ['page: item analysis, computed before (GET …/analysis)', (i) => `/hub/v1/exams/${warm[i % warm.length]}/analysis`],
    ['whole: every hall (GET /hub/v1/halls)', () => '/hub/v1/halls'],
    ['whole: a paper’s results (GET …/results)', (i) => `/hub/v1/exams/${paper(i)}/results`],
  ];
  for (const [view, path] of views) out.push(await timeView(view, n, path, get));
  return out;
}

/** `n` sequential GETs of `path(i)`: p50/p95/max in ms and the size of the last response. */
async function timeView(view: string, n: number, path: (i: number) => string, get: (path: string) => Promise<{ status: number; text: string }>): Promise<ViewTiming> {
  const lat: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await get(path(i));
    lat.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`${view}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    bytes = r.text.length;
  }
  const s = [...lat].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!);
  return { view, requests: n, p50: at(0.5), p95: at(0.95), max: Math.round(s.at(-1)!), kb: Math.round(bytes / 1024) };
}

/** CPU seconds (user + system) of each process: `pid` and, with `children`, every process whose parent it is (PostgreSQL's backends). */
export function cpuTicks(pid: number, children = false): Map<number, number> {
  const out = new Map<number, number>();
  const read = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // after "pid (comm) ": state, ppid, …, utime (14th field), stime (15th)
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
    } catch {
      return null;
    }
  };
  const own = read(pid);
  if (own) out.set(pid, own.ticks);
  if (children) for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const r = read(Number(d));
    if (r && r.ppid === pid) out.set(Number(d), r.ticks);
  }
  return out;
}
/** CPU seconds spent between two {@link cpuTicks} samples (a process absent from `before` started since: all its ticks count). */
export const cpuSpent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((s, [p, t]) => s + t - (before.get(p) ?? 0), 0) / 100;
