/**
 * Issue #34, finding 1 (replies): a hall polled its hub and inflated whatever came back
 * with no limit — a 305 KB gzip reply took a hall from 132 MB to 1,061 MB. Here a real hall
 * process is enrolled (operator credential, CBT_HUB_ALLOW_LOCAL=1) with a fake hub on
 * loopback that answers a gzip bomb (a few hundred KB inflating to 300 MB), a 64 MB plain
 * reply sent chunked, bad JSON, an unsigned package and an error status. The hall stays
 * up, its peak resident memory (VmHWM, from /proc) grows by little, every bad reply is
 * recorded as the link's last error in one generic sentence, and the link backs off (the
 * wait doubles per failure): the 15-second job does not poll it before the wait is over.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, registerWorkspace, spawnServer, tempDir, type SpawnedServer } from '../harness.js';
import { running, sleep } from './hall-process.js';
import { gzipBomb, startFakeHub, type FakeHub, type FakeReply } from './fake-hub.js';

/** Peak and current resident memory of `pid`, MB. */
function memoryMb(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]);
  return { peak: Math.round(kb('VmHWM') / 1024), now: Math.round(kb('VmRSS') / 1024) };
}

describe('a hostile hub’s replies', () => {
  let hall: SpawnedServer | undefined;
  let hub: FakeHub | undefined;
  afterAll(async () => {
    await hall?.kill();
    await hub?.close();
  });

  it('are bounded: a gzip bomb and an oversized reply leave the hall up with little memory, recorded, backing off', async () => {
    const bomb = await gzipBomb(300 << 20);
    hub = await startFakeHub({ reply: 'empty-list', bomb, oversizedBytes: 64 << 20 });
    const dataDir = tempDir('hallcbt-hubbomb-');
    hall = await spawnServer({ dataDir, env: { CBT_HUB_ALLOW_LOCAL: '1' } });
    const operator = rotateOperatorCredential(dataDir);
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const enrolled = await hallApi.post('/hub-link/enrol', { hubUrl: hub.url, enrolmentCode: 'ENR-0000-0000-0000-0000', hallName: 'Hall' }, { 'x-operator-key': operator });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    // a good sync first: the baseline includes a sync's own cost
    expect((await hallApi.post('/hub-link/sync', {})).body.error).toBeNull();
    const before = memoryMb(hall.proc.pid!);

    const waits: number[] = [];
    const replies: FakeReply[] = ['bomb', 'oversized', 'bomb', 'bad-json', 'bad-signature', 'error-500'];
    for (const reply of replies) {
      hub.reply = reply;
      const started = Date.now();
      const sync = await hallApi.post('/hub-link/sync', {});
      expect(sync.status, `${reply}: ${JSON.stringify(sync.body)}`).toBe(200);
      expect(sync.body.error, reply).toMatch(/unreachable or answered badly/i);
      expect(Date.now() - started, reply).toBeLessThan(20_000);
      const link = (await hallApi.get('/hub-link')).body;
      expect(link.lastError, reply).toMatch(/unreachable or answered badly/i);
      expect(link.lastError, reply).not.toMatch(/ECONN|gzip|JSON|HTTP \d/);
      waits.push(Date.parse(link.nextSyncAt) - Date.now());
      expect(running(hall.proc.pid!), reply).toBe(true);
    }
    const after = memoryMb(hall.proc.pid!);
    console.log(`hall memory: peak ${before.peak} → ${after.peak} MB, resident ${before.now} → ${after.now} MB; bomb ${Math.round(bomb.length / 1024)} KB → 300 MB; waits ${waits.map((w) => Math.round(w / 1000)).join(', ')} s`);
    expect(after.peak - before.peak).toBeLessThan(100);
    // the wait grows with each failure, up to a cap
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThanOrEqual(Math.min(waits[i - 1]! * 1.5, 14 * 60_000));
    expect(waits.at(-1)!).toBeGreaterThan(5 * 60_000);
    expect((await hallApi.get('/hub-link')).body.failures).toBe(replies.length);

    // the 15-second job leaves a link in its wait alone
    const seen = hub.requests.length;
    await sleep(17_000);
    expect(hub.requests.length).toBe(seen);
    expect(hall.logs.join('')).toMatch(/hub-link|hub sync/);

    // a good answer again clears the error and the wait
    hub.reply = 'empty-list';
    const ok = await hallApi.post('/hub-link/sync', {});
    expect(ok.body.error).toBeNull();
    const link = (await hallApi.get('/hub-link')).body;
    expect([link.lastError, link.failures]).toEqual([null, 0]);
  }, 120_000);
});
