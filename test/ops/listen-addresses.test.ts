/**
 * Issue 20 item 4: the start-up banner, /system/info (the connect screen and the PIN
 * slips take their address from it) print only addresses that reach the server. With
 * HOST=127.0.0.1 that is the loopback address alone, said to be for this machine only;
 * with HOST=0.0.0.0 every printed LAN address answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, registerWorkspace, spawnServer, type SpawnedServer } from '../harness.js';

let server: SpawnedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Every URL the banner printed ("HallCBT is running." … blank line). */
async function bannerUrls(s: SpawnedServer): Promise<{ text: string; urls: string[] }> {
  const deadline = Date.now() + 10_000;
  let text = '';
  while (Date.now() < deadline) {
    const all = s.logs.join('');
    const m = /HallCBT is running\.\n([\s\S]*?)\n\n/.exec(all);
    if (m) {
      text = m[1]!;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { text, urls: [...new Set(text.match(/https?:\/\/[^\s]+/g) ?? [])] };
}

/** True when GET <url>health answers 200 within 2 s. */
async function reaches(url: string): Promise<boolean> {
  const base = url.replace(/admin$/, '');
  try {
    return (await fetch(`${base}health`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

describe('addresses printed at start-up and shown to invigilators', () => {
  it('with HOST=127.0.0.1: only the loopback address, marked as this machine only', async () => {
    server = await spawnServer({ env: { HOST: '127.0.0.1' } });
    const { text, urls } = await bannerUrls(server);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect({ u, reaches: await reaches(u) }).toEqual({ u, reaches: true });
    expect(urls.every((u) => u.startsWith(`http://127.0.0.1:${server!.port}/`))).toBe(true);
    expect(text).toMatch(/Only this machine can open it \(HOST=127\.0\.0\.1\)/);
    const ws = await registerWorkspace(server.baseUrl);
    const info = (await api(server.baseUrl, ws.apiKey).get('/system/info')).body;
    expect(info).toMatchObject({ thisMachineOnly: true, candidateUrl: `http://127.0.0.1:${server.port}/`, lanUrls: [`http://127.0.0.1:${server.port}/`] });
  }, 60_000);

  it('with HOST=0.0.0.0: every printed address answers', async () => {
    server = await spawnServer({ env: { HOST: '0.0.0.0' } });
    const { text, urls } = await bannerUrls(server);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect({ u, reaches: await reaches(u) }).toEqual({ u, reaches: true });
    const ws = await registerWorkspace(server.baseUrl);
    const info = (await api(server.baseUrl, ws.apiKey).get('/system/info')).body;
    for (const u of info.lanUrls) expect({ u, reaches: await reaches(u) }).toEqual({ u, reaches: true });
    // a machine with a LAN address is not "this machine only"
    if (!/localhost/.test(urls[0]!)) expect(text).not.toMatch(/Only this machine/);
  }, 60_000);
});
