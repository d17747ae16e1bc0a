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
import { getExamInWorkspace, serializeExam } from '../exams/index.js';
import { absentCandidates, attemptResult, examAttempts, extendTime, forceSubmit, reinstate } from './invigilation.js';
import { reasonSchema } from '../../core/exams/schemas.js';
import { clearSignInThrottle, signInFailures } from './sign-in-throttle.js';
import { submitResponseSchema } from './schemas.js';
import { allowSeat, examSeats } from './seats.js';

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

  const snapshot = (workspaceId: string, examId: string) => {
    const exam = getExamInWorkspace(deps, workspaceId, examId);
    const openRoom = !deps.sessions.paper(exam.id)!.hasRoster;
    return {
      exam: serializeExam(exam),
      serverTime: new Date(deps.clock.now()).toISOString(),
      attempts: examAttempts(deps, workspaceId, examId),
      // roster candidates without an attempt (issue 36): the whole room, not only who started
      absent: absentCandidates(deps, exam.id),
      signInFailures: signInFailures(deps, exam.id),
      // without a roster each computer starts one attempt (seats.ts): which seats did, and what is left
      openRoom,
      seats: openRoom ? examSeats(deps, exam.id) : [],
    };
  };

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
      summary: 'Live hall monitor as server-sent events (snapshot every second while anything changed; alert events)',
      request: { params },
      responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } }, ...problems },
    }),
    (c) => {
      const workspaceId = c.var.workspace.id;
      const examId = c.req.valid('param').id;
      getExamInWorkspace(deps, workspaceId, examId); // 404 before the stream opens
      return streamSSE(c, async (stream) => {
        let changed = true;
        const alerted = new Set<string>();
        const off = deps.events.on((e) => {
          if ((e.kind === 'attempt-changed' || e.kind === 'attempt-disqualified') && e.examId === examId) changed = true;
          if (e.kind === 'attempt-disqualified' && e.examId === examId) {
            void stream.writeSSE({ event: 'alert', data: JSON.stringify({ kind: 'disqualified', attemptId: e.attemptId, candidateName: e.candidateName }) });
          }
        });
        stream.onAbort(() => off());
        let ticks = 0;
        while (!stream.aborted) {
          ticks++;
          // a full snapshot when something changed, and every 3 s anyway (remaining time and
          // last-seen times move: the page marks a candidate not heard from for 15 s, issue 36)
          if (changed || ticks % 3 === 0) {
            changed = false;
            const snap = snapshot(workspaceId, examId);
            await stream.writeSSE({ event: 'snapshot', data: JSON.stringify(snap) });
            const now = deps.clock.now();
            for (const a of snap.attempts) {
              const seen = a.lastSeenAt ? Date.parse(a.lastSeenAt) : 0;
              if (a.status === 'IN_PROGRESS' && now - seen > 60_000 && !alerted.has(a.attemptId)) {
                alerted.add(a.attemptId);
                await stream.writeSSE({ event: 'alert', data: JSON.stringify({ kind: 'unseen', attemptId: a.attemptId, candidateName: a.candidateName }) });
              } else if (now - seen <= 60_000) alerted.delete(a.attemptId);
            }
          }
          await stream.sleep(1000);
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
