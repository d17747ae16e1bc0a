/**
 * The school's results system during the campaign: a real webhook receiver on
 * 127.0.0.1 that answers 200, verifies `x-cbt-signature` (sha256=<hex HMAC-SHA256 of
 * the raw body keyed with the webhook secret>, docs/api-overview.md, "Events"), and records which event
 * ids arrived for which attempt.
 *
 * Delivery is at-least-once: the server can be killed after the receiver answered but
 * before the row was marked delivered, so the same event id may arrive twice
 * (`repeatDeliveries`, allowed and counted). Two *different* event ids for one attempt
 * would be a duplicated event (`conflictingAttempts`, must stay empty).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceiverStats {
  deliveries: number;
  distinctEvents: number;
  /** deliveries of an event id already received (at-least-once redelivery) */
  repeatDeliveries: number;
  /** attempts for which two or more different completed-event ids arrived */
  conflictingAttempts: string[];
  badSignatures: number;
}

export interface Receiver {
  url: string;
  /** attemptId → event ids received for exam.attempt.completed */
  completedIds: Map<string, Set<string>>;
  /** every event id received (any type) */
  eventIds: Set<string>;
  /** the webhook secret of a workspace (payload `workspaceId`) */
  setSecret(workspaceId: string, secret: string): void;
  stats(): ReceiverStats;
  close(): Promise<void>;
}

function signatureOk(raw: Buffer, secret: string | null, header: string | string[] | undefined): boolean {
  if (!secret || typeof header !== 'string') return false;
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const got = Buffer.from(header);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Starts the receiver on an ephemeral loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const completedIds = new Map<string, Set<string>>();
  const eventIds = new Set<string>();
  const secrets = new Map<string, string>();
  let deliveries = 0;
  let repeatDeliveries = 0;
  let badSignatures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      deliveries++;
      let ev: { id?: string; type?: string; workspaceId?: string; data?: { attemptId?: string } } = {};
      try {
        ev = JSON.parse(raw.toString('utf8'));
      } catch {
        /* not JSON: its signature check below fails */
      }
      if (!signatureOk(raw, secrets.get(ev.workspaceId ?? '') ?? null, req.headers['x-cbt-signature'])) badSignatures++;
      if (ev.id) {
        if (eventIds.has(ev.id)) repeatDeliveries++;
        eventIds.add(ev.id);
      }
      if (ev.type === 'exam.attempt.completed' && ev.data?.attemptId && ev.id) {
        const set = completedIds.get(ev.data.attemptId) ?? new Set<string>();
        set.add(ev.id);
        completedIds.set(ev.data.attemptId, set);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hallcbt-results`,
    completedIds,
    eventIds,
    setSecret: (workspaceId, s) => {
      secrets.set(workspaceId, s);
    },
    stats: () => ({
      deliveries,
      distinctEvents: eventIds.size,
      repeatDeliveries,
      conflictingAttempts: [...completedIds].filter(([, ids]) => ids.size > 1).map(([a]) => a),
      badSignatures,
    }),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
