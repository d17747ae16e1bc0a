/**
 * Round 44 (docs/quality.md): its two wrong keys and one unusable item, mended where they were
 * made. Hand-written sentences in the manner of the round's physics notes (none copied from the
 * set): two items of one list exchanged only reorder it ("such as a wall, …, a cliff" keyed
 * False); an opening phrase's setting turned ("In a small hall, sound is reflected many times")
 * may be as true; a bracket naming the lesson's own case ("(here, air)") is dropped like an
 * example (docs/decisions.md, "Round 44: a list reordered, an opening setting, the lesson's own
 * case").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { antonymSwap, exchangeSwap } from '../../src/core/generation/engine/falsehood.js';
import { extractSpans } from '../../src/core/generation/engine/spans.js';
import type { SourceSentence } from '../../src/core/generation/engine/sentences.js';
import { withoutExampleAside } from '../../src/core/generation/engine/trims.js';
import { closeWordNet, kindOf as lexicon } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());
const sentence = (text: string) => ({ idx: 0, text, passageIndex: 0 }) as unknown as SourceSentence;

describe('round 44', () => {
  it('does not exchange two items of one list', () => {
    for (const text of ['Heat can travel through a solid such as a rod, a spoon, a pot or a metal plate.', 'Echoes come back from a hard surface such as a cliff, a tall building, a wall or a hillside.']) {
      expect(exchangeSwap(sentence(text), extractSpans(text), lexicon)).toBeNull();
    }
  });

  it("does not turn the setting of an opening phrase, only the statement's own words", () => {
    expect(antonymSwap('In a large room, the echo is heard after a long delay.', lexicon)?.original).not.toBe('large');
    expect(antonymSwap('Stewing is cooking food slowly in a small amount of liquid.', lexicon)?.original).toBe('small');
  });

  it("drops a bracket that names the lesson's own case", () => {
    expect(withoutExampleAside('Sound needs a material medium (here, air) to travel.')).toBe('Sound needs a material medium to travel.');
    expect(withoutExampleAside('Sound needs a material medium (solid, liquid or gas) to travel.')).toBe('Sound needs a material medium (solid, liquid or gas) to travel.');
  });
});
