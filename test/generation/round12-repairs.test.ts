/**
 * Issue 39 §2: faults round 12's judge named (docs/quality-generation-ratings.md, "Round 12"),
 * mended where they are made. Hand-written material (none from a hold-out set):
 * - statements that lean on the sentence before: "also" pointing at nothing, "Each gland …"
 *   after "Sweat glands …", "Common causes include …" (causes of what?);
 * - an instruction given as a point of an essay's model answer ("Do not confuse X with Y …");
 * - "Define kidneys": an essay asked to define what is a thing, not a term ("The kidneys are …");
 * - "Any one of: … (1½ marks each)" for a single point;
 * - seen in the development run after the repairs: "a little urea" turned to "a large urea".
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs as paras } from './helpers/passages.js';

const usable = (passages: Passage[]) => indexMaterial(passages).sentences.filter((s) => s.usable).map((s) => s.text);

describe('a statement names what it is about', () => {
  it('refuses "Common causes include …" and keeps "Common causes of kidney failure include …" and "Young birds are …"', () => {
    expect(rejectReason('Common causes include high blood pressure, diabetes and infections of the kidney.', false)).toBe('does not name what it is about');
    expect(rejectReason('Common causes in Nigeria include high blood pressure, diabetes and the abuse of painkillers.', false)).toBe('does not name what it is about');
    expect(rejectReason('Main advantages are speed, low cost and the ease of moving goods.', false)).toBe('does not name what it is about');
    expect(rejectReason('Common causes of kidney failure include high blood pressure and diabetes.', false)).toBeNull();
    expect(rejectReason('Young birds are fed on chick mash for the first eight weeks of life.', false)).toBeNull();
  });

  it('drops an "also" that points at the sentence before; keeps "not only … but also"', () => {
    const got = usable(paras('The lungs remove carbon dioxide and water vapour from the body. The skin also removes some urea and mineral salts in sweat. The liver not only stores glycogen but also breaks down old red blood cells.'));
    expect(got).toContain('The skin removes some urea and mineral salts in sweat.');
    expect(got).toContain('The liver not only stores glycogen but also breaks down old red blood cells.');
    expect(got.some((s) => /skin also/.test(s))).toBe(false);
  });

  it('names the kind of a bare "each gland" / "the gland" from the compound named before it in the passage', () => {
    const got = usable(paras('Sweat glands are found in the dermis of the skin of mammals. Each gland is a coiled tube that opens at a pore on the surface of the skin. The gland absorbs water, urea and salts from the blood capillaries around it.'));
    expect(got).toContain('Each sweat gland is a coiled tube that opens at a pore on the surface of the skin.');
    expect(got).toContain('The sweat gland absorbs water, urea and salts from the blood capillaries around it.');
    expect(got.some((s) => /^(?:Each|The) gland\b/.test(s))).toBe(false);
  });

  it('turns no "a little" (an amount) into "a large"', () => {
    expect(antonymSwap('The sweat gland absorbs water, salts and a little urea from the blood around it.', kindOf)).toBeNull();
    expect(antonymSwap('A little boy carried the heavy basket of yams to the market.', kindOf)?.original).toBe('heavy');
  });
});

describe('essays', () => {
  const notes = paras(
    'Excretion is the removal of metabolic wastes, excess water and salts from the body.',
    'Do not confuse excretion with egestion, the removal of undigested food through the anus.',
    'Excretion in mammals is carried out by the kidneys, the skin, the lungs and the liver.',
    'The kidneys are the main excretory organs of the body of a mammal.',
    'The kidneys are two bean-shaped organs found at the back of the abdominal cavity.',
    'The kidneys filter about one hundred and eighty litres of blood plasma every day.',
  );
  const essays = (['simple', 'intermediate'] as const).flatMap((difficulty) => generateExtractive(notes, { difficulty, count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions);

  it('takes no instruction for a point, and asks to define no thing named with "the … are"', () => {
    expect(rejectReason('Do not confuse excretion with egestion, the removal of undigested food through the anus.', false)).toBe('an instruction');
    expect(rejectReason('Never store fertilisers in the same room as animal feed or seed.', false)).toBe('an instruction');
    expect(essays.some((q) => /^Define excretion\b/.test(q.prompt))).toBe(true);
    for (const q of essays) {
      expect(q.modelAnswer).not.toMatch(/Do not confuse/);
      expect(q.prompt).not.toMatch(/^Define (?:the )?kidneys\b/);
    }
  });

  it('says "(1½ marks)" for a single further point, "each" only for more', () => {
    for (const q of essays) {
      const other = q.rubric!.criteria.find((c) => /^Other points/.test(c.title))!;
      if (/^Any one of/.test(other.description)) expect(other.description).toMatch(/\(1½ marks\)\.$/);
      else expect(other.description).toMatch(/ marks each\)\.$/);
    }
  });
});
