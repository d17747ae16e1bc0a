/**
 * The 10,000-candidate bench (scripts/bench/ws-hall.mjs, issue 40 §4) at CI size: the real
 * server as its own process (the TypeScript sources through tsx), 200 candidates seated in
 * its database, their 200 save channels opened from two load processes, 200 saves a second
 * over them and 20 over PUT for 4 s, the monitor's SSE stream read beside them, then the
 * bare `ws` echo server at the same rate over the same 200 sockets. No timing is asserted
 * (a CI machine's figures mean nothing); what must hold at any size is: every channel
 * opens, every save sent is acknowledged and made durable (none refused, none left
 * unanswered, no channel closed), every PUT answers 200, the monitor's stream delivers
 * snapshots that show the saves, and the echo answers every frame. Its paper is made of the
 * real past papers (scripts/bench/fixtures.mjs): without the folder of real papers beside the
 * checkout the block is skipped under a name that says why (test/real-papers.ts), as the other
 * benches that read them are.
 */
import { expect, it } from 'vitest';
import { describeReal } from '../real-papers.js';
// @ts-expect-error plain ESM script without types
import { measureWsHall } from '../../scripts/bench/ws-hall.mjs';

type Summary = { n: number; p50: number; p99: number; max: number };
interface Measured {
  hall: {
    opened: number;
    refused: number;
    sent: number;
    save: Summary;
    durable: Summary;
    errors: number;
    undurable: number;
    unanswered: number;
    closes: number;
    put: Summary & { sent: number; errors: number };
    monitor: { snapshots: number; behind: Summary; errors: number };
    rss: { idleMB: number; openMB: number; hwmMB: number };
  };
  echo: { opened: number; save: Summary; unanswered: number };
  ratio: number;
}

describeReal('the 10,000-candidate bench at CI size (200 channels)', () => {
  it('acknowledges every save over the channels and PUT, makes each durable, and the monitor shows them', async () => {
    const m = (await measureWsHall({ n: 200, seconds: 4, warm: 1, rate: 200, putRate: 20, putCandidates: 20, procs: 2, source: true, log: console.log })) as Measured;
    const h = m.hall;
    expect(h.opened).toBe(200);
    expect(h.refused).toBe(0);
    expect(h.sent).toBeGreaterThan(500);
    expect(h.errors).toBe(0);
    expect(h.unanswered).toBe(0);
    expect(h.undurable).toBe(0);
    expect(h.closes).toBe(0);
    expect(h.save.n).toBe(h.sent);
    expect(h.durable.n).toBe(h.sent);
    expect(h.put.errors).toBe(0);
    expect(h.put.n).toBe(h.put.sent);
    expect(h.put.sent).toBeGreaterThan(50);
    expect(h.monitor.errors).toBe(0);
    expect(h.monitor.snapshots).toBeGreaterThan(0);
    expect(h.monitor.behind.n).toBeGreaterThan(0);
    expect(h.rss.hwmMB).toBeGreaterThan(0);
    expect(m.echo.opened).toBe(200);
    expect(m.echo.unanswered).toBe(0);
    expect(m.echo.save.n).toBeGreaterThan(500);
  }, 120_000);
});
