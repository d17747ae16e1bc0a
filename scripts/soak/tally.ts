/**
 * The campaign's figures: what was done (kills, saves, submits) and what was checked,
 * with every failure kept as a short description so a run can be debugged. `failed()`
 * is true when any check found a problem; the CLI exits 1 then, and the CI test fails.
 */
import { PhaseClock } from './phases.js';

export interface Tally {
  synchronous: 'FULL' | 'NORMAL';
  candidates: number;
  questions: number;
  kills: number;
  /** of the kills, rounds that were power cuts (power-cut.ts) */
  powerCuts: number;
  /** why power-cut rounds were asked for but not run (not root, no loop devices), else null */
  powerCutsSkipped: string | null;
  /** longest copy of the disk image at a cut, ms */
  powerCutCopyMaxMs: number;
  /** the run hit its time bound (--max-minutes) before all rounds */
  stoppedEarly: boolean;
  /** kills that landed during start-up (before or just after "listening") */
  startupKills: number;
  restarts: number;
  savesSent: number;
  savesAcknowledged: number;
  /** rounds under load that did not reach `minSavesPerRound` acknowledged saves in time (failures) */
  thinRounds: string[];
  /** rounds under load that reached `minSavesPerRound` acknowledged saves before the kill */
  roundsAtMinimum: number;
  /** requests cut off by a kill (no response: the answer stayed in the candidate's queue) */
  requestsCutOff: number;
  replayedAnswers: number;
  /** recoveries through GET /attempts/:id and through signing in again (POST /attempts/start) */
  readResumes: number;
  signInResumes: number;
  submitsAcknowledged: number;
  /** (a) per-question checks of answers at or below the acknowledged durableSeq */
  answersChecked: number;
  lost: string[];
  /** (b) */
  integrityChecks: number;
  integrityFailures: string[];
  /** (c) */
  completedAttempts: number;
  outboxChecks: number;
  outboxProblems: string[];
  webhookDeliveries: number;
  distinctEventsReceived: number;
  /** the same event id received again (at-least-once; allowed) */
  repeatDeliveries: number;
  /** attempts for which two different event ids arrived (must be 0) */
  duplicateEventIds: number;
  badSignatures: number;
  undelivered: string[];
  /** (d) */
  creditChecks: number;
  /** of those, checks where the outage was longer than the tolerance (a missing credit would fail) */
  creditChecksDiscriminating: number;
  creditFailures: string[];
  /** seconds of outage credited back to candidates, summed */
  secondsCredited: number;
  /** (e) */
  convergenceChecks: number;
  divergences: string[];
  /** responses that were neither the expected 2xx nor a cut-off (e.g. 5xx) */
  unexpectedResponses: string[];
  serverErrorLogLines: string[];
  wallSeconds: number;
  /** where the wall time went, per phase (phases.ts) */
  phases: PhaseClock;
}

/** A zeroed tally. */
export function newTally(synchronous: 'FULL' | 'NORMAL', candidates: number, questions: number): Tally {
  return {
    synchronous, candidates, questions, kills: 0, powerCuts: 0, powerCutsSkipped: null, powerCutCopyMaxMs: 0, stoppedEarly: false, startupKills: 0, restarts: 0, savesSent: 0, savesAcknowledged: 0, thinRounds: [], roundsAtMinimum: 0, requestsCutOff: 0,
    replayedAnswers: 0, readResumes: 0, signInResumes: 0, submitsAcknowledged: 0, answersChecked: 0, lost: [], integrityChecks: 0, integrityFailures: [],
    completedAttempts: 0, outboxChecks: 0, outboxProblems: [], webhookDeliveries: 0, distinctEventsReceived: 0, repeatDeliveries: 0,
    duplicateEventIds: 0, badSignatures: 0, undelivered: [], creditChecks: 0, creditChecksDiscriminating: 0, creditFailures: [],
    secondsCredited: 0, convergenceChecks: 0, divergences: [], unexpectedResponses: [], serverErrorLogLines: [], wallSeconds: 0,
    phases: new PhaseClock(),
  };
}

/** True when any check failed. */
export function failed(t: Tally): boolean {
  return (
    t.lost.length + t.integrityFailures.length + t.outboxProblems.length + t.duplicateEventIds + t.badSignatures + t.undelivered.length +
      t.creditFailures.length + t.divergences.length + t.unexpectedResponses.length + t.serverErrorLogLines.length + t.thinRounds.length > 0
  );
}

/** The figures as Markdown table rows `| what | value |`. */
export function tallyRows(t: Tally): [string, string][] {
  return [
    ['synchronous', t.synchronous],
    ['candidates / questions', `${t.candidates} / ${t.questions}`],
    ['SIGKILLs (of which during start-up)', `${t.kills} (${t.startupKills})${t.stoppedEarly ? ' — stopped by the time bound' : ''}`],
    ['of those, power cuts (unwritten data dropped; longest image copy)', t.powerCutsSkipped ? `skipped: ${t.powerCutsSkipped}` : `${t.powerCuts} (${t.powerCutCopyMaxMs} ms)`],
    ['restarts on the same data directory', String(t.restarts)],
    ['answer saves sent / acknowledged', `${t.savesSent} / ${t.savesAcknowledged}`],
    ['rounds under load short of the minimum acknowledged saves', String(t.thinRounds.length)],
    ['requests cut off by a kill', String(t.requestsCutOff)],
    ['recovery reads (GET) / sign-ins again (start)', `${t.readResumes} / ${t.signInResumes}`],
    ['answers replayed from candidate queues', String(t.replayedAnswers)],
    ['(a) durable answers checked after restarts', String(t.answersChecked)],
    ['(a) lost', String(t.lost.length)],
    ['(b) integrity checks / failures', `${t.integrityChecks} / ${t.integrityFailures.length}`],
    ['(c) completed attempts / outbox problems', `${t.completedAttempts} / ${t.outboxProblems.length}`],
    ['(c) webhook deliveries / distinct events', `${t.webhookDeliveries} / ${t.distinctEventsReceived}`],
    ['(c) repeat deliveries of one event id (at-least-once)', String(t.repeatDeliveries)],
    ['(c) duplicate event ids for one attempt', String(t.duplicateEventIds)],
    ['(c) events never delivered / bad signatures', `${t.undelivered.length} / ${t.badSignatures}`],
    ['(d) downtime-credit checks (discriminating) / failures', `${t.creditChecks} (${t.creditChecksDiscriminating}) / ${t.creditFailures.length}`],
    ['(d) outage seconds credited back to candidates', String(Math.round(t.secondsCredited))],
    ['(e) convergence checks / divergences', `${t.convergenceChecks} / ${t.divergences.length}`],
    ['acknowledged submits', String(t.submitsAcknowledged)],
    ['unexpected responses / server error log lines', `${t.unexpectedResponses.length} / ${t.serverErrorLogLines.length}`],
    ['wall time', `${Math.round(t.wallSeconds)} s`],
    ['mean time per round (configured uptime + downtime alone)', meanRound(t)],
  ];
}

/** Mean wall time of a round, and what the configured times alone would give (phases.ts). */
function meanRound(t: Tally): string {
  const f = (name: string) => t.phases.phases.get(name);
  const round = f('round, total');
  if (!round?.count) return '–';
  const configured = ['uptime under load (configured)', 'start-up kill: wait before the SIGKILL (configured 0–1.5 s)', 'rest of the downtime (configured)']
    .reduce((ms, n) => ms + (f(n)?.totalMs ?? 0), 0);
  return `${(round.totalMs / round.count / 1000).toFixed(2)} s (${(configured / round.count / 1000).toFixed(2)} s)`;
}

/** First few failure descriptions of every kind (for the console). */
export function failureSamples(t: Tally, n = 5): string[] {
  const kinds: [string, string[]][] = [
    ['lost', t.lost], ['integrity', t.integrityFailures], ['outbox', t.outboxProblems], ['undelivered', t.undelivered],
    ['credit', t.creditFailures], ['divergence', t.divergences], ['unexpected', t.unexpectedResponses], ['server error log', t.serverErrorLogLines],
    ['thin round', t.thinRounds],
  ];
  return kinds.flatMap(([k, list]) => list.slice(0, n).map((d) => `${k}: ${d}`));
}
