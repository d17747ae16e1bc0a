/**
 * Which form of the paper's maths this page asks for (issue 26, docs/decisions.md). A
 * browser that lays out MathML Core (Chromium 109+, Firefox, Safari) gets the questions
 * with `?math=mathml`: MathML only, shown in the system's math font (styles.css), a sixth
 * of the bytes and no KaTeX stylesheet or fonts. Any other browser (the Chrome 80-era hall
 * PCs) gets KaTeX's HTML, and only then does the page link KaTeX's stylesheet (whose fonts
 * the browser fetches as the maths needs them): index.html links none.
 */

declare const __KATEX_CSS__: string;

let mathml: boolean | null = null;

/**
 * True when this browser lays out MathML: the standard probe, an `<mspace>` of 77 × 23 px
 * measured with getBoundingClientRect (a browser without MathML shows an empty inline
 * element of no size). Measured once, on the first call (the page calls it at load).
 */
export function showsMathml(): boolean {
  if (mathml === null) mathml = probe();
  return mathml;
}

function probe(): boolean {
  try {
    const box = document.createElement('div');
    box.style.position = 'absolute';
    box.style.visibility = 'hidden';
    box.innerHTML = '<math><mspace height="23px" width="77px"></mspace></math>';
    document.body.appendChild(box);
    const space = box.firstChild && box.firstChild.firstChild;
    const rect = space && (space as Element).getBoundingClientRect ? (space as Element).getBoundingClientRect() : null;
    document.body.removeChild(box);
    return !!rect && Math.abs(rect.width - 77) <= 1 && Math.abs(rect.height - 23) <= 1;
  } catch {
    return false;
  }
}

/** The query that asks for the questions in this browser's form: `?math=mathml`, or '' (KaTeX HTML, the server's default). */
export function paperQuery(): string {
  return showsMathml() ? '?math=mathml' : '';
}

/** The content-hashed KaTeX stylesheet (scripts/build-web.mjs defines it; the unhashed name outside the build). */
function katexCssHref(): string {
  return typeof __KATEX_CSS__ === 'string' ? __KATEX_CSS__ : '/vendor/katex/katex.min.css';
}

/** How long the maths stays hidden waiting for KaTeX's stylesheet, ms (the service worker's own network wait is 4 s). */
const KATEX_CSS_WAIT_MS = 8000;

interface RenderedQuestion {
  promptHtml?: string;
  options?: { html?: string }[];
}

/**
 * Links KaTeX's stylesheet (once) when the paper holds KaTeX's HTML: the form an old
 * browser asked for, or a paper kept on this PC from such a request. A paper in MathML, or
 * without maths, links nothing, so the browser fetches no KaTeX CSS and no KaTeX font.
 * Until the stylesheet is in (or failed), `<html>` carries the class `maths-loading` and
 * styles.css hides the maths: without KaTeX's CSS its HTML shows every formula twice and
 * unstacked, which a candidate must never read as the question (docs/decisions.md).
 */
export function styleMaths(questions: RenderedQuestion[] | null | undefined): void {
  const katexHtml = (questions || []).some((q) => /katex-html/.test(q.promptHtml || '') || (q.options || []).some((o) => /katex-html/.test(o.html || '')));
  if (!katexHtml || document.getElementById('katex-css')) return;
  const link = document.createElement('link');
  link.id = 'katex-css';
  link.rel = 'stylesheet';
  link.href = katexCssHref();
  const root = document.documentElement;
  root.classList.add('maths-loading');
  const loaded = () => root.classList.remove('maths-loading');
  link.onload = loaded;
  link.onerror = loaded;
  // a stylesheet that never arrives must not hide the maths for the whole exam: unstyled beats unseen
  setTimeout(loaded, KATEX_CSS_WAIT_MS);
  // before the page's own stylesheet, as index.html linked it (styles.css overrides a few KaTeX sizes)
  const own = document.querySelector('link[rel="stylesheet"]');
  document.head.insertBefore(link, own);
}
