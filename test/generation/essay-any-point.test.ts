/**
 * A generated essay's rubric credits any correct further point, as a marking scheme does
 * ("Any two of: …; accept any other correct point"), not only the sentences the generator
 * put in its model answer (issue 39 §2, rounds 7 and 10: "valid answers such as egg laying
 * would lose marks"); and its prompt promises no connection the material may not make.
 * Hand-written material.
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

const notes: Passage[] = paragraphs(
  'A layer is a hen that is kept mainly for the production of table eggs.',
  'Layers usually begin to lay eggs when they are about twenty weeks old.',
  'A good layer produces about two hundred and fifty eggs in one laying year.',
  'Layers need a diet that is rich in calcium so that their egg shells are strong.',
  'Layers are commonly kept in battery cages, where each bird has its own small compartment.',
  'A broiler is a young chicken that is raised mainly for the production of meat.',
  'Broilers are usually ready for the market when they are about eight weeks old.',
);

const essays = (['simple', 'intermediate', 'hard'] as const).flatMap((difficulty) => generateExtractive(notes, { difficulty, count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions);
const onLayer = essays.filter((q) => /^Define (?:a )?layer\b/.test(q.prompt));

describe('a generated essay credits any correct further point', () => {
  it('one criterion asks for "any N" of the further points the notes make, more than the model answer holds, and accepts others', () => {
    expect(onLayer.length).toBeGreaterThan(0);
    for (const q of onLayer) {
      const further = Number({ one: 1, two: 2, three: 3 }[/explain (one|two|three) other/.exec(q.prompt)![1]!]);
      const criterion = q.rubric!.criteria.find((c) => /other points/i.test(c.title))!;
      expect(criterion, q.rubric!.criteria.map((c) => c.title).join(' | ')).toBeDefined();
      const g = parseGuidance(criterion.description, criterion.maxMarks);
      expect(g.count).toBe(further);
      expect(g.perPoint! * further).toBe(criterion.maxMarks);
      // the notes' further points about layers that are clauses of an answer (three; the calcium one is a purpose
      // clause): those the model answer leaves out are listed too
      expect(g.alternatives.length).toBe(Math.max(further, 3));
      expect(criterion.description).toMatch(/any other correct point about (?:a )?layers?/i);
      expect(q.rubric!.criteria.reduce((s, c) => s + c.maxMarks, 0)).toBe(q.marks);
      for (const c of q.rubric!.criteria) expect(c.maxMarks * 2).toBe(Math.round(c.maxMarks * 2));
    }
  });

  it('a script that defines the term and makes a listed point the model answer left out earns that point', () => {
    const q = onLayer.find((x) => x.difficulty === 'simple')!;
    expect(q).toBeDefined();
    const inAnswer = (s: string) => q.modelAnswer!.includes(s.slice(0, 30));
    const other = notes.map((p) => p.text).filter((t) => /^Layers|^A good layer/.test(t)).find((t) => !inAnswer(t))!;
    expect(other).toBeDefined();
    const script = `A layer is a hen kept mainly to produce table eggs. ${other}`;
    const criteria = q.rubric!.criteria.map((c) => ({ id: c.id, title: c.title, description: c.description, maxMarks: c.maxMarks }));
    const evaluation = gradeEssayBuiltIn({ questionPrompt: q.prompt, modelAnswer: q.modelAnswer!, rubricCriteria: criteria, maxMarks: q.marks, studentResponse: script, minWords: q.minWords, maxWords: q.maxWords });
    // the marks for further points: every criterion but the definition's (the first) and clarity (the last)
    const further = evaluation.criteriaScores.slice(1, -1).reduce((s, c) => s + c.score, 0);
    expect(further).toBeGreaterThanOrEqual(1);
  });

  it('a hard essay does not ask to show a connection between its points', () => {
    for (const q of essays) expect(q.prompt).not.toMatch(/connected/);
  });
});
