/**
 * Round 62's mend (docs/decisions.md, "Round 62: a slide of features is no glossary"). Its
 * spreadsheet deck's "Formatting a Worksheet" slide listed features in bold with arrows to what
 * they do or are for ("**Borders** → draw lines round the table", "**Wrap Text** → long text in
 * one cell"); the bold-before-arrow rule read it as a glossary, and "Wrap Text is the long text in
 * one cell" was made and then turned to "short" (the round's unusable item).
 */
import { describe, expect, it } from 'vitest';
import { boldGlossary } from '../../src/core/generation/engine/arrow-definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';

const features = [
  'Formatting a Worksheet (Home Tab)',
  '- **Bold / Italic / Underline**, font size & colour',
  '- **Merge & Center** → for headings across columns',
  '- **Borders** → draw lines round the table (they print)',
  '- **Wrap Text** → long text in one cell',
  '- **Number format** → Currency, Percentage, Decimal places',
].join('\n');
const glossary = ['Insurance Terms', '- **Premium** → amount paid for the cover', '- **Insurer** → the company that accepts the risk', '- **Claim** → request for compensation after a loss'].join('\n');

describe('bold names with arrows', () => {
  it('are a glossary when most arrows lead to a noun phrase', () => {
    expect([...boldGlossary(glossary)]).toEqual(['Premium', 'Insurer', 'Claim']);
  });

  it('are a list of features when most lead to what the thing does or is for', () => {
    expect(boldGlossary(features).size).toBe(0);
    const texts = indexMaterial([{ citation: 'slide 1', text: 'SPREADSHEETS\nComputer Studies – SS 2' }, { citation: 'slide 2', text: features }]).sentences.map((s) => s.text);
    expect(texts.join(' | ')).not.toMatch(/Wrap Text is/);
  });
});
