/**
 * Results up to the hub (issue #24 §4): every event of an attempt of a released hub exam
 * (completed, disqualified, regraded) is also written to `hub_outbox` in the same
 * transaction as the webhook outbox row, with the same event id, as a ResultEvent carrying
 * the answers, the score and the attempt's audit trail. The dispatcher sends them signed,
 * strictly in the order they were written (so an attempt's events arrive in order), and
 * stops at the first one the hub does not take; the hub stores each event id once, so a
 * hall killed mid-sync that sends an event again is counted once. Retries follow the
 * webhook outbox's backoff for 7 days; a hub refusal that no retry can fix (4xx other than
 * 401/408/429) marks the row FAILED and the next ones go on.
 */
import type { Sqlite } from '../../db/index.js';
import { z } from 'zod';
import { MAX_RESULT_BATCH_BYTES, MAX_RESULT_BATCH_EVENTS, resultBatchOutcomeSchema, type ResultEvent } from '../../core/sync/messages.js';
import type { HallDeps } from '../../hall/deps.js';
import type { AttemptRow } from '../../db/rows.js';
import { parseLayout } from '../../core/exams/layout-codec.js';
import { backoffMs, MAX_AGE_MS } from '../webhooks/index.js';
import { hubLinkOf, signedHubRequest, HubUnavailable, HUB_FAILED_TEXT } from './link.js';
import type { HubLinkRow, HubOutboxRow } from '../../db/rows.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Writes the hub copy of an attempt's event when its exam came from a hub package, from
 * the attempt row the caller's transaction holds (attempts/attempt-events.ts). Call inside
 * that transaction.
 */
export function enqueueHubResult(sqlite: Sqlite, e: { eventId: string; type: ResultEvent['type']; at: number }, a: AttemptRow): void {
  const pkg = sqlite.prepare("SELECT package_id, hub_exam_id FROM hub_packages WHERE exam_id = ? AND state = 'RELEASED'").get(a.exam_id) as { package_id: string; hub_exam_id: string } | undefined;
  if (!pkg) return;
  const answers = sqlite.prepare('SELECT question_id, option_id, text, awarded_marks, review_json FROM answers WHERE attempt_id = ? ORDER BY question_id').all(a.id) as { question_id: string; option_id: string | null; text: string | null; awarded_marks: number | null; review_json: string | null }[];
  const audit = sqlite.prepare('SELECT action, reason, detail_json, created_at FROM audit_log WHERE target_id = ? ORDER BY created_at').all(a.id) as { action: string; reason: string | null; detail_json: string | null; created_at: number }[];
  // a paper with sections: the section scores and the questions the candidate was given (protocol 1.3)
  const sectioned = sectionedSitting(sqlite, a);
  const body: ResultEvent = {
    eventId: e.eventId,
    type: e.type,
    packageId: pkg.package_id,
    examId: pkg.hub_exam_id,
    createdAt: new Date(e.at).toISOString(),
    attempt: {
      attemptId: a.id,
      studentId: a.student_id,
      candidateName: a.candidate_name,
      status: a.status,
      startedAt: new Date(a.started_at).toISOString(),
      completedAt: iso(a.completed_at),
      disqualifiedAt: iso(a.disqualified_at),
      creditedMs: a.credited_ms,
      violations: a.violations,
      score: a.score ?? 0,
      maxScore: a.max_score ?? 0,
      percentage: a.percentage ?? 0,
      grade: a.grade ?? 'F9',
      pendingReview: !!a.pending_review,
      ...sectioned,
      answers: answers.map((x) => ({ questionId: x.question_id, optionId: x.option_id, text: x.text, awardedMarks: x.awarded_marks, reviewed: x.review_json !== null })),
      audit: audit.map((x) => ({ at: new Date(x.created_at).toISOString(), action: x.action, actor: 'invigilator', detail: [x.reason, x.detail_json].filter(Boolean).join(' ') })),
    },
  };
  sqlite.prepare("INSERT INTO hub_outbox (event_id, workspace_id, body, status, tries, next_attempt_at, created_at) VALUES (?,?,?,'PENDING',0,?,?)").run(e.eventId, a.workspace_id, JSON.stringify(body), e.at, e.at);
}

/**
 * `givenQuestionIds` and `sectionScores` of an attempt of an exam with sections (its
 * layout's question ids, in the order given, and its stored section scores once graded); {} otherwise, so an
 * event of a paper without sections is what it was before protocol 1.3.
 */
function sectionedSitting(sqlite: Sqlite, a: AttemptRow): Pick<ResultEvent['attempt'], 'sectionScores' | 'givenQuestionIds'> {
  const row = sqlite.prepare('SELECT layout_json FROM attempt_layouts WHERE attempt_id = ?').get(a.id) as { layout_json: string } | undefined;
  const layout = row ? parseLayout(row.layout_json) : [];
  // a disqualified attempt is not graded: it has its layout but no section scores
  return {
    ...(layout.length && layout[0]!.section !== undefined ? { givenQuestionIds: layout.map((l) => l.questionId) } : {}),
    ...(a.section_scores_json ? { sectionScores: JSON.parse(a.section_scores_json) as NonNullable<ResultEvent['attempt']['sectionScores']> } : {}),
  };
}

/** A due result as the sender reads it (the columns of its SELECT). */
type DueResult = Pick<HubOutboxRow, 'event_id' | 'workspace_id' | 'body' | 'tries' | 'next_attempt_at' | 'created_at'>;

/** Whether the hub's refusal can be fixed by a retry (network, auth clock/nonce, timeouts, overload). */
const permanentStatus = (status: number) => status >= 400 && status < 500 && ![401, 408, 429].includes(status);

/**
 * The due rows cut into batches of at most MAX_RESULT_BATCH_EVENTS events and
 * MAX_RESULT_BATCH_BYTES bytes of body (a single larger event goes alone), in order.
 */
function batchesOf(rows: DueResult[]): DueResult[][] {
  const out: DueResult[][] = [];
  let cur: DueResult[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(row.body) + 1;
    if (cur.length > 0 && (cur.length >= MAX_RESULT_BATCH_EVENTS || bytes + size > MAX_RESULT_BATCH_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(row);
    bytes += size;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

type Outcome = { ok: true } | { ok: false; status: number; error: string };

/**
 * Sends one batch; returns each row's outcome, or null when the hub has no batch route or
 * refused the batch as a whole with a 4xx a retry cannot fix (then the rows go one by one,
 * so one bad event fails alone). @throws HubUnavailable / Error for a transient failure
 */
async function sendBatch(deps: HallDeps, link: HubLinkRow, batch: DueResult[]): Promise<Outcome[] | null> {
  // the stored bodies are sent as they are: the signature covers exactly these bytes
  const text = `{"events":[${batch.map((r) => r.body).join(',')}]}`;
  const res = await signedHubRequest(deps, link, 'POST', '/hub/v1/results/batch', undefined, text);
  if (res.status === 200) {
    const parsed = batchAnswerSchema.safeParse(res.json);
    if (!parsed.success || parsed.data.results.length !== batch.length || parsed.data.results.some((o, i) => o.eventId !== batch[i]!.event_id)) {
      throw new Error('the hub’s answer to a result batch does not name every event of it in order');
    }
    return parsed.data.results.map((o) => (o.status === 'refused' ? { ok: false, status: 404, error: `hub refused the event: ${o.error ?? 'refused'}` } : { ok: true }));
  }
  if (permanentStatus(res.status)) return null;
  throw new HubUnavailable(`hub answered HTTP ${res.status}: ${res.json?.detail ?? ''}`.trim(), { hubStatus: res.status });
}

/** Sends one event alone through `POST /hub/v1/results` (an older hub, or isolating a bad event). */
async function sendOne(deps: HallDeps, link: HubLinkRow, row: DueResult): Promise<Outcome> {
  const res = await signedHubRequest(deps, link, 'POST', '/hub/v1/results', undefined, row.body);
  if (res.status === 200) return { ok: true };
  if (permanentStatus(res.status)) return { ok: false, status: res.status, error: `hub answered HTTP ${res.status}: ${res.json?.detail ?? ''}`.trim() };
  throw new HubUnavailable(`hub answered HTTP ${res.status}: ${res.json?.detail ?? ''}`.trim(), { hubStatus: res.status });
}

const batchAnswerSchema = z.object({ results: z.array(resultBatchOutcomeSchema) });

/**
 * Sends due hub results, oldest first, per workspace, in signed batches of up to 500 events
 * (`POST /hub/v1/results/batch`), page after page of 500 rows; stops a workspace's run at the first row that is not yet
 * due or at the first batch that fails transiently (every row of that batch waits its
 * backoff, so order per attempt is kept). Each row is marked by the hub's outcome for it:
 * stored or duplicate → DELIVERED, refused → FAILED. A batch the hub refuses whole (a 4xx
 * no retry fixes, or 404 from a hub without the batch route) is sent again one event at a
 * time, so only a bad event fails. A call while a run is under way joins it. Returns how
 * many were delivered. Never throws (errors are recorded on the rows and the link).
 */
export function deliverHubResults(deps: HallDeps): Promise<number> {
  // one run at a time per hall (the 15-second job and an operator's "sync now" would send the same rows twice)
  const running = inFlight.get(deps);
  if (running) return running;
  const run = deliverOnce(deps).finally(() => inFlight.delete(deps));
  inFlight.set(deps, run);
  return run;
}

const inFlight = new WeakMap<HallDeps, Promise<number>>();
/** At most this many pages of 500 rows per workspace and run (a hall back online after days sends 50,000, then the next run goes on). */
const MAX_PAGES_PER_RUN = 100;

async function deliverOnce(deps: HallDeps): Promise<number> {
  const now = deps.clock.now();
  const workspaces = deps.sqlite.prepare("SELECT DISTINCT workspace_id FROM hub_outbox WHERE status = 'PENDING'").all() as { workspace_id: string }[];
  let delivered = 0;
  const markDelivered = deps.sqlite.prepare("UPDATE hub_outbox SET status = 'DELIVERED', tries = tries + 1, delivered_at = ?, last_error = NULL WHERE event_id = ?");
  const markFailed = deps.sqlite.prepare('UPDATE hub_outbox SET status = ?, tries = ?, next_attempt_at = ?, last_error = ? WHERE event_id = ?');
  for (const { workspace_id } of workspaces) {
    const link = hubLinkOf(deps, workspace_id);
    if (!link) continue;
    /** records one row's failure; returns false when the run must stop here (a retry will come) */
    const fail = (row: DueResult, status: number, error: string, nextAt?: number): boolean => {
      const tries = row.tries + 1;
      const next = nextAt ?? deps.clock.now() + backoffMs(tries);
      const expired = permanentStatus(status) || next - row.created_at > MAX_AGE_MS;
      markFailed.run(expired ? 'FAILED' : 'PENDING', tries, next, error, row.event_id);
      // the caller sees one sentence (link.ts HUB_FAILED_TEXT); the hub's own words stay in the row and the log
      deps.sqlite.prepare('UPDATE hub_links SET last_error = ? WHERE workspace_id = ?').run(HUB_FAILED_TEXT, workspace_id);
      deps.logger.warn('hub result delivery failed', { eventId: row.event_id, tries, error: error.slice(0, 500) });
      return expired;
    };
    /** applies outcomes to rows in one SQLite transaction; false when the run must stop */
    const apply = (batch: DueResult[], outcomes: Outcome[]): boolean =>
      deps.sqlite.transaction(() => {
        let go = true;
        batch.forEach((row, i) => {
          const o = outcomes[i]!;
          if (o.ok) {
            markDelivered.run(deps.clock.now(), row.event_id);
            delivered++;
          } else if (!fail(row, o.status, o.error)) go = false;
        });
        return go;
      })();
    // pages of 500 rows until nothing is due, a failure stops the run, or MAX_PAGES_PER_RUN
    pages: for (let page = 0; page < MAX_PAGES_PER_RUN; page++) {
      const rows = deps.sqlite.prepare("SELECT event_id, workspace_id, body, tries, next_attempt_at, created_at FROM hub_outbox WHERE workspace_id = ? AND status = 'PENDING' ORDER BY created_at, event_id LIMIT 500").all(workspace_id) as DueResult[];
      const firstNotDue = rows.findIndex((r) => r.next_attempt_at > now);
      const due = firstNotDue === -1 ? rows : rows.slice(0, firstNotDue);
      for (const batch of batchesOf(due)) {
        try {
          const outcomes = await sendBatch(deps, link, batch);
          if (outcomes) {
            if (!apply(batch, outcomes)) break pages;
            continue;
          }
          for (const row of batch) {
            if (!apply([row], [await sendOne(deps, link, row)])) break pages;
          }
        } catch (e) {
          const error = e instanceof HubUnavailable ? e.message : String(e);
          // the whole batch waits (the hub may have stored some of it: those come back as duplicates)
          const pending = batch.filter((r) => (deps.sqlite.prepare('SELECT status FROM hub_outbox WHERE event_id = ?').get(r.event_id) as { status: string }).status === 'PENDING');
          // one retry time for the whole batch, so it goes again as one batch
          const nextAt = deps.clock.now() + backoffMs(Math.max(...batch.map((r) => r.tries)) + 1);
          deps.sqlite.transaction(() => pending.forEach((r) => fail(r, 0, error, nextAt)))();
          break pages;
        }
      }
      if (rows.length < 500 || firstNotDue !== -1) break;
    }
  }
  return delivered;
}

/** Counts of hub results by status for a workspace (the admin page's "results up" line). */
export function hubOutboxCounts(deps: HallDeps, workspaceId: string): { pending: number; delivered: number; failed: number } {
  const rows = deps.sqlite.prepare('SELECT status, count(*) AS n FROM hub_outbox WHERE workspace_id = ? GROUP BY status').all(workspaceId) as { status: string; n: number }[];
  const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  return { pending: by.PENDING ?? 0, delivered: by.DELIVERED ?? 0, failed: by.FAILED ?? 0 };
}
