/**
 * A load process of the 10,000-candidate bench (ws-hall.mjs; issue 40 §4), forked and
 * driven over IPC. Modes (argv):
 *
 * - `--channels`: opens one save channel (the `ws` client, as the page's WebSocket) per
 *   candidate it is given — to the hall (`GET /attempts/{id}/channel`) or to the bare
 *   echo server (ws-echo.mjs, any path) — spread over the local addresses 127.0.0.1–4
 *   (loopback's ephemeral ports run out near 28,000 per address pair), `opening` at a
 *   time. Per `phase` it sends `rate` saves a second in total, open loop (a save is due
 *   at its time whatever the replies do), to its channels in a shuffled round robin:
 *   one frame `{i, q, o, s}` per save, as the page sends. It times each save from send
 *   to its reply (ack, ms) and, against the hall, to its durable acknowledgement (ms):
 *   the reply's `d` when it already covers the save's seq, else the first `{d}` push
 *   that does; against the echo server the reply is both. After the phase it waits up
 *   to `drainMs` for the acknowledgements still due.
 *   Reply: `{acks: ms[], durable: ms[], sent, errors, problems: {code: n}, undurable,
 *   unanswered, closes}`.
 * - `--put`: `putRate` saves a second over HTTP (`PUT /attempts/{id}/answers/{qid}`,
 *   keep-alive, 64 sockets at most) to its own candidates, open loop, timed send →
 *   response. Reply: `{acks: ms[], sent, errors}`.
 *
 * Messages: init `{mode…}` → `{ready, opened, failed, firstError}`; `{cmd: 'phase',
 * seconds, rate|putRate, drainMs}` → the phase's reply; `{cmd: 'stop'}` ends it.
 */
import { Agent, request } from 'node:http';
import WebSocket from 'ws';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens one channel; resolves the channel's state (or rejects with why it was refused). */
function openChannel(url, localAddress, c) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress, handshakeTimeout: 30_000 });
    ws.once('unexpected-response', (_q, res) => reject(new Error(`channel refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => {
      ws.removeListener('error', reject);
      resolve({ ws, c, seq: 0, nextId: 1, waiting: new Map(), pend: [], closed: false });
    });
  });
}

async function channels(init) {
  const { baseUrl, candidates, echo, opening = 200 } = init;
  const chans = [];
  let failed = 0;
  let firstError = null;
  const wsBase = baseUrl.replace(/^http/, 'ws');
  for (let k = 0; k < candidates.length; k += opening) {
    const batch = candidates.slice(k, k + opening).map((c, j) =>
      openChannel(`${wsBase}/attempts/${c.attemptId}/channel`, `127.0.0.${1 + ((k + j) % 4)}`, c).then(
        (ch) => chans.push(ch),
        (e) => ((failed += 1), (firstError ??= String(e))),
      ),
    );
    await Promise.all(batch);
  }
  let tally = null;
  const now = () => performance.now();
  const durableUpTo = (ch, d) => {
    while (ch.pend.length && ch.pend[0][0] <= d) {
      const [, t0] = ch.pend.shift();
      if (tally) tally.durable.push(now() - t0);
    }
  };
  for (const ch of chans) {
    ch.ws.on('close', () => (ch.closed = true));
    ch.ws.on('error', () => undefined);
    ch.ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (typeof m.i === 'number') {
        const w = ch.waiting.get(m.i);
        if (!w) return;
        ch.waiting.delete(m.i);
        if (!tally) return;
        const ms = now() - w.t0;
        if (m.p) {
          tally.errors++;
          const code = m.p.code ?? m.p.status;
          tally.problems[code] = (tally.problems[code] ?? 0) + 1;
          ch.pend = ch.pend.filter((p) => p[0] !== w.s);
          return;
        }
        tally.acks.push(ms);
        if (echo) {
          ch.pend = ch.pend.filter((p) => p[0] !== w.s);
          tally.durable.push(ms);
        } else if (typeof m.d === 'number') durableUpTo(ch, m.d);
      } else if (typeof m.d === 'number') durableUpTo(ch, m.d);
    });
  }
  process.send({ ready: true, opened: chans.length, failed, firstError });

  // a shuffled round robin: every channel saves once per pass, in an order that differs per process
  const order = chans.map((_, k) => k);
  for (let k = order.length - 1; k > 0; k--) {
    const j = Math.floor(Math.random() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  let cursor = 0;
  const sendOne = () => {
    for (let tries = 0; tries < order.length; tries++) {
      const ch = chans[order[cursor++ % order.length]];
      if (ch.closed) continue;
      const qs = ch.c.questions;
      const q = qs[ch.seq % qs.length];
      const s = ++ch.seq;
      const i = ch.nextId++;
      const t0 = now();
      ch.waiting.set(i, { t0, s });
      ch.pend.push([s, t0]);
      ch.ws.send(`{"i":${i},"q":"${q.id}","o":"${q.optionIds[s % q.optionIds.length]}","s":${s}}`);
      return true;
    }
    return false;
  };

  process.on('message', async (m) => {
    if (m.cmd === 'stop') {
      for (const ch of chans) ch.ws.terminate();
      return process.exit(0);
    }
    if (m.cmd !== 'phase') return;
    tally = { acks: [], durable: [], sent: 0, errors: 0, problems: {} };
    for (const ch of chans) (ch.pend = []), ch.waiting.clear();
    const start = now();
    const end = start + m.seconds * 1000;
    while (now() < end) {
      const due = Math.floor(((now() - start) / 1000) * m.rate);
      while (tally.sent < due && sendOne()) tally.sent++;
      await sleep(1);
    }
    const drainEnd = now() + (m.drainMs ?? 3000);
    const left = () => chans.reduce((n, ch) => n + ch.pend.length + ch.waiting.size, 0);
    while (now() < drainEnd && left() > 0) await sleep(20);
    const out = { ...tally, undurable: chans.reduce((n, ch) => n + ch.pend.length, 0), unanswered: chans.reduce((n, ch) => n + ch.waiting.size, 0), closes: chans.filter((ch) => ch.closed).length };
    tally = null;
    process.send(out);
  });
}

async function puts(init) {
  const { baseUrl, candidates } = init;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(baseUrl);
  const seqs = new Map(candidates.map((c) => [c.attemptId, 0]));
  process.send({ ready: true, opened: candidates.length, failed: 0 });
  process.on('message', async (m) => {
    if (m.cmd === 'stop') {
      agent.destroy();
      return process.exit(0);
    }
    if (m.cmd !== 'phase') return;
    const tally = { acks: [], sent: 0, errors: 0 };
    let inFlight = 0;
    let k = 0;
    const one = () => {
      const c = candidates[k++ % candidates.length];
      const s = seqs.get(c.attemptId) + 1;
      seqs.set(c.attemptId, s);
      const q = c.questions[s % c.questions.length];
      const body = `{"optionId":"${q.optionIds[s % q.optionIds.length]}","seq":${s}}`;
      const t0 = performance.now();
      inFlight++;
      const req = request({ host: url.hostname, port: url.port, method: 'PUT', path: `/attempts/${c.attemptId}/answers/${q.id}`, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          inFlight--;
          if (res.statusCode === 200) tally.acks.push(performance.now() - t0);
          else tally.errors++;
        });
      });
      req.on('error', () => (inFlight--, tally.errors++));
      req.end(body);
    };
    const start = performance.now();
    const end = start + m.seconds * 1000;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - start) / 1000) * m.putRate);
      while (tally.sent < due) one(), tally.sent++;
      await sleep(2);
    }
    const drainEnd = performance.now() + (m.drainMs ?? 3000);
    while (inFlight > 0 && performance.now() < drainEnd) await sleep(20);
    process.send(tally);
  });
}

if (process.argv.includes('--channels')) process.once('message', (init) => void channels(init));
if (process.argv.includes('--put')) process.once('message', (init) => void puts(init));
