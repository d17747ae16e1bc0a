/**
 * What the candidate page talks to (docs/design.md §7, docs/api-overview.md "Attempt"):
 * the candidate session routes — sign in, read the paper, save, report telemetry, submit;
 * no API key, the attempt id is the capability (routes.ts) — and the save channel, one
 * WebSocket per candidate carrying live saves (save-channel.ts), with the checks that
 * admit it (channel-admit.ts) and what one channel may cost (channel-budget.ts). The
 * rules themselves are the attempts module's; this module is their HTTP and WebSocket edge.
 * This file is the module's only door for other code (test/architecture/house.test.ts).
 */
export { attemptRoutes, candidateLiveRoutes } from './routes.js';
export { attachSaveChannel } from './save-channel.js';
export { attachLeanSave } from './lean-save.js';
