/**
 * Hand-written material for the generation tests: each text one passage, cited as
 * "paragraph 1", "paragraph 2", … as the notes reader cites a document's paragraphs.
 */
import type { Passage } from '../../../src/core/generation/passage.js';

/** The texts as passages, in order, cited "paragraph N" from 1. */
export const paragraphs = (...texts: string[]): Passage[] => texts.map((text, i) => ({ text, citation: `paragraph ${i + 1}` }));
