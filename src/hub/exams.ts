/**
 * Exams on the hub (issue #24 §3): built with the hall's own question schema and item rules
 * (questionInputSchema), stored in PostgreSQL, and published to chosen halls as one sealed
 * package per hall (src/core/sync/seal.ts): the paper under a per-publication content key,
 * that key wrapped under the hall's own release code. Release codes are sealed at rest under
 * the hub key file and shown only to examiners.
 */
import { eq, inArray, max } from 'drizzle-orm';
import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import { questionInputSchema } from '../core/questions/schemas.js';
import { NO_SIZE, firstOverPaperLimit, questionSize } from '../core/questions/limits.js';
import { sealEnvelope } from '../core/sync/signing.js';
import { newContentKey, sealPaper, wrapContentKey } from '../core/sync/seal.js';
import { newReleaseCode, parseReleaseCode } from '../core/sync/release-code.js';
import { paperNeedsV2, type Paper } from '../core/sync/messages.js';
import { Conflict, NotFound, ValidationError, type FieldError } from '../platform/errors.js';
import { zodFieldErrors } from '../platform/openapi.js';
import { audit } from './audit.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams, publications } from './db/schema.js';
import { newHubId } from './ids.js';
import type { HubDb } from './db/index.js';
import { examinerQuestion, newHubQuestion, sealedQuestion, type HubQuestion } from './questions.js';
import { checkedSubjects, hubRosterEntrySchema, requireRosterHalls, rosterExtras, rosterShares, storedRoster } from './roster.js';
import { assertHubDrawsPossible, assertQuestionsInSections, hubCalculatorInput, hubSectionsInput, paperSettings, sectionsFromHubInput, sectionsOf, type HubExamSettings } from './exam-sections.js';

type Tx = Parameters<Parameters<HubDb['transaction']>[0]>[0];

export const hubExamInputSchema = z.object({
  title: z.string().trim().min(1).max(200),
  durationMins: z.number().int().min(1).max(600),
  startsAt: z.string().datetime({ offset: true }),
  endsAt: z.string().datetime({ offset: true }).nullable().optional(),
  maxTabViolations: z.number().int().min(0).max(100).default(3),
  shuffleQuestions: z.boolean().default(false),
  shuffleChoices: z.boolean().default(false),
  showResultAfter: z.boolean().default(true),
  // the hall's sections and calculator (docs/operations.md §13): same schema, same rules
  sections: hubSectionsInput,
  calculator: hubCalculatorInput,
  // validated one by one below, so errors carry their index (as POST /questions/bulk);
  // may be empty: questions can come later (authoring routes, imports)
  questions: z.array(z.unknown()).max(500).default([]),
  // each candidate may name the hall (centre) they sit at: roster.ts
  roster: z.array(hubRosterEntrySchema).min(1).max(20_000),
});
export type HubExamInput = z.infer<typeof hubExamInputSchema>;

/**
 * Creates an exam with its questions and roster. All-or-nothing: any invalid question →
 * 400 listing `errors: [{index, path, message}]`, nothing stored (docs/design.md §6's bulk rule).
 * A roster entry without a PIN is issued a 6-digit one; one naming a hall that does not
 * exist is a 400 (`roster[i].hallId`). `sections` and `calculator` follow the hall's rules
 * (exam-sections.ts): with sections every question names one (400 `errors[].index`), and a
 * roster entry's `subjects` must be sections of the exam (400 `roster[i].subjects`).
 */
export async function createHubExam(deps: HubDeps, examinerId: string, input: HubExamInput) {
  if (input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt)) throw new ValidationError('endsAt must be after startsAt.', [{ path: 'endsAt', message: 'must be after startsAt' }]);
  const errors: FieldError[] = [];
  const questions: HubQuestion[] = [];
  const nowIso = new Date(deps.clock.now()).toISOString();
  input.questions.forEach((raw, index) => {
    const r = questionInputSchema.safeParse(raw);
    if (!r.success) for (const e of zodFieldErrors(r.error)) errors.push({ index, ...e });
    else questions.push(newHubQuestion(r.data, nowIso));
  });
  if (errors.length) throw new ValidationError(`${new Set(errors.map((e) => e.index)).size} question(s) are invalid; nothing was stored.`, errors);
  const sections = sectionsFromHubInput(input.sections);
  assertQuestionsInSections(sections ?? [], questions.map((q) => ({ id: q.id, section: q.section ?? null })), 'section');
  // the hall's paper size limits (docs/decisions.md, "Paper size limits")
  const over = firstOverPaperLimit(0, NO_SIZE, questions.map(questionSize));
  if (over) throw new ValidationError(`Question ${over.index + 1} would take the exam over a paper size limit; nothing was stored.`, [{ index: over.index, path: '(paper)', message: `${over.message} (docs/decisions.md, "Paper size limits")` }]);
  const ids = input.roster.map((r) => r.studentId);
  if (new Set(ids).size !== ids.length) throw new ValidationError('A studentId appears twice in the roster.', [{ path: 'roster', message: 'duplicate studentId' }]);
  await requireRosterHalls(deps.db, input.roster);
  const subjects = checkedSubjects(sections ?? [], input.roster.map((r) => r.subjects), (index) => ({ path: `roster[${index}].subjects` }));
  if (subjects.errors.length) throw new ValidationError(`${subjects.errors.length} roster entr${subjects.errors.length === 1 ? 'y names a subject' : 'ies name subjects'} the exam does not have; nothing was stored.`, subjects.errors);
  const roster = input.roster.map((r, i) => ({ studentId: r.studentId, candidateName: r.candidateName, pin: r.pin ?? String(randomInt(0, 1_000_000)).padStart(6, '0'), hallId: r.hallId ?? null, ...rosterExtras({ ...r, subjects: subjects.subjects[i] }) }));
  const id = newHubId('hex');
  const now = new Date(deps.clock.now());
  const settings: HubExamSettings = { maxTabViolations: input.maxTabViolations, shuffleQuestions: input.shuffleQuestions, shuffleChoices: input.shuffleChoices, showResultAfter: input.showResultAfter, ...(input.calculator && input.calculator !== 'none' ? { calculator: input.calculator } : {}), ...(sections ? { sections } : {}) };
  await deps.db.insert(hubExams).values({ id, title: input.title, durationMins: input.durationMins, startsAt: new Date(input.startsAt), endsAt: input.endsAt ? new Date(input.endsAt) : null, settings, questions, roster: roster.map((r) => ({ ...r, pin: deps.secrets.seal(r.pin) })), version: 1, createdBy: examinerId, createdAt: now });
  await audit(deps.db, { at: now, actor: `examiner:${examinerId}`, action: 'exam-created', detail: { examId: id, questions: questions.length, roster: roster.length } });
  return getHubExam(deps, id);
}

/**
 * The exam as examiners see it (questions with keys in the hall's stored-question shape,
 * roster with PINs and each candidate's `hallId`, null when not assigned), with `version` (the paper as it is now), `publishedVersion` (the
 * newest version sealed for any hall, null before the first publication) and
 * `republishNeeded` (edited since it was last published: edits re-seal at once, docs/hub.md
 * "Editing after publication", so only an exam edited before that held it true). @throws NotFound
 */
export async function getHubExam(deps: HubDeps, id: string, db: Pick<HubDb, 'select'> = deps.db) {
  const rows = await db.select().from(hubExams).where(eq(hubExams.id, id));
  const e = rows[0];
  if (!e) throw new NotFound('Exam');
  const pub = await db.select({ v: max(publications.version) }).from(publications).where(eq(publications.examId, id));
  const publishedVersion = pub[0]?.v ?? null;
  const createdAt = e.createdAt.toISOString();
  const roster = storedRoster(e.roster).map((r) => ({ ...r, pin: deps.secrets.open(r.pin) }));
  return {
    id: e.id,
    title: e.title,
    durationMins: e.durationMins,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt?.toISOString() ?? null,
    settings: paperSettings(e.settings),
    calculator: (e.settings as HubExamSettings).calculator ?? 'none',
    sections: sectionsOf(e.settings),
    version: e.version,
    publishedVersion,
    republishNeeded: publishedVersion !== null && publishedVersion < e.version,
    questions: (e.questions as HubQuestion[]).map((q, i) => examinerQuestion(e.id, q, i, createdAt)),
    roster,
    createdAt,
  };
}

/**
 * Publishes the exam's current version to halls: one package per hall with its own content
 * key. A hall's package carries its share of the roster (the candidates assigned to it and
 * those assigned to no hall: roster.ts) and grants the hall one candidate credit per
 * candidate of that share (`credits`, signed with the package; the hall adds them when it
 * releases the paper: docs/hub-protocol.md, "Credits with the paper"). A hall keeps one
 * release code per exam across versions (docs/decisions.md), so a code already handed to
 * the exam body still opens the newest package. Publishing again to a hall that has the
 * current version is a no-op for that hall. Without `hallIds`, the halls the exam was
 * published to before get the current version (a republish; edits already re-seal at once: authoring.ts editExamRow). Runs under a row
 * lock of the exam, so an edit in another hub process is either wholly before (and
 * published) or after (and makes the next version).
 * @returns per hall: packageId, version, the release code (examiners only) and the candidates and credits the package carries
 * @throws NotFound for an unknown exam or hall; Conflict for a hall not enrolled that has no package of this exam yet (a
 *   revoked hall keeps getting new versions for its replacement) or an exam without questions;
 *   ValidationError when no halls are named and none were published to before
 */
export async function publishExam(deps: HubDeps, examinerId: string, examId: string, hallIds?: string[]) {
  return deps.db.transaction((tx) => publishInTx(deps, tx, examinerId, examId, hallIds));
}

/** {@link publishExam} inside the caller's transaction (an edit of a published exam re-issues packages in its own: authoring.ts editExamRow). */
export async function publishInTx(deps: HubDeps, tx: Tx, examinerId: string, examId: string, hallIds?: string[]) {
  const locked = await tx.select({ id: hubExams.id }).from(hubExams).where(eq(hubExams.id, examId)).for('update');
  if (!locked[0]) throw new NotFound('Exam');
  const exam = await getHubExam(deps, examId, tx);
  const earlier = await tx.select({ hallId: publications.hallId, code: publications.releaseCodeSealed, version: publications.version, packageId: publications.packageId, expected: publications.expected }).from(publications).where(eq(publications.examId, examId)).orderBy(publications.createdAt);
  const targetIds = hallIds ?? [...new Set(earlier.map((p) => p.hallId))];
  if (!targetIds.length) throw new ValidationError('Name the halls to publish to (hallIds): this exam has not been published before.', [{ path: 'hallIds', message: 'required for a first publication' }]);
  if (!exam.questions.length) throw new Conflict('The exam has no questions yet: add or import some before publishing.', { code: 'NO_QUESTIONS' });
  assertHubDrawsPossible(exam.sections, exam.questions);
  const targets = await tx.select().from(halls).where(inArray(halls.id, targetIds));
  for (const id of targetIds) {
    const h = targets.find((t) => t.id === id);
    if (!h) throw new NotFound(`Hall ${id}`);
    // a hall revoked after it had this exam (a stolen machine, not yet replaced) keeps getting its versions: its replacement fetches them
    if (!h.publicKey && !earlier.some((p) => p.hallId === id)) throw new Conflict(`Hall ${id} has not enrolled yet: it cannot receive a package.`);
  }
  const now = new Date(deps.clock.now());
  const out: { hallId: string; packageId: string; version: number; releaseCode: string; candidates: number; credits: number }[] = [];
  const shareOf = rosterShares(exam.roster);
  for (const hallId of targetIds) {
    const mine = earlier.filter((p) => p.hallId === hallId);
    const current = mine.find((p) => p.version === exam.version);
    if (current) {
      out.push({ hallId, packageId: current.packageId, version: exam.version, releaseCode: deps.secrets.open(current.code), candidates: current.expected, credits: current.expected });
      continue;
    }
    const roster = shareOf(hallId).map(({ studentId, candidateName, pin, ...r }) => ({ studentId, candidateName, pin, ...rosterExtras(r) }));
    const paper: Paper = { kind: 'hallcbt.paper.v1', examId: exam.id, title: exam.title, durationMins: exam.durationMins, startsAt: exam.startsAt, endsAt: exam.endsAt, settings: exam.settings, ...(exam.sections.length ? { sections: exam.sections } : {}), questions: exam.questions.map(sealedQuestion), roster };
    if (paperNeedsV2(paper)) paper.kind = 'hallcbt.paper.v2';
    const packageId = newHubId('pkg');
    const releaseCode = mine[0] ? deps.secrets.open(mine[0].code) : newReleaseCode();
    const canonical = parseReleaseCode(releaseCode);
    if (!canonical.ok) throw new Error('release code does not parse');
    const contentKey = newContentKey();
    const identity = { packageId, hallId, examId, version: exam.version };
    const envelope = sealEnvelope(deps.signingKey.privateKey, {
      kind: 'hallcbt.package.v1',
      ...identity,
      issuedAt: now.toISOString(),
      title: exam.title,
      startsAt: exam.startsAt,
      endsAt: exam.endsAt,
      durationMins: exam.durationMins,
      credits: roster.length,
      sealed: sealPaper(contentKey, paper, identity),
      wrappedKey: wrapContentKey(contentKey, canonical.code, hallId, examId),
    });
    const text = JSON.stringify(envelope);
    await tx.insert(publications).values({ packageId, examId, hallId, version: exam.version, releaseCodeSealed: deps.secrets.seal(releaseCode), envelope: text, sha256: createHash('sha256').update(text).digest('hex'), expected: roster.length, createdAt: now });
    await audit(tx, { at: now, actor: `examiner:${examinerId}`, action: 'exam-published', hallId, detail: { examId, packageId, version: exam.version, candidates: roster.length, credits: roster.length } });
    out.push({ hallId, packageId, version: exam.version, releaseCode, candidates: roster.length, credits: roster.length });
  }
  return out;
}

/** Release codes of an exam's packages, per hall (examiners read them out at the start time). */
export async function releaseCodes(deps: HubDeps, examId: string) {
  await getHubExam(deps, examId);
  const rows = await deps.db.select({ p: publications, hallName: halls.name }).from(publications).innerJoin(halls, eq(halls.id, publications.hallId)).where(eq(publications.examId, examId));
  return rows.map(({ p, hallName }) => ({ hallId: p.hallId, hallName, packageId: p.packageId, version: p.version, releaseCode: deps.secrets.open(p.releaseCodeSealed), downloaded: p.downloadedAt !== null, released: p.releasedAt !== null }));
}

/** A package's envelope as stored (for the USB file). @throws NotFound */
export async function packageEnvelope(deps: HubDeps, packageId: string): Promise<{ envelope: string; hallId: string; examId: string; startsAt: Date }> {
  const rows = await deps.db.select({ p: publications, startsAt: hubExams.startsAt }).from(publications).innerJoin(hubExams, eq(hubExams.id, publications.examId)).where(eq(publications.packageId, packageId));
  if (!rows[0]) throw new NotFound('Package');
  return { envelope: rows[0].p.envelope, hallId: rows[0].p.hallId, examId: rows[0].p.examId, startsAt: rows[0].startsAt };
}
