/**
 * Markdown helpers for generated text: prompts, options and explanations are Markdown
 * with LaTeX (docs/design.md §6), so source text is escaped before it is embedded, and quotes of
 * the source are formatted the same way everywhere.
 */

/** Escapes characters Markdown or KaTeX would interpret (`$`, `*`, `_`, brackets, `<`, …). */
export function mdEscape(text: string): string {
  return text.replace(/([\\`*_$[\]<>#|])/g, '\\$1');
}

/** The blank shown in cloze prompts (escaped underscores render as a line). */
export const BLANK = '\\_\\_\\_\\_\\_\\_';

/** `sentence` with [start, end) replaced by the blank, escaped. */
export function blankOut(sentence: string, start: number, end: number): string {
  return `${mdEscape(sentence.slice(0, start))}${BLANK}${mdEscape(sentence.slice(end))}`;
}

/** A quotation of the source with its place: `(page 12) “…”`. */
export function quote(citation: string, sentence: string): string {
  return `(${citation}) “${mdEscape(sentence)}”`;
}

/** Explanation quoting one or more source sentences. */
export function explainFrom(lead: string, quotes: { citation: string; text: string }[]): string {
  if (quotes.length === 1) return `${lead} The material says ${quote(quotes[0]!.citation, quotes[0]!.text)}.`;
  return `${lead} The material says:\n\n${quotes.map((q) => `- ${quote(q.citation, q.text)}`).join('\n')}`;
}

/** Distinct citations joined with "; " in first-seen order. */
export function joinCitations(citations: string[]): string {
  return [...new Set(citations)].join('; ');
}
