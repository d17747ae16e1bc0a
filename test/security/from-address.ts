/**
 * JSON requests from a chosen loopback source address (127.0.0.2, 127.0.0.3, …), so a
 * test can play several hall computers against one server: the server sees each as its
 * own client address. Linux routes all of 127.0.0.0/8 to the loopback interface.
 */
import { request } from 'node:http';

export interface FromResult {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** POST (or another method) `body` as JSON to `baseUrl + path` from `localAddress`. */
export function sendFrom(localAddress: string, baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<FromResult> {
  const url = new URL(path, baseUrl);
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress, agent: false, headers: { ...(data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A client bound to one source address. */
export function seat(localAddress: string, baseUrl: string) {
  return {
    post: (path: string, body: unknown = {}, headers?: Record<string, string>) => sendFrom(localAddress, baseUrl, 'POST', path, body, headers),
    get: (path: string, headers?: Record<string, string>) => sendFrom(localAddress, baseUrl, 'GET', path, undefined, headers),
  };
}
