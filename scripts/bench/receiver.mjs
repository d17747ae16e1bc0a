/**
 * The webhook receiver of the submit surge: a real HTTP server on 127.0.0.1 standing in
 * for the school's results system. It answers 200 at once, verifies the `x-cbt-signature`
 * header (HMAC-SHA256 of the raw body with the workspace's webhook secret, hex, as
 * `sha256=<hex>` or bare hex), and records, per `exam.attempt.completed` event, when it
 * arrived (epoch ms) and which attempt it was for.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';

/** @returns {Promise<{url, arrivals: Map<string, number>, stats(), setSecret(s), close()}>} */
export async function startReceiver() {
  const arrivals = new Map(); // attemptId → epoch ms of first delivery
  let deliveries = 0;
  let duplicates = 0;
  let badSignatures = 0;
  let secret = null;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      const raw = Buffer.concat(chunks);
      deliveries++;
      if (secret) {
        const want = createHmac('sha256', secret).update(raw).digest('hex');
        const got = String(req.headers['x-cbt-signature'] ?? '').replace(/^sha256=/, '');
        if (got !== want) badSignatures++;
      }
      try {
        const ev = JSON.parse(raw.toString('utf8'));
        const id = ev?.data?.attemptId;
        if (ev?.type === 'exam.attempt.completed' && id) {
          if (arrivals.has(id)) duplicates++;
          else arrivals.set(id, at);
        }
      } catch {
        /* not JSON: counted as a delivery only */
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/hooks/hallcbt`,
    arrivals,
    /** Verifies signatures from now on with this webhook secret. */
    setSecret(s) {
      secret = s;
    },
    stats: () => ({ deliveries, duplicates, badSignatures, completed: arrivals.size }),
    /** Forgets what arrived (between runs). */
    reset() {
      arrivals.clear();
      deliveries = duplicates = badSignatures = 0;
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections?.();
      }),
  };
}
