/**
 * Document readers keeping provenance: PDF per page (unpdf / PDF.js), DOCX per paragraph
 * and per table (mammoth), TXT and Markdown per paragraph (blank-line separated).
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

/** A node of mammoth's document model (what `transformDocument` is handed): a paragraph, a table, a run, text … */
interface DocNode {
  type: string;
  value?: string;
  children?: DocNode[];
}

/** A node's text as mammoth's raw text gives it: text runs, tabs as tabs, a line break as a space. */
function textOf(node: DocNode): string {
  if (node.type === 'text') return node.value ?? '';
  if (node.type === 'tab') return '\t';
  if (node.type === 'break') return ' ';
  return (node.children ?? []).map(textOf).join('');
}

const squashed = (text: string) => text.replace(/[\s\u00a0]+/g, ' ').trim();

/** The body's blocks in document order: each paragraph's text, and each table as its rows of cell texts. */
function blocksOf(node: DocNode, out: (string | string[][])[]): void {
  if (node.type === 'paragraph') out.push(squashed(textOf(node)));
  else if (node.type === 'table') {
    const rows = (node.children ?? []).filter((r) => r.type === 'tableRow').map((r) => (r.children ?? []).filter((c) => c.type === 'tableCell').map((c) => squashed(textOf(c).replace(/\|/g, '/'))));
    out.push(rows.filter((r) => r.some(Boolean)));
  } else for (const c of node.children ?? []) blocksOf(c, out);
}

/**
 * DOCX → one passage per non-empty paragraph, citation "paragraph N" (counting non-empty
 * paragraphs in document order, as an examiner would count them on screen), and one passage
 * per table, citation "table N", its rows written `| cell | cell |` (the form the generator
 * reads tables in: core/generation/engine/table-items.ts). The document is read with
 * mammoth; its document model is taken through mammoth's `transformDocument` hook (images
 * are not read).
 * @throws UnusableMaterial when the file is not a readable Word document.
 */
export async function readDocx(bytes: Uint8Array): Promise<Passage[]> {
  const blocks: (string | string[][])[] = [];
  try {
    const mammoth = await loadMammoth();
    await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      {
        transformDocument: (doc: DocNode) => (blocksOf(doc, blocks), doc),
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
  } catch (err) {
    throw new UnusableMaterial(`The Word document could not be read (${(err as Error).message}).`);
  }
  const out: Passage[] = [];
  let paragraphs = 0;
  let tables = 0;
  for (const b of blocks) {
    if (typeof b === 'string') {
      if (b) out.push({ text: b, citation: `paragraph ${++paragraphs}` });
    } else if (b.length) out.push({ text: b.map((r) => `| ${r.join(' | ')} |`).join('\n'), citation: `table ${++tables}` });
  }
  return out;
}

/** TXT/Markdown (or pasted notes) → paragraph passages, citation "paragraph N". */
export function readPlainText(text: string): Passage[] {
  return textToParagraphPassages(text);
}
