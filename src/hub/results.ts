/**
 * Results across halls (issue #24 §4): the current event of every attempt of a hub exam,
 * per hall and per candidate, the item analysis over all halls and the xlsx/CSV exports,
 * computed by the hall's own analysis and export code from the events' answers. Every
 * score, grade and mark is the hub's own computation (result-checks.ts), never the hall's
 * claim; a hall's differing claim is shown beside it (`hallClaim`).
 */
import { eq, sql } from 'drizzle-orm';
import type { ResultEvent, SealedQuestion } from '../core/sync/messages.js';
import { analyseMatrix } from '../core/analysis/item-analysis.js';
import { buildMatrix } from '../core/analysis/response-matrix.js';
import type { AnswerRecord, AttemptRecord, ExamAnalysisReport } from '../core/analysis/records.js';
import { resultsCsv, resultsTable, resultsWorkbook } from '../core/formats/results-export.js';
import type { StoredQuestion } from '../core/questions/schemas.js';
import type { SectionScore } from '../core/grading/section-scores.js';
import type { HubDeps } from './deps.js';
import { getHubExam } from './exams.js';
import { halls, hubSecondSittings } from './db/schema.js';

interface CurrentResult {
  hallId: string;
  hallName: string;
  event: ResultEvent;
  /** the hall's own figures when they differ from the hub's (audited `result-score-differs`), else null */
  hallClaim: unknown;
}

/** A stored row as the results read it: the hall's event and the hub's own figures. */
interface StoredRow {
  body: ResultEvent;
  hallId: string;
  hallName: string;
  score: number;
  maxScore: number;
  percentage: number;
  grade: string;
  pendingReview: boolean;
  marks: Record<string, number> | null;
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
  const { sectionScores: _claimed, ...a } = r.body.attempt;
  const answers = r.marks === null ? a.answers : a.answers.map((x) => ({ ...x, awardedMarks: r.marks![x.questionId] ?? null }));
  return { ...r.body, attempt: { ...a, score: r.score, maxScore: r.maxScore, percentage: r.percentage, grade: r.grade, pendingReview: r.pendingReview, ...(r.sectionScores ? { sectionScores: r.sectionScores } : {}), answers } };
}

async function currentResults(deps: HubDeps, examId: string, hallId?: string): Promise<CurrentResult[]> {
  // the newest event of each attempt (by the hall's own time, then id) is its current result
  const rows = await deps.db.execute(sql`
    SELECT DISTINCT ON (r.hall_id, r.attempt_id) r.body, r.hall_id AS "hallId", h.name AS "hallName",
           r.score, r.max_score AS "maxScore", r.percentage, r.grade, r.pending_review AS "pendingReview", r.marks, r.section_scores AS "sectionScores", r.hall_claim AS "hallClaim"
      FROM hub_results r JOIN halls h ON h.id = r.hall_id
     WHERE r.exam_id = ${examId} ${hallId ? sql`AND r.hall_id = ${hallId}` : sql``}
     ORDER BY r.hall_id, r.attempt_id, r.hall_sent_at DESC, r.event_id DESC`);
  const out = (rows.rows as unknown as StoredRow[]).map((r) => ({ hallId: r.hallId, hallName: r.hallName, event: hubView(r), hallClaim: r.hallClaim ?? null }));
  return out.sort((a, b) => a.hallName.localeCompare(b.hallName) || a.event.attempt.studentId.localeCompare(b.event.attempt.studentId));
}

function storedQuestions(examId: string, questions: SealedQuestion[], createdAt: string): StoredQuestion[] {
  return questions.map((q, position) => ({ ...q, examId, position, difficulty: null, citation: null, createdAt }));
}

/**
 * The hub's edge to the domain's result shapes (core/analysis/records.ts): each current
 * event's attempt as an {@link AttemptRecord} (ISO times → epoch ms) and its answers as
 * {@link AnswerRecord}s, by attempt id then question id; an answer's marks count as
 * approved when the hall says an examiner reviewed it (as result-checks.ts grades it).
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

/**
 * Per-candidate results of an exam, optionally of one hall, with per-hall counts. A
 * candidate whose result from another hall the hub refused (a second sitting) carries it in
 * `flags`, and every such refusal is listed in `secondSittings`.
 */
export async function examResults(deps: HubDeps, examId: string, hallId?: string) {
  const exam = await getHubExam(deps, examId);
  const results = await currentResults(deps, examId, hallId);
  const refused = await secondSittings(deps, examId);
  const perHall = new Map<string, { hallId: string; hallName: string; results: number; mean: number }>();
  for (const r of results) {
    const h = perHall.get(r.hallId) ?? { hallId: r.hallId, hallName: r.hallName, results: 0, mean: 0 };
    h.mean = (h.mean * h.results + r.event.attempt.percentage) / (h.results + 1);
    h.results += 1;
    perHall.set(r.hallId, h);
  }
  return {
    examId: exam.id,
    examTitle: exam.title,
    expected: exam.roster.length,
    halls: [...perHall.values()].map((h) => ({ ...h, mean: Math.round(h.mean * 100) / 100 })),
    secondSittings: refused,
    candidates: results.map(({ hallId, hallName, hallClaim, event: { eventId, type, attempt: a } }) => ({
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
      hallClaim,
      flags: refused.filter((f) => f.studentId === a.studentId && f.heldHallId === hallId),
    })),
  };
}

/** Item analysis over every hall's completed attempts (the hall's analysis code). */
export async function examAnalysisAcrossHalls(deps: HubDeps, examId: string): Promise<ExamAnalysisReport> {
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
