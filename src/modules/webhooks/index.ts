/**
 * The webhooks module's door (docs/house.md, "Modules and their doors"): The signed
 * webhook outbox: events written with the attempt, the dispatcher that delivers them with
 * backoff, and the guard on webhook URLs. Other modules import only from here; the
 * composition root mounts the module's routers from its route files.
 */
export { MAX_AGE_MS, OutboxDispatcher, backoffMs } from './dispatcher.js';
export { enqueueWebhookEvent } from './outbox.js';
export type { EventType } from './outbox.js';
export { checkWebhookUrl, refusalText, refusedAddress, webhookLookup } from './url-guard.js';
export type { GuardWording } from './url-guard.js';
