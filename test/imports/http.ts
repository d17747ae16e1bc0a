/** Test helpers for the import/export routes: a test server and a multipart upload helper. */
import { startTestServer, type TestServer } from '../harness.js';

/** startTestServer() (every router of the hall is listed in src/hall/composition.ts). */
export async function startImportServer(): Promise<TestServer> {
  return startTestServer();
}

export interface FilePart {
  bytes: Uint8Array | string;
  name: string;
  type?: string;
}

/** POSTs a multipart form; file parts are FilePart objects. */
export async function upload(baseUrl: string, apiKey: string | undefined, path: string, fields: Record<string, string | FilePart>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, new File([typeof v.bytes === 'string' ? v.bytes : Buffer.from(v.bytes)], v.name, { type: v.type ?? 'application/octet-stream' }));
  }
  const res = await fetch(baseUrl + path, { method: 'POST', body: form, headers: apiKey ? { 'x-api-key': apiKey } : {} });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** GETs a file: status, headers and bytes. */
export async function download(baseUrl: string, apiKey: string, path: string) {
  const res = await fetch(baseUrl + path, { headers: { 'x-api-key': apiKey } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
