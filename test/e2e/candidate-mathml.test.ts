/**
 * The paper's maths in the form the browser can show (issue 26, web/candidate/math.ts). A
 * current Chromium lays out MathML: the page asks for `?math=mathml`, shows fractions as
 * MathML and fetches no KaTeX stylesheet or font. A browser without MathML (the probe made
 * to measure nothing, as a Chrome 80-era PC does: withoutMathml) asks for KaTeX's HTML,
 * links KaTeX's stylesheet and shows KaTeX's HTML as before. Both survive a reload; a long
 * display formula scrolls in its own box at 1024×768 and 1366×768, never the page.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, shot, signInAndStart } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
pageSuite((s) => ({ server, browser } = s));

const LONG = Array.from({ length: 24 }, (_, i) => `\\frac{x^{${i + 2}}}{${i + 3}}`).join(' + ');
const PAPER = [
  { prompt: 'Simplify $\\frac{3}{4} + \\frac{1}{8}$ and give the answer as a fraction.', type: 'MCQ', marks: 1, options: [{ text: '$\\frac{7}{8}$', isCorrect: true }, { text: '$\\frac{1}{2}$', isCorrect: false }] },
  { prompt: `Integrate term by term: $$${LONG}$$ and then $$\\sqrt{x^2 + 1}$$`, type: 'MCQ', marks: 1, options: [{ text: 'Yes', isCorrect: true }, { text: 'No', isCorrect: false }] },
];

/** Records the same-origin paths `page` requests, and the start/read requests' queries. */
function record(page: Page, origin: string) {
  const paths: string[] = [];
  const paperQueries: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin !== origin) return;
    paths.push(u.pathname);
    if (u.pathname === '/attempts/start' || (r.method() === 'GET' && /^\/attempts\/[^/]+$/.test(u.pathname) && u.searchParams.get('questions') !== '0')) paperQueries.push(u.search);
  });
  return { paths, paperQueries };
}

/** What the first question shows: its first fraction's height against a line of its text, in each form. */
async function firstFraction(page: Page) {
  return page.evaluate(() => {
    const prompt = document.getElementById('q-prompt')!;
    const text = prompt.querySelector('p')!.firstChild!;
    const range = document.createRange();
    range.selectNodeContents(text);
    const mfrac = prompt.querySelector('.katex > math mfrac');
    const katexFrac = prompt.querySelector('.katex-html .mfrac');
    // KaTeX's fraction is a stack of positioned spans: its height is that of all their boxes together
    const inked = (el: Element) => {
      const rects = [el, ...Array.from(el.querySelectorAll('*'))].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
      return Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
    };
    return {
      lineHeight: range.getBoundingClientRect().height,
      mathmlHeight: mfrac ? mfrac.getBoundingClientRect().height : 0,
      katexHeight: katexFrac ? inked(katexFrac) : 0,
      katexLink: (document.getElementById('katex-css') as HTMLLinkElement | null)?.getAttribute('href') ?? null,
    };
  });
}

/** The second question's display formulas: the page's and each box's sideways overflow, and the short one's centring. */
async function displayLayout(page: Page) {
  return page.evaluate(() => {
    const boxes = Array.from(document.querySelectorAll('#q-prompt .katex-display')) as HTMLElement[];
    const doc = document.documentElement;
    const centre = (r: DOMRect) => r.left + r.width / 2;
    const short = boxes[1]!;
    const formula = (short.querySelector('.katex > math > mrow') ?? short.querySelector('.katex-html .katex-base'))!;
    return {
      boxes: boxes.length,
      pageOverflow: doc.scrollWidth - doc.clientWidth,
      longScrolls: boxes[0]!.scrollWidth > boxes[0]!.clientWidth + 20,
      longOverflowY: getComputedStyle(boxes[0]!).overflowX,
      longRight: boxes[0]!.getBoundingClientRect().right,
      viewport: doc.clientWidth,
      offCentre: Math.abs(centre(formula.getBoundingClientRect()) - centre(short.getBoundingClientRect())),
    };
  });
}

describe('candidate page: maths as MathML where the browser shows it', () => {
  it.each([
    { form: 'MathML', mathml: true, width: 1024 },
    { form: 'KaTeX HTML', mathml: false, width: 1366 },
    { form: 'MathML', mathml: true, width: 1366 },
    { form: 'KaTeX HTML', mathml: false, width: 1024 },
  ])('asks for and shows $form; a reload too; a long display formula scrolls in its own box at $width×768', async ({ form, mathml, width }) => {
    const viewport = { width, height: 768 };
    const seeded = await seedExam(server.baseUrl, PAPER);
    const origin = new URL(server.baseUrl).origin;
    // the page's service worker off, so the held stylesheet below is this page's own request (a PC's first load)
    const { context, page, errors } = await openPage(browser, server.baseUrl, { viewport, mathml, serviceWorkers: 'block' });
    const seen = record(page, origin);
    // KaTeX's stylesheet arrives late, as over a busy hall Wi-Fi: until it is in, the maths is hidden, never shown unstyled
    let cssHeld = 0;
    let releaseCss = () => {};
    const cssReleased = new Promise<void>((resolve) => (releaseCss = resolve));
    await page.route('**/vendor/katex/*.css', async (route) => {
      cssHeld += 1;
      await cssReleased;
      await route.continue();
    });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Chiamaka Eze', studentId: `MML-${viewport.width}-${form.length}`, pin: '1234' });
    await page.waitForSelector('#q-prompt .katex', { state: 'attached' });
    if (!mathml) {
      expect(await page.evaluate(() => document.documentElement.classList.contains('maths-loading'))).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('#q-prompt .katex')!).visibility)).toBe('hidden');
    }
    releaseCss();
    await page.waitForFunction(() => !document.documentElement.classList.contains('maths-loading'));
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#q-prompt .katex')!).visibility)).toBe('visible');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(cssHeld).toBe(mathml ? 0 : 1);

    const frac = await firstFraction(page);
    const katexAssets = () => seen.paths.filter((p) => p.startsWith('/vendor/katex/'));
    if (mathml) {
      expect(seen.paperQueries).toEqual(['?math=mathml']);
      // a real fraction: numerator over denominator, taller than a line of the text around it
      expect(frac.mathmlHeight).toBeGreaterThan(frac.lineHeight * 1.3);
      expect(frac.katexHeight).toBe(0);
      expect(frac.katexLink).toBeNull();
      expect(katexAssets()).toEqual([]);
      expect(await page.locator('.otext .katex > math mfrac').count()).toBe(2);
    } else {
      expect(seen.paperQueries).toEqual(['']);
      expect(frac.katexHeight).toBeGreaterThan(frac.lineHeight * 1.3);
      expect(frac.katexLink).toMatch(/^\/vendor\/katex\/katex\.[0-9a-f]{10}\.css$/);
      expect(katexAssets()).toContain(frac.katexLink);
      expect(katexAssets().some((p) => /\/fonts\/KaTeX_Main-Regular-core\.[0-9a-f]{10}\.woff2$/.test(p))).toBe(true);
      expect(await page.locator('.otext .katex-html .mfrac').count()).toBe(2);
    }

    await page.click('.nav-q[data-index="1"]');
    await page.waitForSelector('#q-prompt .katex-display');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const layout = await displayLayout(page);
    await shot(page, `candidate-${mathml ? 'mathml' : 'katex'}-display-${viewport.width}`);
    expect(layout.boxes).toBe(2);
    // the long formula scrolls inside its own box; the page itself never scrolls sideways
    expect(layout.pageOverflow).toBeLessThanOrEqual(0);
    expect(layout.longScrolls).toBe(true);
    expect(layout.longOverflowY).toBe('auto');
    expect(layout.longRight).toBeLessThanOrEqual(layout.viewport);
    // a short display formula is centred in its line
    expect(layout.offCentre).toBeLessThan(4);

    // a reload asks for the same form and shows it again
    const before = seen.paperQueries.length;
    await page.reload();
    await page.waitForSelector('#q-prompt .katex');
    expect(seen.paperQueries.slice(before)).toEqual([mathml ? '?math=mathml' : '']);
    if (mathml) {
      expect(await page.locator('#q-prompt .katex > math mfrac').count()).toBeGreaterThan(0);
      expect(katexAssets()).toEqual([]);
    } else {
      expect(await page.locator('#q-prompt .katex-html .mfrac').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.katex-mathml')!).position)).toBe('absolute');
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
