/**
 * A small JSON HTTP client for the soak driver: node:http with a keep-alive agent (a
 * hall of candidates keeps its connections open, and fetch is too slow on two shared
 * cores). A request either resolves with `{status, body}` or rejects with a
 * NetworkError — the server was killed, refused the connection, or did not answer in
 * time. Callers treat a NetworkError as "no acknowledgement": the candidate keeps the
 * answer in its queue, exactly like the candidate page does.
 */
import { Agent, request as httpRequest } from 'node:http';

/** The request never got a response (connection refused or reset, or timed out). */
export class NetworkError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface HttpResult {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** A client bound to one base URL (http://127.0.0.1:<port>) and optional API key. */
export class JsonClient {
  private agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, private readonly apiKey?: string) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  /** A client for the same server with an API key. */
  withKey(apiKey: string): JsonClient {
    return new JsonClient(`http://${this.host}:${this.port}`, apiKey);
  }

  /**
   * Sends one request; `body` is JSON-encoded when given.
   * @throws NetworkError when no HTTP response arrives within `timeoutMs`
   */
  send(method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<HttpResult> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {};
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(new NetworkError((e as NodeJS.ErrnoException).code ?? 'EPIPE', e.message)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      });
      req.setTimeout(timeoutMs, () => req.destroy(new NetworkError('ETIMEDOUT', `${method} ${path}: no response in ${timeoutMs} ms`)));
      req.on('error', (e) => reject(e instanceof NetworkError ? e : new NetworkError((e as NodeJS.ErrnoException).code ?? 'ERR', `${method} ${path}: ${e.message}`)));
      req.end(payload);
    });
  }

  get(path: string, timeoutMs?: number) {
    return this.send('GET', path, undefined, timeoutMs);
  }
  post(path: string, body: unknown = {}, timeoutMs?: number) {
    return this.send('POST', path, body, timeoutMs);
  }
  put(path: string, body: unknown = {}, timeoutMs?: number) {
    return this.send('PUT', path, body, timeoutMs);
  }

  /** Drops pooled connections (after a kill their sockets are dead). */
  reset(): void {
    this.agent.destroy();
    this.agent = new Agent({ keepAlive: true, maxSockets: 256 });
  }
}
