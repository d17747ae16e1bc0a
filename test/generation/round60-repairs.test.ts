/**
 * Round 60's mends (docs/decisions.md, "Round 60: a slide's sentence without a full stop, a
 * bullet with no subject, a question's label, the articles of an exchange"). Its computer-virus
 * deck, whose bullets are whole sentences without full stops ("A worm is a self-replicating
 * program that spreads on its own through networks"), gave one item from 29 slides; its clauses
 * notes' exchange of "verb" and "adjective" left "a adjective" and "an verb".
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { closedBullet } from '../../src/core/generation/engine/sentence-patterns.js';
import { withAgreedArticles } from '../../src/core/generation/engine/swap-checks.js';
import { splitSentences } from '../../src/core/generation/text/nlp.js';
import type { Passage } from '../../src/core/generation/passage.js';

describe("a slide's bullet that is a whole sentence", () => {
  const deck: Passage[] = [
    { citation: 'slide 1', text: 'COMPUTER VIRUS\nData Processing – SS 2' },
    {
      citation: 'slide 2',
      text: [
        'Other Malware: Worm',
        '- A **worm** is a self-replicating program that spreads **on its own** through networks',
        '- Does **not** need to attach to a host file',
        '- Usually written to damage data, disturb the user or steal information',
        '- Any software written to harm a computer, its data or its user',
        '- Q: Give 2 examples of utility programs',
        '- Can scan, quarantine (isolate) or delete infected files',
      ].join('\n'),
    },
  ];

  it('is a statement, closed with a full stop', () => {
    const usable = indexMaterial(deck).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable).toContain('A worm is a self-replicating program that spreads on its own through networks.');
  });

  it('but a note without a subject or a finite verb, or a question\'s label, is not', () => {
    const usable = indexMaterial(deck).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable.join(' | ')).not.toMatch(/Does not need|Usually written|Any software|Give 2 examples|Can scan/);
  });

  it('is closed only on a slide, and only when written as prose: an article first, or a noun and an auxiliary', () => {
    expect(closedBullet('A worm is a self-replicating program that spreads through networks', true)).toMatch(/\.$/);
    expect(closedBullet('Nigeria is a source, transit and destination country', true)).toMatch(/\.$/);
    expect(closedBullet('The virus may stay dormant for months before anybody notices', true)).toMatch(/\.$/);
    // (a note's sentence without its articles, or with a note's shorthand)
    expect(closedBullet('Files and folders disappear or turn to shortcuts', true)).not.toMatch(/\.$/);
    expect(closedBullet('Catalyst raises Ea, unchanged at end of the reaction', true)).not.toMatch(/\.$/);
    expect(closedBullet('Some crops are both, e.g. groundnut, sesame (beniseed)', true)).not.toMatch(/\.$/);
    expect(closedBullet('A financial institution that accepts deposits & grants loans', true)).not.toMatch(/\.$/);
    expect(closedBullet('A worm is a self-replicating program that spreads through networks', false)).not.toMatch(/\.$/);
    expect(closedBullet('Usually written to damage data, disturb the user or steal information', true)).not.toMatch(/\.$/);
    expect(closedBullet('Increase in file size; storage filling up for no reason', true)).not.toMatch(/\.$/);
    expect(closedBullet('What should he do?', true)).toBe('What should he do?');
  });

  it('opening with an auxiliary and no subject is a list item', () => {
    expect(rejectReason('Does not need the user to open anything at all.', false)).toBe('not a sentence (a list item)');
    expect(rejectReason('Can scan, quarantine or delete infected files on the disk.', false)).toBe('not a sentence (a list item)');
  });
});

describe('an exchange of two terms', () => {
  it('makes its articles agree with the words swapped in', () => {
    const t = 'An adverbial clause mainly modifies a verb, an adjective or another adverb.';
    const start = t.indexOf('verb,');
    const end = t.indexOf('adjective') + 'adjective'.length;
    const f = withAgreedArticles(t, { start, end, original: t.slice(start, end), replacement: 'adjective, an verb' });
    expect(t.slice(0, f.start) + f.replacement + t.slice(f.end)).toBe('An adverbial clause mainly modifies an adjective, a verb or another adverb.');
  });

  it('leaves an article that already agrees, and "a unit", "a one-way", as they are', () => {
    const t = 'A cell is a unit of life.';
    const f = { start: t.indexOf('unit'), end: t.indexOf('unit') + 4, original: 'unit', replacement: 'organ' };
    expect(withAgreedArticles(t, f).replacement).toBe('an organ');
    const g = { start: t.indexOf('cell'), end: t.indexOf('cell') + 4, original: 'cell', replacement: 'unit' };
    expect(withAgreedArticles(t, g)).toEqual(g);
  });
});

describe("a note's abbreviation", () => {
  it('ends no sentence ("people of diff. ethnic groups", "the govt. built")', () => {
    expect(splitSentences('Growth of towns → people of diff. ethnic groups met in Lagos. The govt. built roads.')).toEqual(['Growth of towns → people of diff. ethnic groups met in Lagos.', 'The govt. built roads.']);
  });
});
