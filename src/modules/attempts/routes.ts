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
import * as s from './schemas.js';
import { previewAttempt, startAttempt } from './start.js';
import { candidateAttempt, saveAnswers } from './answers.js';
import { recordTelemetry } from '../proctoring/service.js';
import { finalizeAttempt, submitResponse } from './finalize.js';
import { sessionView } from './views.js';
import { renderPaper } from './paper.js';
import type { MathForm } from '../../platform/rich-text.js';
import { GRACE_MS, remainingMs } from './timer.js';

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
  409: problem('The exam has no questions, or this student ID already submitted or ran out of time (NO_QUESTIONS, ALREADY_SUBMITTED, TIME_OVER)'),
  429: problem('Too many wrong PINs for this student ID, or too many requests (Retry-After)'),
};
const readProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt };
const saveProblems = { ...publicErrorResponses, 403: locked, 404: problem('No attempt with this id, or (one-answer form) the question is not on the attempt’s paper (QUESTION_NOT_FOUND)'), 409: over };
const batchProblems = { ...publicErrorResponses, 400: problem('Validation failure; an answer that does not fit the paper is listed in errors (index, questionId) and nothing is saved'), 403: locked, 404: noAttempt, 409: over };
const telemetryProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt, 409: problem('The exam was already submitted (ALREADY_SUBMITTED)') };
const submitProblems = { ...publicErrorResponses, 403: locked, 404: noAttempt };
const saveParams = s.attemptParams.extend({ questionId: s.answerItemSchema.shape.questionId });
const LIVE = 'requests for this attempt';
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
    async (c) => compressedJson(await startAttempt(deps, c.req.valid('json'), clientAddress(c), c, mathForm(c.req.valid('query').math)), 200, c.req.header('accept-encoding')) as never,
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
    async (c) => c.json(await previewAttempt(deps, c.req.valid('json'), clientAddress(c), c, mathForm(c.req.valid('query').math)), 200),
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

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/answers', tags: ['Candidate session'], summary: 'Save several live answers (offline replay)', request: { params: s.attemptParams, body: jsonBody(s.batchAnswersSchema) }, responses: { 200: jsonResponse(s.saveResponseSchema, 'Saved'), ...batchProblems } }),
    async (c) => {
      const id = c.req.valid('param').id;
      await live(c, id);
      return c.json(saveAnswers(deps, id, c.req.valid('json').answers, { req: c }), 200);
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
