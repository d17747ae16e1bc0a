/**
 * The four real past papers of ../shared/fixtures/real/ (read in place, never copied) as
 * a website shows them and an examiner copies them: the Markdown marks gone ("**12.**"
 * becomes "12.", "**Answer: C**" becomes "Answer: C", "*Explanation: …*" becomes
 * "Explanation: …"). Read as pasted papers, they must give what the past-paper reader
 * gives from the Markdown: the same questions, keys and explanations, and clean prompts.
 * Skipped, with the reason in its title, on a clone without ../shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePastPaperMarkdown } from '../../src/core/formats/past-paper.js';
import { parseQuestionBank } from '../../src/core/formats/detect.js';
import type { ImportedQuestion } from '../../src/core/formats/types.js';
import { FIXTURES } from '../harness.js';
import { expectCleanPrompts } from './pasted-helpers.js';

const PAPERS = ['WAEC_Mathematics_2023', 'WAEC_Physics_2023', 'WAEC_Biology_2023', 'NECO_Mathematics_2023'];
const present = existsSync(FIXTURES);

/** The text a browser shows of a past paper's Markdown (bold, italics and heading marks gone). */
function asCopiedFromTheWeb(md: string): string {
  return md
    .replace(/\*\*/g, '')
    .replace(/^(\s*)\*(explanation:)/gim, '$1$2')
    .replace(/(\S)\*\s*$/gm, '$1')
    .replace(/^#+\s*/gm, '');
}
const key = (q: ImportedQuestion) => q.options?.find((o) => o.isCorrect)?.keyLabel;
const same = (s: string | undefined) => (s ?? '').replace(/\*/g, '').replace(/\s+/g, ' ').trim();

describe.skipIf(!present)(`real papers copied as plain text${present ? '' : ' (skipped: ../shared/fixtures/real is not beside this clone)'}`, () => {
  it.each(PAPERS)('%s reads as a pasted paper with the same questions, keys and explanations', (name) => {
    const md = readFileSync(join(FIXTURES, `${name}.md`), 'utf8');
    const reference = parsePastPaperMarkdown(md).questions;
    const { format, result } = parseQuestionBank(asCopiedFromTheWeb(md));
    expect(format).toBe('pasted-paper');
    expect(result.skipped).toEqual([]);
    expect(result.questions.map(key)).toEqual(reference.map(key));
    expect(result.questions.map((q) => same(q.prompt))).toEqual(reference.map((q) => same(q.prompt)));
    expect(result.questions.map((q) => same(q.explanation))).toEqual(reference.map((q) => same(q.explanation)));
    expect(result.questions.map((q) => q.options!.length)).toEqual(reference.map((q) => q.options!.length));
    expectCleanPrompts(result);
  });
});
