/**
 * Document readers keeping provenance: PDF per page (unpdf / PDF.js), DOCX per paragraph
 * (mammoth raw text), TXT and Markdown per paragraph (blank-line separated).
 */
import { loadMammoth, loadUnpdf } from '../../platform/lazy.js';
import { UnusableMaterial } from '../errors.js';
import { linesToParagraphs, textToParagraphPassages, type Passage } from '../../core/generation/passage.js';
import { stripFurniture } from '../../core/generation/furniture.js';

/**
 * PDF → one passage per page with text, citation "page N" (N = the PDF's 1-based page
 * index, which is what a viewer shows; printed folios may differ). Page furniture
 * (see core/generation/furniture.ts) is removed first.
 * @throws UnusableMaterial when the PDF cannot be opened (encrypted, damaged).
 */
export async function readPdf(bytes: Uint8Array): Promise<Passage[]> {
  let pages: string[];
  try {
    // PDF.js detaches the buffer it is given: hand it a copy.
    const { extractText, getDocumentProxy } = await loadUnpdf();
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(pdf, { mergePages: false })).text;
    await pdf.destroy();
  } catch (err) {
    throw new UnusableMaterial(`The PDF could not be read (${(err as Error).message}). Is it password-protected or damaged?`);
  }
  const out: Passage[] = [];
  // Running heads, footers, page numbers and exam apparatus go before paragraphs are formed.
  stripFurniture(pages).forEach((text, i) => {
    const joined = linesToParagraphs(text).join('\n');
    if (joined.trim()) out.push({ text: joined, citation: `page ${i + 1}` });
  });
  return out;
}

/**
 * DOCX → one passage per non-empty paragraph, citation "paragraph N" (counting non-empty
 * paragraphs in document order, as an examiner would count them on screen).
 * @throws UnusableMaterial when the file is not a readable Word document.
 */
export async function readDocx(bytes: Uint8Array): Promise<Passage[]> {
  let value: string;
  try {
    ({ value } = await (await loadMammoth()).extractRawText({ buffer: Buffer.from(bytes) }));
  } catch (err) {
    throw new UnusableMaterial(`The Word document could not be read (${(err as Error).message}).`);
  }
  const out: Passage[] = [];
  for (const para of value.split(/\n+/)) {
    const text = para.replace(/[\s\u00a0]+/g, ' ').trim();
    if (text) out.push({ text, citation: `paragraph ${out.length + 1}` });
  }
  return out;
}

/** TXT/Markdown (or pasted notes) → paragraph passages, citation "paragraph N". */
export function readPlainText(text: string): Passage[] {
  return textToParagraphPassages(text);
}
