/** zod shapes of the workspace endpoints (docs/api-overview.md, "Workspace", docs/design.md §4). */
import { z } from '@hono/zod-openapi';

const email = z.string().trim().max(254).email();

export const registerStandaloneSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    ownerName: z.string().trim().min(1).max(200),
    email,
    /** optional: an offline centre leaves it out and its events wait in the outbox until PATCH /workspaces/me sets one */
    webhookUrl: z.string().trim().url().max(2000).refine((u) => /^https?:\/\//i.test(u), 'webhookUrl must be an http(s) URL').optional(),
  })
  .openapi('RegisterStandalone');

export const registerStandaloneResponse = z
  .object({ id: z.string(), name: z.string(), type: z.string(), credits: z.number().int(), apiKey: z.string(), webhookSecret: z.string() })
  .openapi('RegisteredWorkspace');

export const loginSchema = z
  .object({
    email,
    password: z.string().min(1).max(1024),
    /** false: an unknown e-mail gets 404 NO_SUCH_HALL instead of a new workspace (the admin page asks first) */
    createIfMissing: z.boolean().optional().openapi({ description: 'Default true (the spec’s sign-in-or-sign-up). false: an e-mail no workspace uses answers 404 NO_SUCH_HALL and nothing is created, so a page can ask before creating a hall.' }),
  })
  .openapi('Login');

export const countSchema = z.object({ exams: z.number().int(), questions: z.number().int() });

export const loginResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerName: z.string(),
    ownerEmail: z.string(),
    credits: z.number().int(),
    apiKey: z.string(),
    _count: countSchema,
  })
  .openapi('LoginResponse');

export const institutionSchema = z
  .object({ schoolId: z.string().trim().min(1).max(128), schoolName: z.string().trim().min(1).max(200), email })
  .openapi('InstitutionSignOn');

export const institutionResponse = loginResponse.extend({ type: z.string(), schoolId: z.string() }).openapi('InstitutionWorkspace');

export const workspaceMeResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    ownerName: z.string(),
    ownerEmail: z.string(),
    credits: z.number().int(),
    webhookUrl: z.string().nullable(),
    hasPassword: z.boolean(),
    schoolId: z.string().nullable(),
    createdAt: z.string(),
    _count: countSchema,
    rosterWaiting: z
      .array(z.object({ examId: z.string(), title: z.string(), waiting: z.number().int() }))
      .openapi({ description: 'Exams (not yet closed) whose roster lists candidates with no attempt yet, most waiting first (at most 20); each will spend a credit when they start' }),
  })
  .openapi('Workspace');

export const patchWorkspaceSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    webhookUrl: z.string().trim().url().max(2000).refine((u) => /^https?:\/\//i.test(u), 'webhookUrl must be an http(s) URL').optional(),
  })
  .openapi('WorkspacePatch');

export const setPasswordSchema = z.object({ password: z.string().min(8, 'Passwords have at least 8 characters').max(1024) }).openapi('SetPassword');

export const auditEntrySchema = z
  .object({ id: z.string(), action: z.string(), targetType: z.string(), targetId: z.string(), reason: z.string().nullable(), detail: z.unknown().nullable(), createdAt: z.string() })
  .openapi('AuditEntry');
