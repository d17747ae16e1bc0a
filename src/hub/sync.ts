/**
 * What halls ask of the hub, each request already signed and checked (auth.ts):
 * their packages, the release of one (online, from 5 minutes before the start), results
 * sent up through their outbox (idempotent by event id; a later event of the same attempt,
 * e.g. a regrade, becomes the current one), and the heartbeat the status view reads.
 */
import { and, eq, sql } from 'drizzle-orm';
import { sealEnvelope, type Envelope } from '../core/sync/signing.js';
import type { Heartbeat, ResultBatchOutcome, ResultEvent } from '../core/sync/messages.js';
import { Conflict, NotFound } from '../platform/errors.js';
import { audit } from './audit.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams, hubResults, publications } from './db/schema.js';
import { packageEnvelope } from './exams.js';

/** How early before `startsAt` a hall may fetch its release code online. */
export const ONLINE_RELEASE_LEAD_MS = 5 * 60_000;

/** The hall's packages (newest first). */
export async function hallPackages(deps: HubDeps, hallId: string) {
  const rows = await deps.db
    .select({ p: publications, title: hubExams.title, startsAt: hubExams.startsAt, endsAt: hubExams.endsAt })
    .from(publications)
    .innerJoin(hubExams, eq(hubExams.id, publications.examId))
    .where(eq(publications.hallId, hallId))
    .orderBy(sql`${publications.createdAt} desc`);
  return rows.map(({ p, title, startsAt, endsAt }) => ({ packageId: p.packageId, examId: p.examId, version: p.version, title, startsAt: startsAt.toISOString(), endsAt: endsAt?.toISOString() ?? null, sha256: p.sha256 }));
}

/** One package of this hall (another hall's is "not found"); records the download. */
export async function hallPackage(deps: HubDeps, hallId: string, packageId: string): Promise<Envelope> {
  const p = await packageEnvelope(deps, packageId);
  if (p.hallId !== hallId) throw new NotFound('Package');
  await deps.db.update(publications).set({ downloadedAt: sql`coalesce(${publications.downloadedAt}, ${new Date(deps.clock.now())})` }).where(eq(publications.packageId, packageId));
  return JSON.parse(p.envelope) as Envelope;
}

/**
 * The release code of this hall's package, signed, from 5 minutes before the exam starts.
 * @throws NotFound (not this hall's), Conflict (too early, with `releasableAt`)
 */
export async function releaseOnline(deps: HubDeps, hallId: string, packageId: string): Promise<Envelope> {
  const p = await packageEnvelope(deps, packageId);
  if (p.hallId !== hallId) throw new NotFound('Package');
  const now = deps.clock.now();
  const releasableAt = p.startsAt.getTime() - ONLINE_RELEASE_LEAD_MS;
  if (now < releasableAt) throw new Conflict(`This paper is sealed until ${new Date(releasableAt).toISOString()} (5 minutes before it starts).`, { code: 'NOT_YET_RELEASABLE', releasableAt: new Date(releasableAt).toISOString() });
  const rows = await deps.db.select({ code: publications.releaseCodeSealed }).from(publications).where(eq(publications.packageId, packageId));
  await deps.db.update(publications).set({ releasedAt: sql`coalesce(${publications.releasedAt}, ${new Date(now)})`, releasedBy: sql`coalesce(${publications.releasedBy}, 'online')` }).where(eq(publications.packageId, packageId));
  await audit(deps.db, { at: new Date(now), actor: `hall:${hallId}`, action: 'package-released-online', hallId, detail: { packageId } });
  return sealEnvelope(deps.signingKey.privateKey, { kind: 'hallcbt.release.v1', packageId, hallId, releaseCode: deps.secrets.open(rows[0]!.code), issuedAt: new Date(now).toISOString() });
}

/**
 * Stores one result event once, in one statement: the row is inserted only when the
 * package is this hall's and of the named exam, and only once per event id. A replay of a
 * stored event answers `{duplicate: true}` and changes nothing. The current result of an
 * attempt is its newest event (results.ts), so a regrade needs no update of older rows.
 * @throws NotFound when the package is not this hall's (audited)
 */
export async function ingestResult(deps: HubDeps, hallId: string, e: ResultEvent): Promise<{ duplicate: boolean }> {
  const now = new Date(deps.clock.now());
  const inserted = await deps.db.execute(sql`
    INSERT INTO hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, grade, status, body, hall_sent_at, received_at)
    SELECT ${e.eventId}, ${hallId}, ${e.examId}, ${e.attempt.attemptId}, ${e.type}, ${e.attempt.studentId}, ${e.attempt.score}, ${e.attempt.maxScore}, ${e.attempt.grade}, ${e.attempt.status}, ${JSON.stringify(e)}::jsonb, ${new Date(e.createdAt)}, ${now}
      FROM publications WHERE package_id = ${e.packageId} AND hall_id = ${hallId} AND exam_id = ${e.examId}
    ON CONFLICT (event_id) DO NOTHING
    RETURNING event_id`);
  if (inserted.rows.length === 1) return { duplicate: false };
  const pub = await deps.db.select({ packageId: publications.packageId }).from(publications).where(and(eq(publications.packageId, e.packageId), eq(publications.hallId, hallId), eq(publications.examId, e.examId)));
  if (pub.length === 1) return { duplicate: true };
  await audit(deps.db, { at: now, actor: `hall:${hallId}`, action: 'result-refused', hallId, detail: { eventId: e.eventId, packageId: e.packageId } });
  throw new NotFound('Package of this hall');
}

/**
 * Stores a batch of result events (`POST /hub/v1/results/batch`) in ONE statement, so one
 * transaction: every event whose package is this hall's and of the named exam is inserted
 * once per event id (`ON CONFLICT DO NOTHING`); an event already stored, or repeated earlier
 * in the same batch, is reported `duplicate` and changes nothing; an event naming a package
 * that is not this hall's is reported `refused` with an audit row written in the same
 * statement, and the batch's other events are still stored (docs/decisions.md). The
 * outcomes come back in the batch's order, one per event. A statement that fails stores
 * nothing of the batch (the hall sends it again). The batch travels to PostgreSQL as one
 * JSON parameter, unpacked by `jsonb_array_elements`, so 500 events are one round trip.
 */
export async function ingestResultBatch(deps: HubDeps, hallId: string, events: ResultEvent[]): Promise<ResultBatchOutcome[]> {
  const now = new Date(deps.clock.now());
  const firstIndex = new Map<string, number>();
  const unique: ResultEvent[] = [];
  for (const e of events) {
    if (firstIndex.has(e.eventId)) continue;
    firstIndex.set(e.eventId, unique.length);
    unique.push(e);
  }
  const rows = await deps.db.execute(sql`
    WITH input AS (
      SELECT e, ord FROM jsonb_array_elements(${JSON.stringify(unique)}::jsonb) WITH ORDINALITY AS t(e, ord)
    ), owned AS (
      SELECT i.e, i.ord FROM input i
        JOIN publications p ON p.package_id = i.e->>'packageId' AND p.hall_id = ${hallId} AND p.exam_id = i.e->>'examId'
    ), ins AS (
      INSERT INTO hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, grade, status, body, hall_sent_at, received_at)
      SELECT e->>'eventId', ${hallId}, e->>'examId', e->'attempt'->>'attemptId', e->>'type', e->'attempt'->>'studentId',
             (e->'attempt'->>'score')::real, (e->'attempt'->>'maxScore')::real, e->'attempt'->>'grade', e->'attempt'->>'status',
             e, (e->>'createdAt')::timestamptz, ${now}
        FROM owned ORDER BY ord
      ON CONFLICT (event_id) DO NOTHING
      RETURNING event_id
    ), refused AS (
      INSERT INTO hub_audit (at, actor, action, hall_id, detail)
      SELECT ${now}, ${`hall:${hallId}`}, 'result-refused', ${hallId}, jsonb_build_object('eventId', i.e->>'eventId', 'packageId', i.e->>'packageId', 'batch', true)
        FROM input i WHERE NOT EXISTS (SELECT 1 FROM owned o WHERE o.ord = i.ord)
      RETURNING 1
    )
    SELECT i.ord::int AS ord, (o.ord IS NOT NULL) AS owned, (ins.event_id IS NOT NULL) AS stored
      FROM input i LEFT JOIN owned o ON o.ord = i.ord LEFT JOIN ins ON ins.event_id = i.e->>'eventId'
     ORDER BY i.ord`);
  const byIndex = (rows.rows as { ord: number; owned: boolean; stored: boolean }[]).map((r): ResultBatchOutcome['status'] => (!r.owned ? 'refused' : r.stored ? 'stored' : 'duplicate'));
  const seen = new Set<string>();
  return events.map((e) => {
    const status = byIndex[firstIndex.get(e.eventId)!]!;
    if (status === 'refused') return { eventId: e.eventId, status, error: 'The package is not this hall’s, or not of the named exam.' };
    // a repeat inside the batch is a duplicate of its first occurrence
    const repeat = seen.has(e.eventId);
    seen.add(e.eventId);
    return { eventId: e.eventId, status: repeat ? 'duplicate' : status };
  });
}

/** Records the hall's heartbeat (attempts in progress, package states). */
export async function recordHeartbeat(deps: HubDeps, hallId: string, beat: Heartbeat): Promise<void> {
  await deps.db.update(halls).set({ heartbeat: beat }).where(and(eq(halls.id, hallId)));
}
