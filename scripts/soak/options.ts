/**
 * Options of the crash campaign (`npm run soak -- --kills 50 --candidates 40`), parsed
 * with zod, and the seeded random generator that picks kill moments, answers and
 * submits (timings still vary with the machine, so a seed narrows a run, not fixes it).
 */
import { z } from 'zod';

const range = z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => a <= b, 'min must not exceed max');

export const campaignOptionsSchema = z.object({
  kills: z.number().int().min(1).max(10_000).default(50),
  candidates: z.number().int().min(1).max(500).default(40),
  synchronous: z.enum(['FULL', 'NORMAL']).default('FULL'),
  seed: z.number().int().default(() => Date.now() % 1_000_000),
  /** questions of the exam: MCQs and short essays */
  objective: z.number().int().min(1).max(200).default(16),
  essays: z.number().int().min(0).max(50).default(4),
  /** how long the server runs under load before the kill, ms */
  uptimeMs: range.default([300, 3000]),
  /**
   * acknowledged saves a round under load must reach before its kill: after the drawn uptime
   * the round waits for them (at most MIN_SAVES_WAIT_MS, else the round is counted thin, a
   * failure). 0 = none; the CI-sized test sets it so that the kills land on a working save
   * path however slow the machine is.
   */
  minSavesPerRound: z.number().int().min(0).max(10_000).default(0),
  /** kill → restart, ms (longer than the clock tolerance, so a missing credit shows) */
  downtimeMs: range.default([2000, 3500]),
  /** share of kills aimed at start-up (0–1.5 s after spawn: migrations, downtime credit) */
  startupKillShare: z.number().min(0).max(1).default(0.1),
  /** share of recoveries that sign in again (POST /attempts/start) instead of GET /attempts/:id */
  signInShare: z.number().min(0).max(1).default(0.25),
  /** share of candidates that submit during the run (the rest submit at the end) */
  submitShare: z.number().min(0).max(1).default(0.5),
  /** pause between one candidate's requests, ms (≈ 150 saves/s for 40 candidates) */
  thinkMs: range.default([100, 400]),
  /** keep the run directory (database, server.log) instead of deleting it */
  keepDir: z.boolean().default(false),
  /** rounds (of `kills`) that are power cuts instead of SIGKILLs: needs root and loop devices (power-cut.ts) */
  powerCuts: z.number().int().min(0).max(10_000).default(0),
  /** run the compiled server (dist/src/main.js, `npm run build` first): faster start-ups, and later edits of src/ do not reach a long run */
  built: z.boolean().default(false),
  /** stop starting rounds after this many minutes (the final checks still run); 0 = no bound */
  maxMinutes: z.number().min(0).max(24 * 60).default(0),
});

export type CampaignOptions = z.infer<typeof campaignOptionsSchema>;

/** CLI options: campaign options plus what the CLI does with the result. */
export interface CliOptions {
  campaign: Partial<CampaignOptions>;
  /** run the campaign under both synchronous settings */
  both: boolean;
  throughput: boolean;
  /** skip the campaign (throughput only) */
  noCampaign: boolean;
  report: boolean;
}

/**
 * Parses `--kills N --candidates M --sync FULL|NORMAL|both --seed S --keep --throughput
 * --throughput-only --no-report --power-cuts P --built --max-minutes T --uptime-ms A-B
 * --downtime-ms A-B --sign-in-share F` (also `--flag=value`). @throws Error naming the bad flag
 */
export function parseArgs(argv: string[]): CliOptions {
  const out: CliOptions = { campaign: {}, both: false, throughput: false, noCampaign: false, report: true };
  const num = (flag: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n)) throw new Error(`${flag} needs a number`);
    return n;
  };
  // `--kills=1000` is the same as `--kills 1000`
  argv = argv.flatMap((a) => (/^--[\w-]+=/.test(a) ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--kills') out.campaign.kills = num(a, argv[++i]);
    else if (a === '--candidates') out.campaign.candidates = num(a, argv[++i]);
    else if (a === '--seed') out.campaign.seed = num(a, argv[++i]);
    else if (a === '--power-cuts') out.campaign.powerCuts = num(a, argv[++i]);
    else if (a === '--max-minutes') out.campaign.maxMinutes = num(a, argv[++i]);
    else if (a === '--uptime-ms' || a === '--downtime-ms') {
      const v = (argv[++i] ?? '').split('-').map(Number);
      if (v.length !== 2 || v.some((n) => !Number.isInteger(n))) throw new Error(`${a} takes MIN-MAX (ms)`);
      out.campaign[a === '--uptime-ms' ? 'uptimeMs' : 'downtimeMs'] = [v[0]!, v[1]!];
    } else if (a === '--built') out.campaign.built = true;
    else if (a === '--sign-in-share') out.campaign.signInShare = num(a, argv[++i]);
    else if (a === '--sync') {
      const v = (argv[++i] ?? '').toUpperCase();
      if (v === 'BOTH') out.both = true;
      else if (v === 'FULL' || v === 'NORMAL') out.campaign.synchronous = v;
      else throw new Error('--sync takes FULL, NORMAL or both');
    } else if (a === '--keep') out.campaign.keepDir = true;
    else if (a === '--throughput') out.throughput = true;
    else if (a === '--throughput-only') out.throughput = out.noCampaign = true;
    else if (a === '--no-report') out.report = false;
    else throw new Error(`unknown option ${a} (see docs/reliability.md)`);
  }
  campaignOptionsSchema.parse(out.campaign);
  return out;
}

/** mulberry32: a small seeded generator of numbers in [0, 1) (the one generation uses). */
export { prng as seededRandom } from '../../src/core/generation/text/seed.js';

/** A whole number in [min, max] from `rng`. */
export function between(rng: () => number, [min, max]: readonly [number, number]): number {
  return Math.round(min + rng() * (max - min));
}
