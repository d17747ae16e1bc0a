/**
 * The core is pure (issue 23): no file under src/core/ imports the database, hono, the
 * network, the file system, processes or threads, nor anything outside src/core/ (the
 * platform, the hall's modules, a hub), and none reads a clock or process state of its
 * own. Whatever a core function needs (the time, rows, files) arrives as a plain value.
 *
 * The check reads every .ts file under src/core/ and lists each offending import or use;
 * it is also run on small made-up sources to show that it does catch each kind.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../harness.js';

const CORE = join(ROOT, 'src', 'core');

/** Package specifiers the core may never import (exact, or as a prefix followed by "/"). */
const FORBIDDEN_PACKAGES = [
  'better-sqlite3', 'drizzle-orm', 'drizzle-kit', 'hono', '@hono', 'node-cron', 'undici',
  'node:http', 'node:https', 'node:http2', 'node:net', 'node:tls', 'node:dgram', 'node:dns',
  'node:fs', 'node:child_process', 'node:worker_threads', 'node:cluster', 'node:os', 'node:process', 'node:timers',
  'http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'fs', 'child_process', 'worker_threads', 'cluster', 'os', 'process', 'timers',
];

/** Uses of a clock, timers, randomness or process state of the file's own. */
const FORBIDDEN_USES: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, 'reads the clock (Date.now); take the time as a value'],
  [/\bnew Date\s*\(\s*\)/, 'reads the clock (new Date()); take the time as a value'],
  [/\bperformance\.now\s*\(/, 'reads a clock (performance.now)'],
  [/\bprocess\s*\.\s*\w/, 'reads process state (process.*)'],
  [/\b(setTimeout|setInterval|setImmediate)\s*\(/, 'starts a timer'],
  [/\bMath\.random\s*\(/, 'uses unseeded randomness (Math.random)'],
  [/\brequire\s*\(/, 'uses require()'],
];

/** The file's import specifiers: static, side-effect, re-export and dynamic. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) out.push(m[1]!);
  return out;
}

/** Source with comments and string/template contents blanked, for the use checks. */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, "''");
}

/**
 * What is wrong with one core file (empty when it is pure). `file` is its absolute path,
 * used to resolve relative imports against src/core/.
 */
function violations(file: string, source: string): string[] {
  const problems: string[] = [];
  for (const spec of specifiers(source)) {
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (relative(CORE, target).startsWith('..')) problems.push(`imports ${spec}, outside src/core`);
      continue;
    }
    if (FORBIDDEN_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`))) problems.push(`imports ${spec}`);
    if (/(^|\/)src\/(db|platform|modules|hall|hub)(\/|$)/.test(spec)) problems.push(`imports ${spec}, outside src/core`);
  }
  const body = code(source);
  for (const [re, why] of FORBIDDEN_USES) if (re.test(body)) problems.push(why);
  return problems;
}

function coreFiles(dir = CORE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? coreFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('src/platform knows no domain', () => {
  it('no file under src/platform imports the hall (src/modules, src/hall), the core or a hub', () => {
    const platform = join(ROOT, 'src', 'platform');
    const found = coreFiles(platform).flatMap((f) =>
      specifiers(readFileSync(f, 'utf8'))
        .filter((spec) => spec.startsWith('.') && /^(modules|hall|core|hub)(\/|$)/.test(relative(join(ROOT, 'src'), resolve(dirname(f), spec))))
        .map((spec) => `${relative(ROOT, f)}: imports ${spec}`),
    );
    expect(found).toEqual([]);
  });
});

/**
 * What the hub may take from the hall: nothing. The upload machinery both programs use
 * (multipart forms, reading a file in a job process, the import plan) has its own home,
 * src/uploads, and the pure shapes are in src/core (issue 35); never the hall's attempts,
 * answer buffer, timers or database. test/architecture/house.test.ts follows the imports
 * transitively.
 */
const HUB_MAY_USE_OF_THE_HALL: string[] = [];

describe('src/hub takes nothing from the hall', () => {
  it('no file under src/hub imports src/hall, src/db or a module of the hall', () => {
    const hub = join(ROOT, 'src', 'hub');
    const found = coreFiles(hub).flatMap((f) =>
      specifiers(readFileSync(f, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => ({ spec, target: relative(join(ROOT, 'src'), resolve(dirname(f), spec)).replace(/\.js$/, '') }))
        .filter(({ target }) => /^(modules|hall|db)(\/|$)/.test(target) && !HUB_MAY_USE_OF_THE_HALL.includes(target))
        .map(({ spec }) => `${relative(ROOT, f)}: imports ${spec}`),
    );
    expect(found).toEqual([]);
  });
});

describe('src/core is pure', () => {
  it('no file under src/core imports the database, hono, I/O or the hall, nor keeps a clock or process state', () => {
    const files = coreFiles();
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((f) => violations(f, readFileSync(f, 'utf8')).map((v) => `${relative(ROOT, f)}: ${v}`));
    expect(found).toEqual([]);
  });

  it('the check catches each kind of impurity', () => {
    const f = join(CORE, 'grading', 'x.ts');
    const bad = (src: string) => violations(f, src);
    expect(bad("import Database from 'better-sqlite3';")).toEqual(['imports better-sqlite3']);
    expect(bad("import { eq } from 'drizzle-orm/sql';")).toEqual(['imports drizzle-orm/sql']);
    expect(bad("import { Hono } from 'hono';")).toEqual(['imports hono']);
    expect(bad("import { z } from '@hono/zod-openapi';")).toEqual(['imports @hono/zod-openapi']);
    expect(bad("import { createServer } from 'node:http';")).toEqual(['imports node:http']);
    expect(bad("import { readFileSync } from 'node:fs';")).toEqual(['imports node:fs']);
    expect(bad("import { readFile } from 'fs/promises';")).toEqual(['imports fs/promises']);
    expect(bad("const cp = await import('node:child_process');")).toEqual(['imports node:child_process']);
    expect(bad("export { Worker } from 'node:worker_threads';")).toEqual(['imports node:worker_threads']);
    expect(bad("import type { AppDeps } from '../../platform/deps.js';")).toEqual(['imports ../../platform/deps.js, outside src/core']);
    expect(bad("import { openDatabase } from '../../db/index.js';")).toEqual(['imports ../../db/index.js, outside src/core']);
    expect(bad("import type { Paper } from '../../modules/sessions/paper.js';")).toEqual(['imports ../../modules/sessions/paper.js, outside src/core']);
    expect(bad("import '../../hall/deps.js';")).toEqual(['imports ../../hall/deps.js, outside src/core']);
    expect(bad('export const t = () => Date.now();')).toEqual(['reads the clock (Date.now); take the time as a value']);
    expect(bad('const d = new Date();')).toEqual(['reads the clock (new Date()); take the time as a value']);
    expect(bad('const dir = process.env.DATA_DIR;')).toEqual(['reads process state (process.*)']);
    expect(bad('setTimeout(() => 1, 5);')).toEqual(['starts a timer']);
    // pure code is left alone: core-relative imports, allowed packages, clocks in comments
    expect(bad("import { gradeFor } from './scale.js';\nimport { z } from '../zod.js';\nimport Papa from 'papaparse';\n// Date.now() is never read here\nconst at = new Date(ms);")).toEqual([]);
  });
});
