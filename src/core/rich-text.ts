/**
 * Renders question text (Markdown with LaTeX: `$…$` inline, `$$…$$` display, and the
 * HTML `<sup>`/`<sub>` found in real past papers) to sanitised HTML. One module for both
 * places that render: the server, once per paper, for the candidate page (issue 26: the
 * page ships no renderer, no sanitiser and no KaTeX script), and the admin page's
 * question list and editor preview, so an examiner previews exactly what candidates get.
 * Math is typeset by KaTeX (trust off, so `\href`/`\url`/`\htmlData` cannot inject links
 * or attributes); the resulting HTML goes through sanitize-html with a small allow-list,
 * so no script from question content can ever run (docs/design.md §6). sanitize-html parses with
 * htmlparser2, so the same code gives the same output in Node and in the browser.
 * Maths comes in two forms (MathForm): KaTeX HTML + MathML, the default, or MathML only
 * for the candidate page of a browser that lays out MathML (`?math=mathml`).
 */
import { Marked } from 'marked';
import katex from 'katex';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

/** `\frac` or `\binom` (not `\tfrac`, the author's explicit small fraction) */
const FRACTION = /\\(?:frac|binom)(?![a-zA-Z])/;

/**
 * The two forms a question's maths is rendered in (docs/decisions.md, issue 26):
 * - `html`: KaTeX's HTML (needs KaTeX's stylesheet and fonts; what Chrome 80-era browsers
 *   can show) with its MathML copy for screen readers;
 * - `mathml`: KaTeX's MathML alone, shown natively by browsers with MathML Core (Chromium
 *   109+, Firefox, Safari) in a system math font: ~15 % of the bytes, no KaTeX CSS or fonts.
 */
export type MathForm = 'html' | 'mathml';

function typeset(tex: string, displayMode: boolean, form: MathForm): string {
  // Inline, KaTeX sets a fraction's numerator and denominator in script style (70 % of an
  // already small size: ~9 px glyphs on a hall PC, issue 20). Display style sets them at
  // the size of the text, as \dfrac would; nested fractions still shrink one step.
  if (!displayMode && FRACTION.test(tex)) tex = `\\displaystyle ${tex}`;
  try {
    const out = katex.renderToString(tex, { displayMode, output: form === 'mathml' ? 'mathml' : KATEX_OUTPUT, throwOnError: false, trust: false, strict: 'ignore', maxExpand: 200, maxSize: 20 });
    // KaTeX's MathML-only output has no `.katex-display` box: the same wrapper as its HTML
    // form, so display maths is a centred block that scrolls on its own (web/candidate/styles.css)
    return form === 'mathml' && displayMode ? `<span class="katex-display">${out}</span>` : out;
  } catch {
    return escapeHtml(tex);
  }
}

/**
 * KaTeX's output: its HTML (what the candidate page's Chrome 80-era browsers can show; MathML
 * only reached Chromium in version 109) plus the MathML copy screen readers read
 * (docs/decisions.md, issue 26).
 */
const KATEX_OUTPUT: 'html' | 'htmlAndMathml' = 'htmlAndMathml';

/** HTML-escapes text for safe insertion as text content. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'b', 'i', 'u', 'sup', 'sub', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'hr', 'h1', 'h2', 'h3', 'h4', 'del', 's',
  // KaTeX output (HTML + MathML)
  'math', 'semantics', 'mrow', 'mi', 'mo', 'mn', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mtext', 'mspace', 'mtable', 'mtr', 'mtd', 'mover', 'munder', 'munderover', 'mstyle', 'mpadded', 'mphantom', 'menclose', 'svg', 'path', 'line'];
const ALLOWED_ATTR = ['class', 'style', 'aria-hidden', 'encoding', 'mathvariant', 'xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'd', 'x1', 'x2', 'y1', 'y2', 'stroke-width', 'colspan', 'rowspan', 'align', 'display', 'fence', 'stretchy', 'lspace', 'rspace', 'separator', 'accent', 'minsize', 'maxsize', 'scriptlevel', 'columnalign', 'rowspacing', 'columnspacing', 'columnlines', 'linethickness'];

/**
 * Attributes only KaTeX's MathML-only form keeps (`mathml`): what its MathML builder
 * writes besides ALLOWED_ATTR (KaTeX 0.19 `setAttribute` calls: \displaystyle's
 * displaystyle, \cancel/\boxed's notation, \color's mathcolor, \colorbox's
 * mathbackground, \raisebox's voffset/depth, \big's mathsize, \\'s linebreak, …).
 * Not added to the HTML form, whose output stays as it was. `mathcolor`/`mathbackground`
 * keep only a colour name or hex value (MATH_COLOUR).
 */
const MATHML_ONLY_ATTR = ['displaystyle', 'notation', 'mathcolor', 'mathbackground', 'mathsize', 'accentunder', 'depth', 'voffset', 'largeop', 'rowlines', 'linebreak'];

/** A colour in mathcolor/mathbackground: a name or #hex, as KaTeX writes them (nothing else: no url(), no escapes). */
const MATH_COLOUR = /^#?[a-z0-9]{1,20}$/i;

/** A CSS declaration KaTeX writes: a length, offset or colour property with a plain value (no url(), no escapes, no @). */
const STYLE_DECLARATION = /^\s*(?:height|width|min-width|max-width|vertical-align|top|bottom|left|right|margin(?:-(?:left|right|top|bottom))?|padding(?:-(?:left|right|top|bottom))?|border(?:-(?:top|bottom|left|right))?-(?:width|style|color)|color|background-color|font-size)\s*:\s*([-+#.%\w ,()]{1,80})\s*$/i;

/**
 * The declarations of a style attribute that match STYLE_DECLARATION (others dropped:
 * `position`, `background:url(…)`, `behavior`, …), or '' when none does.
 */
export function safeStyle(style: string): string {
  return style
    .split(';')
    .filter((d) => d.trim() !== '')
    .filter((d) => {
      const m = STYLE_DECLARATION.exec(d);
      return !!m && !/url\s*\(|expression\s*\(|image-set|var\s*\(/i.test(m[1]!);
    })
    .map((d) => d.trim())
    .join(';');
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  // the parser keeps attribute names as written (`viewBox`), so the list is matched exactly
  allowedAttributes: { '*': ALLOWED_ATTR },
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  allowProtocolRelative: false,
  // everything else is dropped with its content where the content is code or a form, else unwrapped to its text
  disallowedTagsMode: 'discard',
  // KaTeX's <annotation> repeats the TeX source (already in the question's text): dropped with its content, ~7 % of a maths paper's compressed bytes
  nonTextTags: ['annotation', 'script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'title', 'xmp', 'noembed', 'noframes', 'plaintext', 'foreignObject', 'foreignobject'],
  // style attributes keep only the declarations KaTeX writes (sizes, offsets, colours), see
  // safeStyle; sanitize-html's own style filter needs postcss, which runs in Node only, and
  // the admin page renders in the browser
  parseStyleAttributes: false,
  transformTags: {
    '*': (tagName, attribs) => {
      for (const k of ['mathcolor', 'mathbackground']) if (attribs[k] !== undefined && !MATH_COLOUR.test(attribs[k]!)) delete attribs[k];
      if (attribs.style === undefined) return { tagName, attribs };
      const style = safeStyle(attribs.style);
      const { style: _dropped, ...rest } = attribs;
      return { tagName, attribs: style ? { ...rest, style } : rest };
    },
  },
  parser: { lowerCaseAttributeNames: false, lowerCaseTags: true },
};

/** The `mathml` form's sanitiser: SANITIZE with MATHML_ONLY_ATTR. */
const SANITIZE_MATHML: sanitizeHtml.IOptions = { ...SANITIZE, allowedAttributes: { '*': [...ALLOWED_ATTR, ...MATHML_ONLY_ATTR] } };

/**
 * Markdown + LaTeX → sanitised HTML string.
 * @param source question prompt, option text or explanation (may be empty)
 * @param inline render without a wrapping paragraph (options, short labels)
 * @param form how maths is written: `html` (KaTeX HTML + MathML, the default) or `mathml` (MathML only)
 */
export function renderRich(source: string, inline = false, form: MathForm = 'html'): string {
  return compactHtml(sanitisedRich(source, inline, form));
}

/** renderRich before compactHtml (the tests compare the two DOMs). */
export function sanitisedRich(source: string, inline = false, form: MathForm = 'html'): string {
  const maths: string[] = [];
  // Typeset math first and protect it from the Markdown pass with placeholders.
  const protectedSrc = (source ?? '').replace(MATH, (_m, display: string | undefined, inl: string | undefined) => {
    maths.push(display !== undefined ? typeset(display.trim(), true, form) : typeset(String(inl).trim(), false, form));
    return `\u0000M${maths.length - 1}\u0000`;
  });
  let html = inline ? (marked.parseInline(protectedSrc) as string) : (marked.parse(protectedSrc) as string);
  html = html.replace(/\u0000M(\d+)\u0000/g, (_m, i: string) => maths[Number(i)] ?? '');
  return sanitizeHtml(html, form === 'mathml' ? SANITIZE_MATHML : SANITIZE);
}

/**
 * Sanitised HTML written shorter, with the same DOM for everything a browser shows
 * (issue 26: the start response carries ~300 such fragments per paper, and a browser on
 * plain HTTP accepts only gzip, which pays for every byte of KaTeX's markup):
 * - attribute values made only of `[\w.:;%#-]` lose their quotes (`class=mord`: the HTML
 *   parser reads the same value; only inside tags, and only before white space or `>`);
 * - KaTeX's MathML loses `xmlns` (an HTML parser puts `<math>` in the MathML namespace by
 *   itself) and the `<semantics>` wrapper, which held the `<annotation>` the sanitiser
 *   drops: `<math><mrow>…</mrow></math>` is what a screen reader reads either way.
 * Input must be sanitize-html's output: text and attribute values have `<`, `>` and `"`
 * escaped, so every `<` followed by a letter or `/` starts a tag.
 */
export function compactHtml(html: string): string {
  return html
    .replace(/<\/?semantics>/g, '')
    .replace(/<[a-z][^<>]*>/g, (tag) => tag.replace(/ xmlns="http:\/\/www\.w3\.org\/1998\/Math\/MathML"(?=[\s>])/, '').replace(/="([\w.:;%#-]+)"(?=[\s>])/g, '=$1'));
}
