/**
 * HTTP routes of the examiners' verdicts on generated questions (issue 39 §2;
 * docs/api-overview.md, "Generation verdicts"): record a batch, export (JSON or CSV), a
 * summary with the workspace's model, and reset. All require the API key and see only the
 * key's workspace (docs/design.md §4); recording and resetting are audited.
 */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { requireApiKey } from '../../hall/auth.js';
import { ValidationError } from '../../platform/errors.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { sendFile } from '../../uploads/http.js';
import { listVerdicts, recordVerdicts, resetVerdicts, verdictsCsv, verdictSummary } from './verdict-store.js';

/** Most verdicts in one batch (a generate response holds at most 50 questions: four rounds' worth). */
export const MAX_VERDICTS = 200;
/** Most features one item may carry. */
const MAX_FEATURES = 200;

const featuresSchema = z
  .record(z.string().min(1).max(64), z.number().finite())
  .refine((f) => Object.keys(f).length <= MAX_FEATURES, `at most ${MAX_FEATURES} features`)
  .openapi({ description: "The item's quality features when generated ({name: number}); default the item's own `quality.features`" });
const itemSchema = z
  .object({ type: z.string().min(1).max(32), prompt: z.string().min(1).max(20_000) })
  .passthrough()
  .openapi({ description: 'The item exactly as the generate response gave it' });

const verdictSchema = z
  .object({
    verdict: z.enum(['keep', 'edit', 'discard']),
    item: itemSchema,
    features: featuresSchema.optional(),
    edited: itemSchema.optional().openapi({ description: 'The item as imported after the edit: required for "edit", refused otherwise' }),
  })
  .superRefine((v, ctx) => {
    if (v.verdict === 'edit' && !v.edited) ctx.addIssue({ code: 'custom', path: ['edited'], message: 'required when verdict is "edit"' });
    if (v.verdict !== 'edit' && v.edited) ctx.addIssue({ code: 'custom', path: ['edited'], message: 'only for verdict "edit"' });
  });

const batchSchema = z
  .object({
    engine: z.string().min(1).max(200).openapi({ description: "The generate response's `engine`" }),
    examId: z.string().min(1).max(64).optional().openapi({ description: 'The exam the items were generated for (an exam of this workspace)' }),
    examiner: z.string().trim().min(1).max(200).optional().openapi({ description: 'Who judged, as the examiner names themself' }),
    verdicts: z.array(verdictSchema).min(1).max(MAX_VERDICTS),
  })
  .openapi('GenerationVerdicts');

const summarySchema = z
  .object({
    counts: z.object({ keep: z.number().int(), edit: z.number().int(), discard: z.number().int(), total: z.number().int() }),
    model: z.object({
      version: z.string(),
      judgements: z.number().int().openapi({ description: "Verdicts folded into the workspace's model (0: the base model)" }),
      threshold: z.number(),
    }),
  })
  .openapi('GenerationVerdictSummary');

const storedSchema = z.object({
  id: z.string(),
  examId: z.string().nullable(),
  examiner: z.string().nullable(),
  engine: z.string(),
  verdict: z.enum(['keep', 'edit', 'discard']),
  item: z.unknown(),
  features: z.record(z.string(), z.number()),
  edited: z.unknown(),
  createdAt: z.number().int().openapi({ description: 'epoch ms' }),
});

/** Router for /api/cbt/ai/generation-verdicts*. */
export function verdictRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/api/cbt/ai/generation-verdicts', requireApiKey(deps));
  r.use('/api/cbt/ai/generation-verdicts/*', requireApiKey(deps));

  r.openapi(
    createRoute({
      method: 'post',
      path: '/api/cbt/ai/generation-verdicts',
      tags: ['Generation'],
      security: keySecurity,
      summary: "Record the examiner's keep / edit / discard verdicts on generated questions (audited)",
      description:
        `1–${MAX_VERDICTS} verdicts in one transaction with one audit row (generation.verdicts.record). The admin page sends them when the examiner imports the kept questions: kept unchanged = keep, edited = edit (with the edited item), dropped = discard. ` +
        "They feed this workspace's quality model only: its next generation is scored with the base model refitted on them.",
      request: { body: jsonBody(batchSchema) },
      responses: { 201: jsonResponse(z.object({ recorded: z.number().int(), summary: summarySchema }), 'Recorded'), ...errorResponses, 404: problem('examId is not an exam of this workspace (nothing stored)') },
    }),
    (c) => c.json(recordVerdicts(deps, c.var.workspace.id, c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/api/cbt/ai/generation-verdicts',
      tags: ['Generation'],
      security: keySecurity,
      summary: "Export this workspace's verdicts (JSON, or CSV with format=csv)",
      request: { query: z.object({ format: z.enum(['json', 'csv']).default('json') }) },
      responses: {
        200: {
          description: 'Every verdict, oldest first: JSON `{verdicts, summary}`, or CSV (UTF-8 with BOM; id, createdAt, examId, examiner, engine, verdict, type, prompt, features, item, edited)',
          content: { 'application/json': { schema: z.object({ verdicts: z.array(storedSchema), summary: summarySchema }) }, 'text/csv': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        ...errorResponses,
      },
    }),
    (c) => {
      const verdicts = listVerdicts(deps, c.var.workspace.id);
      if (c.req.valid('query').format === 'csv') return sendFile(c, verdictsCsv(verdicts), 'text/csv; charset=utf-8', 'generation-verdicts.csv') as never;
      return c.json({ verdicts, summary: verdictSummary(deps, c.var.workspace.id) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/api/cbt/ai/generation-verdicts/summary',
      tags: ['Generation'],
      security: keySecurity,
      summary: "Verdict counts and the quality model this workspace's next generation uses",
      responses: { 200: jsonResponse(summarySchema, 'Summary'), ...errorResponses },
    }),
    (c) => c.json(verdictSummary(deps, c.var.workspace.id), 200),
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/api/cbt/ai/generation-verdicts',
      tags: ['Generation'],
      security: keySecurity,
      summary: "Delete every verdict of this workspace: its model returns to the base (audited)",
      description: 'Audited as generation.verdicts.reset with the counts deleted and the reason. `confirm=reset` is required, so a stray DELETE cannot empty the store.',
      request: { query: z.object({ confirm: z.string().optional(), reason: z.string().max(500).optional() }) },
      responses: { 200: jsonResponse(z.object({ deleted: z.number().int() }), 'Deleted'), ...errorResponses },
    }),
    (c) => {
      const q = c.req.valid('query');
      if (q.confirm !== 'reset') throw new ValidationError('Add confirm=reset to delete every verdict of this workspace.', [{ path: 'confirm', message: 'must be "reset"' }]);
      return c.json(resetVerdicts(deps, c.var.workspace.id, q.reason?.trim() || undefined), 200);
    },
  );
  return r;
}
