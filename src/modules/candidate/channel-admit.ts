/**
 * Whether a save channel (save-channel.ts) may open: the checks shared by its upgrade and
 * the plain GET of its path (routes.ts), and the Origin check of the upgrade. Each
 * refusal is a typed ApiError; the upgrade writes it as a plain problem response.
 */
import type { IncomingMessage } from 'node:http';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError, Conflict, Forbidden } from '../../platform/errors.js';
import { consume } from '../../platform/rate-limit.js';
import { candidateAttempt, GRACE_MS, remainingMs } from '../attempts/index.js';
import { checkChannelSlowdown } from './channel-budget.js';

const LIVE = 'requests for this attempt';

/** The refusal of every channel while the operator has switched them off (CBT_SAVE_CHANNEL=off). */
export function channelOff(): ApiError {
  return new ApiError(404, 'not-found', 'Not found', 'The save channel is switched off on this server (CBT_SAVE_CHANNEL=off): save with PUT /attempts/{id}/answers/{questionId}.', { code: 'SAVE_CHANNEL_OFF' });
}

/**
 * The checks of a channel for an attempt, shared by the upgrade and the plain GET of its
 * path (routes.ts): the operator's switch, then the attempt's state when the channel
 * opens (each frame is judged again). Takes one point of the attempt's rate limit.
 * @param address the client's address: a seat (attempt + address) or an address whose
 *   channel was closed over its frame budget waits (channel-budget.ts)
 * @returns the attempt's and its exam's ids
 * @throws ApiError 404 SAVE_CHANNEL_OFF, 404 (attempt), 403 DISQUALIFIED / SEB_USES_HTTP,
 *   409 ALREADY_SUBMITTED / TIME_OVER, 429 (the rate limit, or slowed after a flood)
 */
export async function admitChannel(deps: HallDeps, attemptId: string, address: string): Promise<{ attemptId: string; examId: string }> {
  if (deps.config.CBT_SAVE_CHANNEL === 'off') throw channelOff();
  // cheap, before the attempt is looked at: a flooder reopening in a loop costs little
  checkChannelSlowdown(deps, attemptId, address);
  const { st, paper } = candidateAttempt(deps, attemptId);
  if (paper.seb !== null) throw new Forbidden('This exam requires Safe Exam Browser, whose keys are checked on every HTTP request: save with PUT /attempts/{id}/answers/{questionId}.', { code: 'SEB_USES_HTTP' });
  if (st.row.status === 'COMPLETED') throw new Conflict('This exam has already been submitted; answers can no longer change.', { code: 'ALREADY_SUBMITTED' });
  if (remainingMs(paper.exam, st.row, deps.clock.now()) < -GRACE_MS) throw new Conflict('The time for this exam is over.', { code: 'TIME_OVER', remainingSeconds: 0 });
  // an open is a request of the attempt (a page reconnecting in a loop is held back)
  await consume(deps.limits.live, st.row.id, LIVE);
  return { attemptId: st.row.id, examId: st.row.exam_id };
}

/**
 * Whether a browser's upgrade comes from a page of this server: the Origin's host (with
 * port) is the request's Host, or the configured public URL's. No Origin: not a browser,
 * which no other site can drive (cross-site WebSocket hijacking needs a victim's browser).
 */
export function sameOrigin(req: IncomingMessage, publicUrl: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  if (host && host === req.headers.host) return true;
  if (publicUrl) {
    try {
      return new URL(publicUrl).host === host;
    } catch {
      return false;
    }
  }
  return false;
}
