/**
 * Property-based abuse test (issue 9, part 4): for every operation in GET /openapi.json,
 * fast-check generates valid-ish and invalid bodies, headers, query strings and path
 * parameters (requests.ts) and sends them to the in-process app on a real socket.
 * For every response:
 *   - no 5xx;
 *   - every 4xx is `application/problem+json` with type, title, status (= the HTTP
 *     status), detail and instance, and carries no stack trace or SQL text;
 *   - a rejected (4xx) request changes no state: the digest of every table (and the
 *     backup files) is the same before and after (world.ts).
 * The owner's real API key is used in most runs, so validation and the handlers — not
 * only authentication — are exercised. A 2xx on a write rebuilds the fixtures, since it
 * may have deleted or finished them.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness.js';
import { requestArbitrary, send, type FuzzRequest, type Operation } from './fuzz/requests.js';
import { changed, fill, makeWorld, PROVISIONING_TOKEN, refusedSeqMoved, stateDigest, type World } from './fuzz/world.js';

const server = await startTestServer({
  config: { CBT_RATE_LIMIT_PER_MIN: 1_000_000, CBT_ANSWER_RATE_LIMIT_PER_MIN: 1_000_000, CBT_PROVISIONING_TOKEN: PROVISIONING_TOKEN },
});
const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Record<string, any>;
afterAll(() => server.close());

/**
 * Operations that contact an address the caller gives (a hub to enrol with) answer 502 by
 * design when nothing answers there, and fuzzing them would only send requests to random
 * hosts: they are tested with real peers in test/hub/ instead (their address guard too).
 */
const CONTACTS_CALLER_ADDRESS = new Set(['POST /hub-link/enrol']);

const operations: Operation[] = [];
for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
  for (const [method, op] of Object.entries<any>(ops)) {
    if (CONTACTS_CALLER_ADDRESS.has(`${method.toUpperCase()} ${path}`)) continue;
    const content = op.requestBody?.content ?? {};
    operations.push({
      method: method.toUpperCase(),
      path,
      params: (op.parameters ?? []).filter((p: any) => p.in === 'path' || p.in === 'query'),
      jsonSchema: content['application/json']?.schema ?? null,
      formSchema: content['multipart/form-data']?.schema ? resolveRef(content['multipart/form-data'].schema) : null,
    });
  }
}
function resolveRef(s: any): any {
  return s?.$ref ? doc.components.schemas[String(s.$ref).split('/').pop()!] : s;
}

/** Slow operations (uploads parsed, question generation, backups, scrypt) get fewer runs. */
const HEAVY = /generate-questions|import|backups|\.xlsx|grade-essay|standalone|login|password/;
const runsFor = (op: Operation) => (HEAVY.test(op.path) ? 6 : 15);
/** Writes whose success only adds things: the fixtures stay usable, no rebuild needed. */
const ADDS_ONLY = /^(POST \/exams|POST \/workspaces\/.*|PUT \/workspaces\/me\/password|POST \/questions\/.*|PUT \/attempts\/\{id\}\/answers\/.*|POST \/attempts\/\{id\}\/(answers|extend|essay-scores\/.*)|POST \/attempts\/start|POST \/system\/backups|POST \/api\/.*|POST \/exams\/\{id\}\/(roster|roster\/import|duplicate)|POST \/webhooks\/.*)$/;

/** FUZZ_SEED=<n> replays a run (fast-check prints the seed and path of any failure). */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** Requests every run starts with: found by this fuzzer once, kept as regressions. */
function examples(op: Operation): [FuzzRequest][] {
  if (!op.formSchema) return [];
  const b = 'fuzzBoundary7MA4YWxkTrZu0gW';
  const field = (n: string, v: string) => `--${b}\r\ncontent-disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`;
  // a truncated zip named .xlsx: exceljs throws while reading it (was a 500 on roster import)
  const body = `${field('workspaceId', '@@workspaceId@@')}${field('examId', '@@examId@@')}--${b}\r\ncontent-disposition: form-data; name="file"; filename="q.xlsx"\r\ncontent-type: application/octet-stream\r\n\r\nPK\u0003\u0004\r\n--${b}--\r\n`;
  const path = op.path.replace('{id}', '@@examId@@');
  return [[{ method: op.method, path, headers: { 'x-api-key': '@@apiKey@@', 'content-type': `multipart/form-data; boundary=${b}` }, body }]];
}

let world: World | null = null;
/** responses by status, to show the runs got past authentication and validation */
const statuses = new Map<number, number>();
const describeRequest = (r: FuzzRequest) => `${r.method} ${r.path}\nheaders: ${JSON.stringify(r.headers)}\nbody: ${r.body === null ? '(none)' : r.body.slice(0, 600)}`;

describe('fuzzing every OpenAPI operation', () => {
  it('reads a document with the whole API', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  for (const op of operations) {
    // A multipart route reads its body in a job process; the first one a lane starts runs
    // under the exam's CPU cap (the world has an attempt in progress: 10 % of the time), which
    // took 15-30 s on a loaded 2-core machine. Its runs (and its first response) get that much longer.
    // So do an essay question's calibrated recommendations: the engine runs in a job process too (WordNet loaded there).
    const budgetMs = op.formSchema || /\/essay-review\/\{questionId\}\/recommendations$/.test(op.path) ? 45_000 : 15_000;
    it(`${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op, doc), async (gen) => {
          world ??= await makeWorld(server);
          const w = world;
          const req: FuzzRequest = { ...gen, path: fill(gen.path, w), headers: Object.fromEntries(Object.entries(gen.headers).map(([k, v]) => [k, fill(v, w)])), body: gen.body === null ? null : fill(gen.body, w) };
          const before = stateDigest(server);
          const res = await send(server.baseUrl, req, budgetMs === 15_000 ? 20_000 : budgetMs);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `\n${describeRequest(req)}\n→ ${res.status} ${res.contentType}\n${res.text.slice(0, 600)}`;
          if (res.status >= 500) throw new Error(`5xx${where}`);
          if (res.status >= 400) {
            if (!res.contentType.startsWith('application/problem+json')) throw new Error(`4xx without problem+json${where}`);
            const p = JSON.parse(res.text) as Record<string, unknown>;
            for (const k of ['type', 'title', 'detail', 'instance']) if (typeof p[k] !== 'string') throw new Error(`problem member ${k} missing${where}`);
            if (p.status !== res.status) throw new Error(`problem status ${String(p.status)} ≠ ${res.status}${where}`);
            if (/\n\s+at |SqliteError|SQLITE_|\.ts:\d+/.test(res.text)) throw new Error(`internals leaked${where}`);
            const after = stateDigest(server);
            const diff = changed(before, after).filter((part) => !refusedSeqMoved(part, before, after, req.method, req.path, req.body));
            if (diff.length) throw new Error(`state changed on a rejected request (${diff.join(', ')})${where}`);
          } else if (res.status >= 200 && res.status < 300 && req.method !== 'GET' && !ADDS_ONLY.test(`${op.method} ${op.path}`)) {
            world = null; // a successful write may have deleted, finished or locked a fixture
          }
        }),
        { numRuns: runsFor(op), seed: SEED + operations.indexOf(op), examples: examples(op), interruptAfterTimeLimit: budgetMs, markInterruptAsFailure: false },
      );
    }, budgetMs + 45_000);
  }

  it('reached the handlers, not only the gates', () => {
    const count = (lo: number, hi: number) => [...statuses].filter(([st]) => st >= lo && st <= hi).reduce((n, [, c]) => n + c, 0);
    console.info(`fuzz responses by status (seed ${SEED}):`, Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])));
    expect(count(200, 299)).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(20);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(20);
  });
});
