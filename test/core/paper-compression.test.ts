/**
 * The paper goes out compressed (issue #26): the start/resume response and GET
 * /attempts/:id with its questions are brotli- or gzip-encoded per the browser's
 * Accept-Encoding, decode to exactly the plain JSON, and stay plain when the client asks
 * for no encoding; the 15 s poll stays plain.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { chooseEncoding } from '../../src/platform/compress.js';

/** A raw request (fetch would decode the body and hide the encoding). */
function raw(base: string, method: string, path: string, body: unknown, acceptEncoding?: string): Promise<{ status: number; encoding?: string; vary?: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const u = new URL(base);
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], vary: res.headers.vary as string | undefined, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

describe('the paper over the wire', () => {
  let server: TestServer;
  let accessCode = '';
  beforeAll(async () => {
    server = await startTestServer();
    const ws = await registerWorkspace(server.baseUrl);
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id);
    accessCode = exam.accessCode;
    await addQuestions(server.baseUrl, ws.apiKey, ws.id, exam.id, sampleMcqs(60));
  });
  afterAll(async () => server?.close());

  it('is brotli for a browser, gzip for a gzip-only client, plain otherwise, and decodes to the same JSON', async () => {
    const start = { accessCode, studentId: 'Z-1', candidateName: 'Zainab', candidatePin: '2468' };
    const brStart = await raw(server.baseUrl, 'POST', '/attempts/start', start, 'gzip, deflate, br');
    expect(brStart.status).toBe(200);
    expect(brStart.encoding).toBe('br');
    expect(brStart.vary).toMatch(/accept-encoding/i);
    const paper = JSON.parse(brotliDecompressSync(brStart.bytes).toString('utf8'));
    expect(paper.questions).toHaveLength(60);

    const plain = await raw(server.baseUrl, 'POST', '/attempts/start', start); // a resume, no encoding offered
    expect(plain.encoding).toBeUndefined();
    const resumed = JSON.parse(plain.bytes.toString('utf8'));
    expect(resumed.questions).toEqual(paper.questions);
    expect(brStart.bytes.length).toBeLessThan(plain.bytes.length / 3);

    const gz = await raw(server.baseUrl, 'GET', `/attempts/${paper.attemptId}`, undefined, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8')).questions).toEqual(paper.questions);

    const poll = await raw(server.baseUrl, 'GET', `/attempts/${paper.attemptId}?questions=0`, undefined, 'br');
    expect(poll.encoding).toBeUndefined();
    expect(JSON.parse(poll.bytes.toString('utf8')).questions).toBeUndefined();
  });

  it('honours q=0 and wildcards in Accept-Encoding', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
