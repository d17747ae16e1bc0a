/**
 * Format auto-detection and dispatch for POST /questions/import. Signals, in order:
 * a QTI 3.0 item, test or manifest (`<qti-assessment-item`, `<qti-assessment-test`, an
 * imsqti manifest; a content package .zip is read by src/uploads/qti-package.ts), Moodle XML (`<?xml` or `<quiz>`), the past-paper layout (`**1.**` question lines),
 * a pasted paper (a numbered question line followed by lettered options: "1." / "1)" /
 * "Q1." then "A." / "(A)" / "a)"; or unnumbered questions with "Solution:" / "Ans:" lines
 * Aiken does not know; issue 21), Aiken (`ANSWER: X` lines), GIFT (answer blocks such as `{=…}`, `{~…}`, `{T}`, `{}`,
 * or `::title::`, `$CATEGORY:`).
 */
import { parseAiken } from './aiken.js';
import { parseGift } from './gift.js';
import { parseMoodleXml } from './moodle-xml.js';
import { parsePastPaperMarkdown } from './past-paper.js';
import { parsePastedPaper } from './pasted-paper.js';
import { parseQtiXml } from './qti/read-package.js';
import { looksLikePastedPaper } from './pasted-starts.js';
import { BankFormatError, type BankFormat, type ParseResult } from './types.js';

/** The format a text is written in, or null when none is recognised. */
export function detectFormat(text: string): BankFormat | null {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml\b|<!--|<qti-|<manifest\b)/i.test(head) && /<qti-assessment-(item|test)\b|<manifest\b[\s\S]*imsqti/i.test(head.slice(0, 4000))) return 'qti';
  if (/^<\?xml\b/i.test(head) || /^(<!--[\s\S]*?-->\s*)*<quiz\b/i.test(head)) return 'moodle-xml';
  if (/^\s*\*\*\d+\.\*\*/m.test(text)) return 'past-paper';
  if (looksLikePastedPaper(text)) return 'pasted-paper';
  if (/^\s*ANSWER\s*:\s*[A-J]\s*$/im.test(text)) return 'aiken';
  if (/(^|[^\\])\{\s*([=~#}]|(T|F|TRUE|FALSE)\s*[#}])/im.test(text) || /^\s*(::.+?::|\$CATEGORY:)/m.test(text)) return 'gift';
  return null;
}

const PARSERS: Record<BankFormat, (text: string) => ParseResult> = {
  aiken: parseAiken,
  gift: parseGift,
  'moodle-xml': parseMoodleXml,
  'past-paper': parsePastPaperMarkdown,
  'pasted-paper': parsePastedPaper,
  qti: parseQtiXml,
};

/**
 * Parses a question bank in the given format, or the detected one.
 * @throws BankFormatError when no format is given and none is recognised, or the source is unreadable
 */
export function parseQuestionBank(text: string, format?: BankFormat): { format: BankFormat; result: ParseResult } {
  const f = format ?? detectFormat(text);
  if (!f) {
    throw new BankFormatError(
      'The question format was not recognised. Supported: Aiken (options "A." and an "ANSWER: B" line), GIFT ({=right ~wrong}), Moodle XML (<quiz>), QTI 3.0 (<qti-assessment-item>, or the content package .zip), the past-paper Markdown layout (**1.** … **Answer: B**), and pasted papers (1. question, A. options, Answer: B or an answer key). Pass format=… to choose one.',
    );
  }
  return { format: f, result: PARSERS[f](text) };
}
