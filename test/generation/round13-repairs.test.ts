/**
 * Issue 39 §2: faults round 13's judge named (docs/quality-generation-ratings.md, "Round 13"),
 * mended where they are made. Hand-written material (none from a hold-out set):
 * - a wrong key: "in the absence of oxygen" made "in the absence of air" and keyed False —
 *   oxygen is a substance of air, so the swap leaves the statement true;
 * - spoken fragments from a lecture's captions: "yoghurt which is made by bacteria …" (no
 *   main verb), "respiration is the process by which food substances mainly glucose" (cut);
 * - a slide's "Composition: …" line made "Composition is …" (composition of what?);
 * - "low protein (about 40% crude protein or more)": a degree word turned beside the figure
 *   that contradicts it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { antonymSwap, exchangeSwap, siblingSwap } from '../../src/core/generation/engine/falsehood.js';
import { partOf } from '../../src/core/generation/engine/lexicon.js';
import { cleanSpoken, isSpokenStatement } from '../../src/core/generation/engine/spoken.js';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

describe('no swap of a substance for what it is a substance of', () => {
  it('knows oxygen is a substance of air, and tells apart kinds that are not', () => {
    expect(partOf(kindOf('oxygen', 'noun')!, kindOf('air', 'noun')!)).toBe(true);
    expect(partOf(kindOf('nitrogen', 'noun')!, kindOf('oxygen', 'noun')!)).toBe(false);
  });

  it('makes no false form of a statement by putting air for oxygen, or exchanging them', () => {
    const text = [
      'Anaerobic respiration is the breakdown of glucose in the absence of oxygen to release a small amount of energy.',
      'Aerobic respiration takes in oxygen from the air and gives out carbon dioxide.',
      'Plants take in carbon dioxide from the air and give out oxygen during photosynthesis.',
      'The word aero means air, so aerobic respiration needs a supply of oxygen.',
    ];
    const index = indexMaterial(text.map((t, i) => ({ text: t, citation: `paragraph ${i + 1}` })));
    const finder = new FactFinder(index, 1, kindOf);
    for (const s of index.sentences.filter((x) => x.usable)) {
      const spans = finder.spans(s);
      const sib = siblingSwap(s, spans, finder.pool, index.sentences, 1, kindOf, () => true);
      const ex = exchangeSwap(s, spans, kindOf);
      for (const f of [sib, ex]) if (f) expect(`${f.original} → ${f.replacement}`).not.toMatch(/oxygen.*air|air.*oxygen/);
    }
  });
});

describe('a spoken clause needs its own main verb', () => {
  it('refuses a noun and its relative clause, and a relative clause cut before its verb', () => {
    expect(isSpokenStatement('yoghurt which is made by bacteria producing lactic acid')).toBe(false);
    expect(isSpokenStatement('the collisions that have enough energy and lead to reaction')).toBe(false);
    expect(isSpokenStatement('respiration is the process by which food substances mainly glucose')).toBe(false);
    expect(isSpokenStatement('a substance that speeds up a reaction is called a catalyst')).toBe(true);
    expect(isSpokenStatement('respiration is the process by which food is broken down to release energy')).toBe(true);
  });
});

describe('slides and figures', () => {
  it('makes no "Composition is …" of a slide line', () => {
    const usable = indexMaterial([{ text: 'Federal Civil Service Commission\n- Composition: a Chairman and other members called Federal Commissioners\n- Established by the constitution to appoint and discipline civil servants', citation: 'slide 1' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable.some((s) => /^Composition (?:is|are)\b/.test(s)), usable.join(' | ')).toBe(false);
  });

  it('turns no word of a "most … least" ranking (seen in the development run after round 13)', () => {
    expect(antonymSwap('Gases expand most and solids least when they are heated through the same range.', kindOf)).toBeNull();
  });

  it('drops a reply\'s "No." before a lecture\'s sentence', () => {
    expect(cleanSpoken('No. The instructions come from the nucleus, but the protein is made on the ribosome.')).toBe('The instructions come from the nucleus, but the protein is made on the ribosome.');
    const usable = indexMaterial([{ text: 'Does the nucleus make the protein? No. The instructions come from the nucleus, but the protein is made on the ribosome.', citation: '04:10', startSeconds: 250 }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable).toEqual(['The instructions come from the nucleus, but the protein is made on the ribosome.']);
  });

  it('turns no degree word beside a figure in brackets', () => {
    expect(antonymSwap('Catfish fingerlings need feed with high protein (about 40% crude protein or more).', kindOf)).toBeNull();
    expect(antonymSwap('Catfish fingerlings need feed with a high protein content for fast growth.', kindOf)?.replacement).toBe('low');
  });
});
