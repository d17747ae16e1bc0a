/**
 * `npm run hub`: the exam board's hub (issue #24). Parses the configuration (DATABASE_URL
 * required), migrates PostgreSQL, listens, and stops cleanly on SIGTERM/SIGINT. Any number
 * of these processes may serve the same halls against one PostgreSQL.
 */
import { serve } from '@hono/node-server';
import { jsonLogger } from '../platform/logger.js';
import { loadHubConfig } from './config.js';
import { createHubRuntime } from './runtime.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadHubConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  const logger = jsonLogger();
  const runtime = await createHubRuntime(config, logger);
  const server = serve({ fetch: runtime.app.fetch, port: config.HUB_PORT, hostname: config.HUB_HOST }, (info) => {
    console.log(`HallCBT hub listening on http://${config.HUB_HOST}:${info.port} (API reference at /docs)`);
    if (runtime.firstExaminer) {
      console.log(`First examiner API key (shown once, keep it safe): ${runtime.firstExaminer.apiKey}`);
      console.log(`Make the board's first account with it on the board's page: http://<this hub>:${info.port}/board → "First account (hub API key)"`);
    }
  });
  const stop = () => {
    server.close(() => {
      void runtime.close().then(() => process.exit(0));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  console.error(`The hub could not start: ${(e as Error).message}`);
  process.exit(1);
});
