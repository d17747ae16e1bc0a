/**
 * Helpers of test/security/upload-lanes.test.ts: workspaces of one's own, one-line Aiken
 * imports, a 9.5 MB pasted paper, and "stalled" uploads — a raw HTTP request that sends its
 * headers and the first bytes of a large multipart body, then nothing (it holds a place in
 * the job lanes for as long as the test wants, and is abandoned by destroying its socket).
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { sleep } from './hall-process.js';

/** A workspace with an exam: its key and ids. */
export interface Workspace {
  apiKey: string;
  workspaceId: string;
  examId: string;
}

/** Registers a standalone workspace and creates an exam in it. */
export async function newWorkspace(baseUrl: string, n: number): Promise<Workspace> {
  const post = (path: string, body: unknown, key?: string) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) } }).then(async (r) => {
      if (r.status !== 201) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<Record<string, string>>;
    });
  const ws = await post('/workspaces/standalone', { name: `Lane Hall ${n}`, ownerName: 'Lane Owner', email: `lane-${Date.now().toString(36)}-${n}@example.com`, webhookUrl: 'https://results.example.com/hook' });
  const exam = await post('/exams', { workspaceId: ws.id, title: `Lanes ${n}`, durationMins: 60, maxTabViolations: 3 }, ws.apiKey);
  return { apiKey: ws.apiKey!, workspaceId: ws.id!, examId: exam.id! };
}

/** An Aiken bank of `n` questions (about 110 bytes each). */
export const aikenBank = (n: number) => Array.from({ length: n }, (_, i) => `Question ${i + 1}: which is the largest?\nA. one\nB. two\nC. three\nD. four\nANSWER: D\n`).join('\n');

/** A 9.5 MB pasted paper: a real paste's shape repeated. */
export function bigPaste(mb = 9.5): string {
  const one = readFileSync(new URL('../fixtures/imports/pasted/shape-5-web-inline-options.txt', import.meta.url), 'utf8');
  const parts: string[] = [];
  let size = 0;
  while (size < mb * 1024 * 1024) {
    parts.push(one, '\n\n');
    size += one.length + 2;
  }
  return parts.join('');
}

/** POSTs a question-bank file to /questions/import; status, problem/result body and milliseconds. */
export async function importBank(baseUrl: string, ws: Workspace, text: string, signal?: AbortSignal) {
  const form = new FormData();
  form.set('workspaceId', ws.workspaceId);
  form.set('examId', ws.examId);
  form.set('file', new Blob([text], { type: 'text/plain' }), 'bank.txt');
  const t0 = performance.now();
  const r = await fetch(`${baseUrl}/questions/import`, { method: 'POST', body: form, headers: { 'x-api-key': ws.apiKey }, signal });
  const body = (await r.json()) as Record<string, unknown>;
  return { status: r.status, body, retryAfter: r.headers.get('retry-after'), ms: performance.now() - t0 };
}

/** A stalled upload: its socket, and its answer once one came (status and body), else null. */
export interface Stalled {
  socket: Socket;
  answer(): { status: number; text: string } | null;
}

/** Opens a /questions/import of `declared` bytes and sends its headers, its fields and the first `send` bytes of its file. */
export async function stalledUpload(baseUrl: string, ws: Workspace, declared = 2 * 1024 * 1024, send = 64 * 1024): Promise<Stalled> {
  const url = new URL(baseUrl);
  const b = 'lanesboundary';
  const field = (name: string, value: string) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = field('workspaceId', ws.workspaceId) + field('examId', ws.examId) + `--${b}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => {});
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.write(`POST /questions/import HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${ws.apiKey}\r\ncontent-type: multipart/form-data; boundary=${b}\r\ncontent-length: ${declared}\r\n\r\n`);
  socket.write(head + 'A'.repeat(send - head.length));
  return {
    socket,
    answer: () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      return m ? { status: Number(m[1]), text: received } : null;
    },
  };
}

/** Polls `read` every 50 ms until `ok` holds of its value, for at most `ms`; returns the last value. */
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await sleep(50);
    v = await read();
  }
  return v;
}

/** GET /health's `uploads` figures (undefined on a server without them). */
export async function lanes(baseUrl: string): Promise<{ main: { running: number; waiting: number }; small: { running: number; waiting: number } } | undefined> {
  return ((await (await fetch(`${baseUrl}/health`)).json()) as { uploads?: never }).uploads;
}
