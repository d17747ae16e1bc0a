/**
 * Round 31 (docs/quality.md): a true/false item came from the deck's recap slide, "RECAP –
 * Last Week (International Trade)", on the lesson before, not on the balance of payments. A slide
 * or section that goes over an earlier lesson is no source of questions (docs/decisions.md,
 * "Round 31"). Hand-written slides in the style of a commerce deck.
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';

const deck: Passage[] = [
  { citation: 'slide 1', text: 'HOME TRADE\nCommerce – SS 1' },
  { citation: 'slide 2', text: 'RECAP – Last Week (Production)\n- Production is the creation of goods and services to satisfy human wants.' },
  { citation: 'slide 3', text: 'MEANING\n- Home trade is the buying and selling of goods within the boundaries of a country.' },
];
const notes: Passage[] = [
  { citation: 'paragraph 1', text: 'HOME TRADE' },
  { citation: 'paragraph 2', text: 'REVISION OF LAST LESSON' },
  { citation: 'paragraph 3', text: 'Production is the creation of goods and services to satisfy human wants.' },
  { citation: 'paragraph 4', text: 'MEANING OF HOME TRADE' },
  { citation: 'paragraph 5', text: 'Home trade is the buying and selling of goods within the boundaries of a country.' },
];

describe('a recap of an earlier lesson', () => {
  it('on a slide titled "RECAP – Last Week …" gives no question source', () => {
    const index = indexMaterial(deck);
    const reason = (start: string) => index.sentences.find((s) => s.text.startsWith(start))?.reason;
    expect(reason('Production is')).toBe('a recap of an earlier lesson');
    expect(reason('Home trade is')).toBeNull();
  });

  it('under a notes heading "REVISION OF LAST LESSON", until the next heading', () => {
    const index = indexMaterial(notes);
    const reason = (start: string) => index.sentences.find((s) => s.text.startsWith(start))?.reason;
    expect(reason('Production is')).toBe('a recap of an earlier lesson');
    expect(reason('Home trade is')).toBeNull();
  });
});

describe('a slide glossary line whose description is a clause', () => {
  it('is no definition ("Strike = workers collectively stop work …")', async () => {
    const { equalsBullet } = await import('../../src/core/generation/engine/arrow-definitions.js');
    expect(equalsBullet('Strike = workers collectively stop work to press demands', 'Strike = workers collectively stop work to press demands')).toBeNull();
    expect(equalsBullet('Warehouse = building where goods are stored until they are needed', 'Warehouse = building where goods are stored until they are needed')).not.toBeNull();
  });
});

describe('a slide line that is a note, not a definition', () => {
  it('"Adv: members understand each other\'s work" (a shorthand label, a noun and its verb) is none; "Beneficiary = person named to receive payment" is one', async () => {
    const { definitionBullet } = await import('../../src/core/generation/engine/repair.js');
    const { equalsBullet } = await import('../../src/core/generation/engine/arrow-definitions.js');
    expect(definitionBullet("Adv: members understand each other's work", '')).toBeNull();
    expect(definitionBullet("Craft union: members understand each other's work", '')).toBeNull();
    expect(equalsBullet('Beneficiary = person named to receive payment', 'Beneficiary = person named to receive payment')).not.toBeNull();
  });
});

describe('a heading in capitals framing a statement (round 32)', () => {
  it('takes lower case: a Markdown heading line is no prose that writes the word in capitals', async () => {
    const { headingTopic } = await import('../../src/core/generation/engine/repair.js');
    const material = '# HARDNESS OF WATER\n### 4.2 PERMANENT HARDNESS\nIt is called permanent because boiling does not remove it.\n## 5. REMOVAL OF HARDNESS (SOFTENING OF WATER)';
    expect(headingTopic('### 4.2 PERMANENT HARDNESS', material)?.phrase).toBe('permanent hardness');
  });
});
