/**
 * The source tree's import graph, read as text: every `.ts` file under a folder, with the
 * files it imports (static, side-effect, re-export, dynamic and type-only imports alike:
 * a type-only import still ties two modules together). Relative specifiers are resolved
 * to files (`./x.js` → `x.ts`, a folder → its `index.ts`); package imports are kept by
 * name. Used by the architecture tests (docs/design.md §13).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One file's imports: `files` are absolute paths of source files, `packages` bare specifiers. */
export interface FileImports {
  files: string[];
  packages: string[];
}

/** path (absolute) → its imports */
export type ImportGraph = Map<string, FileImports>;

/** Every import specifier in `source`: static, side-effect, `export … from`, `import()`. */
export function specifiers(source: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) out.push(m[1]!);
  return out;
}

/** The source file a relative specifier names, or null when none exists. */
export function resolveSpecifier(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec);
  const candidates = [base.replace(/\.(m?js)$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile() && c.endsWith('.ts')) return c;
  return null;
}

/** Every `.ts` file (not `.d.ts`, not `.test.ts`) under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The import graph of `files`, read from disk (or from `read`, for made-up sources). */
export function importGraph(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const imports: FileImports = { files: [], packages: [] };
    for (const spec of specifiers(read(file))) {
      if (spec.startsWith('.')) {
        const target = resolveSpecifier(file, spec);
        if (target && !imports.files.includes(target)) imports.files.push(target);
      } else if (!imports.packages.includes(spec)) imports.packages.push(spec);
    }
    graph.set(file, imports);
  }
  return graph;
}

/**
 * Every file reachable from `start` (itself included), with for each the chain of imports
 * that first reached it (shortest, breadth-first), so a failure can show the path.
 */
export function reachable(graph: ImportGraph, start: string[]): Map<string, string[]> {
  const via = new Map<string, string[]>(start.map((s) => [s, [s]]));
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file)?.files ?? []) {
      if (via.has(next)) continue;
      via.set(next, [...via.get(file)!, next]);
      queue.push(next);
    }
  }
  return via;
}

/**
 * The import cycles: every strongly connected component of more than one file, and every
 * file that imports itself (Tarjan's algorithm, iterative so deep trees do not overflow).
 * Each cycle is returned as its files, sorted.
 */
export function cycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { file: string; next: number }[] = [{ file: root, next: 0 }];
    index.set(root, counter); low.set(root, counter); counter++;
    stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = (graph.get(top.file)?.files ?? []).filter((t) => graph.has(t));
      if (top.next < targets.length) {
        const t = targets[top.next++]!;
        if (!index.has(t)) {
          index.set(t, counter); low.set(t, counter); counter++;
          stack.push(t); onStack.add(t);
          work.push({ file: t, next: 0 });
        } else if (onStack.has(t)) low.set(top.file, Math.min(low.get(top.file)!, index.get(t)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(top.file)!));
      if (low.get(top.file) === index.get(top.file)) {
        const component: string[] = [];
        let f: string;
        do { f = stack.pop()!; onStack.delete(f); component.push(f); } while (f !== top.file);
        const selfLoop = (graph.get(top.file)?.files ?? []).includes(top.file);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

/** `file` relative to `root`, with forward slashes (for messages). */
export function rel(root: string, file: string): string {
  return relative(root, file).split('\\').join('/');
}
