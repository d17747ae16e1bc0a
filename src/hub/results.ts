/**
 * Results across halls (issue #24 §4): the current event of every attempt of a hub exam,
 * per hall and per candidate, the item analysis over all halls and the xlsx/CSV exports,
 * computed by the hall's own analysis and export code from the events' answers. Every
 * score, grade and mark is the hub's own computation (result-checks.ts), never the hall's
 * claim; a hall's differing claim is shown beside it (`hallClaim`).
 */
import { and, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ResultEvent, SealedQuestion } from '../core/sync/messages.js';
import { analyseMatrix } from '../core/analysis/item-analysis.js';
import { buildMatrix } from '../core/analysis/response-matrix.js';
import type { AnswerRecord, AttemptRecord, ExamAnalysisReport } from '../core/analysis/records.js';
import { resultsCsv, resultsTable, resultsWorkbook } from '../core/formats/results-export.js';
import type { StoredQuestion } from '../core/questions/schemas.js';
import type { SectionScore } from '../core/grading/section-scores.js';
import type { HubDeps } from './deps.js';
import { getHubExam } from './exams.js';
import { halls, hubAnalyses, hubExams, hubSecondSittings } from './db/schema.js';
import { NotFound } from '../platform/errors.js';
import { eventOfBody, marksOnAnswers } from './result-store.js';

interface CurrentResult {
  hallId: string;
  hallName: string;
  event: ResultEvent;
  /** the hall's own figures when they differ from the hub's (audited `result-score-differs`), else null */
  hallClaim: unknown;
}

/** A stored row as the results read it: the hall's event (result-store.ts) and the hub's own figures. */
interface StoredRow {
  body: ResultEvent;
  hallId: string;
  hallName: string;
  score: number;
  maxScore: number;
  percentage: number;
  grade: string;
  pendingReview: boolean;
  marks: (number | null)[] | Record<string, number> | null;
  /** the hub's scores per section (a paper with sections), else null */
  sectionScores: SectionScore[] | null;
  hallClaim: unknown;
}

/**
 * The event as the hub reports it: the hall's attempt with the hub's score, maximum,
 * percentage, grade, pending flag and section scores (a paper with sections; else none),
 * and the hub's marks on each answer (a row stored before the hub graded, `marks` null,
 * keeps the hall's).
 */
function hubView(r: StoredRow): ResultEvent {
  const event = eventOfBody(r.body);
  // the hall's own section scores are its claim; the hub reports its own (stored at ingest)
  const { sectionScores: _claimed, ...a } = event.attempt;
  const marks = r.marks === null ? null : marksOnAnswers(r.marks, a.answers);
  const answers = marks === null ? a.answers : a.answers.map((x, i) => ({ ...x, awardedMarks: marks[i]! }));
  return { ...event, attempt: { ...a, score: r.score, maxScore: r.maxScore, percentage: r.percentage, grade: r.grade, pendingReview: r.pendingReview, ...(r.sectionScores ? { sectionScores: r.sectionScores } : {}), answers } };
}

/** the order of hall names and student ids (String#localeCompare's, without its per-call set-up) */
const byText = new Intl.Collator().compare;

async function currentResults(deps: HubDeps, examId: string, hallId?: string): Promise<CurrentResult[]> {
  // the newest event of each attempt (by the hall's own time, then id) is its current result
  const rows = await deps.db.execute(sql`
    SELECT DISTINCT ON (r.hall_id, r.attempt_id) r.body, r.hall_id AS "hallId", h.name AS "hallName",
           r.score, r.max_score AS "maxScore", r.percentage, r.grade, r.pending_review AS "pendingReview", r.marks, r.section_scores AS "sectionScores", r.hall_claim AS "hallClaim"
      FROM hub_results r JOIN halls h ON h.id = r.hall_id
     WHERE r.exam_id = ${examId} ${hallId ? sql`AND r.hall_id = ${hallId}` : sql``}
     ORDER BY r.hall_id, r.attempt_id, r.hall_sent_at DESC, r.event_id DESC`);
  const out = (rows.rows as unknown as StoredRow[]).map((r) => ({ hallId: r.hallId, hallName: r.hallName, event: hubView(r), hallClaim: r.hallClaim ?? null }));
  return out.sort((a, b) => byText(a.hallName, b.hallName) || byText(a.event.attempt.studentId, b.event.attempt.studentId));
}

function storedQuestions(examId: string, questions: SealedQuestion[], createdAt: string): StoredQuestion[] {
  return questions.map((q, position) => ({ ...q, examId, position, difficulty: null, citation: null, createdAt }));
}

/**
 * The hub's edge to the domain's result shapes (core/analysis/records.ts): each current
 * event's attempt as an {@link AttemptRecord} (ISO times → epoch ms) and its answers as
 * {@link AnswerRecord}s, by attempt id then question id; an answer's marks count as
 * approved when the hall says an examiner reviewed it (as result-checks.ts grades it); an
 * attempt's `givenQuestionIds` (checked at ingest, sitting-check.ts) are its questions.
 */
function records(results: CurrentResult[]): { attempts: AttemptRecord[]; answers: Map<string, Map<string, AnswerRecord>> } {
  const attempts = results.map(({ event: { attempt: a } }): AttemptRecord => ({
    id: a.attemptId,
    studentId: a.studentId,
    candidateName: a.candidateName,
    status: a.status,
    startedAt: Date.parse(a.startedAt),
    completedAt: a.completedAt === null ? null : Date.parse(a.completedAt),
    creditedMs: a.creditedMs,
    violations: a.violations,
    score: a.score,
    maxScore: a.maxScore,
    percentage: a.percentage,
    grade: a.grade,
    pendingReview: a.pendingReview,
    sectionScores: a.sectionScores ?? null,
    // the questions this candidate was given (a paper with draws or subjects): an item's
    // statistics count only them (core/analysis/response-matrix.ts; issue 37 §2)
    questionIds: a.givenQuestionIds ?? null,
  }));
  const answers = new Map<string, Map<string, AnswerRecord>>();
  for (const { event: { attempt: a } } of results) {
    answers.set(a.attemptId, new Map(a.answers.map((x): [string, AnswerRecord] => [x.questionId, { questionId: x.questionId, optionId: x.optionId, text: x.text, approvedMarks: x.reviewed ? x.awardedMarks : null }])));
  }
  return { attempts, answers };
}

/**
 * The second sittings the hub refused for this exam (result-ingest.ts), oldest first: who,
 * at which hall, and which held result they would have doubled.
 */
async function secondSittings(deps: HubDeps, examId: string) {
  const rows = await deps.db.select({ s: hubSecondSittings, hallName: halls.name }).from(hubSecondSittings).innerJoin(halls, eq(halls.id, hubSecondSittings.hallId)).where(eq(hubSecondSittings.examId, examId)).orderBy(hubSecondSittings.receivedAt, hubSecondSittings.eventId);
  return rows.map(({ s, hallName }) => ({ code: 'SECOND_SITTING_REFUSED' as const, studentId: s.studentId, hallId: s.hallId, hallName, attemptId: s.attemptId, eventId: s.eventId, heldHallId: s.heldHallId, heldEventId: s.heldEventId, receivedAt: s.receivedAt.toISOString() }));
}

/** A current result as the results view reads it: the row's columns (older rows: three fields of the body), never the answers. */
interface ResultLine {
  hallId: string;
  hallName: string;
  eventId: string;
  type: ResultEvent['type'];
  attemptId: string;
  studentId: string;
  candidateName: string;
  status: ResultEvent['attempt']['status'];
  score: number;
  maxScore: number;
  percentage: number;
  grade: string;
  pendingReview: boolean;
  /** the hub's scores per section (a paper with sections), else null */
  sectionScores: SectionScore[] | null;
  violations: number;
  completedAt: string | null;
  hallClaim: unknown;
}


/**
 * Per-candidate results of an exam, optionally of one hall, with per-hall counts. A
 * candidate whose result from another hall the hub refused (a second sitting) carries it in
 * `flags`, and every such refusal is listed in `secondSittings`. `received` counts every
 * current result; `page` ({offset, limit}) cuts `candidates` (by hall name, then student id)
 * to a page, the per-hall figures still over all of them. Reads each attempt's current
 * result from `hub_current_results` (kept at ingest: a few hundred bytes a candidate), never
 * the events' bodies.
 */
export async function examResults(deps: HubDeps, examId: string, hallId?: string, page?: { offset: number; limit?: number }) {
  // the title and the roster's size only: not the exam with every candidate's PIN opened
  const [exam] = await deps.db.select({ id: hubExams.id, title: hubExams.title, expected: sql<number>`jsonb_array_length(${hubExams.roster})::int` }).from(hubExams).where(eq(hubExams.id, examId));
  if (!exam) throw new NotFound('Exam');
  const rows = await deps.db.execute(sql`
    SELECT c.hall_id AS "hallId", h.name AS "hallName", c.event_id AS "eventId", c.type, c.attempt_id AS "attemptId", c.student_id AS "studentId", c.candidate_name AS "candidateName",
           c.status, c.score, c.max_score AS "maxScore", c.percentage, c.grade, c.pending_review AS "pendingReview", c.section_scores AS "sectionScores", c.violations,
           c.completed_at AS "completedAt", c.hall_claim AS "hallClaim"
      FROM hub_current_results c JOIN halls h ON h.id = c.hall_id
     WHERE c.exam_id = ${examId} ${hallId ? sql`AND c.hall_id = ${hallId}` : sql``}`);
  const results = (rows.rows as unknown as ResultLine[]).sort((a, b) => byText(a.hallName, b.hallName) || byText(a.studentId, b.studentId));
  const refused = await secondSittings(deps, examId);
  const flagsOf = new Map<string, typeof refused>();
  for (const f of refused) flagsOf.set(`${f.heldHallId}\u0000${f.studentId}`, [...(flagsOf.get(`${f.heldHallId}\u0000${f.studentId}`) ?? []), f]);
  const perHall = new Map<string, { hallId: string; hallName: string; results: number; mean: number }>();
  for (const r of results) {
    const h = perHall.get(r.hallId) ?? { hallId: r.hallId, hallName: r.hallName, results: 0, mean: 0 };
    h.mean = (h.mean * h.results + r.percentage) / (h.results + 1);
    h.results += 1;
    perHall.set(r.hallId, h);
  }
  const shown = page ? results.slice(page.offset, page.limit === undefined ? undefined : page.offset + page.limit) : results;
  return {
    examId: exam.id,
    examTitle: exam.title,
    expected: exam.expected,
    received: results.length,
    halls: [...perHall.values()].map((h) => ({ ...h, mean: Math.round(h.mean * 100) / 100 })),
    secondSittings: refused,
    candidates: shown.map(({ hallId, hallName, hallClaim, eventId, type, ...a }) => ({
      hallId,
      hallName,
      attemptId: a.attemptId,
      studentId: a.studentId,
      candidateName: a.candidateName,
      status: a.status,
      score: a.score,
      maxScore: a.maxScore,
      percentage: a.percentage,
      grade: a.grade,
      pendingReview: a.pendingReview,
      ...(a.sectionScores ? { sectionScores: a.sectionScores } : {}),
      violations: a.violations,
      completedAt: a.completedAt,
      lastEvent: { eventId, type },
      hallClaim: hallClaim ?? null,
      flags: flagsOf.get(`${hallId}\u0000${a.studentId}`) ?? [],
    })),
  };
}

/**
 * The last item analysis of each exam, per process, with what it was computed from: result
 * rows are only ever added (result-ingest.ts), so the exam's row count, version and title
 * say whether it still holds. Behind it, `hub_analyses` holds the last one of each exam for
 * every hub process (issue #38 §7: a board's next visit may reach another process).
 */
type AnalysisCache = { held: LRUCache<string, { basis: string; report: ExamAnalysisReport }>; computing: Map<string, Promise<ExamAnalysisReport>> };
/** Per hub (its deps: one per process, one per hub in a test): the held reports, and the computations under way by exam and basis (a second request waits for the first). */
const caches = new WeakMap<HubDeps, AnalysisCache>();
function cacheOf(deps: HubDeps): AnalysisCache {
  let c = caches.get(deps);
  if (!c) caches.set(deps, (c = { held: new LRUCache({ max: 64 }), computing: new Map() }));
  return c;
}

/**
 * Item analysis over every hall's completed attempts (the hall's analysis code). Computed
 * once per exam version, title and count of results, by whichever hub process is asked
 * first, and kept in this process and in `hub_analyses` (`generatedAt` says when): a paper
 * of 20,000 candidates takes seconds to analyse, and the board's page asks for it again as
 * results arrive.
 * @throws NotFound for an unknown exam
 */
export async function examAnalysisAcrossHalls(deps: HubDeps, examId: string): Promise<ExamAnalysisReport> {
  const [head] = await deps.db
    .select({ version: hubExams.version, title: hubExams.title, rows: sql<number>`(SELECT count(*) FROM hub_results r WHERE r.exam_id = ${examId})::int` })
    .from(hubExams)
    .where(eq(hubExams.id, examId));
  if (!head) throw new NotFound('Exam');
  const basis = JSON.stringify([head.version, head.rows, head.title]); // text without NUL (PostgreSQL text refuses it)
  const { held: analyses, computing } = cacheOf(deps);
  const held = analyses.get(examId);
  if (held?.basis === basis) return held.report;
  const key = `${examId}\u0000${basis}`;
  const running = computing.get(key);
  if (running) return running;
  const work = (async () => {
    const [stored] = await deps.db.select({ report: hubAnalyses.report }).from(hubAnalyses).where(and(eq(hubAnalyses.examId, examId), eq(hubAnalyses.basis, basis)));
    const report = (stored?.report as ExamAnalysisReport | undefined) ?? (await computeAnalysis(deps, examId));
    if (!stored) {
      await deps.db
        .insert(hubAnalyses)
        .values({ examId, basis, report, computedAt: new Date(deps.clock.now()) })
        .onConflictDoUpdate({ target: hubAnalyses.examId, set: { basis, report, computedAt: new Date(deps.clock.now()) } });
    }
    analyses.set(examId, { basis, report });
    return report;
  })();
  computing.set(key, work);
  try {
    return await work;
  } finally {
    computing.delete(key);
  }
}

/** The item analysis of the exam's current results, computed now. */
async function computeAnalysis(deps: HubDeps, examId: string): Promise<ExamAnalysisReport> {
  const exam = await getHubExam(deps, examId);
  const { attempts, answers } = records(await currentResults(deps, examId));
  const matrix = buildMatrix(storedQuestions(exam.id, exam.questions, exam.createdAt), attempts, answers);
  return { examId: exam.id, examTitle: exam.title, generatedAt: new Date(deps.clock.now()).toISOString(), ...analyseMatrix(matrix) };
}

/** results.csv / results.xlsx across halls (the hall's export code; a Hall column first). */
export async function examExport(deps: HubDeps, examId: string, format: 'csv' | 'xlsx'): Promise<{ body: string | Buffer; filename: string }> {
  const exam = await getHubExam(deps, examId);
  const results = await currentResults(deps, examId);
  const { attempts, answers } = records(results);
  const questions = storedQuestions(exam.id, exam.questions, exam.createdAt);
  const base = resultsTable(questions, attempts, answers);
  const table = { headers: ['Hall', ...base.headers], rows: base.rows.map((row, i) => [results[i]!.hallName, ...row]) };
  const slug = exam.title.replace(/[^\w-]+/g, '-').slice(0, 60) || 'exam';
  if (format === 'csv') return { body: resultsCsv(table), filename: `${slug}-results.csv` };
  const analysis = await examAnalysisAcrossHalls(deps, examId);
  return { body: await resultsWorkbook(exam.title, table, analysis), filename: `${slug}-results.xlsx` };
}
