/**
 * Grounding checks: is a question's key supported by the passage(s) it cites? Used to
 * filter the LLM engine's questions, by the quality script and by the tests. "Supported"
 * means the key text occurs in a cited passage (after normalising case, quotes, dashes,
 * Markdown escapes and whitespace), or — for longer keys, loosely — at least 80% of its
 * content stems occur there.
 */
import type { Passage } from './passage.js';
import type { GeneratedQuestion } from './schemas.js';
import { containsPhrase, normaliseForMatch, stemSet } from './text/nlp.js';

/** The passages named by a citation such as "page 3; page 9" (unknown places are ignored). */
export function citedPassages(citation: string, passages: Passage[]): Passage[] {
  const wanted = new Set(citation.split(/\s*;\s*/).map((c) => c.trim()));
  return passages.filter((p) => wanted.has(p.citation));
}

/** Markdown escapes removed (options and prompts are Markdown). */
export function unescapeMd(text: string): string {
  return text.replace(/\\([\\`*_$[\]<>#|])/g, '$1');
}

/** Strict: `text` occurs verbatim (normalised) in one of the passages. */
export function occursIn(text: string, passages: Passage[]): boolean {
  return passages.some((p) => containsPhrase(p.text, unescapeMd(text)));
}

/** Loose: occurs verbatim, or ≥ `minShare` of its content stems (at least two) occur in one passage. */
export function supportedBy(text: string, passages: Passage[], minShare = 0.8): boolean {
  if (occursIn(text, passages)) return true;
  const stems = stemSet(unescapeMd(text));
  if (stems.size < 2) return false;
  return passages.some((p) => {
    const ps = stemSet(p.text);
    return [...stems].filter((s) => ps.has(s)).length / stems.size >= minShare;
  });
}

/** The correct option's text of an objective question (unescaped), or null. */
export function keyText(q: GeneratedQuestion): string | null {
  const key = q.options.find((o) => o.isCorrect);
  return key ? unescapeMd(key.text) : null;
}

/** True when an MCQ's key occurs verbatim in a passage its citation names (the quality metric). */
export function mcqKeyInCitedPassage(q: GeneratedQuestion, passages: Passage[]): boolean {
  const key = keyText(q);
  return key !== null && occursIn(key, citedPassages(q.citation, passages));
}

/** True when two options of a question read the same (normalised), or an option is "all/none of the above". */
export function hasDuplicateOrBannedOptions(q: GeneratedQuestion): boolean {
  const norms = q.options.map((o) => normaliseForMatch(unescapeMd(o.text)));
  return new Set(norms).size !== norms.length || norms.some((n) => /^(?:all|none|both|neither) of the (?:above|options)$/.test(n));
}
