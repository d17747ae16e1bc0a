/**
 * Issue 39 §2, fifth pass: the faults round 7's judge named (docs/quality-generation-ratings.md,
 * "Round 7"), fixed where they are made. Every rule is tested on hand-written material (none
 * from a hold-out set):
 * - a list item with no verb outside its bracket is no statement ("Action of a dilute acid on a
 *   metal (e.g. zinc … gives …)");
 * - a false definition item swaps descriptions only between terms of one kind (not
 *   "Neutralisation is a substance …", a reaction given a substance's definition);
 * - no word is swapped where a bracket right after it says what it is ("add water (calcium
 *   oxide …)": the bracket gives the key away);
 * - no word is swapped that heads a fixed "X of Y" name ("oxide of crystallisation");
 * - no count noun replaces a mass noun the material uses bare ("a volume of molecule");
 * - a lesson's "Reading:", "Bring:", "Homework:" lines are no definitions;
 * - a definition restated keeps the article the material gave its term ("A base is …").
 */
import { describe, expect, it } from 'vitest';
import { definitionStatement, falseSibling, findDefinitions, siblingsOf } from '../../src/core/generation/engine/definitions.js';
import { bareMismatch, glossed, namesWithOf } from '../../src/core/generation/engine/falsehood.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

const usable = (passages: Passage[]) => indexMaterial(passages).sentences.filter((s) => s.usable).map((s) => s.text);
/** The swap of `word` (its first place in `text`) for `replacement`. */
const swapIn = (text: string, word: string, replacement = 'salt') => ({ start: text.indexOf(word), end: text.indexOf(word) + word.length, original: word, replacement });

describe('a list item with no verb outside its bracket is no statement', () => {
  it('refuses "Action of heat on a carbonate (for example, heating limestone gives quicklime)."', () => {
    expect(rejectReason('Action of heat on a carbonate (for example, heating limestone gives quicklime).', false)).toBe('not a sentence (no verb)');
    expect(usable(paragraphs('Ways of preparing salts', '1. Action of heat on a carbonate (for example, heating limestone gives quicklime). 2. Reaction of a dilute acid with a metal such as magnesium ribbon.'))).toEqual([]);
  });

  it('looks outside a bracket within a bracket ("(e.g. copper(II) oxide and dilute acid)")', () => {
    expect(rejectReason('Action of a dilute acid on an insoluble base (e.g. copper(II) oxide and dilute hydrochloric acid).', false)).toBe('not a sentence (no verb)');
  });

  it('keeps a sentence whose verb is outside its bracket', () => {
    expect(rejectReason('Limestone (calcium carbonate) gives quicklime when it is heated strongly in a kiln.', false)).toBeNull();
  });
});

describe('a false definition item swaps descriptions only between terms of one kind', () => {
  const material = paragraphs(
    'Osmosis is the movement of water molecules across a membrane from a dilute solution to a concentrated one.',
    'Combustion is the reaction of a substance with oxygen in which heat and light are given out.',
    'A catalyst is a substance that changes the rate of a chemical reaction without being used up.',
    'An indicator is a substance that shows by its colour whether a solution is acidic or alkaline.',
  );
  const defs = findDefinitions(material, indexMaterial(material));
  const byTerm = (t: string) => defs.find((d) => d.term.toLowerCase() === t)!;

  it('gives a movement no substance’s definition, and a substance another substance’s', () => {
    expect(defs.map((d) => d.term.toLowerCase()).sort()).toEqual(['catalyst', 'combustion', 'indicator', 'osmosis']);
    // a reaction is no substance, though WordNet finds the two words kin through senses not meant here
    const combustion = byTerm('combustion');
    expect(falseSibling(combustion, siblingsOf(combustion, defs, material.length, kindOf, false))).toBeNull();
    const osmosis = byTerm('osmosis');
    // the siblings a definition MCQ may use still include them (options are not statements)
    expect(siblingsOf(osmosis, defs, material.length, kindOf, false).length).toBeGreaterThan(0);
    expect(falseSibling(osmosis, siblingsOf(osmosis, defs, material.length, kindOf, false))).toBeNull();
    const catalyst = byTerm('catalyst');
    expect(falseSibling(catalyst, siblingsOf(catalyst, defs, material.length, kindOf, false))?.term.toLowerCase()).toBe('indicator');
  });

  it('restates a definition with the article the material gave its term', () => {
    expect(definitionStatement(byTerm('catalyst'), null)).toBe('A catalyst is a substance that changes the rate of a chemical reaction without being used up.');
    expect(definitionStatement(byTerm('catalyst'), byTerm('indicator'))).toBe('A catalyst is a substance that shows by its colour whether a solution is acidic or alkaline.');
    expect(definitionStatement(byTerm('osmosis'), null)).toBe('Osmosis is the movement of water molecules across a membrane from a dilute solution to a concentrated one.');
  });
});

describe('no word is swapped where a bracket right after it says what it is', () => {
  const text = 'Farmers spread lime (calcium oxide or calcium hydroxide) on acidic soils before planting.';

  it('refuses a swap of the glossed word, and allows one elsewhere in the sentence', () => {
    expect(glossed(text, swapIn(text, 'lime'))).toBe(true);
    expect(glossed(text, swapIn(text, 'acidic'))).toBe(false);
    // a bracket further on glosses something else
    expect(glossed(text, swapIn(text, 'Farmers'))).toBe(false);
  });

  it('refuses a swap inside the bracket, which would no longer fit what it glosses (round 5: "Sand (silicon(IV) water)")', () => {
    expect(glossed(text, swapIn(text, 'hydroxide'))).toBe(true);
    const sand = 'Sand (silicon(IV) oxide) is giant covalent, like diamond.';
    expect(glossed(sand, swapIn(sand, 'oxide'))).toBe(true);
    // after the bracket has closed, the sentence's own words may change
    expect(glossed(sand, swapIn(sand, 'diamond'))).toBe(false);
  });
});

describe('no word is swapped that heads a fixed "X of Y" name', () => {
  const text = 'Washing soda crystals lose their water of crystallisation when they are left in the open air of the laboratory.';

  it('refuses "water" of "water of crystallisation", allows "air" of "the open air of the laboratory"', () => {
    expect(namesWithOf(text, swapIn(text, 'water'))).toBe(true);
    expect(namesWithOf(text, swapIn(text, 'air'))).toBe(false);
    expect(namesWithOf(text, swapIn(text, 'crystals'))).toBe(false);
  });
});

describe('no count noun replaces a mass noun the material uses bare', () => {
  const material = 'Sea water contains salt. A molecule of water has two hydrogen atoms. Dissolve the sugar in water. Each molecule moves fast. Plants lose water by transpiration.';
  const text = 'A solution is made by dissolving a solute in a given volume of water at room temperature.';

  it('refuses "volume of molecule", allows "volume of salt" (the material says "contains salt")', () => {
    expect(bareMismatch(text, swapIn(text, 'water', 'molecule'), material)).toBe(true);
    expect(bareMismatch(text, swapIn(text, 'water', 'salt'), material)).toBe(false);
    // after an article the number is the article's business, not this rule's
    expect(bareMismatch(text, swapIn(text, 'solute', 'molecule'), material)).toBe(false);
  });
});

describe('a lesson’s housekeeping lines are no definitions', () => {
  it('takes nothing from "Reading:", "Bring:" or "Homework:" on a title slide', () => {
    const got = usable([{ text: 'Electricity at Home\n- Reading: the class notes and chapter four of the textbook on circuits.\n- Bring: a ruler, a pencil and coloured pencils for the diagrams.\n- Homework: the exercise on page thirty of the workbook.', citation: 'slide 1' }]);
    expect(got.some((s) => /^(?:Reading|Bring|Homework) (?:is|are) /.test(s))).toBe(false);
  });
});
