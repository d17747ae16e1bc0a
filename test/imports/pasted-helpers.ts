/** Helpers of the pasted-paper tests (issue 21): fixture reading and the clean-prompt promise. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ParseResult } from '../../src/core/formats/types.js';

/** Text of a paste in test/fixtures/imports/pasted/. */
export const pasted = (name: string) => readFileSync(new URL(`../fixtures/imports/pasted/${name}`, import.meta.url), 'utf8');

/**
 * The promises every shape keeps: no prompt starts with numbering or an answer/solution
 * label, and no prompt holds a line of ANOTHER question's explanation (a question's own
 * solution may restate its stem).
 */
export function expectCleanPrompts(r: ParseResult): void {
  const solutionLines = r.questions.map((q) => (q.explanation ?? '').split('\n').map((l) => l.trim()).filter((l) => l.length >= 8));
  r.questions.forEach((q, i) => {
    expect(q.prompt, 'numbering stripped').not.toMatch(/^\s*(?:Q(?:uestion)?\s*)?\(?\d{1,3}\s*[.):]/i);
    expect(q.prompt, 'no answer or solution label in a prompt').not.toMatch(/^\s*(?:answer|ans|key|solution|explanation|working|hint)\b/im);
    solutionLines.forEach((lines, j) => {
      if (j !== i) for (const s of lines) expect(q.prompt, `prompt ${i + 1} holds a solution line of question ${j + 1}: "${s}"`).not.toContain(s);
    });
    for (const o of q.options ?? []) expect(o.text).not.toMatch(/^\s*(?:answer|ans|key|solution|explanation|working|hint)\b/im);
  });
}
