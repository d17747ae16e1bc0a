/**
 * The crash and power-cut campaign (issue 9, part 1). One data directory, one fixed
 * port, the real server process, a real webhook receiver, virtual candidates saving
 * answers with their own seq counters. Each round:
 *
 *   up    the server listens; every candidate first recovers (checks a, d, e — see
 *         actions.ts) and then saves answers (single and batch) until the kill; some
 *         submit at a random moment;
 *   kill  SIGKILL at a random moment (a share of the kills land during start-up), and
 *         not before the round's minimum of acknowledged saves (`minSavesPerRound`);
 *         Every (kills/powerCuts)-th round is a POWER CUT instead (power-cut.ts): after
 *         the SIGKILL, only what the data directory's ext4 had written to its (loop)
 *         device survives;
 *   down  the database is checked read-only on disk (a, b, c — see checks.ts) while the
 *         power is "out" for a random 2–3.5 s; then the server is restarted.
 *
 * At the end every candidate recovers once more and submits, the outbox must drain to
 * the receiver (one event id per completed attempt), and after a graceful stop the file
 * is checked a last time. Returns the tally; the caller decides what a failure means.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { recover, saveAnswers, submit, type Ctx, type Phase } from './actions.js';
import type { VirtualCandidate } from './candidate.js';
import { checkOnDisk } from './checks.js';
import { JsonClient } from './http.js';
import { between, campaignOptionsSchema, seededRandom, type CampaignOptions } from './options.js';
import { startReceiver } from './receiver.js';
import { seed } from './seed.js';
import { freePort, ServerProcess } from './server-process.js';
import { LoopDisk, powerCutUnavailable } from './power-cut.js';
import { Pauses } from './pauses.js';
import { newTally, type Tally } from './tally.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a round under load waits, after its uptime, for its minimum acknowledged saves. */
const MIN_SAVES_WAIT_MS = 30_000;

/**
 * Waits until `t.savesAcknowledged` reaches `target` (polling every 50 ms), at most
 * MIN_SAVES_WAIT_MS, or until no candidate is saving any more (`saving()` false: all
 * submitted). Reached: counted in `t.roundsAtMinimum`. Short of it while candidates were
 * still saving: the round is recorded in `t.thinRounds` (a failure: the kill would land on a
 * save path that was not working).
 */
async function awaitSaves(t: Tally, target: number, round: number, saving: () => boolean): Promise<void> {
  const deadline = Date.now() + MIN_SAVES_WAIT_MS;
  while (t.savesAcknowledged < target && saving() && Date.now() < deadline) await sleep(50);
  if (t.savesAcknowledged >= target) t.roundsAtMinimum++;
  else if (saving()) t.thinRounds.push(`round ${round}: ${t.savesAcknowledged} acknowledged saves, ${target} wanted within ${MIN_SAVES_WAIT_MS / 1000} s after the uptime`);
}

/**
 * Candidates recovering at once in the final phase. All 500 at once queued 500 requests on
 * a server sharing two loaded cores (load average 18): some waited over the client's 10 s
 * and counted as "no response while the server was up". Every candidate still recovers and
 * is checked (a, d, e) exactly as before, in waves.
 */
const FINAL_CONCURRENCY = 50;

/** Runs `fn` over `items`, at most `n` at a time. */
async function eachAtMost<T>(n: number, items: T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/** One candidate's life while the server is up: recover if needed, then save until the phase ends. */
async function candidateLoop(ctx: Ctx, c: VirtualCandidate, state: { recovered: Set<VirtualCandidate>; pauses: Pauses }, submitAt: number | null, opts: CampaignOptions, onRecovered: () => void): Promise<void> {
  if (!state.recovered.has(c)) {
    if (!(await recover(ctx, c))) return;
    state.recovered.add(c);
  }
  onRecovered();
  while (!ctx.phase.killing && c.status === 'IN_PROGRESS') {
    await state.pauses.pause(between(ctx.rng, opts.thinkMs));
    if (ctx.phase.killing) return;
    if (submitAt !== null && Date.now() >= submitAt) {
      await submit(ctx, c);
      return;
    }
    await saveAnswers(ctx, c, ctx.rng() < 0.85 ? 1 : 2 + Math.floor(ctx.rng() * 3));
  }
}

/** Runs the campaign. */
export async function runCampaign(input: Partial<CampaignOptions> = {}, log: (line: string) => void = () => {}): Promise<Tally> {
  const opts = campaignOptionsSchema.parse(input);
  const started = Date.now();
  const rng = seededRandom(opts.seed);
  const t = newTally(opts.synchronous, opts.candidates, opts.objective + opts.essays);
  const clock = t.phases;
  const runDir = mkdtempSync(join(tmpdir(), `hallcbt-soak-${opts.synchronous.toLowerCase()}-`));
  const dataDir = join(runDir, 'data');
  const dbFile = join(dataDir, 'hallcbt.sqlite');
  let disk: LoopDisk | null = null;
  if (opts.powerCuts > 0) {
    const why = powerCutUnavailable();
    if (why) {
      t.powerCutsSkipped = why;
      log(`soak: power-cut rounds skipped: ${why}`);
    } else {
      disk = new LoopDisk(runDir, dataDir);
      disk.create();
    }
  }
  // round k is a power cut when the count of cuts due by k goes up (spread evenly; round 1, right after the first start, is one)
  const isPowerCut = (k: number) => disk !== null && Math.ceil((k * opts.powerCuts) / opts.kills) > Math.ceil(((k - 1) * opts.powerCuts) / opts.kills);
  const receiver = await startReceiver();
  const server = new ServerProcess({
    built: opts.built,
    dataDir,
    port: await freePort(),
    logFile: join(runDir, 'server.log'),
    // the simulated candidates all come from loopback: the one-attempt-per-computer rule of open rooms is off
    env: { CBT_SQLITE_SYNCHRONOUS: opts.synchronous, CBT_RATE_LIMIT_PER_MIN: '1000000', CBT_ANSWER_RATE_LIMIT_PER_MIN: '1000000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' },
  });
  const client = new JsonClient(server.baseUrl);
  const phase: Phase = { killing: false, label: 'seed' };
  const ctx: Ctx = { client, tally: t, phase, server, rng, signInShare: opts.signInShare };
  log(`soak: synchronous=${opts.synchronous} kills=${opts.kills} (power cuts ${disk ? opts.powerCuts : 0}) candidates=${opts.candidates} seed=${opts.seed} dir=${runDir}`);
  try {
    server.spawn();
    await server.ready();
    const seeded = await clock.time('seed (halls, exams, candidates started)', () => seed(client, receiver.url, opts.candidates, opts));
    for (const h of seeded.halls) receiver.setSecret(h.workspaceId, h.webhookSecret);
    const candidates = seeded.candidates;
    const state = { recovered: new Set<VirtualCandidate>(candidates), pauses: new Pauses() };
    const submitChance = opts.submitShare / opts.kills;

    for (let k = 1; k <= opts.kills; k++) {
      if (opts.maxMinutes > 0 && Date.now() - started > opts.maxMinutes * 60_000) {
        t.stoppedEarly = true;
        log(`  time bound of ${opts.maxMinutes} min reached after ${k - 1} rounds`);
        break;
      }
      phase.label = `round ${k}`;
      phase.killing = false;
      const roundStarted = performance.now();
      const startupKill = k > 1 && rng() < opts.startupKillShare;
      let loops: Promise<unknown>[] = [];
      let toRecover = 0;
      if (startupKill) {
        await clock.time('start-up kill: wait before the SIGKILL (configured 0–1.5 s)', () => sleep(between(rng, [0, 1500])));
        t.startupKills++;
      } else {
        await clock.time('wait for the restarted server to listen', () => server.ready());
        const uptime = between(rng, opts.uptimeMs);
        const now = Date.now();
        const live = candidates.filter((c) => c.status !== 'COMPLETED');
        toRecover = live.length;
        const upAt = performance.now();
        const onRecovered = () => {
          if (--toRecover === 0 && !phase.killing) clock.add('(within uptime) every candidate recovered after the restart', performance.now() - upAt);
        };
        let running = live.length;
        loops = live.map((c, i) => {
          const submits = c.status === 'IN_PROGRESS' && (rng() < submitChance || (k === 1 && i === 0 && candidates.length > 1));
          return candidateLoop(ctx, c, state, submits ? now + between(rng, [0, uptime]) : null, opts, onRecovered).finally(() => running--);
        });
        const savesBefore = t.savesAcknowledged;
        await clock.time('uptime under load (configured)', () => sleep(uptime));
        if (opts.minSavesPerRound > 0) await clock.time('wait for the round\'s minimum acknowledged saves', () => awaitSaves(t, savesBefore + opts.minSavesPerRound, k, () => running > 0));
      }
      phase.killing = true;
      if (toRecover > 0 && !startupKill) clock.add('(within uptime) rounds killed before every candidate had recovered', 0);
      state.pauses.wakeAll();
      await clock.time('SIGKILL → process exit', () => server.kill());
      const powerCut = isPowerCut(k);
      if (powerCut) {
        disk!.cut(clock);
        t.powerCuts++;
      }
      const killedAt = Date.now();
      t.kills++;
      await clock.time('cut-off requests settle', () => Promise.all(loops));
      client.reset();
      state.recovered.clear();
      clock.time('on-disk checks (a, b, c), total', () => checkOnDisk(dbFile, candidates, receiver, t, `after ${powerCut ? 'power cut' : 'kill'} ${k}`, clock));
      log(`  ${powerCut ? 'power cut' : 'kill'} ${k}/${opts.kills}${startupKill ? ' (start-up)' : ''}: saves ${t.savesAcknowledged}/${t.savesSent}, checked ${t.answersChecked}, lost ${t.lost.length}, submits ${t.submitsAcknowledged}, problems ${t.integrityFailures.length + t.outboxProblems.length + t.creditFailures.length + t.divergences.length + t.unexpectedResponses.length}`);
      const downtime = between(rng, opts.downtimeMs);
      if (Date.now() - killedAt > downtime) clock.add('downtime overrun: checks took longer than the drawn downtime', Date.now() - killedAt - downtime);
      await clock.time('rest of the downtime (configured)', () => sleep(Math.max(0, killedAt + downtime - Date.now())));
      server.spawn();
      t.restarts++;
      clock.add('round, total', performance.now() - roundStarted);
    }

    // the end: recover, submit everyone, let the outbox drain
    phase.label = 'final';
    phase.killing = false;
    const finalStarted = performance.now();
    await server.ready();
    await eachAtMost(FINAL_CONCURRENCY, candidates, (c) => recover(ctx, c));
    for (const c of candidates) if (c.status !== 'COMPLETED') await submit(ctx, c);
    await eachAtMost(FINAL_CONCURRENCY, candidates, (c) => recover(ctx, c));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const h = await client.get('/health');
      if (h.body?.outboxPending === 0 && candidates.every((c) => receiver.completedIds.has(c.attemptId))) break;
      await sleep(250);
    }
    await server.stop();
    checkOnDisk(dbFile, candidates, receiver, t, 'after the graceful stop');
    clock.add('final: recover, submit, drain the outbox, stop, check', performance.now() - finalStarted);
    const db = new Database(dbFile, { readonly: true });
    const completed = db.prepare("SELECT id FROM attempts WHERE status = 'COMPLETED'").all() as { id: string }[];
    db.close();
    t.completedAttempts = completed.length;
    for (const { id } of completed) if (!receiver.completedIds.has(id)) t.undelivered.push(id);
    for (const c of candidates) if (c.status !== 'COMPLETED') t.unexpectedResponses.push(`final: ${c.attemptId} never completed`);
    const rs = receiver.stats();
    Object.assign(t, { webhookDeliveries: rs.deliveries, distinctEventsReceived: rs.distinctEvents, repeatDeliveries: rs.repeatDeliveries, duplicateEventIds: rs.conflictingAttempts.length, badSignatures: rs.badSignatures });
  } finally {
    if (server.running) await server.kill();
    t.serverErrorLogLines = server.errorLines;
    for (const ms of server.startupMs) clock.add('(overlaps) spawn → listening, per process that listened', ms);
    await receiver.close();
    t.wallSeconds = (Date.now() - started) / 1000;
    if (disk) {
      t.powerCutCopyMaxMs = Math.round(Math.max(0, ...disk.copyMs));
      disk.close(opts.keepDir);
    }
    if (!opts.keepDir) rmSync(runDir, { recursive: true, force: true });
  }
  return t;
}
