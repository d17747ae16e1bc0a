/**
 * The lean dispatch of the live answer save, `PUT /attempts/{id}/answers/{questionId}`
 * (issue 40 §1; docs/decisions.md, "The answer save is dispatched before hono"): a Node
 * 'request' listener put in front of the app's (hono's) that answers the common save
 * itself — the same checks in the same order, the same responses, problem details, headers
 * and log line as the route through the shell (platform/http-app.ts, routes.ts) — and hands
 * every other request, and every save it cannot judge alone, to hono untouched:
 * - not exactly `PUT /attempts/<id>/answers/<questionId>` with no `%` or query in the path;
 * - a content type other than exactly `application/json`, no or a malformed
 *   Content-Length, a chunked body, or a body over the 1 MB limit (the shell's 415/413/400);
 * - an exam that requires Safe Exam Browser (its keys are judged on hono's request, seb-lock.ts);
 * - a body not all arrived a microtask after the request (hono reads the stream).
 * Its answers leave at the end of the event-loop turn, all of that turn's together (below).
 * What it answers itself: 200 with the save, and the save's own refusals — path or body
 * invalid (400), malformed JSON (400), rate limit (429), and saveAnswers's 400/403/404/409 —
 * as RFC 7807 problems; anything unexpected is logged and answered 500, as the shell's
 * error mapper does.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError, ValidationError, toProblem } from '../../platform/errors.js';
import { requestIdFor } from '../../platform/http-app.js';
import { invalidInput } from '../../platform/openapi.js';
import { consume } from '../../platform/rate-limit.js';
import { candidateSchemas as s, saveAnswers } from '../attempts/index.js';
import { saveParams, LIVE } from './routes.js';

/** The save's path, in origin form, segments without `%` (decoded values equal raw ones). */
const SAVE_PATH = /^\/attempts\/([^/?%#]+)\/answers\/([^/?%#]+)$/;
/** The body limit of the save's path (src/app.ts `limitFor`: 1 MB JSON; docs/design.md §9). */
const MAX_BODY = 1024 * 1024;
const DECIMAL = /^\d{1,7}$/;
const utf8 = new TextDecoder();

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** What the lean dispatch writes besides the save itself (the shell's options). */
export interface LeanSaveOptions {
  /** headers on every response besides `x-request-id` (the app's `headers` option) */
  headers: Readonly<Record<string, string>>;
  /** the `detail` of the 500 problem (the app's `internalErrorDetail`) */
  internalErrorDetail: string;
}

/**
 * Puts the lean save in front of `server`'s first 'request' listener (the hono adaptor's),
 * keeping every other listener in its place.
 * @throws Error when the server has no 'request' listener yet
 */
export function attachLeanSave(server: Server, deps: HallDeps, opts: LeanSaveOptions): void {
  const listeners = server.listeners('request') as Listener[];
  const hono = listeners[0];
  if (!hono) throw new Error('attachLeanSave: the server has no request listener (create it with the app first)');
  const lean = leanSaveListener(deps, opts, hono);
  server.removeAllListeners('request');
  server.on('request', lean);
  for (const l of listeners.slice(1)) server.on('request', l);
}

/** The listener: the lean save, or `next` (hono) for everything else (see the module docstring). */
export function leanSaveListener(deps: HallDeps, opts: LeanSaveOptions, next: Listener): Listener {
  // The answers of one event-loop turn leave together, after its I/O callbacks (the check
  // phase), not one by one as each request is handled: a response written on its own is a
  // send that must also wake the client, and at saturation that made the send ~60 % of a
  // save's CPU; sent as a burst, the save's CPU fell from 66–72 µs to 44–60 µs (loopback,
  // docs/decisions.md, "The answer saves of one turn are sent together").
  // Any other request handed to hono first sends the answers waiting: its handler (a start
  // serialising a paper, an upload) may hold the loop, and the saves handled before it must
  // not wait for that.
  const outgoing: { res: ServerResponse; body: string }[] = [];
  const sendOutgoing = () => {
    if (outgoing.length) for (const { res, body } of outgoing.splice(0)) res.end(body);
  };
  const toHono: Listener = (req, res) => {
    sendOutgoing();
    next(req, res);
  };
  const names = Object.keys(opts.headers);
  const values = names.map((n) => opts.headers[n]!);

  /** the shell's part: request id, the program's headers, the log line */
  const finish = (res: ServerResponse, requestId: string, started: number, path: string, status: number, body: string, headers: Record<string, string>) => {
    res.setHeader('x-request-id', requestId);
    for (let i = 0; i < names.length; i++) res.setHeader(names[i]!, values[i]!);
    headers['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers);
    if (outgoing.push({ res, body }) === 1) setImmediate(sendOutgoing);
    deps.logger.info('request', { requestId, method: 'PUT', path, status, ms: Math.round((performance.now() - started) * 100) / 100 });
  };

  const problem = (res: ServerResponse, requestId: string, started: number, path: string, err: unknown, extra: Record<string, string>) => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else {
      deps.logger.error('unhandled error', { requestId, path, error: String(err), stack: (err as Error).stack });
      e = new ApiError(500, 'internal-error', 'Internal server error', opts.internalErrorDetail);
    }
    const headers: Record<string, string> = { ...extra, 'content-type': 'application/problem+json' };
    for (const [k, v] of Object.entries(e.headers)) headers[k.toLowerCase()] = v;
    finish(res, requestId, started, path, e.status, JSON.stringify(toProblem(e, path, requestId)), headers);
  };

  /** true when hono must answer (decided from the request line and headers alone) */
  const notLean = (req: IncomingMessage, id: string): boolean => {
    const h = req.headers;
    if (h['content-type'] !== 'application/json' || h['transfer-encoding'] !== undefined) return true;
    const len = h['content-length'];
    if (len === undefined || !DECIMAL.test(len) || Number(len) > MAX_BODY) return true;
    const st = deps.sessions.attempt(id);
    const paper = st ? deps.sessions.paper(st.row.exam_id) : undefined;
    return paper != null && paper.seb !== null;
  };

  const save = async (req: IncomingMessage, res: ServerResponse, path: string, rawId: string, rawQuestionId: string, started: number) => {
    // the parser pushes the body of the same packet after the 'request' event
    await undefined;
    const n = Number(req.headers['content-length']);
    if (req.readableDidRead || req.readableFlowing || req.readableLength !== n || notLean(req, rawId)) {
      toHono(req, res);
      return;
    }
    const requestId = requestIdFor(req.headers['x-request-id'] as string | undefined);
    let limitHeaders: Record<string, string> = {};
    try {
      const p = saveParams.safeParse({ id: rawId, questionId: rawQuestionId });
      if (!p.success) throw invalidInput('param', p.error);
      const buf = n === 0 ? Buffer.alloc(0) : (req.read() as Buffer);
      req.resume();
      let json: unknown;
      try {
        json = JSON.parse(utf8.decode(buf));
      } catch {
        throw new ValidationError('The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]);
      }
      const b = s.singleAnswerSchema.safeParse(json);
      if (!b.success) throw invalidInput('json', b.error);
      const { id, questionId } = p.data;
      limitHeaders = await consume(deps.limits.live, id, LIVE);
      const saved = saveAnswers(deps, id, [{ questionId, optionId: b.data.optionId, text: b.data.text, seq: b.data.seq }], { questionInPath: true });
      // a good save carries no rate-limit headers (routes.ts)
      finish(res, requestId, started, path, 200, JSON.stringify(saved), { 'content-type': 'application/json' });
    } catch (e) {
      problem(res, requestId, started, path, e, limitHeaders);
    }
  };

  return (req, res) => {
    if (req.method !== 'PUT') return toHono(req, res);
    const url = req.url ?? '';
    const m = SAVE_PATH.exec(url);
    if (!m) return toHono(req, res);
    void save(req, res, url, m[1]!, m[2]!, performance.now());
  };
}
