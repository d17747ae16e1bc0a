/**
 * The four real past papers in ../shared/fixtures/real/ (read in place, never copied):
 * question counts, spot-checked answer keys (looked up by hand in the files), the
 * NECO paper's duplicate option and offline image links as warnings, and format
 * auto-detection. Note: NECO_Mathematics_2023.md holds 40 questions (numbered 1–40),
 * the three WAEC papers 50 each.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePastPaperMarkdown } from '../../src/core/formats/past-paper.js';
import { detectFormat } from '../../src/core/formats/detect.js';
import { REAL_PAPERS_DIR, describeReal } from '../real-papers.js';
// Fresh clone without ../shared: describeReal (test/real-papers.ts: existsSync of each paper)
// reports this block as skipped under a name saying why, and test/global-setup.ts prints one line.

const paper = (name: string) => readFileSync(join(REAL_PAPERS_DIR, `${name}.md`), 'utf8');

/** [paper, question count, {question number: key}] — keys read from the files by hand */
const PAPERS: [string, number, Record<number, string>][] = [
  ['WAEC_Mathematics_2023', 50, { 1: 'B', 4: 'C', 5: 'A', 17: 'A', 36: 'B', 40: 'C', 50: 'B' }],
  ['WAEC_Physics_2023', 50, { 1: 'C', 9: 'D', 17: 'B', 36: 'A', 40: 'D', 50: 'B' }],
  ['WAEC_Biology_2023', 50, { 1: 'B', 2: 'D', 17: 'B', 36: 'C', 40: 'A', 50: 'B' }],
  ['NECO_Mathematics_2023', 40, { 1: 'B', 2: 'C', 3: 'A', 17: 'C', 36: 'B', 40: 'D' }],
];

describeReal('the four past papers', () => {
describe.each(PAPERS)('%s', (name, count, keys) => {
  let text: string;
  let r: ReturnType<typeof parsePastPaperMarkdown>;
  beforeAll(() => {
    text = paper(name);
    r = parsePastPaperMarkdown(text);
  });

  it(`is detected as the past-paper layout and parses ${count} questions, none skipped`, () => {
    expect(detectFormat(text)).toBe('past-paper');
    expect(r.questions).toHaveLength(count);
    expect(r.skipped).toEqual([]);
    expect(r.questions.every((q) => q.type === 'MCQ' && q.marks === 1 && q.options!.length === 4)).toBe(true);
  });

  it('has the right answer keys', () => {
    for (const [n, key] of Object.entries(keys)) {
      const q = r.questions[Number(n) - 1]!;
      expect(q.options!.find((o) => o.isCorrect)!.keyLabel, `question ${n}`).toBe(key);
    }
  });
});

describe('NECO_Mathematics_2023 details', () => {
  let r: ReturnType<typeof parsePastPaperMarkdown>;
  beforeAll(() => {
    r = parsePastPaperMarkdown(paper('NECO_Mathematics_2023'));
  });

  it('reports the duplicate option of question 2 as a warning', () => {
    expect(r.warnings).toContainEqual({ index: 1, line: 17, message: 'Options B and C have the same text ("8.8 x 10<sup>-2</sup>").' });
  });

  it('keeps <sup>/<sub> HTML and multi-line explanations without the closing asterisk', () => {
    const q1 = r.questions[0]!;
    expect(q1.options!.map((o) => o.text)).toEqual(['√3', '2', '3', '√2']);
    expect(q1.explanation).toBe(
      'Let δ<sup>2</sup> and δ denote the variance and standard deviation of the distribution respectively.\n\nBut δ<sup>2</sup> = 4 (given)\n\nHence δ = √4 = 2',
    );
    expect(r.questions[2]!.explanation).toContain('a * a<sub>-1</sub> = e');
    expect(r.questions[2]!.prompt).toBe('The binary operation on the set of real numbers is defined by m*n = mn/2\nfor all m, n ∈ R. If the identity element is 2, find the inverse of -5');
  });

  it('warns that image links cannot be fetched offline (questions 11 and 24)', () => {
    const images = r.warnings.filter((w) => w.message.includes('cannot be fetched offline'));
    expect(images.map((w) => w.index)).toEqual([10, 23]);
    expect(images[0]!.message).toContain('https://res.cloudinary.com/aloc-ng/image/upload/');
  });

  it('reports a WAEC Biology near-duplicate only when the texts really are equal (case matters)', () => {
    const bio = parsePastPaperMarkdown(paper('WAEC_Biology_2023'));
    expect(bio.warnings).toEqual([]); // "EE, Ee, Ee and ee" vs "EE, EE, Ee and ee"; "T only" vs "t only"
  });
});
});

describe('past-paper defects', () => {
  it('skips a question with no answer line (and warns) and keeps the rest', () => {
    const text = '**1.** First?\n   A) x\n   B) y\n**Answer: B**\n\n**2.** Second?\n   A) x\n   B) y\n\n**3.** Third?\n   A) p\n   B) q\n**Answer: A**\n*Explanation: because*\n';
    const r = parsePastPaperMarkdown(text);
    expect(r.questions.map((q) => q.prompt)).toEqual(['First?', 'Third?']);
    expect(r.questions[1]!.explanation).toBe('because');
    expect(r.skipped).toEqual([{ index: 1, line: 6, reason: 'missing answer: question 2 has no "**Answer: X**" line' }]);
    expect(r.warnings.some((w) => /missing answer/.test(w.message))).toBe(true);
  });
});
