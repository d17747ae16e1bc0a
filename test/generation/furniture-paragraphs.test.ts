/**
 * Issue 21 §3: page furniture and examiners' reports never become question material, and
 * hard-wrapped TXT is split into paragraphs by blank lines and sentence flow so that
 * citations point at the right paragraph.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { stripFurniture } from '../../src/core/generation/furniture.js';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { readMaterial } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool();
afterAll(() => jobs.close());

const ICAN = new URL('../../../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf', import.meta.url).pathname;
const FURNITURE = /section [a-e]\b|turn over|mcq - solutions|\bsolution \d|examiner|marking guide|candidates|attempt all|time allowed|\bpage \d/i;

describe('page furniture', () => {
  it('drops running heads, page numbers and exam apparatus, keeps content lines', () => {
    const page = (n: number, body: string) =>
      `THE INSTITUTE OF CHARTERED ACCOUNTANTS OF NIGERIA\nFOUNDATION LEVEL EXAMINATION – NOVEMBER 2023\n${body}\n${n}`;
    const pages = [
      page(1, 'SECTION A MCQ - SOLUTIONS\nDO NOT TURN OVER UNTIL YOU ARE TOLD TO DO SO\nA ledger is a book of accounts.'),
      page(2, 'Depreciation spreads the cost of an asset over its useful life.'),
      page(3, 'Page 3 of 9\n(Total 20 Marks)\nA trial balance lists the balances of the ledger.'),
      page(4, 'Attempt all questions in this section.\nGoodwill arises when a business is bought for more than its net assets.'),
    ];
    const kept = stripFurniture(pages).join('\n');
    expect(kept).not.toMatch(/INSTITUTE|FOUNDATION LEVEL|SECTION A|TURN OVER|Page 3|Total 20|Attempt all|^\d+$/m);
    for (const line of ['A ledger is a book of accounts.', 'Depreciation spreads', 'A trial balance lists', 'Goodwill arises']) expect(kept).toContain(line);
  });

  it("rejects examiners' report sentences as question material", () => {
    for (const s of [
      'Candidates were expected to explain the features of a database management system.',
      'Most candidates who attempted the question did not understand the accruals concept.',
      "The question tests candidates' understanding of the sources of law in Nigeria.",
      'Commendably, the performance was above average in this part of the paper.',
      'Furthermore, they could not properly explain communication style and the components.',
      'Award a maximum of 4 marks for the correct explanation of the concept of going concern.',
    ]) expect(rejectReason(s, false)).not.toBeNull();
    expect(rejectReason('A database management system is the software that stores, retrieves and secures data.', false)).toBeNull();
  });

  describe.skipIf(!existsSync(ICAN))('on the ICAN Foundation paper (real PDF; skipped without ../shared)', () => {
    it('no question, option or explanation quotes page furniture or an examiner', async () => {
      const bytes = new Uint8Array(readFileSync(ICAN));
      const { passages } = await readMaterial(jobs, { file: { bytes, name: 'ICAN_Foundation_Nov_2023.pdf', type: 'application/pdf' } });
      const { questions } = generateExtractive(passages, { difficulty: 'balanced', count: 40 });
      expect(questions.length).toBeGreaterThanOrEqual(30);
      for (const q of questions) {
        expect(q.prompt).not.toMatch(FURNITURE);
        for (const o of q.options ?? []) expect(o.text).not.toMatch(FURNITURE);
      }
    }, 120_000);
  });
});

describe('hard-wrapped TXT paragraphs', () => {
  const wrap = (p: string, width = 64) => p.replace(new RegExp(`(.{1,${width}})(\\s+|$)`, 'g'), '$1\n').trim();
  const paras = [
    'Inflation is a sustained rise in the general price level of an economy over a period of time, measured by a price index.',
    'The central bank raises the policy rate when inflation is high, which makes borrowing dearer and slows demand.',
    'Unemployment counts people of working age who are willing and able to work but cannot find a job at the going wage.',
    'Fiscal policy is the use of government spending and taxation to influence the level of aggregate demand in the economy.',
  ];

  it('finds paragraphs by sentence flow when there are no blank lines', () => {
    const got = textToParagraphPassages(paras.map((p) => wrap(p)).join('\n'));
    expect(got.map((p) => p.citation)).toEqual(['paragraph 1', 'paragraph 2', 'paragraph 3', 'paragraph 4']);
    expect(got[2]!.text.replace(/\s+/g, ' ')).toBe(paras[2]);
  });

  it('still splits on blank lines and keeps a wrapped paragraph whole', () => {
    const got = textToParagraphPassages(paras.map((p) => wrap(p, 50)).join('\n\n'));
    expect(got).toHaveLength(4);
    expect(got[1]!.text.replace(/\s+/g, ' ')).toBe(paras[1]);
  });

  it('questions from hard-wrapped text cite more than paragraph 1', async () => {
    const { passages } = await readMaterial(jobs, { file: { bytes: new TextEncoder().encode(paras.map((p) => wrap(p)).join('\n')), name: 'notes.txt', type: 'text/plain' } });
    const { questions } = generateExtractive(passages, { difficulty: 'simple', count: 4 });
    const cited = new Set(questions.map((q) => q.citation));
    expect(cited.size).toBeGreaterThan(1);
  });
});
