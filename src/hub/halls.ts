/**
 * Halls on the hub (issue #24 §2, §5): an examiner creates a hall and gets a one-time
 * enrolment code (24 h, single use, stored as a digest); the hall enrols once with it and
 * its Ed25519 public key; the status view lists every hall's last contact, clock offset,
 * packages, releases, attempts in progress and results received against expected.
 */
import { and, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { sealEnvelope, publicKeyOf, type Envelope } from '../core/sync/signing.js';
import type { EnrolRequest } from '../core/sync/messages.js';
import { sha256Hex } from '../platform/crypto.js';
import { NotFound, Unauthorized, ValidationError } from '../platform/errors.js';
import { audit } from './audit.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams, hubHallResults, publications } from './db/schema.js';
import { newHubId } from './ids.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ENROLMENT_TTL_MS = 24 * 3600_000;
/** A hall whose clock is further off than this is flagged (issue #24 §5). */
export const CLOCK_FLAG_MS = 60_000;

function newEnrolmentCode(): string {
  let s = '';
  for (const b of randomBytes(16)) s += CROCKFORD[b & 31];
  return `ENR-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}-${s.slice(12)}`;
}
const normaliseCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/** Creates a hall record and its one-time enrolment code (shown once). */
export async function createHall(deps: HubDeps, examinerId: string, name: string) {
  const id = newHubId('hall');
  const code = newEnrolmentCode();
  const now = new Date(deps.clock.now());
  const expires = new Date(now.getTime() + ENROLMENT_TTL_MS);
  await deps.db.insert(halls).values({ id, name, enrolmentCodeDigest: sha256Hex(normaliseCode(code)), enrolmentExpiresAt: expires, createdAt: now });
  await audit(deps.db, { at: now, actor: `examiner:${examinerId}`, action: 'hall-created', hallId: id, detail: { name } });
  return { id, name, enrolmentCode: code, enrolmentExpiresAt: expires.toISOString() };
}

/**
 * Enrols a hall: checks the one-time code, records the hall's public key, burns the code.
 * @returns the signed enrolment envelope (hall id and the hub's public key)
 * @throws Unauthorized for an unknown, used or expired code; ValidationError for a bad key
 */
export async function enrolHall(deps: HubDeps, req: EnrolRequest): Promise<Envelope> {
  try {
    publicKeyOf(req.publicKey);
  } catch {
    throw new ValidationError('publicKey is not an Ed25519 public key (base64 SPKI DER).', [{ path: 'publicKey', message: 'not an Ed25519 SPKI key' }]);
  }
  const now = new Date(deps.clock.now());
  const digest = sha256Hex(normaliseCode(req.enrolmentCode));
  // one statement: two hub processes cannot both accept the same code
  const taken = await deps.db
    .update(halls)
    .set({ publicKey: req.publicKey, enrolledAt: now, enrolmentCodeDigest: null, lastContactAt: now, clockOffsetMs: Date.parse(req.clock) - now.getTime() })
    .where(and(eq(halls.enrolmentCodeDigest, digest), isNull(halls.publicKey), sql`${halls.enrolmentExpiresAt} > ${now}`))
    .returning({ id: halls.id, name: halls.name });
  const hall = taken[0];
  if (!hall) {
    await audit(deps.db, { at: now, actor: 'unknown', action: 'enrolment-refused', detail: { hallName: req.hallName } });
    throw new Unauthorized('The enrolment code is unknown, already used or expired: ask the exam board for a new one.', { code: 'ENROLMENT_CODE_INVALID' });
  }
  await audit(deps.db, { at: now, actor: `hall:${hall.id}`, action: 'hall-enrolled', hallId: hall.id, detail: { hallName: req.hallName } });
  return sealEnvelope(deps.signingKey.privateKey, { kind: 'hallcbt.enrolment.v1', hallId: hall.id, hallName: hall.name, hubPublicKey: deps.signingKey.publicKey, issuedAt: now.toISOString() });
}

/**
 * The status of every hall (issue #24 §5): `examsReleased` counts the exams the hall has
 * released as far as the hub knows (online, or by typed code proved in a heartbeat), and
 * `releasesUnproven` those the hall's last heartbeat says RELEASED without a proof the hub
 * accepts (so a hall that says "released" is never shown as simply not released);
 * `resultsExpected` the candidates of the hall's package of each exam (its own candidates
 * and the unassigned ones: roster.ts), of the released version, else the newest; and `exams`,
 * per exam published to the hall, which version it holds against the exam's current one
 * (docs/hub.md, "Editing after publication"): `sentVersion` the newest sealed for it,
 * `deliveredVersion` the newest it fetched, `heldVersion` the one its last heartbeat reports
 * sealed or released (acknowledged), `releasedVersion` the one released as far as the hub
 * knows (null: none yet).
 */
export async function hallStatus(deps: HubDeps) {
  return hallRows(deps, await deps.db.select().from(halls).orderBy(halls.createdAt), null);
}

/** A page of the halls view: `offset` and `limit` (halls, oldest first), `q` a case-insensitive substring of the name or id. */
export interface HallPage {
  offset: number;
  limit: number;
  q?: string;
}

/**
 * One page of {@link hallStatus} (issue #38 §7: a board with 10,000 halls): the halls whose name
 * or id contains `q` (case-insensitive, `%` and `_` literal), oldest first (halls created at the
 * same instant by name, then id, so pages never overlap), `offset`/`limit` of
 * them, each row as in the whole view, with `total` the halls matching. Reads the other tables
 * for the page's halls only.
 * @returns `{ total, offset, limit, halls }`
 */
export async function hallStatusPage(deps: HubDeps, page: HallPage) {
  const pattern = page.q ? `%${page.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = pattern ? or(ilike(halls.name, pattern), ilike(halls.id, pattern)) : undefined;
  const [count] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(halls).where(where);
  const rows = await deps.db.select().from(halls).where(where).orderBy(halls.createdAt, halls.name, halls.id).offset(page.offset).limit(page.limit);
  return { total: count?.n ?? 0, offset: page.offset, limit: page.limit, halls: await hallRows(deps, rows, rows.map((h) => h.id)) };
}

/** The status rows of `rows` (see {@link hallStatus}); `only` the hall ids to read the other tables for (null: every hall). */
async function hallRows(deps: HubDeps, rows: (typeof halls.$inferSelect)[], only: string[] | null) {
  if (only && only.length === 0) return [];
  const ofHalls = (col: typeof publications.hallId | typeof hubHallResults.hallId) => (only ? inArray(col, only) : undefined);
  const pubs = await deps.db
    .select({
      hallId: publications.hallId,
      packages: sql<number>`count(*)::int`,
      downloaded: sql<number>`count(${publications.downloadedAt})::int`,
      released: sql<number>`count(distinct ${publications.examId}) filter (where ${publications.releasedAt} is not null)::int`,
    })
    .from(publications)
    .where(ofHalls(publications.hallId))
    .groupBy(publications.hallId);
  // results expected: per exam, the candidates of the hall's package that counts — the released
  // version, else the newest — so a republish does not count a roster twice
  const expected = await deps.db.execute(sql`
    SELECT hall_id AS "hallId", coalesce(sum(expected), 0)::int AS expected FROM (
      SELECT DISTINCT ON (exam_id, hall_id) hall_id, expected FROM publications
       ${only ? sql`WHERE hall_id IN (${sql.join(only.map((id) => sql`${id}`), sql`, `)})` : sql``}
       ORDER BY exam_id, hall_id, (released_at IS NULL), version DESC) p
     GROUP BY hall_id`);
  const expectedBy = new Map((expected.rows as { hallId: string; expected: number }[]).map((r) => [r.hallId, r.expected]));
  // attempts received, from the counts the ingest keeps (not a count over millions of results)
  const results = await deps.db
    .select({ hallId: hubHallResults.hallId, received: sql<number>`sum(${hubHallResults.attempts})::int` })
    .from(hubHallResults)
    .where(ofHalls(hubHallResults.hallId))
    .groupBy(hubHallResults.hallId);
  const reportedIds = rows.flatMap((h) => ((h.heartbeat ?? null) as { packages?: { packageId: string }[] } | null)?.packages?.map((x) => x.packageId) ?? []);
  const versions = reportedIds.length ? await deps.db.select({ packageId: publications.packageId, examId: publications.examId, version: publications.version }).from(publications).where(inArray(publications.packageId, reportedIds)) : [];
  const versionOf = new Map(versions.map((v) => [v.packageId, v]));
  const releasedAt = await deps.db.selectDistinct({ hallId: publications.hallId, examId: publications.examId }).from(publications).where(and(isNotNull(publications.releasedAt), ofHalls(publications.hallId)));
  const counted = new Set(releasedAt.map((r) => `${r.hallId} ${r.examId}`));
  const byHall = new Map(pubs.map((p) => [p.hallId, p]));
  const examsBy = await examVersionsByHall(deps, only);
  const resultsBy = new Map(results.map((r) => [r.hallId, r.received]));
  return rows.map((h) => {
    const p = byHall.get(h.id);
    const beat = (h.heartbeat ?? null) as { inProgress?: number; packages?: { packageId: string; state: string }[] } | null;
    const offset = h.clockOffsetMs ?? null;
    const held = new Map<string, number>();
    for (const x of beat?.packages ?? []) {
      const v = versionOf.get(x.packageId);
      if (v && (x.state === 'SEALED' || x.state === 'RELEASED')) held.set(v.examId, Math.max(held.get(v.examId) ?? 0, v.version));
    }
    return {
      id: h.id,
      name: h.name,
      enrolled: h.publicKey !== null,
      enrolledAt: h.enrolledAt?.toISOString() ?? null,
      lastContactAt: h.lastContactAt?.toISOString() ?? null,
      clockOffsetMs: offset,
      clockFlagged: offset !== null && Math.abs(offset) > CLOCK_FLAG_MS,
      packagesPublished: p?.packages ?? 0,
      packagesReceived: p?.downloaded ?? 0,
      // what the hall says it holds, with each package's exam and version (item 5: versions received)
      packagesReported: (beat?.packages ?? []).map((x) => ({ ...x, examId: versionOf.get(x.packageId)?.examId ?? null, version: versionOf.get(x.packageId)?.version ?? null })),
      examsReleased: p?.released ?? 0,
      // what the hall says it released that the hub could not count (no release proof, e.g. an older hall, or a wrong one)
      releasesUnproven: new Set((beat?.packages ?? []).filter((x) => x.state === 'RELEASED').map((x) => versionOf.get(x.packageId)?.examId).filter((x): x is string => !!x && !counted.has(`${h.id} ${x}`))).size,
      attemptsInProgress: beat?.inProgress ?? 0,
      resultsReceived: resultsBy.get(h.id) ?? 0,
      resultsExpected: expectedBy.get(h.id) ?? 0,
      exams: (examsBy.get(h.id) ?? []).map((x) => ({ ...x, heldVersion: held.get(x.examId) ?? null })),
    };
  });
}

/** Per hall, each exam published to it: its title, current version, and the newest version sealed for, fetched by and released at the hall. */
async function examVersionsByHall(deps: HubDeps, only: string[] | null) {
  const rows = await deps.db
    .select({
      hallId: publications.hallId,
      examId: publications.examId,
      title: hubExams.title,
      currentVersion: hubExams.version,
      sentVersion: sql<number>`max(${publications.version})::int`,
      deliveredVersion: sql<number | null>`(max(${publications.version}) filter (where ${publications.downloadedAt} is not null))::int`,
      releasedVersion: sql<number | null>`(max(${publications.version}) filter (where ${publications.releasedAt} is not null))::int`,
    })
    .from(publications)
    .innerJoin(hubExams, eq(hubExams.id, publications.examId))
    .where(only ? inArray(publications.hallId, only) : undefined)
    .groupBy(publications.hallId, publications.examId, hubExams.title, hubExams.version, hubExams.startsAt)
    .orderBy(hubExams.startsAt, publications.examId);
  const by = new Map<string, Omit<(typeof rows)[number], 'hallId'>[]>();
  for (const { hallId, ...x } of rows) by.set(hallId, [...(by.get(hallId) ?? []), x]);
  return by;
}

/** The hall or NotFound. */
export async function getHall(deps: HubDeps, id: string) {
  const rows = await deps.db.select().from(halls).where(eq(halls.id, id));
  if (!rows[0]) throw new NotFound('Hall');
  return rows[0];
}

/**
 * Revokes a hall's key (a stolen machine): its signed requests are refused from now on,
 * and a new enrolment code is issued for the replacement machine.
 * @throws NotFound
 */
export async function revokeHall(deps: HubDeps, examinerId: string, id: string) {
  await getHall(deps, id);
  const code = newEnrolmentCode();
  const now = new Date(deps.clock.now());
  await deps.db.update(halls).set({ publicKey: null, enrolledAt: null, enrolmentCodeDigest: sha256Hex(normaliseCode(code)), enrolmentExpiresAt: new Date(now.getTime() + ENROLMENT_TTL_MS) }).where(eq(halls.id, id));
  await audit(deps.db, { at: now, actor: `examiner:${examinerId}`, action: 'hall-key-revoked', hallId: id, detail: {} });
  return { id, enrolmentCode: code, enrolmentExpiresAt: new Date(now.getTime() + ENROLMENT_TTL_MS).toISOString() };
}
