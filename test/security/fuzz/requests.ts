/**
 * Generated HTTP requests for one OpenAPI operation, and a raw sender.
 *
 * A request combines: an auth variant (none, the owner's key as x-api-key or Bearer,
 * another workspace's key, a wrong or malformed one), path parameters (mostly the right
 * kind of object, sometimes another kind, random text, or hostile raw segments such as
 * `%`, `%zz`, `..`, 300 characters), the operation's query parameters (valid or not) plus
 * stray ones, a content type, and a body — schema-following, mutated, any JSON value,
 * or text that is not JSON; multipart operations get generated form fields and file
 * bytes. Placeholders `@@name@@` are filled from the world at send time.
 *
 * The sender uses node:http so the path goes out byte for byte (fetch would normalise
 * `..` and escapes), and it stops reading event streams after the headers.
 */
import fc from 'fast-check';
import { request } from 'node:http';
import { mutate, schemaArbitrary, type Mutation } from './schema-arbitrary.js';

export interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema: Record<string, any> }[];
  jsonSchema: Record<string, any> | null;
  formSchema: Record<string, any> | null;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** JSON text, arbitrary text, or a multipart body (as latin1 text) */
  body: string | null;
}

const printable = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~!*()=,;:@ '.split('')), maxLength: 40 });

const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ 'x-api-key': '@@apiKey@@' }) },
  { weight: 3, arbitrary: fc.constant({ authorization: 'Bearer @@apiKey@@' }) },
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '@@otherApiKey@@' }) },
  { weight: 1, arbitrary: fc.constantFrom({ 'x-api-key': 'cbt_wrongwrongwrongwrongwrongwrongwrong00' }, { authorization: 'Bearer' }, { authorization: 'Basic Zm9vOmJhcg==' }, { authorization: 'Bearer @@apiKey@@ @@apiKey@@' }, { 'x-api-key': '@@apiKey@@', authorization: 'Bearer @@otherApiKey@@' }) },
  { weight: 1, arbitrary: printable.map((k) => ({ 'x-api-key': k })) },
);

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz', 'application/xml', '') },
);

const hostileSegment = fc.constantFrom('%', '%zz', '%00', '..', '.', '%2e%2e', 'a%2Fb', '%E0%A4%A', '__proto__', 'constructor', 'x'.repeat(300), "1'%20OR%20'1'='1", '%F0%9F%92%A9', 'null', '0', '-1');

/** The placeholder a path parameter of `path` should normally carry. */
function slotFor(path: string, name: string): string[] {
  if (name === 'candidateId') return ['@@candidateId@@'];
  if (name === 'questionId') return ['@@questionId@@', '@@essayQuestionId@@'];
  if (path.startsWith('/exams/')) return ['@@examId@@', '@@rosterExamId@@'];
  if (path.startsWith('/questions/')) return ['@@questionId@@', '@@essayQuestionId@@'];
  if (path.startsWith('/attempts/')) return ['@@attemptId@@', '@@doneAttemptId@@'];
  if (path.startsWith('/webhooks/events/')) return ['@@eventId@@'];
  return ['@@examId@@'];
}

function pathParam(path: string, name: string): fc.Arbitrary<string> {
  const others = ['@@examId@@', '@@questionId@@', '@@attemptId@@', '@@eventId@@', '@@candidateId@@', '@@workspaceId@@'];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...slotFor(path, name)) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: hostileSegment },
  );
}

function queryValue(p: Operation['params'][number]): fc.Arbitrary<string> {
  const valid = p.name === 'workspaceId' ? fc.constantFrom('@@workspaceId@@', '@@otherWorkspaceId@@') : schemaArbitrary(p.schema, {}, undefined).map((v) => String(v));
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(printable, fc.constantFrom('-1', '1e309', '99999999999999999999', '', 'true')) });
}

function queryString(op: Operation): fc.Arbitrary<string> {
  const known = op.params.filter((p) => p.in === 'query');
  const pairs = known.map((p) => fc.option(queryValue(p).map((v) => `${p.name}=${encodeURIComponent(v)}`), { freq: 4 }));
  const stray = fc.option(fc.tuple(printable, printable).map(([k, v]) => `${encodeURIComponent(k || 'k')}=${encodeURIComponent(v)}&${known[0]?.name ?? 'x'}[]=1`), { freq: 4 });
  return fc.tuple(fc.tuple(...pairs), stray).map(([ps, s]) => [...ps, s].filter((x): x is string => !!x).join('&'));
}

function jsonBody(op: Operation, doc: Record<string, any>): fc.Arbitrary<string | null> {
  const valid = op.jsonSchema ? schemaArbitrary(op.jsonSchema, doc) : fc.constant({});
  const mutation = fc.constantFrom<Mutation>('none', 'none', 'none', 'drop', 'wrong-type', 'extra', 'proto');
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(valid, mutation, fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([v, m, i, j]) => JSON.stringify(mutate(v, m, i, j))) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('{', '{"a":}', 'null', '[]', '"x"', '1e999', '{"answers": [', '\u0000', '', '{"__proto__":{"x":1}}', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'), fc.string()) },
  );
}

function multipartBody(op: Operation, doc: Record<string, any>): fc.Arbitrary<{ body: string; type: string }> {
  const fields: fc.Arbitrary<[string, string] | null>[] = Object.entries<any>(op.formSchema?.properties ?? {}).map(([name, s]) =>
    s.format === 'binary' ? fc.constant(null) : fc.option(schemaArbitrary(s, doc, name).map((v) => [name, String(v)] as [string, string]), { freq: 4 }),
  );
  const file = fc.option(
    fc.record({ name: fc.constantFrom('q.xlsx', 'q.csv', 'notes.txt', 'paper.pdf', 'slides.pptx', 'a.docx', 'x.mp3', 'noext', '../../evil.sh'), bytes: fc.uint8Array({ maxLength: 2048 }), zip: fc.boolean() }),
    { freq: 3 },
  );
  return fc.tuple(fc.tuple(...fields), file).map(([fs, f]) => {
    const b = 'fuzzBoundary7MA4YWxkTrZu0gW';
    let out = '';
    for (const kv of fs) if (kv) out += `--${b}\r\ncontent-disposition: form-data; name="${kv[0]}"\r\n\r\n${kv[1]}\r\n`;
    if (f) {
      const bytes = f.zip ? Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from(f.bytes)]) : Buffer.from(f.bytes);
      out += `--${b}\r\ncontent-disposition: form-data; name="file"; filename="${f.name}"\r\ncontent-type: application/octet-stream\r\n\r\n${bytes.toString('latin1')}\r\n`;
    }
    return { body: `${out}--${b}--\r\n`, type: `multipart/form-data; boundary=${b}` };
  });
}

/** Generated requests for `op` (`doc` resolves schema references). */
export function requestArbitrary(op: Operation, doc: Record<string, any>): fc.Arbitrary<FuzzRequest> {
  const pathArbs = op.params.filter((p) => p.in === 'path').map((p) => pathParam(op.path, p.name).map((v) => [p.name, v] as const));
  const hasBody = !!(op.jsonSchema || op.formSchema) || op.method !== 'GET';
  const body: fc.Arbitrary<{ body: string | null; type: string | null }> = op.formSchema
    ? fc.oneof({ weight: 5, arbitrary: multipartBody(op, doc) }, { weight: 1, arbitrary: jsonBody(op, doc).map((b) => ({ body: b, type: 'application/json' })) })
    : hasBody
      ? fc.tuple(jsonBody(op, doc), contentType).map(([b, t]) => ({ body: b, type: t }))
      : fc.option(jsonBody(op, doc), { freq: 6 }).map((b) => ({ body: b, type: b === null ? null : 'application/json' }));
  const extra = fc.record({ 'x-request-id': printable, 'x-provisioning-token': fc.constantFrom('@@provisioningToken@@', 'wrong-token') }, { requiredKeys: [] });
  return fc.record({ params: fc.tuple(...pathArbs), query: queryString(op), auth, body, extra }).map(({ params, query, auth: a, body: b, extra: x }) => {
    let path = op.path;
    for (const [name, v] of params) path = path.replace(`{${name}}`, v);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...a, ...x })) if (typeof v === 'string') headers[k] = v;
    if (b.type) headers['content-type'] = b.type;
    return { method: op.method, path: query ? `${path}?${query}` : path, headers, body: b.body };
  });
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

/** Sends `r` exactly as given; the body is sent as latin1 bytes when it is multipart. */
export function send(baseUrl: string, r: FuzzRequest, timeoutMs = 20_000): Promise<FuzzResponse> {
  const u = new URL(baseUrl);
  const multipart = r.headers['content-type']?.startsWith('multipart/') && r.body?.includes('fuzzBoundary');
  const payload = r.body === null ? null : Buffer.from(r.body, multipart ? 'latin1' : 'utf8');
  const headers = { ...r.headers, ...(payload ? { 'content-length': String(payload.length) } : {}) };
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: r.method, path: r.path, headers }, (res) => {
      const ct = String(res.headers['content-type'] ?? '');
      if (ct.startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, contentType: ct, text: '' });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: ct, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no response in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload ?? undefined);
  });
}
