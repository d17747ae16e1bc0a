/**
 * What halls ask of the hub, each request already signed and checked (auth.ts):
 * their packages, the release of one (online, from 5 minutes before the start), results
 * sent up through their outbox (idempotent by event id; a later event of the same attempt,
 * e.g. a regrade, becomes the current one), and the heartbeat the status view reads.
 */
import { and, eq, sql } from 'drizzle-orm';
import { sealEnvelope, type Envelope } from '../core/sync/signing.js';
import type { Heartbeat, ResultEvent } from '../core/sync/messages.js';
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

/** Records the hall's heartbeat (attempts in progress, package states). */
export async function recordHeartbeat(deps: HubDeps, hallId: string, beat: Heartbeat): Promise<void> {
  await deps.db.update(halls).set({ heartbeat: beat }).where(and(eq(halls.id, hallId)));
}
