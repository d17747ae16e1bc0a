/**
 * Router factory: every module builds its routes on an OpenAPIHono whose request
 * validation failures become 400 problem details listing `errors: [{path, message}]`
 * (docs/design.md §9). The OpenAPI 3.1 document at /openapi.json is generated from these
 * same zod schemas.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { ValidationError, type FieldError } from './errors.js';
import type { AppEnv } from './deps.js';

/** zod issues → `[{path: "questions.3.options", message}]`. */
export function zodFieldErrors(err: ZodError, prefix: (string | number)[] = []): FieldError[] {
  return err.issues.map((i) => ({ path: [...prefix, ...i.path].map(String).join('.') || '(body)', message: i.message }));
}

/** The 400 problem for input that failed its zod schema; `target` is hono's validation target ('json', 'param', 'query', …). */
export function invalidInput(target: string, error: ZodError): ValidationError {
  const where = target === 'json' ? 'request body' : target === 'query' ? 'query string' : target === 'param' ? 'path' : target;
  const errors = zodFieldErrors(error);
  return new ValidationError(`The ${where} is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).slice(0, 3).join('; ')}`, errors);
}

/** A new module router with the shared validation hook. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(result.target, result.error);
      return undefined;
    },
  });
}

/** Problem-details response schema, referenced by every route's error responses. */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    requestId: z.string(),
    code: z.string().optional(),
    attemptStatus: z.enum(['IN_PROGRESS', 'COMPLETED', 'DISQUALIFIED']).optional().openapi({ description: 'The attempt’s state, when a locked attempt refused the request' }),
    errors: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .openapi('Problem');

/**
 * A problem-details response for OpenAPI route definitions. `description` says what that
 * status means on that route (never a borrowed "Not found"): test/core/openapi-responses.test.ts.
 */
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ProblemSchema } } });

/** Standard error responses of the routes that take an API key. */
export const errorResponses = {
  400: problem('Validation failure'),
  401: problem('API key missing or invalid'),
  404: problem('Not found (or outside the caller’s workspace)'),
  429: problem('Rate limit exceeded'),
} as const;

/** Standard error responses of the routes that take no API key (limited per address or per attempt). */
export const publicErrorResponses = {
  400: problem('Validation failure'),
  429: problem('Rate limit exceeded'),
} as const;

/** `security` entry for key-protected routes. */
export const keySecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
/** Security of whole-appliance routes: the hall operator's credential (src/hall/operator.ts). */
export const operatorSecurity: Record<string, string[]>[] = [{ operatorKeyHeader: [] }];

/** JSON request body helper for createRoute. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { required: true, description, content: { 'application/json': { schema } } };
}

/** JSON response helper for createRoute. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export { z };
