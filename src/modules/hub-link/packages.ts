/**
 * Sealed papers on the hall (issue #24 §3, docs/hub-protocol.md): packages arrive from the
 * hub (sync) or from a USB file, are verified (hub signature, this hall's id) and stored
 * exactly as received — the title and times are readable, nothing of the questions is. At
 * release (the hub's online answer, or a release code the invigilator types: checked
 * character first, then the GCM tag; wrong codes audited and throttled) the paper is
 * decrypted and imported in one transaction into the hall's own exam tables, keeping the
 * hub's question and option ids so results map back, and the sealed copy is dropped. The
 * candidate credits the hub granted with the paper (the package's signed `credits`, one per
 * candidate of its roster) are added to the workspace in that same transaction, so a
 * package stored twice or synced again grants once: a package is released once
 * (docs/hub-protocol.md, "Credits with the paper").
 */
import { packagePayloadSchema, paperSchema, type PackagePayload, type PackageState, type Paper } from '../../core/sync/messages.js';
import { parseReleaseCode } from '../../core/sync/release-code.js';
import { releaseProof } from '../../core/sync/release-proof.js';
import { openPaper, unwrapContentKey } from '../../core/sync/seal.js';
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { ApiError, Conflict, NotFound, TooManyRequests, ValidationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { ESSAY_WORD_DEFAULTS } from '../../core/questions/schemas.js';
import { createExam } from '../exams/index.js';
import { checkWholePaper } from '../questions/index.js';
import { insertQuestion } from '../exams/index.js';
import { addCredits } from '../workspaces/index.js';
import type { HubLinkRow, HubPackageRow } from '../../db/rows.js';
import { verifiedFromHub } from './link.js';

/** Wrong release codes allowed per package in a window before 429 (with growing delays after). */
const RELEASE_CODE_TRIES = 5;
const RELEASE_CODE_WINDOW_MS = 15 * 60_000;

/** A package as the admin page shows it (never the envelope). */
export function serializePackage(p: HubPackageRow) {
  return {
    packageId: p.package_id,
    hubExamId: p.hub_exam_id,
    version: p.version,
    title: p.title,
    startsAt: new Date(p.starts_at).toISOString(),
    endsAt: p.ends_at === null ? null : new Date(p.ends_at).toISOString(),
    durationMins: p.duration_mins,
    state: p.state,
    source: p.source,
    receivedAt: new Date(p.received_at).toISOString(),
    releasedAt: p.released_at === null ? null : new Date(p.released_at).toISOString(),
    releasedBy: p.released_by,
    examId: p.exam_id,
  };
}

/** The problem for a package that fails verification (audited by the caller). */
class PackageRefused extends ApiError {
  constructor(detail: string) {
    super(422, 'package-refused', 'Package refused', detail, { code: 'PACKAGE_REFUSED' });
  }
}

/**
 * Verifies an envelope (hub signature, this hall, the package schema) and stores it sealed.
 * An already stored package is left as it is. Versions of one hub exam: a newer version
 * supersedes a sealed older one (whose sealed copy is dropped); an older version than one
 * already here is stored SUPERSEDED; a newer version after an earlier one was released is
 * stored TOO_LATE (not opened; the hub refuses such edits, so this only happens when the
 * hub did not yet know of a release by typed code).
 * @returns the stored row, and whether it was new
 * @throws PackageRefused (audited) when the signature, the hall or the shape is wrong
 */
export function storePackage(deps: HallDeps, link: HubLinkRow, envelope: unknown, source: 'hub' | 'file'): { row: HubPackageRow; isNew: boolean } {
  const now = deps.clock.now();
  const refuse = (why: string): never => {
    writeAudit(deps.sqlite, { workspaceId: link.workspace_id, action: 'HUB_PACKAGE_REFUSED', targetType: 'hub', targetId: link.hall_id, reason: why, detail: { source }, at: now });
    throw new PackageRefused(why);
  };
  const payload = verifiedFromHub(link, envelope);
  if (payload === null) refuse('The package is not signed by the hub this hall enrolled with.');
  const parsed = packagePayloadSchema.safeParse(payload);
  if (!parsed.success) return refuse('The package does not have the expected shape.');
  const p: PackagePayload = parsed.data;
  if (p.hallId !== link.hall_id) refuse(`The package is for another hall (${p.hallId}), not this one (${link.hall_id}).`);
  const existing = deps.sqlite.prepare('SELECT * FROM hub_packages WHERE package_id = ?').get(p.packageId) as HubPackageRow | undefined;
  if (existing) return { row: existing, isNew: false };
  deps.sqlite.transaction(() => {
    // versions of one hub exam (docs/hub.md "Editing after publication"): the newest sealed
    // one is the one to release; one that comes after a release is kept out
    const others = deps.sqlite.prepare("SELECT * FROM hub_packages WHERE workspace_id = ? AND hub_exam_id = ? AND state IN ('SEALED', 'RELEASED')").all(link.workspace_id, p.examId) as HubPackageRow[];
    const released = others.find((o) => o.state === 'RELEASED');
    const newer = others.find((o) => o.version > p.version);
    const state: PackageState = released && released.version < p.version ? 'TOO_LATE' : newer || released ? 'SUPERSEDED' : 'SEALED';
    deps.sqlite
      .prepare(
        `INSERT INTO hub_packages (package_id, workspace_id, hub_exam_id, version, title, starts_at, ends_at, duration_mins, envelope, state, source, received_at, failed_codes)
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,0)`,
      )
      .run(p.packageId, link.workspace_id, p.examId, p.version, p.title, Date.parse(p.startsAt), p.endsAt ? Date.parse(p.endsAt) : null, p.durationMins, state === 'SEALED' ? JSON.stringify(envelope) : null, state, source, now);
    writeAudit(deps.sqlite, { workspaceId: link.workspace_id, action: 'HUB_PACKAGE_RECEIVED', targetType: 'hub-package', targetId: p.packageId, detail: { source, title: p.title, version: p.version, state }, at: now });
    if (state !== 'SEALED') return;
    for (const o of others.filter((x) => x.state === 'SEALED' && x.version < p.version)) {
      deps.sqlite.prepare("UPDATE hub_packages SET state = 'SUPERSEDED', envelope = NULL WHERE package_id = ?").run(o.package_id);
      writeAudit(deps.sqlite, { workspaceId: link.workspace_id, action: 'HUB_PACKAGE_SUPERSEDED', targetType: 'hub-package', targetId: o.package_id, detail: { version: o.version, by: p.packageId, byVersion: p.version }, at: now });
    }
  })();
  return { row: deps.sqlite.prepare('SELECT * FROM hub_packages WHERE package_id = ?').get(p.packageId) as HubPackageRow, isNew: true };
}

/** The workspace's packages, newest start first. */
export function listPackages(deps: HallDeps, workspaceId: string): HubPackageRow[] {
  return deps.sqlite.prepare('SELECT * FROM hub_packages WHERE workspace_id = ? ORDER BY starts_at DESC').all(workspaceId) as HubPackageRow[];
}

/** The package of this workspace or 404. */
export function packageInWorkspace(deps: HallDeps, workspaceId: string, packageId: string): HubPackageRow {
  const p = deps.sqlite.prepare('SELECT * FROM hub_packages WHERE package_id = ? AND workspace_id = ?').get(packageId, workspaceId) as HubPackageRow | undefined;
  if (!p) throw new NotFound('Package');
  return p;
}

/** Wrong-code throttle: 5 per 15 minutes per package, then waits that double per further miss. */
function throttleWait(p: HubPackageRow, now: number): number {
  if (p.failed_codes < RELEASE_CODE_TRIES || p.last_failed_at === null) return 0;
  const wait = Math.min(RELEASE_CODE_WINDOW_MS, 30_000 * 2 ** (p.failed_codes - RELEASE_CODE_TRIES));
  return Math.max(0, p.last_failed_at + wait - now);
}

/**
 * Opens a sealed package with a release code and imports its paper as a normal exam.
 * `by` says who released it ('code' typed by an invigilator, 'hub' online).
 * @returns the released row (with examId)
 * @throws Conflict (already released), TooManyRequests (throttled), ValidationError 422 (wrong code; audited)
 */
export function releasePackage(deps: HallDeps, link: HubLinkRow, packageId: string, typedCode: string, by: 'code' | 'hub'): HubPackageRow {
  const p = packageInWorkspace(deps, link.workspace_id, packageId);
  if (p.state === 'RELEASED') throw new Conflict('This paper is already released.', { examId: p.exam_id });
  if (p.state === 'SUPERSEDED') throw new Conflict(`A newer version of this paper has arrived (this is version ${p.version}): release that one.`, { code: 'PACKAGE_SUPERSEDED' });
  if (p.state === 'TOO_LATE') throw new Conflict(`This version ${p.version} arrived after an earlier version of the paper was released here; the released exam stays as it is.`, { code: 'PACKAGE_TOO_LATE' });
  const now = deps.clock.now();
  const wait = throttleWait(p, now);
  if (wait > 0) throw new TooManyRequests(`Too many wrong release codes for this paper: wait ${Math.ceil(wait / 1000)} s, then type the code again carefully.`, Math.ceil(wait / 1000));
  const wrong = (reason: string): never => {
    deps.sqlite.transaction(() => {
      deps.sqlite.prepare('UPDATE hub_packages SET failed_codes = CASE WHEN last_failed_at IS NULL OR last_failed_at < ? THEN 1 ELSE failed_codes + 1 END, last_failed_at = ? WHERE package_id = ?').run(now - RELEASE_CODE_WINDOW_MS, now, packageId);
      writeAudit(deps.sqlite, { workspaceId: link.workspace_id, action: 'HUB_RELEASE_CODE_WRONG', targetType: 'hub-package', targetId: packageId, reason, detail: { by }, at: now });
    })();
    throw new ApiError(422, 'release-code-wrong', 'Release code does not open this paper', reason, { code: 'RELEASE_CODE_WRONG' });
  };
  const code = parseReleaseCode(typedCode);
  if (!code.ok) return wrong(code.reason === 'check' ? 'One character of the release code is wrong (its check character does not match): read it back slowly.' : 'A release code has 21 characters in groups of three, e.g. ABC-DEF-GHJ-KMN-PQR-STV-WXY.');
  const payload = packagePayloadSchema.parse(verifiedFromHub(link, JSON.parse(p.envelope!)));
  const key = unwrapContentKey(payload.wrappedKey, code.code, link.hall_id, payload.examId);
  if (!key) return wrong('This release code is valid but not the one for this paper at this hall.');
  const paper = paperSchema.parse(openPaper(key, payload.sealed, payload));
  deps.sqlite.transaction(() => {
    const examId = importPaper(deps, link.workspace_id, paper);
    if (payload.credits) addCredits(deps, { workspaceId: link.workspace_id, add: payload.credits, note: `Granted by the exam board with “${payload.title}” (${paper.roster.length} candidates)`.slice(0, 200), grantor: { by: 'hub', ref: packageId } });
    deps.sqlite.prepare("UPDATE hub_packages SET state = 'RELEASED', envelope = NULL, released_at = ?, released_by = ?, exam_id = ?, release_proof = ? WHERE package_id = ?").run(now, by, examId, releaseProof(code.code, link.hall_id, packageId), packageId);
    writeAudit(deps.sqlite, { workspaceId: link.workspace_id, action: 'HUB_PACKAGE_RELEASED', targetType: 'exam', targetId: examId, detail: { packageId, by }, at: now });
  })();
  return packageInWorkspace(deps, link.workspace_id, packageId);
}

/**
 * Inserts the paper as an exam of the workspace (call inside a transaction); returns its id.
 * A v2 paper's sections, calculator and each candidate's subjects and extra time come with it.
 * @throws ValidationError when the paper is over a size limit (questions/paper-size.ts)
 */
function importPaper(deps: HallDeps, workspaceId: string, paper: Paper): string {
  // the hall's paper size limits (docs/decisions.md, "Paper size limits"): refused before anything is written
  checkWholePaper(paper.questions);
  const exam = createExam(deps, workspaceId, {
    workspaceId,
    title: paper.title,
    durationMins: paper.durationMins,
    startsAt: paper.startsAt,
    endsAt: paper.endsAt,
    maxTabViolations: paper.settings.maxTabViolations,
    shuffleQuestions: paper.settings.shuffleQuestions,
    shuffleChoices: paper.settings.shuffleChoices,
    showResultAfter: paper.settings.showResultAfter,
    // a v2 paper's calculator and sections (docs/hub-protocol.md, "Protocol changes", 1.3)
    ...(paper.settings.calculator ? { calculator: paper.settings.calculator } : {}),
    ...(paper.sections ? { sections: paper.sections.map((s) => ({ name: s.name, compulsory: s.compulsory, ...(s.draw === null ? {} : { draw: s.draw }) })) } : {}),
  } as Parameters<typeof createExam>[2]);
  const now = deps.clock.now();
  paper.questions.forEach((x, i) => {
    const essay = x.type === 'SHORT_ESSAY' || x.type === 'LONG_ESSAY';
    const words = essay ? ESSAY_WORD_DEFAULTS[x.type as 'SHORT_ESSAY' | 'LONG_ESSAY'] : null;
    insertQuestion(deps.sqlite, {
      id: x.id, exam_id: exam.id, workspace_id: workspaceId, position: i, type: x.type, prompt: x.prompt, marks: x.marks, options_json: JSON.stringify(x.options), explanation: x.explanation, section: x.section,
      min_words: essay ? (x.minWords ?? words!.min) : null, max_words: essay ? (x.maxWords ?? words!.max) : null, model_answer: x.modelAnswer, rubric_json: x.rubric ? JSON.stringify(x.rubric) : null,
      difficulty: null, citation: null, created_at: now, updated_at: now,
    });
  });
  // each candidate's subjects (spelled as the paper's sections: the hub canonicalised them) and extra time
  const r = deps.sqlite.prepare('INSERT INTO roster_entries (id, exam_id, workspace_id, student_id, candidate_name, phone, pin_sealed, subjects_json, extra_time_percent, extra_time_mins, created_at) VALUES (?,?,?,?,?,NULL,?,?,?,?,?)');
  for (const c of paper.roster) r.run(newId('cand'), exam.id, workspaceId, c.studentId, c.candidateName, deps.secrets.seal(c.pin), c.subjects?.length ? JSON.stringify(c.subjects) : null, c.extraTimePercent ?? 0, c.extraTimeMins ?? 0, now);
  deps.sessions.invalidateExam(exam.id);
  if (!paper.questions.length) throw new ValidationError('The released paper has no questions.');
  return exam.id;
}
