/**
 * A slide's speaker notes are never read as its last line continued (docs/decisions.md, "Speaker notes start
 * their own paragraph"): round 47's deck ended a slide with a bullet without a full stop ("HCl gas gives the same
 * fountain (blue litmus turns red)") and its notes began in lower case ("demonstrate if the lab has enough …"), and
 * the two were offered as one true statement. Both ways teachers write notes: in PowerPoint's notes pane, and typed
 * on the slide as "Speaker notes: …". And the statement that took the freed place, cut after "conc." (round 47's
 * development packet: "True or false? Iron & aluminium made PASSIVE by conc.").
 */
import { describe, expect, it } from 'vitest';
import { readPptx } from '../../src/uploads/material/pptx.js';
import { linesToParagraphs } from '../../src/core/generation/passage.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { splitSentences } from '../../src/core/generation/text/nlp.js';
import { makePptx } from './helpers/ooxml.js';

const slide = ['Fountain Experiment', '- A dry flask of ammonia is inverted over water with litmus', '- Water rushes up and the litmus turns blue', '- HCl gas gives the same fountain (blue litmus turns red)'];

describe('speaker notes', () => {
  it("from PowerPoint's notes pane: labelled, after the slide's text, never joined to its last bullet", async () => {
    const passages = await readPptx(await makePptx([['Nitrogen'], slide], [undefined, ['demonstrate if the lab has enough ammonium chloride.', 'If not, draw the set-up on the board.']]));
    expect(passages[1]!.text.split('\n').slice(-2)).toEqual(['Speaker notes: demonstrate if the lab has enough ammonium chloride.', 'If not, draw the set-up on the board.']);
    const sentences = indexMaterial(passages).sentences.map((s) => s.text);
    expect(sentences.find((t) => t.startsWith('HCl gas'))).not.toMatch(/demonstrate/);
  });

  it('typed on the slide as "Speaker notes: …": a paragraph of its own', () => {
    expect(linesToParagraphs([...slide, 'Speaker notes: demonstrate if the lab has enough ammonium chloride.'].join('\n')).at(-1)).toBe('Speaker notes: demonstrate if the lab has enough ammonium chloride.');
    expect(linesToParagraphs('The gas is very soluble\nNotes: show the fountain.').length).toBe(2);
    // (a line that merely goes on is joined as before)
    expect(linesToParagraphs('Ammonia is a colourless gas\nwith a pungent smell.')).toEqual(['Ammonia is a colourless gas with a pungent smell.']);
  });
});

describe("a science teacher's abbreviations", () => {
  it('"conc." or "dil." before a formula or a word in lower case does not end the sentence; before a capitalised word it may', () => {
    expect(splitSentences('- Iron & aluminium made PASSIVE by conc. HNO3')).toEqual(['- Iron & aluminium made PASSIVE by conc. HNO3']);
    expect(splitSentences('Heat KNO3 with conc. H2SO4. The gas is collected.')).toEqual(['Heat KNO3 with conc. H2SO4.', 'The gas is collected.']);
    expect(splitSentences('Add dil. acid to the salt. Then warm it.')).toEqual(['Add dil. acid to the salt.', 'Then warm it.']);
    expect(splitSentences('Air is about 78% nitrogen by vol. The rest is mostly oxygen.')).toEqual(['Air is about 78% nitrogen by vol.', 'The rest is mostly oxygen.']);
  });
});
