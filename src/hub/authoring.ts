/**
 * Question authoring on a hub exam (issue #24 §3): the hall's question API — bulk add,
 * read, PATCH (merged, then the whole item re-validated), delete, reorder — with the hall's
 * item rules (questionInputSchema) and its `{index, path, message}` errors, all-or-nothing.
 *
 * Versions: every change runs in one transaction under a row lock of the exam. A change to
 * an exam whose current version has been sealed for a hall makes the next version (halls
 * get it when the examiner publishes again); changes before that stay in the same version.
 * Once any hall has released the paper (known from the hub's online release, or from a
 * heartbeat carrying the release proof — a bare "released" does not count), or once halls may release it (5 minutes before the start), changes are
 * refused with 409: a hall may already be running that paper (docs/decisions.md).
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { questionInputSchema, questionPatchSchema, type QuestionInput, type StoredQuestion } from '../core/questions/schemas.js';
import { NO_SIZE, addSizes, paperLimitProblem, questionSize } from '../core/questions/limits.js';
import { Conflict, NotFound, ValidationError, type FieldError } from '../platform/errors.js';
import { zodFieldErrors } from '../platform/openapi.js';
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { audit } from './audit.js';
import type { HubDb } from './db/index.js';
import { hubExams, publications } from './db/schema.js';
import type { HubDeps } from './deps.js';
import { examinerQuestion, newHubQuestion, replacedHubQuestion, type HubQuestion } from './questions.js';
import { publishInTx } from './exams.js';
import { checkedSubjects, hubRosterEntrySchema, requireRosterHalls, rosterExtras, storedRoster } from './roster.js';
import { assertQuestionsInSections, hubCalculatorInput, hubSectionsInput, sectionsFromHubInput, sectionsOf, type HubExamSettings } from './exam-sections.js';
import { ONLINE_RELEASE_LEAD_MS } from './sync.js';

/** Most questions an exam may hold (a generous paper; the hall has no smaller limit per exam). */
export const MAX_EXAM_QUESTIONS = 2000;

type Tx = Parameters<Parameters<HubDb['transaction']>[0]>[0];
type ExamRow = typeof hubExams.$inferSelect;
/** The columns an edit may set (the version is the edit's own business). */
type ExamEdit = Partial<Pick<ExamRow, 'title' | 'durationMins' | 'startsAt' | 'endsAt' | 'settings' | 'questions' | 'roster'>>;

/**
 * Refuses a change to an exam that a hall has released or may release now.
 * @throws Conflict with `code` PAPER_RELEASED (and `halls`) or RELEASE_WINDOW_OPEN (and `releasableAt`)
 */
async function assertEditable(deps: HubDeps, tx: Tx, e: ExamRow): Promise<void> {
  // released as far as the hub knows: it issued the code online, or a hall proved it held the code (sync.ts recordHeartbeat)
  const released = await tx.selectDistinct({ hallId: publications.hallId }).from(publications).where(and(eq(publications.examId, e.id), isNotNull(publications.releasedAt)));
  if (released.length) throw new Conflict(`The paper has been released at ${released.length} hall(s): it can no longer change. Build a new exam for a corrected paper.`, { code: 'PAPER_RELEASED', halls: released.map((r) => r.hallId) });
  const releasableAt = e.startsAt.getTime() - ONLINE_RELEASE_LEAD_MS;
  if (deps.clock.now() >= releasableAt) throw new Conflict(`Halls may release this paper from ${new Date(releasableAt).toISOString()} (5 minutes before it starts): it can no longer change.`, { code: 'RELEASE_WINDOW_OPEN', releasableAt: new Date(releasableAt).toISOString() });
}

/** The packages a change re-issued (publishExam's answer), empty before the first publication. */
export type Reissued = Awaited<ReturnType<typeof publishInTx>>;

/**
 * Applies `change` to the exam's row in one transaction (locked, checked editable), bumping
 * the version when the current one has been published, with an audit row. Any change of a
 * published exam (questions, settings, roster) re-seals, in the same transaction, the new
 * version to every hall the exam was published to, each hall's newer package superseding its
 * older one before release (docs/hub.md, "Editing after publication"; a moved candidate leaves
 * one package and joins the other: "Candidates and centres"). No hall has released the paper
 * then: assertEditable refuses every change after the first release.
 * @returns what `change` returns, the exam's version after it and the packages re-issued
 */
export async function editExamRow<T>(deps: HubDeps, examinerId: string, examId: string, action: string, change: (e: ExamRow, nowIso: string) => { set: ExamEdit; result: T; detail?: Record<string, unknown> }): Promise<T & { version: number; reissued: Reissued }> {
  return deps.db.transaction(async (tx) => {
    const rows = await tx.select().from(hubExams).where(eq(hubExams.id, examId)).for('update');
    const e = rows[0];
    if (!e) throw new NotFound('Exam');
    await assertEditable(deps, tx, e);
    const now = new Date(deps.clock.now());
    const { set, result, detail } = change(e, now.toISOString());
    const published = await tx.selectDistinct({ version: publications.version }).from(publications).where(eq(publications.examId, examId));
    const version = published.some((p) => p.version === e.version) ? e.version + 1 : e.version;
    await tx.update(hubExams).set({ ...set, version }).where(eq(hubExams.id, examId));
    await audit(tx, { at: now, actor: `examiner:${examinerId}`, action, detail: { examId, version, ...detail } });
    const reissued = published.length ? await publishInTx(deps, tx, examinerId, examId) : [];
    return { ...result, version, reissued };
  });
}

/**
 * Applies `change` to the exam's questions (see editExamRow), refusing more than
 * MAX_EXAM_QUESTIONS. @returns what `change` returns, and the exam's version after it
 */
async function editQuestions<T>(deps: HubDeps, examinerId: string, examId: string, action: string, change: (qs: HubQuestion[], nowIso: string) => { questions: HubQuestion[]; result: T; detail?: Record<string, unknown> }): Promise<T & { version: number }> {
  return editExamRow(deps, examinerId, examId, action, (e, nowIso) => {
    const { questions, result, detail } = change([...(e.questions as HubQuestion[])], nowIso);
    // with sections, every question names one of them (the hall's rule)
    assertQuestionsInSections(sectionsOf(e.settings), questions.map((q) => ({ id: q.id, section: q.section ?? null })));
    if (questions.length > MAX_EXAM_QUESTIONS) throw new ValidationError(`An exam holds at most ${MAX_EXAM_QUESTIONS} questions; this change would make ${questions.length}.`, [{ path: 'questions', message: 'too many questions' }]);
    // the hall's paper size limits (docs/decisions.md, "Paper size limits"): a paper the halls would refuse at release is refused here
    const before = (e.questions as HubQuestion[]).map(questionSize).reduce(addSizes, NO_SIZE);
    const after = questions.map(questionSize).reduce(addSizes, NO_SIZE);
    const problem = (Object.keys(after) as (keyof typeof after)[]).some((k) => after[k] > before[k]) ? paperLimitProblem(questions.length, after) : null;
    if (problem) throw new ValidationError(`This change would take the exam over a paper size limit; nothing was stored.`, [{ path: '(paper)', message: `${problem} (docs/decisions.md, "Paper size limits")` }]);
    return { set: { questions }, result, detail };
  });
}

/** PATCH /hub/v1/exams/:id: the settings and roster an examiner may change before release (all optional, at least one). */
export const hubExamPatchSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    durationMins: z.number().int().min(1).max(600),
    startsAt: z.string().datetime({ offset: true }),
    endsAt: z.string().datetime({ offset: true }).nullable(),
    maxTabViolations: z.number().int().min(0).max(100),
    shuffleQuestions: z.boolean(),
    shuffleChoices: z.boolean(),
    showResultAfter: z.boolean(),
    calculator: hubCalculatorInput.unwrap(),
    sections: hubSectionsInput,
    roster: z.array(hubRosterEntrySchema).min(1).max(20_000),
  })
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'Nothing to change: give at least one field.' });
export type HubExamPatch = z.infer<typeof hubExamPatchSchema>;

/**
 * Changes an exam's settings and/or replaces its roster, under the same rules as a question
 * edit (refused once released or in the release window; after a publication it makes the
 * next version, re-sealed to the halls at once: editExamRow). A roster
 * entry without a PIN keeps the PIN its studentId already had, or is issued a new 6-digit
 * one (as at creation); one without `hallId` keeps its hall (null: no hall), and one without
 * `subjects`, `extraTimePercent` or `extraTimeMins` keeps what it had. New `sections` ([] or
 * null removes them) must fit the exam's questions and roster subjects (the hall's rule).
 * @throws NotFound, ValidationError (endsAt not after startsAt, duplicate studentId, unknown hall, a question or subject outside the sections), Conflict
 */
export async function patchHubExam(deps: HubDeps, examinerId: string, examId: string, patch: HubExamPatch): Promise<{ version: number; reissued: Reissued }> {
  if (patch.roster) await requireRosterHalls(deps.db, patch.roster);
  return editExamRow(deps, examinerId, examId, 'exam-edited', (e) => {
    const startsAt = patch.startsAt !== undefined ? new Date(patch.startsAt) : e.startsAt;
    const endsAt = patch.endsAt !== undefined ? (patch.endsAt === null ? null : new Date(patch.endsAt)) : e.endsAt;
    if (endsAt && endsAt.getTime() <= startsAt.getTime()) throw new ValidationError('endsAt must be after startsAt.', [{ path: 'endsAt', message: 'must be after startsAt' }]);
    const set: ExamEdit = {};
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.durationMins !== undefined) set.durationMins = patch.durationMins;
    if (patch.startsAt !== undefined) set.startsAt = startsAt;
    if (patch.endsAt !== undefined) set.endsAt = endsAt;
    const settingKeys = ['maxTabViolations', 'shuffleQuestions', 'shuffleChoices', 'showResultAfter'] as const;
    const settings: HubExamSettings = { ...(e.settings as HubExamSettings) };
    for (const k of settingKeys) if (patch[k] !== undefined) (settings as unknown as Record<string, unknown>)[k] = patch[k];
    if (patch.calculator !== undefined) {
      if (patch.calculator === 'none') delete settings.calculator;
      else settings.calculator = patch.calculator;
    }
    if (patch.sections !== undefined) {
      const sections = sectionsFromHubInput(patch.sections);
      if (sections) settings.sections = sections;
      else delete settings.sections;
      // the questions must fit the new sections (the roster is checked below)
      assertQuestionsInSections(sections ?? [], (e.questions as HubQuestion[]).map((q) => ({ id: q.id, section: q.section ?? null })), 'sections');
    }
    if (settingKeys.some((k) => patch[k] !== undefined) || patch.calculator !== undefined || patch.sections !== undefined) set.settings = settings;
    const had = new Map(storedRoster(e.roster).map((r) => [r.studentId, r]));
    if (patch.roster) {
      const ids = patch.roster.map((r) => r.studentId);
      if (new Set(ids).size !== ids.length) throw new ValidationError('A studentId appears twice in the roster.', [{ path: 'roster', message: 'duplicate studentId' }]);
      set.roster = patch.roster.map((r) => {
        const old = had.get(r.studentId);
        return {
          studentId: r.studentId,
          candidateName: r.candidateName,
          pin: r.pin !== undefined ? deps.secrets.seal(r.pin) : (old?.pin ?? deps.secrets.seal(String(randomInt(0, 1_000_000)).padStart(6, '0'))),
          hallId: r.hallId !== undefined ? r.hallId : (old?.hallId ?? null),
          ...rosterExtras({ subjects: r.subjects !== undefined ? r.subjects : old?.subjects, extraTimePercent: r.extraTimePercent ?? old?.extraTimePercent, extraTimeMins: r.extraTimeMins ?? old?.extraTimeMins }),
        };
      });
    }
    if (patch.roster || patch.sections !== undefined) {
      // every roster candidate's subjects must be sections of the exam (spelled as they are)
      const roster = storedRoster(set.roster ?? e.roster);
      const checked = checkedSubjects(sectionsOf(settings), roster.map((r) => r.subjects), (i) => ({ path: patch.roster ? `roster[${i}].subjects` : 'sections', studentId: roster[i]!.studentId }));
      if (checked.errors.length) throw new ValidationError(`${checked.errors.length} roster candidate(s) take subjects that are not sections of the exam; nothing was changed.`, checked.errors);
      set.roster = roster.map(({ subjects: _, ...r }, i) => ({ ...r, ...(checked.subjects[i] ? { subjects: checked.subjects[i] } : {}) }));
    }
    return { set, result: {}, detail: { fields: Object.keys(patch) } };
  });
}

/** The exam's row or NotFound (checked before validating, as the hall does). */
async function requireExam(deps: HubDeps, examId: string): Promise<ExamRow> {
  const rows = await deps.db.select().from(hubExams).where(eq(hubExams.id, examId));
  if (!rows[0]) throw new NotFound('Exam');
  return rows[0];
}

const view = (e: { id: string; createdAt: Date }, qs: HubQuestion[]) => qs.map((q, i) => examinerQuestion(e.id, q, i, e.createdAt.toISOString()));

/** GET /hub/v1/exams/:id/questions: the exam's questions in paper order (answer keys included). @throws NotFound */
export async function listHubQuestions(deps: HubDeps, examId: string): Promise<StoredQuestion[]> {
  const e = await requireExam(deps, examId);
  return view(e, e.questions as HubQuestion[]);
}

/** One question of the exam. @throws NotFound (exam or question) */
export async function getHubQuestion(deps: HubDeps, examId: string, questionId: string): Promise<StoredQuestion> {
  const found = (await listHubQuestions(deps, examId)).find((q) => q.id === questionId);
  if (!found) throw new NotFound('Question');
  return found;
}

/** Validates raw items one by one (as POST /questions/bulk). @throws ValidationError with `errors: [{index, path, message}]` */
export function validateQuestionItems(inputs: unknown[]): QuestionInput[] {
  const errors: FieldError[] = [];
  const valid: QuestionInput[] = [];
  inputs.forEach((raw, index) => {
    const r = questionInputSchema.safeParse(raw);
    if (r.success) valid.push(r.data);
    else for (const e of zodFieldErrors(r.error)) errors.push({ index, ...e });
  });
  if (errors.length) throw new ValidationError(`${new Set(errors.map((e) => e.index)).size} of ${inputs.length} question(s) are invalid; nothing was stored.`, errors);
  return valid;
}

/**
 * Adds questions after the exam's existing ones, all or none.
 * @returns the stored questions (with their positions) and the exam's version
 * @throws NotFound, ValidationError (`{index, path, message}`), Conflict (released / release window)
 */
export async function addHubQuestions(deps: HubDeps, examinerId: string, examId: string, inputs: unknown[]): Promise<{ questions: StoredQuestion[]; version: number }> {
  await requireExam(deps, examId);
  const valid = validateQuestionItems(inputs);
  return addValidQuestions(deps, examinerId, examId, valid, 'questions-added');
}

/** Adds already validated questions (imports use this after mapping their errors). */
export async function addValidQuestions(deps: HubDeps, examinerId: string, examId: string, valid: QuestionInput[], action: string, detail: Record<string, unknown> = {}): Promise<{ questions: StoredQuestion[]; version: number }> {
  return editQuestions(deps, examinerId, examId, action, (qs, now) => {
    const added = valid.map((q) => newHubQuestion(q, now));
    const all = [...qs, ...added];
    const createdAt = now;
    return { questions: all, result: { questions: added.map((q, i) => examinerQuestion(examId, q, qs.length + i, createdAt)) }, detail: { ...detail, added: added.length } };
  });
}

/**
 * PATCH: merges `patch` into the stored question and re-validates the whole item (the
 * hall's rule); option ids named in the patch are kept.
 * @throws NotFound, ValidationError, Conflict
 */
export async function patchHubQuestion(deps: HubDeps, examinerId: string, examId: string, questionId: string, patch: z.infer<typeof questionPatchSchema>): Promise<StoredQuestion & { version: number }> {
  const out = await editQuestions(deps, examinerId, examId, 'question-edited', (qs, now) => {
    const i = qs.findIndex((q) => q.id === questionId);
    if (i < 0) throw new NotFound('Question');
    const cur = qs[i]!;
    const r = questionInputSchema.safeParse({ ...cur, ...patch });
    if (!r.success) throw new ValidationError('The question is invalid after the change; nothing was stored.', zodFieldErrors(r.error));
    qs[i] = replacedHubQuestion(cur, r.data, now);
    return { questions: qs, result: { question: examinerQuestion(examId, qs[i]!, i, now) }, detail: { questionId } };
  });
  return { ...out.question, version: out.version };
}

/** DELETE a question. @throws NotFound, Conflict */
export async function deleteHubQuestion(deps: HubDeps, examinerId: string, examId: string, questionId: string): Promise<void> {
  await editQuestions(deps, examinerId, examId, 'question-deleted', (qs) => {
    if (!qs.some((q) => q.id === questionId)) throw new NotFound('Question');
    return { questions: qs.filter((q) => q.id !== questionId), result: {}, detail: { questionId } };
  });
}

/** Sets the paper order; `questionIds` must list every question exactly once (the hall's rule). @throws NotFound, ValidationError, Conflict */
export async function reorderHubQuestions(deps: HubDeps, examinerId: string, examId: string, questionIds: string[]): Promise<{ questionIds: string[]; version: number }> {
  return editQuestions(deps, examinerId, examId, 'questions-reordered', (qs) => {
    const byId = new Map(qs.map((q) => [q.id, q]));
    const same = qs.length === questionIds.length && new Set(questionIds).size === questionIds.length && questionIds.every((id) => byId.has(id));
    if (!same) throw new ValidationError('questionIds must list every question of the exam exactly once.', [{ path: 'questionIds', message: 'must be a permutation of the exam’s question ids' }]);
    return { questions: questionIds.map((id) => byId.get(id)!), result: { questionIds } };
  });
}
