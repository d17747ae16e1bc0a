/**
 * Passages: the unit of provenance. Every reader turns its material into an ordered list
 * of `{text, citation}` where citation is where an examiner finds the text again:
 * "page 12" (PDF), "slide 4" (PPTX), "paragraph 7" (DOCX, TXT, Markdown, notes) or
 * "03:15" (audio/video, mm:ss from the start; h:mm:ss past an hour).
 */

import { stripFurniture } from './furniture.js';

/** One passage of source material and where it came from. */
export interface Passage {
  text: string;
  citation: string;
  /** For timed material: start of the passage in seconds. */
  startSeconds?: number;
}

/** What was read: the passages plus notes for the examiner (e.g. a low-confidence transcript). */
export interface Material {
  passages: Passage[];
  warnings: string[];
  /** How the material was read, e.g. "pdf", "docx", "pocketsphinx", "captions". */
  source: string;
  /** true when only the first MAX_MATERIAL_TEXT_CHARS of the text were kept (read-material.ts) */
  truncated?: boolean;
}

/**
 * True when `text` has a sentence's end mark: "?", "!" or a full stop that is no decimal point
 * ("0.7" has none; issue 39 §2, round 56: one "0.7" in a lecture's captions had them read as a
 * punctuated track, and the lecture gave no item).
 */
export const hasSentenceEnd = (text: string): boolean => /[?!]|(?<!\d)\.|\.(?!\d)/.test(text);

/** Formats seconds as mm:ss (or h:mm:ss from one hour), e.g. 195.4 → "03:15". */
export function formatTimestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${String(m).padStart(2, '0')}:${ss}`;
}

/** A slide's notes (src/uploads/material/pptx.ts writes the label; teachers type it on the slide too): never the slide's last line continued. */
const NOTES_LABEL = /^(?:speaker|presenter|teacher['’]?s?)?\s*notes?\s*:/i;
const BULLET = /^\s*(?:[\u2022\u25aa\u25cf\uf0b7\uf0a7\u2013\u2014*\-•]|\(?[ivxlc]{1,5}[.)]|\(?[a-hA-H][.)]|\(?\d{1,3}[.)])\s+/;

/** A short unpunctuated single line followed by a capitalised line is a heading, not the start of a sentence. */
function isHeading(current: string, next: string): boolean {
  return !current.includes('\n') && current.split(' ').length <= 6 && !/[.,;:?!\-]$/.test(current) && /^\p{Lu}/u.test(current) && /^\p{Lu}/u.test(next) && current.length < 60;
}

/**
 * Joins hard-wrapped lines (PDF text, slide text) into paragraphs. A line starts a new
 * paragraph when it is blank, begins with a bullet or enumeration marker or "Speaker notes:", or follows a
 * line ending a sentence while itself starting with a capital or digit. List markers are
 * kept so the sentence filter can recognise enumerations.
 */
export function linesToParagraphs(text: string): string[] {
  const paragraphs: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[\s\u00a0]+/g, ' ').trim();
    if (!line) {
      if (current) paragraphs.push(current);
      current = '';
      continue;
    }
    const breaks = !current || BULLET.test(line) || NOTES_LABEL.test(line) || (/[.:?!;]["”’)]?$/.test(current) && /^[\p{Lu}\p{N}"“(]/u.test(line)) || isHeading(current, line);
    if (breaks) {
      if (current) paragraphs.push(current);
      current = line;
    } else {
      current = current.endsWith('-') && /^\p{Ll}/u.test(line) ? current.slice(0, -1) + line : `${current} ${line}`;
    }
  }
  if (current) paragraphs.push(current);
  return paragraphs;
}

/**
 * Paragraph passages from plain text or Markdown, citation "paragraph N". Paragraphs are
 * found by blank lines and, inside a hard-wrapped block (issue 21: a TXT wrapped at a
 * fixed width with no blank lines), by sentence flow: a line that ends a sentence where the
 * next line's first word would still have fitted ends its paragraph, and an indented line or list marker starts
 * one. Form feeds separate pages, whose furniture (page numbers, running heads) is removed.
 */
export function textToParagraphPassages(text: string): Passage[] {
  const pages = stripFurniture(text.replace(/\r\n?/g, '\n').split('\f'));
  const lengths = pages.join('\n').split('\n').map((l) => l.trimEnd().length).filter((n) => n > 0).sort((a, b) => a - b);
  const width = lengths[Math.floor(lengths.length * 0.95)] ?? 0;
  const out: Passage[] = [];
  for (const block of pages.join('\n\n').split(/\n\s*\n/)) {
    for (const para of splitWrappedBlock(block, width)) {
      const clean = stripMarkdown(para).trim();
      if (clean) out.push({ text: clean, citation: `paragraph ${out.length + 1}` });
    }
  }
  return out;
}

/** Splits one blank-line-free block into paragraphs by sentence flow (see textToParagraphPassages). */
export function splitWrappedBlock(block: string, width: number): string[] {
  const lines = block.split('\n');
  // Only a block of several long lines is hard-wrapped prose; short lines (lists, verse, Markdown) stay as they are.
  if (lines.length < 3 || width < 40) return [block];
  const paras: string[][] = [[]];
  lines.forEach((line, i) => {
    const current = paras[paras.length - 1]!;
    const prev = lines[i - 1];
    const startsNew =
      current.length > 0 &&
      // The next line's first word would have fitted on the previous line: the break was deliberate.
      ((prev !== undefined && /[.?!:]["”’)]?\s*$/.test(prev) && prev.trimEnd().length + 1 + (line.trim().split(/\s/)[0]?.length ?? 0) <= width && /^\s*[\p{Lu}\p{N}"“(]/u.test(line)) ||
        /^(?:\s{2,}|\t)\S/.test(line) ||
        BULLET.test(line));
    if (startsNew) paras.push([line]);
    else current.push(line);
  });
  return paras.map((p) => p.join('\n'));
}

/**
 * Removes the Markdown decorations that would pollute sentences (headings, emphasis, links,
 * HTML tags); list markers become "• " so list items stay separate paragraphs.
 */
export function stripMarkdown(block: string): string {
  return block
    .split('\n')
    .map((l) => l.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/^\s*>\s?/, '').replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '• '))
    .join('\n')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(?<![\w*])\*(?!\s)(.+?)\*(?![\w*])/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n+/g, '\n');
}
