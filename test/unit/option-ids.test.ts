/**
 * Option ids are short (`opt_` + 5 base62 characters, src/platform/ids.ts, issue 26): they
 * need only differ from the other options of their question, so a new id that repeats one
 * of the question's ids (kept or new) is drawn again.
 */
import { describe, expect, it } from 'vitest';
import { normaliseQuestion } from '../../src/core/questions/normalise.js';
import { newId, OPTION_ID_CHARS } from '../../src/platform/ids.js';

describe('option ids', () => {
  it('are opt_ and 5 base62 characters', () => {
    expect(OPTION_ID_CHARS).toBe(5);
    for (let i = 0; i < 100; i++) expect(newId('opt')).toMatch(/^opt_[0-9A-Za-z]{5}$/);
  });

  it('never repeat within a question, even when the source of ids repeats itself', () => {
    const draws = ['opt_a', 'opt_a', 'opt_k', 'opt_a', 'opt_k', 'opt_b', 'opt_c'];
    let i = 0;
    const q = normaliseQuestion(
      { type: 'MCQ', prompt: 'P', marks: 1, options: [{ text: 'a', isCorrect: true }, { id: 'opt_k', text: 'kept', isCorrect: false }, { text: 'c', isCorrect: false }, { text: 'd', isCorrect: false }] } as never,
      () => draws[i++]!,
      new Set(['opt_k']),
    );
    expect(q.options.map((o) => o.id)).toEqual(['opt_a', 'opt_k', 'opt_b', 'opt_c']);
  });
});
