/**
 * The uploads bench's upload generator (uploads.mjs), in a process of its own so that it
 * can run under SCHED_IDLE: in a hall the examiner's upload comes from another machine,
 * and here the generator's CPU — building and sending ~60 bodies of 39 MB per 30 s, about
 * a third of one of the two cores — competed with the server's like a second server
 * workload (docs/benchmarks.md, "the uploads bench's upload generator").
 *
 * Protocol over IPC (advanced serialization): `{setup: {baseUrl, apiKey, shots}}` → `{ready: true}`;
 * `{fire: {endAt}}` (epoch ms) → fires every shot in turn, round after round, until endAt
 * (at least one round), then `{fired: {rounds, results: [{route, what, status, ms, truncated, code}]}}`.
 * Exits when its parent goes.
 */
import { request as httpRequest } from 'node:http';

/** POSTs a multipart form; resolves on the response even if the server answered before reading it all. */
async function upload(baseUrl, apiKey, path, fields, name, bytes) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([bytes]), name);
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(path, baseUrl);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers: { 'content-type': encoded.headers.get('content-type'), 'content-length': body.length, 'x-api-key': apiKey } }, (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let parsed = null;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, ms: Math.round(performance.now() - t0), body: parsed });
      });
    });
    req.on('error', (e) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    // the rest of the body may fail to write after the answer came (EPIPE on the socket)
    req.on('socket', (s) => s.on('error', () => {}));
    // a connection closed without an answer is a result (status 0), not a hang
    req.on('close', () => answered || resolve({ status: 0, ms: Math.round(performance.now() - t0), body: null }));
    req.end(body);
  });
}

let setup = null;

process.on('message', async (m) => {
  try {
    if (m.setup) {
      setup = m.setup;
      return process.send({ ready: true });
    }
    if (m.fire) {
      const { baseUrl, apiKey, shots } = setup;
      const results = [];
      let rounds = 0;
      while (Date.now() < m.fire.endAt) {
        for (const s of shots) {
          if (Date.now() >= m.fire.endAt && rounds > 0) break;
          const r = await upload(baseUrl, apiKey, s.path, s.fields, s.name, s.bytes);
          results.push({ route: s.route, what: s.what, status: r.status, ms: r.ms, truncated: r.body?.truncated, code: r.body?.code });
        }
        rounds++;
      }
      process.send({ fired: { rounds, results } });
    }
  } catch (e) {
    process.send({ failed: String(e?.stack ?? e) });
  }
});
process.on('disconnect', () => process.exit(0));
