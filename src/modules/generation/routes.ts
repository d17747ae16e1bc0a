/**
 * HTTP routes of question generation and essay grading (docs/api-overview.md, "POST
 * /api/cbt/ai/generate-questions", "POST /api/cbt/ai/grade-essay" and "POST
 * /api/cbt/ai/grade-essays"; docs/design.md §10). All require the API key. Generated questions are returned for review, never stored.
 */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { requireApiKey } from '../../hall/auth.js';
import { PayloadTooLarge, ValidationError } from '../../platform/errors.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, ProblemSchema, z } from '../../platform/openapi.js';
import { MAX_MATERIAL_BYTES, type UploadedFile } from '../../uploads/material/read-material.js';
import {
  DEFAULT_COUNT,
  GenerateFormSchema,
  GenerateResponseSchema,
  GradeEssayRequestSchema,
  GradeEssayResponseSchema,
  GradeEssaysRequestSchema,
  GradeEssaysResponseSchema,
  MAX_COUNT,
  type GeneratedType,
} from '../../core/generation/schemas.js';
import { createGenerationService } from './service.js';
import { streamedForm, streamedUpload } from '../../uploads/streamed-upload.js';
import { workspaceQualityModel } from './verdict-store.js';

/** The response header naming the quality model the items were scored with (issue 39 §2). */
export const QUALITY_MODEL_HEADER = 'x-cbt-quality-model';

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });

/** A multipart file field as bytes, or undefined when absent (browsers send an empty nameless file). */
async function fileOf(value: unknown, field: string): Promise<UploadedFile | undefined> {
  if (value === undefined || value === null || value === '') return undefined;
  if (!(value instanceof Blob)) throw new ValidationError(`The field "${field}" must be a file.`, [{ path: field, message: 'not a file' }]);
  const name = value instanceof File ? value.name : '';
  // streamed (streamedForm): the bytes are in the job process already; else the Blob's copy
  const streamed = streamedUpload(value);
  const size = streamed ? streamed.size : value.size;
  if (size === 0 && !name) return undefined;
  if (size > MAX_MATERIAL_BYTES) throw new PayloadTooLarge(MAX_MATERIAL_BYTES);
  if (streamed) return { bytes: streamed, head: streamed.head, size, name, type: value.type };
  return { bytes: new Uint8Array(await value.arrayBuffer()), name, type: value.type };
}

/** Router for /api/cbt/ai/*. */
export function generationRoutes(deps: HallDeps) {
  const r = createRouter();
  const service = createGenerationService({ config: deps.config, logger: deps.logger, jobs: deps.jobs });
  r.use('/api/cbt/ai/*', requireApiKey(deps));

  r.openapi(
    createRoute({
      method: 'post',
      path: '/api/cbt/ai/generate-questions',
      tags: ['Generation'],
      security: keySecurity,
      summary: 'Generate questions from material or notes, for review (not stored)',
      middleware: [streamedForm(deps.jobs, MAX_MATERIAL_BYTES)] as const,
      description:
        'Reads the file (PDF per page, DOCX/TXT/Markdown per paragraph, PPTX per slide, audio/video through captions or offline speech recognition) and/or the notes, and returns questions grounded in cited passages. ' +
        '`engine` is "hallcbt-extractive-1" (built-in, deterministic) or the configured LLM model; `warnings` tells the examiner about low-confidence transcripts, fallbacks and easier tiers.',
      request: { body: { required: true, content: { 'multipart/form-data': { schema: GenerateFormSchema } } } },
      responses: {
        200: {
          ...jsonResponse(GenerateResponseSchema, 'Generated questions'),
          headers: z.object({
            [QUALITY_MODEL_HEADER]: z.string().openapi({ description: "The quality model the items were scored with, `<version>; judgements=<n>`: the base refitted on this workspace's n verdicts (GET /api/cbt/ai/generation-verdicts/summary)", example: 'base-2026-11-28; judgements=0' }),
          }),
        },
        ...errorResponses,
        413: problem('File larger than 40 MB; an archive (.docx, .pptx) that would unpack to more than 160 MB or one part to more than 64 MB; or a file that needs more memory to read than one upload may use'),
        415: problem('Unsupported file type, or contents that do not match the claimed type'),
        422: problem('No usable text in the material; or an archive that is damaged or lies about its sizes'),
        429: problem('This workspace already has 2 uploads being read or waiting (code UPLOAD_QUOTA; Retry-After)'),
        503: problem('A media tool (ffmpeg, pocketsphinx, whisper.cpp) is not installed; or other uploads are being read and 4 wait (code BUSY; Retry-After)'),
      },
    }),
    async (c) => {
      const form = c.req.valid('form');
      const requested = form.count === undefined ? DEFAULT_COUNT : Number(form.count.trim());
      if (requested < 1) throw new ValidationError('count must be at least 1.', [{ path: 'count', message: 'must be at least 1' }]);
      // This workspace's verdicts only (docs/decisions.md, "Generation verdicts are stored per workspace").
      const quality = workspaceQualityModel(deps, c.var.workspace.id);
      const result = await service.generate({
        material: { file: await fileOf(form.file, 'file'), captions: await fileOf(form.captions, 'captions'), notes: form.notes },
        difficulty: form.difficulty ?? 'balanced',
        count: Math.min(requested, MAX_COUNT),
        subject: form.subject?.trim() || undefined,
        types: form.types ? (form.types.split(',').map((t) => t.trim()) as GeneratedType[]) : undefined,
        qualityModel: quality,
      });
      if (requested > MAX_COUNT) result.warnings.unshift(`count was capped at ${MAX_COUNT} (asked for ${requested}).`);
      c.header(QUALITY_MODEL_HEADER, `${quality.version}; judgements=${quality.judgements}`);
      return c.json(result, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/api/cbt/ai/grade-essay',
      tags: ['Generation'],
      security: keySecurity,
      summary: 'Recommend rubric scores and feedback for an essay answer (the examiner approves or adjusts)',
      description:
        'Scores each rubric criterion in half marks from the key ideas of the criterion and the model answer that the response covers, with a deduction outside minWords/maxWords. ' +
        '`engine` is "hallcbt-rubric-1" (built-in) or the configured LLM model.',
      request: { body: jsonBody(GradeEssayRequestSchema) },
      responses: { 200: jsonResponse(GradeEssayResponseSchema, 'Recommended scores'), ...errorResponses },
    }),
    async (c) => c.json(await service.grade(c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/api/cbt/ai/grade-essays',
      tags: ['Generation'],
      security: keySecurity,
      summary: "Recommend marks for one question's scripts, learning the examiner's scale from the scripts already marked",
      description:
        'Send every script of one question (1-500), with `examinerScore` on those the examiner has marked. The built-in rubric engine (or the configured LLM) grades each script; ' +
        "with examiner marks, its raw evidence (rubric-point coverage, WordNet and stem matching, similarity to the model answer) is fitted to the examiner's marks by a monotone fit and blended with the marks of the most similar marked scripts, refitted on every request (nothing is stored). " +
        'Returns one recommendation per unmarked script (`calibrated` true once any script is marked; `confidence` "low" where the engine alone cannot vouch for a low mark) and `markFirst`: the unmarked scripts to mark next, most informative first. ' +
        '`engine` is "hallcbt-calibrated-1" (the rubric engine, learning from the examiner), or "hallcbt-calibrated-1+<model>" when the configured LLM graded every script: its marks are the evidence the same calibration fits to the examiner\'s (docs/llm.md). ' +
        'The body is at most 8 MB (413).',
      request: { body: jsonBody(GradeEssaysRequestSchema) },
      responses: { 200: jsonResponse(GradeEssaysResponseSchema, 'Recommendations and the scripts to mark next'), ...errorResponses },
    }),
    async (c) => c.json(await service.gradeBatch(c.req.valid('json')), 200),
  );

  return r;
}
