/**
 * The two load processes of the save-channel flood measurement (channel-flood.mjs; issue
 * #34, finding 2), each forked with `--honest` or `--flooder` and driven over IPC:
 *
 * - honest: opens one save channel (the `ws` client, as the page's WebSocket) per candidate
 *   and, per phase, has each save every `everyMs` (± 50 %, a random first wait) one answer
 *   `{i, q, o, s}`, timing each save from send to its reply (ms, performance.now); beside
 *   them GET /health every `healthEveryMs` on a keep-alive connection, timed the same way.
 *   Replies: `{saves: {n, p50, p99, max}, errors, health: {n, p50, p99, max}, closes,
 *   slowest: [[ms, sent at ms into the phase]…] (the slowest 1 %)}`.
 * - flooder: one attacker on one attempt: opens its channel over a raw TCP socket and writes
 *   tiny malformed frames (masked, 6–8 bytes: the text `x`, a binary byte, the text `{}`,
 *   an empty ping) as fast as the socket takes them; when the server closes it, opens again
 *   at once, until `seconds` are up. It reads what the server sends (replies, the close
 *   frame). Replies: `{connections, opened, refused: {status: n}, closeCodes: {code: n},
 *   frames, bytes, retryAfter: [s…]}`.
 */
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** {n, p50, p99, max} of a list of ms (nearest rank), rounded to 0.01 ms. */
export function summary(list) {
  const s = [...list].sort((a, b) => a - b);
  const pick = (p) => (s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : 0);
  const r = (v) => Math.round(v * 100) / 100;
  return { n: s.length, p50: r(pick(50)), p99: r(pick(99)), max: r(s.length ? s[s.length - 1] : 0) };
}

// ---------------------------------------------------------------- honest candidates

/** Opens one candidate's channel; resolves {ws, save(frame) → Promise<reply>}. */
function openChannel(baseUrl, attemptId) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/attempts/${attemptId}/channel`, { perMessageDeflate: false });
    const waiting = new Map();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (typeof m.i === 'number') waiting.get(m.i)?.(m);
    });
    ws.once('unexpected-response', (_q, res) => reject(new Error(`channel refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => resolve({ ws, waiting }));
  });
}

async function honest(init) {
  const { baseUrl, candidates, everyMs, healthEveryMs } = init;
  const chans = [];
  for (const c of candidates) chans.push({ ...(await openChannel(baseUrl, c.attemptId)), c, seq: 0, nextId: 1, closedWith: null });
  for (const ch of chans) ch.ws.on('close', (code) => (ch.closedWith = code));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const health = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = request(`${baseUrl}/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t0));
      });
      req.on('error', () => resolve(null));
      req.end();
    });
  process.send({ ready: chans.length });

  process.on('message', async (m) => {
    if (m.cmd === 'stop') {
      for (const ch of chans) ch.ws.terminate();
      agent.destroy();
      return process.exit(0);
    }
    if (m.cmd !== 'phase') return;
    const start = performance.now();
    const end = start + m.seconds * 1000;
    const saves = [];
    const at = [];
    const healthMs = [];
    let errors = 0;
    const one = async (ch) => {
      await sleep(Math.random() * everyMs);
      while (performance.now() < end && ch.closedWith === null) {
        const q = ch.c.questions[ch.seq % ch.c.questions.length];
        const i = ch.nextId++;
        const frame = JSON.stringify({ i, q: q.id, o: q.optionIds[ch.seq % q.optionIds.length], s: ++ch.seq });
        const t0 = performance.now();
        const reply = await new Promise((resolve) => {
          const timer = setTimeout(() => resolve(null), 30_000);
          ch.waiting.set(i, (r) => (clearTimeout(timer), resolve(r)));
          ch.ws.send(frame);
        });
        ch.waiting.delete(i);
        if (!reply || reply.p) errors++;
        else {
          saves.push(performance.now() - t0);
          at.push(Math.round(t0 - start));
        }
        await sleep(everyMs * (0.5 + Math.random()));
      }
    };
    const probe = async () => {
      while (performance.now() < end) {
        const ms = await health();
        if (ms === null) errors++;
        else healthMs.push(ms);
        await sleep(healthEveryMs);
      }
    };
    await Promise.all([...chans.map(one), probe()]);
    const closes = chans.filter((c) => c.closedWith !== null).length;
    // the slowest 1 %: when in the phase they were sent (ms from its start), to tell a
    // burst (the flood's first moments) from noise spread over the phase
    const slowest = saves.map((ms, k) => [Math.round(ms * 10) / 10, at[k]]).sort((a, b) => b[0] - a[0]).slice(0, Math.ceil(saves.length / 100));
    process.send({ saves: summary(saves), errors, health: summary(healthMs), closes, slowest });
  });
}

// ---------------------------------------------------------------- the flooder

/** 64 KB of masked client frames, each tiny and malformed for the channel. */
function floodChunk() {
  const frames = [];
  let size = 0;
  for (let k = 0; size < 64 * 1024; k++) {
    const mask = randomBytes(4);
    let f;
    if (k % 4 === 0) f = Buffer.from([0x81, 0x81, ...mask, 0x78 ^ mask[0]]); // text "x": not JSON
    else if (k % 4 === 1) f = Buffer.from([0x82, 0x81, ...mask, 0x00 ^ mask[0]]); // a binary byte
    else if (k % 4 === 2) f = Buffer.from([0x81, 0x82, ...mask, 0x7b ^ mask[0], 0x7d ^ mask[1]]); // "{}": no id
    else f = Buffer.from([0x89, 0x80, ...mask]); // an empty ping
    frames.push(f);
    size += f.length;
  }
  return Buffer.concat(frames);
}

/** Reads the code of a close frame among the server's (unmasked) frames; null if none yet. */
function closeCode(buf) {
  let at = 0;
  while (at + 2 <= buf.length) {
    const op = buf[at] & 0x0f;
    let len = buf[at + 1] & 0x7f;
    let head = 2;
    if (len === 126) {
      if (at + 4 > buf.length) return null;
      len = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      if (at + 10 > buf.length) return null;
      len = Number(buf.readBigUInt64BE(at + 2));
      head = 10;
    }
    if (at + head + len > buf.length) return null;
    if (op === 0x8) return len >= 2 ? buf.readUInt16BE(at + head) : 1005;
    at += head + len;
  }
  return null;
}

/** One connection: upgrade, then frames until the server closes it or `end`. */
function floodOnce(url, attemptId, chunk, end, tally) {
  return new Promise((resolve) => {
    const sock = connect(Number(url.port), url.hostname);
    let head = Buffer.alloc(0);
    let upgraded = false;
    let frames = Buffer.alloc(0);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      sock.destroy();
      resolve();
    };
    const timer = setTimeout(finish, Math.max(0, end - performance.now()));
    sock.on('error', finish);
    sock.on('close', () => (clearTimeout(timer), finish()));
    sock.on('connect', () => {
      tally.connections++;
      sock.write(`GET /attempts/${attemptId}/channel HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    const pump = () => {
      while (!done && performance.now() < end) {
        tally.frames += tally.framesPerChunk;
        tally.bytes += chunk.length;
        if (!sock.write(chunk)) return void sock.once('drain', pump);
      }
    };
    sock.on('data', (d) => {
      if (!upgraded) {
        head = Buffer.concat([head, d]);
        const endOfHead = head.indexOf('\r\n\r\n');
        if (endOfHead < 0) return;
        const text = head.subarray(0, endOfHead).toString('latin1');
        const status = Number(text.split(' ')[1]);
        if (status !== 101) {
          tally.refused[status] = (tally.refused[status] ?? 0) + 1;
          const ra = /\r\nretry-after:\s*(\d+)/i.exec(text);
          if (ra && tally.retryAfter.length < 50) tally.retryAfter.push(Number(ra[1]));
          return finish();
        }
        upgraded = true;
        tally.opened++;
        frames = head.subarray(endOfHead + 4);
        pump();
      } else if (frames.length < 256 * 1024) frames = Buffer.concat([frames, d]);
      const code = closeCode(frames);
      if (code !== null) {
        tally.closeCodes[code] = (tally.closeCodes[code] ?? 0) + 1;
        frames = Buffer.alloc(0);
        finish();
      }
    });
  });
}

async function flooder(init) {
  const url = new URL(init.baseUrl);
  const chunk = floodChunk();
  let framesPerChunk = 0;
  for (let at = 0; at < chunk.length; framesPerChunk++) at += 2 + (chunk[at + 1] & 0x7f) + 4;
  const tally = { connections: 0, opened: 0, refused: {}, closeCodes: {}, frames: 0, bytes: 0, retryAfter: [], framesPerChunk };
  process.send({ ready: true });
  await new Promise((r) => process.once('message', r));
  const end = performance.now() + init.seconds * 1000;
  while (performance.now() < end) await floodOnce(url, init.attemptId, chunk, end, tally);
  delete tally.framesPerChunk;
  process.send(tally);
  setTimeout(() => process.exit(0), 50);
}

if (process.argv.includes('--honest')) process.once('message', (init) => void honest(init));
if (process.argv.includes('--flooder')) process.once('message', (init) => void flooder(init));
