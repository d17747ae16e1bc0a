/** HTTP routes of exams: create, list, read (with questions), edit, delete, duplicate, pause/resume, reorder. */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import * as s from '../../core/exams/schemas.js';
import * as svc from './service.js';
import { listExamQuestions } from '../questions/index.js';
import { sebBaseUrlFor } from '../seb/index.js';

const conflict = problem('The room code is taken by another exam (ACCESS_CODE_TAKEN), the exam has attempts and cannot be deleted (EXAM_HAS_ATTEMPTS), or publishing it is refused because a section draws more questions than it has (SECTION_DRAW_TOO_LARGE)');

/** Exam router. */
export function examRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  r.use('/exams', auth);
  r.use('/exams/*', auth);

  r.openapi(
    createRoute({ method: 'post', path: '/exams', tags: ['Exams'], security: keySecurity, summary: 'Create and schedule an exam', request: { body: jsonBody(s.createExamSchema) }, responses: { 201: jsonResponse(s.examSchema, 'Created'), 409: conflict, ...errorResponses } }),
    (c) => c.json(svc.serializeExam(svc.createExam(deps, c.var.workspace.id, c.req.valid('json'), () => sebBaseUrlFor(deps, c))), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/exams', tags: ['Exams'], security: keySecurity, summary: 'List the exam rooms of a workspace', request: { query: z.object({ workspaceId: z.string().min(1) }) }, responses: { 200: jsonResponse(z.array(s.examListItemSchema), 'Exams'), ...errorResponses } }),
    (c) => c.json(svc.listExams(deps, c.var.workspace.id, c.req.valid('query').workspaceId), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}', tags: ['Exams'], security: keySecurity, summary: 'An exam with its questions (answer keys included)', request: { params: s.examIdParam }, responses: { 200: jsonResponse(s.examDetailSchema, 'Exam'), ...errorResponses } }),
    (c) => {
      const e = svc.getExamInWorkspace(deps, c.var.workspace.id, c.req.valid('param').id);
      return c.json({ ...svc.serializeExam(e), questions: listExamQuestions(deps, e.id) }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/exams/{id}', tags: ['Exams'], security: keySecurity, summary: 'Edit, schedule, publish or unpublish an exam', request: { params: s.examIdParam, body: jsonBody(s.patchExamSchema) }, responses: { 200: jsonResponse(s.examSchema, 'Exam'), 409: conflict, ...errorResponses } }),
    (c) => c.json(svc.serializeExam(svc.updateExam(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json'), () => sebBaseUrlFor(deps, c))), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/exams/{id}', tags: ['Exams'], security: keySecurity, summary: 'Delete an exam without attempts', request: { params: s.examIdParam }, responses: { 204: { description: 'Deleted' }, 409: conflict, ...errorResponses } }),
    (c) => {
      svc.deleteExam(deps, c.var.workspace.id, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/exams/{id}/duplicate', tags: ['Exams'], security: keySecurity, summary: 'Copy an exam and its questions (unpublished, new room code)', request: { params: s.examIdParam }, responses: { 201: jsonResponse(s.examSchema, 'Copy'), ...errorResponses } }),
    (c) => c.json(svc.serializeExam(svc.duplicateExam(deps, c.var.workspace.id, c.req.valid('param').id)), 201),
  );

  for (const action of ['pause', 'resume'] as const) {
    r.openapi(
      createRoute({ method: 'post', path: `/exams/{id}/${action}`, tags: ['Invigilation'], security: keySecurity, summary: action === 'pause' ? 'Pause the whole exam (the clock stops for everyone)' : 'Resume a paused exam', request: { params: s.examIdParam, body: jsonBody(s.reasonSchema) }, responses: { 200: jsonResponse(s.examSchema, 'Exam'), ...errorResponses } }),
      (c) => c.json(svc.serializeExam(svc.setPaused(deps, c.var.workspace.id, c.req.valid('param').id, action === 'pause', c.req.valid('json').reason)), 200),
    );
  }

  r.openapi(
    createRoute({ method: 'post', path: '/exams/{id}/questions/reorder', tags: ['Questions'], security: keySecurity, summary: 'Set the order of an exam’s questions', request: { params: s.examIdParam, body: jsonBody(z.object({ questionIds: z.array(z.string()).min(1).max(5000) })) }, responses: { 200: jsonResponse(z.object({ questionIds: z.array(z.string()) }), 'New order'), ...errorResponses } }),
    (c) => c.json({ questionIds: svc.reorderQuestions(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json').questionIds) }, 200),
  );
  return r;
}
