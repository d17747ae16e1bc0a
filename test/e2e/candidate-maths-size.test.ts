/**
 * Maths at a readable size (issue 20 item 4): an inline fraction in a prompt and an option
 * that is a lone fraction render their numerators and denominators at (nearly) the size of
 * the text around them at 1024×768 — KaTeX's inline \frac sets them in script style, at
 * ~70 % of an already small size, which a candidate on a hall PC cannot read. In both forms
 * of the maths: KaTeX's HTML (a browser without MathML) and MathML (a current Chromium, where
 * the server's \displaystyle becomes `<mstyle displaystyle=true>`).
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type TestServer } from '../harness.js';
import { openPage, seedExam, shot, pageSuite } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

const QUESTION = {
  type: 'MCQ',
  marks: 1,
  prompt: 'Simplify $\\frac{3}{4} + \\frac{1}{8}$ and give the answer as a fraction.',
  options: ['$\\frac{7}{8}$', '$\\frac{4}{12}$', '$\\frac{1}{2}$', '$1\\frac{1}{8}$'].map((text, i) => ({ text, isCorrect: i === 0 })),
};

/**
 * For every fraction inside `scope`: the smallest rendered font size (px) of its numerator
 * and denominator digits, the font size of the text the fraction sits in, and the glyph
 * height of a digit (px, from its bounding box).
 */
async function fractionSizes(page: Page, scope: string, mathml: boolean) {
  return page.$$eval(mathml ? `${scope} .katex > math mfrac` : `${scope} .katex-html .mfrac`, (fracs, digitSel) =>
    fracs.map((f) => {
      const digits = Array.from(f.querySelectorAll(digitSel)).filter((e) => e.children.length === 0 && /^\d+$/.test(e.textContent || ''));
      const px = digits.map((d) => parseFloat(getComputedStyle(d).fontSize));
      const host = f.closest('.rich') as HTMLElement;
      return {
        digits: digits.length,
        minPx: Math.min(...px),
        textPx: parseFloat(getComputedStyle(host).fontSize),
        glyphPx: Math.min(...digits.map((d) => d.getBoundingClientRect().height)),
      };
    }),
  mathml ? 'mn' : '.mord');
}

describe('candidate page: maths size', () => {
  it.each([
    ['MathML', true],
    ['KaTeX HTML', false],
  ])('renders inline fractions in prompts and options near the size of the text around them at 1024×768 (%s)', async (form, mathml) => {
    const seeded = await seedExam(server.baseUrl, [QUESTION]);
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: { width: 1024, height: 768 }, mathml });
    for (const [sel, value] of [['#accessCode', seeded.accessCode], ['#candidateName', 'Amaka Obi'], ['#studentId', `MATH-${form.length}`], ['#candidatePin', '1470']]) {
      await page.click(sel!);
      await page.keyboard.type(value!);
    }
    await page.keyboard.press('Enter');
    await page.click('#start-exam');
    await page.waitForSelector('#q-prompt .katex');
    const prompt = await fractionSizes(page, '#q-prompt', mathml);
    const options = await fractionSizes(page, '.otext', mathml);
    console.log('prompt fractions', JSON.stringify(prompt), 'option fractions', JSON.stringify(options));
    expect(prompt).toHaveLength(2);
    expect(options).toHaveLength(4);
    for (const f of [...prompt, ...options]) {
      expect(f.digits).toBeGreaterThanOrEqual(2);
      // numerator and denominator at 90 % or more of the surrounding text, and never under 16 px
      expect(f.minPx).toBeGreaterThanOrEqual(0.9 * f.textPx);
      expect(f.minPx).toBeGreaterThanOrEqual(16);
    }
    await shot(page, mathml ? 'candidate-maths-size-mathml' : 'candidate-maths-size');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
