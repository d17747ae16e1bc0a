/** Small HTTP helpers shared by routers. */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The TCP peer address of the request ("unknown" under app.request() in tests). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
