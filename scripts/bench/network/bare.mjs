/**
 * The baseline server of the network benchmark, run inside the server's namespace: a bare
 * node:http server answering `GET /blob/<bytes>` with that many bytes (no compression, no
 * framework), so each phase can be compared with a static file of the same size moved over
 * the same shaped link at the same time.
 *
 * It also receives the hall server's webhooks at `POST /hook` (204), as the exam board's
 * system would: a delivery that failed would be retried in the background during the
 * measured phases, work a hall whose webhook endpoint answers does not do.
 */
import { createServer } from 'node:http';

const [host, port] = [process.argv[2], Number(process.argv[3])];
const cache = new Map();
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/hook') {
    // the hall server's webhook deliveries (see the file's comment): read and acknowledged
    req.resume();
    req.on('end', () => res.writeHead(204).end());
    return;
  }
  const m = /^\/blob\/(\d{1,9})$/.exec(req.url ?? '');
  if (!m) {
    res.writeHead(404).end();
    return;
  }
  const n = Number(m[1]);
  let body = cache.get(n);
  if (!body) cache.set(n, (body = Buffer.alloc(n, 0x61)));
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
// the same listen backlog as the hall server (src/main.ts), so both meet the crowd alike
server.listen({ port, host, backlog: 4096 }, () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
