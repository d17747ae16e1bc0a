/**
 * Issue 39 §2, fourth pass: round 6 (docs/quality.md, "Round 6") gave no item from slides or
 * lecture captions. Fragments and spoken sentences are repaired before they are judged, procedure
 * steps are refused, and two statements go together only when they share a subject. Every rule is
 * tested on hand-written material (none from a hold-out set).
 */
import { describe, expect, it } from 'vitest';
import { sameSubject } from '../../src/core/generation/engine/subjects.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { timedTextToPassages } from '../../src/uploads/material/captions.js';

/** The usable sentences of the material, as the engine will state them. */
const usable = (passages: Passage[]) => indexMaterial(passages).sentences.filter((s) => s.usable).map((s) => s.text);
const slides = (...texts: string[]): Passage[] => texts.map((text, i) => ({ text, citation: `slide ${i + 1}` }));

describe('slides: a bullet fragment becomes a statement about the slide title', () => {
  it('takes the title as subject of a verb-phrase bullet ("Functions of X" → X)', () => {
    const got = usable(slides(
      'Functions of NAFDAC\n- Regulates the sale of drugs and packaged food in Nigeria.\n- Inspects the factories that make packaged food and drinks.',
      'The Kainji Dam, 1968\n- Created a large lake on the River Niger in Niger State.\n- Named after the old town of Kainji, now under the lake.',
    ));
    expect(got).toContain('NAFDAC regulates the sale of drugs and packaged food in Nigeria.');
    expect(got).toContain('NAFDAC inspects the factories that make packaged food and drinks.');
    expect(got).toContain('The Kainji Dam of 1968 created a large lake on the River Niger in Niger State.');
    // a participle is left alone: no "was" or "is" is guessed
    expect(got.some((s) => /^The Kainji Dam of 1968 (?:was |is )?named/.test(s))).toBe(false);
  });

  it('turns "Term: description" into "Term is/are description" when the description is a noun phrase', () => {
    const got = usable(slides('Sources of Government Revenue\n- Taxes: charges levied by the government on income and goods.\n- Royalty: a payment made by oil companies for the right to drill.\n- Example: Lagos State.\n- Age: 18 and above.'));
    expect(got).toContain('Taxes are charges levied by the government on income and goods.');
    expect(got).toContain('Royalty is a payment made by oil companies for the right to drill.');
    expect(got.some((s) => /Lagos State|18 and above/.test(s))).toBe(false);
  });

  it('takes no housekeeping line of a title slide ("Topic: …", "Class: …") for a definition', () => {
    const got = usable(slides('Trade and Markets in West Africa\n- Topic: local markets, long-distance trade, currencies.\n- Class: SS1 commerce.\n- Duration: two lessons of forty minutes.'));
    expect(got.some((s) => /^(?:Topic|Class|Duration) (?:is|are) /.test(s))).toBe(false);
  });

  it('gives "It …" bullets the topic of a "What is X?" title', () => {
    const got = usable(slides('What Is Osmosis?\n- It is the movement of water across a membrane from a dilute solution to a concentrated one.\n- Osmosis keeps plant cells firm.'));
    expect(got).toContain('Osmosis is the movement of water across a membrane from a dilute solution to a concentrated one.');
  });

  it('leaves bullets alone under a title that is no clean noun phrase', () => {
    const got = usable(slides('Rivers and Lakes\n- Carried silt down to the delta every rainy season.'));
    expect(got.some((s) => /^Rivers and lakes/i.test(s))).toBe(false);
  });
});

describe('a subject that needs its referent takes the heading that names it', () => {
  it('frames "The offspring are …" with a short heading of its own', () => {
    const notes: Passage[] = [
      { text: 'Binary Fission', citation: 'paragraph 1' },
      { text: 'The offspring are identical copies of the single parent cell.', citation: 'paragraph 2' },
    ];
    expect(usable(notes)).toContain('In binary fission, the offspring are identical copies of the single parent cell.');
  });

  it('does not frame it with a heading that is no short noun phrase', () => {
    const notes: Passage[] = [
      { text: 'Reproduction and Growth in Simple Organisms', citation: 'paragraph 1' },
      { text: 'The offspring are identical copies of the single parent cell.', citation: 'paragraph 2' },
    ];
    expect(usable(notes).some((s) => /offspring/.test(s))).toBe(false);
  });
});

describe('captions: spoken sentences cleaned and joined across caption groups', () => {
  const timed = (...texts: string[]): Passage[] => texts.map((text, i) => ({ text, citation: `00:0${i}`, startSeconds: i * 4 }));

  it('drops the fillers of speech before judging the sentence', () => {
    const got = usable(timed('So the kidney filters the blood and removes urea from the body.', 'Okay, now, the bladder stores urine until it is passed out.', 'The ureter, you know, carries urine from the kidney to the bladder.'));
    expect(got).toContain('The kidney filters the blood and removes urea from the body.');
    expect(got).toContain('The bladder stores urine until it is passed out.');
    expect(got).toContain('The ureter carries urine from the kidney to the bladder.');
  });

  it('keeps a sentence that runs over the end of a caption group, cited where it began', () => {
    const words = 'the nephron is the working unit of the kidney'.split(' ');
    // 40 words of captions without a sentence end close a group mid-sentence (captions.ts)
    const cues = [
      { start: 0, end: 4, text: 'Good morning class, today we look at excretion in mammals and the organs that remove waste from the body, the skin, the lungs, the liver and' },
      { start: 4, end: 8, text: 'the kidneys, which are the main organs of excretion, and each kidney holds about one million tiny tubules, and' },
      { start: 8, end: 12, text: words.slice(0, 5).join(' ') },
      { start: 12, end: 16, text: `${words.slice(5).join(' ')}. The loop of Henle reabsorbs water from the filtrate.` },
    ];
    const passages = timedTextToPassages(cues);
    expect(passages.length).toBeGreaterThan(1);
    const index = indexMaterial(passages);
    const joined = index.sentences.find((s) => /the nephron is the working unit of the kidney\.$/.test(s.text));
    expect(joined?.text).toMatch(/tiny tubules, and the nephron is the working unit of the kidney\.$/);
    expect(joined?.citation).toBe(passages.find((p) => p.text.includes('tiny tubules'))!.citation);
    expect(index.sentences.some((s) => /^is the working unit/.test(s.text) || s.text === 'Is the working unit of the kidney.')).toBe(false);
  });
});

describe('procedure steps are never true/false statements', () => {
  it('refuses an imperative step and keeps a statement that opens with the same noun', () => {
    for (const s of ['Heat the copper rod at one end over a Bunsen flame.', 'Place the beaker of water on the tripod stand.', 'Add two drops of iodine solution to the starch.', 'Water the seedlings every morning for two weeks.'])
      expect(rejectReason(s, false), s).toBe('a procedure step (an instruction)');
    for (const s of ['Heat flows from a hot body to a colder one by conduction.', 'Water boils at one hundred degrees Celsius at sea level.', 'All the planets move round the sun in elliptical orbits.'])
      expect(rejectReason(s, false), s).toBeNull();
  });
});

describe('two statements go together only when they share a subject', () => {
  const facts = (...texts: string[]) => texts.map((text) => ({ sentence: { text } }));
  it('pairs two statements about copper, not a statement about copper with one about wood', () => {
    expect(sameSubject(facts('Copper conducts heat quickly because of its free electrons.', 'Copper is used to make the bottoms of cooking pots.'))).toBe(true);
    expect(sameSubject(facts('Copper conducts heat quickly because of its free electrons.', 'Wood is a poor conductor of heat, so pot handles are made of it.'))).toBe(false);
    expect(sameSubject(facts('The raw materials of photosynthesis are carbon dioxide and water.', 'Carbon dioxide enters the leaf through the stomata.'))).toBe(true);
    expect(sameSubject(facts('In a vacuum flask, the silvered walls reflect radiant heat.', 'The silvered walls of the flask are thin glass.'))).toBe(true);
  });
});
