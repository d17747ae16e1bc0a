/**
 * Safe Exam Browser routes (issue 25): the exam's .seb configuration file for the
 * examiner (API key) and for the hall PCs (keyless, by room code: what the seb:// link
 * on PIN slips and the poster opens), the examiner's SEB details (quit password
 * included), and the candidate page's check "does this browser pass the exam's SEB check".
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, problem, publicErrorResponses, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../platform/auth.js';
import { NotFound } from '../../platform/errors.js';
import { consume } from '../../platform/rate-limit.js';
import { clientAddress } from '../../platform/http.js';
import { getExamInWorkspace, type ExamRow } from '../exams/service.js';
import { sebReadSchema } from '../../core/exams/schemas.js';
import { examConfiguration, sebFileBytes } from '../../core/seb/config-file.js';
import { sebExamSettings, sebReadShape } from './exam-seb.js';
import { verifySebRequest } from './verify.js';

const sebFile = { description: 'The .seb file (gzip of "plnd" + gzip of the XML plist)', content: { 'application/seb': { schema: z.string().openapi({ format: 'binary' }) } } };
const roomParam = z.object({ code: z.string().min(4).max(32).regex(/^[A-Za-z0-9-]+$/) });

function fileResponse(c: Context<AppEnv>, exam: ExamRow): Response {
  const s = sebExamSettings(exam);
  if (!s) throw new NotFound('A Safe Exam Browser configuration for this exam (it does not require SEB)', { code: 'SEB_NOT_REQUIRED' });
  const bytes = sebFileBytes(examConfiguration(s).settings);
  return c.body(new Uint8Array(bytes), 200, {
    'content-type': 'application/seb',
    'content-disposition': `attachment; filename="${exam.access_code}.seb"`,
    'cache-control': 'no-store',
  });
}

/**
 * The exam of a room code. Unknown codes cost the client address a point of the general
 * bucket (a room-code oracle must not be free); known ones cost nothing, since a whole
 * hall behind one NAT address opens the page at once.
 * @throws NotFound, TooManyRequests
 */
async function examByRoom(deps: HallDeps, c: Context<AppEnv>, code: string): Promise<ExamRow> {
  const exam = deps.sqlite.prepare('SELECT * FROM exams WHERE access_code = ?').get(code.toUpperCase()) as ExamRow | undefined;
  if (!exam) {
    await consume(deps.limits.general, `room-miss:${clientAddress(c, deps.config.CBT_TRUSTED_PROXIES)}`, 'unknown room codes');
    throw new NotFound('An exam with this room code', { code: 'ROOM_NOT_FOUND' });
  }
  return exam;
}

/** SEB router. */
export function sebRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  r.use('/exams/:id/safe-exam-browser', auth);
  r.use('/exams/:id/safe-exam-browser.seb', auth);
  const params = z.object({ id: z.string().min(1).max(64) });

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/safe-exam-browser.seb', tags: ['Safe Exam Browser'], security: keySecurity, summary: 'The exam’s Safe Exam Browser configuration file', request: { params }, responses: { 200: sebFile, ...errorResponses } }),
    (c) => fileResponse(c, getExamInWorkspace(deps, c.var.workspace.id, c.req.valid('param').id)) as never,
  );

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/safe-exam-browser', tags: ['Safe Exam Browser'], security: keySecurity, summary: 'The exam’s SEB settings with the invigilator’s quit password', request: { params }, responses: { 200: jsonResponse(sebReadSchema.extend({ quitPassword: z.string().nullable() }).openapi('SafeExamBrowserDetails'), 'SEB settings'), ...errorResponses } }),
    (c) => {
      const exam = getExamInWorkspace(deps, c.var.workspace.id, c.req.valid('param').id);
      return c.json({ ...sebReadShape(exam), quitPassword: exam.seb_quit_password ? deps.secrets.open(exam.seb_quit_password) : null }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/rooms/{code}/safe-exam-browser.seb', tags: ['Safe Exam Browser'], summary: 'The .seb file of a room (no key: the seb:// link on PIN slips and posters)', request: { params: roomParam }, responses: { 200: sebFile, ...publicErrorResponses, 404: problem('No exam has this room code, or it does not require Safe Exam Browser') } }),
    async (c) => fileResponse(c, await examByRoom(deps, c, c.req.valid('param').code)) as never,
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/{code}/safe-exam-browser',
      tags: ['Safe Exam Browser'],
      summary: 'Whether the room requires Safe Exam Browser and whether this request passes its check (the candidate page asks before sign-in)',
      request: { params: roomParam },
      responses: { 200: jsonResponse(z.object({ required: z.boolean(), verified: z.boolean(), configUrl: z.string().nullable(), sebUrl: z.string().nullable() }).openapi('SafeExamBrowserCheck'), 'Check'), ...publicErrorResponses, 404: problem('No exam has this room code') },
    }),
    async (c) => {
      const exam = await examByRoom(deps, c, c.req.valid('param').code);
      const gate = deps.sessions.paper(exam.id)?.seb ?? null;
      const shape = sebReadShape(exam);
      return c.json({ required: !!gate, verified: gate ? verifySebRequest(c, deps.config, gate) === 'ok' : true, configUrl: shape.configUrl, sebUrl: shape.sebUrl }, 200);
    },
  );
  return r;
}
