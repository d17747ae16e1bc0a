/**
 * Simulated candidate PCs for the network benchmark: each behaves like the candidate page
 * with an empty browser cache — GET the page, then every stylesheet and script it links,
 * start (POST /attempts/start), save every 2 s, submit — over its own keep-alive connections (two, like a browser's first two to a
 * host), with the saves over the page's save channel (one WebSocket, `openChannel()`;
 * without it, PUTs as before), with the request headers Chromium sends to a plain-HTTP LAN address (so `gzip,
 * deflate`: no brotli). Every request's bytes on its socket
 * (headers and body, what TCP carries) are counted per phase.
 * The maths as a current Chromium gets it (`maths: 'mathml'`, the default): the start asks
 * for `?math=mathml` and no KaTeX file is fetched (web/candidate/math.ts). As a browser
 * without MathML (`maths: 'html'`): the paper in KaTeX HTML, then KaTeX's stylesheet (the
 * page's script links it) and the KaTeX fonts (or their unicode-range parts) its characters need.
 */
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import WebSocket from 'ws';

/** The KaTeX fonts a typical maths paper needs (regular text, italic variables, big operators, fractions). */
export const MATHS_FONTS = ['KaTeX_Main-Regular', 'KaTeX_Math-Italic', 'KaTeX_Size1-Regular', 'KaTeX_Size2-Regular'];
// What Chromium sends to a hall server on plain HTTP at a LAN address (measured with CDP,
// docs/benchmarks.md): gzip and deflate only (brotli and zstd go to secure origins only), no
// sec-fetch-* or sec-ch-ua (secure origins only), no Referer from the page (its policy is
// no-referrer); Origin on a request with a body and on a font (a CORS fetch, with the
// stylesheet as Referer); the Accept of each kind. User-Agent: Chrome on a Windows hall PC.
const BROWSER_HEADERS = { accept: '*/*', 'accept-encoding': 'gzip, deflate', 'accept-language': 'en-GB', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' };
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7', 'upgrade-insecure-requests': '1' };
function browserHeaders(origin, path, hasBody, stylesheet) {
  if (path === '/') return { ...BROWSER_HEADERS, ...NAVIGATION };
  if (path.endsWith('.css')) return { ...BROWSER_HEADERS, accept: 'text/css,*/*;q=0.1' };
  if (path.endsWith('.woff2')) return { ...BROWSER_HEADERS, origin, referer: `${origin}${stylesheet ?? '/vendor/katex/katex.css'}` };
  return hasBody ? { ...BROWSER_HEADERS, origin } : BROWSER_HEADERS;
}

/** errors of a connection the server closed or reset (Chromium: ERR_CONNECTION_RESET, _CLOSED, _ABORTED) */
const RESENDABLE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export class Candidate {
  /**
   * @param {string} baseUrl the hall server
   * @param {string} studentId
   * @param {{ maths?: 'mathml' | 'html', katexCss?: string }} [opts] the maths form the page
   *   asks for, and (for `html`) the path of KaTeX's hashed stylesheet the page's script links
   */
  constructor(baseUrl, studentId, { maths = 'mathml', katexCss } = {}) {
    this.base = new URL(baseUrl);
    this.studentId = studentId;
    this.maths = maths;
    this.katexCss = katexCss;
    this.fontFaces = [];
    this.sockets = new Set();
    this.agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const create = this.agent.createConnection.bind(this.agent);
    this.agent.createConnection = (opts, cb) => {
      const s = create(opts, cb);
      this.sockets.add(s);
      return s;
    };
    this.seq = 0;
    /** requests resent once after their reused connection failed (see call) */
    this.retries = 0;
  }

  /** bytes read + written on this candidate's sockets so far */
  bytes() {
    let n = 0;
    for (const s of this.sockets) n += s.bytesRead + s.bytesWritten;
    return n;
  }

  /**
   * One request; resolves with status, decoded body text and headers.
   *
   * As Chromium does, a request that fails on a reused keep-alive connection before any
   * byte of the response arrived (reset, closed, aborted) is sent once more: the server
   * may have closed that connection while the request was on its way
   * (net/http/http_network_transaction.cc, HandleIOError → ShouldResendRequest: "we resend
   * a request only if we reused a keep-alive connection" and no response headers were
   * received; any method; the failed connection is closed and the request goes back
   * to the pool, ResetConnectionAndRequestForResend). Here only once per request, and never
   * after a failure on a new connection or after part of a response: those fail the run.
   * `this.retries` counts the resends.
   *
   * With `keep: false` the body is read off the socket (its bytes counted) but neither
   * kept nor decompressed (text ''): scripts and fonts, which a browser parses on a CPU of
   * its own, would otherwise cost this one process — all the hall's PCs — the CPU to
   * decompress hundreds of copies and make it slow to read its sockets.
   */
  async call(method, path, body, { keep = true } = {}) {
    try {
      return await this.#once(method, path, body, keep);
    } catch (e) {
      if (!e.resendable) throw e;
      this.retries++;
      return this.#once(method, path, body, keep, true);
    }
  }

  #once(method, path, body, keep, resend = false) {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers = { ...browserHeaders(this.base.origin, path, !!data, this.fontStylesheet), ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}) };
      let responded = false;
      const req = request({ host: this.base.hostname, port: this.base.port, method, path, agent: this.agent, headers }, (res) => {
        responded = true;
        const chunks = [];
        res.on('data', (c) => keep && chunks.push(c));
        res.on('end', () => {
          if (!keep) return resolve({ status: res.statusCode, text: '', headers: res.headers });
          let raw = Buffer.concat(chunks);
          const enc = res.headers['content-encoding'];
          if (enc === 'br') raw = brotliDecompressSync(raw);
          else if (enc === 'gzip') raw = gunzipSync(raw);
          resolve({ status: res.statusCode, text: raw.toString('utf8'), headers: res.headers });
        });
        res.on('error', (e) => reject(Object.assign(new Error(`${this.studentId} ${method} ${path}: the response broke off: ${e.message}`, { cause: e }), { code: e.code })));
      });
      req.setTimeout(120_000, () => req.destroy(new Error(`${method} ${path}: no answer in 120 s`)));
      req.on('error', (e) => {
        const reused = req.reusedSocket;
        const err = Object.assign(new Error(`${this.studentId} ${method} ${path} (${reused ? 'reused keep-alive connection' : 'new connection'}${resend ? ', resent' : ''}): ${e.message}`, { cause: e }), { code: e.code });
        err.resendable = reused && !responded && !resend && RESENDABLE.has(e.code);
        reject(err);
      });
      req.end(data);
    });
  }

  /**
   * The page with an empty cache: HTML, its stylesheets and scripts. Notes the stylesheets'
   * @font-face rules of the maths fonts (file and unicode-range) for loadFonts. Returns the request count.
   */
  async loadPage() {
    const html = await this.call('GET', '/');
    if (html.status !== 200) throw new Error(`GET / → ${html.status}`);
    const assets = [...html.text.matchAll(/<(?:link[^>]+href|script[^>]+src)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith('/') && !u.endsWith('.ico'));
    let requests = 1;
    this.fontFaces = [];
    await Promise.all(
      assets.map(async (path) => {
        await this.#stylesheetOrScript(path);
        requests++;
      }),
    );
    return requests;
  }

  /** GET a linked stylesheet or script; notes a stylesheet's @font-face rules of the maths fonts (file and unicode-range) for loadFonts. */
  async #stylesheetOrScript(path) {
    const r = await this.call('GET', path, undefined, { keep: path.endsWith('.css') });
    if (r.status !== 200) throw new Error(`GET ${path} → ${r.status}`);
    if (!path.endsWith('.css')) return;
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    for (const m of r.text.matchAll(/@font-face\{([^}]*)\}/g)) {
      const url = /url\(([^)]+\.woff2)\)/.exec(m[1])?.[1]?.replace(/["']/g, '');
      if (!url || !MATHS_FONTS.some((f) => url.includes(f + '.') || url.includes(f + '-'))) continue;
      const range = /unicode-range:([^;}]+)/.exec(m[1])?.[1];
      const ranges = range ? range.split(',').map((x) => x.trim().replace(/^U\+/i, '').split('-').map((h) => parseInt(h, 16))).map(([a, b]) => [a, b ?? a]) : [[0, 0x10ffff]];
      this.fontFaces.push({ path: url.startsWith('/') ? url : dir + url, ranges });
      this.fontStylesheet = path;
    }
  }

  /**
   * What the paper's maths needs besides the page, as the page fetches it: nothing for
   * MathML; for KaTeX HTML (a paper holding `katex-html`), KaTeX's stylesheet, then the
   * fonts (loadFonts). Returns the request count.
   */
  async loadMaths() {
    const katexHtml = (this.questions ?? []).some((q) => /katex-html/.test(q.promptHtml ?? '') || (q.options ?? []).some((o) => /katex-html/.test(o.html ?? '')));
    if (!katexHtml) return 0;
    if (!this.katexCss) throw new Error('a paper in KaTeX HTML, and no path of KaTeX’s stylesheet given');
    await this.#stylesheetOrScript(this.katexCss);
    return 1 + (await this.loadFonts());
  }

  /**
   * The maths fonts the paper's characters need, as a browser picks them: a face is fetched
   * when a character of the rendered questions (promptHtml, option html; the text when the
   * server sends no HTML) falls in its unicode-range. Returns the request count.
   */
  async loadFonts() {
    const html = (this.questions ?? []).map((q) => [q.promptHtml ?? q.prompt, ...(q.options ?? []).map((o) => o.html ?? o.text)].join(' ')).join(' ');
    // KaTeX's size fonts are used only by the classes that name them (katex.css): sized
    // delimiters and big operators; a paper rendered without HTML is assumed to need them
    const sized = (k) => !this.questions?.[0]?.promptHtml || new RegExp(k === 1 ? 'delimsizing size1|delim-size1|small-op' : `delimsizing size${k}|delim-size${k}|large-op`).test(html);
    const text = html
      .replace(/<[^>]*>/g, '')
      .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
    // line breaks and tabs between tags are collapsed white space: no glyph, no font
    const chars = new Set([...text.replace(/[\t\n\r\f]/g, '')].map((c) => c.codePointAt(0)));
    const wanted = this.fontFaces.filter((f) => {
      const size = /KaTeX_Size(\d)/.exec(f.path);
      if (size && !sized(Number(size[1]))) return false;
      return [...chars].some((c) => f.ranges.some(([a, b]) => c >= a && c <= b));
    });
    await Promise.all(
      wanted.map(async ({ path }) => {
        const r = await this.call('GET', path, undefined, { keep: false });
        if (r.status !== 200) throw new Error(`GET ${path} → ${r.status}`);
      }),
    );
    return wanted.length;
  }

  /** POST /attempts/start (`?math=mathml` for the MathML form); keeps the attempt id and the paper. */
  async start(accessCode) {
    const r = await this.call('POST', this.maths === 'mathml' ? '/attempts/start?math=mathml' : '/attempts/start', { accessCode, studentId: this.studentId, candidateName: `Candidate ${this.studentId}`, candidatePin: '2468' });
    if (r.status !== 200) throw new Error(`start → ${r.status} ${r.text.slice(0, 200)}`);
    const body = JSON.parse(r.text);
    this.attemptId = body.attemptId;
    this.questions = body.questions;
    this.seq = body.durableSeq ?? 0;
    return body;
  }

  /**
   * Opens the attempt's save channel as the page does (web/candidate/channel.ts), with the
   * handshake headers Chromium sends to a LAN address (Origin, User-Agent, Accept-Encoding,
   * Accept-Language, Pragma and Cache-Control, its permessage-deflate offer, which the
   * server declines). Its socket is counted with the others. Resolves with the handshake's
   * bytes on the socket.
   */
  openChannel() {
    return new Promise((resolve, reject) => {
      const url = `ws://${this.base.host}/attempts/${this.attemptId}/channel`;
      const { accept: _a, ...browser } = BROWSER_HEADERS;
      const ws = new WebSocket(url, {
        perMessageDeflate: false,
        headers: { ...browser, origin: this.base.origin, pragma: 'no-cache', 'cache-control': 'no-cache', 'sec-websocket-extensions': 'permessage-deflate; client_max_window_bits' },
      });
      let socket;
      ws.on('upgrade', (res) => {
        socket = res.socket;
        this.sockets.add(socket);
      });
      this.replies = new Map();
      this.frameId = 0;
      ws.on('message', (d) => {
        const m = JSON.parse(String(d));
        if (!('i' in m)) return; // a durableSeq push
        const w = this.replies.get(m.i);
        this.replies.delete(m.i);
        w?.(m);
      });
      ws.once('open', () => {
        this.ws = ws;
        resolve(socket.bytesRead + socket.bytesWritten);
      });
      ws.once('error', (e) => reject(new Error(`${this.studentId} channel: ${e.message}`)));
      ws.on('close', (code) => {
        if (this.ws !== ws) return;
        this.ws = null;
        for (const w of this.replies.values()) w({ closed: code });
        this.replies.clear();
      });
    });
  }

  /** One answer save (a random option of question `i`): over the channel when open, else a PUT. */
  async save(i) {
    const q = this.questions[i % this.questions.length];
    const opt = q.options[(i * 7 + this.seq) % q.options.length];
    if (this.ws) {
      const id = ++this.frameId;
      const m = await new Promise((resolve) => {
        this.replies.set(id, resolve);
        this.ws.send(JSON.stringify({ i: id, q: q.id, o: opt.id, s: ++this.seq }));
      });
      if (m.closed !== undefined) throw new Error(`${this.studentId} save: the channel closed (${m.closed})`);
      if (m.p) throw new Error(`${this.studentId} save over the channel → ${m.p.status} ${m.p.detail}`);
      return;
    }
    const r = await this.call('PUT', `/attempts/${this.attemptId}/answers/${q.id}`, { optionId: opt.id, seq: ++this.seq });
    if (r.status !== 200) throw new Error(`save → ${r.status} ${r.text.slice(0, 200)}`);
  }

  async submit() {
    const r = await this.call('POST', `/attempts/${this.attemptId}/submit`, {});
    if (r.status !== 200) throw new Error(`submit → ${r.status} ${r.text.slice(0, 200)}`);
  }

  /** The bare baseline: GET a static file of `n` bytes. */
  async blob(baseUrl, n) {
    const saved = this.base;
    this.base = new URL(baseUrl);
    try {
      const r = await this.call('GET', `/blob/${n}`, undefined, { keep: false });
      if (r.status !== 200) throw new Error(`blob → ${r.status}`);
    } finally {
      this.base = saved;
    }
  }

  close() {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.terminate();
    }
    this.agent.destroy();
  }
}
