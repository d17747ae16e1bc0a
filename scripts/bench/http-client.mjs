/**
 * A minimal HTTP/1.1 keep-alive client over one TCP socket, for the load generator.
 * One `Connection` is one virtual candidate's browser connection: requests go out one
 * at a time (no pipelining), later ones wait in a FIFO queue, and a closed socket is
 * reopened on the next request. It is far cheaper per request than node:http or fetch,
 * so the generator leaves the second core to the server. Handles Content-Length and
 * chunked bodies; nothing else (no redirects, no compression).
 *
 * `request()` resolves `{status, body: Buffer, queuedAt, sentAt, doneAt}` (performance.now()
 * ms: asked for, written, last byte read)
 * and rejects with Error('timeout' | 'closed' | <socket error code>).
 */
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');
const CHUNK_END = Buffer.from('\r\n0\r\n\r\n');

/** Decodes a complete chunked body (`buf` ends with the terminating chunk). */
function dechunk(buf) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    const size = parseInt(buf.toString('latin1', at, eol), 16);
    if (!size) break;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export class Connection {
  /** @param {{host: string, port: number}} target */
  constructor(target) {
    this.target = target;
    this.hostHeader = `${target.host}:${target.port}`;
    this.socket = null;
    this.active = null;
    this.connecting = null;
    this.queue = [];
    this.current = null;
    this.buf = Buffer.alloc(0);
    this.reconnects = 0;
  }

  /** Opens the socket (no-op when open). */
  connect() {
    if (this.socket) return Promise.resolve();
    if (this.connecting) return this.connecting;
    if (this.opened) this.reconnects++;
    this.opened = true;
    this.connecting = new Promise((resolve, reject) => {
      const s = net.connect({ host: this.target.host, port: this.target.port, noDelay: true });
      this.active = s;
      this.rejectConnect = reject;
      s.once('connect', () => {
        if (this.active !== s) return;
        this.socket = s;
        this.connecting = null;
        resolve();
      });
      s.on('data', (d) => {
        if (this.active === s) this.onData(d);
      });
      // events of a socket already given up on (timeout, error) must not touch the next request
      s.on('error', (e) => {
        if (this.active === s) this.drop(e.code ?? e.message);
      });
      s.on('close', () => {
        if (this.active === s) this.drop('closed');
      });
    });
    return this.connecting;
  }

  /** Sends a request when the connection is free; `body` is a JSON string or null. */
  request(method, path, body = null, timeoutMs = 30_000) {
    return new Promise((resolve, reject) => {
      this.queue.push({ method, path, body, timeoutMs, resolve, reject, queuedAt: performance.now() });
      if (!this.current) this.next();
    });
  }

  /** Fails the in-flight request (connect included) once it has run past its timeout at `now` (performance ms). */
  checkTimeout(now) {
    const c = this.current;
    if (c && now - (c.sentAt ?? c.queuedAt) > c.timeoutMs) this.drop('timeout');
  }

  /** Abandons the socket and fails the in-flight request (or the pending connect) with `reason`. */
  drop(reason) {
    const s = this.active;
    this.active = null;
    this.socket = null;
    s?.destroy();
    if (this.connecting) {
      this.connecting = null;
      this.rejectConnect(new Error(reason)); // next() catches it and fails the request
      return;
    }
    this.failCurrent(reason);
  }

  /** Destroys the socket; queued requests fail with 'closed'. */
  close() {
    const pending = this.queue.splice(0);
    this.drop('closed');
    for (const r of pending) r.reject(new Error('closed'));
  }

  async next() {
    const r = this.queue.shift();
    if (!r) return;
    this.current = r;
    try {
      if (!this.socket) await this.connect();
    } catch (e) {
      if (this.current === r) this.failCurrent(e.message);
      return;
    }
    const len = r.body === null ? 0 : Buffer.byteLength(r.body);
    let head = `${r.method} ${r.path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\nConnection: keep-alive\r\n`;
    if (r.body !== null) head += `Content-Type: application/json\r\nContent-Length: ${len}\r\n`;
    else if (r.method !== 'GET') head += 'Content-Length: 0\r\n';
    this.buf = Buffer.alloc(0);
    r.sentAt = performance.now();
    this.socket.write(r.body === null ? head + '\r\n' : head + '\r\n' + r.body);
  }

  onData(d) {
    const r = this.current;
    if (!r) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    if (r.headerEnd === undefined) {
      const i = this.buf.indexOf(CRLF2);
      if (i < 0) return;
      const head = this.buf.toString('latin1', 0, i).toLowerCase();
      r.headerEnd = i + 4;
      r.status = Number(head.slice(9, 12));
      const m = /\r\ncontent-length:\s*(\d+)/.exec(head);
      r.contentLength = m ? Number(m[1]) : -1;
      r.chunked = /\r\ntransfer-encoding:\s*chunked/.test(head);
      r.closeAfter = /\r\nconnection:\s*close/.test(head);
    }
    let body;
    if (r.chunked) {
      if (this.buf.length < r.headerEnd + 5 || this.buf.indexOf(CHUNK_END, r.headerEnd - 2) < 0) return;
      body = dechunk(this.buf.subarray(r.headerEnd));
    } else if (r.contentLength >= 0) {
      if (this.buf.length < r.headerEnd + r.contentLength) return;
      body = this.buf.subarray(r.headerEnd, r.headerEnd + r.contentLength);
    } else {
      return; // body delimited by close: not produced by our server
    }
    this.current = null;
    this.buf = Buffer.alloc(0);
    if (r.closeAfter) {
      const s = this.active;
      this.active = null;
      this.socket = null;
      s?.destroy();
    }
    r.resolve({ status: r.status, body, queuedAt: r.queuedAt, sentAt: r.sentAt, doneAt: performance.now() });
    if (this.queue.length) this.next();
  }

  failCurrent(reason) {
    const r = this.current;
    if (!r) return;
    this.current = null;
    r.reject(new Error(reason));
    if (this.queue.length) this.next();
  }
}
