/**
 * An attempt's life in the hall (docs/design.md §7/§8): starting or resuming it (start.ts:
 * PINs, credits, seats of an open room in seats.ts, the wrong-sign-in throttle and its
 * clearing in sign-in-throttle.ts), the Safe Exam Browser lock on candidate requests
 * (seb-lock.ts), saving answers into the answer store (saves.ts), the
 * candidate's flags for review (flags.ts), the timer (timer.ts),
 * the events that finish or re-score it (attempt-events.ts), its views (views.ts),
 * completing and grading it (finalize.ts), the expiry sweep and heartbeat (sweep.ts), the
 * invigilator's actions and routes (invigilation.ts, invigilation-routes.ts), and the zod
 * shapes of the candidate session endpoints (schemas.ts, served by modules/candidate).
 * This file is the module's only door for other code (test/architecture/house.test.ts).
 */
export { previewAttempt, startAttempt } from './start.js';
export { clearStudentThrottle } from './sign-in-throttle.js';
export { candidateAttempt, saveAnswers } from './saves.js';
export { GRACE_MS, remainingMs, remainingSeconds } from './timer.js';
export { recordAttemptEvent } from './attempt-events.js';
export { sessionView } from './views.js';
export { setFlag } from './flags.js';
export { finalizeAttempt, storeGrade, submitResponse } from './finalize.js';
export { creditDowntime, sweepExpired, writeHeartbeat } from './sweep.js';
export { attemptInWorkspace } from './invigilation.js';
export { invigilationRoutes } from './invigilation-routes.js';
export * as candidateSchemas from './schemas.js';
