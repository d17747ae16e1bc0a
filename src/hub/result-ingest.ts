/**
 * Storing results sent up by a hall (docs/hub-protocol.md, "Results up"), for the single
 * route and the batch alike, in ONE transaction: every event is checked against the hub's
 * own copy of its package (result-checks.ts), graded by the hub, and stored with the hub's
 * figures; an event the hub refuses gets an audit row `result-refused` with the reason, and
 * a stored event whose hall figures differ from the hub's an audit row `result-score-differs`.
 *
 * An event id already held is a `duplicate` when the event is the same (as JSON values) and
 * refused when it is not. Events of one hall are serialised by a transaction-scoped advisory
 * lock on the hall, so two hub processes cannot both store a "first" result of one attempt.
 *
 * A candidate sits a paper once (docs/hub.md, "Candidates and centres"): a result of a
 * candidate for a hub exam the hub already holds a result of from ANOTHER hall is refused
 * (409 SECOND_SITTING), audited, and kept in `hub_second_sittings` for the results view's
 * flag. The first stored result claims the sitting by its row in `hub_sittings`, whose
 * primary key (exam, candidate) settles two halls storing a "first" sitting at once: the
 * second transaction's claim waits for the first and conflicts, and that transaction is run
 * again, now seeing the claim (docs/decisions.md, "A sitting is claimed by its row, not by a
 * lock on the paper"). Halls of one paper no longer wait for each other.
 */
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { ResultEvent } from '../core/sync/messages.js';
import type { HubDeps } from './deps.js';
import { hubAudit, hubHallResults, hubResults, hubSecondSittings, hubSittings, publications } from './db/schema.js';
import { hubPaperCopy } from './paper-copy.js';
import { eventOfBody, packEvent, packMarks } from './result-store.js';
import { checkFollowUp, checkResult, gradeEvent, type HubGrade, type Refusal } from './result-checks.js';

/** What the hub did with one event: stored, duplicate, or refused (with the single route's status). */
export type IngestOutcome = { eventId: string; status: 'stored' | 'duplicate' } | { eventId: string; status: 'refused'; refusal: Refusal };

/** Arbitrary constant naming the results lock space (pg_advisory_xact_lock's first key). */
const RESULTS_LOCK = 240_511;
/** Runs of one ingest at most: a run is repeated when another hall claimed one of its sittings meanwhile, or on a deadlock. */
const MAX_RUNS = 4;

/** Another hall's transaction claimed a sitting this one was about to store: run it again (it then sees the claim). */
class SittingClaimedMeanwhile extends Error {}

/** JSON with object keys sorted: two events are "the same" when these strings are equal. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const newer = (a: ResultEvent, b: ResultEvent) => Date.parse(a.createdAt) > Date.parse(b.createdAt) || (a.createdAt === b.createdAt && a.eventId > b.eventId);

/**
 * Checks, grades and stores `events` of `hallId` in order; returns one outcome per event,
 * in the same order (a repeat inside the list is judged against its first occurrence).
 * @throws what PostgreSQL throws (nothing of the list is stored then)
 */
export async function ingestEvents(deps: HubDeps, hallId: string, events: ResultEvent[]): Promise<IngestOutcome[]> {
  for (let run = 1; ; run++) {
    try {
      return await ingestOnce(deps, hallId, events);
    } catch (e) {
      // 40P01: PostgreSQL chose this transaction to break a deadlock (two halls' claims)
      const again = e instanceof SittingClaimedMeanwhile || (e as { code?: string }).code === '40P01' || (e as { cause?: { code?: string } }).cause?.code === '40P01';
      if (!again || run >= MAX_RUNS) throw e;
    }
  }
}

/** One run of `ingestEvents` in one transaction. @throws SittingClaimedMeanwhile (run it again) */
async function ingestOnce(deps: HubDeps, hallId: string, events: ResultEvent[]): Promise<IngestOutcome[]> {
  const now = deps.clock.now();
  const at = new Date(now);
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${RESULTS_LOCK}, hashtext(${hallId}))`);
    const examIds = [...new Set(events.map((e) => e.examId))].sort();
    // sittings of these candidates and papers claimed by other halls: a second sitting is refused
    const sitKey = (examId: string, studentId: string) => `${examId}\u0000${studentId}`;
    const elsewhere = new Map<string, { hallId: string; eventId: string }>();
    const others = await tx
      .select({ examId: hubSittings.examId, studentId: hubSittings.studentId, hallId: hubSittings.hallId, eventId: hubSittings.eventId })
      .from(hubSittings)
      .where(and(inArray(hubSittings.examId, examIds), inArray(hubSittings.studentId, [...new Set(events.map((e) => e.attempt.studentId))]), ne(hubSittings.hallId, hallId)));
    for (const o of others) elsewhere.set(sitKey(o.examId, o.studentId), { hallId: o.hallId, eventId: o.eventId });
    const secondSittings: (typeof hubSecondSittings.$inferInsert)[] = [];
    const packageIds = [...new Set(events.map((e) => e.packageId))];
    const pubs = await tx.select().from(publications).where(and(eq(publications.hallId, hallId), inArray(publications.packageId, packageIds)));
    const pubOf = new Map(pubs.map((p) => [p.packageId, p]));
    const held = await tx
      .select({ body: hubResults.body })
      .from(hubResults)
      .where(and(eq(hubResults.hallId, hallId), or(inArray(hubResults.eventId, [...new Set(events.map((e) => e.eventId))]), inArray(hubResults.attemptId, [...new Set(events.map((e) => e.attempt.attemptId))]))));
    // the event held under each id, made canonical only when the same id comes again
    const byEventId = new Map<string, ResultEvent>();
    const latest = new Map<string, ResultEvent>();
    const remember = (e: ResultEvent) => {
      byEventId.set(e.eventId, e);
      const cur = latest.get(e.attempt.attemptId);
      if (!cur || newer(e, cur)) latest.set(e.attempt.attemptId, e);
    };
    for (const { body } of held) remember(eventOfBody(body as ResultEvent));
    // attempts new to the hub (per exam): the halls view's counts (hub_hall_results)
    const newAttempts = new Map<string, number>();

    const outcomes: IngestOutcome[] = [];
    const rows: { e: ResultEvent; g: HubGrade }[] = [];
    const audits: (typeof hubAudit.$inferInsert)[] = [];
    const actor = `hall:${hallId}`;
    for (const e of events) {
      const refusal = judge(e);
      if (refusal === 'duplicate') {
        outcomes.push({ eventId: e.eventId, status: 'duplicate' });
        continue;
      }
      if (refusal) {
        outcomes.push({ eventId: e.eventId, status: 'refused', refusal });
        audits.push({ at, actor, action: 'result-refused', hallId, detail: { eventId: e.eventId, packageId: e.packageId, examId: e.examId, attemptId: e.attempt.attemptId, studentId: e.attempt.studentId, code: refusal.code, reason: refusal.reason } });
        const held = refusal.code === 'SECOND_SITTING' ? elsewhere.get(sitKey(e.examId, e.attempt.studentId)) : undefined;
        if (held) secondSittings.push({ eventId: e.eventId, examId: e.examId, studentId: e.attempt.studentId, hallId, attemptId: e.attempt.attemptId, heldHallId: held.hallId, heldEventId: held.eventId, body: e, receivedAt: at });
        continue;
      }
      const pub = pubOf.get(e.packageId)!;
      const g = gradeEvent(hubPaperCopy(deps.secrets, pub), e);
      rows.push({ e, g });
      if (!latest.has(e.attempt.attemptId)) newAttempts.set(e.examId, (newAttempts.get(e.examId) ?? 0) + 1);
      remember(e);
      outcomes.push({ eventId: e.eventId, status: 'stored' });
      if (g.hallClaim) audits.push({ at, actor, action: 'result-score-differs', hallId, detail: { eventId: e.eventId, attemptId: e.attempt.attemptId, studentId: e.attempt.studentId, hall: g.hallClaim, hub: { score: g.score, maxScore: g.maxScore, percentage: g.percentage, grade: g.grade, pendingReview: g.pendingReview, ...(g.sectionScores ? { sectionScores: g.sectionScores } : {}) } } });
    }
    if (rows.length) {
      // the sittings these results are the first of, claimed in key order (two halls' claims then wait in one order)
      const claims = new Map<string, { exam_id: string; student_id: string; event_id: string }>();
      for (const { e } of rows) {
        const k = sitKey(e.examId, e.attempt.studentId);
        if (!claims.has(k)) claims.set(k, { exam_id: e.examId, student_id: e.attempt.studentId, event_id: e.eventId });
      }
      const wanted = [...claims.values()];
      const made = await tx.execute(sql`
        INSERT INTO hub_sittings (exam_id, student_id, hall_id, event_id, received_at)
        SELECT exam_id, student_id, ${hallId}, event_id, ${at.toISOString()}::timestamptz
          FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS x(exam_id text, student_id text, event_id text)
         ORDER BY exam_id, student_id
        ON CONFLICT (exam_id, student_id) DO NOTHING`);
      // a claim that conflicted is this hall's own (a later event of a sitting it holds) or, if
      // another hall's transaction committed it since this one read the claims, a second sitting
      if ((made.rowCount ?? 0) < wanted.length) {
        const taken = await tx.execute(sql`
          SELECT 1 FROM hub_sittings s
            JOIN jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS x(exam_id text, student_id text) ON s.exam_id = x.exam_id AND s.student_id = x.student_id
           WHERE s.hall_id <> ${hallId} LIMIT 1`);
        if (taken.rows.length) throw new SittingClaimedMeanwhile();
      }
      // one jsonb parameter for the whole batch (PostgreSQL parses it once), not 20 bound values a row
      const values = rows.map(({ e, g }) => ({
        event_id: e.eventId,
        exam_id: e.examId,
        attempt_id: e.attempt.attemptId,
        type: e.type,
        student_id: e.attempt.studentId,
        score: g.score,
        max_score: g.maxScore,
        percentage: g.percentage,
        grade: g.grade,
        pending_review: g.pendingReview,
        marks: packMarks(e, g.marks),
        section_scores: g.sectionScores ?? null,
        hall_claim: g.hallClaim,
        status: e.attempt.status,
        candidate_name: e.attempt.candidateName,
        violations: e.attempt.violations,
        completed_at: e.attempt.completedAt,
        body: packEvent(e),
        hall_sent_at: new Date(e.createdAt).toISOString(),
      }));
      // the rows, and each attempt's current result (its newest event: the hall's time, then id) in the narrow table the results view reads
      await tx.execute(sql`
        WITH x AS MATERIALIZED (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(event_id text, exam_id text, attempt_id text, type text, student_id text, score real, max_score real, percentage real, grade text, pending_review boolean,
               marks jsonb, section_scores jsonb, hall_claim jsonb, status text, candidate_name text, violations integer, completed_at text, body jsonb, hall_sent_at timestamptz)),
        stored AS (
          INSERT INTO hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, percentage, grade, pending_review, marks, section_scores, hall_claim, status, candidate_name, violations, completed_at, body, hall_sent_at, received_at)
          SELECT event_id, ${hallId}, exam_id, attempt_id, type, student_id, score, max_score, percentage, grade, pending_review, marks, section_scores, hall_claim, status, candidate_name, violations, completed_at, body, hall_sent_at, ${at.toISOString()}::timestamptz FROM x)
        INSERT INTO hub_current_results AS c (exam_id, hall_id, attempt_id, event_id, type, student_id, candidate_name, status, score, max_score, percentage, grade, pending_review, section_scores, violations, completed_at, hall_claim, hall_sent_at)
        SELECT DISTINCT ON (exam_id, attempt_id) exam_id, ${hallId}, attempt_id, event_id, type, student_id, candidate_name, status, score, max_score, percentage, grade, pending_review, section_scores, violations, completed_at, hall_claim, hall_sent_at
          FROM x ORDER BY exam_id, attempt_id, hall_sent_at DESC, event_id DESC
        ON CONFLICT (exam_id, hall_id, attempt_id) DO UPDATE SET
          event_id = excluded.event_id, type = excluded.type, student_id = excluded.student_id, candidate_name = excluded.candidate_name, status = excluded.status, score = excluded.score,
          max_score = excluded.max_score, percentage = excluded.percentage, grade = excluded.grade, pending_review = excluded.pending_review, section_scores = excluded.section_scores,
          violations = excluded.violations, completed_at = excluded.completed_at, hall_claim = excluded.hall_claim, hall_sent_at = excluded.hall_sent_at
          WHERE (excluded.hall_sent_at, excluded.event_id) > (c.hall_sent_at, c.event_id)`);
    }
    if (newAttempts.size) {
      await tx
        .insert(hubHallResults)
        .values([...newAttempts].map(([examId, attempts]) => ({ hallId, examId, attempts })))
        .onConflictDoUpdate({ target: [hubHallResults.hallId, hubHallResults.examId], set: { attempts: sql`${hubHallResults.attempts} + excluded.attempts` } });
    }
    if (audits.length) await tx.insert(hubAudit).values(audits);
    if (secondSittings.length) await tx.insert(hubSecondSittings).values(secondSittings).onConflictDoNothing();
    return outcomes;

    /** 'duplicate', a refusal, or null when the event may be stored */
    function judge(e: ResultEvent): Refusal | 'duplicate' | null {
      const same = byEventId.get(e.eventId);
      if (same !== undefined) return same === e || canonicalJson(same) === canonicalJson(e) ? 'duplicate' : { status: 409, code: 'EVENT_ALTERED', reason: `The hub already holds event ${e.eventId} with other content.` };
      const pub = pubOf.get(e.packageId);
      if (!pub || pub.examId !== e.examId) return { status: 404, code: 'PACKAGE_NOT_THIS_HALLS', reason: 'The package is not this hall’s, or not of the named exam.' };
      const paper = hubPaperCopy(deps.secrets, pub);
      const prior = latest.get(e.attempt.attemptId);
      const held = elsewhere.get(sitKey(e.examId, e.attempt.studentId));
      const second: Refusal | null = held ? { status: 409, code: 'SECOND_SITTING', reason: `Candidate ${e.attempt.studentId} already has a result for this paper from another hall (${held.hallId}, event ${held.eventId}): a candidate sits a paper once.` } : null;
      return checkResult(paper, e, now) ?? second ?? (prior ? checkFollowUp(prior, e) : null);
    }
  });
}
