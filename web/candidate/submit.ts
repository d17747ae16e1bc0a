/**
 * Submission, by the candidate or when the countdown reaches zero (issue 4 points 4
 * and 8). Sends `POST /attempts/:id/submit` with the browser's final copy of every
 * answer not yet durable (the server merges them by seq before grading), and keeps
 * trying while the server cannot be reached — the answers stay in localStorage
 * meanwhile. An automatic submission first asks the server for the time left: the
 * local countdown may have run out during a server outage for which the server
 * credits the lost time, and then the exam simply continues.
 */
import { attemptPath, call } from './api.js';
import { paperQuery } from './math.js';
import { showOverlay } from './screens/dialog.js';
import type { Session, SubmitResponse } from './types.js';

export type SubmitOutcome =
  | { kind: 'done'; result: SubmitResponse | Session }
  | { kind: 'locked' }
  | { kind: 'resume'; session: Session }
  | { kind: 'abandoned' };

type FinalCopy = () => Array<{ questionId: string; optionId?: string; text?: string; seq: number }>;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Submits until the server answers.
 * @param attemptId the attempt
 * @param auto true when time ran out (checks the server's clock first)
 * @param finalCopy the answers still kept locally, read fresh on every try
 * @param abandoned returns true when the page moved on (stop trying)
 */
export async function submitAttempt(attemptId: string, auto: boolean, finalCopy: FinalCopy, abandoned: () => boolean): Promise<SubmitOutcome> {
  const text = showOverlay(
    'submitting',
    auto ? 'Time is up' : 'Submitting your exam',
    auto ? 'Sending your answers to the exam server…' : 'Sending your answers…',
  );
  const offline = 'The exam server cannot be reached right now. Your answers are kept on this computer and will be sent as soon as it answers. Do not close this page.';
  let delayMs = 2000;
  let withAnswers = true;
  for (;;) {
    if (abandoned()) return { kind: 'abandoned' };
    if (auto) {
      const g = await call<Session>('GET', attemptPath(attemptId, paperQuery()));
      if (g.kind === 'ok') {
        if (g.body.status === 'COMPLETED') return { kind: 'done', result: g.body };
        if (g.body.status === 'DISQUALIFIED') return { kind: 'locked' };
        if (g.body.isPaused || g.body.remainingSeconds > 2) return { kind: 'resume', session: g.body };
      } else if (g.kind === 'network') {
        text.textContent = offline;
        await wait(delayMs);
        delayMs = Math.min(delayMs * 1.5, 10_000);
        continue;
      } else if (g.status === 403) return { kind: 'locked' };
    }
    const body = withAnswers ? { answers: finalCopy() } : {};
    const r = await call<SubmitResponse>('POST', attemptPath(attemptId, '/submit'), body, 30_000);
    if (r.kind === 'ok') return { kind: 'done', result: r.body };
    if (r.kind === 'network') {
      text.textContent = offline;
      await wait(delayMs);
      delayMs = Math.min(delayMs * 1.5, 10_000);
      continue;
    }
    if (r.status === 403 && (!r.problem.code || r.problem.code === 'DISQUALIFIED' || r.problem.code === 'SEB_REQUIRED')) return { kind: 'locked' };
    if (r.status === 409) {
      // Already submitted (e.g. by the server's time-out sweep): show what the server has.
      const g = await call<Session>('GET', attemptPath(attemptId, paperQuery()));
      if (g.kind === 'ok' && g.body.status === 'COMPLETED') return { kind: 'done', result: g.body };
      if (g.kind === 'ok' && g.body.status === 'DISQUALIFIED') return { kind: 'locked' };
    } else if (r.status === 400 && withAnswers) {
      // The final copy was refused (e.g. a question removed meanwhile): submit what the server holds.
      withAnswers = false;
      continue;
    } else if (r.status === 429) {
      await wait((r.problem.retryAfterSeconds || 2) * 1000);
      continue;
    }
    text.textContent = (r.problem.detail || 'The server could not take the submission yet.') + ' Trying again…';
    await wait(delayMs);
    delayMs = Math.min(delayMs * 1.5, 10_000);
  }
}
