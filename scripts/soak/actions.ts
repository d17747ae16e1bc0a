/**
 * What a virtual candidate does over HTTP, as the candidate page would: save one answer
 * (PUT), save a few at once (POST batch), submit with its queue as the final copy, and
 * after a server restart recover — read its attempt (GET /attempts/:id, or, for a share
 * of recoveries, sign in again with POST /attempts/start as on another browser tab,
 * which seals the server's watermark), replay the queued answers the server no longer
 * holds with their original seqs, and read again.
 *
 * Every outcome lands in the tally. A request without a response is a cut-off only if
 * the campaign has started killing the server (`phase.killing`); anything else that is
 * not the expected answer is an unexpected response and fails the campaign.
 */
import { checkClock } from './checks.js';
import type { ServerAnswer, VirtualCandidate } from './candidate.js';
import { NetworkError, type HttpResult, type JsonClient } from './http.js';
import type { ServerProcess } from './server-process.js';
import type { Tally } from './tally.js';

export interface Phase {
  /** set just before SIGKILL: from then on a missing response is expected */
  killing: boolean;
  label: string;
}

export interface Ctx {
  client: JsonClient;
  tally: Tally;
  phase: Phase;
  server: ServerProcess;
  rng: () => number;
  /** share of recoveries that sign in again (POST /attempts/start) instead of GET */
  signInShare: number;
}

/** Runs a request; null when it was cut off by the kill. @throws NetworkError when the server is meant to be up */
async function call(ctx: Ctx, what: string, fn: () => Promise<HttpResult>): Promise<HttpResult | null> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof NetworkError)) throw e;
    if (ctx.phase.killing) {
      ctx.tally.requestsCutOff++;
      return null;
    }
    ctx.tally.unexpectedResponses.push(`${ctx.phase.label}: ${what}: no response while the server was up (${e.code})`);
    return null;
  }
}

function unexpected(ctx: Ctx, what: string, r: HttpResult): void {
  ctx.tally.unexpectedResponses.push(`${ctx.phase.label}: ${what} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
}

/** Saves one new answer (PUT) or, when `batch` > 1, that many in one POST. */
export async function saveAnswers(ctx: Ctx, c: VirtualCandidate, batch = 1): Promise<void> {
  const items = Array.from({ length: batch }, () => c.give(ctx.rng));
  ctx.tally.savesSent += items.length;
  const r =
    batch === 1
      ? await call(ctx, 'save', () => ctx.client.put(`/attempts/${c.attemptId}/answers/${items[0]!.questionId}`, { optionId: items[0]!.optionId, text: items[0]!.text, seq: items[0]!.seq }))
      : await call(ctx, 'batch save', () => ctx.client.post(`/attempts/${c.attemptId}/answers`, { answers: items }));
  if (!r) return;
  if (r.status === 200) {
    ctx.tally.savesAcknowledged += items.length;
    c.markAcked(items.map((a) => a.seq));
    c.acknowledge(r.body, Date.now());
  } else unexpected(ctx, `save ${c.attemptId}`, r);
}

/**
 * Submits with the queue as the final copy; a cut-off leaves the candidate SUBMITTING.
 * @returns true when the submit was acknowledged
 */
export async function submit(ctx: Ctx, c: VirtualCandidate): Promise<boolean> {
  c.status = 'SUBMITTING';
  const r = await call(ctx, 'submit', () => ctx.client.post(`/attempts/${c.attemptId}/submit`, { answers: c.queue() }));
  if (!r) return false;
  if (r.status === 200 && r.body?.status === 'COMPLETED') {
    ctx.tally.submitsAcknowledged++;
    c.completed();
    return true;
  }
  unexpected(ctx, `submit ${c.attemptId}`, r);
  return false;
}

async function read(ctx: Ctx, c: VirtualCandidate, signIn = false): Promise<HttpResult | null> {
  const r = signIn
    ? await call(ctx, 'sign in again', () => ctx.client.post('/attempts/start', { accessCode: c.accessCode, studentId: c.studentId, candidateName: `Soak ${c.studentId}`, candidatePin: c.pin }))
    : await call(ctx, 'read attempt', () => ctx.client.get(`/attempts/${c.attemptId}`));
  if (r && r.status !== 200) {
    unexpected(ctx, `${signIn ? 'start (resume)' : 'GET'} ${c.attemptId}`, r);
    return null;
  }
  if (r) ctx.tally[signIn ? 'signInResumes' : 'readResumes']++;
  return r;
}

/**
 * After a restart: (a) acknowledged-durable answers present, (d) downtime credited,
 * replay of the queue (or of a submit whose answer never came), (e) convergence.
 * @returns true when the candidate got through all of it before any kill
 */
export async function recover(ctx: Ctx, c: VirtualCandidate): Promise<boolean> {
  const signIn = c.status === 'IN_PROGRESS' && ctx.rng() < ctx.signInShare;
  const first = await read(ctx, c, signIn);
  if (!first) return false;
  const at = Date.now();
  const label = `${ctx.phase.label} (API${signIn ? ', signed in again' : ''})`;
  const lost = c.lostDurable(first.body.answers as ServerAnswer[]);
  ctx.tally.answersChecked += lost.checked;
  ctx.tally.lost.push(...lost.lost.map((l) => `${label}: ${l}`));
  checkClock(c, first.body, at, ctx.server, ctx.tally, label);
  c.adoptServer(first.body.answers as ServerAnswer[]);
  c.acknowledge(first.body, at);

  if (first.body.status === 'IN_PROGRESS') {
    if (c.status === 'COMPLETED') ctx.tally.outboxProblems.push(`${label}: ${c.attemptId} submit was acknowledged but the attempt is IN_PROGRESS again`);
    if (c.status === 'SUBMITTING') {
      if (!(await submit(ctx, c))) return false;
    } else {
      const queue = c.unsent();
      for (let i = 0; i < queue.length; i += 500) {
        const chunk = queue.slice(i, i + 500);
        const r = await call(ctx, 'replay', () => ctx.client.post(`/attempts/${c.attemptId}/answers`, { answers: chunk }));
        if (!r) return false;
        if (r.status !== 200) {
          unexpected(ctx, `replay ${c.attemptId}`, r);
          return false;
        }
        ctx.tally.replayedAnswers += chunk.length;
        c.markAcked(chunk.map((a) => a.seq));
        c.acknowledge(r.body, Date.now());
      }
    }
  } else if (first.body.status === 'COMPLETED') {
    if (c.status !== 'COMPLETED') c.completed(); // the submit committed; its response was cut off
  } else {
    ctx.tally.unexpectedResponses.push(`${label}: ${c.attemptId} is ${first.body.status}`);
    return false;
  }
  const second = await read(ctx, c);
  if (!second) return false;
  c.adoptServer(second.body.answers as ServerAnswer[]);
  c.acknowledge(second.body, Date.now());
  ctx.tally.convergenceChecks++;
  ctx.tally.divergences.push(...c.diverged(second.body.answers as ServerAnswer[]).map((d) => `${label}: ${d}`));
  return true;
}
