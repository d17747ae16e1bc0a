/**
 * scripts/bench/gc-nvp.mjs: reads V8's `--trace-gc-nvp` lines and sums up a process's
 * collections over a window (docs/benchmarks.md, "What the collections cost at 10,000
 * channels"). One real node process under the flag, the arithmetic on known lines, and
 * scripts/bench/echo-gc.mjs at a CI size (50 sockets, 2 s).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { byProcess, parseNvp, summarise } from '../../scripts/bench/gc-nvp.mjs';

const line = (proc: string, t: number, gc: string, pause: number, allocated: number, survived: number, promoted: number, heap = 1e6) =>
  `[${proc}] ${String(t).padStart(8)} ms: pause=${pause} mutator=1.0 gc=${gc} reduce_memory=0 scavenge=0.5 allocated=${allocated} promoted=${promoted} new_space_survived=${survived} total_size_after=${heap}`;

describe('gc-nvp: the collections of a --trace-gc-nvp log', () => {
  it("reads a real node process's lines: its scavenges, what it allocated, its tag", () => {
    const r = spawnSync(process.execPath, ['--trace-gc-nvp', '-e', 'let a = []; for (let i = 0; i < 3e6; i++) { a.push({ i }); if (a.length > 1000) a = []; }'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rows = parseNvp(`some other output\n${r.stdout}`);
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[0].proc).toMatch(/^\[\d+:0x[0-9a-f]+\]$/);
    const s = summarise(rows);
    expect(s.scavengesPerS).toBeGreaterThan(0);
    expect(s.allocMBps).toBeGreaterThan(0);
    expect(s.scavengePause.max).toBeGreaterThanOrEqual(s.scavengePause.p50);
  });

  it('sums a window: MB/s, scavenges/s, their pauses, the mark-compacts and the share paused', () => {
    const log = [
      line('1:0xa', 500, 's', 9, 9e6, 1e6, 1e6), // before the window
      line('1:0xa', 1000, 's', 4, 10e6, 1e6, 0),
      line('1:0xa', 1500, 'mc', 10, 2e6, 0, 0),
      line('1:0xa', 2000, 's', 6, 10e6, 0.5e6, 0.5e6),
      line('1:0xa', 3000, 's', 2, 8e6, 0, 0),
      'not a gc line',
    ].join('\n');
    const s = summarise(parseNvp(log), 1000, 3000);
    expect(s).toMatchObject({ seconds: 2, allocMBps: 15, copiedMBps: 1, scavengesPerS: 1.5, markCompacts: 1, markCompactMs: 10, pauseMsPerS: 11, pausedShare: 1.1 });
    expect(s.scavengePause).toEqual({ p50: 4, p90: 6, max: 6 });
  });

  it('tells the processes and threads of one log apart, the largest heap first', () => {
    const log = [line('7:0x1', 10, 's', 1, 1e6, 0, 0, 5e6), line('7:0x2', 10, 's', 1, 1e6, 0, 0, 90e6), line('8:0x1', 20, 's', 1, 1e6, 0, 0, 20e6)].join('\n');
    expect(byProcess(parseNvp(log)).map(([p]: [string]) => p)).toEqual(['[7:0x2]', '[8:0x1]', '[7:0x1]']);
  });

  it('echo-gc.mjs measures a bare echo with garbage and kept objects, and refuses an unknown option', () => {
    const script = fileURLToPath(new URL('../../scripts/bench/echo-gc.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, '--sockets=50', '--rate=500', '--seconds=2', '--garbage-kb=4', '--retain=4'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^50 sockets, 500 frames\/s, garbage 4 KB \+ 4 kept objects a frame: round trip p50 [\d.]+ p99 [\d.]+ max [\d.]+ ms \(n \d+ of \d+\); [\d.]+ scavenges\/s/);
    // every frame of the 2 measured seconds (~1,000) came back
    const [, got, sent] = /\(n (\d+) of (\d+)\)/.exec(r.stdout)!;
    expect(Number(sent)).toBeGreaterThanOrEqual(990);
    expect(Number(got)).toBe(Number(sent));
    const bad = spawnSync(process.execPath, [script, '--sockts=50'], { encoding: 'utf8', timeout: 20_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown option --sockts=50/);
  }, 90_000);
});
