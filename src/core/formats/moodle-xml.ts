/**
 * Moodle XML reader (Moodle Docs, "Moodle XML format"), with fast-xml-parser.
 * Mapped to our types:
 * - multichoice with `<single>true</single>` → MCQ (the 100% answer is correct;
 *   partial credit on other answers is dropped with a warning);
 * - truefalse → TRUE_FALSE; shortanswer → SHORT_ESSAY (the 100% answers as
 *   modelAnswer); essay → LONG_ESSAY (graderinfo as modelAnswer, min/max word limits);
 * - `<defaultgrade>` → marks; `<generalfeedback>` → explanation;
 *   a category pseudo-question → section of the questions after it.
 * Skipped with the reason: multiple-response multichoice, description and every other
 * question type. HTML texts are kept (the Markdown renderer shows and sanitises HTML);
 * a single wrapping `<p>` is removed.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ResultBuilder, labelledOptions } from './checks.js';
import { BankFormatError, ESSAY_WORDS, type ImportedQuestion, type ParseResult } from './types.js';

type Node = Record<string, unknown>;
const META = XMLParser.getMetaDataSymbol();

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  captureMetaData: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'question' || name === 'answer',
});

/** Text of a `<x><text>…</text></x>` element (or of a plain text element). */
function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  const n = node as Node;
  if ('text' in n) return textOf(n.text);
  if ('#text' in n) return String(n['#text']);
  return '';
}

/** Removes one wrapping `<p …>…</p>` and surrounding white space. */
export function tidyHtml(html: string): string {
  const t = html.trim();
  const m = /^<p\b[^>]*>([\s\S]*)<\/p>$/i.exec(t);
  return (m && !/<p\b/i.test(m[1]!) ? m[1]! : t).trim();
}

/** 1-based line of a character offset. */
const lineOf = (text: string, offset: number): number => text.slice(0, Math.max(0, offset)).split('\n').length;

const num = (v: unknown): number | undefined => {
  const n = Number(textOf(v));
  return Number.isFinite(n) && textOf(v).trim() !== '' ? n : undefined;
};

/** A DOCTYPE in the prolog (after an XML declaration, comments, processing instructions). */
const DOCTYPE = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->)\s*)*<!DOCTYPE/i;

/**
 * Parses Moodle XML. Moodle never writes a DOCTYPE, and one is the way in for external
 * entities (XXE) and entity-expansion bombs, so a file with one is refused (issue 22).
 * @throws BankFormatError when the XML has a DOCTYPE, is malformed or has no `<quiz>`.
 */
export function parseMoodleXml(xml: string): ParseResult {
  if (DOCTYPE.test(xml)) {
    throw new BankFormatError('The XML has a DOCTYPE (entity declarations), which Moodle XML files never have and HallCBT does not read. Remove the <!DOCTYPE …> line, or export the questions from Moodle again.', lineOf(xml, xml.search(/<!DOCTYPE/i)));
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new BankFormatError(`The XML is malformed: ${valid.err.msg}`, valid.err.line);
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (e) {
    // the parser's own refusals (e.g. a DOCTYPE further down) are a bad file, not a server fault
    throw new BankFormatError(`The XML could not be read: ${(e as Error).message}.`);
  }
  const quiz = doc.quiz as Node | undefined;
  if (!quiz || typeof quiz !== 'object') throw new BankFormatError('Not a Moodle XML question file: there is no <quiz> element.');
  const lineAt = (node: Node): number | undefined => {
    const start = (node[META as unknown as string] as { startIndex?: number } | undefined)?.startIndex;
    return start === undefined ? undefined : xml.slice(0, start).split('\n').length;
  };

  const out = new ResultBuilder();
  let section: string | undefined;
  for (const q of (quiz.question as Node[] | undefined) ?? []) {
    const type = String(q['@_type'] ?? '');
    const line = lineAt(q);
    if (type === 'category') {
      const path = textOf(q.category).split('/').map((s) => s.trim()).filter((s) => s && !/^\$\w+\$$/.test(s) && s !== 'top');
      section = path.at(-1);
      continue;
    }
    const r = toQuestion(type, q, section);
    if (typeof r === 'string') {
      out.skip(r, line);
      if (r.startsWith('missing answer')) out.note(`Question "${textOf(q.name)}" has a missing answer; it was skipped.`, line);
    } else out.add(r.question, line, r.warnings);
  }
  return out.result;
}

function toQuestion(type: string, q: Node, section?: string): { question: ImportedQuestion; warnings: string[] } | string {
  const prompt = tidyHtml(textOf(q.questiontext));
  if (!prompt) return `question "${textOf(q.name)}" has no text`;
  const explanation = tidyHtml(textOf(q.generalfeedback));
  const marks = num(q.defaultgrade);
  const common = { prompt, marks: marks && marks > 0 ? marks : 1, ...(explanation ? { explanation } : {}), ...(section ? { section } : {}) };
  const answers = ((q.answer as Node[] | undefined) ?? []).map((a) => ({ text: tidyHtml(textOf(a)), fraction: Number(a['@_fraction'] ?? 0) }));
  const warnings: string[] = [];

  switch (type) {
    case 'multichoice': {
      if (/^(false|0)$/i.test(textOf(q.single).trim())) return 'multiple-response question (several answers may be chosen): not supported';
      const correct = answers.map((a, i) => (a.fraction >= 100 ? i : -1)).filter((i) => i >= 0);
      if (!correct.length) return 'missing answer: no answer has fraction 100';
      if (correct.length > 1) return 'more than one answer has fraction 100: not supported';
      if (answers.length < 2 || answers.length > 10) return `multiple choice needs 2–10 answers, found ${answers.length}`;
      answers.forEach((a, i) => {
        if (a.fraction > 0 && a.fraction < 100) warnings.push(`Partial credit (${a.fraction}%) on option ${String.fromCharCode(65 + i)} was dropped: only one option is correct.`);
      });
      return { question: { ...common, type: 'MCQ', options: labelledOptions(answers.map((a) => a.text), correct[0]!) }, warnings };
    }
    case 'truefalse': {
      const right = answers.find((a) => a.fraction >= 100);
      if (!right) return 'missing answer: neither true nor false has fraction 100';
      const isTrue = /^true$/i.test(right.text.trim());
      return { question: { ...common, type: 'TRUE_FALSE', options: labelledOptions(['True', 'False'], isTrue ? 0 : 1) }, warnings };
    }
    case 'shortanswer': {
      const accepted = answers.filter((a) => a.fraction >= 100).map((a) => a.text).filter(Boolean);
      if (!accepted.length) return 'missing answer: no accepted answer has fraction 100';
      const d = ESSAY_WORDS.SHORT_ESSAY;
      return { question: { ...common, type: 'SHORT_ESSAY', modelAnswer: accepted.join(' / '), minWords: d.minWords, maxWords: d.maxWords }, warnings };
    }
    case 'essay': {
      const d = ESSAY_WORDS.LONG_ESSAY;
      const modelAnswer = tidyHtml(textOf(q.graderinfo));
      const minWords = num(q.minwordlimit) || d.minWords;
      const maxWords = num(q.maxwordlimit) || d.maxWords;
      return { question: { ...common, type: 'LONG_ESSAY', minWords, maxWords, ...(modelAnswer ? { modelAnswer } : {}) }, warnings };
    }
    case 'description':
      return 'description item: nothing to answer';
    default:
      return `Moodle question type "${type || 'unknown'}": not supported (types are MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY)`;
  }
}
