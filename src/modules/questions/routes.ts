/** HTTP routes of questions: bulk ingestion, read, patch, delete, rubric templates. */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { bulkQuestionsSchema, questionPatchSchema, storedQuestionSchema } from '../../core/questions/schemas.js';
import { deleteQuestion, getQuestionInWorkspace, insertQuestions, patchQuestion, serializeQuestion } from './service.js';
import { RUBRIC_TEMPLATES } from '../../core/questions/rubric-templates.js';
import { NotFound } from '../../platform/errors.js';

const idParam = z.object({ id: z.string().min(1).max(64) });

/** Question router. */
export function questionRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  r.use('/questions/*', auth);
  r.use('/rubric-templates', auth);

  r.openapi(
    createRoute({
      method: 'post',
      path: '/questions/bulk',
      tags: ['Questions'],
      security: keySecurity,
      summary: 'Bulk ingest questions (all-or-nothing, ≤ 500)',
      description:
        'Each item is a QuestionInput (its text and maths limits are in its field descriptions). The exam as a whole holds at most 2,000 questions, 100,000 characters of prompts and options, 1,500 maths spans ($…$), 10,000 characters of TeX and 1,000,000 authored characters: the question that would cross one is refused with 400 `errors: [{index, path: "(paper)", message}]` and nothing is stored (docs/decisions.md, "Paper size limits"). The same limits apply to PATCH /questions/{id} and to every import.',
      request: { body: jsonBody(bulkQuestionsSchema, 'questions: array of QuestionInput') },
      responses: {
        201: jsonResponse(z.object({ success: z.boolean(), examId: z.string(), created: z.number().int(), questions: z.array(storedQuestionSchema) }), 'Stored'),
        ...errorResponses,
      },
    }),
    (c) => {
      const body = c.req.valid('json');
      if (body.workspaceId !== c.var.workspace.id) throw new NotFound('Workspace');
      const questions = insertQuestions(deps, c.var.workspace.id, body.examId, body.questions);
      return c.json({ success: true, examId: body.examId, created: questions.length, questions }, 201);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/questions/{id}', tags: ['Questions'], security: keySecurity, summary: 'A question (examiner view)', request: { params: idParam }, responses: { 200: jsonResponse(storedQuestionSchema, 'Question'), ...errorResponses } }),
    (c) => c.json(serializeQuestion(getQuestionInWorkspace(deps, c.var.workspace.id, c.req.valid('param').id)), 200),
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/questions/{id}', tags: ['Questions'], security: keySecurity, summary: 'Edit a question', description: 'The merged question is validated as a QuestionInput, and the exam against its paper size limits (docs/decisions.md, "Paper size limits"); a change that makes no measure larger is accepted even on an exam stored over them.', request: { params: idParam, body: jsonBody(questionPatchSchema) }, responses: { 200: jsonResponse(storedQuestionSchema, 'Question'), ...errorResponses } }),
    (c) => c.json(patchQuestion(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/questions/{id}', tags: ['Questions'], security: keySecurity, summary: 'Delete a question', request: { params: idParam }, responses: { 204: { description: 'Deleted' }, ...errorResponses } }),
    (c) => {
      deleteQuestion(deps, c.var.workspace.id, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/rubric-templates',
      tags: ['Questions'],
      security: keySecurity,
      summary: 'Rubric families WAEC, Cambridge, STEM',
      responses: { 200: jsonResponse(z.array(z.object({ family: z.string(), name: z.string(), criteria: z.array(z.object({ title: z.string(), weight: z.number(), description: z.string() })) })), 'Templates'), ...errorResponses },
    }),
    (c) => c.json(RUBRIC_TEMPLATES as unknown as { family: string; name: string; criteria: { title: string; weight: number; description: string }[] }[], 200),
  );
  return r;
}
