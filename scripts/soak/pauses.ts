/**
 * Pauses of the campaign's virtual candidates that the kill can end early (issue 34:
 * measured, a round waited 170 ms on average after each SIGKILL for candidates still in
 * their pause).
 */

/**
 * The candidates' pauses between saves, cut short by the kill: a candidate that wakes to
 * find the server being killed sends nothing more (campaign.ts, candidateLoop), so without `wakeAll`
 * the round waited up to a whole pause (0.1–0.4 s) after every SIGKILL for nothing.
 */
export class Pauses {
  private readonly sleepers = new Set<() => void>();

  /** Resolves after `ms`, or at the next `wakeAll()`. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** Ends every pause now. */
  wakeAll(): void {
    for (const done of [...this.sleepers]) done();
  }
}
