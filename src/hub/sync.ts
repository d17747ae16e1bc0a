/**
 * What halls ask of the hub, each request already signed and checked (auth.ts):
 * their packages, the release of one (online, from 5 minutes before the start), results
 * sent up through their outbox (idempotent by event id; a later event of the same attempt,
 * e.g. a regrade, becomes the current one), and the heartbeat the status view reads (a
 * release it reports counts only with its proof).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { sealEnvelope, type Envelope } from '../core/sync/signing.js';
import { parseReleaseCode } from '../core/sync/release-code.js';
import { verifyReleaseProof } from '../core/sync/release-proof.js';
import type { Heartbeat, ResultBatchOutcome, ResultEvent } from '../core/sync/messages.js';
import { ApiError, Conflict, NotFound } from '../platform/errors.js';
import { audit } from './audit.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams, publications } from './db/schema.js';
import { packageEnvelope } from './exams.js';
import { ingestEvents } from './result-ingest.js';

/** How early before `startsAt` a hall may fetch its release code online. */
export const ONLINE_RELEASE_LEAD_MS = 5 * 60_000;

/** The hall's packages (newest first: by publication time, then version). */
export async function hallPackages(deps: HubDeps, hallId: string) {
  const rows = await deps.db
    .select({ p: publications, title: hubExams.title, startsAt: hubExams.startsAt, endsAt: hubExams.endsAt })
    .from(publications)
    .innerJoin(hubExams, eq(hubExams.id, publications.examId))
    .where(eq(publications.hallId, hallId))
    .orderBy(sql`${publications.createdAt} desc`, sql`${publications.version} desc`);
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
 * Stores one result event (`POST /hub/v1/results`): checked, graded by the hub and stored
 * once (result-ingest.ts). A replay of a stored event answers `{duplicate: true}`.
 * @throws NotFound (package not this hall's), ApiError 422 (candidate not on the roster, a
 *   time outside the paper's window), Conflict 409 (a second result of the attempt, the
 *   candidate's result already held from another hall — SECOND_SITTING — or the event id
 *   with other content) — each audited
 */
export async function ingestResult(deps: HubDeps, hallId: string, e: ResultEvent): Promise<{ duplicate: boolean }> {
  const [o] = await ingestEvents(deps, hallId, [e]);
  if (o!.status !== 'refused') return { duplicate: o!.status === 'duplicate' };
  const { status, code, reason } = o!.refusal;
  if (status === 404) throw new NotFound('Package of this hall');
  if (status === 409) throw new Conflict(reason, { code });
  throw new ApiError(422, 'result-refused', 'Result refused', reason, { code });
}

/**
 * Stores a batch of result events (`POST /hub/v1/results/batch`) in ONE transaction: each
 * event is checked, graded by the hub and stored once per event id (result-ingest.ts); an
 * event already held, or repeated earlier in the batch, is `duplicate`; one the hub refuses
 * (another hall's package, a candidate off the roster, a time outside the window, a second
 * result of an attempt) is `refused` with the reason and an audit row, and the batch's other
 * events are still stored (docs/decisions.md). Outcomes come back in the batch's order.
 */
export async function ingestResultBatch(deps: HubDeps, hallId: string, events: ResultEvent[]): Promise<ResultBatchOutcome[]> {
  const outcomes = await ingestEvents(deps, hallId, events);
  return outcomes.map((o) => (o.status === 'refused' ? { eventId: o.eventId, status: 'refused', error: o.refusal.reason } : { eventId: o.eventId, status: o.status }));
}

/** Most bad release proofs named in the one audit row a heartbeat may cause. */
const MAX_PROOFS_AUDITED = 20;

/**
 * Records the hall's heartbeat (attempts in progress, package states) for the status view,
 * and counts as released only what the hub can verify (docs/decisions.md, "A heartbeat's
 * 'released' counts only with a proof"): a RELEASED package whose release proof matches this
 * hall's release code (core/sync/release-proof.ts) is marked released on the hub
 * (`released_by` 'code', audited once), which stops edits of the paper; a RELEASED claim
 * without a proof is shown as reported and changes nothing; wrong proofs cost one audit row
 * per heartbeat (`release-proof-refused`). Proofs are not stored.
 */
export async function recordHeartbeat(deps: HubDeps, hallId: string, beat: Heartbeat): Promise<void> {
  const now = new Date(deps.clock.now());
  const claims = beat.packages.filter((p) => p.state === 'RELEASED' && p.releaseProof !== undefined);
  const pubs = claims.length ? await deps.db.select({ packageId: publications.packageId, code: publications.releaseCodeSealed, releasedAt: publications.releasedAt }).from(publications).where(and(eq(publications.hallId, hallId), inArray(publications.packageId, claims.map((c) => c.packageId)))) : [];
  const pubOf = new Map(pubs.map((p) => [p.packageId, p]));
  const wrong: string[] = [];
  for (const c of claims) {
    const pub = pubOf.get(c.packageId);
    const code = pub ? parseReleaseCode(deps.secrets.open(pub.code)) : null;
    if (!pub || !code?.ok || !verifyReleaseProof(c.releaseProof!, code.code, hallId, c.packageId)) {
      wrong.push(c.packageId);
      continue;
    }
    if (pub.releasedAt !== null) continue;
    const marked = await deps.db.update(publications).set({ releasedAt: now, releasedBy: 'code' }).where(and(eq(publications.packageId, c.packageId), isNull(publications.releasedAt))).returning({ packageId: publications.packageId });
    if (marked.length) await audit(deps.db, { at: now, actor: `hall:${hallId}`, action: 'package-released-reported', hallId, detail: { packageId: c.packageId } });
  }
  if (wrong.length) await audit(deps.db, { at: now, actor: `hall:${hallId}`, action: 'release-proof-refused', hallId, detail: { count: wrong.length, packageIds: wrong.slice(0, MAX_PROOFS_AUDITED) } });
  const stored: Heartbeat = { inProgress: beat.inProgress, packages: beat.packages.map(({ packageId, state }) => ({ packageId, state })) };
  await deps.db.update(halls).set({ heartbeat: stored }).where(eq(halls.id, hallId));
}
