/**
 * createHubApp(deps): the hub's HTTP application (issue #24 §6): JSON over HTTP, zod
 * schemas, /health, built in the shell both programs share (src/platform/http-app.ts:
 * request ids, body limit, RFC 7807 problem details for every error, 404/405, its own
 * OpenAPI document at /openapi.json and reference at /docs with local assets), and the
 * board's page at /board (src/hub/board-page.ts).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { createHttpApp } from '../platform/http-app.js';
import type { HubDeps, HubEnv } from './deps.js';
import { examinerRoutes } from './routes/examiner.js';
import { hallRoutes } from './routes/hall.js';
import { boardRoutes } from './routes/board.js';
import { serveBoardPage } from './board-page.js';

export const HUB_API_VERSION = '1.0.0';
/** Results and exam bodies can be large: 10 MB. */
const BODY_LIMIT = 10 * 1024 * 1024;

/** Builds the hub app from its deps. */
export function createHubApp(deps: HubDeps): OpenAPIHono<HubEnv> {
  const app = createHttpApp<HubEnv>({
    logger: deps.logger,
    bodyLimit: () => BODY_LIMIT,
    internalErrorDetail: 'Something went wrong on the hub; the error was logged with this request id.',
    api: {
      title: 'HallCBT hub API',
      version: HUB_API_VERSION,
      description: 'The exam board’s hub: halls, sealed papers, release codes and results across halls. Errors are RFC 7807 problem details.',
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <hub examiner API key, or a board session token from POST /hub/v1/board/sign-in>' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        hallSignature: { type: 'apiKey', in: 'header', name: 'x-hall-signature', description: 'Ed25519 signature of the request by an enrolled hall, with x-hall-id, x-hall-timestamp and x-hall-nonce (docs/hub-protocol.md)' },
      },
    },
  });

  app.route('/', examinerRoutes(deps));
  app.route('/', hallRoutes(deps));
  app.route('/', boardRoutes(deps));
  serveBoardPage(app);

  app.get('/health', async (c) => {
    await deps.db.execute(sql`select 1`);
    return c.json({ status: 'ok', version: HUB_API_VERSION, db: 'ok' });
  });
  return app;
}
