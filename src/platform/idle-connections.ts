/**
 * Closes keep-alive connections that stay idle too long, in place of Node's own
 * keep-alive timer (`server.keepAliveTimeout`, set to 0 here).
 *
 * Node arms a new timer (a Timeout and a bound function) on the socket after every
 * response and clears it at the next request. A candidate saves every ~2 s on one
 * keep-alive connection, so each of those timers lived ~2 s — long enough to be promoted
 * to the old generation: at 5,000 saves a second they were ~1/5 of everything promoted,
 * and so of the old-generation collections that set the hall's latency tail (issue 8).
 * Here a request only writes a small integer (the current tick) on its socket, and one
 * timer walks the connections every `tickMs`: a connection with no response in progress
 * whose last request started (or last response was still running) more than `idleMs` ago
 * is destroyed, as Node's timer would have destroyed it (within one tick more).
 *
 * A connection that never sends a request is not tracked (Node did not time those out
 * either, with server.timeout 0); the headers and request timeouts still apply.
 *
 * Bytes count as activity, not only whole requests (issue 20): a save whose first bytes
 * have arrived but whose headers are not complete yet has no 'request' event, and closing
 * its connection then reset a request the client had already sent. Each tick compares the
 * socket's `bytesRead` (counted by the stream handle even though Node's HTTP parser reads
 * it directly) with the last tick's; any new byte restarts the idle time. The connection
 * is destroyed (never ended): a request that still races the close — its bytes in flight
 * on the network at that moment — is never accepted (no handler runs), never accepted
 * and left unanswered, and the page resends it (a save is idempotent by its seq).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** what this module keeps on a socket: the tick of its last request, and whether it is tracked */
interface Tracked extends Socket {
  hallcbtTick?: number;
  /** `bytesRead` at the last tick */
  hallcbtBytes?: number;
  /** Node's response in progress on the socket (null or undefined when idle) */
  _httpMessage?: unknown;
}

export interface IdleReaper {
  /** connections tracked now (for tests and /health) */
  readonly size: number;
  /** stops the timer (the server's close handles the connections) */
  stop(): void;
}

/**
 * Starts reaping idle connections of `server`.
 * @param idleMs how long a connection may stay idle after its last request started, ms
 *   (HallCBT: 65,000, longer than any browser keeps an idle connection)
 * @param tickMs how often connections are checked, ms; a connection closes between
 *   `idleMs` and `idleMs + tickMs` after its last request
 */
export function reapIdleConnections(server: Server, idleMs: number, tickMs = 5_000): IdleReaper {
  server.keepAliveTimeout = 0;
  const sockets = new Set<Tracked>();
  let tick = 0;
  const idleTicks = Math.ceil(idleMs / tickMs);
  const forget = function (this: Tracked) {
    sockets.delete(this);
  };
  server.on('request', (req) => {
    const s = req.socket as Tracked;
    if (s.hallcbtTick === undefined) {
      sockets.add(s);
      s.once('close', forget);
    }
    s.hallcbtTick = tick;
  });
  const timer = setInterval(() => {
    tick++;
    for (const s of sockets) {
      if (s._httpMessage) {
        // a response in progress (a long upload, the live monitor's stream): not idle, and
        // idle time counts from about when it ends, as with Node's timer
        s.hallcbtTick = tick;
        continue;
      }
      const bytes = s.bytesRead;
      if (bytes !== s.hallcbtBytes) {
        // bytes arrived since the last tick (a request on its way in): not idle
        s.hallcbtBytes = bytes;
        s.hallcbtTick = tick;
        continue;
      }
      if (tick - s.hallcbtTick! > idleTicks) {
        sockets.delete(s);
        s.destroy();
      }
    }
  }, tickMs);
  timer.unref();
  return {
    get size() {
      return sockets.size;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
