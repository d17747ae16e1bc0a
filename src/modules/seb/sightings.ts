/**
 * Browser Exam Key sightings: the `X-SafeExamBrowser-RequestHash` values an exam's seats
 * sent that matched no registered key, one per client (User-Agent: SEB writes its version
 * and platform there), so the examiner can confirm a BEK read off SEB before requiring it.
 *
 * SEB never sends the BEK itself, only SHA-256(request URL + BEK) (SEB's Browser Exam Key
 * specification), so the server cannot learn a BEK from a seat; what it can do is tell,
 * for a key the examiner pastes, which seats' hashes it explains (docs/operations.md §12).
 * Kept in memory (a restart forgets them; seats send them again with every request):
 * at most 20 clients per exam, 500 exams, per hall process.
 */
import { LRUCache } from 'lru-cache';
import type { HallDeps } from '../../hall/deps.js';
import { keyForHash, type RequestHashSeen } from '../seb-check/index.js';

interface Sighting extends RequestHashSeen {
  client: string;
  seenAt: number;
}

const MAX_CLIENTS = 20;
const byHall = new WeakMap<object, LRUCache<string, Sighting[]>>();

function store(deps: HallDeps): LRUCache<string, Sighting[]> {
  let s = byHall.get(deps.sessions);
  if (!s) byHall.set(deps.sessions, (s = new LRUCache<string, Sighting[]>({ max: 500 })));
  return s;
}

/**
 * Records an unmatched RequestHash of `examId` from the client named by `userAgent`
 * (truncated to 200 characters); the newest per client is kept.
 */
export function recordRequestHash(deps: HallDeps, examId: string, userAgent: string | undefined, seen: RequestHashSeen): void {
  const s = store(deps);
  const client = (userAgent ?? 'unknown client').slice(0, 200);
  const list = (s.get(examId) ?? []).filter((x) => x.client !== client);
  list.unshift({ ...seen, client, seenAt: deps.clock.now() });
  s.set(examId, list.slice(0, MAX_CLIENTS));
}

/**
 * The exam's sightings, newest first, each with the registered key that explains its hash.
 * @returns `{client, seenAt (ISO 8601), requestUrl, requestHash, matchesKey (hex or null)}[]`
 */
export function requestHashSightings(deps: HallDeps, examId: string, keys: string[]) {
  return (store(deps).get(examId) ?? []).map((x) => ({
    client: x.client,
    seenAt: new Date(x.seenAt).toISOString(),
    requestUrl: x.requestUrl,
    requestHash: x.requestHash,
    matchesKey: keyForHash(x.requestUrl, keys, x.requestHash),
  }));
}
