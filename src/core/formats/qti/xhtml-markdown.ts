/**
 * QTI item-body XHTML → HallCBT's Markdown (docs/design.md §6: question text is Markdown with
 * `$…$` maths; docs/decisions.md, "QTI 3.0 content packages"). Paragraphs and blocks are
 * separated by a blank line; `<br/>` is a line break; strong/b → `**…**`, em/i → `*…*`,
 * code → `` `…` ``, pre → a fenced block, lists → `-` / `1.` items, headings → `#`,
 * tables → GFM tables, images → `![alt](src)` (the import then warns that the hall cannot
 * show them), links → `[text](href)`, MathML → LaTeX (mathml-tex.ts); `<sup>`, `<sub>` and
 * `<u>` are kept as HTML (the renderer allows them). Other elements give their content.
 * Text is not escaped: characters that mean something in Markdown are rare in item text
 * and an escaped `\*` would not survive a round trip.
 */
import { mathToMarkdown } from './mathml-tex.js';
import { childElements, isElement, textContent, type XmlElement, type XmlNode } from './xml.js';

const BLOCKS = new Set(['p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'figure', 'figcaption', 'blockquote', 'ul', 'ol', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'hr', 'qti-content-body', 'dl', 'nav', 'main']);

const isBlock = (n: XmlNode): boolean => isElement(n) && BLOCKS.has(n.name);

/** Collapses white space as HTML does (inside a paragraph; line breaks are kept as `\n`). */
function tidyInline(s: string): string {
  return s
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v]+/g, ' ').trim())
    .join('\n')
    .trim();
}

/** Inline Markdown of a run of nodes. */
function inline(nodes: XmlNode[]): string {
  return nodes.map(inlineNode).join('');
}

const wrap = (mark: string, inner: string): string => {
  const t = inner.trim();
  if (!t) return inner;
  const lead = /^\s/.test(inner) ? ' ' : '';
  const trail = /\s$/.test(inner) ? ' ' : '';
  return `${lead}${mark}${t}${mark}${trail}`;
};

function inlineNode(n: XmlNode): string {
  if (typeof n === 'string') return n.replace(/\s+/g, ' ');
  switch (n.name) {
    case 'strong':
    case 'b':
      return wrap('**', inline(n.children));
    case 'em':
    case 'i':
      return wrap('*', inline(n.children));
    case 'del':
    case 's':
      return wrap('~~', inline(n.children));
    case 'code':
    case 'kbd':
      return `\`${textContent(n)}\``;
    case 'br':
      return '\n';
    case 'sup':
    case 'sub':
    case 'u':
      return `<${n.name}>${inline(n.children).trim()}</${n.name}>`;
    case 'math':
      return mathToMarkdown(n);
    case 'img':
      return `![${n.attrs.alt ?? ''}](${n.attrs.src ?? ''})`;
    case 'a':
      return n.attrs.href ? `[${inline(n.children).trim()}](${n.attrs.href})` : inline(n.children);
    case 'qti-feedback-inline':
    case 'qti-feedback-block':
    case 'qti-modal-feedback':
    case 'qti-rubric-block':
    case 'qti-template-inline':
      return '';
    default:
      return isBlock(n) ? ` ${blocks(n.children).join(' ')} ` : inline(n.children);
  }
}

const indent = (text: string, by: string): string => text.split('\n').map((l, i) => (i === 0 || !l ? l : by + l)).join('\n');

function list(e: XmlElement): string {
  const ordered = e.name === 'ol';
  let n = Number(e.attrs.start ?? 1) || 1;
  return childElements(e, 'li')
    .map((li) => {
      const marker = ordered ? `${n++}. ` : '- ';
      return marker + indent(blocks(li.children).join('\n\n'), ' '.repeat(marker.length));
    })
    .join('\n');
}

function table(e: XmlElement): string {
  const rows = childElements(e).flatMap((c) => (c.name === 'tr' ? [c] : childElements(c, 'tr')));
  if (!rows.length) return '';
  const cells = rows.map((r) => childElements(r).filter((c) => c.name === 'td' || c.name === 'th').map((c) => tidyInline(inline(c.children)).replace(/\n/g, ' ').replace(/\|/g, '\\|')));
  const width = Math.max(...cells.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  return [line(cells[0]!), `|${' --- |'.repeat(width)}`, ...cells.slice(1).map(line)].join('\n');
}

function block(e: XmlElement): string {
  switch (e.name) {
    case 'ul':
    case 'ol':
      return list(e);
    case 'pre':
      return `\`\`\`\n${textContent(e).replace(/^\n/, '').replace(/\n$/, '')}\n\`\`\``;
    case 'hr':
      return '---';
    case 'table':
      return table(e);
    case 'blockquote':
      return blocks(e.children).join('\n\n').split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n');
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return `${'#'.repeat(Number(e.name[1]))} ${tidyInline(inline(e.children)).replace(/\n/g, ' ')}`;
    default:
      return blocks(e.children).join('\n\n');
  }
}

/**
 * Markdown blocks of a run of flow content: each block element gives a block, and the
 * inline content between them a paragraph.
 * @throws UnreadableMath (mathml-tex.ts) for MathML it cannot write as LaTeX
 */
export function blocks(nodes: XmlNode[]): string[] {
  const out: string[] = [];
  let run: XmlNode[] = [];
  const flush = () => {
    const p = tidyInline(inline(run));
    if (p) out.push(p);
    run = [];
  };
  for (const n of nodes) {
    if (isElement(n) && isBlock(n)) {
      flush();
      const b = block(n);
      if (b.trim()) out.push(b);
    } else run.push(n);
  }
  flush();
  return out;
}

/** Markdown of flow content (blocks separated by a blank line). @throws UnreadableMath */
export function markdownOf(nodes: XmlNode[]): string {
  return blocks(nodes).join('\n\n').trim();
}
