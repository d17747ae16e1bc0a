/** Router factory of the hub: zod-openapi with the hall's validation hook (400 problem details). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { invalidInput } from '../platform/openapi.js';
import type { HubEnv } from './deps.js';

/** A new hub router whose request-validation failures become 400 problem details. */
export function createHubRouter(): OpenAPIHono<HubEnv> {
  return new OpenAPIHono<HubEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(result.target, result.error);
      return undefined;
    },
  });
}

/** `security` entry of examiner routes; hall routes are signed instead. */
export const examinerSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
export const hallSecurity: Record<string, string[]>[] = [{ hallSignature: [] }];
