/**
 * The outbox dispatcher (docs/design.md §8). Due PENDING rows are POSTed to the workspace's
 * webhookUrl with the exact stored body and the signature headers. Success = any 2xx
 * within 10 s. Otherwise the next try follows exponential backoff with ±20 % jitter
 * (10 s, 20 s, 40 s … capped at 15 min) until 7 days after the event, when the row is
 * marked FAILED. Rows survive restarts; the id and body never change between tries.
 *
 * A workspace without a webhook URL (an offline centre that signed up without one) is
 * skipped: its rows stay PENDING, untried, however long. The 7-day clock runs from the
 * later of the event and the moment a URL was set on the workspace (`webhook_url_set_at`),
 * so a URL set after a week still gets every waiting event a full week of tries
 * (docs/decisions.md, "An offline centre signs up without a webhook URL").
 */
import type { HallDeps } from '../../hall/deps.js';
import type { OutboxEventRow, WorkspaceRow } from '../../db/rows.js';
import { cbtSignature, standardWebhookSignature } from './signature.js';
import { postWebhook } from './post.js';
import { RefusedDestination } from './url-guard.js';

const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_AGE_MS = 7 * 24 * 3600_000;
const FIRST_RETRY_MS = 10_000;
const MAX_BACKOFF_MS = 15 * 60_000;

/** A due event as `deliverDue` selects it: its outbox columns and the workspace's `url_set_at`. */
type OutboxRow = Pick<OutboxEventRow, 'id' | 'workspace_id' | 'type' | 'body' | 'tries' | 'created_at'> & {
  /** `workspaces.webhook_url_set_at`: when the workspace got its webhook URL after having none (null: it had one from the start) */
  url_set_at: WorkspaceRow['webhook_url_set_at'];
};

/** Delay before try number `tries + 1` after `tries` failures (ms, with jitter). */
export function backoffMs(tries: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, FIRST_RETRY_MS * 2 ** Math.max(0, tries - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export class OutboxDispatcher {
  private readonly inFlight = new Set<string>();
  private running: Promise<number> | null = null;

  constructor(
    private readonly deps: HallDeps,
    private readonly opts: { concurrency?: number; timeoutMs?: number } = {},
  ) {}

  /** Delivers every due row once (concurrency-limited). Resolves with the number tried. */
  runOnce(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.deliverDue().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves when no delivery run is in progress (for shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async deliverDue(): Promise<number> {
    const { sqlite, clock } = this.deps;
    // rows of workspaces without a webhook URL wait, untouched, until one is set
    const rows = sqlite
      .prepare(
        `SELECT o.id, o.workspace_id, o.type, o.body, o.tries, o.created_at, w.webhook_url_set_at AS url_set_at
         FROM outbox_events o JOIN workspaces w ON w.id = o.workspace_id
         WHERE o.status = 'PENDING' AND o.next_attempt_at <= ? AND w.webhook_url IS NOT NULL
         ORDER BY o.next_attempt_at LIMIT 200`,
      )
      .all(clock.now()) as OutboxRow[];
    const queue = rows.filter((r) => !this.inFlight.has(r.id));
    const workers = Array.from({ length: Math.min(this.opts.concurrency ?? 8, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await this.deliver(row);
    });
    await Promise.all(workers);
    return rows.length;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { sqlite, clock, secrets, logger } = this.deps;
    this.inFlight.add(row.id);
    try {
      const ws = sqlite.prepare('SELECT webhook_url, webhook_secret_sealed FROM workspaces WHERE id = ?').get(row.workspace_id) as { webhook_url: string | null; webhook_secret_sealed: string } | undefined;
      if (!ws?.webhook_url) return; // no URL (any more): the row waits, untried
      const secret = secrets.open(ws.webhook_secret_sealed);
      const ts = Math.floor(clock.now() / 1000);
      let status: number | null = null;
      let error: string | null = null;
      try {
        status = await postWebhook(
          ws.webhook_url,
          row.body,
          {
            'content-type': 'application/json',
            'user-agent': 'HallCBT-Webhooks/1.2.0',
            'x-cbt-signature': cbtSignature(row.body, secret),
            'x-cbt-event': row.type,
            'x-cbt-delivery': row.id,
            'x-cbt-timestamp': String(ts),
            'webhook-id': row.id,
            'webhook-timestamp': String(ts),
            'webhook-signature': standardWebhookSignature(row.id, ts, row.body, secret),
          },
          // the destination is checked on the addresses connected to (url-guard.ts)
          { timeoutMs: this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS, allowLocal: this.deps.config.CBT_WEBHOOK_ALLOW_LOCAL === '1' },
        );
        if (status >= 200 && status < 300) {
          sqlite.prepare("UPDATE outbox_events SET status = 'DELIVERED', tries = tries + 1, delivered_at = ?, last_status_code = ?, last_error = NULL WHERE id = ?").run(clock.now(), status, row.id);
          return;
        }
        error = `HTTP ${status}`;
      } catch (e) {
        error =
          (e as Error).name === 'TimeoutError'
            ? `no response within ${(this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000} s`
            : e instanceof RefusedDestination
              ? `refused: ${e.message}`
              : `network error: ${(e as { code?: string }).code ?? (e as Error).message}`;
      }
      this.fail(row, error!, status);
      logger.warn('webhook delivery failed', { eventId: row.id, tries: row.tries + 1, error });
    } finally {
      this.inFlight.delete(row.id);
    }
  }

  private fail(row: OutboxRow, error: string, status: number | null): void {
    const now = this.deps.clock.now();
    const tries = row.tries + 1;
    const next = now + backoffMs(tries);
    const expired = next - Math.max(row.created_at, row.url_set_at ?? 0) > MAX_AGE_MS;
    this.deps.sqlite
      .prepare('UPDATE outbox_events SET status = ?, tries = ?, next_attempt_at = ?, last_error = ?, last_status_code = ? WHERE id = ?')
      .run(expired ? 'FAILED' : 'PENDING', tries, next, error, status, row.id);
  }
}
