/**
 * The app's router: hono's TrieRouter, except for a few declared "hot" routes (the
 * candidate's live traffic, above all the answer save) whose match is answered without
 * searching the trie. The trie router walks every node, gathers handler sets with a
 * params object each, and sorts them: ~1.4 µs and ~1.5 KB of garbage per answer save,
 * where the spec's `POST /attempts/start` beside `/attempts/:id/...` keeps hono's
 * RegExpRouter out (issue 8; measured in docs/benchmarks.md).
 *
 * A hot route's handler list is learnt once from the trie itself, on a probe path, and is
 * reused only where it cannot differ: the route set is checked for any route (of any
 * method, middleware included) that could match some of the hot route's paths but not
 * all. A literal segment at a hot parameter's position (`start` in `/attempts/start`)
 * sends paths with that value to the trie; anything the check cannot reason about (regex
 * or optional parameters, partial wildcards there) leaves the hot route to the trie
 * altogether. Everything else is the trie's answer: same handlers, same order, same raw
 * (undecoded) parameter values, as the equivalence tests check.
 */
import { TrieRouter } from 'hono/router/trie-router';
import type { ParamIndexMap, Params, Result, Router } from 'hono/router';

/** `[method, path]` in hono's form: `/attempts/:id/answers/:questionId` (plain parameters only). */
export type HotRouteSpec = readonly [method: string, path: string];

interface Template<T> {
  handler: T;
  /** parameter names and the path segment each one takes */
  params: [name: string, segment: number][];
}

interface HotRoute<T> {
  method: string;
  /** the hot path's segments: a literal, or null for a parameter */
  literals: (string | null)[];
  /** the path up to its first parameter (`/attempts/`): other paths are turned away unsplit */
  prefix: string;
  /** per segment: values that must go to the trie (a literal route matches them) */
  reserved: (Set<string> | null)[];
  /** null: the trie answers this route (unusable, or not registered) */
  template: Template<T>[] | null;
}

const EMPTY: Params = Object.freeze(Object.create(null) as Params);
const segmentsOf = (path: string) => path.split('/').slice(1);
/** a probe value no client path has (a control character) */
const probeValue = (i: number) => `\u0001hot${i}`;

/**
 * Whether route `path` could match some but not all paths of `hot`; records literal
 * segments at hot parameters in `reserved`. Conservative: false positives only cost speed.
 * @returns 'unusable' when the overlap cannot be described by reserved literals
 */
function overlap(hot: HotRoute<unknown>, path: string): 'ok' | 'unusable' {
  const segs = segmentsOf(path);
  for (let i = 0; i < hot.literals.length && i < segs.length; i++) {
    const r = segs[i]!;
    const h = hot.literals[i];
    // a trailing wildcard matches every rest of the path alike; one mid-path is not reasoned about
    if (r === '*') return i === segs.length - 1 ? 'ok' : 'unusable';
    const simpleParam = /^:[^{}?*]+$/.test(r);
    const complex = !simpleParam && /[:{}?*]/.test(r);
    if (complex) {
      // a regex or optional parameter, or a partial wildcard (`v*`): at a hot parameter it
      // matches some values only; a partial wildcard at a literal matches every path alike
      if (h === null) return 'unusable';
      return r.endsWith('*') && !r.startsWith(':') && !/[{}?]/.test(r) ? 'ok' : 'unusable';
    }
    if (simpleParam) continue;
    if (h === null) (hot.reserved[i] ??= new Set()).add(r);
    else if (r !== h) return 'ok'; // disjoint
  }
  return 'ok';
}

/** hono's Router: TrieRouter plus the hot routes' direct match (see the module header). */
export class HotRouteRouter<T> implements Router<T> {
  readonly name = 'HotRouteRouter';
  readonly #trie = new TrieRouter<T>();
  readonly #paths = new Set<string>();
  readonly #specs: readonly HotRouteSpec[];
  #hot: HotRoute<T>[] | null = null;

  /** @throws Error when a hot path has anything but literals and plain `:name` parameters */
  constructor(hotRoutes: readonly HotRouteSpec[]) {
    for (const [, path] of hotRoutes) {
      if (!segmentsOf(path).every((s) => /^[^:{}?*]+$/.test(s) || /^:[\w-]+$/.test(s))) throw new Error(`hot route ${path}: literals and plain :name parameters only`);
    }
    this.#specs = hotRoutes;
  }

  add(method: string, path: string, handler: T): void {
    if (this.#hot) throw new Error('HotRouteRouter: routes are added before the first match');
    this.#trie.add(method, path, handler);
    this.#paths.add(path);
  }

  match(method: string, path: string): Result<T> {
    const hot = (this.#hot ??= this.#build());
    for (let i = 0; i < hot.length; i++) {
      const h = hot[i]!;
      if (h.method === method && h.template) {
        const r = this.#direct(h, h.template, path);
        if (r) return r;
      }
    }
    return this.#trie.match(method, path);
  }

  /** Whether `method path` is answered by a hot route's direct match (for tests). */
  isDirect(method: string, path: string): boolean {
    const hot = (this.#hot ??= this.#build());
    return hot.some((h) => h.method === method && h.template !== null && this.#direct(h, h.template, path) !== null);
  }

  #direct(h: HotRoute<T>, template: Template<T>[], path: string): Result<T> | null {
    if (!path.startsWith(h.prefix)) return null;
    const parts = path.split('/');
    const n = h.literals.length;
    if (parts.length !== n + 1 || parts[0] !== '') return null;
    for (let i = 0; i < n; i++) {
      const seg = parts[i + 1]!;
      const lit = h.literals[i];
      if (lit !== null) {
        if (seg !== lit) return null;
      } else if (seg === '' || h.reserved[i]?.has(seg)) return null;
    }
    const out: [T, ParamIndexMap | Params][] = new Array(template.length);
    for (let i = 0; i < template.length; i++) {
      const t = template[i]!;
      let params = EMPTY;
      if (t.params.length) {
        params = Object.create(null) as Params;
        for (const [name, segment] of t.params) params[name] = parts[segment + 1]!;
      }
      out[i] = [t.handler, params];
    }
    return [out] as Result<T>;
  }

  #build(): HotRoute<T>[] {
    return this.#specs.map(([method, path]) => {
      const literals = segmentsOf(path).map((s) => (s.startsWith(':') ? null : s));
      const first = literals.indexOf(null);
      const prefix = first < 0 ? path : '/' + literals.slice(0, first).map((l) => `${l}/`).join('');
      const hot: HotRoute<T> = { method, literals, prefix, reserved: literals.map(() => null), template: null };
      for (const p of this.#paths) if (overlap(hot, p) === 'unusable') return hot;
      // the trie's own answer on a path no request has, with one distinct value per parameter
      const probe = '/' + literals.map((l, i) => l ?? probeValue(i)).join('/');
      const [found] = this.#trie.match(method, probe) as [[T, Params][]];
      if (found.length === 0) return hot;
      const template: Template<T>[] = [];
      for (const [handler, params] of found) {
        const named: [string, number][] = [];
        for (const name in params) {
          const segment = literals.findIndex((l, i) => l === null && params[name] === probeValue(i));
          if (segment < 0) return hot;
          named.push([name, segment]);
        }
        template.push({ handler, params: named });
      }
      hot.template = template;
      return hot;
    });
  }
}
