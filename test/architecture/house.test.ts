/**
 * The house's walls (docs/design.md §13), checked on the code's own imports, followed
 * transitively:
 * - the hub reaches only the core, the platform, the shared upload machinery
 *   (src/uploads) and its own files — never a hall module or the hall's database;
 * - src/uploads reaches only the core, the platform and itself;
 * - src/platform imports nothing outside src/platform (machinery knows no domain);
 * - no import cycles among source files (type-only imports count);
 * - every hall module (folder of src/modules) is entered only through its index.ts: no
 *   file outside the module imports any other file of it, and none of its own files
 *   imports its index (issue 35 §4; worker-thread entry files are loaded by URL, not
 *   imported, so they are not edges here). The one exception is the composition root
 *   (COMPOSITION_ROOT), which mounts a module's routers from its route files
 *   (`routes.ts`, `*-routes.ts`): routers are for the program, never for another module,
 *   and keeping them out of the door keeps a module's door free of everything its
 *   routes import;
 * - no source file is over 400 lines.
 * Each rule on imports is also run on a small made-up graph to show that it can fail.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../harness.js';
import { cycles, importGraph, reachable, rel, sourceFiles, type ImportGraph } from './import-graph.js';

const SRC = join(ROOT, 'src');
const WEB = join(ROOT, 'web');
const MODULES = join(SRC, 'modules');

/** Every hall module (folder of src/modules): each one's only door is its `index.ts`. */
const DOORS = readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

/** The files that compose the hall program: they may also import a module's route files. */
const COMPOSITION_ROOT = ['src/hall/composition.ts', 'src/app.ts'];

/** A module's route file: `routes.ts` or `<name>-routes.ts`. */
const ROUTE_FILE = /(^|[/-])routes\.ts$/;

/** The longest a source file may be (lines). */
const MAX_LINES = 400;

/** Files reachable from the files under `from` that lie outside every folder of `allowed`, with the chain that reaches each. */
function escapes(graph: ImportGraph, root: string, from: string, allowed: string[]): string[] {
  const start = [...graph.keys()].filter((f) => f.startsWith(`${from}/`));
  const via = reachable(graph, start);
  return [...via.entries()]
    .filter(([file]) => !allowed.some((dir) => file.startsWith(`${dir}/`)))
    .map(([, chain]) => chain.map((f) => rel(root, f)).join(' → '))
    .sort();
}

/**
 * Imports that pass a module's door: `importer → imported` for every file outside a module
 * of `doors` (folders of `modulesDir`) that imports a file of it other than its index.ts,
 * every module file that imports its own index.ts (a barrel read from inside makes
 * cycles), and `missing index.ts` for a listed module without one.
 */
function doorsPassed(graph: ImportGraph, root: string, modulesDir: string, doors: string[], compositionRoot: string[] = []): string[] {
  const out: string[] = [];
  const composing = new Set(compositionRoot.map((f) => join(root, f)));
  for (const name of doors) {
    const dir = join(modulesDir, name);
    const door = join(dir, 'index.ts');
    if (!graph.has(door)) out.push(`${rel(root, dir)}: missing index.ts`);
    for (const [file, imports] of graph) {
      const inside = file.startsWith(`${dir}/`);
      for (const target of imports.files) {
        if (!target.startsWith(`${dir}/`)) continue;
        if (!inside && composing.has(file) && ROUTE_FILE.test(target)) continue;
        if (inside ? target === door : target !== door) out.push(`${rel(root, file)} → ${rel(root, target)}`);
      }
    }
  }
  return out.sort();
}

function cycleList(graph: ImportGraph, root: string): string[] {
  return cycles(graph).map((c) => c.map((f) => rel(root, f)).join(' ↔ '));
}

describe('the house', () => {
  const graph = importGraph(sourceFiles(SRC));
  const dir = (name: string) => join(SRC, name);

  it('the hub reaches only src/core, src/platform, src/uploads and src/hub (transitively)', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(escapes(graph, ROOT, dir('hub'), [dir('core'), dir('platform'), dir('uploads'), dir('hub')])).toEqual([]);
  });

  it('src/uploads reaches only src/core, src/platform and itself', () => {
    expect(escapes(graph, ROOT, dir('uploads'), [dir('core'), dir('platform'), dir('uploads')])).toEqual([]);
  });

  it('src/platform imports nothing outside src/platform', () => {
    expect(escapes(graph, ROOT, dir('platform'), [dir('platform')])).toEqual([]);
  });

  it('no import cycles among the server sources', () => {
    expect(cycleList(graph, ROOT)).toEqual([]);
  });

  it('no import cycles among the pages', () => {
    expect(cycleList(importGraph(sourceFiles(WEB)), ROOT)).toEqual([]);
  });

  it('every hall module is entered only through its index.ts (the composition root mounts its routers)', () => {
    expect(DOORS.length).toBeGreaterThan(15);
    expect(doorsPassed(graph, ROOT, MODULES, DOORS, COMPOSITION_ROOT)).toEqual([]);
  });

  it(`no source file is over ${MAX_LINES} lines`, () => {
    const long = [...sourceFiles(SRC), ...sourceFiles(WEB)]
      .map((f) => ({ f: rel(ROOT, f), lines: readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});

describe('the checks can fail', () => {
  const r = '/x';
  const made = (edges: Record<string, string[]>): ImportGraph =>
    new Map(Object.entries(edges).map(([f, to]) => [`${r}/${f}`, { files: to.map((t) => `${r}/${t}`), packages: [] }]));

  it('finds a cycle of two, of three and a self-import, and none in a tree', () => {
    expect(cycleList(made({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'] }), r)).toEqual(['a.ts ↔ b.ts']);
    expect(cycleList(made({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['a.ts'] }), r)).toEqual(['a.ts ↔ b.ts ↔ c.ts']);
    expect(cycleList(made({ 'a.ts': ['a.ts'] }), r)).toEqual(['a.ts']);
    expect(cycleList(made({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }), r)).toEqual([]);
  });

  it('follows imports transitively and names the chain', () => {
    const g = made({ 'hub/a.ts': ['core/b.ts'], 'core/b.ts': ['modules/c.ts'], 'modules/c.ts': [] });
    expect(escapes(g, r, `${r}/hub`, [`${r}/hub`, `${r}/core`])).toEqual(['hub/a.ts → core/b.ts → modules/c.ts']);
  });

  it('finds an import past a door, a module importing its own door, and a missing door', () => {
    const g = made({
      'modules/a/index.ts': ['modules/a/x.ts'], 'modules/a/x.ts': ['modules/a/index.ts'],
      'modules/b/y.ts': ['modules/a/index.ts', 'modules/a/x.ts'], 'hall/z.ts': ['modules/a/index.ts'],
    });
    expect(doorsPassed(g, r, `${r}/modules`, ['a'])).toEqual(['modules/a/x.ts → modules/a/index.ts', 'modules/b/y.ts → modules/a/x.ts']);
    expect(doorsPassed(g, r, `${r}/modules`, ['a', 'b'])).toEqual(['modules/a/x.ts → modules/a/index.ts', 'modules/b/y.ts → modules/a/x.ts', 'modules/b: missing index.ts']);
    expect(doorsPassed(made({ 'modules/a/index.ts': ['modules/a/x.ts'], 'modules/a/x.ts': [], 'hall/z.ts': ['modules/a/index.ts'] }), r, `${r}/modules`, ['a'])).toEqual([]);
    // the composition root may mount a router from its route file, and nothing else past the door
    const composed = made({ 'modules/a/index.ts': ['modules/a/x.ts'], 'modules/a/x.ts': [], 'modules/a/routes.ts': [], 'modules/a/exam-routes.ts': [], 'hall/root.ts': ['modules/a/routes.ts', 'modules/a/exam-routes.ts', 'modules/a/x.ts'], 'modules/b/y.ts': ['modules/a/routes.ts'] });
    expect(doorsPassed(composed, r, `${r}/modules`, ['a'], ['hall/root.ts'])).toEqual(['hall/root.ts → modules/a/x.ts', 'modules/b/y.ts → modules/a/routes.ts']);
  });

  it('reads type-only, re-export and dynamic imports as edges', () => {
    const sources: Record<string, string> = {
      [join(SRC, 'core', 'zod.ts')]: "import type { X } from '../hub/app.js';\nexport * from '../db/index.js';\nconst m = await import('../main.js');",
    };
    const g = importGraph(Object.keys(sources), (f) => sources[f]!);
    expect(g.get(join(SRC, 'core', 'zod.ts'))!.files.map((f) => rel(SRC, f)).sort()).toEqual(['db/index.ts', 'hub/app.ts', 'main.ts']);
  });
});
