/**
 * Round 53's mends (docs/decisions.md, "Round 53: …"). Its bearings lesson's captions gave "Zero six
 * five is less than one eighty" as a true/false statement (a spoken step of working), its democracy
 * deck's speaker note "Some textbooks use referendum and plebiscite as if they mean the same thing"
 * another (a note on the textbooks, not the subject), and its cell notes kept an "e.g." list in a
 * statement. Trying the mends, "The angle is always less than ninety degrees" (which angle?) came up,
 * then "The important thing about bearing is the phrase".
 */
import { describe, expect, it } from 'vitest';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { withoutExampleAside } from '../../src/core/generation/engine/trims.js';

describe('a sentence of spoken numbers', () => {
  it('is mostly numbers, as one of digits is', () => {
    expect(rejectReason('Zero six five is less than one eighty.', false)).toBe('mostly numbers');
    expect(rejectReason('Three zero zero is more than one eighty degrees.', false)).toBe('mostly numbers');
  });

  it('leaves a statement with a number or two in words', () => {
    expect(rejectReason('Insects have six legs and three body parts.', false)).toBeNull();
    expect(rejectReason('A compass bearing starts from north or south and turns towards east or west.', false)).toBeNull();
  });
});

describe('a note on what the textbooks say', () => {
  it('is no statement of the subject', () => {
    expect(rejectReason('Some textbooks use referendum and plebiscite as if they mean the same thing.', false)).not.toBeNull();
    expect(rejectReason('Many authors treat the limit of proportionality and the elastic limit as one point.', false)).not.toBeNull();
    expect(rejectReason('Textbooks differ on the number of errors not revealed by a trial balance.', false)).not.toBeNull();
  });

  it('leaves the subject itself', () => {
    expect(rejectReason('A referendum is a vote by the whole electorate on a single issue.', false)).toBeNull();
    expect(rejectReason('A plebiscite is usually held on questions of sovereignty or territory.', false)).toBeNull();
  });
});

describe('an example list at the end of a statement', () => {
  it('is dropped', () => {
    expect(withoutExampleAside('Cell is the basic unit of life, e.g. nerve cell, red blood cell, guard cell, root hair cell.')).toBe('Cell is the basic unit of life.');
    expect(withoutExampleAside('Some plants reproduce by suckers, for example banana and plantain.')).toBe('Some plants reproduce by suckers.');
  });

  it('stays when it is the grammar of the sentence ("such as") or in mid-sentence', () => {
    expect(withoutExampleAside('Fertilisers supply nutrients such as nitrogen, phosphorus and potassium.')).toBe('Fertilisers supply nutrients such as nitrogen, phosphorus and potassium.');
    expect(withoutExampleAside('Legumes, for example beans, fix nitrogen in their root nodules.')).toBe('Legumes, for example beans, fix nitrogen in their root nodules.');
  });
});

describe('"the angle", "the value" or "the thing" with nothing for it to belong to', () => {
  it('does not name what it is about', () => {
    expect(rejectReason('The angle is always less than ninety degrees.', false)).toBe('does not name what it is about');
    expect(rejectReason('The value is lower for rubber than for steel.', false)).toBe('does not name what it is about');
    // (and then, from the same captions: "now the important thing about bearing is the phrase")
    expect(rejectReason('The important thing about bearing is the phrase.', false)).toBe('does not name what it is about');
  });

  it('names it with "of …"', () => {
    expect(rejectReason('The angle of incidence is equal to the angle of reflection.', false)).toBeNull();
    expect(rejectReason('The value of money falls when prices rise.', false)).toBeNull();
  });
});
