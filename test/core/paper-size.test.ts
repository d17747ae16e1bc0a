/**
 * The 60-question maths paper of the network benchmark (scripts/bench/network/paper.mjs) on
 * the wire (issue 26, target ≤ 8 KB): the start request and response, headers and body, as
 * Chromium sends them (header sets measured with CDP, docs/benchmarks.md). Over HTTPS (or
 * loopback) Chromium offers brotli: the paper must stay within 8 KB. On plain HTTP at a LAN
 * address it offers only gzip, which this paper cannot fit in 8 KB (docs/decisions.md): the
 * bounds pin what the short option ids, compactHtml and gzip level 8 reached (was ~17 KB).
 * gzip's size depends on the candidate's shuffle (its 32 KB window holds ~8 of these
 * questions): over 300 candidates 11.7–15.1 KB, median 13.4 KB (docs/benchmarks.md), so the
 * median of six candidates is pinned as well as each one; brotli's window holds the whole
 * paper and varies ~0.2 KB.
 * With `?math=mathml` (MathML only, what a current Chromium asks for: docs/decisions.md) the
 * paper fits 8 KB with either encoding; without it, the response is the KaTeX HTML form as before.
 * Also pins the header set of a good answer save's response.
 */
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, createExam, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
// @ts-expect-error plain ESM script without types
import { mathsPaper } from '../../scripts/bench/network/paper.mjs';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Chromium's fetch() headers to a plain-HTTP LAN address (besides Host, Connection, Content-Length). */
const PLAIN_HTTP = { accept: '*/*', 'accept-encoding': 'gzip, deflate', 'accept-language': 'en-GB', 'user-agent': UA, origin: 'http://192.168.1.10:8080' };
/** … and to a secure origin (HTTPS): brotli and zstd, fetch metadata and client hints. */
const SECURE = { ...PLAIN_HTTP, 'accept-encoding': 'gzip, deflate, br, zstd', origin: 'https://cbt.hall.example', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', 'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' };
const KB = 1024;

/** One request on a fresh socket; resolves with the bytes both ways and the response. */
function onWire(base: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ wire: number; status: number; encoding?: string; head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const u = new URL(base);
    const req = request({ host: u.hostname, port: u.port, method, path, agent: false, headers: { ...headers, connection: 'keep-alive', 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const s = req.socket!;
        const head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n${res.rawHeaders.map((x, i) => (i % 2 ? `${x}\r\n` : `${x}: `)).join('')}\r\n`;
        resolve({ wire: s.bytesRead + s.bytesWritten, status: res.statusCode!, encoding: res.headers['content-encoding'], head, body: Buffer.concat(chunks) });
        s.destroy();
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

describe('the maths paper and a save on the wire', () => {
  let server: TestServer;
  let accessCode = '';
  beforeAll(async () => {
    // every candidate here starts from this one loopback address, as no hall does: the one-attempt-per-computer rule of open rooms is off (it has its own tests, test/security/open-room.test.ts)
    server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000, CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
    const ws = await registerWorkspace(server.baseUrl);
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id, { durationMins: 180, maxTabViolations: 100, shuffleQuestions: true, shuffleChoices: true });
    accessCode = exam.accessCode;
    await addQuestions(server.baseUrl, ws.apiKey, ws.id, exam.id, mathsPaper(60));
  });
  afterAll(async () => server?.close());

  /** The start's bytes on the wire for twelve candidates (`prefix` + n), alternately with Chromium's secure-origin (brotli) and plain-HTTP (gzip) headers. */
  async function startSizes(path: string, prefix: string): Promise<{ br: number[]; gzip: number[] }> {
    const sizes = { br: [] as number[], gzip: [] as number[] };
    for (let i = 0; i < 12; i++) {
      const secure = i % 2 === 0;
      const studentId = `${prefix}${String(i).padStart(5, '0')}`;
      const r = await onWire(server.baseUrl, 'POST', path, { accessCode, studentId, candidateName: `Candidate ${studentId}`, candidatePin: '2468' }, secure ? SECURE : PLAIN_HTTP);
      expect(r.status).toBe(200);
      expect(r.encoding).toBe(secure ? 'br' : 'gzip');
      sizes[secure ? 'br' : 'gzip'].push(r.wire);
    }
    return sizes;
  }

  it('is ≤ 8 KB with brotli (a secure origin) for every candidate’s shuffle; with gzip (plain HTTP) ≤ 14.25 KB for the median candidate and ≤ 15.5 KB for every one', async () => {
    const sizes = await startSizes('/attempts/start', 'NET');
    console.log(`60-question maths paper, KaTeX HTML, start request + response on the wire: gzip ${sizes.gzip.join(', ')} B; brotli ${sizes.br.join(', ')} B`);
    expect(Math.max(...sizes.br), `brotli: ${sizes.br.join(', ')} B`).toBeLessThanOrEqual(8 * KB);
    const gzip = [...sizes.gzip].sort((a, b) => a - b);
    expect((gzip[2]! + gzip[3]!) / 2, `gzip: ${sizes.gzip.join(', ')} B`).toBeLessThanOrEqual(14.25 * KB);
    expect(Math.max(...sizes.gzip), `gzip: ${sizes.gzip.join(', ')} B`).toBeLessThanOrEqual(15.5 * KB);
  });

  it('with ?math=mathml is ≤ 8 KB with gzip (plain HTTP) and with brotli, for every candidate’s shuffle', async () => {
    const sizes = await startSizes('/attempts/start?math=mathml', 'MML');
    expect(Math.max(...sizes.gzip), `gzip: ${sizes.gzip.join(', ')} B`).toBeLessThanOrEqual(8 * KB);
    expect(Math.max(...sizes.br), `brotli: ${sizes.br.join(', ')} B`).toBeLessThanOrEqual(8 * KB);
    console.log(`60-question maths paper, ?math=mathml, start request + response on the wire: gzip ${sizes.gzip.join(', ')} B; brotli ${sizes.br.join(', ')} B`);
  });

  it('the same attempt read in both forms: the same questions, maths as KaTeX HTML without the parameter and as MathML only with it', async () => {
    const identity = { ...PLAIN_HTTP, 'accept-encoding': 'identity' };
    const start = await onWire(server.baseUrl, 'POST', '/attempts/start', { accessCode, studentId: 'FORM-1', candidateName: 'Form One', candidatePin: '2468' }, identity);
    const before = start.body.toString('utf8');
    type View = { attemptId: string; questions: { id: string; prompt: string; promptHtml: string; options: { id: string; keyLabel: string; text: string; html: string }[] }[] };
    const id = (JSON.parse(before) as View).attemptId;
    const read = async (query: string) => (await onWire(server.baseUrl, 'GET', `/attempts/${id}${query}`, '', identity)).body.toString('utf8');
    const mathml = JSON.parse(await read('?math=mathml')) as View;
    const html = JSON.parse(await read('')) as View;
    // the MathML form, once rendered, changes nothing in the default form
    expect(JSON.stringify(html.questions)).toBe(JSON.stringify((JSON.parse(before) as View).questions));
    expect(await read('?questions=1')).toBe(await read(''));
    expect(mathml.questions.map((q) => [q.id, q.prompt, q.options.map((o) => [o.id, o.keyLabel, o.text])])).toEqual(html.questions.map((q) => [q.id, q.prompt, q.options.map((o) => [o.id, o.keyLabel, o.text])]));
    const all = (v: View) => v.questions.map((q) => q.promptHtml + q.options.map((o) => o.html).join('')).join('');
    expect(all(html)).toContain('katex-html');
    expect(all(mathml)).not.toContain('katex-html');
    expect(all(mathml)).not.toMatch(/<annotation|<semantics/);
    expect(all(mathml)).toContain('<mfrac>');
    expect(all(mathml).length).toBeLessThan(all(html).length / 4);
  });

  it('answers an unknown ?math= with 400 problem details, on the start and the read', async () => {
    const identity = { ...PLAIN_HTTP, 'accept-encoding': 'identity' };
    for (const [method, path] of [['POST', '/attempts/start?math=html'], ['POST', '/attempts/start?math=MathML'], ['POST', '/attempts/preview?math=svg'], ['GET', '/attempts/att_none?math=latex']] as const) {
      const r = await onWire(server.baseUrl, method, path, method === 'POST' ? { accessCode, studentId: 'BAD-1', candidateName: 'Bad One', candidatePin: '2468' } : '', identity);
      expect(r.status, path).toBe(400);
      expect(r.head.toLowerCase(), path).toContain('content-type: application/problem+json');
      expect(JSON.parse(r.body.toString('utf8')).errors?.[0]?.path ?? '', path).toMatch(/math/);
    }
    // nothing was started by the refused start
    const r = await onWire(server.baseUrl, 'POST', '/attempts/preview', { accessCode, studentId: 'BAD-1', candidateName: 'Bad One', candidatePin: '2468' }, identity);
    expect(JSON.parse(r.body.toString('utf8')).isResumed).toBe(false);
  });

  it('a good save answers with only Date, length, type, connection, request id, API version and nosniff', async () => {
    const start = await onWire(server.baseUrl, 'POST', '/attempts/start', { accessCode, studentId: 'SAVE-1', candidateName: 'Save One', candidatePin: '2468' }, { ...PLAIN_HTTP, 'accept-encoding': 'identity' });
    const paper = JSON.parse(start.body.toString('utf8')) as { attemptId: string; questions: { id: string; options: { id: string }[] }[] };
    const q = paper.questions[0]!;
    expect(q.options[0]!.id).toMatch(/^opt_[0-9A-Za-z]{5}$/);
    const save = await onWire(server.baseUrl, 'PUT', `/attempts/${paper.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id, seq: 1 }, PLAIN_HTTP);
    expect(save.status).toBe(200);
    const names = save.head.split('\r\n').slice(1).filter(Boolean).map((l) => l.slice(0, l.indexOf(':')).toLowerCase()).sort();
    expect(names).toEqual(['connection', 'content-length', 'content-type', 'date', 'keep-alive', 'x-cbt-api-version', 'x-content-type-options', 'x-request-id']);
    expect(save.head.length).toBeLessThanOrEqual(240);
  });
});
