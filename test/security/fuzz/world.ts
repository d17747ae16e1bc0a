/**
 * The objects the fuzzer aims at and the state it watches.
 *
 * `makeWorld()` builds, through the API, an owner workspace with an exam (two MCQs and
 * a short essay with a rubric), a rostered exam, an attempt in progress, a completed
 * attempt with its outbox event, and an intruder workspace. Its values replace the
 * `@@name@@` placeholders in generated requests.
 *
 * `stateDigest()` hashes every row of the tables a request could change (after writing
 * the answer buffer out, so buffered saves count) plus the backup files, leaving out
 * only the last-seen/last-saved activity times: a rejected request must not change it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { addQuestions, api, createExam, registerWorkspace, startAttempt, type TestServer } from '../../harness.js';

export type World = Record<string, string>;

export const PROVISIONING_TOKEN = 'fuzz-provisioning-token-0123456789abcdef';

/** Builds a fresh world on `s`. @throws when the API refuses a fixture */
export async function makeWorld(s: TestServer): Promise<World> {
  const owner = await registerWorkspace(s.baseUrl);
  const intruder = await registerWorkspace(s.baseUrl);
  const ownerEmail = (s.deps.sqlite.prepare('SELECT owner_email AS e FROM workspaces WHERE id = ?').get(owner.id) as { e: string }).e;
  const exam = await createExam(s.baseUrl, owner.apiKey, owner.id, { durationMins: 600, maxTabViolations: 50 });
  const [q1, q2, essay] = await addQuestions(s.baseUrl, owner.apiKey, owner.id, exam.id, [
    { prompt: 'Fuzz MCQ one', type: 'MCQ', marks: 1, options: [{ text: 'a', isCorrect: true }, { text: 'b', isCorrect: false }] },
    { prompt: 'Fuzz MCQ two', type: 'TRUE_FALSE', marks: 1, options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }] },
    { prompt: 'Fuzz essay', type: 'SHORT_ESSAY', marks: 4, rubric: { name: 'R', totalMarks: 4, criteria: [{ id: 'c1', title: 'Idea', maxMarks: 4 }] } },
  ]);
  const rosterExam = await createExam(s.baseUrl, owner.apiKey, owner.id, { durationMins: 600 });
  await addQuestions(s.baseUrl, owner.apiKey, owner.id, rosterExam.id, [{ prompt: 'R', type: 'MCQ', marks: 1, options: [{ text: 'a', isCorrect: true }, { text: 'b', isCorrect: false }] }]);
  const roster = await api(s.baseUrl, owner.apiKey).post(`/exams/${rosterExam.id}/roster`, { candidates: [{ studentId: 'FZ-R1', candidateName: 'Rostered One' }] });
  if (roster.status !== 201) throw new Error(`roster: ${roster.status}`);
  const live = await startAttempt(s.baseUrl, exam.accessCode, 'FZ-1', '1234');
  const done = await startAttempt(s.baseUrl, exam.accessCode, 'FZ-2', '1234');
  await api(s.baseUrl).put(`/attempts/${done.attemptId}/answers/${essay!.id}`, { text: 'An essay answer for review.' });
  const submitted = await api(s.baseUrl).post(`/attempts/${done.attemptId}/submit`, {});
  if (submitted.status !== 200) throw new Error(`submit: ${submitted.status}`);
  const ev = s.deps.sqlite.prepare('SELECT id FROM outbox_events WHERE workspace_id = ? ORDER BY created_at DESC').get(owner.id) as { id: string };
  return {
    apiKey: owner.apiKey,
    otherApiKey: intruder.apiKey,
    workspaceId: owner.id,
    otherWorkspaceId: intruder.id,
    ownerEmail,
    examId: exam.id,
    accessCode: exam.accessCode,
    rosterExamId: rosterExam.id,
    rosterPin: roster.body.candidates[0].pin,
    candidateId: roster.body.candidates[0].id,
    questionId: q1!.id,
    question3Id: q2!.id,
    essayQuestionId: essay!.id,
    optionId: q1!.options[0]!.id,
    criterionId: 'c1',
    attemptId: live.attemptId,
    doneAttemptId: done.attemptId,
    eventId: ev.id,
    provisioningToken: PROVISIONING_TOKEN,
  };
}

/** Replaces `@@name@@` placeholders with the world's values. */
export function fill(text: string, w: World): string {
  return text.replace(/@@(\w+)@@/g, (m, k: string) => w[k] ?? m);
}

const TABLES = ['workspaces', 'exams', 'questions', 'roster_entries', 'attempts', 'answers', 'outbox_events', 'audit_log', 'telemetry_events'];
/**
 * Columns left out: activity times, and the outbox's delivery bookkeeping, which the
 * dispatcher updates on its own after an event is written (a failed delivery try to the
 * fixtures' unreachable webhook URL). The events themselves (id, body) are compared.
 */
const VOLATILE = new Set(['last_seen_at', 'last_saved_at', 'tries', 'next_attempt_at', 'last_error', 'last_status_code', 'delivered_at']);

/**
 * Per-table digests of the state a request could change (see module doc). Each attempt's
 * `durable_seq` is kept apart, as `durableSeq:<attemptId>` = its value: a refused save's seq
 * is received all the same and may move the watermark up to it (docs/decisions.md,
 * "durableSeq is a contiguous watermark"), which `refusedSeqMoved` checks exactly.
 */
export function stateDigest(s: TestServer): Record<string, string> {
  s.deps.buffer.flushAllSync();
  const out: Record<string, string> = {};
  for (const t of TABLES) {
    const all = s.deps.sqlite.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[];
    const rows = all.map((r) => JSON.stringify(Object.entries(r).filter(([k]) => !VOLATILE.has(k) && !(t === 'outbox_events' && k === 'status') && !(t === 'attempts' && k === 'durable_seq'))));
    out[t] = createHash('sha256').update(rows.sort().join('\n')).digest('hex');
    if (t === 'attempts') for (const r of all) out[`durableSeq:${String(r.id)}`] = String(r.durable_seq);
  }
  const backups = join(s.dataDir, 'backups');
  out.backups = existsSync(backups) ? readdirSync(backups).sort().join(',') : '-';
  return out;
}

/** Names of the parts whose digest differs. */
export function changed(a: Record<string, string>, b: Record<string, string>): string[] {
  return Object.keys(a).filter((k) => a[k] !== b[k]);
}

/**
 * True when `part` is the one change a refused save may make: the watermark of the attempt
 * in its path, raised because its body (a save, a batch, or a submit's final copy, which is
 * saved the same way) carried the seq just above it. The watermark is the top of the
 * gap-free run 1..N received (docs/decisions.md, "durableSeq is a contiguous watermark"), so
 * it cannot move unless seq N + 1 arrives, and when that one closes a gap below seqs
 * received earlier it rises past the seqs this body carried (a fuzz run found it so).
 */
export function refusedSeqMoved(part: string, before: Record<string, string>, after: Record<string, string>, method: string, path: string, body: string | null): boolean {
  const m = /^durableSeq:(.+)$/.exec(part);
  if (!m || !['PUT', 'POST'].includes(method) || !new RegExp(`^/attempts/${m[1]}/(answers|submit)(/|\\?|$)`).test(path)) return false;
  let seqs: number[] = [];
  try {
    const b = JSON.parse(body ?? 'null') as { seq?: unknown; answers?: { seq?: unknown }[] } | null;
    seqs = [b?.seq, ...(Array.isArray(b?.answers) ? b.answers.map((a) => a?.seq) : [])].filter((x): x is number => typeof x === 'number');
  } catch {
    return false;
  }
  const was = Number(before[part]);
  const now = Number(after[part]);
  return now > was && seqs.includes(was + 1);
}
