/**
 * Checks every importer runs on a parsed question before it is returned: duplicate
 * option texts (a real defect of the NECO 2023 paper, where two options read the same),
 * and images the hall cannot show because it has no internet (docs/design.md §1: the appliance
 * works offline and nothing may load from outside).
 */
import type { ImportedQuestion, ImportWarning, ParseResult, SkippedItem } from './types.js';

/** Matches `![alt](url)`, `<img src="url">` and the past papers' `(See image: url)`. */
const IMAGE_PATTERNS = [
  /!\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)/g,
  /<img\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi,
  /\(\s*see image:\s*([^)\s]+)\s*\)/gi,
];

/** Image references in a text (URLs or file names), in order of appearance. */
export function imageReferences(text: string): string[] {
  const found: string[] = [];
  for (const re of IMAGE_PATTERNS) {
    for (const m of text.matchAll(re)) if (m[1]) found.push(m[1]);
  }
  return found;
}

/**
 * How option texts are compared for duplicates: NFKC-normalised, white space collapsed,
 * case kept (genetics keys such as "T only" and "t only" are different answers).
 */
export function comparableText(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/**
 * Warnings for one question: duplicate option texts and image references that cannot
 * be fetched offline (any image: the hall has no image store and no internet).
 * @returns messages without index/line (the caller adds them)
 */
export function questionWarnings(q: ImportedQuestion): string[] {
  const out: string[] = [];
  const seen = new Map<string, string>();
  for (const [i, o] of (q.options ?? []).entries()) {
    const label = o.keyLabel ?? String.fromCharCode(65 + i);
    const key = comparableText(o.text);
    const first = seen.get(key);
    if (first !== undefined) out.push(`Options ${first} and ${label} have the same text ("${o.text.trim()}").`);
    else seen.set(key, label);
  }
  const texts = [q.prompt, q.explanation ?? '', q.modelAnswer ?? '', ...(q.options ?? []).map((o) => o.text)];
  for (const ref of new Set(texts.flatMap(imageReferences))) {
    if (ref.startsWith('@@PLUGINFILE@@')) {
      out.push(`Embedded image ${ref.slice(15)} was not imported (HallCBT keeps no image files); candidates will not see it.`);
      continue;
    }
    out.push(`Image ${ref} cannot be fetched offline; the question refers to it but candidates will not see it. Describe it in the prompt or remove the reference.`);
  }
  return out;
}

/**
 * Collects questions, warnings and skipped items while a parser walks a source.
 * `add` runs questionWarnings on every question it is given.
 */
export class ResultBuilder {
  readonly result: ParseResult = { questions: [], warnings: [], skipped: [], lines: [] };
  /** ordinal of the next source item (imported or skipped) */
  private itemIndex = 0;

  /** Records an imported question that started at source `line`. */
  add(q: ImportedQuestion, line?: number, extraWarnings: string[] = []): void {
    const index = this.result.questions.length;
    this.result.questions.push(q);
    this.result.lines.push(line ?? null);
    this.itemIndex++;
    for (const message of [...extraWarnings, ...questionWarnings(q)]) this.result.warnings.push(withLine<ImportWarning>({ index, message }, line));
  }

  /** Records a source item that could not be imported. */
  skip(reason: string, line?: number): void {
    this.result.skipped.push(withLine({ index: this.itemIndex, reason } as SkippedItem, line));
    this.itemIndex++;
  }

  /** Records a warning that concerns no single question (e.g. a stray line). */
  note(message: string, line?: number): void {
    this.result.warnings.push(withLine({ message } as ImportWarning, line));
  }
}

function withLine<T extends { line?: number }>(o: T, line: number | undefined): T {
  return line === undefined ? o : { ...o, line };
}

/** Options labelled A, B, C… in order, with exactly the given correct index. */
export function labelledOptions(texts: string[], correctIndex: number): { keyLabel: string; text: string; isCorrect: boolean }[] {
  return texts.map((text, i) => ({ keyLabel: String.fromCharCode(65 + i), text, isCorrect: i === correctIndex }));
}
