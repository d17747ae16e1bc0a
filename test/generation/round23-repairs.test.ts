/**
 * Round 23's judged faults of two-statement true/false items (issue 39 §2), on hand-written
 * statements: the same definition said twice tests nothing, and a negative statement beside a
 * positive one that shares its word reads as a contradiction when each holds in a different part
 * of the material ("No gametes are formed" for asexual, "Each parent produces gametes" for sexual
 * reproduction). And a glossary line, "Term – A description", is the term's definition, not a
 * statement with a dash in it, nor "A description …" with its term cut off as a label.
 * docs/decisions.md, "Two statements that make one item" and "A glossary line is a definition".
 */
import { describe, expect, it } from 'vitest';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { passageSentences } from '../../src/core/generation/engine/sentences.js';
import { pairable } from '../../src/core/generation/engine/subjects.js';

const facts = (...texts: string[]) => texts.map((text) => ({ sentence: { text } }));

describe('two statements that make one item', () => {
  it('refuses the same definition twice and a negative beside a positive on the same word', () => {
    expect(pairable(facts('Speed is the distance travelled per unit time.', 'Speed is the distance covered in a unit of time.'))).toBe(false);
    expect(pairable(facts('In budding, the parent cell forms spores that grow into new cells.', 'In budding, no spores are formed, so the new cells are identical.'))).toBe(false);
  });
  it('keeps two different facts about one subject, both positive or both negative', () => {
    expect(pairable(facts('Copper conducts heat quickly because of its free electrons.', 'Copper is used to make the bottoms of cooking pots.'))).toBe(true);
    expect(pairable(facts('A virus cannot reproduce outside a living cell.', 'A virus has no cell wall and is covered by a coat of protein.'))).toBe(true);
  });
});

describe('a glossary line, "Term – A description"', () => {
  const material = 'Farmers in Kano and Lagos grow groundnuts. The ovary makes eggs.';
  it('is read as the definition it stands for, with the article a sentence needs', () => {
    expect(dashDefinition('Oviduct (fallopian tube) – A narrow tube that carries the egg from the ovary to the uterus.', material)).toBe('The oviduct (fallopian tube) is a narrow tube that carries the egg from the ovary to the uterus.');
    expect(dashDefinition('Ovaries – The female gonads that produce eggs.', material)).toBe('The ovaries are the female gonads that produce eggs.');
    expect(dashDefinition('Germination – The growth of a seed into a seedling.', material)).toBe('Germination is the growth of a seed into a seedling.');
    expect(dashDefinition('Lagos – A port city in the south-west.', material)).toBe('Lagos is a port city in the south-west.');
    // a label, a clause for a term, notes in lower case (a note line, refused elsewhere)
    expect(dashDefinition('Example – A farmer in Kano who grows groundnuts.', material)).toBeNull();
    expect(dashDefinition('Carried by wind – A light seed with hairs.', material)).toBeNull();
    expect(dashDefinition('Ovary – makes eggs and hormones.', material)).toBeNull();
  });
  it('keeps its term in a numbered list of a paragraph', () => {
    const text = '1. Cervix – A ring of muscle at the neck of the uterus. 2. Vagina – A muscular tube that leads from the cervix to the outside of the body.';
    expect(passageSentences({ text, citation: 'paragraph 1' }, { material: text, heading: null, allowLowercaseStart: false })).toEqual([
      'The cervix is a ring of muscle at the neck of the uterus.',
      'The vagina is a muscular tube that leads from the cervix to the outside of the body.',
    ]);
  });
});
