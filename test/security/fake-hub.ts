/**
 * A hostile "hub" on loopback for the hub-link tests (issue #34, finding 1): it answers a
 * hall's enrolment with a properly signed enrolment envelope (so the link is made), then
 * answers every later request the way `reply` says — a gzip bomb, an oversized plain body,
 * bad JSON, a wrong signature, an error status, or no answer at all. It records every
 * request it receives (path, and when its socket closed) so a test can see polling and
 * aborts from outside the hall.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { newSigningKeyPair, sealEnvelope } from '../../src/core/sync/signing.js';

export type FakeReply = 'bomb' | 'oversized' | 'bad-json' | 'bad-signature' | 'error-500' | 'hang' | 'empty-list';

export interface FakeHub {
  url: string;
  hallId: string;
  /** what the next requests (other than enrolment) get */
  reply: FakeReply;
  /** every request after enrolment: path, arrival time, and when its socket closed (ms epoch) */
  requests: { path: string; at: number; closedAt: number | null }[];
  close(): Promise<void>;
}

/**
 * The gzip bomb: a JSON array holding one string of `inflatedBytes` 'a's, gzip-compressed
 * (about 1,000 : 1). Built by streaming, so the test process never holds the inflated text.
 */
export async function gzipBomb(inflatedBytes: number): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((r) => gz.on('end', () => r()));
  gz.write('[{"packageId":"');
  const chunk = Buffer.alloc(1 << 20, 'a');
  for (let left = inflatedBytes; left > 0; left -= chunk.length) {
    if (!gz.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((r) => gz.once('drain', r));
  }
  gz.end('"}]');
  await done;
  return Buffer.concat(out);
}

/** Starts the fake hub on 127.0.0.1 with `reply` for every request after enrolment. */
export async function startFakeHub(opts: { reply: FakeReply; bomb?: Buffer; oversizedBytes?: number }): Promise<FakeHub> {
  const keys = newSigningKeyPair();
  const hallId = `hall_fake${Math.random().toString(36).slice(2, 8)}`;
  const open = new Set<ServerResponse>();
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/hub/v1/enrol') {
      const env = sealEnvelope(keys.privateKey, { kind: 'hallcbt.enrolment.v1', hallId, hallName: 'Fake', hubPublicKey: keys.publicKey, issuedAt: new Date().toISOString() });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(env));
      return;
    }
    const entry = { path: req.url ?? '', at: Date.now(), closedAt: null as number | null };
    hub.requests.push(entry);
    res.on('close', () => (entry.closedAt = Date.now()));
    switch (hub.reply) {
      case 'bomb':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(opts.bomb!.length) }).end(opts.bomb);
        return;
      case 'oversized': {
        // chunked, no length announced: only counting the stream can stop it
        res.writeHead(200, { 'content-type': 'application/json' });
        const piece = Buffer.alloc(1 << 20, 'b');
        let left = opts.oversizedBytes ?? 64 << 20;
        res.write('[{"packageId":"');
        const pump = () => {
          while (left > 0) {
            left -= piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end('"}]');
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      case 'bad-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"packages": [ not json');
        return;
      case 'bad-signature':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ packageId: 'pkg_x' }]));
        return;
      case 'error-500':
        res.writeHead(500, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'boom', detail: 'internal' }));
        return;
      case 'hang':
        open.add(res);
        return;
      case 'empty-list':
        res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/hub/v1/packages' ? '[]' : '{}');
        return;
    }
  };
  const server: Server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const hub: FakeHub = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hallId,
    reply: opts.reply,
    requests: [],
    async close() {
      for (const res of open) res.destroy();
      (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return hub;
}
