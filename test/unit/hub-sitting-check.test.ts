/**
 * The hub's check of the questions a hall says a candidate was given (src/hub/sitting-check.ts):
 * exactly the candidate's sections (compulsory ones and their roster subjects), each with its
 * draw's count of its own questions; anything else is refused.
 */
import { describe, expect, it } from 'vitest';
import { sittingProblem } from '../../src/hub/sitting-check.js';

const sections = [
  { name: 'English', draw: 2, compulsory: true },
  { name: 'Physics', draw: 1, compulsory: false },
  { name: 'Chemistry', draw: null, compulsory: false },
];
const questions = [
  { id: 'e1', section: 'English' },
  { id: 'e2', section: 'English' },
  { id: 'e3', section: 'English' },
  { id: 'p1', section: 'Physics' },
  { id: 'p2', section: 'Physics' },
  { id: 'c1', section: 'Chemistry' },
];

describe('a candidate’s sitting as the hub checks it', () => {
  it('allows the candidate’s own sections with their draws', () => {
    expect(sittingProblem(sections, questions, ['Physics'], ['e3', 'e1', 'p2'])).toBeNull();
    expect(sittingProblem(sections, questions, null, ['e1', 'e2', 'p1', 'c1'])).toBeNull();
  });

  it('refuses a section the candidate does not sit, a wrong count, an unknown or repeated question', () => {
    expect(sittingProblem(sections, questions, ['Physics'], ['e1', 'e2', 'p1', 'c1'])).toMatch(/sections they do not sit/);
    expect(sittingProblem(sections, questions, ['Physics'], ['e1', 'e2', 'e3', 'p1'])).toMatch(/"English" gives each candidate 2 questions; the candidate was given 3/);
    expect(sittingProblem(sections, questions, ['Physics'], ['e1', 'e2'])).toMatch(/"Physics" gives each candidate 1 question; the candidate was given 0/);
    expect(sittingProblem(sections, questions, ['Physics'], ['e1', 'e2', 'x9'])).toMatch(/not on the paper/);
    expect(sittingProblem(sections, questions, ['Physics'], ['e1', 'e1', 'p1'])).toMatch(/twice/);
  });

  it('needs the given questions when a section draws, not otherwise', () => {
    expect(sittingProblem(sections, questions, ['Physics'], undefined)).toMatch(/givenQuestionIds/);
    expect(sittingProblem([{ name: 'Chemistry', draw: null, compulsory: true }], questions, null, undefined)).toBeNull();
  });
});
