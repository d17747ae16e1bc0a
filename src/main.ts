/**
 * The composition root (STYLE): parse config, open and migrate the database, start
 * the scheduled jobs, serve HTTP (or HTTPS when CBT_TLS_CERT/CBT_TLS_KEY are set), print
 * the LAN URLs, and on SIGTERM/SIGINT stop accepting, flush the answer buffer and close
 * the database.
 */
import { serve } from '@hono/node-server';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { loadConfig } from './platform/config.js';
import { reapIdleConnections } from './platform/idle-connections.js';
import { jsonLogger } from './platform/logger.js';
import { createRuntime } from './runtime.js';
import { reachableUrls } from './modules/system/urls.js';

function main(): void {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const logger = jsonLogger();
  const rt = createRuntime(config, logger);
  const tls = config.CBT_TLS_CERT && config.CBT_TLS_KEY ? { cert: readFileSync(config.CBT_TLS_CERT), key: readFileSync(config.CBT_TLS_KEY) } : null;
  const server = serve(
    {
      fetch: rt.app.fetch,
      port: config.PORT,
      hostname: config.HOST,
      ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}),
    },
    (info: AddressInfo) => {
      rt.port.value = info.port;
      const { urls, thisMachineOnly } = reachableUrls(config.HOST, info.port, !!tls);
      logger.info('listening', { port: info.port, host: config.HOST, urls });
      const only = thisMachineOnly ? `\n  Only this machine can open it (HOST=${config.HOST}); to let the hall PCs in, start it with HOST=0.0.0.0.` : '';
      process.stdout.write(`\nHallCBT is running.\n  Candidates open: ${urls[0]}\n  Invigilators open: ${urls[0]}admin\n  Every address: ${urls.join('  ')}${only}\n\n`);
    },
  );
  // many idle keep-alive candidates: keep connections open between saves, and close
  // them after 65 s idle without a timer per response (platform/idle-connections.ts)
  const idle = reapIdleConnections(server as unknown as HttpServer, 65_000);
  (server as unknown as { headersTimeout: number }).headersTimeout = 66_000;
  rt.startJobs();
  // scripts/restore refuses to run while this file names a live process
  const pidFile = join(config.DATA_DIR, 'hallcbt.pid');
  writeFileSync(pidFile, String(process.pid), { mode: 0o600 });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    idle.stop();
    server.close();
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    void rt.shutdown().then(() => {
      rmSync(pidFile, { force: true });
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('exit', () => logger.flush());
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main();
