/**
 * Patterns of text that is no statement of the material (sentences.ts, rejectReason): a question
 * paper's apparatus, headings run into a sentence, note lines. docs/decisions.md records the round
 * that added each.
 */
/** A question paper's own wording: lead-ins, sections, instructions, marks, the case scenario's figures (ICAN papers). */
export const PAPER_TALK = /\b\d{1,3}(?:,\d{3})+\b|\b[Tt]he (?:company|entity|firm|business) (?:has|had|incurred|purchased|paid|received|sold|bought|made|uses|used|maintains|operates|adopted|adopts)\b|\(\d*[a-e]\)|\b\d[a-e]\b|\bper annum\b|\bfor the (?:year|month|period) ended\b|\b(?:opening|closing) (?:inventory|balance)\b|\b\p{Lu}\p{Ll}+ (?:Enterprises|Ventures|Stores|Industries|Holdings|Company)\b|\b(?:required|examination|examiners?|candidates?|syllabus|marks?|marking (?:guide|scheme)|booklet|pencil|diet|section\s+[a-e]|part\s+[a-e]|attempt|compulsory|suggested)\b|[₦$£€]\s?\d|\bN\d[\d,]*\b|\b(?:Ltd|Limited|Plc|PLC|Nig\.?)\b|\b(?:Mr|Mrs|Miss|Dr|Alhaji|Chief)\.?\s+\p{Lu}/u;
/** Two or more words in capitals (a heading or a paper's instruction run into the sentence). */
export const SHOUTING = /\b\p{Lu}{3,}\s+(?:\p{Lu}{1,}\s+)*\p{Lu}{3,}\b/u;
/** A capitalised opener in mid-sentence after a lower-case word: a heading glued to its sentence (PDF text). */
export const GLUED = /[\p{Ll}\d,]\s+(?:The|This|These|It|Its|They|An?)\s/u;
/** An examination's own words: a question, marks, "which of the following", page references, the examiner. */
export const EXAM_NOISE = /\?|\(\s*\d+\s*marks?\s*\)|\bmarks?\)|\(total\b|which of the following|\bquestion\s+\d|\bsee page\b|\bpage \d+ of\b|examiner|candidates?\s+(?:were|are|should)|suggested solution|marking guide/i;
/**
 * A note line: a short term, a spaced dash and notes about it ("Stationary pyramid – almost equal
 * width up to the older ages; high birth and death rates."; issue 39 §2, round 14): no sentence,
 * and its dash stands for a verb nobody wrote. A pair of dashes around an aside is no note line.
 */
export const NOTE_LINE = /^[^–—.;:]{2,50}?\s[–—]\s+\p{Ll}(?!.*\s[–—]\s)/u;
/**
 * A sentence that opens with "E.g." or "i.e.": an example or a restatement of the sentence before
 * (round 27: "E.g. the engine of a grinding machine … wears out with daily use" as a true/false
 * statement). It stays in the index, where an essay may ask for an example from it
 * (essay-items.ts), but it states nothing on its own.
 */
export const EXAMPLE_SENTENCE = /^(?:e\.\s?g\.|i\.\s?e\.)/i;


/**
 * A number said in words, as a lesson's captions give them ("zero six five is less than one
 * eighty": issue 39 §2, round 53): counted with the digits when a sentence is judged mostly numbers.
 */
export const NUMBER_WORD = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|point)$/i;
