import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { reapIdleConnections, type IdleReaper } from '../../src/platform/idle-connections.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: Server;
let reaper: IdleReaper;
const clients: Socket[] = [];
afterEach(async () => {
  reaper.stop();
  clients.splice(0).forEach((c) => c.destroy());
  await new Promise((r) => server.close(r));
});

/** A real server on loopback: /slow answers after `ms` milliseconds of the query, anything else at once. */
async function start(idleMs: number, tickMs: number): Promise<number> {
  server = createServer((req, res) => {
    const ms = Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(() => res.end('ok'), ms);
  });
  reaper = reapIdleConnections(server, idleMs, tickMs);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** A raw keep-alive connection: `get(path)` sends a request and resolves with the response's text so far. */
async function client(port: number) {
  const s = connect(port, '127.0.0.1');
  clients.push(s);
  await new Promise((r) => s.once('connect', r));
  let closed = false;
  s.once('close', () => (closed = true));
  return {
    get closed() {
      return closed;
    },
    get(path: string) {
      return new Promise<string>((resolve) => {
        s.once('data', (d) => resolve(String(d)));
        s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
      });
    },
  };
}

describe('idle keep-alive connections', () => {
  it('closes a connection idle longer than the limit, and keeps one in use', async () => {
    const port = await start(300, 50);
    const idle = await client(port);
    const busy = await client(port);
    expect(await idle.get('/')).toMatch(/^HTTP\/1.1 200/);
    expect(reaper.size).toBe(1);
    // the busy one sends a request every 100 ms on the same connection for 700 ms
    for (let i = 0; i < 7; i++) {
      expect(await busy.get('/')).toMatch(/^HTTP\/1.1 200/);
      await sleep(100);
    }
    expect(idle.closed).toBe(true);
    expect(busy.closed).toBe(false);
    expect(reaper.size).toBe(1);
    // Node's own per-response timer is off
    expect(server.keepAliveTimeout).toBe(0);
  });

  it('does not close a connection while its response is in progress, and counts idle time from its end', async () => {
    const port = await start(300, 50);
    const slow = await client(port);
    const answered = slow.get('/slow?ms=700');
    await sleep(650);
    expect(slow.closed).toBe(false);
    expect(await answered).toMatch(/^HTTP\/1.1 200/);
    await sleep(150); // idle for less than the limit since the response ended
    expect(slow.closed).toBe(false);
    await sleep(400);
    expect(slow.closed).toBe(true);
  });
});

describe('idle close racing a request that is arriving (issue 20: resets under saturation)', () => {
  it('keeps a connection whose next request has started arriving, and answers it', async () => {
    const port = await start(300, 50);
    const s = connect(port, '127.0.0.1');
    clients.push(s);
    await new Promise((r) => s.once('connect', r));
    let closed = false;
    let received = '';
    s.on('data', (d) => (received += String(d)));
    s.once('close', () => (closed = true));
    s.on('error', () => {});
    s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => received).toMatch(/^HTTP\/1.1 200/);
    received = '';
    // the next save's first bytes arrive just before the idle limit; the rest after it
    await sleep(250);
    s.write('PUT /attempts/a/answers/q HTTP/1.1\r\nHost: x\r\n');
    // past the limit counted from the last whole request (closed between 350 and 400 ms)
    await sleep(200);
    expect(closed).toBe(false);
    s.write('Content-Length: 2\r\n\r\n{}');
    await expect.poll(() => received).toMatch(/^HTTP\/1.1 200/);
    expect(closed).toBe(false);
  });

  it('still closes it once nothing more arrives for the idle limit', async () => {
    const port = await start(300, 50);
    const s = connect(port, '127.0.0.1');
    clients.push(s);
    await new Promise((r) => s.once('connect', r));
    let closed = false;
    s.on('error', () => {});
    s.on('data', () => {});
    s.once('close', () => (closed = true));
    s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(100);
    s.write('GET / HTTP/1.1\r\n'); // a request that never completes
    await sleep(600);
    expect(closed).toBe(true);
  });
});
