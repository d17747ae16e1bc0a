/**
 * Invigilator and examiner routes on attempts (API key): results, the live hall
 * monitor (JSON snapshot and a server-sent-events stream), extend, reinstate,
 * force-submit, one attempt's marked answers, clearing sign-in throttles and allowing
 * another attempt from a seat of an open room.
 */
import { createRoute } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { getExamInWorkspace } from '../exams/index.js';
import { attemptResult, examAttempts, extendTime, forceSubmit, reinstate } from './invigilation.js';
import { MonitorFeed, monitorSnapshot } from './monitor-feed.js';
import { reasonSchema } from '../../core/exams/schemas.js';
import { clearSignInThrottle } from './sign-in-throttle.js';
import { submitResponseSchema } from './schemas.js';
import { allowSeat } from './seats.js';

const summarySchema = z.record(z.string(), z.unknown()).openapi('AttemptSummary');
const params = z.object({ id: z.string().min(1).max(64) });
const problems = { ...errorResponses, 409: problem('The attempt is not in a state that allows this (e.g. reinstating one that is not disqualified)') };

/** Invigilation router. */
export function invigilationRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  r.use('/exams/*', auth);
  for (const p of ['/attempts/:id/result', '/attempts/:id/extend', '/attempts/:id/reinstate', '/attempts/:id/force-submit']) r.use(p, auth);

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/attempts', tags: ['Results'], security: keySecurity, summary: 'Attempts of an exam with results', request: { params }, responses: { 200: jsonResponse(z.array(summarySchema), 'Attempts'), ...problems } }),
    (c) => c.json(examAttempts(deps, c.var.workspace.id, c.req.valid('param').id), 200),
  );

  const snapshot = (workspaceId: string, examId: string) => monitorSnapshot(deps, workspaceId, examId);

  r.openapi(
    createRoute({
      method: 'post',
      path: '/exams/{id}/sign-in-throttle/clear',
      tags: ['Invigilation'],
      security: keySecurity,
      summary: 'Let candidates sign in again at once after wrong PINs (audited)',
      description:
        'With `studentId`: that candidate, from every computer. Without: every sign-in throttle of the exam — each studentId, each address\'s count of wrong studentIds, and the unknown-room-code waits of the addresses that tried or sat this exam (a hall behind one NAT or proxy address).',
      request: { params, body: jsonBody(reasonSchema.extend({ studentId: z.string().trim().min(1).max(64).optional() })) },
      responses: {
        200: jsonResponse(
          z.object({ examId: z.string(), studentId: z.string().nullable(), cleared: z.number().int().openapi({ description: 'With studentId: computers (client addresses) that were held back for it; without: throttle keys cleared' }) }),
          'Cleared',
        ),
        ...problems,
      },
    }),
    (c) => {
      const b = c.req.valid('json');
      return c.json(clearSignInThrottle(deps, c.var.workspace.id, c.req.valid('param').id, b.studentId, b.reason), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/exams/{id}/seats/allow',
      tags: ['Invigilation'],
      security: keySecurity,
      summary: 'Allow one more attempt from a computer of an open room (audited)',
      description:
        'An exam without a roster lets each computer (client address; behind a proxy listed in CBT_TRUSTED_PROXIES, the address it forwards) start one attempt; a further start gets 409 `SEAT_USED`. This lets the computer at `address` (the monitor\'s `seats[].address` / `attempts[].seatAddress`) start exactly one more, e.g. for a second shift. Resuming is never limited.',
      request: { params, body: jsonBody(reasonSchema.extend({ address: z.union([z.ipv4(), z.ipv6()], { message: 'address must be an IPv4 or IPv6 address' }) })) },
      responses: {
        200: jsonResponse(z.object({ examId: z.string(), address: z.string(), attempts: z.number().int().openapi({ description: 'attempts started from this computer' }), allowancesLeft: z.number().int().nullable().openapi({ description: 'further starts it may make (null: no limit, CBT_OPEN_ROOM_SEAT_ATTEMPTS=0)' }) }), 'Allowed'),
        ...problems,
      },
    }),
    (c) => {
      const b = c.req.valid('json');
      return c.json(allowSeat(deps, c.var.workspace.id, c.req.valid('param').id, b.address, b.reason), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/monitor', tags: ['Invigilation'], security: keySecurity, summary: 'Live hall snapshot', description: '`{exam, serverTime, attempts, absent, signInFailures, openRoom, seats}`. `absent`: the roster candidates who have no attempt (`[{studentId, candidateName}]`; a preview is not an attempt; [] without a roster). The stream\'s `snapshot` events carry the same body.', request: { params }, responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), 'Snapshot'), ...problems } }),
    (c) => c.json(snapshot(c.var.workspace.id, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/monitor/stream',
      tags: ['Invigilation'],
      security: keySecurity,
      summary: 'Live hall monitor as server-sent events: a `snapshot` on connect, then each second a `delta` of the changed rows; `alert` events',
      description:
        'Every connection (a reconnect too) begins with a `snapshot` event, the body of GET /exams/{id}/monitor. Then, at most once a second, `delta` events: `{serverTime, attempts, absent?, signInFailures?, seats?}` where `attempts` holds only the rows whose attempt changed (a save, a start, a status, an action, or the candidate heard from 3 s or more after the `lastSeenAt` last sent) and the other members appear only when they changed; more than 100 changed rows come as several `delta` events of at most 100 rows each (the other members only in the first); apply each by attempt id. An exam-level change (pause, resume, times) sends a `snapshot` again. `alert` events: `{kind: disqualified | unseen, attemptId, candidateName}`.',
      request: { params },
      responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } }, ...problems },
    }),
    (c) => {
      const workspaceId = c.var.workspace.id;
      const examId = c.req.valid('param').id;
      getExamInWorkspace(deps, workspaceId, examId); // 404 before the stream opens
      return streamSSE(c, async (stream) => {
        const feed = new MonitorFeed(deps, workspaceId, examId);
        let id = 0;
        const off = deps.events.on((e) => {
          feed.note(e);
          if (e.kind === 'attempt-disqualified' && e.examId === examId) {
            void stream.writeSSE({ event: 'alert', data: JSON.stringify({ kind: 'disqualified', attemptId: e.attemptId, candidateName: e.candidateName }) });
          }
        });
        stream.onAbort(() => off());
        // every connection (a reconnect too, with or without Last-Event-ID) starts from the whole state
        await stream.writeSSE({ event: 'snapshot', id: String(++id), data: JSON.stringify(feed.full()) });
        while (!stream.aborted) {
          await stream.sleep(1000);
          if (stream.aborted) break;
          // then only the rows that changed (monitor-feed.ts); a full snapshot after an exam-level change
          const t = feed.tick();
          if (t.snapshot) await stream.writeSSE({ event: 'snapshot', id: String(++id), data: JSON.stringify(t.snapshot) });
          let turn = false;
          for (const d of t.deltas) {
            // a turn of the event loop between slices: saves go on while the rows are found and built
            if (turn) await new Promise((resolve) => setImmediate(resolve));
            turn = true;
            if (stream.aborted) break;
            if (d) await stream.writeSSE({ event: 'delta', id: String(++id), data: JSON.stringify(d) });
          }
          for (const a of t.alerts) await stream.writeSSE({ event: 'alert', data: JSON.stringify(a) });
        }
        off();
      });
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/attempts/{id}/result', tags: ['Results'], security: keySecurity, summary: 'One attempt with every answer marked (examiner view)', description: 'The attempt summary, `answers: [{questionId, section, optionId, keyLabel, text, isCorrect, awardedMarks, review}]` of the questions the candidate was given, and `sectionScores: [{section, score, maxScore}]` in the exam’s section order (null for an exam without sections), which sum to `score` and `maxScore`. The webhook events carry the same `sectionScores` in `data` (only for an exam with sections).', request: { params }, responses: { 200: jsonResponse(summarySchema, 'Attempt'), ...problems } }),
    (c) => c.json(attemptResult(deps, c.var.workspace.id, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/extend', tags: ['Invigilation'], security: keySecurity, summary: 'Grant extra minutes to one candidate (audited)', request: { params, body: jsonBody(reasonSchema.extend({ minutes: z.number().min(0.5).max(600) })) }, responses: { 200: jsonResponse(summarySchema, 'Attempt'), ...problems } }),
    (c) => {
      const b = c.req.valid('json');
      return c.json(extendTime(deps, c.var.workspace.id, c.req.valid('param').id, b.minutes, b.reason), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/reinstate', tags: ['Invigilation'], security: keySecurity, summary: 'Reinstate a disqualified candidate (audited)', request: { params, body: jsonBody(reasonSchema) }, responses: { 200: jsonResponse(summarySchema, 'Attempt'), ...problems } }),
    (c) => c.json(reinstate(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json').reason), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/force-submit', tags: ['Invigilation'], security: keySecurity, summary: 'Submit an attempt now (audited)', request: { params, body: jsonBody(reasonSchema) }, responses: { 200: jsonResponse(submitResponseSchema, 'Result'), ...problems } }),
    (c) => c.json(forceSubmit(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json').reason), 200),
  );
  return r;
}
