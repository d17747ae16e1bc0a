/**
 * Round 59's mends (docs/decisions.md, "Round 59: a pupil given the floor, a theorem by its number,
 * a figure's letters, examples for a definition, a list's notes"). Its circle-theorems lecture gave
 * "A chord is a line that joins two points on the circle" — a pupil's answer after "yes you with
 * the blue pen" — and read "theorem two angles in the same segment are equal" as a procedure's
 * step, while "Angle acb is forty two degrees", of a diagram on the board, stood as a fact; its
 * trafficking deck wrote "Child labour — street hawking, bus conductors, begging" as "Child labour
 * is the street hawking, …" and "Poverty — families looking for a way out", under "Causes of …",
 * as "Poverty refers to families looking for a way out".
 */
import { describe, expect, it } from 'vitest';
import { spokenSentences } from '../../src/core/generation/engine/spoken.js';
import { indexMaterial, rejectReason, stripNumbering } from '../../src/core/generation/engine/sentences.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { explainsItems } from '../../src/core/generation/engine/heading-lists.js';
import type { Passage } from '../../src/core/generation/passage.js';

describe('a pupil given the floor', () => {
  it("gives the next cue, the pupil's answer, no statement", () => {
    const said = spokenSentences([
      'before we start who can tell me what is a chord',
      'yes you with the blue pen',
      'a chord is a line that joins two points on the circle',
      'good a chord is a straight line joining any two points on the circumference',
    ]);
    expect(said.join(' ')).not.toMatch(/joins two points on the circle/);
    expect(said).toContain('A chord is a straight line joining any two points on the circumference.');
    expect(spokenSentences(['yes tunde', 'the heart pumps blood to the lungs and the body']).join(' ')).not.toMatch(/heart/);
  });

  it('is not given by "yes" before a statement or by "you can"', () => {
    expect(spokenSentences(['yes you can see it', 'chlorophyll absorbs red and blue light'])).toEqual(['Chlorophyll absorbs red and blue light.']);
    expect(spokenSentences(['yes ma', 'chlorophyll absorbs red and blue light'])).toEqual(['Chlorophyll absorbs red and blue light.']);
  });
});

describe('a theorem said by its number', () => {
  it('loses the number, and the statement stands', () => {
    expect(stripNumbering('Theorem two angles in the same segment are equal.')).toBe('Angles in the same segment are equal.');
    expect(stripNumbering('Theorem three the angle in a semicircle is a right angle.')).toBe('The angle in a semicircle is a right angle.');
    expect(rejectReason(stripNumbering('Theorem two angles in the same segment are equal.'), true)).toBeNull();
  });
});

describe("a figure's letters", () => {
  it('make a statement about a diagram the candidate cannot see', () => {
    for (const s of ['Angle acb is forty two degrees.', 'Angle aob is the angle at the centre.', 'The line AB is a chord of the circle with centre O.', 'The angle at that vertex is ninety degrees.']) {
      expect(rejectReason(s, true), s).toBe('refers to something outside the sentence');
    }
  });

  it('are not read into ordinary words after "line", "point" or "angle"', () => {
    for (const s of ['A tangent is a line that touches a circle at one point only.', 'The point at which the line cuts the axis is the intercept.', 'Angles in the same segment are equal.', 'Two lines meet at a point called the vertex of the angle.']) {
      expect(rejectReason(s, true), s).toBeNull();
    }
  });
});

describe('a dash before examples', () => {
  it('is no definition', () => {
    expect(dashDefinition('Child labour — street hawking, bus conductors, begging', 'child labour')).toBeNull();
    expect(dashDefinition('Sexual exploitation — forced prostitution, pornography', 'sexual exploitation')).toBeNull();
    expect(dashDefinition('Loam – mixture of sand, silt and clay', 'loam')).toBe('Loam is the mixture of sand, silt and clay.');
  });
});

describe("a list's notes under a heading of causes, effects or functions", () => {
  it('are read by the heading', () => {
    for (const h of ['CAUSES OF HUMAN TRAFFICKING (1)', 'Effects on the Victim', 'Problems in the Fight', 'Functions of NAPTIP', '2. MAIN CAUSES OF EROSION', 'Money functions']) expect(explainsItems(h), h).toBe(true);
    for (const h of ['Types of erosion', 'Methods of irrigation', 'Meaning of Human Trafficking', 'Forms / Types of Human Trafficking (1)']) expect(explainsItems(h), h).toBe(false);
  });

  it('are no definitions of the items; a type\'s note still is', () => {
    const slides: Passage[] = [
      { citation: 'slide 1', text: 'HUMAN TRAFFICKING\nCivic Education – SS 1' },
      { citation: 'slide 2', text: 'Causes of Human Trafficking\n- **Poverty** — families looking for a way out\n- **Unemployment** — youths desperate for jobs\n- **Illiteracy** — victims cannot read contracts' },
      { citation: 'slide 3', text: 'Types of Erosion\n- **Sheet erosion** — removal of a thin layer of topsoil over a wide area\n- **Gully erosion** — deep channels cut by running water' },
    ];
    const texts = indexMaterial(slides).sentences.map((s) => s.text);
    expect(texts.join(' ')).not.toMatch(/Poverty (?:is|refers)/);
    expect(texts).toContain('Sheet erosion is the removal of a thin layer of topsoil over a wide area.');
  });
});
