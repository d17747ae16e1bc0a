/**
 * The composition root (docs/design.md §13): parse config, open and migrate the database, start
 * the scheduled jobs, serve HTTP (or HTTPS when CBT_TLS_CERT/CBT_TLS_KEY are set), print
 * the LAN URLs, serve the candidates' save channel (WebSocket upgrades), and on
 * SIGTERM/SIGINT stop accepting, close the channels, flush the answer buffer and close
 * the database.
 */
import { createAdaptorServer } from '@hono/node-server';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { loadConfig } from './platform/config.js';
import { reapIdleConnections } from './platform/idle-connections.js';
import { jsonLogger } from './platform/logger.js';
import { createRuntime } from './runtime.js';
import { reachableUrls } from './modules/system/index.js';
import { ensureOperatorCredential } from './hall/operator.js';
import { startJobLauncher } from './uploads/job-launcher.js';
import { attachSaveChannel } from './modules/candidate/index.js';
import { attachHallFastPaths } from './app.js';

/** The listen queue of connections not accepted yet (see the listen call below). */
const LISTEN_BACKLOG = 4096;

function main(): void {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  // the process that starts job processes, forked now while this heap is small: the
  // server itself forks no more during an exam (uploads/job-launcher.ts)
  startJobLauncher();
  const logger = jsonLogger();
  const rt = createRuntime(config, logger);
  // a fresh data directory without scripts/install (e.g. `npm start` on a clone): make the
  // hall operator's credential now and show it once in the banner below
  const operatorCredential = ensureOperatorCredential(config.DATA_DIR);
  if (operatorCredential) logger.info('operator credential created', { file: 'operator.key' });
  const tls = config.CBT_TLS_CERT && config.CBT_TLS_KEY ? { cert: readFileSync(config.CBT_TLS_CERT), key: readFileSync(config.CBT_TLS_KEY) } : null;
  const server = createAdaptorServer({
    fetch: rt.app.fetch,
    hostname: config.HOST,
    ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}),
  });
  // The hall's PCs connect all at once at exam start. With Node's default listen backlog
  // (511) a simulated hall of 1,000 overflowed the accept queue 594 times (issue 26,
  // scripts/bench/network): each overflow drops the handshake and costs that PC a SYN
  // retry of 1 s or more. The kernel caps the value at net.core.somaxconn (4096 by default
  // since Linux 5.4); a queued connection costs only kernel memory.
  server.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG }, () => {
    const info = server.address() as AddressInfo;
    rt.port.value = info.port;
    const { urls, thisMachineOnly } = reachableUrls(config.HOST, info.port, !!tls);
    logger.info('listening', { port: info.port, host: config.HOST, urls });
    const only = thisMachineOnly ? `\n  Only this machine can open it (HOST=${config.HOST}); to let the hall PCs in, start it with HOST=0.0.0.0.` : '';
    process.stdout.write(`\nHallCBT is running.\n  Candidates open: ${urls[0]}\n  Invigilators open: ${urls[0]}admin\n  Every address: ${urls.join('  ')}${only}\n\n`);
    if (operatorCredential) {
      process.stdout.write(`  Hall operator credential (backups, on the admin page's "Hall operator" sign-in).\n  It is shown only this once; write it down and keep it safe:\n\n    ${operatorCredential}\n\n  A new one: node scripts/operator rotate --data-dir ${config.DATA_DIR}\n\n`);
    }
  });
  // the live answer save answered before hono (modules/candidate/lean-save.ts)
  attachHallFastPaths(server as unknown as HttpServer, rt.deps);
  // many idle keep-alive candidates: keep connections open between saves, and close
  // them after 65 s idle without a timer per response (platform/idle-connections.ts)
  const idle = reapIdleConnections(server as unknown as HttpServer, 65_000);
  // the candidates' save channel, one WebSocket each (modules/candidate/save-channel.ts)
  const channels = attachSaveChannel(server as unknown as HttpServer, rt.deps);
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
    channels.close();
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
