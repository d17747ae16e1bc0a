/**
 * HotRouteRouter answers exactly as hono's TrieRouter does (same handlers, order and raw
 * parameters) on the real app's route set and on route sets made to trip it, and it
 * does answer the candidate's live routes directly on the real app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrieRouter } from 'hono/router/trie-router';
import { HotRouteRouter, type HotRouteSpec } from '../../src/platform/hot-router.js';
import { candidateLiveRoutes } from '../../src/modules/candidate/routes.js';
import { startTestServer, type TestServer } from '../harness.js';

type Route = { method: string; path: string; handler: unknown };

/** Both routers fed the same routes. */
function pair(routes: Route[], hot: readonly HotRouteSpec[]) {
  const trie = new TrieRouter<unknown>();
  const fast = new HotRouteRouter<unknown>(hot);
  for (const r of routes) {
    trie.add(r.method, r.path, r.handler);
    fast.add(r.method, r.path, r.handler);
  }
  return { trie, fast };
}

/** A match as comparable data: handler positions in `routes` and plain params. */
function shape(routes: Route[], result: unknown) {
  const [list] = result as [[unknown, Record<string, string>][]];
  return list.map(([h, params]) => [routes.findIndex((r) => r.handler === h), { ...params }]);
}

function expectSame(routes: Route[], hot: readonly HotRouteSpec[], requests: [string, string][]) {
  const { trie, fast } = pair(routes, hot);
  for (const [method, path] of requests) {
    expect(shape(routes, fast.match(method, path)), `${method} ${path}`).toEqual(shape(routes, trie.match(method, path)));
  }
  return fast;
}

const handler = (name: string) => Object.assign(() => name, { label: name });
const routesOf = (list: [string, string][]): Route[] => list.map(([method, path]) => ({ method, path, handler: handler(`${method} ${path}`) }));

describe('HotRouteRouter on the real app', () => {
  let server: TestServer;
  let routes: Route[];
  beforeAll(async () => {
    server = await startTestServer();
    routes = server.runtime.app.routes.map((r) => ({ method: r.method, path: r.path, handler: r.handler }));
  });
  afterAll(() => server.close());

  const ids = ['Ab3dEf9hIj0k', 'q_1', 'start', 'answers', 'a%20b', 'é', '1', 'x.y-z~'];
  it('matches as the trie router does, on every route and on near misses', () => {
    const requests: [string, string][] = [];
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    for (const r of routes) {
      for (const id of ids) {
        const path = r.path.replace(/:[\w-]+/g, id).replace(/\*/g, 'deep/er');
        for (const m of methods) requests.push([m, path]);
      }
    }
    for (const id of ids) {
      for (const q of ids) requests.push(['PUT', `/attempts/${id}/answers/${q}`], ['GET', `/attempts/${id}`], ['POST', `/attempts/${id}/telemetry`], ['POST', `/attempts/${id}/answers`]);
    }
    requests.push(
      ['PUT', '/attempts//answers/q'],
      ['PUT', '/attempts/a/answers/'],
      ['PUT', '/attempts/a/answers/q/'],
      ['PUT', '/attempts/a/answers/q/extra'],
      ['PUT', '/attempts/a//answers/q'],
      ['PUT', '//attempts/a/answers/q'],
      ['PUT', '/Attempts/a/answers/q'],
      ['GET', '/attempts/'],
      ['GET', '/attempts'],
      ['HEAD', '/attempts/a'],
      ['OPTIONS', '/attempts/a/answers/q'],
    );
    expectSame(routes, candidateLiveRoutes, requests);
  });

  it("answers the candidate's live routes without the trie, and leaves the rest to it", () => {
    const { fast } = pair(routes, candidateLiveRoutes);
    expect(fast.isDirect('PUT', '/attempts/Ab3dEf9hIj0k/answers/q_1')).toBe(true);
    expect(fast.isDirect('POST', '/attempts/Ab3dEf9hIj0k/answers')).toBe(true);
    expect(fast.isDirect('POST', '/attempts/Ab3dEf9hIj0k/telemetry')).toBe(true);
    expect(fast.isDirect('GET', '/attempts/Ab3dEf9hIj0k')).toBe(true);
    // `POST /attempts/start` is a literal at the id's place: that value goes to the trie
    expect(fast.isDirect('GET', '/attempts/start')).toBe(false);
    expect(fast.isDirect('PUT', '/attempts/start/answers/q_1')).toBe(false);
    expect(fast.isDirect('POST', '/attempts/Ab3dEf9hIj0k/submit')).toBe(false);
    expect(fast.isDirect('PUT', '/attempts/a/answers/q/')).toBe(false);
  });
});

describe('HotRouteRouter on route sets made to trip it', () => {
  const hot: HotRouteSpec[] = [['PUT', '/a/:id/b/:q']];
  const paths: [string, string][] = [
    ['PUT', '/a/x/b/y'],
    ['PUT', '/a/special/b/y'],
    ['PUT', '/a/123/b/y'],
    ['PUT', '/a/x/b/special'],
    ['PUT', '/a/same/b/same'],
    ['GET', '/a/x/b/y'],
  ];

  it('sends a value some literal route matches to the trie, and answers the others directly', () => {
    const routes = routesOf([
      ['ALL', '/*'],
      ['ALL', '/a/special/*'],
      ['ALL', '/a/:id/b/special'],
      ['PUT', '/a/:id/b/:q'],
      ['ALL', '/a/:attemptId/*'],
    ]);
    const fast = expectSame(routes, hot, paths);
    expect(fast.isDirect('PUT', '/a/special/b/y')).toBe(false);
    expect(fast.isDirect('PUT', '/a/x/b/special')).toBe(false);
    expect(fast.isDirect('PUT', '/a/x/b/y')).toBe(true);
    // each handler gets its own parameter names
    const [list] = fast.match('PUT', '/a/x/b/y') as [[unknown, Record<string, string>][]];
    expect(list.map(([h]) => routes.findIndex((r) => r.handler === h))).toEqual([0, 3, 4]);
    expect({ ...list[0]![1] }).toEqual({});
    expect(list.find(([h]) => h === routes[4]!.handler)?.[1]).toMatchObject({ attemptId: 'x' });
    expect(list.find(([h]) => h === routes[3]!.handler)?.[1]).toMatchObject({ id: 'x', q: 'y' });
  });

  it('leaves the hot route to the trie when a regex or optional parameter sits at its parameter', () => {
    for (const extra of ['/a/:id{[0-9]+}/b/:q', '/a/:id/b/:q?', '/a/v*', '/a/*/b/special']) {
      const routes = routesOf([['ALL', extra], ['PUT', '/a/:id/b/:q']]);
      const fast = expectSame(routes, hot, paths);
      expect(fast.isDirect('PUT', '/a/123/b/y'), extra).toBe(false);
    }
  });

  it('gives the same value to each parameter when two segments are equal', () => {
    const routes = routesOf([['PUT', '/a/:id/b/:q']]);
    const fast = expectSame(routes, hot, paths);
    const [list] = fast.match('PUT', '/a/same/b/same') as [[unknown, Record<string, string>][]];
    expect({ ...list[0]![1] }).toEqual({ id: 'same', q: 'same' });
  });

  it('answers a hot route without parameters, and a parameter in first place', () => {
    const routes = routesOf([['ALL', '/*'], ['GET', '/a/b'], ['GET', '/:x/c']]);
    const fast = expectSame(routes, [['GET', '/a/b'], ['GET', '/:x/c']], [['GET', '/a/b'], ['GET', '/a/b/'], ['GET', '/a/bb'], ['GET', '/z/c'], ['GET', '/a/c']]);
    expect(fast.isDirect('GET', '/a/b')).toBe(true);
    expect(fast.isDirect('GET', '/a/bb')).toBe(false);
    expect(fast.isDirect('GET', '/z/c')).toBe(true);
    // `/a/b` puts the literal `a` at `:x`: that value goes to the trie
    expect(fast.isDirect('GET', '/a/c')).toBe(false);
  });

  it('falls back to the trie for a hot route that is not registered', () => {
    const routes = routesOf([['PUT', '/a/:id/c/:q']]);
    const fast = expectSame(routes, hot, paths);
    expect(fast.isDirect('PUT', '/a/x/b/y')).toBe(false);
  });

  it('refuses a hot path it cannot answer directly, and routes added after the first match', () => {
    expect(() => new HotRouteRouter([['PUT', '/a/:id{[0-9]+}']])).toThrow(/plain :name/);
    const { fast } = pair(routesOf([['PUT', '/a/:id/b/:q']]), hot);
    fast.match('PUT', '/a/x/b/y');
    expect(() => fast.add('GET', '/late', () => 0)).toThrow(/before the first match/);
  });
});
