/**
 * Running the external media tools (ffmpeg, pocketsphinx, whisper.cpp) safely: found on
 * PATH or reported as missing (503 naming the Debian package), bounded in time, their
 * output captured, never a crash of the server. A gate lets one heavy job run at a time,
 * so a transcription cannot starve the hall's answer traffic of CPU.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { UnusableMaterial, toolMissing } from '../errors.js';

/** Where to look for tools; tests point PATH elsewhere to exercise the "missing" path. */
export interface ToolEnv {
  path: string;
}

/** The tool environment of this process. */
export function processToolEnv(): ToolEnv {
  return { path: process.env.PATH ?? '/usr/bin:/bin' };
}

/** Absolute path of an executable on `env.path`, or null. */
export function findOnPath(name: string, env: ToolEnv): string | null {
  for (const dir of env.path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Output of a finished tool run. */
export interface ToolResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs `name` with `args` (no shell). Resolves on exit code 0.
 * @throws ServiceUnavailable (503) when the tool is not installed;
 *   UnusableMaterial (422) when it fails or exceeds `timeoutMs` (it is killed).
 */
export function runTool(name: string, args: string[], env: ToolEnv, timeoutMs: number): Promise<ToolResult> {
  const bin = findOnPath(name, env);
  if (!bin) return Promise.reject(toolMissing(name));
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: env.path } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let errBytes = 0;
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      // Keep only the last ~64 KB of diagnostics.
      err.push(b);
      errBytes += b.length;
      while (errBytes > 65536 && err.length > 1) errBytes -= err.shift()!.length;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? toolMissing(name) : new UnusableMaterial(`${name} could not run: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) return resolve({ stdout, stderr });
      const why = signal ? `was stopped after ${Math.round(timeoutMs / 1000)} s` : `failed (exit ${code})`;
      const tail = stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
      reject(Object.assign(new UnusableMaterial(`${name} ${why} on this file${tail ? `: ${tail}` : ''}.`), { toolStderr: stderr }));
    });
  });
}

/** A one-at-a-time gate for CPU-heavy jobs. */
export class Gate {
  private tail: Promise<unknown> = Promise.resolve();
  /** Runs `job` after every job queued before it has settled. */
  run<T>(job: () => Promise<T>): Promise<T> {
    const next = this.tail.then(job, job);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
