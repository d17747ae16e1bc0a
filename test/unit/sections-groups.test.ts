/**
 * The subjects of a paper as the candidate page's tabs show them (web/candidate/sections/
 * groups.ts, issue 37 item 8): the server's `sections` when the response has them, else the
 * questions' own `section` names in the order each first appears; questions in no section
 * go to a last "Other questions" group; positions stay in the paper's order.
 */
import { describe, expect, it } from 'vitest';
import { subjectsOf } from '../../web/candidate/sections/groups.js';
import type { SessionQuestion } from '../../web/candidate/types.js';

const q = (id: string, section: string | null = null): SessionQuestion => ({ id, type: 'MCQ', prompt: id, marks: 1, section, options: [] });

describe('subjectsOf', () => {
  it('follows the server’s sections, dropping ids not on the paper and gathering the rest last', () => {
    const qs = [q('e1', 'English'), q('e2', 'English'), q('m1', 'Maths'), q('x')];
    const got = subjectsOf(qs, [{ name: 'Use of English', questionIds: ['e1', 'e2', 'gone'] }, { name: 'Mathematics', questionIds: ['m1'] }]);
    expect(got).toEqual([
      { name: 'Use of English', indices: [0, 1] },
      { name: 'Mathematics', indices: [2] },
      { name: 'Other questions', indices: [3] },
    ]);
  });

  it('groups by each question’s section without them, in order of first appearance', () => {
    const qs = [q('p1', 'Physics'), q('c1', 'Chemistry'), q('p2', 'Physics'), q('n1'), q('c2', 'Chemistry')];
    expect(subjectsOf(qs)).toEqual([
      { name: 'Physics', indices: [0, 2] },
      { name: 'Chemistry', indices: [1, 4] },
      { name: 'Other questions', indices: [3] },
    ]);
    // an empty list from the server is no sections
    expect(subjectsOf(qs, [])).toEqual(subjectsOf(qs));
    // any name is a name, even one an object already has
    expect(subjectsOf([q('a', 'constructor'), q('b', '__proto__')])).toEqual([
      { name: 'constructor', indices: [0] },
      { name: '__proto__', indices: [1] },
    ]);
  });
});
