/**
 * CI-sized run of the issue-8 benchmark harness (`npm run bench -- --smoke`): the real
 * server as its own process, 12 candidates through start surge, full-script upload, a
 * short steady hall and the submit surge with a loopback webhook receiver. Asserts that
 * the harness completes with 0 errors and that every report field exists — never a
 * latency figure (the machine is shared; figures belong in docs/benchmarks.md).
 * The same for issue 26's loopback tail harness (`npm run bench:tail`), in this file so its
 * build of dist/ never runs beside the smoke run's.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeReal } from '../real-papers.js';
// @ts-expect-error plain ESM script without types
import { benchQuestions, missingFixtures } from '../../scripts/bench/fixtures.mjs';
// @ts-expect-error plain ESM script without types
import { parseTailOptions } from '../../scripts/bench/loopback-tail.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

function runBench(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/bench/run.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const num = expect.any(Number);

describe('the benchmark without the real papers', () => {
  it('stops with one line saying where the papers belong, not a stack trace', () => {
    const dir = join(tmpdir(), 'hallcbt-no-such-fixtures');
    expect(missingFixtures(dir)).toMatch(/real past papers in .*hallcbt-no-such-fixtures.*put that folder of real papers beside this checkout/);
    expect(() => benchQuestions(60, dir)).toThrow(/not there/);
  });
});

// the benchmark's paper is 60 questions of the real papers
describeReal('npm run bench -- --smoke', () => {
  it('runs every scenario against the real server with 0 errors and writes a complete report', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'hallcbt-bench-test-'));
    try {
      const { code, out } = await runBench(['--smoke', `--out=${outDir}`], 110_000);
      expect(code, out).toBe(0);

      const results = JSON.parse(readFileSync(join(outDir, 'benchmarks', 'results-smoke.json'), 'utf8'));
      expect(results.machine).toMatchObject({ cores: num, cpu: expect.any(String), node: expect.any(String), fsyncMs: num });
      expect(results.stackCeiling.reqPerSec).toBeGreaterThan(0);
      expect(results.runs).toHaveLength(1);
      const run = results.runs[0];
      expect(run.saturation).toMatchObject({ baseline: { reqPerSec: num }, save: { reqPerSec: num }, ratio: num });
      expect(Object.keys(run.phases).sort()).toEqual(['baselineHall', 'fill', 'hall', 'start', 'submit']);

      // every candidate started, uploaded, saved and submitted; every webhook arrived signed
      expect(run.phases.start.started).toBe(12);
      for (const [name, phase] of Object.entries<any>(run.phases)) {
        expect(phase.errorCount, `${name}: ${JSON.stringify(phase.errors)}`).toBe(0);
        expect(phase.server).toMatchObject({ cpuPctAvg: num, rssMBMax: num, bufferedMax: num });
        expect(phase.server.probe).toMatchObject({ eventLoopDelayMs: { p50: num, p99: num, max: num }, flush: { count: num, rowsMax: num, maxBatchMs: num } });
        // answers are committed by the writer thread, not on the event loop
        if (phase.server.probe.flush.count > 0) expect(phase.server.probe.flush).toMatchObject({ writer: 'thread', maxLoopMs: num, activityRowsMax: num });
        expect(phase.requests['baseline-probe']).toMatchObject({ count: num, p50: num, p99: num, max: num });
      }
      const types: Record<string, string> = { start: 'start', fill: 'save-batch', hall: 'save', submit: 'submit', baselineHall: 'baseline-hall' };
      for (const [phase, type] of Object.entries(types)) {
        const r = run.phases[phase].requests[type];
        expect(r, `${phase} ${type}`).toMatchObject({ count: num, p50: num, p99: num, max: num, perSec: num });
        expect(r.count).toBeGreaterThan(0);
      }
      expect(run.phases.start.requests.start.count).toBe(12);
      expect(run.phases.submit.requests.submit.count).toBe(12);
      expect(run.phases.hall.requests.save.vsProbe).toMatchObject({ p50: expect.anything(), p99: expect.anything() });
      expect(run.webhooks).toMatchObject({ expected: 12, received: 12, missing: 0, badSignatures: 0, drainMs: num });

      const md = readFileSync(join(outDir, 'benchmarks-smoke.md'), 'utf8');
      for (const heading of ['## Targets', '## Throughput at saturation', '## Steady hall', '## Start surge', '## Submit surge and webhook delivery', '## Flushes, event loop and GC', '## Query plans']) expect(md).toContain(heading);
      const chart = join(outDir, 'benchmarks', 'latency-smoke.png');
      expect(existsSync(chart)).toBe(true);
      expect(readFileSync(chart).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('npm run bench:tail options', () => {
  it('defaults to the issue 26 load and refuses unknown or non-positive options', () => {
    expect(parseTailOptions([])).toMatchObject({ candidates: 5000, rate: 2500, connections: 20, runs: 1, build: true, probe: true });
    expect(parseTailOptions(['--connections=50', '--no-probe', '--runs=5'])).toMatchObject({ connections: 50, probe: false, runs: 5 });
    expect(() => parseTailOptions(['--rate=0'])).toThrow(/positive/);
    expect(() => parseTailOptions(['--fast'])).toThrow(/unknown option --fast/);
  });
});

// the harness seeds the same 60 real questions as npm run bench; it builds dist/ itself, in
// this file after the smoke run's build (tests of one file run one after another)
describeReal('npm run bench:tail (tiny)', () => {
  it('drives saves and both bare routes at a fixed rate with 0 errors and reports every figure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hallcbt-tail-test-'));
    const out = join(dir, 'tail.json');
    try {
      const args = ['scripts/bench/loopback-tail.mjs', '--candidates=40', '--rate=200', '--connections=4', '--seconds=3', '--warm=1', `--out=${out}`];
      const { code, log } = await new Promise<{ code: number | null; log: string }>((resolve) => {
        const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let log = '';
        child.stdout.on('data', (d: Buffer) => (log += d.toString()));
        child.stderr.on('data', (d: Buffer) => (log += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
        child.on('exit', (c) => {
          clearTimeout(timer);
          resolve({ code: c, log });
        });
      });
      expect(code, log).toBe(0);
      const results = JSON.parse(readFileSync(out, 'utf8'));
      expect(results.serverCommand).toBe('node --v8-pool-size=1 dist/src/main.js');
      expect(results.runs).toHaveLength(1);
      const { save, bareHono, serverBare } = results.runs[0].phases;
      for (const p of [save, bareHono, serverBare]) {
        expect(p).toMatchObject({ p50: num, p99: num, max: num, count: num, non2xx: 0, errors: 0, cpuUsPerRequest: num });
        // 2 measured seconds at 200/s (the first of 3 is not measured)
        expect(p.count).toBeGreaterThan(100);
        expect(p.p99).toBeGreaterThanOrEqual(p.p50);
      }
      expect(save.probe.flush.rows).toBeGreaterThan(0);
      expect(save.overlap).toMatchObject({ slow: num, gc: num, flush: num, neither: num });
      expect(results.summary.savesP99.median).toBe(save.p99);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
