/** Helpers of the pasted-paper tests (issue 21): fixture reading and the clean-prompt promise. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ParseResult } from '../../src/modules/imports/types.js';

/** Text of a paste in test/fixtures/imports/pasted/. */
export const pasted = (name: string) => readFileSync(new URL(`../fixtures/imports/pasted/${name}`, import.meta.url), 'utf8');

/** The promises every shape keeps: clean prompts (no numbering, answer or solution text). */
export function expectCleanPrompts(r: ParseResult): void {
  const solutions = r.questions.flatMap((q) => (q.explanation ?? '').split('\n')).map((l) => l.trim()).filter((l) => l.length > 3);
  for (const q of r.questions) {
    expect(q.prompt, 'numbering stripped').not.toMatch(/^\s*(?:Q(?:uestion)?\s*)?\(?\d{1,3}\s*[.):]/i);
    expect(q.prompt, 'no answer or solution label in a prompt').not.toMatch(/^\s*(?:answer|ans|key|solution|explanation|working|hint)\b/im);
    for (const s of solutions) expect(q.prompt, `prompt holds solution text "${s}"`).not.toContain(s);
    for (const o of q.options ?? []) expect(o.text).not.toMatch(/^\s*(?:answer|ans|key|solution|explanation|working|hint)\b/im);
  }
}
