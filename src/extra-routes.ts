/**
 * Routers of the optional modules (imports and exports, item analysis, generation,
 * backups), mounted by createApp after the core ones.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from './platform/deps.js';

/** The extra routers for these deps. */
export function extraRouters(_deps: AppDeps): OpenAPIHono<AppEnv>[] {
  return [];
}
