/**
 * Exams on the hub (issue #24 §3): built with the hall's own question schema and item rules
 * (questionInputSchema), stored in PostgreSQL, and published to chosen halls as one sealed
 * package per hall (src/core/sync/seal.ts): the paper under a per-publication content key,
 * that key wrapped under the hall's own release code. Release codes are sealed at rest under
 * the hub key file and shown only to examiners.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import { questionInputSchema, type QuestionInput } from '../core/questions/schemas.js';
import { sealEnvelope } from '../core/sync/signing.js';
import { newContentKey, sealPaper, wrapContentKey } from '../core/sync/seal.js';
import { newReleaseCode, parseReleaseCode } from '../core/sync/release-code.js';
import type { Paper, PaperQuestion } from '../core/sync/messages.js';
import { Conflict, NotFound, ValidationError, type FieldError } from '../platform/errors.js';
import { zodFieldErrors } from '../platform/openapi.js';
import { audit } from './audit.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams, publications } from './db/schema.js';
import { newHubId, newOptionId, newQuestionId } from './ids.js';

export const hubExamInputSchema = z.object({
  title: z.string().trim().min(1).max(200),
  durationMins: z.number().int().min(1).max(600),
  startsAt: z.string().datetime({ offset: true }),
  endsAt: z.string().datetime({ offset: true }).nullable().optional(),
  maxTabViolations: z.number().int().min(0).max(100).default(3),
  shuffleQuestions: z.boolean().default(false),
  shuffleChoices: z.boolean().default(false),
  showResultAfter: z.boolean().default(true),
  // validated one by one below, so errors carry their index (as POST /questions/bulk)
  questions: z.array(z.unknown()).min(1).max(500),
  roster: z
    .array(z.object({ studentId: z.string().trim().min(1).max(64), candidateName: z.string().trim().min(1).max(200), pin: z.string().regex(/^\d{4,8}$/).optional() }))
    .min(1)
    .max(20_000),
});
export type HubExamInput = z.infer<typeof hubExamInputSchema>;

function toPaperQuestion(q: QuestionInput): PaperQuestion {
  const objective = q.type === 'MCQ' || q.type === 'TRUE_FALSE';
  return {
    id: newQuestionId(),
    prompt: q.prompt,
    type: q.type,
    marks: q.marks,
    options: objective ? (q.options ?? []).map((o, i) => ({ id: newOptionId(), keyLabel: o.keyLabel ?? String.fromCharCode(65 + i), text: o.text, isCorrect: o.isCorrect })) : [],
    explanation: q.explanation ?? null,
    section: q.section ?? null,
    minWords: q.minWords ?? null,
    maxWords: q.maxWords ?? null,
    modelAnswer: q.modelAnswer ?? null,
    rubric: q.rubric ? { name: q.rubric.name, totalMarks: q.rubric.totalMarks, criteria: q.rubric.criteria.map((c, i) => ({ id: c.id ?? `c${i + 1}`, title: c.title, maxMarks: c.maxMarks, description: c.description ?? '' })) } : null,
  };
}

/**
 * Creates an exam with its questions and roster. All-or-nothing: any invalid question →
 * 400 listing `errors: [{index, path, message}]`, nothing stored (DESIGN §6's bulk rule).
 * A roster entry without a PIN is issued a 6-digit one.
 */
export async function createHubExam(deps: HubDeps, examinerId: string, input: HubExamInput) {
  if (input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt)) throw new ValidationError('endsAt must be after startsAt.', [{ path: 'endsAt', message: 'must be after startsAt' }]);
  const errors: FieldError[] = [];
  const questions: PaperQuestion[] = [];
  input.questions.forEach((raw, index) => {
    const r = questionInputSchema.safeParse(raw);
    if (!r.success) for (const e of zodFieldErrors(r.error)) errors.push({ index, ...e });
    else questions.push(toPaperQuestion(r.data));
  });
  if (errors.length) throw new ValidationError(`${new Set(errors.map((e) => e.index)).size} question(s) are invalid; nothing was stored.`, errors);
  const ids = input.roster.map((r) => r.studentId);
  if (new Set(ids).size !== ids.length) throw new ValidationError('A studentId appears twice in the roster.', [{ path: 'roster', message: 'duplicate studentId' }]);
  const roster = input.roster.map((r) => ({ studentId: r.studentId, candidateName: r.candidateName, pin: r.pin ?? String(randomInt(0, 1_000_000)).padStart(6, '0') }));
  const id = newHubId('hex');
  const now = new Date(deps.clock.now());
  const settings = { maxTabViolations: input.maxTabViolations, shuffleQuestions: input.shuffleQuestions, shuffleChoices: input.shuffleChoices, showResultAfter: input.showResultAfter };
  await deps.db.insert(hubExams).values({ id, title: input.title, durationMins: input.durationMins, startsAt: new Date(input.startsAt), endsAt: input.endsAt ? new Date(input.endsAt) : null, settings, questions, roster: roster.map((r) => ({ ...r, pin: deps.secrets.seal(r.pin) })), version: 1, createdBy: examinerId, createdAt: now });
  await audit(deps.db, { at: now, actor: `examiner:${examinerId}`, action: 'exam-created', detail: { examId: id, questions: questions.length, roster: roster.length } });
  return getHubExam(deps, id);
}

/** The exam as examiners see it (questions with keys, roster with PINs). @throws NotFound */
export async function getHubExam(deps: HubDeps, id: string) {
  const rows = await deps.db.select().from(hubExams).where(eq(hubExams.id, id));
  const e = rows[0];
  if (!e) throw new NotFound('Exam');
  const roster = (e.roster as { studentId: string; candidateName: string; pin: string }[]).map((r) => ({ ...r, pin: deps.secrets.open(r.pin) }));
  return {
    id: e.id,
    title: e.title,
    durationMins: e.durationMins,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt?.toISOString() ?? null,
    settings: e.settings as Paper['settings'],
    version: e.version,
    questions: e.questions as PaperQuestion[],
    roster,
    createdAt: e.createdAt.toISOString(),
  };
}

/**
 * Publishes the exam to halls: one package per hall with its own content key and release
 * code. Publishing again to a hall that has the current version is a no-op for that hall.
 * @returns per hall: packageId and the release code (examiners only)
 * @throws NotFound for an unknown exam or hall; Conflict for a hall not enrolled
 */
export async function publishExam(deps: HubDeps, examinerId: string, examId: string, hallIds: string[]) {
  const exam = await getHubExam(deps, examId);
  const targets = await deps.db.select().from(halls).where(inArray(halls.id, hallIds));
  for (const id of hallIds) {
    const h = targets.find((t) => t.id === id);
    if (!h) throw new NotFound(`Hall ${id}`);
    if (!h.publicKey) throw new Conflict(`Hall ${id} has not enrolled yet: it cannot receive a package.`);
  }
  const paper: Paper = { kind: 'hallcbt.paper.v1', examId: exam.id, title: exam.title, durationMins: exam.durationMins, startsAt: exam.startsAt, endsAt: exam.endsAt, settings: exam.settings, questions: exam.questions, roster: exam.roster };
  const now = new Date(deps.clock.now());
  const out: { hallId: string; packageId: string; releaseCode: string }[] = [];
  for (const hallId of hallIds) {
    const existing = await deps.db.select().from(publications).where(and(eq(publications.examId, examId), eq(publications.hallId, hallId), eq(publications.version, exam.version)));
    if (existing[0]) {
      out.push({ hallId, packageId: existing[0].packageId, releaseCode: deps.secrets.open(existing[0].releaseCodeSealed) });
      continue;
    }
    const packageId = newHubId('pkg');
    const releaseCode = newReleaseCode();
    const canonical = parseReleaseCode(releaseCode);
    if (!canonical.ok) throw new Error('generated release code does not parse');
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
      sealed: sealPaper(contentKey, paper, identity),
      wrappedKey: wrapContentKey(contentKey, canonical.code, hallId, examId),
    });
    const text = JSON.stringify(envelope);
    await deps.db.insert(publications).values({ packageId, examId, hallId, version: exam.version, releaseCodeSealed: deps.secrets.seal(releaseCode), envelope: text, sha256: createHash('sha256').update(text).digest('hex'), expected: exam.roster.length, createdAt: now });
    await audit(deps.db, { at: now, actor: `examiner:${examinerId}`, action: 'exam-published', hallId, detail: { examId, packageId, version: exam.version } });
    out.push({ hallId, packageId, releaseCode });
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
