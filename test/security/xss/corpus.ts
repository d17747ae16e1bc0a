/**
 * The XSS corpus and the in-page inspection for test/security/xss.test.ts.
 *
 * Every payload, if it ever ran, would record its number in `top.__xss` (an array on
 * the top window, so payloads inside frames count too) or open an alert whose message
 * contains "xss". Families: script tags, event handlers (img onerror, svg onload,
 * details ontoggle, autofocus onfocus, body onload), javascript: URLs (links, iframes,
 * object/embed, form actions, entity-encoded and SVG xlink variants), iframe srcdoc,
 * mutation-XSS shapes that fool naive sanitisers, attribute break-outs, KaTeX
 * `\href` / `\url` / `\htmlData` / `\htmlId` / `\htmlStyle` / `\includegraphics`, and
 * Markdown link, image, autolink and reference-definition tricks.
 */

/** JavaScript that records payload `n` as executed. */
export const mark = (n: number) => `(top.__xss=top.__xss||[]).push(${n})`;

/** Payload builders; index + 1 is the payload's number. */
const BUILDERS: ((n: number) => string)[] = [
  (n) => `<script>${mark(n)}</script>`,
  (n) => `<img src=x onerror=${mark(n)}>`,
  (n) => `<img src="x" onerror="alert('xss${n}')">`,
  (n) => `<svg onload=${mark(n)}></svg>`,
  (n) => `<svg><script>${mark(n)}</script></svg>`,
  (n) => `<iframe src="javascript:${mark(n)}"></iframe>`,
  (n) => `<iframe srcdoc="<script>${mark(n)}</script>"></iframe>`,
  (n) => `<a href="javascript:${mark(n)}">click me</a>`,
  (n) => `<a href="&#106;avascript:alert('xss${n}')">entity link</a>`,
  (n) => `<details open ontoggle=${mark(n)}><summary>s</summary></details>`,
  (n) => `<input autofocus onfocus=${mark(n)}>`,
  (n) => `<body onload=${mark(n)}>`,
  (n) => `<object data="javascript:${mark(n)}"></object><embed src="javascript:${mark(n)}">`,
  (n) => `<form><button formaction="javascript:${mark(n)}">go</button></form>`,
  (n) => `<svg><a xlink:href="javascript:${mark(n)}"><text x="0" y="15">svg link</text></a></svg>`,
  (n) => `<math><mtext><table><mglyph><style><img src=x onerror=${mark(n)}>`,
  (n) => `<noscript><p title="</noscript><img src=x onerror=${mark(n)}>">`,
  (n) => `"><script>${mark(n)}</script><p x="`,
  (n) => `<img src=x onerror=${mark(n)}//`,
  (n) => `<div style="background:url(javascript:${mark(n)})">styled</div>`,
  (n) => `<style>@import 'javascript:${mark(n)}';</style>`,
  (n) => `$\\href{javascript:${mark(n)}}{katex href}$`,
  (n) => `$\\url{javascript:${mark(n)}}$`,
  (n) => `$\\htmlData{onload=${mark(n)}}{data}$ and $\\htmlId{x" onmouseover="${mark(n)}}{id}$`,
  (n) => `$\\htmlStyle{background:url(javascript:${mark(n)})}{style}$ $\\includegraphics{javascript:${mark(n)}}$`,
  (n) => `$$\\text{<img src=x onerror=${mark(n)}>}$$`,
  (n) => `[markdown link](javascript:${mark(n)})`,
  (n) => `[entity link](&#106;avascript:alert('xss${n}'))`,
  (n) => `![image](x" onerror="${mark(n)})`,
  (n) => `<javascript:alert('xss${n}')>`,
  (n) => `[ref link][r${n}]\n\n[r${n}]: javascript:alert('xss${n}')`,
  (n) => `[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgneHNzJyk8L3NjcmlwdD4=)`,
  (n) => `**bold <img src=x onerror=${mark(n)}>** \`<script>${mark(n)}</script>\``,
];

export interface Payload {
  n: number;
  text: string;
}

/** The whole corpus, numbered from 1. */
export const PAYLOADS: Payload[] = BUILDERS.map((b, i) => ({ n: i + 1, text: b(i + 1) }));

/** A short payload for fields of at most `max` characters (names, titles, IDs). */
export function shortPayload(n: number, max: number): string {
  const options = [`<img src=x onerror=${mark(n)}>`, `<svg onload=${mark(n)}>`, `"><svg onload=alert('xss${n}')>`];
  return options.find((p) => p.length <= max) ?? `<b>${n}</b>`;
}

export interface Findings {
  executed: number[];
  /** dangerous markup that reached the DOM even if it did not run */
  dangerous: string[];
}

/**
 * Evaluated in the page (a string, so the test bundler cannot rewrite it): what executed
 * (`top.__xss`) and any element carrying an event-handler attribute, a `javascript:` or
 * `data:text/html` URL, a `srcdoc`, or a script mentioning `__xss`, in the document and
 * its same-origin frames. Resolves to Findings.
 */
export const INSPECT_PAGE = `(() => {
  const dangerous = [];
  const urlAttrs = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc', 'background', 'poster'];
  const visit = (doc, where) => {
    for (const el of Array.from(doc.querySelectorAll('*'))) {
      for (const a of Array.from(el.attributes)) {
        const v = a.value.replace(/[\\u0000-\\u0020]/g, '').toLowerCase();
        const tag = '<' + el.tagName.toLowerCase() + ' ' + a.name + '="' + a.value.slice(0, 60) + '">';
        if (a.name.startsWith('on')) dangerous.push(where + tag);
        else if (urlAttrs.includes(a.name) && (v.startsWith('javascript:') || v.startsWith('data:text/html') || a.name === 'srcdoc')) dangerous.push(where + tag);
      }
      if (el.tagName === 'SCRIPT' && (el.textContent || '').includes('__xss')) dangerous.push(where + '<script>' + (el.textContent || '').slice(0, 60));
      if (el.tagName === 'IFRAME') {
        try {
          if (el.contentDocument) visit(el.contentDocument, where + 'iframe > ');
        } catch (e) { /* cross-origin: nothing of ours */ }
      }
    }
  };
  visit(document, '');
  return { executed: [...(window.__xss || [])], dangerous };
})()`;
