/**
 * Uploads stream from the socket into the job process (issue 22 §1; generation/
 * streamed-upload.ts), against the real server process: during one 39 MB upload the
 * server's RSS grows by less than the upload's size (it gathered the file in one buffer
 * before: +63 MB in this test); a file part over its route's cap is answered 413 while the
 * client is still sending, without the rest of the body; and the job process is kept
 * warm — the next job reuses it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longText } from '../../scripts/bench/bombs.mjs';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed } from '../../scripts/soak/seed.js';
import { freePort, jobChildPids, ServerProcess } from '../../scripts/soak/server-process.js';

const MB = 1024 * 1024;
const rssMB = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let server: ServerProcess;
let receiver: Receiver;
let hall: { apiKey: string; workspaceId: string; examId: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hallcbt-streamed-'));
  receiver = await startReceiver();
  server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* the seeded candidates all start from loopback */ } });
  server.spawn();
  await server.ready();
  const seeded = await seed(new JsonClient(server.baseUrl), receiver.url, 1, { objective: 2, essays: 0 });
  hall = seeded.halls[0]!;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A multipart body with `fields` and one file part of `bytes`. */
async function multipart(fields: Record<string, string>, name: string, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([bytes]), name);
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  return { type: encoded.headers.get('content-type')!, body: Buffer.from(await encoded.arrayBuffer()) };
}

/**
 * Sends a multipart upload without Content-Length (chunked), `total` bytes of file, in
 * 256 KB chunks at most as fast as the socket takes them, and stops sending once the
 * answer comes. Resolves with the status, the body and how many file bytes had been sent.
 */
function chunkedUpload(path: string, fields: Record<string, string>, name: string, total: number) {
  const boundary = '----hallcbt-test-boundary';
  const pre = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
  const url = new URL(path, server.baseUrl);
  return new Promise<{ status: number; body: any; sentBytes: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', 'x-api-key': hall.apiKey } }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), sentBytes: sent }));
      res.on('error', reject);
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.write(pre);
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      // all sent without an answer: the body is left open (the server must not wait for its end to answer)
    };
    pump();
  });
}

/**
 * Bytes the process's main thread (its event loop: where it reads sockets) has read through
 * read(2) and friends: `rchar` of /proc/<pid>/task/<pid>/io. Not /proc/<pid>/io, which adds
 * the counts of children once reaped (a retired job process read the body).
 */
const rchar = (pid: number) => Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/io`, 'utf8'))?.[1] ?? NaN);

/**
 * Sends `head` (request line and headers, with a Content-Length) and then `sendBytes` of
 * body, at most; `close` ends the connection once those are written instead of waiting
 * for the answer. Resolves with the raw answer (empty when there was none).
 */
function rawRequest(head: string, body: Buffer, opts: { sendBytes?: number; close?: boolean } = {}) {
  return new Promise<string>((resolve) => {
    const url = new URL(server.baseUrl);
    const chunks: Buffer[] = [];
    const sock = createConnection({ host: url.hostname, port: Number(url.port) }, () => {
      sock.write(head);
      const part = body.subarray(0, opts.sendBytes ?? body.length);
      sock.write(part, () => {
        if (opts.close) sock.destroy();
      });
    });
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', () => {});
    sock.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

describe('uploads stream into the job process (real server process)', () => {
  it('the job process reads a 39 MB body from the connection itself: the server reads almost none of it, and answers as before', async () => {
    const pid = server.pid!;
    const { type, body } = await multipart({ count: '3' }, 'notes.txt', longText(39));
    await sleep(300);
    const before = rchar(pid);
    const res = await fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body, headers: { 'content-type': type, 'x-api-key': hall.apiKey } });
    const json = await res.json();
    const read = rchar(pid) - before;
    expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(200);
    expect(json.truncated).toBe(true);
    // the answer carries the same headers as every answer, and closes the connection
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('connection')).toBe('close');
    console.log(`39 MB upload handed over: the server read ${(read / MB).toFixed(2)} MB (rchar) for a ${(body.length / MB).toFixed(1)} MB body`);
    // reading the body itself took the server's rchar past the body's size
    expect(read).toBeLessThan(4 * MB);
  }, 120_000);

  it('a 39 MB body refused by its Content-Length (413) is not read: the server reads almost none of it, and the client gets the 413', async () => {
    const pid = server.pid!;
    const { type, body } = await multipart({ workspaceId: hall.workspaceId, examId: hall.examId }, 'questions.txt', longText(39));
    await sleep(300);
    const before = rchar(pid);
    const head = `POST /questions/import-excel HTTP/1.1\r\nHost: x\r\nx-api-key: ${hall.apiKey}\r\ncontent-type: ${type}\r\ncontent-length: ${body.length}\r\n\r\n`;
    const answer = await rawRequest(head, body);
    // the connection stays open LINGER_MS after the answer; a server that reads on reads then
    await sleep(600);
    const read = rchar(pid) - before;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/[Cc]onnection: close/);
    console.log(`39 MB upload refused by its length: the server read ${(read / MB).toFixed(2)} MB (rchar)`);
    // reading and dropping the rest of the body (what Node does for an unread request) took it past the body's size
    expect(read).toBeLessThan(4 * MB);
  }, 120_000);

  it('a handed-over body cut short by its client passes the turn; a malformed one answers 400 as before', async () => {
    const { type, body } = await multipart({ count: '3' }, 'notes.txt', longText(8));
    const head = (len: number, ct = type) => `POST /api/cbt/ai/generate-questions HTTP/1.1\r\nHost: x\r\nx-api-key: ${hall.apiKey}\r\ncontent-type: ${ct}\r\ncontent-length: ${len}\r\n\r\n`;
    // 2 MB of 8, then the client goes away
    await rawRequest(head(body.length), body, { sendBytes: 2 * MB, close: true });
    // not a multipart form at all (no boundary in it): busboy's error, as when the server parsed it
    const junk = Buffer.alloc(2 * MB, 'x');
    const bad = await rawRequest(head(junk.length, 'multipart/form-data; boundary=nowhere'), junk);
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad).toMatch(/[Cc]onnection: close/);
    expect(bad).toContain('The multipart form could not be read');
    // a large form without a file (400 KB of notes) is handed over too: its turn passes before the engine's job takes one
    const notes = new FormData();
    notes.set('count', '2');
    notes.set('notes', longText(0.4).toString());
    const fromNotes = await fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body: notes, headers: { 'x-api-key': hall.apiKey } });
    expect(fromNotes.status, await fromNotes.clone().text()).toBe(200);
    expect(fromNotes.headers.get('connection')).toBe('close');
    // the turn passed: the next upload is read
    const { type: t2, body: b2 } = await multipart({ count: '2' }, 'notes.txt', longText(2));
    const next = await fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body: b2, headers: { 'content-type': t2, 'x-api-key': hall.apiKey } });
    expect(next.status, await next.clone().text()).toBe(200);
  }, 120_000);

  it('during a 39 MB upload the server RSS grows by less than the size of the upload', async () => {
    const pid = server.pid!;
    const { type, body } = await multipart({ count: '3' }, 'notes.txt', longText(39));
    // settle first: the seed's work is done
    await sleep(500);
    const before = rssMB(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 10);
    const res = await fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body, headers: { 'content-type': type, 'x-api-key': hall.apiKey } });
    clearInterval(timer);
    const json = await res.json();
    expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(200);
    expect(json.truncated).toBe(true);
    console.log(`streamed 39 MB upload: server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(1)})`);
    // gathered in the server (before the streaming), the same upload took it +63 MB: the file's
    // buffer and the socket's chunks; streamed, only the chunks passing through, until collected
    expect(peak - before).toBeLessThan(39);
  }, 120_000);

  it('answers 413 over the cap while the client is still sending, at the generation route and an import route', async () => {
    const gen = await chunkedUpload('/api/cbt/ai/generate-questions', { count: '3' }, 'notes.txt', 120 * MB);
    expect(gen.status).toBe(413);
    expect(gen.body.type ?? gen.body.title).toBeTruthy();
    expect(gen.sentBytes).toBeLessThan(120 * MB);
    const imp = await chunkedUpload('/questions/import', { workspaceId: hall.workspaceId, examId: hall.examId }, 'bank.txt', 60 * MB);
    expect(imp.status).toBe(413);
    expect(imp.sentBytes).toBeLessThan(60 * MB);
    // the turn passed: the next upload is read
    const { type, body } = await multipart({ count: '2' }, 'notes.txt', new TextEncoder().encode('Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. Oxygen is released as a by-product.'));
    const next = await fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body, headers: { 'content-type': type, 'x-api-key': hall.apiKey } });
    expect(next.status, await next.clone().text()).toBe(200);
  }, 120_000);

  it('keeps the job process warm: the next upload is read by the same process, and after it died by a fresh one', async () => {
    const pids: number[][] = [];
    for (const id of ['W-2', 'W-3']) {
      const { type, body } = await multipart({}, 'roster.csv', new TextEncoder().encode(`studentId,candidateName,phone\n${id},Ada Obi,\n`));
      const res = await fetch(`${server.baseUrl}/exams/${hall.examId}/roster/import`, { method: 'POST', body, headers: { 'content-type': type, 'x-api-key': hall.apiKey } });
      expect(res.status, await res.clone().text()).toBe(201);
      pids.push(jobChildPids(server.pid!));
    }
    expect(pids[0]!.length).toBe(1);
    expect(pids[1]).toEqual(pids[0]);
    // a warm child that dies between jobs does not take the next one down: a fresh child reads it
    process.kill(pids[0]![0]!, 'SIGKILL');
    await sleep(200);
    const { type, body } = await multipart({}, 'roster.csv', new TextEncoder().encode('studentId,candidateName,phone\nW-4,Ada Obi,\n'));
    const res = await fetch(`${server.baseUrl}/exams/${hall.examId}/roster/import`, { method: 'POST', body, headers: { 'content-type': type, 'x-api-key': hall.apiKey } });
    expect(res.status, await res.clone().text()).toBe(201);
    const after = jobChildPids(server.pid!);
    expect(after.length).toBe(1);
    expect(after[0]).not.toBe(pids[0]![0]);
  }, 60_000);
});
