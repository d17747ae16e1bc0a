/**
 * Webhook signatures (docs/api-overview.md, "Events", docs/design.md §8):
 * - `x-cbt-signature: sha256=<lowercase hex HMAC-SHA256(raw body, webhookSecret)>`;
 * - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256("id.timestamp.body")>`
 *   with `webhook-id` and `webhook-timestamp` (seconds), keyed with the secret's bytes.
 */
import { createHmac } from 'node:crypto';

/** `sha256=<hex>` of the exact body bytes. */
export function cbtSignature(body: string, secret: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** `v1,<base64>` over `${id}.${timestampSeconds}.${body}`. */
export function standardWebhookSignature(id: string, timestampSeconds: number, body: string, secret: string): string {
  return 'v1,' + createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
}
