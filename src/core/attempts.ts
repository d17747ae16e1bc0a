/** The states of an attempt (docs/design.md §7): in progress, then completed or disqualified. */
export const ATTEMPT_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'DISQUALIFIED'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
