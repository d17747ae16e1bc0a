/**
 * Renders question text (Markdown with LaTeX: `$…$` inline, `$$…$$` display, and the
 * HTML `<sup>`/`<sub>` found in real past papers) to sanitised HTML for both pages.
 * Math is typeset by KaTeX (trust off, so `\href`/`\url`/`\htmlData` cannot inject
 * links or attributes); the resulting HTML goes through DOMPurify with a small
 * allow-list, so no script from question content can ever run (DESIGN §6).
 */
import { Marked } from 'marked';
import katex from 'katex';
import DOMPurify from 'dompurify';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

/** `\frac` or `\binom` (not `\tfrac`, the author's explicit small fraction) */
const FRACTION = /\\(?:frac|binom)(?![a-zA-Z])/;

function typeset(tex: string, displayMode: boolean): string {
  // Inline, KaTeX sets a fraction's numerator and denominator in script style (70 % of an
  // already small size: ~9 px glyphs on a hall PC, issue 20). Display style sets them at
  // the size of the text, as \dfrac would; nested fractions still shrink one step.
  if (!displayMode && FRACTION.test(tex)) tex = `\\displaystyle ${tex}`;
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: false, trust: false, strict: 'ignore', maxExpand: 200, maxSize: 20 });
  } catch {
    return escapeHtml(tex);
  }
}

/** HTML-escapes text for safe insertion as text content. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'b', 'i', 'u', 'sup', 'sub', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'hr', 'h1', 'h2', 'h3', 'h4', 'del', 's',
  // KaTeX output (HTML + MathML)
  'math', 'semantics', 'mrow', 'mi', 'mo', 'mn', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mtext', 'mspace', 'mtable', 'mtr', 'mtd', 'mover', 'munder', 'munderover', 'mstyle', 'mpadded', 'mphantom', 'menclose', 'annotation', 'svg', 'path', 'line'];
const ALLOWED_ATTR = ['class', 'style', 'aria-hidden', 'encoding', 'mathvariant', 'xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'd', 'x1', 'x2', 'y1', 'y2', 'stroke-width', 'colspan', 'rowspan', 'align', 'display', 'fence', 'stretchy', 'lspace', 'rspace', 'separator', 'accent', 'minsize', 'maxsize', 'scriptlevel', 'columnalign', 'rowspacing', 'columnspacing', 'columnlines', 'linethickness'];

/**
 * Markdown + LaTeX → sanitised HTML string.
 * @param source question prompt, option text or explanation (may be empty)
 * @param inline render without a wrapping paragraph (options, short labels)
 */
export function renderRich(source: string, inline = false): string {
  const maths: string[] = [];
  // Typeset math first and protect it from the Markdown pass with placeholders.
  const protectedSrc = (source ?? '').replace(MATH, (_m, display: string | undefined, inl: string | undefined) => {
    maths.push(display !== undefined ? typeset(display.trim(), true) : typeset(String(inl).trim(), false));
    return `\u0000M${maths.length - 1}\u0000`;
  });
  let html = inline ? (marked.parseInline(protectedSrc) as string) : (marked.parse(protectedSrc) as string);
  html = html.replace(/\u0000M(\d+)\u0000/g, (_m, i: string) => maths[Number(i)] ?? '');
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    FORBID_TAGS: ['style', 'script', 'iframe', 'object', 'embed', 'form', 'input', 'img', 'a', 'foreignObject'],
  });
}
