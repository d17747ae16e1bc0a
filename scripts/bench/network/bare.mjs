/**
 * The baseline server of the network benchmark, run inside the server's namespace: a bare
 * node:http server answering `GET /blob/<bytes>` with that many bytes (no compression, no
 * framework), so each phase can be compared with a static file of the same size moved over
 * the same shaped link at the same time.
 */
import { createServer } from 'node:http';

const [host, port] = [process.argv[2], Number(process.argv[3])];
const cache = new Map();
const server = createServer((req, res) => {
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
server.listen(port, host, () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
