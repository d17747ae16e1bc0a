/**
 * The hall's dependencies: the platform's (AppDeps: database, config, logger, clock,
 * secrets, rate limits) plus the hall's own hot-path parts: the answer buffer, the
 * session cache and the in-process hall events. Built by runtime.ts; every hall module
 * router and service takes them. platform/ never sees these types (issue 23).
 */
import type { AppDeps } from '../platform/deps.js';
import type { AnswerBuffer } from '../modules/attempts/answer-buffer.js';
import type { SessionCache } from '../modules/attempts/session-cache.js';
import type { HallEvents } from './events.js';

export interface HallDeps extends AppDeps {
  buffer: AnswerBuffer;
  sessions: SessionCache;
  /** in-process notifications for the live monitor and the outbox dispatcher */
  events: HallEvents;
}
