/**
 * Candidate session routes (no API key: room code + candidate credentials, then the
 * attempt id as capability). Saves, telemetry, reads and submits are limited per
 * attempt (600/min), never per address: a whole hall may share one NAT address.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, jsonBody, jsonResponse, problem, publicErrorResponses, z } from '../../platform/openapi.js';
import { clientAddress } from '../../platform/http.js';
import { withWriteTurn } from '../../db/index.js';
import { consume } from '../../platform/rate-limit.js';
import { jsonRoute, plainJson } from '../../platform/json-route.js';
import { compressedJson } from '../../platform/compress.js';
import type { HotRouteSpec } from '../../platform/hot-router.js';
import { candidateSchemas as s, previewAttempt, startAttempt, candidateAttempt, saveAnswers, finalizeAttempt, submitResponse, sessionView, setFlag, GRACE_MS, remainingMs } from '../attempts/index.js';
import { recordTelemetry } from '../proctoring/index.js';
import { instructionsHtml, renderPaper } from '../sessions/index.js';
import type { MathForm } from '../../core/rich-text.js';
import { admitChannel } from './channel-admit.js';
import { MAX_FRAME_BYTES } from './save-channel.js';
import { ApiError } from '../../platform/errors.js';

// What each refusal means on the candidate routes (no API key: the attempt id is the capability)
const locked = problem('The attempt was disqualified and is locked until an invigilator reinstates it (DISQUALIFIED; attemptStatus)');
const noAttempt = problem('No attempt with this id');
const over = problem('The exam was already submitted, or its time ended more than 30 s ago (ALREADY_SUBMITTED, TIME_OVER)');
const startProblems = {
  ...publicErrorResponses,
  401: problem('Wrong PIN for this student ID, or the student ID is not on the exam’s roster (PIN_INVALID, NOT_ON_ROSTER)'),
  402: problem('The workspace has no candidate testing credits left (CREDITS_EXHAUSTED)'),
  403: problem('The exam is not published, not open yet (opensAt) or closed, or this candidate’s attempt is disqualified (EXAM_NOT_PUBLISHED, EXAM_NOT_OPEN, EXAM_CLOSED, DISQUALIFIED)'),
  404: problem('No exam has this room code (ROOM_NOT_FOUND)'),
  409: problem('The exam has no questions, this student ID already submitted or ran out of time, or — an exam without a roster — this computer already started an attempt and the invigilator has not allowed another (NO_QUESTIONS, ALREADY_SUBMITTED, TIME_OVER, SEAT_USED with seatAddress)'),
  429: problem('Too many wrong PINs for this student ID from this computer, wrong PINs for too many different student IDs or unknown room codes from this computer, or too many requests (Retry-After)'),
};
const readProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt };
const saveProblems = { ...publicErrorResponses, 403: locked, 404: problem('No attempt with this id, or (one-answer form) the question is not on the attempt’s paper (QUESTION_NOT_FOUND)'), 409: over };
const batchProblems = { ...publicErrorResponses, 400: problem('Validation failure; an answer that does not fit the paper is listed in errors (index, questionId) and nothing is saved'), 403: locked, 404: noAttempt, 409: over };
const telemetryProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt, 409: problem('The exam was already submitted (ALREADY_SUBMITTED)') };
const submitProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt };
const flagProblems = { ...publicErrorResponses, 403: locked, 404: problem('No attempt with this id, or the question is not on the attempt’s paper (QUESTION_NOT_FOUND)'), 409: over };
/** The save channel's path (save-channel.ts): the upgrade's answers and the plain GET's. */
const channelProblems = {
  ...publicErrorResponses,
  403: problem('The attempt is disqualified (DISQUALIFIED; attemptStatus), its exam requires Safe Exam Browser, whose keys are judged per HTTP request (SEB_USES_HTTP), or, on the upgrade only, the Origin is not a page of this server (ORIGIN_REFUSED)'),
  404: problem('No attempt with this id, or the operator switched the channel off for this server (SAVE_CHANNEL_OFF, CBT_SAVE_CHANNEL=off): save with PUT'),
  409: problem('The exam was already submitted, or its time ended more than 30 s ago (ALREADY_SUBMITTED, TIME_OVER); answers can no longer change'),
  426: problem('Without Upgrade: websocket: the channel would open for this attempt; a WebSocket client opens it (UPGRADE_REQUIRED; Upgrade header)'),
  429: problem('Rate limit: the attempt\'s budget is spent, or this attempt\'s channel from this address (or, after three attempts so, every channel from this address) was closed over its frame budget (4429) and may not reopen yet (RATE_LIMITED; Retry-After, retryAfterSeconds): save with PUT meanwhile'),
  503: problem('The upgrade came while the server is stopping: try again once it is back, saving with PUT meanwhile'),
};
const channelDoc = {
  tags: ['Candidate session'],
  summary: 'Save channel: one WebSocket per candidate for live answer saves (an extension beside PUT …/answers/{questionId})',
  description: [
    'Opened with `Upgrade: websocket` (RFC 6455; no subprotocol, no permessage-deflate): **101 Switching Protocols**, then JSON text frames, one save each, saved by the same code as `PUT /attempts/{id}/answers/{questionId}` (same validation, seq rules, rate limit, durableSeq). The PUT stays the reference and the fallback: a client saves over HTTP whenever the channel is not open.',
    'A refused upgrade gets no 101 but a problem response (the statuses below) and the connection is closed. The same path without `Upgrade` answers what the upgrade would: the same refusals, or 426 when it would be taken — so a browser, which cannot read a refused handshake\'s status, can ask why its WebSocket did not open.',
    'Client → server: `{"i": frame id (whole number, echoed), "q": questionId, "o": optionId, "t": text, "s": seq}` (`o`, `t`, `s` optional as in the PUT body). Server → client: saved `{"i", "s": seq, "a": applied, "r": remainingSeconds, "d": durableSeq}`; refused `{"i", "p": problem}` (the PUT\'s problem body; `i` null for a frame that is not JSON or has no id); pushed `{"d": durableSeq}` after an answer flush. Close codes: 4403 / 4404 / 4409 after a refusal that ends the attempt\'s saving, 1000 after 65 s with neither a frame nor an answer to the server\'s ping (a silent channel is pinged after 45 s; browsers answer by themselves), 1009 a frame over 300 KB (the largest a valid save can be), 4429 a channel over its frame budget (every frame counts — a save, a malformed frame, a ping: 100 at once, then 10 a second at the default 600-a-minute limit; each also takes a point of the attempt\'s rate limit), after which its reopening from that address is refused 429 for 10 s, 20 s, … up to 5 min; 1001 server stopping. Details: `x-save-channel` and docs/api-overview.md.',
  ].join('\n\n'),
  'x-save-channel': {
    upgrade: { headers: { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': '(RFC 6455)', Origin: 'a page of this server (browsers send it; a client without Origin is let in)' }, opened: 101 },
    clientFrame: { i: 'integer ≥ 0, echoed in the reply', q: 'questionId (1–64 characters)', o: 'optionId (MCQ, TRUE_FALSE; null clears)', t: 'text (essays)', s: 'seq, 1…2147483647 (optional: the server assigns the next)' },
    serverFrames: {
      saved: { i: 'the frame id', s: 'seq', a: 'applied (0 or 1)', r: 'remainingSeconds', d: 'durableSeq' },
      refused: { i: 'the frame id, or null', p: 'the problem-details body the PUT would answer (status, code, detail, errors, retryAfterSeconds…)' },
      durable: { d: 'durableSeq, pushed after an answer flush moved it' },
    },
    closeCodes: { 1000: 'idle: no frame and no pong for 65 s', 1001: 'server stopping', 1009: 'frame over 300 KB', 4429: 'over the frame budget (OVER_BUDGET): reopening refused 429 for a growing time', 4403: 'refused 403 (DISQUALIFIED, SEB_USES_HTTP)', 4404: 'refused 404 (the attempt)', 4409: 'refused 409 (ALREADY_SUBMITTED, TIME_OVER)' },
    ping: 'the server pings a channel silent for 45 s; a pong counts as activity',
    frameLimitBytes: MAX_FRAME_BYTES,
    frameBudget: 'per connection: min(CBT_ANSWER_RATE_LIMIT_PER_MIN, 600) frames a minute, ten seconds of them at once (at least 20); every frame also takes a point of the attempt\'s rate limit',
  },
};
/** The one-answer save's path parameters (shared with lean-save.ts). */
export const saveParams = s.attemptParams.extend({ questionId: s.answerItemSchema.shape.questionId });
/** What the live rate limit counts, in its 429's detail. */
export const LIVE = 'requests for this attempt';
/** The maths form a request's `?math=` asks for (left out: KaTeX HTML, as before). */
const mathForm = (math: 'mathml' | undefined): MathForm => math ?? 'html';

/**
 * The routes every candidate's page calls all exam long (answer saves, offline replay,
 * telemetry, the 15 s poll), in hono's path form: the app's router answers them without
 * a trie search (platform/hot-router.ts).
 */
export const candidateLiveRoutes: readonly HotRouteSpec[] = [
  ['PUT', '/attempts/:id/answers/:questionId'],
  ['POST', '/attempts/:id/answers'],
  ['POST', '/attempts/:id/telemetry'],
  ['GET', '/attempts/:id'],
];

/** Candidate router. */
export function attemptRoutes(deps: HallDeps) {
  const r = createRouter();
  const live = async (c: Context<AppEnv>, attemptId: string) => {
    const h = await consume(deps.limits.live, attemptId, LIVE);
    for (const k in h) c.header(k, h[k]);
  };

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/start', tags: ['Candidate session'], summary: 'Start or resume a candidate session', request: { query: s.paperQuery, body: jsonBody(s.startSchema) }, responses: { 200: jsonResponse(s.sessionSchema, 'Session (no answer keys)'), ...startProblems } }),
    async (c) => compressedJson(await startAttempt(deps, c.req.valid('json'), clientAddress(c, deps.config.CBT_TRUSTED_PROXIES), c, mathForm(c.req.valid('query').math)), 200, c.req.header('accept-encoding')) as never,
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/attempts/preview',
      tags: ['Candidate session'],
      summary: 'The instructions of a session, before its clock starts',
      description: 'Same body, checks and problems as POST /attempts/start, but nothing is created or charged and no question is shown: the candidate reads the instructions (title, duration, number of questions, rules) and the clock starts only with POST /attempts/start.',
      request: { query: s.paperQuery, body: jsonBody(s.startSchema) },
      responses: { 200: jsonResponse(s.previewSchema, 'What starting would open'), ...startProblems },
    }),
    // `?math=` only says which form of the paper to prepare while the candidate reads
    async (c) => c.json(await previewAttempt(deps, c.req.valid('json'), clientAddress(c, deps.config.CBT_TRUSTED_PROXIES), c, mathForm(c.req.valid('query').math)), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/attempts/{id}', tags: ['Candidate session'], summary: 'The candidate’s view, to recover after a refresh (?questions=0 leaves the paper out, for polling)', request: { params: s.attemptParams, query: z.object({ questions: z.enum(['0', '1']).optional(), math: s.mathQuery }) }, responses: { 200: jsonResponse(s.sessionSchema, 'Session'), ...readProblems } }),
    async (c) => {
      const id = c.req.valid('param').id;
      const query = c.req.valid('query');
      const withPaper = query.questions !== '0';
      const form = mathForm(query.math);
      const h = await consume(deps.limits.live, id, LIVE);
      for (const k in h) c.header(k, h[k]);
      const { st, paper } = candidateAttempt(deps, id, c);
      if (withPaper) await renderPaper(paper, form);
      // the whole paper is worth compressing; the 15 s poll (?questions=0) is small
      if (withPaper) return compressedJson(sessionView(deps, paper, st, true, true, form), 200, c.req.header('accept-encoding'), h) as never;
      return c.json(sessionView(deps, paper, st, true, false) as never, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/attempts/{id}/instructions',
      tags: ['Candidate session'],
      summary: 'The exam’s instructions during the exam (?math= as for the paper)',
      description: 'What the preview showed before the clock started (`instructionsHtml`), for the candidate to read again mid-exam, after a reload too. Kept out of the start response, which stays as small as the paper allows (docs/decisions.md, "The instructions during the exam"); the page asks once and keeps the answer with the paper. The attempt id is the capability, as for GET /attempts/{id}.',
      request: { params: s.attemptParams, query: s.paperQuery },
      responses: { 200: jsonResponse(s.attemptInstructionsSchema, 'The instructions (null: none)'), ...readProblems },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      await live(c, id);
      const { paper } = candidateAttempt(deps, id, c);
      return c.json({ instructionsHtml: instructionsHtml(paper, mathForm(c.req.valid('query').math)) }, 200);
    },
  );

  // the hot path (issue 8): one validation step and a response with plain headers
  jsonRoute(
    r,
    { method: 'put', path: '/attempts/{id}/answers/{questionId}', params: saveParams, body: s.singleAnswerSchema, doc: { tags: ['Candidate session'], summary: 'Save one live answer (buffered)', responses: { 200: jsonResponse(s.saveResponseSchema, 'Saved'), ...saveProblems } } },
    async (c, { id, questionId }, answer) => {
      const h = await consume(deps.limits.live, id, LIVE);
      let saved;
      try {
        saved = saveAnswers(deps, id, [{ questionId, optionId: answer.optionId, text: answer.text, seq: answer.seq }], { questionInPath: true, req: c });
      } catch (e) {
        // a refused save (404, 409, 400) carries the rate-limit headers, as a 429 does
        for (const k in h) c.header(k, h[k]);
        throw e;
      }
      // a good save carries none: ~70 of its bytes on the hall's Wi-Fi, every 2 s per
      // candidate, for a limit the page never nears (issue 26; docs/decisions.md)
      return plainJson(saved, 200, {});
    },
  );

  // the save channel's path without Upgrade (with it, save-channel.ts answers before hono)
  r.openapi(
    createRoute({ method: 'get', path: '/attempts/{id}/channel', ...channelDoc, request: { params: s.attemptParams }, responses: { 101: { description: 'Switching Protocols: the channel is open (only with Upgrade: websocket)' }, ...channelProblems } }),
    async (c) => {
      await admitChannel(deps, c.req.valid('param').id, clientAddress(c));
      throw new ApiError(426, 'upgrade-required', 'Upgrade required', 'This is the save channel, a WebSocket: open it with Upgrade: websocket, or save with PUT /attempts/{id}/answers/{questionId}.', { code: 'UPGRADE_REQUIRED' }, { upgrade: 'websocket' });
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/answers', tags: ['Candidate session'], summary: 'Save several live answers (offline replay)', request: { params: s.attemptParams, body: jsonBody(s.batchAnswersSchema) }, responses: { 200: jsonResponse(s.saveResponseSchema, 'Saved'), ...batchProblems } }),
    async (c) => {
      const id = c.req.valid('param').id;
      await live(c, id);
      return c.json(saveAnswers(deps, id, c.req.valid('json').answers, { req: c }), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/attempts/{id}/flags/{questionId}',
      tags: ['Candidate session'],
      summary: 'Flag a question for review, or clear its flag',
      description: 'The candidate’s own note (issue 37 item 8): kept by the hall so it follows the candidate to another computer (`flagged` in the start/resume response and in GET /attempts/{id} with the paper). Changes no answer. Idempotent.',
      request: { params: saveParams, body: jsonBody(s.flagSchema) },
      responses: { 200: jsonResponse(s.flagResponseSchema, 'Stored'), ...flagProblems },
    }),
    async (c) => {
      const { id, questionId } = c.req.valid('param');
      await live(c, id);
      return c.json(await setFlag(deps, id, questionId, c.req.valid('json').flagged, c), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/telemetry', tags: ['Candidate session'], summary: 'Record a proctoring event', request: { params: s.attemptParams, body: jsonBody(s.telemetrySchema) }, responses: { 200: jsonResponse(s.telemetryResponseSchema, 'Recorded'), ...telemetryProblems } }),
    async (c) => {
      const id = c.req.valid('param').id;
      await live(c, id);
      const event = c.req.valid('json');
      return c.json(await recordTelemetry(deps, id, event, c), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/submit', tags: ['Candidate session'], summary: 'Finalize and auto-grade (idempotent)', request: { params: s.attemptParams, body: { required: false, content: { 'application/json': { schema: s.submitSchema } } } }, responses: { 200: jsonResponse(s.submitResponseSchema, 'Result'), ...submitProblems } }),
    async (c) => {
      const id = c.req.valid('param').id;
      await live(c, id);
      const body = (c.req.valid('json') ?? {}) as { answers?: s.AnswerItem[] };
      const result = await withWriteTurn(deps.sqlite, () => {
        const { st, paper } = candidateAttempt(deps, id, c);
        if (st.row.status === 'IN_PROGRESS' && body.answers?.length && remainingMs(paper.exam, st.row, deps.clock.now()) >= -GRACE_MS) {
          saveAnswers(deps, id, body.answers);
        }
        return submitResponse(paper, { row: finalizeAttempt(deps, id, { autoSubmitted: false }) });
      });
      return c.json(result, 200);
    },
  );
  return r;
}
