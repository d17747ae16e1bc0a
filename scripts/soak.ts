/**
 * `npm run soak` — the crash and power-cut campaign (issue 9; see docs/reliability.md).
 *
 *   npm run soak                                  50 SIGKILLs, 40 candidates, synchronous=FULL
 *   npm run soak -- --kills 5 --candidates 6      a short run
 *   npm run soak -- --sync NORMAL                 the same under synchronous=NORMAL
 *   npm run soak -- --sync both --throughput      both settings, then the throughput measurement
 *   npm run soak -- --throughput-only             only the throughput measurement
 *   options: --seed S, --keep (keep the run directory), --no-report (leave the doc alone)
 *
 * Prints the figures, writes them into docs/reliability.md, and exits 1 when any check
 * failed (lost answers, integrity, outbox, downtime credit, divergence, unexpected
 * responses, server errors).
 */
import { runCampaign } from './soak/campaign.js';
import { campaignOptionsSchema, parseArgs } from './soak/options.js';
import { phaseTable } from './soak/phases.js';
import { campaignBlock, throughputBlock, writeBlock } from './soak/report.js';
import { failed, failureSamples, tallyRows } from './soak/tally.js';
import { measureThroughput, type ThroughputResult } from './soak/throughput.js';

async function main(): Promise<number> {
  let cli;
  try {
    cli = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const command = `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  let bad = false;
  if (!cli.noCampaign) {
    const modes = cli.both ? (['FULL', 'NORMAL'] as const) : ([cli.campaign.synchronous ?? 'FULL'] as const);
    for (const synchronous of modes) {
      const opts = campaignOptionsSchema.parse({ ...cli.campaign, synchronous });
      const t = await runCampaign(opts, (l) => process.stdout.write(`${l}\n`));
      process.stdout.write(`\nResult (synchronous=${synchronous}):\n`);
      for (const [k, v] of tallyRows(t)) process.stdout.write(`  ${k.padEnd(58)} ${v}\n`);
      process.stdout.write(`\nWhere the time went:\n${phaseTable(t.phases, t.wallSeconds * 1000)}\n`);
      if (failed(t)) {
        bad = true;
        process.stdout.write('\nFAILED:\n');
        for (const l of failureSamples(t)) process.stdout.write(`  ${l}\n`);
      } else process.stdout.write('\nAll checks passed.\n');
      if (cli.report) writeBlock(synchronous, campaignBlock(t, command, opts.seed));
    }
  }
  if (cli.throughput) {
    const results: ThroughputResult[] = [];
    // alternating, twice each: the machine's other load shifts between runs
    for (const s of ['NORMAL', 'FULL', 'NORMAL', 'FULL'] as const) {
      process.stdout.write(`throughput: synchronous=${s}…\n`);
      results.push(await measureThroughput(s));
    }
    process.stdout.write(`${throughputBlock(results, command)}\n`);
    if (cli.report) writeBlock('throughput', throughputBlock(results, command));
  }
  return bad ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`soak failed to run: ${(e as Error).stack ?? e}\n`);
    process.exit(2);
  },
);
