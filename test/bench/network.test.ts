/**
 * The network benchmark in a CI-sized run (issue #26): the real server in its own network
 * namespace behind a shaped veth link, 20 simulated candidate PCs loading the page, starting,
 * saving and submitting. Asserts the report is complete and the figures are plausible; skips
 * with one line where network namespaces cannot be made (not root, no iproute2).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness.js';
// @ts-expect-error plain ESM script without types
import { linkAvailability } from '../../scripts/bench/network/link.mjs';

const skipWhy: string | null = linkAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('network benchmark (quick)', () => {
  it('measures every phase over a shaped link, leaves no namespace behind, and writes the report', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hallcbt-netbench-test-')), 'report.md');
    const before = execFileSync('ip', ['netns', 'list']).toString();
    execFileSync(process.execPath, [join(ROOT, 'scripts/bench/network/run.mjs'), '--quick', `--out=${out}`], { cwd: ROOT, stdio: 'pipe', timeout: 240_000 });
    expect(execFileSync('ip', ['netns', 'list']).toString()).toBe(before);
    const md = readFileSync(out, 'utf8');
    expect(md).toMatch(/No delay or loss is modelled|netem is available/);
    const [run] = JSON.parse(readFileSync(out.replace(/\.md$/, '.json'), 'utf8')) as Record<string, number>[];
    expect(run!.candidates).toBe(20);
    expect(run!.pageBytes).toBeGreaterThan(1000);
    expect(run!.startBytes).toBeGreaterThan(1000);
    expect(run!.saveBytes).toBeGreaterThan(100);
    // nothing beats the link: the last paper cannot arrive before the physical floor
    expect(run!.lastPaperS).toBeGreaterThanOrEqual(run!.floorS * 0.9);
  }, 300_000);
});
