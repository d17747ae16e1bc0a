/**
 * Hand-written material for the generation tests: each text one passage, cited as
 * "paragraph 1", "paragraph 2", … as the notes reader cites a document's paragraphs.
 */
import type { Passage } from '../../../src/core/generation/passage.js';

/** The texts as passages, in order, cited "paragraph N" from 1. */
export const paragraphs = (...texts: string[]): Passage[] => texts.map((text, i) => ({ text, citation: `paragraph ${i + 1}` }));

/** One indexed sentence of paragraph 1, as the sentence index makes it (usable, no reason), for the falsehood tests. */
export const sourceSentence = (text: string, idx = 0) => ({ idx, passageIndex: 0, citation: 'paragraph 1', text, stems: new Set<string>(), usable: true, reason: null, noise: false, score: 1 });
