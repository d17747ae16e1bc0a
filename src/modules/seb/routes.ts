/**
 * Safe Exam Browser routes (issue 25; issue #34 finding 6): the exam's .seb configuration
 * file for the examiner (API key) and for the hall PCs (room code + the exam's download
 * code: what the seb:// link on PIN slips and the poster opens — never the room code
 * alone, since whoever holds the file can compute its Config Key), the examiner's SEB
 * details (quit password, download code, the RequestHash values seats sent), and the
 * candidate page's check "does this browser pass the exam's SEB checks".
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, problem, publicErrorResponses, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { NotFound } from '../../platform/errors.js';
import { consume } from '../../platform/rate-limit.js';
import { clientAddress } from '../../platform/http.js';
import { getExamInWorkspace } from '../exams/index.js';
import type { ExamRow } from '../../db/rows.js';
import { sebReadSchema } from '../../core/exams/schemas.js';
import { examConfiguration, sebFileBytes } from '../../core/seb/config-file.js';
import { checkSebRequest, digestEquals, registeredKeys, sebDownloadCode, sebExamSettings, sebReadShape, sebVerdict } from '../seb-check/index.js';
import { recordRequestHash, requestHashSightings } from './sightings.js';
import { sha256Hex } from '../../core/seb/config-key.js';

const sebFile = { description: 'The .seb file (gzip of "plnd" + gzip of the XML plist)', content: { 'application/seb': { schema: z.string().openapi({ format: 'binary' }) } } };
const roomParam = z.object({ code: z.string().min(4).max(32).regex(/^[A-Za-z0-9-]+$/) });
const downloadParams = roomParam.extend({ file: z.string().max(40).regex(/^[A-Za-z0-9]+\.seb$/, 'the download code followed by .seb').openapi({ description: 'The exam’s download code + `.seb` (from the seb:// link the invigilator hands out)' }) });
const sightingSchema = z.object({
  client: z.string().openapi({ description: 'User-Agent of the seat (SEB writes its version and platform there)' }),
  seenAt: z.string(),
  requestUrl: z.string(),
  requestHash: z.string().openapi({ description: 'X-SafeExamBrowser-RequestHash it sent: SHA-256(requestUrl + its Browser Exam Key)' }),
  matchesKey: z.string().nullable().openapi({ description: 'The registered Browser Exam Key that explains the hash; null when none does' }),
});

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
    createRoute({ method: 'get', path: '/exams/{id}/safe-exam-browser', tags: ['Safe Exam Browser'], security: keySecurity, summary: 'The exam’s SEB settings with the invigilator’s quit password and the Browser Exam Key sightings', description: 'For registering Browser Exam Keys: `browserExamKeySightings` lists, per client, the last X-SafeExamBrowser-RequestHash a seat sent that matched no registered key, and which registered key (if any) explains it now — paste the BEK SEB shows for this configuration, then check that it matches the seats of that SEB version.', request: { params }, responses: { 200: jsonResponse(sebReadSchema.extend({ quitPassword: z.string().nullable(), browserExamKeySightings: z.array(sightingSchema) }).openapi('SafeExamBrowserDetails'), 'SEB settings'), ...errorResponses } }),
    (c) => {
      const exam = getExamInWorkspace(deps, c.var.workspace.id, c.req.valid('param').id);
      return c.json({ ...sebReadShape(exam), quitPassword: exam.seb_quit_password ? deps.secrets.open(exam.seb_quit_password) : null, browserExamKeySightings: requestHashSightings(deps, exam.id, registeredKeys(exam)) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/{code}/safe-exam-browser/{file}',
      tags: ['Safe Exam Browser'],
      summary: 'The .seb file of a room, behind the exam’s download code (what the seb:// link on PIN slips and posters opens)',
      description: 'No API key, but the room code alone is not enough: the Config Key is computable from the file, so the file is what a forger needs. A wrong code costs the client address a point of the general rate limit, like an unknown room.',
      request: { params: downloadParams },
      responses: { 200: sebFile, ...publicErrorResponses, 404: problem('No exam has this room code and download code, or it does not require Safe Exam Browser') },
    }),
    async (c) => {
      const { code, file } = c.req.valid('param');
      const exam = await examByRoom(deps, c, code);
      const expected = sebDownloadCode(exam);
      const given = file.slice(0, -'.seb'.length).toUpperCase();
      // compare digests, so the time does not tell how much of the code was right
      if (!expected || !digestEquals(sha256Hex(expected), sha256Hex(given))) {
        await consume(deps.limits.general, `room-miss:${clientAddress(c)}`, 'wrong download codes');
        throw new NotFound('A Safe Exam Browser configuration with this download code', { code: 'SEB_DOWNLOAD_NOT_FOUND' });
      }
      return fileResponse(c, exam) as never;
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/{code}/safe-exam-browser',
      tags: ['Safe Exam Browser'],
      summary: 'Whether the room requires Safe Exam Browser and whether this request passes its checks (the candidate page asks before sign-in)',
      description: '`verified`: the Config check passed (the client has the exam’s configuration — not proof that it is SEB) and, when the exam registers Browser Exam Keys, the BEK check passed too. `reason` says which failed. The .seb file’s link is not given here: the invigilator hands it out.',
      request: { params: roomParam },
      responses: { 200: jsonResponse(z.object({ required: z.boolean(), verified: z.boolean(), reason: z.enum(['ok', 'missing', 'mismatch', 'bek-missing', 'bek-mismatch']).nullable() }).openapi('SafeExamBrowserCheck'), 'Check'), ...publicErrorResponses, 404: problem('No exam has this room code') },
    }),
    async (c) => {
      const exam = await examByRoom(deps, c, c.req.valid('param').code);
      const gate = deps.sessions.paper(exam.id)?.seb ?? null;
      if (!gate) return c.json({ required: false, verified: true, reason: null }, 200);
      const { check, unmatched } = checkSebRequest(c, deps.config, gate);
      if (unmatched) recordRequestHash(deps, exam.id, c.req.header('user-agent'), unmatched);
      const reason = sebVerdict(check);
      return c.json({ required: true, verified: reason === 'ok', reason }, 200);
    },
  );
  return r;
}
