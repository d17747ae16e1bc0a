/**
 * In-process event hub: services announce what changed (an attempt saved, an attempt
 * disqualified, an outbox row written, an answer flush committed) and listeners react (the
 * live monitor's SSE streams, the outbox dispatcher's "deliver now" kick, the save
 * channel's durableSeq push). Synchronous and cheap.
 */
export type HallEvent =
  | { kind: 'attempt-changed'; examId: string; attemptId: string }
  | { kind: 'attempt-disqualified'; examId: string; attemptId: string; candidateName: string }
  /** an outbox row was written: its event id */
  | { kind: 'outbox-written'; eventId: string }
  /** a workspace's waiting outbox rows became deliverable (its first webhook URL was set) */
  | { kind: 'outbox-due'; workspaceId: string }
  /** a scheduled answer flush committed: durableSeq may have moved (the save channel tells its pages) */
  | { kind: 'answers-flushed' };

export class HallEvents {
  private readonly listeners = new Set<(e: HallEvent) => void>();
  /** Subscribes; returns the unsubscribe function. */
  on(fn: (e: HallEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  emit(e: HallEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        /* a listener's failure never breaks the emitting request */
      }
    }
  }
}
