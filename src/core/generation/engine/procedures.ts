/**
 * The steps of a procedure framed by the procedure they belong to (issue 39 §2, round 38): under
 * "7. PROCEDURE FOR BUYING SHARES", "3. The investor gives an order stating the company …" is true
 * of that procedure only, and the judge asked for "In the procedure for buying shares, …" before
 * two such statements. A numbered or bulleted step that opens with an article or a possessive
 * takes the procedure as its frame before the generator reads it; other steps (an instruction,
 * "Contact insurer or broker"; a note, "Premium paid") are left as written and refused as before
 * (docs/decisions.md, "A procedure's steps are framed by it"). Pure: no I/O.
 */
import type { Passage } from '../passage.js';
import { tagSentence } from '../text/pos.js';

/** "PROCEDURE FOR BUYING SHARES", "Steps in preparing a bank reconciliation statement", "Stages of the Electoral Process (1)". */
const PROCEDURE = /^(?:#{1,6}\s+)?(?:\*\*)?(?:\d{1,2}(?:\.\d{1,2})*\.?\s+)?(?:the\s+)?(procedure|steps|stages|process)\s+(for|in|of|involved\s+in)\s+([\p{L} '’-]{3,60}?)(?:\s*\(\d\))?(?:\*\*)?:?\s*$/iu;

/** A step's start: its number or bullet, then an article or a possessive opening its sentence. */
const STEP = /(^|\s)((?:[-•*]\s+)?\(?\d{1,2}[.)]\s+|[-•*]\s+)(The|A|An|Each|His|Her|Their)\s(?=\p{L})/gu;

/** The heading's words in lower case, but for the acronyms the material writes in its sentences ("NGX"). */
function lowered(words: string, material: string): string {
  return words
    .split(/\s+/)
    .map((w) => (/^\p{Lu}{2,5}$/u.test(w) && new RegExp(`\\p{Ll}+\\s+${w}\\b`, 'u').test(material) ? w : w.toLowerCase()))
    .join(' ');
}

/**
 * How a statement names the procedure of `heading` ("In the procedure for buying shares"; "In preparing a bank
 * reconciliation statement" for its steps; "In the electoral process" for its stages), or null when the line names none.
 */
export function procedureFrame(heading: string, material: string): string | null {
  const m = PROCEDURE.exec(heading.trim());
  if (!m) return null;
  const [kind, prep, rest] = [m[1]!.toLowerCase(), m[2]!.toLowerCase(), lowered(m[3]!.trim(), material)];
  // (a heading, not a sentence that leads the steps: "The process of fertilisation takes place as follows:")
  const tags = tagSentence(rest);
  if (tags.length > 7 || tags.some((t, i) => t.pos === 'AUX' || (t.pos === 'VERB' && !(i === 0 && /ing$/i.test(t.text))))) return null;
  if (/^(?:procedure|process)$/.test(kind)) return `In the ${kind} ${prep} ${rest}`;
  // (steps or stages in or of something: that thing frames them, "In the electoral process", "In preparing …")
  return `In ${rest}`;
}

/** `text`'s steps that open with an article or a possessive, each framed ("3. In the procedure for buying shares, the investor …"). */
function framed(text: string, frame: string): string {
  return text.replace(STEP, (_all, space: string, mark: string, det: string) => `${space}${mark}${frame}, ${det.toLowerCase()} `);
}

/**
 * The passages with a procedure's steps framed by it: a slide's lines under its title, or the paragraph of notes that
 * follows the heading and opens with a step. A passage with none is returned as it is.
 */
export function framedSteps(passages: Passage[]): Passage[] {
  const material = passages.map((p) => p.text).join('\n');
  return passages.map((p, i) => {
    const [first, ...rest] = p.text.split('\n');
    const own = rest.length ? procedureFrame(first!, material) : null;
    if (own) return { ...p, text: [first, framed(rest.join('\n'), own)].join('\n') };
    const before = passages[i - 1];
    const frame = before && !before.text.includes('\n') && /^\s*(?:[-•*]\s+)?\(?\d{1,2}[.)]\s/.test(p.text) ? procedureFrame(before.text, material) : null;
    return frame ? { ...p, text: framed(p.text, frame) } : p;
  });
}
