/**
 * The house's walls (docs/design.md §13), checked on the code's own imports, followed
 * transitively:
 * - the hub reaches only the core, the platform, the shared upload machinery
 *   (src/uploads) and its own files — never a hall module or the hall's database;
 * - src/uploads reaches only the core, the platform and itself;
 * - src/platform imports nothing outside src/platform (machinery knows no domain);
 * - no import cycles among source files (type-only imports count).
 * Each check is also run on a small made-up graph to show that it can fail.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../harness.js';
import { cycles, importGraph, reachable, rel, sourceFiles, type ImportGraph } from './import-graph.js';

const SRC = join(ROOT, 'src');
const WEB = join(ROOT, 'web');

/** Files reachable from the files under `from` that lie outside every folder of `allowed`, with the chain that reaches each. */
function escapes(graph: ImportGraph, root: string, from: string, allowed: string[]): string[] {
  const start = [...graph.keys()].filter((f) => f.startsWith(`${from}/`));
  const via = reachable(graph, start);
  return [...via.entries()]
    .filter(([file]) => !allowed.some((dir) => file.startsWith(`${dir}/`)))
    .map(([, chain]) => chain.map((f) => rel(root, f)).join(' → '))
    .sort();
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

  it('reads type-only, re-export and dynamic imports as edges', () => {
    const sources: Record<string, string> = {
      [join(SRC, 'core', 'zod.ts')]: "import type { X } from '../hub/app.js';\nexport * from '../db/index.js';\nconst m = await import('../main.js');",
    };
    const g = importGraph(Object.keys(sources), (f) => sources[f]!);
    expect(g.get(join(SRC, 'core', 'zod.ts'))!.files.map((f) => rel(SRC, f)).sort()).toEqual(['db/index.ts', 'hub/app.ts', 'main.ts']);
  });
});
