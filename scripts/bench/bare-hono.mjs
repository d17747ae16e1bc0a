/**
 * Context figure: the stack's ceiling on this machine at this moment — a hono app with
 * one route and no middleware (@hono/node-server), in its own process, saturated like
 * the server's routes. The per-run ratios use the server's own bare route (same process,
 * same moment) as issue 8 asks; this only shows what the app's middleware costs on top.
 *
 * As a child (`--child`) it serves GET /bare, and PUT /attempts/:id/answers/:questionId
 * answering the save's response shape, on 127.0.0.1 and sends `{port}` over IPC.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { saturate } from './saturate.mjs';

const SELF = fileURLToPath(import.meta.url);

/**
 * Starts the bare app in its own process.
 * @returns {Promise<{url: string, pid: number, stop(): Promise<void>}>} url: its origin (GET url + '/bare')
 */
export async function startBareHono() {
  const child = fork(SELF, ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    exited.then((code) => reject(new Error(`bare hono exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill();
      await exited;
    },
  };
}

/** Starts the bare app, saturates it, stops it. Resolves the saturation figures. */
export async function measureBareHono({ satSeconds, satConnections }) {
  const bare = await startBareHono();
  try {
    return await saturate({ url: bare.url, connections: satConnections, seconds: satSeconds, kind: 'baseline', path: '/bare' });
  } finally {
    await bare.stop();
  }
}

if (process.argv.includes('--child')) {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.get('/bare', (c) => c.json({ ok: true }));
  // the save's request and response shapes with nothing behind them (saturation.mjs
  // --bare-put): what the same PUT list costs the generator and hono alone
  let seq = 0;
  app.put('/attempts/:id/answers/:questionId', async (c) => {
    const body = await c.req.json();
    seq++;
    return c.json({ saved: body && typeof body === 'object' ? 1 : 0, remainingSeconds: 3600, durableSeq: seq - 1, seq });
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ port: info.port }));
  server.keepAliveTimeout = 65_000;
}
